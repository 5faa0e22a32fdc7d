//! The board as a Discord Activity (issue 26), against the fake Discord:
//! `/activity` and a live board's "Open in Discord" button answer with
//! LAUNCH_ACTIVITY (callback type 12); the page's sign-in exchanges an
//! OAuth2 code at the fake's token endpoint with the client secret and
//! learns the user from `/users/@me`; a used, forged or missing code, or a
//! channel without a game, gets a clear refusal and no session; then in a
//! real browser, under the Embedded App SDK's own `DiscordSDKMock`, alice
//! opens the Activity and plays a move that reaches the channel.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use crate::browser::{browser, browsers_here, screenshot, start_driver};
use crate::support::fake_discord::{FakeDiscord, ALICE, BOB, CHESS_CHANNEL, GENERAL_CHANNEL};
use crate::web_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_activity_launches_signs_in_and_plays() {
    let fake = FakeDiscord::start().await;
    let bot = WebBot::start_with(&fake, false, true).await;
    let board = start_game(&fake, &ALICE, &BOB, "5+3").await;

    // Launching: the button under the board and the command.
    let open =
        button(&board.json["components"], "Open in Discord").expect("an Open in Discord button");
    let i = fake
        .click_button(&ALICE, CHESS_CHANNEL, &board, &open)
        .await;
    assert_eq!(
        fake.wait_callback(&i, WAIT).await.kind,
        12,
        "LAUNCH_ACTIVITY"
    );
    let i = fake
        .send_slash(&BOB, CHESS_CHANNEL, "activity", json!([]))
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 12);

    // Sign-in: a code for alice becomes her session on the channel's game.
    let token_url = bot.url("/activity/token");
    let code = fake.oauth_code(&ALICE);
    let signed = post_json(
        &token_url,
        &json!({"code": code, "channel_id": CHESS_CHANNEL.to_string()}),
    )
    .await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    let answer: serde_json::Value = serde_json::from_str(&signed.body).unwrap();
    let access = answer["access_token"]
        .as_str()
        .expect("the token for the SDK's authenticate");
    assert!(access.starts_with("token-"), "{access}");
    let board_path = answer["board"]
        .as_str()
        .expect("the board's address")
        .to_owned();
    assert!(
        board_path.starts_with("/game/") && board_path.contains("?s="),
        "{board_path}"
    );
    let page = get(&bot.url(&board_path), &[]).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("data-role=\"player\""),
        "alice plays, no cookie needed"
    );
    assert!(
        page.body.contains("/ws?s="),
        "the socket carries the session too"
    );

    // Refusals: the same code again, a made-up code, no game in the channel.
    for (code, channel, status) in [
        (code.as_str(), CHESS_CHANNEL, 401),
        ("made-up", CHESS_CHANNEL, 401),
        ("", CHESS_CHANNEL, 400),
    ] {
        let refused = post_json(
            &token_url,
            &json!({"code": code, "channel_id": channel.to_string()}),
        )
        .await;
        assert_eq!(refused.status, status, "{code:?}: {}", refused.body);
        assert!(
            !refused.body.contains("board"),
            "no session: {}",
            refused.body
        );
        assert!(
            refused.body.contains("Discord did not sign you in"),
            "{}",
            refused.body
        );
    }
    let elsewhere = post_json(
        &token_url,
        &json!({"code": fake.oauth_code(&ALICE), "channel_id": GENERAL_CHANNEL.to_string()}),
    )
    .await;
    assert_eq!(elsewhere.status, 400);
    assert!(
        elsewhere.body.contains("no game in this channel"),
        "{}",
        elsewhere.body
    );

    // The page in a real browser under the SDK's mock: alice signs in and
    // plays 1. e4; the move reaches the channel.
    if browsers_here() {
        let driver = start_driver().await;
        let client = browser(&driver, "en").await;
        let code = fake.oauth_code(&ALICE);
        let url = bot.url(&format!(
            "/activity?channel_id={CHESS_CHANNEL}&guild_id=1&mock_code={code}"
        ));
        client.goto(&url).await.expect("the Activity page");
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let shown = client
                .execute(
                    "return [location.pathname, document.body.dataset.role, document.body.dataset.connected, document.body.dataset.failed];",
                    vec![],
                )
                .await
                .expect("script");
            if shown[1] == json!("player") && shown[2] == json!("1") {
                break;
            }
            assert!(shown[3].is_null(), "the sign-in failed: {shown}");
            assert!(
                tokio::time::Instant::now() < deadline,
                "never signed in: {shown}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        crate::browser::click_move(&client, "e2", "e4").await;
        let moved = fake
            .wait_message_in(CHESS_CHANNEL, WAIT, |m| m.content().contains("e4"))
            .await;
        assert!(moved.content().contains("e4"), "{}", moved.content());
        assert!(client.find(Locator::Css("cg-board")).await.is_ok());
        screenshot(&client, "activity-mock").await;
        client.close().await.expect("close");
    }
    fake.assert_no_unknown_routes();
    bot.stop().await;
}
