//! Chess960 games through the rules core: castling typed every way
//! players type it (and refused where it would be read against them),
//! replay from the start position, FEN with X-FEN castling rights, PGN
//! export with `Variant`/`SetUp`/`FEN` and import back, and no opening
//! names except from position 518.

use chessbot::chess::{
    chess960, opening,
    pgn::{self, PgnTags},
    Game, Variant,
};
use shakmaty::{Position, Role, Square};

/// King f1 between rooks b1 and g1 (and the same for Black): both
/// castlings are legal at once, with nothing between.
const BOTH_WAYS: &str = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1";
/// King f1 between rooks a1 and h1: g1 is both the king's ordinary step
/// and its castled square.
const STEP_OR_CASTLE: &str = "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1";

fn game(fen: &str) -> Game {
    Game::from_fen_in(Variant::Chess960, fen).expect("a Chess960 position")
}

fn king_and_rooks(game: &Game) -> (Square, Vec<Square>) {
    let board = game.position().board();
    let ours = board.by_color(shakmaty::Color::White);
    let king = (board.kings() & ours).first().expect("a king");
    (king, (board.rooks() & ours).into_iter().collect())
}

#[test]
fn castling_short_every_way_it_is_typed() {
    for typed in ["O-O", "0-0", "o-o", "短易位", "f1g1", "Kxg1", "Kg1"] {
        let mut g = game(BOTH_WAYS);
        let ply = g
            .play_text(typed, 0)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(ply.san, "O-O", "{typed}");
        // UCI writes Chess960 castling as the king onto its rook.
        assert_eq!(ply.uci, "f1g1", "{typed}");
        assert_eq!(
            king_and_rooks(&g),
            (Square::G1, vec![Square::B1, Square::F1]),
            "{typed}"
        );
    }
}

#[test]
fn castling_long_every_way_it_is_typed() {
    for typed in ["O-O-O", "0-0-0", "长易位", "f1b1", "Kxb1", "f1c1"] {
        let mut g = game(BOTH_WAYS);
        let ply = g
            .play_text(typed, 0)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(ply.san, "O-O-O", "{typed}");
        assert_eq!(ply.uci, "f1b1", "{typed}");
        assert_eq!(
            king_and_rooks(&g),
            (Square::C1, vec![Square::D1, Square::G1]),
            "{typed}"
        );
    }
}

#[test]
fn a_king_step_onto_the_castled_square_stays_a_king_step() {
    // lichess reads a Chess960 king dropped on g1 as the step it is; the
    // king onto its rook (or O-O) castles.
    let mut step = game(STEP_OR_CASTLE);
    let ply = step.play_text("f1g1", 0).expect("a king move");
    assert_eq!(ply.san, "Kg1");
    assert_eq!(ply.mv.role(), Role::King);
    assert!(!ply.mv.is_castle());
    let mut castle = game(STEP_OR_CASTLE);
    assert_eq!(castle.play_text("f1h1", 0).expect("castles").san, "O-O");
    assert_eq!(king_and_rooks(&castle).0, Square::G1);
    let mut long = game(STEP_OR_CASTLE);
    // c1 is no king step from f1: the king's castled square castles.
    assert_eq!(long.play_text("f1c1", 0).expect("castles").san, "O-O-O");
}

#[test]
fn standard_chess_still_castles_e1g1_and_onto_the_rook() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    for (typed, uci) in [("e1g1", "e1g1"), ("e1h1", "e1g1"), ("Kxa1", "e1c1")] {
        let mut g = Game::from_fen(fen).expect("fen");
        let ply = g
            .play_text(typed, 0)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert!(ply.mv.is_castle(), "{typed}");
        assert_eq!(ply.uci, uci, "{typed}");
    }
}

/// Position 12, `QBNNRKBR`: the king on f1 castles short once the bishop
/// leaves g1. Figures checked with python-chess (`Board.from_chess960_pos`).
const TWELVE: u16 = 12;

#[test]
fn fen_keeps_x_fen_rights_and_replay_starts_from_the_position() {
    let mut g = Game::chess960(TWELVE).expect("position 12");
    assert_eq!(g.start_number(), Some(TWELVE));
    assert_eq!(
        g.initial_fen(),
        Some("qbnnrkbr/pppppppp/8/8/8/8/PPPPPPPP/QBNNRKBR w KQkq - 0 1")
    );
    for m in ["f2f3", "f7f6", "g1f2", "g8f7", "f1h1"] {
        g.play_text(m, 0).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // White castled short (king f1 onto h1: king g1, rook f1): only
    // Black's rights remain.
    assert_eq!(
        g.fen(),
        "qbnnrk1r/pppppbpp/5p2/8/8/5P2/PPPPPBPP/QBNNRRK1 b kq - 3 3"
    );
    let uci: Vec<(&str, i64)> = g.plies().iter().map(|p| (p.uci.as_str(), 0)).collect();
    let again = Game::replay_in(Variant::Chess960, g.initial_fen(), uci).expect("replays");
    assert_eq!(again.fen(), g.fen());
    assert_eq!(again.start_number(), Some(TWELVE));
    // A Shredder-FEN reads as the same position.
    let shredder = Game::from_fen_in(
        Variant::Chess960,
        "qbnnrkbr/pppppppp/8/8/8/8/PPPPPPPP/QBNNRKBR w HEhe - 0 1",
    )
    .expect("Shredder-FEN");
    assert_eq!(shredder.fen(), Game::chess960(TWELVE).expect("12").fen());
    assert_eq!(shredder.start_number(), Some(TWELVE));
}

#[test]
fn pgn_says_chess960_and_reads_back() {
    let mut g = Game::chess960(TWELVE).expect("position 12");
    for m in ["f3", "f6", "Bf2", "Bf7", "O-O", "O-O", "Nd3", "Nd6"] {
        g.play_text(m, 0).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert_eq!(
        g.fen(),
        "qb1nrrk1/pppppbpp/3n1p2/8/8/3N1P2/PPPPPBPP/QB1NRRK1 w - - 6 5"
    );
    let text = pgn::export(&g, &PgnTags::default(), None);
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert!(text.contains("[SetUp \"1\"]"), "{text}");
    assert!(text.contains(&format!(
        "[FEN \"{}\"]",
        chess960::start_fen(TWELVE).expect("fen")
    )));
    assert!(text.contains("3. O-O O-O"), "{text}");
    let back = pgn::import(&text).expect("imports");
    assert_eq!(back.game.variant(), Variant::Chess960);
    assert_eq!(back.game.start_number(), Some(TWELVE));
    assert_eq!(back.game.fen(), g.fen());
    let sans = |g: &Game| g.plies().iter().map(|p| p.san.clone()).collect::<Vec<_>>();
    assert_eq!(sans(&back.game), sans(&g));
    // Another program's name for it, and a variant not played here.
    let other = text.replace("Chess960", "Fischerandom");
    assert_eq!(
        pgn::import(&other).expect("imports").game.variant(),
        Variant::Chess960
    );
    let bughouse = text.replace("Chess960", "Bughouse");
    assert_eq!(
        pgn::import(&bughouse).map(|_| ()),
        Err(pgn::PgnError::UnknownVariant("Bughouse".to_owned()))
    );
}

#[test]
fn openings_are_named_from_position_518_only() {
    let mut usual = Game::chess960(chess960::STANDARD).expect("518");
    usual.play_text("e4", 0).expect("e4");
    assert_eq!(opening::classify(&usual).map(|o| o.eco), Some("B00"));
    let mut other = Game::chess960(0).expect("0");
    other.play_text("e4", 0).expect("e4");
    assert_eq!(opening::classify(&other), None);
}

#[test]
fn conditional_lines_castle_as_the_game_plays_it() {
    use chessbot::chess::conditional::{read_line, Followed, Tree};
    use shakmaty::Color;
    let mut g = Game::chess960(TWELVE).expect("position 12");
    for m in ["f3", "f6", "Bf2"] {
        g.play_text(m, 0).expect("plays");
    }
    // Black, to move, plans: ...Bf7, and after White castles, castles too.
    let line = read_line(&g, Color::Black, "2... Bf7 3. O-O O-O").expect("a line");
    let ucis: Vec<&str> = line.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["g8f7", "f1h1", "f8h8"]);
    let mut tree = Tree::default();
    tree.add(&g, Color::Black, &line).expect("added");
    // The game goes that way: each ply's stored UCI follows the tree.
    for m in ["Bf7", "f1h1"] {
        g.play_text(m, 0).expect("plays");
    }
    let played: Vec<&str> = g.plies()[3..].iter().map(|p| p.uci.as_str()).collect();
    match tree.follow(played) {
        Followed::At(rest) => assert_eq!(rest.answer(), Some("f8h8")),
        Followed::Off { index } => panic!("left the line at {index}"),
    }
}
