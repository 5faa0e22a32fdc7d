//! The board as a Discord Activity: the page Discord opens in its iframe
//! (`GET /activity`), and its sign-in (`POST /activity/token`). The page
//! asks Discord's Embedded App SDK to authorize the bot (scope `identify`)
//! and sends the code here; this exchanges it at Discord's OAuth2 token
//! endpoint with the application's client secret, asks Discord who the
//! token belongs to, and answers with the access token (for the SDK's
//! `authenticate`) and the address of the board of the channel's game,
//! whose session travels in the address itself: inside Discord's iframe
//! cookies may be refused. From there it is the browser board and its
//! WebSocket protocol, unchanged.

use std::sync::Arc;

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use serde::Deserialize;
use serde_json::json;

use super::{pages, Web};
use crate::{
    config::Secret,
    service::links::{Purpose, SESSION_VALID_MS},
    t,
};

/// The application's OAuth2 credentials, from the Developer Portal.
#[derive(Clone, Debug)]
pub struct ActivityAuth {
    /// The application's id (its OAuth2 client id).
    pub client_id: String,
    /// Never logged ([`Secret`] prints as `***`).
    pub client_secret: Secret,
    /// Discord's API (`https://discord.com/api/v10`; the tests' fake
    /// Discord in tests).
    pub api_base: String,
}

/// The Discord API base for `proxy` (the tests' fake Discord), else
/// Discord's own.
pub fn api_base(proxy: Option<&str>) -> String {
    format!(
        "{}/api/v10",
        proxy.unwrap_or("https://discord.com").trim_end_matches('/')
    )
}

/// `GET /activity`: the page Discord loads; 404 when the bot has no
/// Activity configured.
pub(super) async fn page(State(web): State<Web>, headers: HeaderMap) -> Response {
    let lang = pages::request_lang(&web, &headers, None).await;
    let Some(auth) = web.activity.as_deref() else {
        return pages::not_found_in(lang);
    };
    let html = format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<title>{title}</title><link rel=\"stylesheet\" href=\"/assets/board.css\">\
<script type=\"module\" src=\"/assets/activity.js\"></script></head>\
<body data-client-id=\"{client}\"><main class=\"message\"><h1>{title}</h1>\
<p id=\"activity-status\" role=\"status\">{connecting}</p></main>\
<script type=\"application/json\" id=\"activity-words\">{words}</script></body></html>",
        code = lang.code(),
        title = pages::escape(&t!(lang, "web-activity-title")),
        client = pages::escape(&auth.client_id),
        connecting = pages::escape(&t!(lang, "web-activity-signing-in")),
        words = pages::script_json(&json!({
            "failed": t!(lang, "web-activity-failed"),
            "no-game": t!(lang, "web-activity-no-game"),
        })),
    );
    pages::page(StatusCode::OK, html)
}

#[derive(Deserialize)]
pub(super) struct TokenRequest {
    code: String,
    channel_id: Option<String>,
}

/// `POST /activity/token`: `{code, channel_id}` → `{access_token, board}`,
/// or `{error}` with 400 (no game here), 401 (Discord refused the code)
/// or 502 (Discord could not be asked).
pub(super) async fn token(
    State(web): State<Web>,
    headers: HeaderMap,
    Json(request): Json<TokenRequest>,
) -> Response {
    let lang = pages::request_lang(&web, &headers, None).await;
    let Some(auth) = web.activity.clone() else {
        return pages::not_found_in(lang);
    };
    let fail =
        |status: StatusCode, text: String| (status, Json(json!({ "error": text }))).into_response();
    if request.code.is_empty() || request.code.len() > 512 {
        return fail(StatusCode::BAD_REQUEST, t!(lang, "web-activity-failed"));
    }
    let user = match sign_in(&auth, &request.code).await {
        Ok(user) => user,
        Err(SignIn::Refused) => {
            return fail(StatusCode::UNAUTHORIZED, t!(lang, "web-activity-failed"))
        }
        Err(SignIn::Unreachable(why)) => {
            tracing::warn!(error = %why, "the Activity's sign-in could not reach Discord");
            return fail(StatusCode::BAD_GATEWAY, t!(lang, "web-activity-failed"));
        }
    };
    let channel = request.channel_id.unwrap_or_default();
    let game = match web.service.game_in_channel(&channel).await {
        Ok(Some(game)) => game,
        _ => return fail(StatusCode::BAD_REQUEST, t!(lang, "web-activity-no-game")),
    };
    let session = web.links.sign(
        Purpose::Session,
        0,
        &user.id,
        web.service.now_ms() + SESSION_VALID_MS,
    );
    Json(json!({
        "access_token": user.access_token,
        "board": format!("/game/{game}?s={session}"),
    }))
    .into_response()
}

/// Who signed in, by Discord's word.
struct SignedIn {
    id: String,
    access_token: String,
}

enum SignIn {
    /// Discord refused the code (expired, used, forged).
    Refused,
    /// Discord did not answer as it should.
    Unreachable(String),
}

/// The code for a token (`POST /oauth2/token`), then the token's user
/// (`GET /users/@me`).
async fn sign_in(auth: &Arc<ActivityAuth>, code: &str) -> Result<SignedIn, SignIn> {
    let client = reqwest::Client::new();
    let answer = client
        .post(format!("{}/oauth2/token", auth.api_base))
        .form(&[
            ("client_id", auth.client_id.as_str()),
            ("client_secret", auth.client_secret.expose()),
            ("grant_type", "authorization_code"),
            ("code", code),
        ])
        .send()
        .await
        .map_err(|e| SignIn::Unreachable(e.to_string()))?;
    if answer.status().is_client_error() {
        return Err(SignIn::Refused);
    }
    if !answer.status().is_success() {
        return Err(SignIn::Unreachable(format!(
            "token endpoint answered {}",
            answer.status()
        )));
    }
    let token = json_of(answer).await?;
    let access_token = token["access_token"]
        .as_str()
        .ok_or_else(|| SignIn::Unreachable("no access_token in the answer".to_owned()))?
        .to_owned();
    let me = client
        .get(format!("{}/users/@me", auth.api_base))
        .bearer_auth(&access_token)
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| SignIn::Unreachable(e.to_string()))?;
    let me = json_of(me).await?;
    let id = me["id"]
        .as_str()
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| SignIn::Unreachable("no user id from /users/@me".to_owned()))?
        .to_owned();
    Ok(SignedIn { id, access_token })
}

async fn json_of(answer: reqwest::Response) -> Result<serde_json::Value, SignIn> {
    let bytes = answer
        .bytes()
        .await
        .map_err(|e| SignIn::Unreachable(e.to_string()))?;
    serde_json::from_slice(&bytes).map_err(|e| SignIn::Unreachable(e.to_string()))
}
