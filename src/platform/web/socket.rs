//! One WebSocket per open board page. On connect the page gets the game's
//! state; after every change to the game (from this page, another page,
//! Discord, the scheduler, another process) it gets the state again. A
//! player's move or button goes through [`Service::handle`] as the player,
//! in the game's channel; a refusal comes back to this page only, a public
//! answer is posted in the game's channel as a Discord move's would be.
//!
//! The upgrade is refused for a foreign `Origin`; a frame over 4 KB, one
//! that is not JSON or not a known request closes the socket with a reason.

use axum::{
    extract::{
        ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade},
        Path, Query, State,
    },
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use tokio::sync::broadcast::error::RecvError;

use super::{
    pages,
    protocol::{self, Malformed, Request},
    Web,
};
use crate::{
    i18n::Lang,
    service::{Actor, Command, Notice},
};

/// `GET /game/{game}/ws`.
pub(super) async fn upgrade(
    State(web): State<Web>,
    Path(game): Path<String>,
    Query(session): Query<super::session::SessionQuery>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !same_origin(&web, &headers) {
        return (StatusCode::FORBIDDEN, "foreign origin").into_response();
    }
    let (view, user, lang) = match pages::viewer_of(&web, &game, &headers, &session).await {
        Ok(found) => found,
        Err(page) => return page,
    };
    let game = view.game_id;
    ws.max_message_size(64 * 1024)
        .max_frame_size(64 * 1024)
        .on_upgrade(move |socket| serve(web, socket, game, user, lang))
}

/// Whether the upgrade comes from a page of this board: its `Origin` is
/// the public address's origin or the address the request was sent to.
fn same_origin(web: &Web, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        // Browsers always send one on a WebSocket upgrade; other clients
        // (the benchmark, tools) are not a cross-site page.
        return true;
    };
    let public = web.links.public_url();
    let public_origin = public
        .split_once("://")
        .map(|(scheme, rest)| format!("{scheme}://{}", rest.split('/').next().unwrap_or_default()));
    if public_origin.as_deref() == Some(origin) {
        return true;
    }
    // Inside Discord the page is served through Discord's proxy, at the
    // application's own origin.
    if let Some(activity) = &web.activity
        && origin == format!("https://{}.discordsays.com", activity.client_id)
    {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    host.is_some_and(|host| {
        origin == format!("http://{host}") || origin == format!("https://{host}")
    })
}

async fn serve(web: Web, mut socket: WebSocket, game: i64, user: Option<String>, lang: Lang) {
    let mut changes = web.service.watch(game);
    let mut last_sent = None;
    // Who this page's player acts as, read at their first action.
    let mut actor = None;
    if send_state(
        &web,
        &mut socket,
        game,
        user.as_deref(),
        lang,
        &mut last_sent,
    )
    .await
    .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            frame = socket.recv() => {
                let text = match frame {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        close(&mut socket, Malformed::NotJson).await;
                        break;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                let request = match protocol::parse(&text) {
                    Ok(request) => request,
                    Err(malformed) => {
                        close(&mut socket, malformed).await;
                        break;
                    }
                };
                let answer = act(&web, game, user.as_deref(), &mut actor, lang, request).await;
                let (kind, text) = answer;
                if socket.send(Message::Text(protocol::text(kind, &text))).await.is_err() {
                    break;
                }
            }
            change = changes.recv() => {
                match change {
                    // Lagged: several changes at once; the state is read anew all the same.
                    Ok(()) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                }
                if send_state(&web, &mut socket, game, user.as_deref(), lang, &mut last_sent).await.is_err() {
                    break;
                }
            }
        }
    }
}

/// Sends the game's state if it differs from the last one sent.
async fn send_state(
    web: &Web,
    socket: &mut WebSocket,
    game: i64,
    user: Option<&str>,
    lang: Lang,
    last_sent: &mut Option<String>,
) -> Result<(), ()> {
    let view = match web.service.live_view(game, user, lang).await {
        Ok(Some(view)) => view,
        Ok(None) => return Err(()),
        Err(e) => {
            tracing::warn!(game_id = game, error = %e, "live board state not read");
            return Ok(());
        }
    };
    let frame = protocol::state(&view);
    if last_sent.as_deref() == Some(frame.as_str()) {
        return Ok(());
    }
    socket
        .send(Message::Text(frame.clone()))
        .await
        .map_err(|_| ())?;
    *last_sent = Some(frame);
    Ok(())
}

async fn close(socket: &mut WebSocket, why: Malformed) {
    let (code, reason) = why.close();
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// Runs a page's request as its player: a refusal is for this page alone
/// (`refused`); a public answer is posted in the game's channel and shown
/// to this page (`said`).
async fn act(
    web: &Web,
    game: i64,
    user: Option<&str>,
    known: &mut Option<Actor>,
    lang: Lang,
    request: Request,
) -> (&'static str, String) {
    let Some(user) = user else {
        return ("refused", crate::t!(lang, "web-spectator-cannot-act"));
    };
    if known.is_none() {
        *known = match web.service.board_actor(game, user).await {
            Ok(Some(actor)) => Some(actor),
            Ok(None) => return ("refused", crate::t!(lang, "web-spectator-cannot-act")),
            Err(e) => {
                tracing::warn!(game_id = game, error = %e, "live board actor not read");
                return ("refused", crate::t!(lang, "error-apology"));
            }
        };
    }
    let Some(actor) = known.clone() else {
        return ("refused", crate::t!(lang, "error-apology"));
    };
    let command = match request {
        Request::Move { uci, ply } => Command::BoardMove {
            game,
            ply,
            text: uci,
        },
        Request::Act { action, ply } => Command::BoardAction { game, ply, action },
    };
    let channel = actor.channel.clone();
    let reply = web.service.handle(&actor, command).await;
    if reply.ephemeral {
        return ("refused", reply.text);
    }
    let said = reply.text.clone();
    // Discord (or the console) shows it in the game's channel, as if the
    // player had made the move there.
    web.service.post_notice(Notice {
        channel: Some(channel),
        dm_user: None,
        reply,
    });
    ("said", said)
}
