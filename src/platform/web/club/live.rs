//! `GET /club/{slug}/events`: a stream of server-sent events that says
//! "this club changed" (a game moved or ended, a round was paired), for
//! the tournament and ladder pages to read themselves again. Notices are
//! gathered for a moment so a burst of moves is one reload, not many.

use std::{convert::Infallible, time::Duration};

use axum::{
    extract::{Path, State},
    http::HeaderMap,
    response::{
        sse::{Event, KeepAlive, Sse},
        IntoResponse, Response,
    },
};
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use super::{super::Web, PageQuery, Visit};

/// How long notices are gathered before one event goes out.
const GATHER: Duration = Duration::from_millis(500);

pub(super) async fn events(
    State(web): State<Web>,
    Path(slug): Path<String>,
    headers: HeaderMap,
) -> Response {
    let visit = match Visit::open(&web, &slug, &PageQuery::default(), &headers).await {
        Ok(v) => v,
        Err(page) => return page,
    };
    let server = visit.club.server().to_owned();
    let changes = web.service.club_changes();
    let stream = futures_util::stream::unfold(changes, move |mut changes| {
        let server = server.clone();
        async move {
            // Wait for a notice about this server (or any server).
            loop {
                match changes.recv().await {
                    Ok(Some(changed)) if changed != server => continue,
                    Ok(_) | Err(RecvError::Lagged(_)) => break,
                    Err(RecvError::Closed) => return None,
                }
            }
            // Gather the burst: whatever came meanwhile is in this event;
            // anything after it makes the next one.
            tokio::time::sleep(GATHER).await;
            while let Ok(_) | Err(TryRecvError::Lagged(_)) = changes.try_recv() {}
            let event: Result<Event, Infallible> = Ok(Event::default().event("change").data("1"));
            Some((event, changes))
        }
    });
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    super::super::pages::secure_headers(response.headers_mut());
    response
}
