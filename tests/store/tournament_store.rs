//! Tournaments in the store (issue 14), on SQLite and PostgreSQL alike (the
//! pattern of `store_conformance.rs`): entries only while open and not
//! full, a start and each round written once whoever tries twice, a
//! game's ending written into its board by the database itself, and the
//! due list the scheduler reads.

use chessbot::store::{
    Entrant, GameChange, GameRecord, GameState, NewBoard, NewGame, NewTournament, Seeding, Store,
    StoreError, TournamentRecord, TournamentStatus,
};

const SERVER: &str = "server-1";

fn tournament(max_players: i64) -> NewTournament {
    NewTournament {
        server_id: SERVER.into(),
        channel_id: "lobby".into(),
        name: "Club Swiss".into(),
        format: "swiss".into(),
        rounds: 3,
        time_control: "3d".into(),
        rated: true,
        tiebreaks: "buchholz".into(),
        vacations_pause: true,
        max_players,
        starts_ms: None,
        first_move_ms: 0,
        schedule: "rounds".into(),
        match_games: 2,
        decider_pairs: 1,
        sudden_death: true,
        groups_count: 1,
        initial_colour: "white".into(),
        variant: chessbot::store::Variant::Standard,
        created_by: "mod".into(),
        created_ms: 1_000,
    }
}

fn entrant(user: &str, at: i64) -> Entrant {
    Entrant {
        user_id: user.into(),
        name: user.into(),
        points: 0,
        pno: None,
        section: None,
        board: None,
        joined_ms: at,
        withdrawn_after: None,
    }
}

fn board(round: i64, board: i64, white: &str, black: Option<&str>) -> NewBoard {
    NewBoard {
        round,
        board,
        game_no: 1,
        white_id: white.into(),
        black_id: black.map(str::to_owned),
        result: black.is_none().then(|| "bye".to_owned()),
        first_reminder_ms: None,
        game: black.map(|b| NewGame {
            server_id: SERVER.into(),
            home_channel_id: "lobby".into(),
            channel_id: None,
            white_id: white.into(),
            black_id: b.into(),
            rated: true,
            time_control: "3d".into(),
            initial_fen: None,
            variant: chessbot::store::Variant::Standard,
            start_number: None,
            deadline_ms: Some(10_000_000),
            created_ms: 2_000,
        }),
    }
}

fn seeding(users: &[&str]) -> Vec<Seeding> {
    users
        .iter()
        .enumerate()
        .map(|(i, u)| Seeding {
            user_id: (*u).into(),
            pno: i as i64 + 1,
            section: None,
        })
        .collect()
}

/// The server and players rows the games refer to.
async fn players(store: &Store) {
    for u in ["a", "b", "c"] {
        store.touch_player(SERVER, u, u).await.unwrap();
    }
}

/// A one-round tournament of a (White) against b, started.
async fn a_against_b(store: &Store) -> (TournamentRecord, Vec<GameRecord>) {
    players(store).await;
    let t = store.create_tournament(&tournament(10), &[]).await.unwrap();
    for (i, u) in ["a", "b"].iter().enumerate() {
        store
            .join_tournament(t.id, &entrant(u, i as i64))
            .await
            .unwrap();
    }
    let games = start_a_against_b(store, t.id, 1).await;
    (t, games)
}

/// Starts tournament `id` (of `rounds` rounds) with one board: a (White) against b.
async fn start_a_against_b(store: &Store, id: i64, rounds: i64) -> Vec<GameRecord> {
    store
        .start_tournament(
            id,
            rounds,
            1,
            &seeding(&["a", "b"]),
            &[board(1, 1, "a", Some("b"))],
        )
        .await
        .unwrap()
}

/// Ends a game as a resignation would: the state written through `apply`.
async fn end_game(store: &Store, game_id: i64, result: &str, termination: &str) {
    let record = store.game(game_id).await.unwrap().unwrap();
    store
        .apply(&GameChange {
            game_id,
            expected_version: record.version,
            new_move: None,
            state: GameState {
                result: Some(result.into()),
                termination: Some(termination.into()),
                ended_ms: Some(5_000),
                ..GameState::default()
            },
            rating: None,
            mover: None,
            at_ms: 5_000,
        })
        .await
        .unwrap();
}

async fn entries_only_while_open_and_not_full(store: &Store, _url: &str) {
    players(store).await;
    let t = store.create_tournament(&tournament(2), &[]).await.unwrap();
    store.join_tournament(t.id, &entrant("a", 1)).await.unwrap();
    // Twice: refused, nothing written.
    assert!(matches!(
        store.join_tournament(t.id, &entrant("a", 2)).await,
        Err(StoreError::Conflict)
    ));
    store.join_tournament(t.id, &entrant("b", 3)).await.unwrap();
    // Full.
    assert!(matches!(
        store.join_tournament(t.id, &entrant("c", 4)).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.entrants(t.id).await.unwrap().len(), 2);
    start_a_against_b(store, t.id, 3).await;
    // Started: no leaving, no joining.
    assert!(!store.leave_tournament(t.id, "a").await.unwrap());
    assert_eq!(store.entrants(t.id).await.unwrap().len(), 2);
}

async fn a_round_is_paired_once(store: &Store, _url: &str) {
    players(store).await;
    let t = store.create_tournament(&tournament(10), &[]).await.unwrap();
    for (i, u) in ["a", "b", "c"].iter().enumerate() {
        store
            .join_tournament(t.id, &entrant(u, i as i64))
            .await
            .unwrap();
    }
    let round1 = [board(1, 1, "a", Some("b")), board(1, 2, "c", None)];
    let games = store
        .start_tournament(t.id, 3, 1, &seeding(&["a", "b", "c"]), &round1)
        .await
        .unwrap();
    assert_eq!(games.len(), 1);
    // A second start changes nothing.
    assert!(matches!(
        store
            .start_tournament(t.id, 3, 1, &seeding(&["a", "b", "c"]), &round1)
            .await,
        Err(StoreError::Conflict)
    ));
    // Not due while the game is on.
    assert!(store.tournaments_due(10_000).await.unwrap().is_empty());
    end_game(store, games[0].id, "1-0", "resignation").await;
    // The trigger wrote the board's result with the ending.
    let boards = store.tournament_games(t.id).await.unwrap();
    assert_eq!(boards[0].result.as_deref(), Some("1-0"));
    assert_eq!(store.tournaments_due(10_000).await.unwrap(), vec![t.id]);
    let round2 = [board(2, 1, "c", Some("a")), board(2, 2, "b", None)];
    let (first, second) = tokio::join!(
        store.pair_tournament_round(t.id, 2, &round2),
        store.pair_tournament_round(t.id, 2, &round2)
    );
    // Exactly one of two racing writers pairs the round.
    assert!(first.is_ok() != second.is_ok(), "{first:?} / {second:?}");
    let boards = store.tournament_games(t.id).await.unwrap();
    assert_eq!(boards.iter().filter(|b| b.round == 2).count(), 2);
    let record = store.tournament(t.id).await.unwrap().unwrap();
    assert_eq!(record.current_round, 2);
    // A fresh connection (a restart) reads the same.
    let game = boards
        .iter()
        .find(|b| b.round == 2 && b.game_id.is_some())
        .unwrap();
    let (id, found) = store
        .tournament_of_game(game.game_id.unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!((id, found.round, found.board), (t.id, 2, 1));
}

async fn an_unstarted_game_is_a_forfeit(store: &Store, _url: &str) {
    let (t, games) = a_against_b(store).await;
    // White never moved: the deadline aborts the game, White forfeits.
    end_game(store, games[0].id, "*", "aborted").await;
    let boards = store.tournament_games(t.id).await.unwrap();
    assert_eq!(boards[0].result.as_deref(), Some("-+"));
}

async fn results_status_and_withdrawals(store: &Store, _url: &str) {
    let (t, _) = a_against_b(store).await;
    let boards = store.tournament_games(t.id).await.unwrap();
    assert!(store
        .set_tournament_result(t.id, &boards[0], "+-", "mod", true)
        .await
        .unwrap());
    // Pending only: a board with a result is not written again.
    assert!(!store
        .set_tournament_result(t.id, &boards[0], "-+", "mod", true)
        .await
        .unwrap());
    let boards = store.tournament_games(t.id).await.unwrap();
    assert_eq!(boards[0].result.as_deref(), Some("+-"));
    assert_eq!(boards[0].set_by.as_deref(), Some("mod"));
    assert!(store.withdraw_entrant(t.id, "b", 1).await.unwrap());
    assert!(!store.withdraw_entrant(t.id, "b", 1).await.unwrap());
    let running = [TournamentStatus::Running];
    assert!(store
        .set_tournament_status(t.id, &running, TournamentStatus::Paused, 9)
        .await
        .unwrap());
    assert!(!store
        .set_tournament_status(t.id, &running, TournamentStatus::Finished, 9)
        .await
        .unwrap());
    let record = store.tournament(t.id).await.unwrap().unwrap();
    assert_eq!(record.status, TournamentStatus::Paused);
    assert_eq!(
        store.tournaments_of(SERVER, true, 10).await.unwrap().len(),
        1
    );
}

async fn shown_and_forgotten_with_a_players_data(store: &Store, _url: &str) {
    let (t, games) = a_against_b(store).await;
    let data = store.personal_data("a").await.unwrap().unwrap();
    assert_eq!(
        data["tournament_entrants"].as_array().map(Vec::len),
        Some(1)
    );
    end_game(store, games[0].id, "0-1", "resignation").await;
    store.forget_user("a", 9_000).await.unwrap();
    assert!(store.personal_data("a").await.unwrap().is_none());
    let entrants = store.entrants(t.id).await.unwrap();
    assert_eq!(entrants.len(), 2, "the record keeps an erased entrant");
    assert!(entrants.iter().all(|e| e.user_id != "a" && e.name != "a"));
    let boards = store.tournament_games(t.id).await.unwrap();
    assert_ne!(boards[0].white_id, "a");
    assert_eq!(
        Some(&boards[0].white_id),
        entrants
            .iter()
            .find(|e| e.pno == Some(1))
            .map(|e| &e.user_id)
    );
}

/// A Chess960 event keeps its variant, and each round's start: the first
/// draw recorded is the one every later reader gets.
async fn a_round_start_is_recorded_once(store: &Store, _url: &str) {
    let mut new = tournament(10);
    new.variant = chessbot::store::Variant::Chess960;
    let t = store.create_tournament(&new, &[]).await.unwrap();
    let read = store.tournament(t.id).await.unwrap().unwrap();
    assert_eq!(read.tournament.variant, chessbot::store::Variant::Chess960);
    assert_eq!(store.round_start(t.id, 1, 300, 1_000).await.unwrap(), 300);
    // A second pairing of round 1 (another process) drew 7: 300 stands.
    assert_eq!(store.round_start(t.id, 1, 7, 2_000).await.unwrap(), 300);
    assert_eq!(store.round_start(t.id, 2, 959, 3_000).await.unwrap(), 959);
    assert_eq!(
        store.round_starts(t.id).await.unwrap(),
        [(1, 300), (2, 959)]
    );
}

conformance!(
    with_url:
    a_round_start_is_recorded_once,
    entries_only_while_open_and_not_full,
    a_round_is_paired_once,
    an_unstarted_game_is_a_forfeit,
    results_status_and_withdrawals,
    shown_and_forgotten_with_a_players_data,
);
