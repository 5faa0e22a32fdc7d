//! The daily puzzle through the service: posted once at the server's hour
//! (a restart does not post it again), solved privately, the day's solvers
//! and streaks with the solution the next day; and bad input (a malformed
//! hour, no puzzle channel, answers after the day closed), refused
//! privately with every table left as it was.

use chessbot::service::{Command, Notice, Setting};

use super::puzzle_solving::{mv, Bed};

/// The bed's clock starts at 2026-01-01 12:00 UTC: local day 20454.
const DAY: i64 = 20_454;
const HOUR_MS: i64 = 3_600_000;
const START_MS: i64 = 1_767_268_800_000;

fn settings(changes: Vec<Setting>) -> Command {
    Command::Settings { changes }
}

fn press(id: &str) -> Command {
    Command::Button { id: id.to_owned() }
}

/// The daily channel and 13:00, as a moderator sets them.
async fn daily_at_one(bed: &Bed) {
    let done = bed
        .run_mod(
            "carol",
            settings(vec![
                Setting::PuzzleChannel(Some("puzzles".into())),
                Setting::PuzzleTime("13".into()),
            ]),
        )
        .await;
    assert!(
        done.text
            .contains("the daily puzzle is posted in <#puzzles>"),
        "{}",
        done.text
    );
    assert!(done.text.contains("13:00"), "{}", done.text);
}

fn texts(notices: &[Notice]) -> Vec<String> {
    notices.iter().map(|n| n.reply.text.clone()).collect()
}

#[tokio::test]
async fn a_daily_puzzle_from_its_post_to_the_next_days_solution() {
    let bed = Bed::new().await;
    daily_at_one(&bed).await;
    // Before the hour: nothing, and the scheduler knows when.
    assert!(bed.service.tick().await.is_empty());
    assert_eq!(bed.service.next_event_ms().await, Some(START_MS + HOUR_MS));
    bed.clock.set(START_MS + HOUR_MS);
    let posted = bed.service.tick().await;
    assert_eq!(posted.len(), 1, "{:?}", texts(&posted));
    let post = &posted[0];
    assert_eq!(post.channel.as_deref(), Some("puzzles"));
    assert!(!post.reply.ephemeral);
    assert!(
        post.reply
            .text
            .contains("Daily puzzle of 2026-01-01**: White to play and win."),
        "{}",
        post.reply.text
    );
    assert!(post.reply.image.is_some());
    assert_eq!(post.reply.buttons[0].id, format!("puzzle:daily:{DAY}"));
    // Once: neither a second tick nor a restarted bot posts it again.
    assert!(bed.service.tick().await.is_empty());
    assert!(bed.restarted().tick().await.is_empty());

    // Alice solves it privately.
    let solve = press(&format!("puzzle:daily:{DAY}"));
    let shown = bed.run("alice", solve.clone()).await;
    assert!(shown.ephemeral, "{shown:?}");
    assert!(
        shown
            .text
            .contains("The daily puzzle of 2026-01-01, only for you"),
        "{}",
        shown.text
    );
    let right = bed.run("alice", mv("Qd8+")).await;
    assert!(right.text.contains("Qd8+ is right"), "{}", right.text);
    let solved = bed.run("alice", mv("Re8#")).await;
    assert!(solved.ephemeral);
    assert!(
        solved.text.contains("Daily puzzle solved: a 1-day streak."),
        "{}",
        solved.text
    );
    // The daily is not rated: no puzzle points moved.
    assert!(bed
        .store
        .puzzle_player(super::puzzle_solving::SERVER, "alice")
        .await
        .expect("read")
        .is_none_or(|p| p.attempts == 0));
    // Bob fails it; Dan starts and never answers.
    bed.run("bob", solve.clone()).await;
    let wrong = bed.run("bob", mv("Qxf7+")).await;
    assert!(wrong.text.contains("Not today"), "{}", wrong.text);
    assert!(
        wrong.text.contains("The solution: 1. Qd8+"),
        "{}",
        wrong.text
    );
    // One attempt a day.
    bed.refused("bob", solve.clone(), "tried the daily puzzle of 2026-01-01")
        .await;
    bed.run("dan", solve.clone()).await;
    // A rated puzzle waits while the daily one is open.
    let again = bed.run("dan", Command::Puzzle).await;
    assert!(
        again.text.contains("You are solving the daily puzzle"),
        "{}",
        again.text
    );

    // The next day at 13:00: the solution with its solvers, then the new
    // puzzle (the pool's second).
    bed.clock.set(START_MS + 25 * HOUR_MS);
    let next = bed.service.tick().await;
    let said = texts(&next);
    assert_eq!(next.len(), 2, "{said:?}");
    assert!(
        said[0].contains("Solution of the daily puzzle of 2026-01-01**: 1. Qd8+ Bxd8 2. Re8#"),
        "{said:?}"
    );
    assert!(
        said[0].contains("Solved by 1 of 3: alice (1-day streak)."),
        "{said:?}"
    );
    assert!(
        said[1].contains("Daily puzzle of 2026-01-02**: Black to play and win."),
        "{said:?}"
    );

    // Dan's answer to the closed day, and a press of its button: refused,
    // nothing stored.
    bed.refused(
        "dan",
        mv("Qd8+"),
        "The daily puzzle of 2026-01-01 is closed",
    )
    .await;
    bed.refused("bob", solve, "The daily puzzle of 2026-01-01 is closed")
        .await;

    // Alice keeps her streak with today's.
    let today = press(&format!("puzzle:daily:{}", DAY + 1));
    bed.run("alice", today).await;
    let solved = bed.run("alice", mv("Qa1#")).await;
    assert!(solved.text.contains("a 2-day streak"), "{}", solved.text);
}

#[tokio::test]
async fn daily_bad_input_is_refused_privately_and_stores_nothing() {
    let bed = Bed::new().await;
    // Everyone known first (a first command records its sender).
    for who in ["alice", "carol"] {
        bed.run(who, Command::Help).await;
    }
    // No puzzle channel: the daily puzzle by command and by a button.
    bed.refused(
        "alice",
        Command::DailyPuzzle,
        "This server has no daily puzzle",
    )
    .await;
    bed.refused(
        "alice",
        press(&format!("puzzle:daily:{DAY}")),
        "This server has no daily puzzle",
    )
    .await;
    // Malformed hours.
    for bad in ["25", "9:30", "nine", "-1", ""] {
        let before = bed.snapshot().await;
        let reply = bed
            .run_mod("carol", settings(vec![Setting::PuzzleTime(bad.into())]))
            .await;
        assert!(reply.ephemeral, "{bad:?}: {reply:?}");
        assert!(
            reply.text.contains("is not an hour I can read"),
            "{bad:?}: {}",
            reply.text
        );
        assert_eq!(
            before,
            bed.snapshot().await,
            "{bad:?}: stored state changed"
        );
    }
    // A channel set but nothing posted yet: said when it comes.
    daily_at_one(&bed).await;
    bed.refused(
        "alice",
        Command::DailyPuzzle,
        "The first daily puzzle comes at 13:00 UTC",
    )
    .await;
    // `off` ends it.
    let off = bed
        .run_mod("carol", settings(vec![Setting::PuzzleTime("off".into())]))
        .await;
    assert!(off.text.contains("no daily puzzle"), "{}", off.text);
    bed.clock.set(START_MS + 2 * HOUR_MS);
    assert!(bed.service.tick().await.is_empty());
}
