//! Conditional moves in the store (issue 19), on SQLite and PostgreSQL
//! alike (the pattern of `store_conformance.rs`): a tree is written only
//! against the game version it was decided on, read back as written, found
//! again by a fresh connection (a restart), and removed with its game's end
//! (every ending), a takeback, or on request.

use chessbot::store::{
    ConditionalRecord, GameChange, GameRecord, GameState, MoveRecord, NewChallenge, NewGame, Store,
    StoreError, TakeBack,
};

const SERVER: &str = "server-1";
const HOUR: i64 = 3_600_000;

async fn start_game(store: &Store, channel: &str, rated: bool) -> GameRecord {
    for user in ["alice", "bob"] {
        store.touch_player(SERVER, user, user).await.unwrap();
    }
    let c = store
        .create_challenge(&NewChallenge {
            server_id: SERVER.to_owned(),
            channel_id: channel.to_owned(),
            challenger_id: "alice".to_owned(),
            opponent_id: Some("bob".to_owned()),
            color: "white".to_owned(),
            rated,
            time_control: "3d".to_owned(),
            initial_fen: None,
            variant: chessbot::store::Variant::Standard,
            start_number: None,
            created_ms: 1_000,
            expires_ms: 1_000 + 24 * HOUR,
        })
        .await
        .unwrap();
    store
        .accept_challenge(
            c.id,
            1_000,
            &NewGame {
                server_id: SERVER.to_owned(),
                home_channel_id: "home".to_owned(),
                channel_id: Some(channel.to_owned()),
                white_id: "alice".to_owned(),
                black_id: "bob".to_owned(),
                rated,
                time_control: "3d".to_owned(),
                initial_fen: None,
                variant: chessbot::store::Variant::Standard,
                start_number: None,
                deadline_ms: Some(1_000 + 72 * HOUR),
                created_ms: 1_000,
            },
        )
        .await
        .unwrap()
}

/// Plays `moves` (UCI, SAN) from the game's current version.
async fn play(store: &Store, game_id: i64, moves: &[(&str, &str)]) {
    for (uci, san) in moves {
        let record = store.game(game_id).await.unwrap().unwrap();
        let ply = store.moves(game_id).await.unwrap().len() as i64 + 1;
        store
            .apply(&GameChange {
                game_id,
                expected_version: record.version,
                new_move: Some(MoveRecord {
                    ply,
                    uci: (*uci).to_owned(),
                    san: (*san).to_owned(),
                    played_ms: 10_000 + ply,
                }),
                state: GameState::default(),
                rating: None,
                mover: None,
                at_ms: 10_000,
            })
            .await
            .unwrap();
    }
}

fn tree(game_id: i64, user: &str, base: i64, lines: &str) -> ConditionalRecord {
    ConditionalRecord {
        game_id,
        user_id: user.to_owned(),
        base_plies: base,
        lines: lines.to_owned(),
        updated_ms: 20_000,
    }
}

fn black_takes_ten(_white: i64, _black: i64, _score: chessbot::store::Score) -> (i64, i64) {
    (-1000, 1000)
}

async fn version(store: &Store, game_id: i64) -> i64 {
    store.game(game_id).await.unwrap().unwrap().version
}

async fn written_on_the_version_seen(store: &Store, _url: &str) {
    let game = start_game(store, "c1", false).await;
    play(store, game.id, &[("e2e4", "e4")]).await;
    let v = version(store, game.id).await;
    let alice = tree(game.id, "alice", 1, "e7e5 g1f3\nc7c5 g1f3");
    // A stale version writes nothing.
    assert!(matches!(
        store.put_conditional(v - 1, &alice).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.conditional(game.id, "alice").await.unwrap(), None);
    store.put_conditional(v, &alice).await.unwrap();
    assert_eq!(
        store.conditional(game.id, "alice").await.unwrap(),
        Some(alice.clone())
    );
    // Rewriting replaces; the other player's tree is their own row.
    let replaced = tree(game.id, "alice", 1, "e7e5 g1f3 b8c6 f1b5");
    store.put_conditional(v, &replaced).await.unwrap();
    let bob = tree(game.id, "bob", 1, "e7e5 g1f3 b8c6");
    store.put_conditional(v, &bob).await.unwrap();
    assert_eq!(
        store.conditionals_of_game(game.id).await.unwrap(),
        vec![replaced.clone(), bob.clone()]
    );
    assert_eq!(
        store.games_with_conditionals().await.unwrap(),
        vec![game.id]
    );
    // The move path reads whether a game has trees along with the game.
    assert!(
        store
            .play_view(game.id, 0)
            .await
            .unwrap()
            .unwrap()
            .conditional
    );
    // Dropping exactly what was seen: a changed tree stays.
    assert!(!store.drop_conditional(&alice).await.unwrap());
    assert!(store.drop_conditional(&replaced).await.unwrap());
    assert!(!store.drop_conditional(&replaced).await.unwrap());
    assert!(store.clear_conditional(game.id, "bob").await.unwrap());
    assert!(!store.clear_conditional(game.id, "bob").await.unwrap());
    assert!(
        !store
            .play_view(game.id, 0)
            .await
            .unwrap()
            .unwrap()
            .conditional
    );
    assert_eq!(
        store.games_with_conditionals().await.unwrap(),
        Vec::<i64>::new()
    );
}

async fn survive_moves_and_a_restart(store: &Store, url: &str) {
    let game = start_game(store, "c2", false).await;
    play(store, game.id, &[("e2e4", "e4")]).await;
    let v = version(store, game.id).await;
    let alice = tree(game.id, "alice", 1, "e7e5 g1f3");
    store.put_conditional(v, &alice).await.unwrap();
    // An ordinary move (the status is rewritten as 'active' on PostgreSQL)
    // keeps it: the moves since lead through the tree.
    play(store, game.id, &[("e7e5", "e5")]).await;
    let reopened = Store::open(url).await.unwrap();
    assert_eq!(
        reopened.conditional(game.id, "alice").await.unwrap(),
        Some(alice)
    );
    reopened.close().await;
}

async fn removed_by_every_ending(store: &Store, _url: &str) {
    let ending = |result: &str, termination: &str| GameState {
        result: Some(result.to_owned()),
        termination: Some(termination.to_owned()),
        ended_ms: Some(30_000),
        ..GameState::default()
    };
    // A move that ends the game (mate) and an ending without a move
    // (resignation, an accepted draw, a timeout, an abort).
    for (i, (with_move, state)) in [
        (true, ending("1-0", "checkmate")),
        (false, ending("0-1", "resignation")),
        (false, ending("1/2-1/2", "agreement")),
        (false, ending("1-0", "timeout")),
        (false, ending("*", "aborted")),
    ]
    .into_iter()
    .enumerate()
    {
        let game = start_game(store, &format!("end{i}"), false).await;
        play(store, game.id, &[("e2e4", "e4")]).await;
        let v = version(store, game.id).await;
        store
            .put_conditional(v, &tree(game.id, "alice", 1, "e7e5 g1f3"))
            .await
            .unwrap();
        store
            .put_conditional(v, &tree(game.id, "bob", 1, "e7e5 g1f3 b8c6"))
            .await
            .unwrap();
        store
            .apply(&GameChange {
                game_id: game.id,
                expected_version: v,
                new_move: with_move.then(|| MoveRecord {
                    ply: 2,
                    uci: "e7e5".to_owned(),
                    san: "e5".to_owned(),
                    played_ms: 30_000,
                }),
                state,
                rating: None,
                mover: None,
                at_ms: 30_000,
            })
            .await
            .unwrap();
        assert_eq!(
            store.conditionals_of_game(game.id).await.unwrap(),
            vec![],
            "ending {i}"
        );
        // And none can be written on a finished game.
        let v = version(store, game.id).await;
        assert!(matches!(
            store
                .put_conditional(v, &tree(game.id, "alice", 2, "g1f3 b8c6"))
                .await,
            Err(StoreError::Conflict)
        ));
    }
    // A rated ending (settled in a transaction of its own) too.
    let game = start_game(store, "rated", true).await;
    let v = version(store, game.id).await;
    store
        .put_conditional(v, &tree(game.id, "bob", 0, "e2e4 e7e5"))
        .await
        .unwrap();
    store
        .apply(&GameChange {
            game_id: game.id,
            expected_version: v,
            new_move: None,
            state: ending("0-1", "resignation"),
            rating: Some((
                chessbot::store::Score::BlackWins,
                black_takes_ten as chessbot::store::Settle,
            )),
            mover: None,
            at_ms: 30_000,
        })
        .await
        .unwrap();
    assert_eq!(store.conditionals_of_game(game.id).await.unwrap(), vec![]);
}

async fn removed_by_a_takeback(store: &Store, _url: &str) {
    let game = start_game(store, "tb", false).await;
    play(store, game.id, &[("e2e4", "e4"), ("e7e5", "e5")]).await;
    let v = version(store, game.id).await;
    store
        .put_conditional(v, &tree(game.id, "bob", 2, "g1f3 b8c6"))
        .await
        .unwrap();
    // A request does not touch them; the takeback does.
    store.request_takeback(game.id, v, "bob").await.unwrap();
    assert_eq!(store.conditionals_of_game(game.id).await.unwrap().len(), 1);
    store
        .take_back(&TakeBack {
            game_id: game.id,
            expected_version: v,
            requested_by: "bob".to_owned(),
            keep_plies: 1,
            state: GameState::default(),
        })
        .await
        .unwrap();
    assert_eq!(store.conditionals_of_game(game.id).await.unwrap(), vec![]);
}

async fn shown_in_a_players_data(store: &Store, _url: &str) {
    let game = start_game(store, "privacy", false).await;
    let v = version(store, game.id).await;
    store
        .put_conditional(v, &tree(game.id, "bob", 0, "e2e4 e7e5"))
        .await
        .unwrap();
    let data = store.personal_data("bob").await.unwrap().expect("data");
    assert_eq!(data["conditional_moves"][0]["lines"], "e2e4 e7e5");
    let alice = store.personal_data("alice").await.unwrap().expect("data");
    assert_eq!(alice["conditional_moves"].as_array().map(Vec::len), Some(0));
}

conformance!(
    with_url:
    written_on_the_version_seen,
    survive_moves_and_a_restart,
    removed_by_every_ending,
    removed_by_a_takeback,
    shown_in_a_players_data,
);
