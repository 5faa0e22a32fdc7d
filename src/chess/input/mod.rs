//! Move input: every form a person types, read against a position.
//!
//! [`parse_move`] accepts (SPEC §1):
//!
//! - SAN: `e4`, `Nf3`, `exd5`, `Nbd7`, `R1e2`, `Qh4xe1`, `O-O`, `O-O-O`,
//!   `e8=Q`, with or without `+ # ! ? !! ?! e.p.` and a move number (`12...`);
//! - coordinates / long algebraic: `e2e4`, `e7e8q`, `e2-e4`, `Ng1-f3`,
//!   `e4xd5`, and castling as the king's move `e1g1` (or onto its rook,
//!   `e1h1`, also as SAN `Kxh1`). In Chess960 the king onto its rook is
//!   the form; the king's step to its castled square (`b1c1` with the rook
//!   on a1) castles only where no ordinary king move has those squares, as
//!   lichess reads a king dropped on its castled square;
//! - forgiving forms: `0-0`, `o-o`, `e8Q`, `e8q`, `e8=q`, upper-case squares
//!   (`E4`, `NF3`, as phone keyboards type them), lower-case piece letters
//!   (`nf3`), `ed5` for `exd5`, and a piece move written with or without the
//!   capture mark (`Nf3` for `Nxf3` and the reverse; pawns are not treated
//!   so loosely, since `d5` for `exd5` could be a slip);
//! - `b…` is the one clash between a file and a piece letter: `bxc3` is the
//!   b-pawn's capture when that is legal, else the bishop's; `Bxc3` is the
//!   bishop's, else the b-pawn's; `b4` is always the pawn;
//! - Chinese piece names (王 K, 后/皇后 Q, 车 R, 象 B, 马 N, 兵 P; traditional
//!   forms too) as in `马f3`, `短易位` = O-O, `长易位` = O-O-O, full-width
//!   characters and any whitespace.
//!
//! Failures come in three kinds, kept apart as shakmaty keeps parse errors
//! apart from rule errors: [`InputError::Unreadable`], [`InputError::Illegal`]
//! (with an [`IllegalReason`]) and [`InputError::Ambiguous`]. Their `Display`
//! is the short message a person reads, with a few legal moves to try.
//!
//! All legality comes from shakmaty; this module only normalises text
//! (`normalize`), explains refusals (`diagnose`) and lists moves
//! ([`suggest`]).

mod diagnose;
mod error;
mod normalize;
mod suggest;

use shakmaty::{
    san::{San, SanError},
    uci::UciMove,
    Move, Position, Role,
};

use self::{
    diagnose::{diagnose, pawn_capture},
    error::echo,
    normalize::Reading,
    suggest::{focus_of_san, hints, Focus},
};
pub use self::{
    error::{piece_name, CastlingBlock, DropBlock, IllegalReason, InputError},
    suggest::suggest,
};

/// Reads what a person typed as a move in `pos`.
///
/// # Errors
///
/// [`InputError::Unreadable`] when the text is no move in any known form
/// (including empty and over-long text), [`InputError::Illegal`] when it is
/// a move the rules forbid here, [`InputError::Ambiguous`] when several
/// legal moves fit.
///
/// # Examples
///
/// ```
/// use chessbot::chess::input::parse_move;
/// use shakmaty::{Chess, Square};
///
/// let pos = Chess::default();
/// let m = parse_move(&pos, "马f3")?;
/// assert_eq!(m.to(), Square::F3);
/// assert_eq!(parse_move(&pos, "g1-f3")?, m);
///
/// let err = parse_move(&pos, "Ke2").unwrap_err();
/// assert!(err.to_string().starts_with("`Ke2` is not legal here"));
/// # Ok::<_, chessbot::chess::input::InputError>(())
/// ```
pub fn parse_move<P: Position + Clone>(pos: &P, text: &str) -> Result<Move, InputError> {
    let readings = normalize::readings(text);
    if readings.is_empty() {
        return Err(InputError::Unreadable {
            input: echo(text),
            suggestions: hints(pos, Focus::default()),
        });
    }
    for reading in &readings {
        match resolve(pos, reading) {
            Resolved::Move(m) => return Ok(m),
            Resolved::Ambiguous(role, moves) => {
                return Err(InputError::Ambiguous {
                    input: echo(text),
                    role,
                    candidates: moves
                        .into_iter()
                        .map(|m| San::from_move(pos, m).to_string())
                        .collect(),
                })
            }
            Resolved::Illegal => {}
        }
    }
    // Every reading is illegal: explain the most telling one. "No such
    // piece can go there" says least, so any other reason wins over it.
    let vague = |r: &IllegalReason| matches!(r, IllegalReason::NoPieceCanGoThere { .. });
    let mut best: Option<(IllegalReason, &Reading)> = None;
    for reading in &readings {
        let reason = diagnose(pos, reading);
        if best
            .as_ref()
            .is_none_or(|(b, _)| vague(b) && !vague(&reason))
        {
            best = Some((reason, reading));
        }
    }
    let (reason, reading) = match best {
        Some(best) => best,
        None => (IllegalReason::NoLegalMoves, &readings[0]),
    };
    Err(InputError::Illegal {
        input: echo(text),
        reason,
        suggestions: hints(pos, focus(reading)),
    })
}

enum Resolved {
    Move(Move),
    Ambiguous(Role, Vec<Move>),
    Illegal,
}

fn resolve<P: Position + Clone>(pos: &P, reading: &Reading) -> Resolved {
    match resolve_plain(pos, reading) {
        Resolved::Illegal => castling_by_squares(pos, reading),
        done => done,
    }
}

/// Castling written as squares: the king onto its own rook (`e1h1`,
/// `Kxh1`) or onto its castled square (`e1g1`, `f1g1` in Chess960). Read
/// only when no other move fits, so a Chess960 king's ordinary step keeps
/// its meaning.
fn castling_by_squares<P: Position + Clone>(pos: &P, reading: &Reading) -> Resolved {
    let (from, to) = match *reading {
        Reading::San(San::Normal {
            role: Role::King,
            to,
            promotion: None,
            ..
        }) => (None, to),
        Reading::Uci {
            role: None | Some(Role::King),
            from,
            to,
            promotion: None,
        } => (Some(from), to),
        _ => return Resolved::Illegal,
    };
    let castles: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| match *m {
            Move::Castle { king, rook } => {
                from.is_none_or(|f| f == king)
                    && (rook == to
                        || (m.castling_side().map(|s| s.king_to(pos.turn())) == Some(to)))
            }
            _ => false,
        })
        .collect();
    match castles.as_slice() {
        [one] => Resolved::Move(*one),
        _ => Resolved::Illegal,
    }
}

fn resolve_plain<P: Position + Clone>(pos: &P, reading: &Reading) -> Resolved {
    match *reading {
        Reading::San(san) => match resolve_san(pos, san) {
            Resolved::Illegal => match loosened(san) {
                Some(loose) => resolve_san(pos, loose),
                None => Resolved::Illegal,
            },
            done => done,
        },
        Reading::Uci {
            role,
            from,
            to,
            promotion,
        } => {
            if role.is_some() && pos.board().role_at(from) != role {
                return Resolved::Illegal;
            }
            let uci = UciMove::Normal {
                from,
                to,
                promotion,
            };
            uci.to_move(pos).map_or(Resolved::Illegal, Resolved::Move)
        }
    }
}

fn resolve_san<P: Position + Clone>(pos: &P, san: San) -> Resolved {
    match san.to_move(pos) {
        Ok(m) => Resolved::Move(m),
        Err(SanError::AmbiguousSan) => {
            let role = match san {
                San::Normal { role, .. } => role,
                _ => Role::King,
            };
            let mut moves: Vec<Move> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| san.matches(*m))
                .collect();
            // Name them in board order of their origin: file a→h, rank 1→8.
            moves.sort_by_key(|m| m.from().map(|sq| (sq.file(), sq.rank())));
            Resolved::Ambiguous(role, moves)
        }
        Err(SanError::IllegalSan) => Resolved::Illegal,
    }
}

/// The same SAN with the capture mark read loosely: a piece with the mark
/// flipped (`Nf3` ⇄ `Nxf3`); a pawn changing file without the mark (`ed5`).
fn loosened(san: San) -> Option<San> {
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            let capture = if role == Role::Pawn {
                if capture || !pawn_capture(file, capture, to) {
                    return None;
                }
                true
            } else {
                !capture
            };
            Some(San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            })
        }
        _ => None,
    }
}

fn focus(reading: &Reading) -> Focus {
    match *reading {
        Reading::San(san) => focus_of_san(&san),
        Reading::Uci { role, from, to, .. } => Focus {
            role,
            from: Some(from),
            to: Some(to),
        },
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, CastlingMode, Chess};

    use super::*;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("bad test FEN {fen}"))
    }

    #[test]
    fn reads_the_basic_forms() {
        let start = Chess::default();
        let nf3 = parse_move(&start, "Nf3").ok();
        assert!(nf3.is_some());
        for text in ["nf3", "Ng1f3", "Ng1-f3", "g1f3", "马f3", "ＮＦ３", " Nf3! "] {
            assert_eq!(parse_move(&start, text).ok(), nf3, "{text}");
        }
    }

    #[test]
    fn explains_king_into_check() {
        let p = pos("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
        let err = parse_move(&p, "Kd1").unwrap_err();
        assert!(matches!(
            err,
            InputError::Illegal {
                reason: IllegalReason::KingIntoCheck,
                ..
            }
        ));
    }
}
