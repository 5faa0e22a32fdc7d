//! The web board against the real bot and the fake Discord, without a
//! browser: who may do what (signed links, sessions, spectators), every
//! bad input refused with nothing stored changed, and Discord kept in
//! step with the board both ways.

use serde_json::{json, Value};

use crate::support::fake_discord::{opt_str, FakeDiscord, ALICE, BOB, CAROL, CHESS_CHANNEL};
use crate::web_support::*;
use chessbot::service::links::{Purpose, WebLinks};

/// The moves stored for game `game` (what must not change on a refusal).
async fn stored_moves(bot: &WebBot, game: i64) -> Vec<String> {
    let store = chessbot::store::Store::connect(&bot.database_url)
        .await
        .expect("store");
    let moves = store
        .moves(game)
        .await
        .expect("moves")
        .into_iter()
        .map(|m| m.uci)
        .collect();
    store.close().await;
    moves
}

fn game_of(link: &str) -> i64 {
    let path = link.split("/play/").nth(1).expect("a /play/ link");
    path.split('?')
        .next()
        .and_then(|g| g.parse().ok())
        .expect("a game id")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_sessions_and_spectators() {
    let fake = FakeDiscord::start().await;
    let bot = WebBot::start(&fake, false).await;
    let board = start_game(&fake, &ALICE, &BOB, "5+3").await;
    // The board message carries both buttons; Watch live is a link.
    let watch = link_button(&board.json["components"], "Watch live").expect("Watch live");
    let link = player_link(&fake, &ALICE, &board).await;
    let game = game_of(&link);
    assert_eq!(watch, bot.url(&format!("/game/{game}")));
    // carol is no player: Play in browser refuses her.
    let id = button(&board.json["components"], "Play in browser").expect("button");
    let i = fake.click_button(&CAROL, CHESS_CHANNEL, &board, &id).await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert!(
        cb.flags_ephemeral() && link_button(&cb.data["components"], "Play in browser").is_none()
    );

    // A valid link: a session cookie and a redirect, the token gone from the address.
    let answer = get(&link, &[]).await;
    assert_eq!(answer.status, 303);
    assert_eq!(
        answer.header("location"),
        Some(format!("/game/{game}").as_str())
    );
    assert_eq!(answer.header("cache-control"), Some("no-store"));
    assert_eq!(answer.header("referrer-policy"), Some("no-referrer"));
    let cookie = session_cookie(&link).await;

    // Forged, expired and other games' links: 403, no cookie.
    let links = WebLinks::new(&bot.url(""), SECRET.as_bytes());
    let now = chessbot::clock::Clock::now_ms(&chessbot::clock::SystemClock);
    let token = link.split("?t=").nth(1).expect("token");
    let mut forged = token.to_owned();
    let last = forged.pop().expect("a char");
    forged.push(if last == '0' { '1' } else { '0' });
    let expired = links.sign(Purpose::Link, game, &ALICE.id.to_string(), now - 1);
    let other_game = links.sign(Purpose::Link, game + 1, &ALICE.id.to_string(), now + 60_000);
    let foreign = WebLinks::new(&bot.url(""), b"someone else's secret").sign(
        Purpose::Link,
        game,
        &ALICE.id.to_string(),
        now + 60_000,
    );
    for (what, path) in [
        ("forged", format!("/play/{game}?t={forged}")),
        ("expired", format!("/play/{game}?t={expired}")),
        ("other game's", format!("/play/{game}?t={other_game}")),
        ("other secret's", format!("/play/{game}?t={foreign}")),
        ("no", format!("/play/{game}")),
        ("garbage", format!("/play/{game}?t=%00%ff")),
    ] {
        let answer = get(&bot.url(&path), &[]).await;
        assert_eq!(answer.status, 403, "{what} token");
        assert!(
            answer.header("set-cookie").is_none(),
            "{what} token sets no session"
        );
        assert!(
            answer.body.contains("not valid"),
            "{what} token: {}",
            answer.body
        );
    }
    // A session cookie that was tampered with is a spectator's visit.
    let page = get(
        &bot.url(&format!("/game/{game}")),
        &[("Cookie", &format!("{cookie}x"))],
    )
    .await;
    assert!(page.body.contains("data-role=\"spectator\""));

    // The page: CSP without inline script, words escaped into a JSON block.
    let page = get(&bot.url(&format!("/game/{game}")), &[("Cookie", &cookie)]).await;
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy").expect("a CSP");
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(page.body.contains("data-role=\"player\""));
    assert!(!page.body.contains("<script>"), "no inline script");
    // In Chinese for a browser that asks for it.
    let zh = get(
        &bot.url(&format!("/game/{game}")),
        &[("Accept-Language", "zh-CN,zh;q=0.9")],
    )
    .await;
    assert!(
        zh.body.contains("<html lang=\"zh-CN\"") && zh.body.contains("走棋"),
        "{}",
        &zh.body[..400]
    );

    // Spectators off: only the players' pages open.
    let i = fake
        .send_slash(
            &ALICE,
            CHESS_CHANNEL,
            "settings",
            json!([{"name": "spectators", "type": 5, "value": false}]),
        )
        .await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert!(cb.content().contains("off"), "{}", cb.content());
    let watcher = get(&bot.url(&format!("/game/{game}")), &[]).await;
    assert_eq!(watcher.status, 403);
    assert_eq!(
        open_socket(&bot, game, None, &bot.url("")).await.err(),
        Some(403)
    );
    assert_eq!(
        get(&bot.url(&format!("/game/{game}")), &[("Cookie", &cookie)])
            .await
            .status,
        200
    );
    assert_eq!(get_plain(&bot.url("/game/999999")).await.status, 404);
    bot.stop().await;
}

/// `GET` without headers.
async fn get_plain(url: &str) -> Answer {
    get(url, &[]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_changes_nothing() {
    let fake = FakeDiscord::start().await;
    let bot = WebBot::start(&fake, true).await;
    let board = start_game(&fake, &ALICE, &BOB, "5+3").await;
    let alice_link = player_link(&fake, &ALICE, &board).await;
    let bob_link = player_link(&fake, &BOB, &board).await;
    let game = game_of(&alice_link);
    let (alice, bob) = (
        session_cookie(&alice_link).await,
        session_cookie(&bob_link).await,
    );
    let origin = bot.url("");

    // A foreign Origin may not open a socket.
    assert_eq!(
        open_socket(&bot, game, Some(&alice), "https://evil.example")
            .await
            .err(),
        Some(403)
    );

    let mut watcher = open_socket(&bot, game, None, &origin)
        .await
        .expect("spectator socket");
    let state = next_state(&mut watcher).await;
    assert_eq!(state["you"], Value::Null);
    assert_eq!(state["dests"], json!({}), "a spectator gets no moves");
    // A spectator's move: refused, nothing stored.
    send(
        &mut watcher,
        json!({"v": 1, "t": "move", "uci": "e2e4", "ply": 0}),
    )
    .await;
    let refused = next(&mut watcher).await.expect("an answer");
    assert_eq!(refused["t"], "refused");
    assert!(
        refused["text"].as_str().unwrap_or("").contains("watching"),
        "{refused}"
    );
    assert!(stored_moves(&bot, game).await.is_empty());

    let mut white = open_socket(&bot, game, Some(&alice), &origin)
        .await
        .expect("alice");
    let mut black = open_socket(&bot, game, Some(&bob), &origin)
        .await
        .expect("bob");
    let state = next_state(&mut white).await;
    assert_eq!(
        (state["you"].as_str(), state["ply"].as_i64()),
        (Some("white"), Some(0))
    );
    assert_eq!(state["dests"]["e2"], json!(["e3", "e4"]));
    next_state(&mut black).await;

    // Out of turn, illegal, a king into check's form, and a stale ply.
    for (is_white, frame, says) in [
        (
            false,
            json!({"v": 1, "t": "move", "uci": "e7e5", "ply": 0}),
            "not your turn",
        ),
        (
            true,
            json!({"v": 1, "t": "move", "uci": "e2e5", "ply": 0}),
            "not legal",
        ),
        (
            true,
            json!({"v": 1, "t": "move", "uci": "e2e4", "ply": 3}),
            "moved on",
        ),
        (
            false,
            json!({"v": 1, "t": "act", "act": "takeback-accept", "ply": 0}),
            "takeback",
        ),
    ] {
        let socket = if is_white { &mut white } else { &mut black };
        send(socket, frame.clone()).await;
        let answer = next(socket).await.expect("an answer");
        assert_eq!(answer["t"], "refused", "{frame}: {answer}");
        let text = answer["text"].as_str().unwrap_or("").to_lowercase();
        assert!(text.contains(says), "{frame}: {text}");
        assert!(
            stored_moves(&bot, game).await.is_empty(),
            "{frame} changed nothing"
        );
    }

    // A move sent twice (a page that reconnected) is played once.
    send(
        &mut white,
        json!({"v": 1, "t": "move", "uci": "e2e4", "ply": 0}),
    )
    .await;
    send(
        &mut white,
        json!({"v": 1, "t": "move", "uci": "e2e4", "ply": 0}),
    )
    .await;
    let after = next_state(&mut black).await;
    assert_eq!(
        (after["ply"].as_i64(), after["moves"].clone()),
        (Some(1), json!(["e4"]))
    );
    assert_eq!(stored_moves(&bot, game).await, ["e2e4"]);
    // The web move's board reached the game's channel, pinging bob.
    let posted = fake
        .wait_message_in(CHESS_CHANNEL, WAIT, |m| {
            m.content().contains("1. e4") && !m.attachments().is_empty()
        })
        .await;
    assert!(
        posted.content().contains(&BOB.mention()),
        "{}",
        posted.content()
    );

    // A move made in Discord reaches the open pages at once.
    let i = fake
        .send_slash(&BOB, CHESS_CHANNEL, "move", json!([opt_str("move", "e5")]))
        .await;
    fake.wait_callback(&i, WAIT).await;
    let state = loop {
        let s = next_state(&mut white).await;
        if s["ply"] == 2 {
            break s;
        }
    };
    assert_eq!(state["moves"], json!(["e4", "e5"]));
    // Named as the board's caption names it.
    assert_eq!(state["opening"], json!("C20 King's Pawn Game"));
    assert_eq!(state["last"], json!(["e7", "e5"]));
    assert!(state["clock"]["running"] == "white", "{}", state["clock"]);

    // Malformed frames close the socket with a reason; nothing stored.
    let frames = [
        ("x".repeat(5000), 1009, "4 KB"),
        ("{not json".to_owned(), 1007, "JSON"),
        (
            json!({"v": 1, "t": "move", "uci": "Nf3", "ply": 2}).to_string(),
            1008,
            "unknown",
        ),
        (
            json!({"v": 9, "t": "move", "uci": "g1f3", "ply": 2}).to_string(),
            1002,
            "version",
        ),
    ];
    for (text, code, reason) in frames {
        let mut socket = open_socket(&bot, game, Some(&alice), &origin)
            .await
            .expect("alice");
        next_state(&mut socket).await;
        send_raw(&mut socket, text.clone()).await;
        let closed = next(&mut socket).await.expect_err("closed");
        assert_eq!(
            closed.0,
            code,
            "{}: {}",
            &text[..text.len().min(40)],
            closed.1
        );
        assert!(closed.1.contains(reason), "{}", closed.1);
        assert_eq!(stored_moves(&bot, game).await, ["e2e4", "e7e5"]);
    }

    // A flood from one socket meets the per-user limits: slowed down,
    // and the refused ones change nothing.
    let mut slowed = false;
    for _ in 0..60 {
        send(
            &mut black,
            json!({"v": 1, "t": "move", "uci": "a7a6", "ply": 2}),
        )
        .await;
    }
    for _ in 0..60 {
        match next(&mut black).await {
            Ok(frame) if frame["t"] == "refused" => {
                if frame["text"].as_str().unwrap_or("").contains("Slow down") {
                    slowed = true;
                    break;
                }
            }
            Ok(_) => {}
            Err(e) => panic!("socket closed: {e:?}"),
        }
    }
    assert!(slowed, "the flood was slowed down");
    assert_eq!(stored_moves(&bot, game).await, ["e2e4", "e7e5"]);
    let _ = get_plain(&bot.url("/")).await;
    bot.stop().await;
}
