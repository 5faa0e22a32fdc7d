//! The web board in real browsers: headless Chromium over WebDriver
//! (Debian's `chromium` and `chromium-driver`, driven with `fantoccini`),
//! with real mouse input (chessground ignores synthetic events). alice and
//! bob play a game to checkmate with clicks and drags; bob's premove is
//! played the moment alice moves; a draw offer is declined; a spectator's
//! browser sees every move; a reload in the middle resumes; the fake
//! Discord gets each board in the game's channel; a Chinese browser gets
//! a Chinese page. Screenshots go to `target/web-screenshots/`.

use std::{os::unix::process::CommandExt, process::Stdio, time::Duration};

use fantoccini::{
    actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT},
    Client, ClientBuilder, Locator,
};
use serde_json::{json, Value};

use crate::optional;
use crate::support::fake_discord::{FakeDiscord, ALICE, BOB, CHESS_CHANNEL};
use crate::web_support::*;

/// Chromium and its WebDriver, as Debian packages them.
pub(crate) fn browsers_here() -> bool {
    let found = |path: &str| std::path::Path::new(path).exists();
    optional::require(
        "Chromium and chromium-driver",
        found("/usr/bin/chromium") && found("/usr/bin/chromedriver"),
        "the real-browser tests of the web board",
        "apt-get install chromium chromium-driver",
    )
}

/// A chromedriver process, ended when dropped with every browser it
/// started.
pub(crate) struct Driver {
    child: std::process::Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The driver leads a process group of its own, which the browsers
        // it starts join: killing the driver alone left each browser
        // running (a test that fails before `close` never quits it, and
        // Chromium's helper processes outlive a quit), a hundred of them
        // after a few runs of the suite.
        let group = -(self.child.id() as i32);
        // SAFETY: kill(2) with a negative pid signals that process group;
        // it touches no memory of ours.
        unsafe { libc::kill(group, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

pub(crate) async fn start_driver() -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = std::process::Command::new("/usr/bin/chromedriver")
        .process_group(0)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let deadline = tokio::time::Instant::now() + WAIT;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "chromedriver never listened"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

/// A headless browser whose preferred language is `lang`.
pub(crate) async fn browser(driver: &Driver, lang: &str) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,760",
                     format!("--lang={lang}")],
            "prefs": {"intl.accept_languages": lang},
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a browser session")
}

/// Waits until the page's body says it has shown the state at `ply`.
pub(crate) async fn wait_ply(client: &Client, ply: i64) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let shown = client
            .execute(
                "return [document.body.dataset.ply, document.body.dataset.connected];",
                vec![],
            )
            .await
            .expect("script");
        if shown[0] == json!(ply.to_string()) && shown[1] == json!("1") {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the page never showed ply {ply} (it shows {shown})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How many elements on the page match `css`.
pub(crate) async fn count_of(client: &Client, css: &str) -> u64 {
    let count = client
        .execute(
            "return document.querySelectorAll(arguments[0]).length;",
            vec![json!(css)],
        )
        .await
        .expect("script");
    count.as_u64().expect("a count")
}

/// The centre of `square` on the page, in viewport pixels.
pub(crate) async fn square_at(client: &Client, square: &str) -> (f64, f64) {
    let rect = client
        .execute(
            "const r = document.querySelector('cg-board').getBoundingClientRect(); \
             const black = document.querySelector('.cg-wrap').classList.contains('orientation-black'); \
             return [r.left, r.top, r.width, black];",
            vec![],
        )
        .await
        .expect("the board");
    let (left, top, width) = (
        rect[0].as_f64().expect("left"),
        rect[1].as_f64().expect("top"),
        rect[2].as_f64().expect("width"),
    );
    let black = rect[3] == Value::Bool(true);
    let b = square.as_bytes();
    let (file, rank) = (f64::from(b[0] - b'a'), f64::from(b[1] - b'1'));
    let (col, row) = if black {
        (7.0 - file, rank)
    } else {
        (file, 7.0 - rank)
    };
    let size = width / 8.0;
    (left + (col + 0.5) * size, top + (row + 0.5) * size)
}

pub(crate) async fn pointer(client: &Client, steps: Vec<PointerAction>) {
    let mut mouse = MouseActions::new("mouse".to_owned());
    for step in steps {
        mouse = mouse.then(step);
    }
    client.perform_actions(mouse).await.expect("mouse input");
}

/// Click the piece, then click its destination.
pub(crate) async fn click_move(client: &Client, from: &str, to: &str) {
    for square in [from, to] {
        click_at(client, square_at(client, square).await).await;
    }
}

/// A real mouse click at `(x, y)` in viewport pixels.
pub(crate) async fn click_at(client: &Client, (x, y): (f64, f64)) {
    pointer(
        client,
        vec![
            PointerAction::MoveTo {
                duration: None,
                x,
                y,
            },
            PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            },
            PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            },
        ],
    )
    .await;
}

/// Drag the piece to its destination.
async fn drag_move(client: &Client, from: &str, to: &str) {
    let (x0, y0) = square_at(client, from).await;
    let (x1, y1) = square_at(client, to).await;
    let step = Some(Duration::from_millis(150));
    pointer(
        client,
        vec![
            PointerAction::MoveTo {
                duration: None,
                x: x0,
                y: y0,
            },
            PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            },
            PointerAction::MoveTo {
                duration: step,
                x: (x0 + x1) / 2.0,
                y: (y0 + y1) / 2.0,
            },
            PointerAction::MoveTo {
                duration: step,
                x: x1,
                y: y1,
            },
            PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            },
        ],
    )
    .await;
}

async fn click_act(client: &Client, act: &str) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let css = format!("button[data-act=\"{act}\"]");
        if let Ok(button) = client.find(Locator::Css(&css)).await
            && button.click().await.is_ok()
        {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "no {act} button");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(crate) async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|_| panic!("no {css}"))
        .text()
        .await
        .expect("text")
}

pub(crate) async fn screenshot(client: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_to_checkmate() {
    if !browsers_here() {
        return;
    }
    let fake = FakeDiscord::start().await;
    let bot = WebBot::start(&fake, false).await;
    let board = start_game(&fake, &ALICE, &BOB, "5+3").await;
    let alice_link = player_link(&fake, &ALICE, &board).await;
    let bob_link = player_link(&fake, &BOB, &board).await;
    let game = alice_link
        .split("/play/")
        .nth(1)
        .and_then(|p| p.split('?').next())
        .expect("game")
        .to_owned();
    let driver = start_driver().await;
    let (alice, bob, watcher, chinese) = (
        browser(&driver, "en-US").await,
        browser(&driver, "en-US").await,
        browser(&driver, "en-US").await,
        browser(&driver, "zh-CN").await,
    );
    alice.goto(&alice_link).await.expect("alice's page");
    bob.goto(&bob_link).await.expect("bob's page");
    watcher
        .goto(&bot.url(&format!("/game/{game}")))
        .await
        .expect("the watcher's page");
    chinese
        .goto(&bot.url(&format!("/game/{game}")))
        .await
        .expect("the Chinese page");
    for client in [&alice, &bob, &watcher, &chinese] {
        wait_ply(client, 0).await;
    }
    // The token left the address bar.
    let at = alice.current_url().await.expect("url");
    assert!(
        at.path().ends_with(&format!("/game/{game}")) && at.query().is_none(),
        "{at}"
    );

    // bob premoves e7-e5 while alice thinks; alice plays f2-f3 by clicks;
    // the premove is played as soon as her move arrives.
    drag_move(&bob, "e7", "e5").await;
    screenshot(&bob, "premove-set").await;
    assert!(text_of(&bob, "#status").await.len() > 1);
    click_move(&alice, "f2", "f3").await;
    for client in [&alice, &bob, &watcher] {
        wait_ply(client, 2).await;
    }
    // alice offers a draw; bob declines it.
    click_act(&alice, "draw-offer").await;
    click_act(&bob, "draw-decline").await;
    // A reload in the middle resumes where the game stands.
    alice.refresh().await.expect("reload");
    wait_ply(&alice, 2).await;
    // Shown as it stands, not flown there from the initial position (the
    // board's first state used to animate every piece that had moved).
    let flying = count_of(&alice, "cg-board piece.anim").await;
    assert_eq!(flying, 0, "pieces animating on a fresh page");
    drag_move(&alice, "g2", "g4").await;
    wait_ply(&bob, 3).await;
    screenshot(&watcher, "in-progress").await;
    click_move(&bob, "d8", "h4").await;
    for client in [&alice, &bob, &watcher, &chinese] {
        wait_ply(client, 4).await;
    }
    let moves = text_of(&watcher, "#moves").await;
    for san in ["f3", "e5", "g4", "Qh4#"] {
        assert!(moves.contains(san), "the watcher saw {san}: {moves}");
    }
    let status = text_of(&alice, "#status").await;
    assert!(
        status.contains("Black wins") || status.contains("checkmate"),
        "{status}"
    );
    // The side panel names the opening, as the board's caption does.
    assert!(
        status.contains("A00 Barnes Opening: Fool's Mate"),
        "{status}"
    );
    // The mated king is marked, as on the board's image.
    let marked = count_of(&alice, "cg-board square.check").await;
    assert_eq!(marked, 1, "the mated king's square");
    screenshot(&alice, "game-over").await;
    // The Chinese page speaks Chinese.
    let lang = chinese
        .execute("return document.documentElement.lang;", vec![])
        .await
        .expect("lang");
    assert_eq!(lang, json!("zh-CN"));
    let zh_status = text_of(&chinese, "#status").await;
    assert!(
        zh_status.contains("将杀") || zh_status.contains("胜"),
        "{zh_status}"
    );
    screenshot(&chinese, "chinese").await;

    // Each move reached Discord: a board in the game's channel.
    let boards = fake
        .messages_in(CHESS_CHANNEL)
        .into_iter()
        .filter(|m| !m.attachments().is_empty())
        .count();
    assert!(boards >= 5, "the first board and one per move: {boards}");
    // The draw offer and its answer were said there too.
    let said: Vec<String> = fake
        .messages_in(CHESS_CHANNEL)
        .iter()
        .map(|m| m.content().to_owned())
        .collect();
    assert!(said.iter().any(|t| t.contains("draw")), "{said:?}");
    for client in [alice, bob, watcher, chinese] {
        let _ = client.close().await;
    }
    drop(driver);
    bot.stop().await;
}
