//! Every way a game ends (SPEC §1), each reached in a real position.

use chessbot::chess::{
    DrawClaim, DrawOffer, Ending, Game, GameResult, PlayTextError, RuleError, Termination,
};
use shakmaty::Color;

fn play(game: &mut Game, moves: &str) {
    for (i, text) in moves.split_whitespace().enumerate() {
        if let Err(e) = game.play_text(text, i as i64) {
            panic!("move `{text}` refused: {e}");
        }
    }
}

fn fen(fen: &str) -> Game {
    Game::from_fen(fen).expect("test FEN is valid")
}

fn ending(result: GameResult, termination: Termination) -> Option<Ending> {
    Some(Ending {
        result,
        termination,
    })
}

#[test]
fn checkmate_wins() {
    let mut game = Game::new();
    play(&mut game, "f3 e5 g4 Qh4#");
    assert_eq!(
        game.ending(),
        ending(GameResult::BlackWins, Termination::Checkmate)
    );
    assert_eq!(game.last_ply().map(|p| p.san.as_str()), Some("Qh4#"));
    assert_eq!(
        game.play_text("a3", 9).unwrap_err(),
        PlayTextError::Rule(RuleError::GameOver)
    );
}

#[test]
fn stalemate_draws() {
    let mut game = fen("k7/8/8/1Q6/8/8/8/7K w - - 0 1");
    play(&mut game, "Qb6");
    assert_eq!(
        game.ending(),
        ending(GameResult::Draw, Termination::Stalemate)
    );
}

#[test]
fn bare_kings_are_a_dead_position() {
    let mut game = fen("k7/8/8/8/8/8/1p6/K7 w - - 0 1");
    play(&mut game, "Kxb2");
    assert_eq!(
        game.ending(),
        ending(GameResult::Draw, Termination::InsufficientMaterial)
    );
}

#[test]
fn a_position_that_is_already_mate_starts_ended() {
    let game = fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(
        game.ending(),
        ending(GameResult::BlackWins, Termination::Checkmate)
    );
}

const KNIGHT_DANCE: &str = "Nf3 Nf6 Ng1 Ng8";

#[test]
fn threefold_is_claimable_only_by_the_side_to_move() {
    let mut game = Game::new();
    play(&mut game, KNIGHT_DANCE);
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.claimable_draw(), None);
    play(&mut game, KNIGHT_DANCE);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable_draw(), Some(DrawClaim::ThreefoldRepetition));
    assert!(!game.is_over(), "threefold is not automatic");
    // White is to move: Black may not claim.
    assert_eq!(game.claim_draw(Color::Black), Err(RuleError::NotYourTurn));
    assert!(!game.is_over());
    assert_eq!(
        game.claim_draw(Color::White),
        Ok(Ending {
            result: GameResult::Draw,
            termination: Termination::ThreefoldRepetition
        })
    );
}

#[test]
fn threefold_can_be_claimed_with_the_move_that_creates_it() {
    let mut game = Game::new();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    // Black's Ng8 would make the third occurrence: claim it with the move.
    assert_eq!(game.claimable_draw(), None);
    let before = game.plies().len();
    assert!(matches!(
        game.play_text_claiming_draw("Nc6", 1),
        Err(RuleError::ClaimWithMoveFails { .. })
    ));
    assert_eq!(game.plies().len(), before, "a failed claim plays nothing");
    assert_eq!(
        game.play_text_claiming_draw("Ng8", 1),
        Ok(Ending {
            result: GameResult::Draw,
            termination: Termination::ThreefoldRepetition
        })
    );
    assert_eq!(game.plies().len(), before + 1);
}

#[test]
fn fivefold_draws_automatically() {
    let mut game = Game::new();
    for _ in 0..3 {
        play(&mut game, KNIGHT_DANCE);
    }
    assert!(!game.is_over());
    play(&mut game, KNIGHT_DANCE);
    assert_eq!(
        game.ending(),
        ending(GameResult::Draw, Termination::FivefoldRepetition)
    );
}

#[test]
fn an_en_passant_capture_that_is_not_legal_does_not_break_repetition() {
    // e2-e4 was just played, but dxe3 would expose the black king on a4 to
    // the rook on h4: the en-passant right is not real, so the position
    // repeats when the knight and king return.
    let mut game = fen("7n/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
    play(&mut game, "Ng6 Kf1 Nh8 Ke1");
    assert_eq!(game.repetitions(), 2);
    play(&mut game, "Ng6 Kf1 Nh8 Ke1");
    assert_eq!(game.claimable_draw(), Some(DrawClaim::ThreefoldRepetition));
}

#[test]
fn a_legal_en_passant_capture_does_make_a_different_position() {
    let mut game = fen("7n/8/8/8/3pP3/8/8/k3K2R b - e3 0 1");
    play(&mut game, "Ng6 Kf1 Nh8 Ke1");
    assert_eq!(
        game.repetitions(),
        1,
        "the first position had a real e.p. right"
    );
    play(&mut game, "Ng6 Kf1 Nh8 Ke1");
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.claimable_draw(), None);
}

#[test]
fn fifty_moves_are_claimable_and_seventy_five_automatic() {
    let mut game = fen("k7/8/8/8/8/8/8/KR6 w - - 99 80");
    assert_eq!(game.claimable_draw(), None);
    play(&mut game, "Rb2");
    assert_eq!(game.claimable_draw(), Some(DrawClaim::FiftyMoveRule));
    assert!(!game.is_over());

    let mut game = fen("k7/8/8/8/8/8/8/KR6 w - - 149 80");
    play(&mut game, "Rb2");
    assert_eq!(
        game.ending(),
        ending(GameResult::Draw, Termination::SeventyFiveMoveRule)
    );
}

#[test]
fn checkmate_on_the_seventy_fifth_move_still_wins() {
    let mut game = fen("k7/8/1K6/8/8/8/8/7R w - - 149 80");
    play(&mut game, "Rh8#");
    assert_eq!(
        game.ending(),
        ending(GameResult::WhiteWins, Termination::Checkmate)
    );
}

#[test]
fn timeout_wins_unless_the_opponent_cannot_mate() {
    let position = "k7/8/8/8/8/8/8/KR6 w - - 0 1";
    let mut game = fen(position);
    assert_eq!(
        game.flag(Color::Black),
        Ok(Ending {
            result: GameResult::WhiteWins,
            termination: Termination::Timeout
        })
    );
    // White flags, but Black has a lone king: draw (FIDE 6.9).
    let mut game = fen(position);
    assert_eq!(
        game.flag(Color::White),
        Ok(Ending {
            result: GameResult::Draw,
            termination: Termination::Timeout
        })
    );
}

#[test]
fn resignation_and_finished_games_refuse_more() {
    let mut game = Game::new();
    play(&mut game, "e4");
    assert_eq!(
        game.resign(Color::Black),
        Ok(Ending {
            result: GameResult::WhiteWins,
            termination: Termination::Resignation
        })
    );
    assert_eq!(game.resign(Color::White), Err(RuleError::GameOver));
    assert_eq!(game.offer_draw(Color::White), Err(RuleError::GameOver));
    assert_eq!(game.abort(), Err(RuleError::GameOver));
    assert_eq!(game.claim_draw(Color::White), Err(RuleError::GameOver));
}

#[test]
fn abort_only_before_each_side_has_moved() {
    let mut game = Game::new();
    play(&mut game, "e4");
    assert!(game.can_abort());
    assert_eq!(
        game.clone().abort(),
        Ok(Ending {
            result: GameResult::NoResult,
            termination: Termination::Aborted
        })
    );
    play(&mut game, "e5");
    assert_eq!(game.abort(), Err(RuleError::AbortTooLate));
    assert!(!game.is_over());
}

#[test]
fn draw_offers_stand_until_the_opponent_moves_or_answers() {
    let mut game = Game::new();
    play(&mut game, "e4");
    assert_eq!(game.offer_draw(Color::White), Ok(DrawOffer::Offered));
    assert_eq!(
        game.offer_draw(Color::White),
        Err(RuleError::AlreadyOffered)
    );
    assert_eq!(game.accept_draw(Color::White), Err(RuleError::NoDrawOffer));
    play(&mut game, "e5");
    assert_eq!(game.draw_offer(), None, "Black moved instead of answering");

    // An offer made with one's own move stands through that move.
    assert_eq!(game.offer_draw(Color::White), Ok(DrawOffer::Offered));
    play(&mut game, "Nf3");
    assert_eq!(game.draw_offer(), Some(Color::White));
    assert_eq!(game.decline_draw(Color::Black), Ok(()));
    assert_eq!(game.draw_offer(), None);

    assert_eq!(game.offer_draw(Color::Black), Ok(DrawOffer::Offered));
    assert_eq!(
        game.accept_draw(Color::White),
        Ok(Ending {
            result: GameResult::Draw,
            termination: Termination::Agreement
        })
    );
}

#[test]
fn offering_against_a_standing_offer_agrees() {
    let mut game = Game::new();
    assert_eq!(game.offer_draw(Color::White), Ok(DrawOffer::Offered));
    assert!(matches!(
        game.offer_draw(Color::Black),
        Ok(DrawOffer::Agreed(Ending {
            result: GameResult::Draw,
            termination: Termination::Agreement
        }))
    ));
}

#[test]
fn strict_rule_counts_king_moves_into_check_and_the_third_loses() {
    let position = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1";
    let mut relaxed = fen(position);
    for _ in 0..5 {
        assert!(matches!(
            relaxed.play_text("Kd2", 0),
            Err(PlayTextError::Rule(RuleError::Input(_)))
        ));
    }
    assert!(!relaxed.is_over());

    let mut strict = fen(position);
    strict.set_strict_illegal_moves(true);
    // A move that is illegal for another reason is not counted.
    assert!(matches!(
        strict.play_text("Nf3", 0),
        Err(PlayTextError::Rule(RuleError::Input(_)))
    ));
    for expected in 1..=3u8 {
        match strict.play_text("Kd2", 0) {
            Err(PlayTextError::Illegal(attempt)) => {
                assert_eq!(attempt.counted, Some(expected));
                assert_eq!(attempt.ending.is_some(), expected == 3);
            }
            other => panic!("expected a counted attempt, got {other:?}"),
        }
    }
    assert_eq!(
        strict.ending(),
        ending(GameResult::BlackWins, Termination::IllegalMoves)
    );
}

#[test]
fn replay_rebuilds_the_same_game() {
    let mut game = Game::new();
    play(&mut game, "e4 e5 Nf3 Nc6 Bb5 a6 O-O");
    let moves: Vec<(String, i64)> = game
        .plies()
        .iter()
        .map(|p| (p.uci.to_string(), p.at_ms))
        .collect();
    let replayed = Game::replay(None, moves.iter().map(|(u, t)| (u.as_str(), *t)))
        .expect("stored moves replay");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.plies(), game.plies());
    let bad = Game::replay(None, [("e2e4", 0), ("e2e4", 1)]);
    assert_eq!(bad.map(|_| ()).map_err(|e| e.ply), Err(2));
}

#[test]
fn moves_are_echoed_in_san() {
    let mut game = Game::new();
    play(&mut game, "e2e4 e7e5 g1f3");
    let sans: Vec<&str> = game.plies().iter().map(|p| p.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    assert_eq!(game.moves_by(Color::White), 2);
    assert_eq!(game.moves_by(Color::Black), 1);
}
