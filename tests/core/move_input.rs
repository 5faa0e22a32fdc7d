//! Move input (SPEC §1): every legal move in thousands of random positions
//! parses back from each of its written forms; a table of tricky inputs with
//! the expected move or message; arbitrary text never panics; autocomplete.

use std::sync::LazyLock;

use chessbot::chess::input::{parse_move, suggest, CastlingBlock, IllegalReason, InputError};
use proptest::prelude::*;
use rand::{rngs::StdRng, seq::SliceRandom, SeedableRng};
use shakmaty::{
    fen::Fen,
    san::{San, SanPlus},
    uci::UciMove,
    CastlingMode, CastlingSide, Chess, Move, Position, Role, Square,
};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Standard).ok())
        .unwrap_or_else(|| panic!("bad test FEN {fen}"))
}

/// Positions from seeded random playouts from the start position.
fn random_positions(games: u64, max_plies: usize) -> Vec<Chess> {
    let mut rng = StdRng::seed_from_u64(0x00C0_FFEE);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Chess::default();
        for _ in 0..max_plies {
            out.push(p.clone());
            let moves = p.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else {
                break;
            };
            p.play_unchecked(m);
        }
    }
    out
}

/// Long algebraic: `Ng1-f3`, `e2-e4`, `e4xd5`, `e7-e8=Q`, `O-O`.
fn long_algebraic(m: &Move) -> String {
    match *m {
        Move::Castle { king, rook } if king < rook => "O-O".to_owned(),
        Move::Castle { .. } => "O-O-O".to_owned(),
        _ => {
            let letter = match m.role() {
                Role::Pawn => String::new(),
                role => role.upper_char().to_string(),
            };
            let from = m.from().map(|s| s.to_string()).unwrap_or_default();
            let sep = if m.is_capture() { "x" } else { "-" };
            let promo = m
                .promotion()
                .map(|r| format!("={}", r.upper_char()))
                .unwrap_or_default();
            format!("{letter}{from}{sep}{}{promo}", m.to())
        }
    }
}

#[test]
fn every_legal_move_parses_back_from_every_form() {
    let positions = random_positions(40, 100);
    assert!(positions.len() >= 3000, "{} positions", positions.len());
    let mut checked = 0usize;
    for p in &positions {
        for m in p.legal_moves() {
            let forms = [
                San::from_move(p, m).to_string(),
                SanPlus::from_move(p.clone(), m).to_string(),
                UciMove::from_move(m, CastlingMode::Standard).to_string(),
                long_algebraic(&m),
            ];
            for form in forms {
                let got = parse_move(p, &form);
                assert_eq!(
                    got.as_ref().ok(),
                    Some(&m),
                    "{form} in {} gave {got:?}",
                    Fen::from_position(p, shakmaty::EnPassantMode::Legal)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked} forms checked");
}

fn normal(from: Square, to: Square) -> impl Fn(&Move) -> bool {
    move |m| m.from() == Some(from) && m.to() == to
}

fn castle(side: CastlingSide) -> impl Fn(&Move) -> bool {
    move |m| m.castling_side() == Some(side)
}

fn assert_move(p: &Chess, text: &str, want: impl Fn(&Move) -> bool) {
    match parse_move(p, text) {
        Ok(m) => assert!(want(&m), "`{text}` gave {m:?}"),
        Err(e) => panic!("`{text}` refused: {e}"),
    }
}

fn assert_illegal(p: &Chess, text: &str, want: IllegalReason) -> String {
    match parse_move(p, text) {
        Err(e @ InputError::Illegal { reason, .. }) if reason == want => e.to_string(),
        other => panic!("`{text}`: wanted {want:?}, got {other:?}"),
    }
}

fn message(p: &Chess, text: &str) -> String {
    match parse_move(p, text) {
        Err(e) => e.to_string(),
        Ok(m) => panic!("`{text}` was accepted as {m:?}"),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn forgiving_forms_from_the_start() {
    let p = pos(START);
    for text in [
        "e4",
        "e2e4",
        "e2-e4",
        "E4",
        "兵e4",
        "Pe4",
        "1. e4",
        "1.e4!",
        "e4!?",
        " e4 ",
        "ｅ４",
        "\u{3000}e4\u{3000}",
        "e2 e4",
    ] {
        assert_move(&p, text, normal(Square::E2, Square::E4));
    }
    for text in [
        "Nf3",
        "nf3",
        "NF3",
        "Ng1f3",
        "Ng1-f3",
        "g1f3",
        "马f3",
        "馬ｆ３",
        "♘f3",
        "Nf3?!",
    ] {
        assert_move(&p, text, normal(Square::G1, Square::F3));
    }
    assert_move(&p, "b4", normal(Square::B2, Square::B4));
    assert_move(&p, "b1c3", normal(Square::B1, Square::C3));
}

#[test]
fn en_passant_with_and_without_the_note() {
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    for text in [
        "exd6 e.p.",
        "exd6e.p.",
        "exd6 ep",
        "exd6",
        "ed6",
        "e5d6",
        "e5xd6",
        "exd6+ e.p.",
    ] {
        assert_move(&p, text, |m| matches!(m, Move::EnPassant { .. }));
    }
}

#[test]
fn castling_in_every_spelling() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for text in [
        "O-O",
        "0-0",
        "o-o",
        "OO",
        "O-O+",
        "e1g1",
        "e1h1",
        "Ke1g1",
        "短易位",
    ] {
        assert_move(&p, text, castle(CastlingSide::KingSide));
    }
    for text in ["O-O-O", "0-0-0", "o-o-o", "e1c1", "长易位", "長易位"] {
        assert_move(&p, text, castle(CastlingSide::QueenSide));
    }
    let check = pos("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_move(&check, "O-O-O+", castle(CastlingSide::QueenSide));
}

#[test]
fn over_specified_and_promotion() {
    let queens = pos("K7/2k5/8/8/4Q2Q/8/8/4r2Q w - - 0 1");
    assert_move(&queens, "Qh4xe1", normal(Square::H4, Square::E1));
    assert_move(&queens, "Qh4-e1", normal(Square::H4, Square::E1));
    assert_move(&queens, "h4e1", normal(Square::H4, Square::E1));
    assert_eq!(
        message(&queens, "Qxe1"),
        "`Qxe1`: which queen, `Qexe1`, `Q1xe1` or `Qh4xe1`?"
    );
    let promo = pos("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
    let knight = |m: &Move| m.promotion() == Some(Role::Knight);
    for text in [
        "e8=N#", "e8=N+", "e8N", "e8n", "e8=n", "e7e8n", "e7-e8=N", "e8(N)",
    ] {
        assert_move(&promo, text, knight);
    }
    for text in ["e8Q", "e8q", "e8=q", "e8=Q", "e7e8q"] {
        assert_move(&promo, text, |m| m.promotion() == Some(Role::Queen));
    }
    let msg = assert_illegal(&promo, "e8", IllegalReason::PromotionRequired);
    assert!(
        msg.starts_with("`e8` is not legal here: say what the pawn becomes"),
        "{msg}"
    );
    assert_illegal(&promo, "e8=K", IllegalReason::PromotionRequired);
    assert_illegal(&pos(START), "e4=Q", IllegalReason::NoPromotion);
}

#[test]
fn bxc3_is_the_pawn_if_it_can_else_the_bishop() {
    let both = pos("4k3/8/8/8/8/2n5/1P6/4BK2 w - - 0 1");
    assert_move(&both, "bxc3", normal(Square::B2, Square::C3));
    assert_move(&both, "Bxc3", normal(Square::E1, Square::C3));
    let bishop_only = pos("4k3/8/8/8/8/2n5/8/4BK2 w - - 0 1");
    assert_move(&bishop_only, "bxc3", normal(Square::E1, Square::C3));
    let pawn_only = pos("4k3/8/8/8/8/2n5/1P6/5K2 w - - 0 1");
    assert_move(&pawn_only, "Bxc3", normal(Square::B2, Square::C3));
}

#[test]
fn capture_mark_is_loose_for_pieces_only() {
    let p = pos("4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1");
    assert_move(&p, "Nf3", normal(Square::G1, Square::F3));
    assert_move(&p, "Nxh3", normal(Square::G1, Square::H3));
    let pawns = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    assert_move(&pawns, "ed5", normal(Square::E4, Square::D5));
    let msg = assert_illegal(
        &pawns,
        "d5",
        IllegalReason::NoPieceCanGoThere {
            role: Role::Pawn,
            from: None,
            to: Square::D5,
            capture: false,
        },
    );
    assert!(
        msg.starts_with("`d5` is not legal here: you have no pawn that can go to d5."),
        "{msg}"
    );
}

#[test]
fn unreadable_inputs() {
    let p = pos(START);
    let huge = "Nf3 `@everyone` ".repeat(700);
    assert!(huge.len() > 10_000);
    for text in [
        "xyz",
        "",
        "   \t\n",
        "😀",
        "e4😀",
        "--",
        "0000",
        "e9",
        "Kz1",
        "hello world",
        &huge,
    ] {
        match parse_move(&p, text) {
            Err(InputError::Unreadable { suggestions, .. }) => {
                assert!(!suggestions.is_empty() && suggestions.len() <= 6, "{text}")
            }
            other => panic!("`{text}` gave {other:?}"),
        }
    }
    let msg = message(&p, "xyz");
    assert!(
        msg.starts_with("I can't read `xyz` as a move. Try e.g. "),
        "{msg}"
    );
    assert_eq!(message(&p, "").split('.').next(), Some("Type a move"));
    let msg = message(&p, &huge);
    assert!(msg.len() < 200, "{msg}");
    assert!(!msg.contains('@'), "{msg}");
    assert_eq!(msg.matches('`').count(), 2, "{msg}");
    let msg = message(&p, "@everyone");
    assert!(
        msg.starts_with("I can't read `everyone` as a move."),
        "{msg}"
    );
}

#[test]
fn king_into_check_and_pins() {
    let p = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
    let msg = assert_illegal(&p, "Ke2", IllegalReason::KingIntoCheck);
    assert!(
        msg.starts_with("`Ke2` is not legal here: your king would be in check. Try e.g. K"),
        "{msg}"
    );
    assert_illegal(&p, "e1e2", IllegalReason::KingIntoCheck);

    let pinned = pos("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1");
    let msg = assert_illegal(&pinned, "Nf4", IllegalReason::LeavesKingInCheck);
    assert!(
        msg.starts_with("`Nf4` is not legal here: it would leave your king in check."),
        "{msg}"
    );

    let in_check = pos("4r2k/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_illegal(&in_check, "Ra2", IllegalReason::LeavesKingInCheck);
    assert_illegal(&in_check, "Ke2", IllegalReason::KingIntoCheck);
}

#[test]
fn ambiguity_names_the_candidates() {
    let p = pos("1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(message(&p, "Nd7"), "`Nd7`: which knight, `Nbd7` or `Nfd7`?");
    assert_move(&p, "Nbd7", normal(Square::B8, Square::D7));
    assert_move(&p, "Nfd7", normal(Square::F6, Square::D7));
    let rooks = pos("k7/8/8/8/8/4R3/8/4R1K1 w - - 0 1");
    assert_eq!(
        message(&rooks, "Re2"),
        "`Re2`: which rook, `R1e2` or `R3e2`?"
    );
    assert_move(&rooks, "R1e2", normal(Square::E1, Square::E2));
}

#[test]
fn castling_refusals_say_why() {
    let through = pos("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    let msg = assert_illegal(
        &through,
        "O-O",
        IllegalReason::Castling(CastlingBlock::ThroughCheck),
    );
    assert!(
        msg.starts_with("`O-O` is not legal here: the king would pass through an attacked square."),
        "{msg}"
    );
    assert_illegal(
        &through,
        "e1g1",
        IllegalReason::Castling(CastlingBlock::ThroughCheck),
    );
    let into = pos("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_illegal(
        &into,
        "0-0",
        IllegalReason::Castling(CastlingBlock::IntoCheck),
    );
    let check = pos("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_illegal(
        &check,
        "o-o",
        IllegalReason::Castling(CastlingBlock::InCheck),
    );
    let moved = pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    assert_illegal(
        &moved,
        "O-O",
        IllegalReason::Castling(CastlingBlock::NoRight),
    );
    assert_illegal(
        &pos(START),
        "O-O",
        IllegalReason::Castling(CastlingBlock::PiecesInTheWay),
    );
    assert_illegal(
        &pos(START),
        "短易位",
        IllegalReason::Castling(CastlingBlock::PiecesInTheWay),
    );
}

#[test]
fn coordinates_refusals_say_why() {
    let p = pos(START);
    let msg = assert_illegal(
        &p,
        "e2e5",
        IllegalReason::NoPieceCanGoThere {
            role: Role::Pawn,
            from: Some(Square::E2),
            to: Square::E5,
            capture: false,
        },
    );
    assert!(
        msg.starts_with("`e2e5` is not legal here: your pawn on e2 cannot go to e5."),
        "{msg}"
    );
    assert_illegal(&p, "e3e4", IllegalReason::EmptySquare(Square::E3));
    assert_illegal(&p, "e7e5", IllegalReason::NotYourPiece(Square::E7));
    assert_illegal(
        &p,
        "Bg1f3",
        IllegalReason::WrongPiece {
            square: Square::G1,
            named: Role::Bishop,
            found: Role::Knight,
        },
    );
    let msg = assert_illegal(
        &p,
        "Ke2",
        IllegalReason::OwnPieceThere {
            square: Square::E2,
            role: Role::Pawn,
        },
    );
    assert!(
        msg.starts_with("`Ke2` is not legal here: your own pawn is on e2."),
        "{msg}"
    );
    let msg = message(&p, "Rxa7");
    assert!(
        msg.starts_with("`Rxa7` is not legal here: you have no rook that can capture on a7."),
        "{msg}"
    );
    let msg = message(&p, "Nf4");
    assert!(
        msg.starts_with("`Nf4` is not legal here: you have no knight that can go to f4."),
        "{msg}"
    );
}

#[test]
fn no_legal_moves_after_mate() {
    let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_illegal(&mated, "e4", IllegalReason::NoLegalMoves);
    assert!(matches!(
        parse_move(&mated, "zz"),
        Err(InputError::Unreadable { ref suggestions, .. }) if suggestions.is_empty()
    ));
}

#[test]
fn suggest_for_autocomplete() {
    let p = pos(START);
    assert_eq!(suggest(&p, "N", 25), ["Na3", "Nc3", "Nf3", "Nh3"]);
    assert_eq!(suggest(&p, "n", 25), ["Na3", "Nc3", "Nf3", "Nh3"]);
    assert_eq!(suggest(&p, "马", 25), ["Na3", "Nc3", "Nf3", "Nh3"]);
    assert_eq!(suggest(&p, "e", 25), ["e3", "e4"]);
    assert_eq!(suggest(&p, "b", 25), ["b3", "b4"]);
    assert_eq!(suggest(&p, "g1", 25), ["Nf3", "Nh3"]);
    assert_eq!(suggest(&p, "ng1-f", 25), ["Nf3"]);
    assert_eq!(suggest(&p, "Nf3", 25), ["Nf3"]);
    assert_eq!(suggest(&p, "", 25).len(), 20);
    assert_eq!(suggest(&p, "", 5).len(), 5);
    assert!(suggest(&p, "", 0).is_empty());
    assert!(suggest(&p, "zz", 25).is_empty());
    assert!(suggest(&p, "😀", 25).is_empty());
    assert!(suggest(&p, &"e".repeat(10_000), 25).is_empty());

    let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(suggest(&castles, "o-o", 25), ["O-O", "O-O-O"]);
    assert_eq!(suggest(&castles, "0-0-0", 25), ["O-O-O"]);
    assert_eq!(suggest(&castles, "短易位", 25), ["O-O", "O-O-O"]);

    // Captures come first, and checks carry their suffix.
    let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(suggest(&p, "e", 25), ["exd5", "e5"]);
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(suggest(&p, "Ra8", 25), ["Ra8+"]);
}

#[test]
fn every_suggestion_parses() {
    for p in random_positions(5, 60) {
        for s in suggest(&p, "", 25) {
            assert!(parse_move(&p, &s).is_ok(), "{s}");
        }
        if let Err(InputError::Unreadable { suggestions, .. }) = parse_move(&p, "?") {
            assert!(suggestions.len() <= 6);
            for s in suggestions {
                assert!(parse_move(&p, &s).is_ok(), "{s}");
            }
        }
    }
}

static POSITIONS: LazyLock<Vec<Chess>> = LazyLock::new(|| {
    let mut v = random_positions(3, 40);
    v.push(pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"));
    v.push(pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    v.push(pos("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"));
    v.push(pos(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ));
    v
});

/// 3000 cases per test in a normal run; `PROPTEST_CASES` raises it
/// (`fuzz/run.sh` does, where cargo-fuzz cannot run).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>(), i in 0usize..1000, limit in 0usize..30) {
        let p = &POSITIONS[i % POSITIONS.len()];
        let _ = parse_move(p, &text).map_err(|e| e.to_string());
        prop_assert!(suggest(p, &text, limit).len() <= limit);
    }

    #[test]
    fn move_like_text_never_panics(
        text in "[a-hA-H1-9KQRBNPkqrbnpxX=+#0Oo: ./()!?-]{0,14}|[马车象后王兵短长易位ｅ４ \u{3000}]{0,6}",
        i in 0usize..1000,
        limit in 0usize..30,
    ) {
        let p = &POSITIONS[i % POSITIONS.len()];
        if let Err(e) = parse_move(p, &text) {
            let msg = e.to_string();
            prop_assert!(msg.len() < 300, "{}", msg);
        }
        prop_assert!(suggest(p, &text, limit).len() <= limit);
    }
}
