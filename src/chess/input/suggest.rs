//! Legal moves to offer: Discord autocomplete and the "Try e.g." hints in
//! error messages.

use shakmaty::{
    san::{San, SanPlus, Suffix},
    uci::UciMove,
    Move, Position, Role, Square,
};

use super::normalize::{map_char, MAX_INPUT_CHARS};

/// At most this many hints in an error message.
pub const MAX_HINTS: usize = 6;

/// One legal move with what is needed to match and sort it.
struct Entry {
    m: Move,
    san: String,
    mate: bool,
    check: bool,
}

fn entries<P: Position + Clone>(pos: &P) -> Vec<Entry> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let san = SanPlus::from_move(pos.clone(), m);
            Entry {
                m,
                san: san.to_string(),
                mate: san.suffix == Some(Suffix::Checkmate),
                check: san.suffix == Some(Suffix::Check),
            }
        })
        .collect()
}

/// Tactical group: mates, then captures and promotions, then checks, then
/// the rest.
fn group(e: &Entry) -> u8 {
    if e.mate {
        0
    } else if e.m.is_capture() || e.m.is_promotion() {
        1
    } else if e.check {
        2
    } else {
        3
    }
}

fn role_rank(role: Role) -> u8 {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// Where the moving piece lands (for castling: the king's square).
fn landing(m: &Move) -> Square {
    match *m {
        Move::Castle { king, rook } => {
            let file = if king < rook {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            Square::from_coords(file, king.rank())
        }
        _ => m.to(),
    }
}

/// Board order: destination file a→h, then rank 1→8, then origin.
fn board_key(m: &Move) -> (u32, u32, u32) {
    let to = landing(m);
    (
        to.file().to_u32(),
        to.rank().to_u32(),
        m.from().map_or(0, Square::to_u32),
    )
}

/// Piece kind, then board order; castling after the other king moves,
/// O-O before O-O-O.
fn natural_key(m: &Move) -> (u8, (u32, u32, u32)) {
    match m.castling_side() {
        Some(side) => (6, (u32::from(side.is_queen_side()), 0, 0)),
        None => (role_rank(m.role()), board_key(m)),
    }
}

/// Distance of a square from the four centre squares (0 for d4, e4, d5, e5).
fn off_centre(sq: Square) -> u32 {
    let d = |x: u32| if x < 4 { 3 - x } else { x - 4 };
    d(sq.file().to_u32()) + d(sq.rank().to_u32())
}

/// Lower-case, without `x - = + #` and with `0` as `o`, so that `nxf3`,
/// `Nf3`, `0-0` and `o-o` compare alike.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, 'x' | 'X' | '-' | '=' | '+' | '#' | ':'))
        .map(|c| {
            if c == '0' {
                'o'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Legal moves in SAN (with `+`/`#`) whose spelling starts with `prefix`,
/// at most `limit` of them.
///
/// Matching is forgiving: case does not matter, `x - = + #` are ignored,
/// `0` counts as `o`, full-width letters and the Chinese piece names
/// (`马` = N) are read as in [`parse_move`](super::parse_move), and from two
/// characters on a prefix of the coordinate forms matches too (`g1`, `g1f3`
/// and `ng1` all offer `Nf3`). So `n` offers every knight move and `b` both
/// b-pawn and bishop moves.
///
/// Order, "most natural first": checkmates, then captures and promotions,
/// then checks, then quiet moves; within each group pawns, knights,
/// bishops, rooks, queens, king, castling (O-O first); then board order
/// of the destination (file a→h, rank 1→8) and the origin. From the start
/// position `N` gives `Na3, Nc3, Nf3, Nh3` and `e` gives `e3, e4`.
///
/// Never panics; bounded work (a prefix longer than 32 characters matches
/// nothing; at most 218 legal moves are looked at).
pub fn suggest<P: Position + Clone>(pos: &P, prefix: &str, limit: usize) -> Vec<String> {
    if limit == 0 || prefix.len() > MAX_INPUT_CHARS * 8 {
        return Vec::new();
    }
    let prefix = prefix
        .trim()
        .replace("短易位", "O-O")
        .replace("长易位", "O-O-O")
        .replace("長易位", "O-O-O");
    if prefix.chars().count() > MAX_INPUT_CHARS {
        return Vec::new();
    }
    let mut mapped = String::new();
    for c in prefix.chars() {
        match map_char(c) {
            None => {}
            Some(Ok(c)) => mapped.push(c),
            Some(Err(())) => return Vec::new(),
        }
    }
    let wanted = squash(&mapped);
    let mut found: Vec<Entry> = entries(pos)
        .into_iter()
        .filter(|e| {
            if squash(&e.san).starts_with(&wanted) {
                return true;
            }
            // Coordinates only from a whole square on: `b` alone means a
            // b-pawn or a bishop, not "anything leaving the b-file".
            if wanted.len() < 2 {
                return false;
            }
            let uci = UciMove::from_move(e.m, pos.castles().mode()).to_string();
            let letter = e.m.role().char();
            uci.starts_with(&wanted) || format!("{letter}{uci}").starts_with(&wanted)
        })
        .collect();
    found.sort_by_key(|e| (group(e), natural_key(&e.m)));
    found.into_iter().take(limit).map(|e| e.san).collect()
}

/// What an illegal attempt aimed at, to put the nearest legal moves first.
#[derive(Clone, Copy, Debug, Default)]
pub struct Focus {
    pub role: Option<Role>,
    pub from: Option<Square>,
    pub to: Option<Square>,
}

/// At most [`MAX_HINTS`] legal moves in SAN for an error message: first
/// those that match the attempt (same destination, same piece, same kind of
/// piece), then a varied sample: tactical moves first, central squares
/// first, no more than two per kind of piece until all kinds had a turn.
pub fn hints<P: Position + Clone>(pos: &P, focus: Focus) -> Vec<String> {
    let all = entries(pos);
    let relevance = |e: &Entry| {
        if focus.to.is_some_and(|to| landing(&e.m) == to)
            && focus.role.is_none_or(|r| r == e.m.role())
        {
            0
        } else if focus.from.is_some_and(|from| e.m.from() == Some(from)) {
            1
        } else if focus.role == Some(e.m.role()) {
            2
        } else {
            3
        }
    };
    let mut ranked: Vec<&Entry> = all.iter().collect();
    ranked.sort_by_key(|e| {
        (
            relevance(e),
            group(e),
            off_centre(landing(&e.m)),
            natural_key(&e.m),
        )
    });
    let mut out: Vec<String> = Vec::new();
    let mut per_role = [0u8; 6];
    for e in &ranked {
        if out.len() == MAX_HINTS {
            return out;
        }
        let slot = &mut per_role[usize::from(role_rank(e.m.role()))];
        if relevance(e) < 3 || *slot < 2 {
            *slot += 1;
            out.push(e.san.clone());
        }
    }
    for e in &ranked {
        if out.len() == MAX_HINTS {
            break;
        }
        if !out.contains(&e.san) {
            out.push(e.san.clone());
        }
    }
    out
}

/// The focus of a SAN reading.
pub fn focus_of_san(san: &San) -> Focus {
    match *san {
        San::Normal {
            role,
            file,
            rank,
            to,
            ..
        } => Focus {
            role: Some(role),
            from: file.zip(rank).map(|(f, r)| Square::from_coords(f, r)),
            to: Some(to),
        },
        San::Castle(_) => Focus {
            role: Some(Role::King),
            ..Focus::default()
        },
        _ => Focus::default(),
    }
}
