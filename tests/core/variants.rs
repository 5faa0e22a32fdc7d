//! lichess's other variants through the rules core: each one's usual
//! start, each one's own endings with their reasons, the draw rules that
//! differ (Crazyhouse has no move-count rule), drops typed as lichess
//! accepts them and refused with the reason, moves a variant forbids
//! explained by the variant, FEN with pockets, promoted pieces and check
//! counters (written and read, lichess's `+N+M` too), and PGN with
//! lichess's `Variant` names, exported and imported.

use chessbot::chess::{
    input::{DropBlock, IllegalReason, InputError},
    pgn::{self, PgnTags},
    Game, GameResult, PlayTextError, RuleError, Termination, Variant,
};
use shakmaty::Role;

fn play(variant: Variant, fen: Option<&str>, moves: &[&str]) -> Game {
    let mut game = match fen {
        Some(fen) => Game::from_fen_in(variant, fen).expect("a legal position"),
        None => Game::start_of(variant),
    };
    for text in moves {
        game.play_text(text, 0)
            .unwrap_or_else(|e| panic!("{variant}: {text}: {e}"));
    }
    game
}

fn ending(game: &Game) -> (GameResult, Termination) {
    let e = game.ending().expect("the game is over");
    (e.result, e.termination)
}

fn reason(game: &Game, text: &str) -> IllegalReason {
    match game.parse(text) {
        Err(InputError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

#[test]
fn every_variant_starts_where_lichess_starts() {
    for (variant, fen) in [
        (
            Variant::Crazyhouse,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        ),
        (
            Variant::Atomic,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            Variant::Antichess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ),
        (
            Variant::KingOfTheHill,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            Variant::ThreeCheck,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        ),
        (
            Variant::Horde,
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        ),
        (
            Variant::RacingKings,
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        ),
    ] {
        let game = Game::start_of(variant);
        assert_eq!(game.variant(), variant);
        assert_eq!(game.fen(), fen, "{variant}");
        // The usual start needs no FEN in the store or the PGN.
        assert_eq!(game.initial_fen(), None, "{variant}");
        // And a FEN of it is the usual start again.
        assert_eq!(
            Game::from_fen_in(variant, fen)
                .expect("reads")
                .initial_fen(),
            None
        );
        assert!(!game.is_over());
    }
}

#[test]
fn atomic_a_capture_beside_the_king_blows_it_up() {
    let game = play(Variant::Atomic, None, &["Nf3", "a6", "Ne5", "a5", "Nxf7"]);
    assert_eq!(
        ending(&game),
        (GameResult::WhiteWins, Termination::Explosion)
    );
    // The capturing knight exploded with f7 and the king beside it.
    assert_eq!(
        game.fen(),
        "rnbq3r/1pppp1pp/8/p7/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3"
    );
}

#[test]
fn king_of_the_hill_the_centre_wins() {
    let game = play(
        Variant::KingOfTheHill,
        None,
        &["e3", "d6", "Ke2", "Kd7", "Kd3", "Kc6", "Ke4"],
    );
    assert_eq!(
        ending(&game),
        (GameResult::WhiteWins, Termination::KingOfTheHill)
    );
}

#[test]
fn three_check_the_third_check_wins_and_checks_are_counted_in_the_fen() {
    let mut game = play(Variant::ThreeCheck, None, &["e4", "d6", "Bb5+"]);
    assert!(game.fen().contains(" 2+3 "), "{}", game.fen());
    for text in ["c6", "Bxc6+", "Nxc6", "Qh5", "a6"] {
        game.play_text(text, 0).expect("legal");
    }
    assert!(!game.is_over());
    game.play_text("Qxf7+", 0).expect("legal");
    assert_eq!(
        ending(&game),
        (GameResult::WhiteWins, Termination::ThreeChecks)
    );
    // lichess writes the checks given, after the move counters.
    let lichess = Game::from_fen_in(
        Variant::ThreeCheck,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+0",
    )
    .expect("lichess's form reads");
    assert!(lichess.fen().contains(" 1+3 "), "{}", lichess.fen());
}

#[test]
fn horde_black_wins_by_taking_every_white_piece() {
    let game = play(
        Variant::Horde,
        Some("8/8/8/8/8/8/1k6/P7 b - - 0 1"),
        &["Kxa1"],
    );
    assert_eq!(
        ending(&game),
        (GameResult::BlackWins, Termination::HordeDestroyed)
    );
}

#[test]
fn racing_kings_first_to_the_eighth_rank_and_black_may_equalise() {
    let won = play(
        Variant::RacingKings,
        Some("8/K7/8/8/8/8/8/7k w - - 0 1"),
        &["Ka8"],
    );
    assert_eq!(ending(&won), (GameResult::WhiteWins, Termination::RaceWon));
    // Black's king one step from the goal: the game goes on for one move.
    let mut race = play(
        Variant::RacingKings,
        Some("8/K6k/8/8/8/8/8/8 w - - 0 1"),
        &["Ka8"],
    );
    assert!(!race.is_over());
    race.play_text("Kh8", 0).expect("legal");
    assert_eq!(ending(&race), (GameResult::Draw, Termination::RaceTied));
    // Or Black does not follow, and White has won.
    let mut late = play(
        Variant::RacingKings,
        Some("8/K6k/8/8/8/8/8/8 w - - 0 1"),
        &["Ka8"],
    );
    late.play_text("Kg6", 0).expect("legal");
    assert_eq!(ending(&late), (GameResult::WhiteWins, Termination::RaceWon));
}

#[test]
fn antichess_no_pieces_or_no_moves_wins() {
    let game = play(
        Variant::Antichess,
        Some("8/8/8/8/8/8/p7/1R6 b - - 0 1"),
        &["axb1=Q"],
    );
    assert_eq!(
        ending(&game),
        (GameResult::WhiteWins, Termination::NoPiecesLeft)
    );
    let blocked =
        Game::from_fen_in(Variant::Antichess, "8/8/8/8/8/p7/P7/8 w - - 0 1").expect("legal");
    assert_eq!(
        ending(&blocked),
        (GameResult::WhiteWins, Termination::NoMovesLeft)
    );
    // Captures are compulsory, and the refusal says so.
    let game = play(Variant::Antichess, None, &["e3", "b5"]);
    assert_eq!(reason(&game, "a3"), IllegalReason::MustCapture);
}

#[test]
fn moves_a_variant_forbids_are_explained_by_the_variant() {
    // An Atomic king never captures.
    let atomic =
        Game::from_fen_in(Variant::Atomic, "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1").expect("legal");
    assert_eq!(
        reason(&atomic, "Kxd2"),
        IllegalReason::VariantRule(Variant::Atomic)
    );
    // No move gives check in Racing Kings.
    let race =
        Game::from_fen_in(Variant::RacingKings, "8/8/8/8/8/1k6/8/R6K w - - 0 1").expect("legal");
    assert_eq!(
        reason(&race, "Rb1"),
        IllegalReason::VariantRule(Variant::RacingKings)
    );
    let text = IllegalReason::VariantRule(Variant::RacingKings).to_string();
    assert!(text.contains("no move may give check"), "{text}");
}

#[test]
fn crazyhouse_has_no_move_count_draws() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w - - 149 100";
    let mut standard = Game::from_fen(fen).expect("legal");
    standard.play_text("Kd1", 0).expect("legal");
    assert_eq!(
        ending(&standard),
        (GameResult::Draw, Termination::SeventyFiveMoveRule)
    );
    let mut house = Game::from_fen_in(Variant::Crazyhouse, fen).expect("legal");
    assert_eq!(house.claimable_draw(), None);
    house.play_text("Kd1", 0).expect("legal");
    assert!(!house.is_over());
    assert_eq!(house.claimable_draw(), None);
}

#[test]
fn drops_read_as_lichess_reads_them_and_are_refused_with_the_reason() {
    let mut game = play(Variant::Crazyhouse, None, &["e4", "d5", "exd5", "Nf6"]);
    assert!(game
        .fen()
        .starts_with("rnbqkb1r/ppp1pppp/5n2/3P4/8/8/PPPP1PPP/RNBQKBNR[P] w"));
    assert_eq!(
        reason(&game, "N@f3"),
        IllegalReason::Drop(DropBlock::NotInPocket(Role::Knight))
    );
    assert_eq!(
        reason(&game, "P@d2"),
        IllegalReason::Drop(DropBlock::Occupied(shakmaty::Square::D2))
    );
    assert_eq!(
        reason(&game, "@e8"),
        IllegalReason::Drop(DropBlock::Occupied(shakmaty::Square::E8))
    );
    let refused = game.play_text("N@f3", 0).unwrap_err();
    assert!(
        refused.to_string().contains("`N@f3` is not legal here"),
        "{refused}"
    );
    for typed in ["@e4", "P@e4", "p@e4", "兵@e4", "P@E4"] {
        let mv = game.parse(typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(game.uci(mv), "P@e4", "{typed}");
    }
    let ply = game.play_text("@e4", 0).expect("a pawn drop");
    assert_eq!((ply.san.as_str(), ply.uci.as_str()), ("@e4", "P@e4"));
    assert!(game.fen().contains("[] b"), "{}", game.fen());
    // In standard chess there is nothing to drop.
    let standard = Game::new();
    assert_eq!(
        reason(&standard, "N@f3"),
        IllegalReason::Drop(DropBlock::NoDrops)
    );
    assert!(matches!(
        Game::new().play_text("@e4", 0),
        Err(PlayTextError::Rule(RuleError::Input(
            InputError::Illegal { .. }
        )))
    ));
}

#[test]
fn crazyhouse_fen_marks_promoted_pieces_and_reads_both_pocket_forms() {
    let game = play(
        Variant::Crazyhouse,
        Some("4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1"),
        &["b8=Q+"],
    );
    assert!(game.fen().starts_with("1Q~2k3/"), "{}", game.fen());
    let slash = Game::from_fen_in(
        Variant::Crazyhouse,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
    )
    .expect("the slash form reads");
    assert_eq!(slash.initial_fen(), None);
    // A pocket that does not read, a FEN illegal for the variant: refused.
    for (variant, fen) in [
        (
            Variant::Crazyhouse,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xz] w KQkq - 0 1",
        ),
        (Variant::RacingKings, "8/8/8/8/8/8/r6K/k7 w - - 0 1"),
        (
            Variant::Horde,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
    ] {
        assert!(Game::from_fen_in(variant, fen).is_err(), "{variant}: {fen}");
    }
}

#[test]
fn pgn_carries_lichess_variant_names_and_reads_back() {
    let tags = PgnTags::default();
    let koth = play(
        Variant::KingOfTheHill,
        None,
        &["e3", "d6", "Ke2", "Kd7", "Kd3", "Kc6", "Ke4"],
    );
    let text = pgn::export(&koth, &tags, None);
    assert!(text.contains("[Variant \"King of the Hill\"]"), "{text}");
    assert!(!text.contains("[FEN "), "{text}");
    assert!(text.contains("1-0"), "{text}");
    let back = pgn::import(&text).expect("reads back");
    assert_eq!(back.game.variant(), Variant::KingOfTheHill);
    assert_eq!(back.game.fen(), koth.fen());
    assert_eq!(
        back.game.ending().map(|e| e.termination),
        Some(Termination::KingOfTheHill)
    );

    // Drops in the movetext, and a set position's FEN.
    let house = play(
        Variant::Crazyhouse,
        Some("rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"),
        &["@e4"],
    );
    let text = pgn::export(&house, &tags, None);
    assert!(text.contains("[Variant \"Crazyhouse\"]"), "{text}");
    assert!(text.contains("[SetUp \"1\"]"), "{text}");
    assert!(text.contains("[Pp] w KQkq"), "{text}");
    assert!(text.contains("3. @e4"), "{text}");
    let back = pgn::import(&text).expect("reads back");
    assert_eq!(back.game.fen(), house.fen());

    // Each name lichess writes reads; Bughouse is refused by name.
    for v in Variant::ALL {
        let start = Game::start_of(v);
        let text = pgn::export(&start, &tags, None);
        assert_eq!(pgn::import(&text).expect("reads").game.variant(), v);
    }
    let bughouse = "[Variant \"Bughouse\"]\n\n1. e4 *\n";
    assert!(pgn::import(bughouse).is_err());
}

/// Found by the oracle: in Crazyhouse two bishops often share a file, and
/// SAN then names the rank (`B3xb4`); the forgiving reader took the
/// capital `B3` as the square b3 (the king there could take on b4).
#[test]
fn a_bishop_told_apart_by_its_rank_is_not_read_as_a_square() {
    let game = Game::from_fen_in(Variant::Crazyhouse, "4k3/8/8/B7/Pn6/BK6/8/8[] w - - 0 1")
        .expect("legal");
    let bishop = game.parse("B3xb4").expect("the bishop on a3");
    assert_eq!(game.uci(bishop), "a3b4");
    let king = game.parse("b3xb4").expect("the king on b3");
    assert_eq!(game.uci(king), "b3b4");
    assert_eq!(game.uci(game.parse("Kxb4").expect("king")), "b3b4");
}
