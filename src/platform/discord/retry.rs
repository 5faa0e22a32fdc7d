//! Discord's own failures. During its incidents Discord answers some
//! requests with a 5xx or not at all; the bot tries again as discord.js
//! does by default (`@discordjs/rest`: 3 retries of a 5xx or a request that
//! timed out), here with a short doubling pause between tries so that a
//! retried interaction callback still lands within Discord's 3 seconds.
//!
//! A retried request may have been carried out the first time (the answer,
//! not the request, was lost). For an interaction callback Discord then
//! answers 40060 "already acknowledged": the callback did land, so that
//! answer counts as success ([`callback`]). Other retried requests may
//! repeat what they did, as with discord.js.
//!
//! serenity's HTTP client waits for an answer for ever, so each try is
//! bounded here ([`TRY_TIMEOUT`], discord.js's 15 s).

use std::{future::Future, time::Duration};

use poise::serenity_prelude as serenity;
use serenity::HttpError;

use super::errors::describe;

/// Tries after the first (discord.js: `retries: 3`).
pub const RETRIES: u32 = 3;
/// The pause before the first retry; it doubles after each.
const FIRST_PAUSE: Duration = Duration::from_millis(100);
/// How long one try may wait for Discord's answer (discord.js: 15 s).
pub const TRY_TIMEOUT: Duration = Duration::from_secs(15);

/// Discord's "Interaction has already been acknowledged".
const ALREADY_ACKNOWLEDGED: isize = 40060;

/// Whether Discord itself failed (a 5xx) or the request never got an
/// answer (timed out, connection lost): worth another try. Refusals (4xx)
/// are not: the same request would be refused again.
pub fn is_transient(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => r.status_code.is_server_error(),
        serenity::Error::Http(HttpError::Request(e)) => {
            e.is_timeout() || e.is_connect() || e.is_request()
        }
        _ => false,
    }
}

/// Whether Discord answered "already acknowledged".
fn is_already_acknowledged(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) if r.error.code == ALREADY_ACKNOWLEDGED
    )
}

/// Runs `request` (`what` names it in the logs) until it succeeds, fails
/// for good, or has been retried [`RETRIES`] times; `request` is given the
/// number of the try (0 first). A try that gets no answer within
/// [`TRY_TIMEOUT`] is abandoned and fails as [`is_timed_out`].
pub async fn retried<T, F, Fut>(what: &str, request: F) -> serenity::Result<T>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let pace = Pace {
        first_pause: FIRST_PAUSE,
        try_timeout: TRY_TIMEOUT,
    };
    tries(what, pace, is_transient, timed_out, describe, request).await
}

/// How [`tries`] spaces and bounds its tries.
#[derive(Clone, Copy)]
struct Pace {
    /// Before the first retry; doubles after each.
    first_pause: Duration,
    /// How long one try may wait for an answer.
    try_timeout: Duration,
}

/// The loop of [`retried`], over any error (so that it can be tested
/// without Discord's error types, which only serenity can build).
async fn tries<T, E, F, Fut>(
    what: &str,
    pace: Pace,
    transient: impl Fn(&E) -> bool,
    timed_out: impl Fn() -> E,
    describe: impl Fn(&E) -> String,
    mut request: F,
) -> Result<T, E>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut pause = pace.first_pause;
    let mut attempt = 0;
    loop {
        let error = match tokio::time::timeout(pace.try_timeout, request(attempt)).await {
            Ok(Ok(done)) => return Ok(done),
            Ok(Err(e)) if transient(&e) => e,
            Ok(Err(e)) => return Err(e),
            Err(_) => timed_out(),
        };
        if attempt == RETRIES {
            return Err(error);
        }
        attempt += 1;
        tracing::warn!(what, attempt, error = %describe(&error), "Discord failed; trying again");
        tokio::time::sleep(pause).await;
        pause *= 2;
    }
}

/// An interaction callback, retried: a retry answered 40060 finds the
/// first try's callback taken, which is what was wanted.
pub async fn callback<F, Fut>(request: F) -> serenity::Result<()>
where
    F: Fn() -> Fut,
    Fut: Future<Output = serenity::Result<()>>,
{
    retried("interaction callback", |attempt| {
        let sent = request();
        async move {
            match sent.await {
                Err(e) if attempt > 0 && is_already_acknowledged(&e) => {
                    tracing::info!("a retried callback had been taken the first time");
                    Ok(())
                }
                other => other,
            }
        }
    })
    .await
}

/// Posts `message` in `channel`, retried.
pub async fn send_message(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    message: serenity::CreateMessage,
) -> serenity::Result<serenity::Message> {
    retried("channel message", |_| {
        channel.send_message(http, message.clone())
    })
    .await
}

/// Opens a thread in `parent`, retried.
pub async fn create_thread(
    http: &serenity::Http,
    parent: serenity::ChannelId,
    thread: serenity::CreateThread<'_>,
) -> serenity::Result<serenity::GuildChannel> {
    retried("thread", |_| parent.create_thread(http, thread.clone())).await
}

/// The error of a request that never got an answer.
fn timed_out() -> serenity::Error {
    serenity::Error::Other("Discord did not answer in time")
}

/// Whether the request failed because Discord did not answer in time.
pub fn is_timed_out(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Other(m) if *m == "Discord did not answer in time")
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    /// A toy error: "5xx" is transient, "timeout" is the timed-out one.
    async fn run<T>(
        request: impl FnMut(u32) -> std::pin::Pin<Box<dyn Future<Output = Result<T, String>>>>,
    ) -> Result<T, String> {
        // Short pauses and tries: the loop's logic, not its timing.
        let pace = Pace {
            first_pause: Duration::from_millis(1),
            try_timeout: Duration::from_millis(50),
        };
        tries(
            "test",
            pace,
            |e: &String| e.starts_with('5') || e == "timeout",
            || "timeout".to_owned(),
            String::clone,
            request,
        )
        .await
    }

    #[tokio::test]
    async fn server_errors_are_retried_three_times_then_given_up() {
        let tries = AtomicU32::new(0);
        let result: Result<(), String> = run(|_| {
            tries.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Err("502".to_owned()) })
        })
        .await;
        assert_eq!(result, Err("502".to_owned()));
        assert_eq!(tries.load(Ordering::SeqCst), 1 + RETRIES);
    }

    #[tokio::test]
    async fn refusals_are_not_retried_and_a_later_success_is_success() {
        let tries = AtomicU32::new(0);
        let result: Result<(), String> = run(|_| {
            tries.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Err("403".to_owned()) })
        })
        .await;
        assert_eq!(result, Err("403".to_owned()));
        assert_eq!(tries.load(Ordering::SeqCst), 1);

        let result = run(|attempt| {
            Box::pin(async move {
                if attempt < 2 {
                    Err("500".to_owned())
                } else {
                    Ok(attempt)
                }
            })
        })
        .await;
        assert_eq!(result, Ok(2));
    }

    #[tokio::test]
    async fn a_try_without_answer_is_abandoned_and_retried() {
        let result = run(|attempt| {
            Box::pin(async move {
                if attempt == 0 {
                    std::future::pending::<()>().await;
                }
                Ok(attempt)
            })
        })
        .await;
        assert_eq!(result, Ok(1));
        let result: Result<(), String> =
            run(|_| Box::pin(std::future::pending::<Result<(), String>>())).await;
        assert_eq!(result, Err("timeout".to_owned()));
    }
}
