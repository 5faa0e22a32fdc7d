//! The club pages in a real browser (headless Chromium over WebDriver): a
//! 9-player Swiss page shows each result and the next round's pairings as
//! they happen, without a reload; the game viewer steps through an
//! analysed game with the arrow keys, a click on a move and a click on the
//! advantage chart; the pages at a phone's width; an 8-player knockout's
//! bracket. Screenshots go to
//! `target/web-screenshots/`.

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::browser::{browser, browsers_here, screenshot, start_driver};
use crate::club_support::{tournament, ClubBed, SERVER};
use crate::web_support::WAIT;

const EVIL: &str = "<script>alert(1)</script>";
use chessbot::store::{AnalysisRecord, AnalysisStatus, StoredEval};

/// Waits until `script` (a JavaScript expression) is true on the page.
async fn wait_for(client: &Client, script: &str, what: &str) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let value = client
            .execute(&format!("return !!({script});"), vec![])
            .await
            .expect("script");
        if value == json!(true) {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn eval(client: &Client, script: &str) -> Value {
    client
        .execute(&format!("return {script};"), vec![])
        .await
        .expect("script")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_page_updates_live_and_the_viewer_steps() {
    if !browsers_here() {
        return;
    }
    let mut bed = ClubBed::start().await;
    bed.set_web("link").await;
    let slug = bed.slug().await;
    let id = tournament(&mut bed, "Winter Swiss", "swiss", 9, 3).await;
    let driver = start_driver().await;
    let client = browser(&driver, "en").await;

    // The ladder: 60 players, one of them named like markup (stored
    // raw, as no command of the bot would store it); two pages.
    let store = bed.service.store();
    for i in 0..60 {
        let name = if i == 7 {
            EVIL.to_owned()
        } else {
            format!("Ladder {i:02}")
        };
        sqlx::query(
            "INSERT INTO players (server_id, user_id, display_name, points, rated_games) \
             VALUES ($1, $2, $3, $4, 1)",
        )
        .bind(SERVER)
        .bind(format!("l{i:02}"))
        .bind(name)
        .bind(100_000 - i * 100)
        .execute(store.pool())
        .await
        .unwrap();
    }
    client
        .goto(&format!("{}/club/{slug}/ladder", bed.base))
        .await
        .expect("the ladder");
    let text = eval(
        &client,
        "document.querySelector('table.ladder').textContent",
    )
    .await;
    assert!(
        text.as_str().is_some_and(|t| t.contains(EVIL)),
        "the name shown as text: {text}"
    );
    assert_eq!(
        eval(&client, "document.querySelectorAll('main script').length").await,
        json!(0)
    );
    assert_eq!(
        eval(
            &client,
            "document.querySelectorAll('table.ladder tbody tr').length"
        )
        .await,
        json!(50)
    );
    client
        .find(Locator::Css("a[rel='next']"))
        .await
        .expect("a next page")
        .click()
        .await
        .expect("click");
    wait_for(
        &client,
        "location.search.includes('page=2')",
        "the second page",
    )
    .await;
    assert_eq!(
        eval(
            &client,
            "document.querySelectorAll('table.ladder tbody tr').length"
        )
        .await,
        json!(10)
    );
    screenshot(&client, "club-ladder").await;

    let url = format!("{}/club/{slug}/tournament/{id}", bed.base);
    client.goto(&url).await.expect("the tournament page");
    // Round 1 is paired: four boards and a bye, no result yet.
    wait_for(
        &client,
        "document.querySelectorAll('#round-1 tbody tr').length === 5",
        "round 1 shown",
    )
    .await;
    let marker = eval(&client, "(document.body.dataset.marker = 'same page')").await;
    assert_eq!(marker, json!("same page"));
    let results = ["1-0", "0-1", "1/2-1/2", "1-0"];
    for round in 1..=3 {
        for (k, game) in bed.pending_games(id).await.into_iter().enumerate() {
            bed.play(game, &["e4", "e5"], results[k % 4]).await;
            // The page shows the result without a reload.
            let shown = format!(
                "[...document.querySelectorAll('#round-{round} a')].some(a => a.href.endsWith('/game/{game}') && a.textContent !== '…')"
            );
            wait_for(
                &client,
                &shown,
                &format!("round {round}'s result of game {game}"),
            )
            .await;
        }
        // The standings follow: four games and a bye hand out five points
        // a round, and the next round's bye is scored as soon as it is
        // paired.
        let expected = 5 * round + usize::from(round < 3);
        let total = format!(
            "[...document.querySelectorAll('#standings tbody td b')].map(b => parseFloat(b.textContent.replace('½', '.5').replace(/^\\./, '0.')) || 0).reduce((a, b) => a + b, 0) === {expected}"
        );
        wait_for(
            &client,
            &total,
            &format!("the standings after round {round}"),
        )
        .await;
        if round < 3 {
            let next = format!("document.getElementById('round-{}') !== null", round + 1);
            wait_for(
                &client,
                &next,
                &format!("round {} paired on the page", round + 1),
            )
            .await;
        }
    }
    assert_eq!(
        eval(&client, "document.body.dataset.marker").await,
        json!("same page"),
        "updated in place, never reloaded"
    );
    let leader = eval(
        &client,
        "document.querySelector('#standings tbody tr td:nth-child(2)').textContent",
    )
    .await;
    assert!(leader.as_str().is_some_and(|s| !s.is_empty()), "{leader}");
    screenshot(&client, "club-tournament").await;

    // An analysed game in the viewer: the evaluations as the engine
    // would have stored them (these are made up: the viewer is under test).
    let game = bed.new_game(("alice", "Alice"), ("bob", "Bob")).await;
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+",
        "Be2", "Nf3#",
    ];
    bed.play(game, &moves, "*").await;
    let store = bed.service.store();
    store
        .queue_analysis(&AnalysisRecord {
            game_id: game,
            server_id: SERVER.into(),
            channel_id: "lobby".into(),
            requested_by: "alice".into(),
            status: AnalysisStatus::Queued,
            positions: moves.len() as i64 + 1,
            created_ms: 0,
            finished_ms: None,
        })
        .await
        .unwrap();
    // White's view: 4. Nxe5?? throws the game away (Nc3 was better), the
    // last position is mate (as the analysis stores it: a huge score).
    let cps = [
        30, 30, 35, 30, 40, 35, 30, -300, -300, -800, -800, -900, -950, -1000, -100_000,
    ];
    for (ply, cp) in cps.iter().enumerate() {
        store
            .save_eval(
                game,
                &StoredEval {
                    ply: ply as i64,
                    cp: Some(*cp),
                    mate: None,
                    best_uci: (ply == 6).then(|| "b1c3".to_owned()),
                    depth: 12,
                },
            )
            .await
            .unwrap();
    }
    store
        .set_analysis_status(game, AnalysisStatus::Done, 1)
        .await
        .unwrap();
    let viewer = format!("{}/club/{slug}/game/{game}", bed.base);
    client.goto(&viewer).await.expect("the viewer");
    wait_for(
        &client,
        "document.querySelector('cg-board') !== null",
        "the board drawn",
    )
    .await;
    wait_for(
        &client,
        "document.body.dataset.ply === '14'",
        "the last position first",
    )
    .await;
    let board = client.find(Locator::Css("body")).await.expect("body");
    board.send_keys("\u{E012}").await.expect("ArrowLeft");
    wait_for(
        &client,
        "document.body.dataset.ply === '13'",
        "one move back",
    )
    .await;
    board.send_keys("\u{E011}").await.expect("Home");
    wait_for(&client, "document.body.dataset.ply === '0'", "the start").await;
    client
        .find(Locator::Css(".viewer-moves a[data-ply='7']"))
        .await
        .expect("move 7")
        .click()
        .await
        .expect("click");
    wait_for(
        &client,
        "document.body.dataset.ply === '7' && location.search.includes('ply=7')",
        "a move clicked",
    )
    .await;
    let current = eval(
        &client,
        "document.querySelector('.viewer-moves a[aria-current]').textContent",
    )
    .await;
    assert!(
        current.as_str().is_some_and(|s| s.starts_with("Nxe5")),
        "{current}"
    );
    client
        .execute(
            "document.querySelector(\"svg.advantage a[data-ply='10'] rect\").dispatchEvent(new MouseEvent('click', {bubbles: true}));",
            vec![],
        )
        .await
        .expect("chart click");
    wait_for(
        &client,
        "document.body.dataset.ply === '10'",
        "a point of the chart clicked",
    )
    .await;
    let pieces = eval(
        &client,
        "document.querySelectorAll('cg-board piece').length",
    )
    .await;
    assert_eq!(
        pieces,
        json!(29),
        "after 10 plies three pawns are gone: {pieces}"
    );
    let text = eval(&client, "document.querySelector('.mistakes').textContent").await;
    assert!(
        text.as_str()
            .is_some_and(|t| t.contains("4. Nxe5??") && t.contains("better was Nc3")),
        "the blunder and the better move: {text}"
    );
    screenshot(&client, "club-viewer").await;

    // bob's profile: the rated game just played is his points chart.
    client
        .goto(&format!("{}/club/{slug}/player/bob", bed.base))
        .await
        .expect("a profile");
    wait_for(
        &client,
        "document.querySelector('svg.points polyline') !== null",
        "the points chart",
    )
    .await;
    screenshot(&client, "club-profile").await;
    client.goto(&viewer).await.expect("the viewer again");
    wait_for(
        &client,
        "document.querySelector('cg-board') !== null",
        "the board drawn",
    )
    .await;

    // A phone's width: the viewer stacks, nothing overflows the page.
    client.set_window_size(390, 844).await.expect("resize");
    screenshot(&client, "club-viewer-phone").await;
    let overflow = eval(
        &client,
        "[document.documentElement.scrollWidth - document.documentElement.clientWidth,          [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.tagName + '.' + e.className).slice(0, 5)]",
    )
    .await;
    assert!(
        overflow[0].as_i64().is_some_and(|px| px <= 0),
        "wider than the phone: {overflow}"
    );
    client.goto(&url).await.expect("the tournament page");
    screenshot(&client, "club-tournament-phone").await;

    // A knockout's bracket, at a desktop's width again.
    client.set_window_size(1000, 760).await.expect("resize");
    let cup = tournament(&mut bed, "Spring Cup", "knockout", 8, 0).await;
    for _ in 0..3 {
        for game in bed.pending_games(cup).await {
            bed.play(game, &["d4", "d5"], "1-0").await;
        }
    }
    client
        .goto(&format!(
            "{}/club/{slug}/tournament/{cup}#bracket",
            bed.base
        ))
        .await
        .expect("the knockout's page");
    wait_for(
        &client,
        "document.querySelectorAll('.bracket .match').length === 7",
        "the bracket",
    )
    .await;
    screenshot(&client, "club-bracket").await;
    client.close().await.expect("close");
}
