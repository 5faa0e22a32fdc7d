//! Variants on the web board, in a real browser: a Crazyhouse game whose
//! white player drops pieces from the pocket beside her name (a click on
//! the pocket then on a square, and a drag onto the board) and sees both
//! pockets count captures; Three-check's counters; King of the Hill's hill.
//! Black's moves come over his own socket. Screenshots go to
//! `target/web-screenshots/variant-*.png`.

use fantoccini::{
    actions::{PointerAction, MOUSE_BUTTON_LEFT},
    Client,
};
use serde_json::{json, Value};

use crate::browser::{
    browser, browsers_here, click_at, click_move, pointer, screenshot, square_at, start_driver,
    text_of, wait_ply,
};
use crate::support::fake_discord::{FakeDiscord, ALICE, BOB};
use crate::web_support::*;

/// A variant game's bot, alice's page (White) and bob's socket (Black).
struct Table {
    bot: WebBot,
    alice: Client,
    bob: Socket,
    _driver: crate::browser::Driver,
    _fake: FakeDiscord,
}

async fn table(variant: &str) -> Table {
    let fake = FakeDiscord::start().await;
    let bot = WebBot::start(&fake, false).await;
    // `/challenge variant:` is a choice: Discord sends its index.
    let choice = chessbot::chess::Variant::ALL
        .iter()
        .position(|v| v.key() == variant)
        .expect("a variant");
    let option = json!({"name": "variant", "type": 4, "value": choice});
    let board = start_game_with(&fake, &ALICE, &BOB, "5+3", &[option]).await;
    let alice_link = player_link(&fake, &ALICE, &board).await;
    let bob_link = player_link(&fake, &BOB, &board).await;
    let game: i64 = alice_link
        .split("/play/")
        .nth(1)
        .and_then(|p| p.split('?').next())
        .and_then(|g| g.parse().ok())
        .expect("a game id");
    let bob_cookie = session_cookie(&bob_link).await;
    let mut bob = open_socket(&bot, game, Some(&bob_cookie), &bot.url(""))
        .await
        .expect("bob's socket");
    next_state(&mut bob).await;
    let driver = start_driver().await;
    let alice = browser(&driver, "en-US").await;
    alice.goto(&alice_link).await.expect("alice's page");
    wait_ply(&alice, 0).await;
    Table {
        bot,
        alice,
        bob,
        _driver: driver,
        _fake: fake,
    }
}

impl Table {
    /// bob plays `uci` on the position at `ply`; both sides see ply + 1.
    async fn bob_plays(&mut self, uci: &str, ply: i64) {
        send(
            &mut self.bob,
            json!({"v": 1, "t": "move", "uci": uci, "ply": ply}),
        )
        .await;
        loop {
            let state = next_state(&mut self.bob).await;
            if state["ply"] == json!(ply + 1) {
                break;
            }
        }
        wait_ply(&self.alice, ply + 1).await;
    }

    /// alice's move arrived: bob's socket and her page show ply `ply`.
    async fn alice_played(&mut self, ply: i64) -> Value {
        wait_ply(&self.alice, ply).await;
        loop {
            let state = next_state(&mut self.bob).await;
            if state["ply"] == json!(ply) {
                return state;
            }
        }
    }
}

/// The centre of alice's pocket button for `role` (her own strip, bottom).
async fn pocket_at(client: &Client, role: &str) -> (f64, f64) {
    let at = client
        .execute(
            "const b = document.querySelector(`#player-bottom .pocket-piece[data-role=\"${arguments[0]}\"]`); \
             if (!b) return null; const r = b.getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![json!(role)],
        )
        .await
        .expect("script");
    let at = at
        .as_array()
        .unwrap_or_else(|| panic!("no {role} in alice's pocket"));
    (at[0].as_f64().expect("x"), at[1].as_f64().expect("y"))
}

/// Each pocket's counts as the page shows them: `[(strip, role, count)]`.
async fn pockets_shown(client: &Client) -> Value {
    client
        .execute(
            "return [...document.querySelectorAll('.pocket-piece')].map(b => \
             [b.closest('.player').dataset.color, b.dataset.role, Number(b.dataset.count)]) \
             .filter(p => p[2] > 0);",
            vec![],
        )
        .await
        .expect("script")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crazyhouse_pieces_drop_from_the_pocket() {
    if !browsers_here() {
        return;
    }
    let mut t = table("crazyhouse").await;
    assert_eq!(
        t.alice
            .execute("return document.body.dataset.variant;", vec![])
            .await
            .expect("script"),
        json!("crazyhouse")
    );
    // 1. e4 d5 2. exd5: alice holds the pawn she took.
    click_move(&t.alice, "e2", "e4").await;
    t.alice_played(1).await;
    t.bob_plays("d7d5", 1).await;
    click_move(&t.alice, "e4", "d5").await;
    t.alice_played(3).await;
    assert_eq!(pockets_shown(&t.alice).await, json!([["white", "pawn", 1]]));
    t.bob_plays("g8f6", 3).await;

    // 3. P@e6: a click on the pocket's pawn, then one on e6.
    click_at(&t.alice, pocket_at(&t.alice, "pawn").await).await;
    screenshot(&t.alice, "variant-crazyhouse-pawn-chosen").await;
    click_at(&t.alice, square_at(&t.alice, "e6").await).await;
    let state = t.alice_played(5).await;
    assert!(
        state["moves"]
            .as_array()
            .expect("moves")
            .contains(&json!("@e6")),
        "{}",
        state["moves"]
    );
    assert_eq!(pockets_shown(&t.alice).await, json!([]));
    // 3... fxe6 4. dxe6 Nc6: a pawn each.
    t.bob_plays("f7e6", 5).await;
    click_move(&t.alice, "d5", "e6").await;
    t.alice_played(7).await;
    t.bob_plays("b8c6", 7).await;
    assert_eq!(
        pockets_shown(&t.alice).await,
        json!([["black", "pawn", 1], ["white", "pawn", 1]])
    );

    // 5. P@d7+: the pawn dragged from the pocket onto d7.
    let from = pocket_at(&t.alice, "pawn").await;
    let to = square_at(&t.alice, "d7").await;
    let step = Some(std::time::Duration::from_millis(150));
    pointer(
        &t.alice,
        vec![
            PointerAction::MoveTo {
                duration: None,
                x: from.0,
                y: from.1,
            },
            PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            },
            PointerAction::MoveTo {
                duration: step,
                x: (from.0 + to.0) / 2.0,
                y: (from.1 + to.1) / 2.0,
            },
            PointerAction::MoveTo {
                duration: step,
                x: to.0,
                y: to.1,
            },
            PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            },
        ],
    )
    .await;
    let state = t.alice_played(9).await;
    assert_eq!(state["moves"][8], json!("@d7+"), "{}", state["moves"]);
    assert!(state["check"] == json!(true));
    // 5... Bxd7: Black now holds two pawns, shown as a count of 2.
    t.bob_plays("c8d7", 9).await;
    assert_eq!(pockets_shown(&t.alice).await, json!([["black", "pawn", 2]]));
    let badge = text_of(
        &t.alice,
        "#player-top .pocket-piece[data-role=\"pawn\"] .count",
    )
    .await;
    assert_eq!(badge, "2");
    // Her own pocket is empty now: nothing of hers to pick up.
    let usable = t
        .alice
        .execute(
            "return document.querySelectorAll('#player-bottom .pocket-piece:not(:disabled)').length;",
            vec![],
        )
        .await
        .expect("script");
    assert_eq!(usable, json!(0));
    screenshot(&t.alice, "variant-crazyhouse").await;
    t.bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_check_counts_checks_and_the_hill_is_marked() {
    if !browsers_here() {
        return;
    }
    let mut t = table("threecheck").await;
    // 1. e4 f6 2. Qh5+: White has given one check.
    click_move(&t.alice, "e2", "e4").await;
    t.alice_played(1).await;
    t.bob_plays("f7f6", 1).await;
    click_move(&t.alice, "d1", "h5").await;
    t.alice_played(3).await;
    let counters = t
        .alice
        .execute(
            "return [...document.querySelectorAll('.player')].map(p => \
             [p.dataset.color, p.querySelector('.checks') && p.querySelector('.checks').textContent]);",
            vec![],
        )
        .await
        .expect("script");
    assert_eq!(counters, json!([["black", "·"], ["white", "+"]]));
    let status = text_of(&t.alice, "#status").await;
    assert!(status.contains("Three-check"), "{status}");
    screenshot(&t.alice, "variant-threecheck").await;
    t.bot.stop().await;

    let t = table("kingofthehill").await;
    let hill = t
        .alice
        .execute(
            "const b = getComputedStyle(document.querySelector('cg-board'), '::before'); \
             return [b.content, b.left, b.width];",
            vec![],
        )
        .await
        .expect("script");
    let board_width = t
        .alice
        .execute(
            "return document.querySelector('cg-board').getBoundingClientRect().width;",
            vec![],
        )
        .await
        .expect("script")
        .as_f64()
        .expect("width");
    assert_eq!(hill[0], json!("\"\""), "the hill is drawn: {hill}");
    let px = |v: &Value| {
        v.as_str()
            .and_then(|s| s.trim_end_matches("px").parse::<f64>().ok())
            .expect("px")
    };
    // d4-e5: a quarter of the board, starting three eighths in.
    assert!((px(&hill[1]) - board_width * 0.375).abs() < 2.0, "{hill}");
    assert!((px(&hill[2]) - board_width * 0.25).abs() < 2.0, "{hill}");
    screenshot(&t.alice, "variant-kingofthehill").await;
    t.bot.stop().await;
}
