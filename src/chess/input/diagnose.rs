//! Why a reading that matched no legal move is illegal.
//!
//! Legality itself always comes from shakmaty. This module only explains a
//! refusal, using shakmaty's attack tables to tell "no such piece can go
//! there" from "it could, but the king would be in check".

use shakmaty::{
    attacks, san::San, Bitboard, CastlingSide, EnPassantMode, File, Piece, Position, Rank, Role,
    Square,
};

use super::{
    error::{CastlingBlock, DropBlock, IllegalReason},
    normalize::Reading,
};

/// What a reading asks for, in one shape for SAN and coordinates.
struct Query {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    /// `Some(true)`: must capture; `Some(false)`: must not; `None`: either.
    capture: Option<bool>,
    /// Whether the text had a capture mark (for the message only).
    typed_capture: bool,
    to: Square,
    promotion: Option<Role>,
}

/// Explains why `reading` is not legal in `pos`. Call only after
/// resolution failed.
pub fn diagnose<P: Position + Clone>(pos: &P, reading: &Reading) -> IllegalReason {
    if pos.legal_moves().is_empty() {
        return IllegalReason::NoLegalMoves;
    }
    match *reading {
        Reading::San(San::Castle(side)) => castling(pos, side),
        Reading::San(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        }) => normal(
            pos,
            &Query {
                role,
                file,
                rank,
                capture: (role == Role::Pawn).then_some(pawn_capture(file, capture, to)),
                typed_capture: capture,
                to,
                promotion,
            },
        ),
        Reading::San(San::Put { role, to }) => drop(pos, role, to),
        Reading::San(San::Null) => IllegalReason::NoLegalMoves,
        Reading::Uci {
            role,
            from,
            to,
            promotion,
        } => {
            let Some(piece) = pos.board().piece_at(from) else {
                return IllegalReason::EmptySquare(from);
            };
            if piece.color != pos.turn() {
                return IllegalReason::NotYourPiece(from);
            }
            if let Some(named) = role.filter(|&r| r != piece.role) {
                return IllegalReason::WrongPiece {
                    square: from,
                    named,
                    found: piece.role,
                };
            }
            if let Some(side) = castling_side(pos, piece.role, from, to) {
                return castling(pos, side);
            }
            normal(
                pos,
                &Query {
                    role: piece.role,
                    file: Some(from.file()),
                    rank: Some(from.rank()),
                    capture: None,
                    typed_capture: false,
                    to,
                    promotion,
                },
            )
        }
    }
}

/// Why dropping a `role` on `to` is refused: no drops in this variant,
/// none in the pocket, the square taken, a pawn on the first or last rank;
/// else the drop leaves the king in check.
fn drop<P: Position + Clone>(pos: &P, role: Role, to: Square) -> IllegalReason {
    let Some(pockets) = pos.pockets() else {
        return IllegalReason::Drop(DropBlock::NoDrops);
    };
    if pockets[pos.turn()][role] == 0 {
        IllegalReason::Drop(DropBlock::NotInPocket(role))
    } else if pos.board().occupied().contains(to) {
        IllegalReason::Drop(DropBlock::Occupied(to))
    } else if role == Role::Pawn && (to.rank() == Rank::First || to.rank() == Rank::Eighth) {
        IllegalReason::Drop(DropBlock::PawnOnBackRank)
    } else {
        IllegalReason::LeavesKingInCheck
    }
}

/// Whether a pawn SAN asks for a capture: `exd5` and also the lazy `ed5`.
pub fn pawn_capture(file: Option<File>, capture: bool, to: Square) -> bool {
    capture || file.is_some_and(|f| f != to.file())
}

/// The castling side meant by a king move given as coordinates, if any:
/// two files along the home rank, or onto one of its own rooks.
fn castling_side<P: Position + Clone>(
    pos: &P,
    role: Role,
    from: Square,
    to: Square,
) -> Option<CastlingSide> {
    let turn = pos.turn();
    let home = turn.fold_wb(Square::E1, Square::E8);
    if role != Role::King || from != home || to.rank() != from.rank() {
        return None;
    }
    let onto_rook = pos.board().piece_at(to)
        == Some(Piece {
            color: turn,
            role: Role::Rook,
        });
    (from.distance(to) == 2 || onto_rook).then(|| CastlingSide::from_king_side(from < to))
}

fn castling<P: Position + Clone>(pos: &P, side: CastlingSide) -> IllegalReason {
    let turn = pos.turn();
    let castles = pos.castles();
    let occupied = pos.board().occupied();
    let block = if !castles.has(turn, side) {
        CastlingBlock::NoRight
    } else if pos.is_check() {
        CastlingBlock::InCheck
    } else if (castles.path(turn, side) & occupied).any() {
        CastlingBlock::PiecesInTheWay
    } else {
        let king = pos.board().king_of(turn);
        let target =
            Square::from_coords(side.king_to_file(), turn.fold_wb(Rank::First, Rank::Eighth));
        let crossed = king.map_or(Bitboard::EMPTY, |k| attacks::between(k, target));
        let attacked = |sq: Square| pos.king_attackers(sq, !turn, occupied).any();
        if crossed.into_iter().any(attacked) {
            CastlingBlock::ThroughCheck
        } else {
            CastlingBlock::IntoCheck
        }
    };
    IllegalReason::Castling(block)
}

fn normal<P: Position + Clone>(pos: &P, q: &Query) -> IllegalReason {
    let mut from_squares = pos.our(q.role);
    if let Some(file) = q.file {
        from_squares &= Bitboard::from_file(file);
    }
    if let Some(rank) = q.rank {
        from_squares &= Bitboard::from_rank(rank);
    }
    if let Some(role) = pos
        .board()
        .role_at(q.to)
        .filter(|_| pos.us().contains(q.to))
    {
        return IllegalReason::OwnPieceThere { square: q.to, role };
    }
    if !from_squares.into_iter().any(|from| reaches(pos, q, from)) {
        let from = match (q.file, q.rank) {
            (Some(file), Some(rank)) => Some(Square::from_coords(file, rank)),
            _ => None,
        };
        return IllegalReason::NoPieceCanGoThere {
            role: q.role,
            from,
            to: q.to,
            capture: q.capture == Some(true) || q.typed_capture,
        };
    }
    let last_rank = q.to.rank() == pos.turn().fold_wb(Rank::Eighth, Rank::First);
    if q.role == Role::Pawn && last_rank {
        if !matches!(
            q.promotion,
            Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight)
        ) {
            return IllegalReason::PromotionRequired;
        }
    } else if q.promotion.is_some() {
        return IllegalReason::NoPromotion;
    }
    if q.role == Role::King {
        IllegalReason::KingIntoCheck
    } else {
        IllegalReason::LeavesKingInCheck
    }
}

/// Whether the piece on `from` could make the move if its own king's safety
/// did not matter (a pseudo-legal move).
fn reaches<P: Position + Clone>(pos: &P, q: &Query, from: Square) -> bool {
    let turn = pos.turn();
    let board = pos.board();
    let occupied = board.occupied();
    if pos.us().contains(q.to) {
        return false;
    }
    if q.role != Role::Pawn {
        let piece = Piece {
            color: turn,
            role: q.role,
        };
        return attacks::attacks(from, piece, occupied).contains(q.to);
    }
    let captures = attacks::pawn_attacks(turn, from).contains(q.to)
        && (pos.them().contains(q.to) || pos.ep_square(EnPassantMode::Always) == Some(q.to));
    let step = turn.fold_wb(8, -8);
    let one = from.offset(step);
    let start = turn.fold_wb(Rank::Second, Rank::Seventh);
    let pushes = !occupied.contains(q.to)
        && (one == Some(q.to)
            || (from.rank() == start
                && one.is_some_and(|s| !occupied.contains(s))
                && from.offset(2 * step) == Some(q.to)));
    match q.capture {
        Some(true) => captures,
        Some(false) => pushes,
        None => captures || pushes,
    }
}
