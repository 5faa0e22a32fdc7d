//! Opening a new game's thread. After the "challenge accepted" answer, a
//! public thread named after the players is created in the channel, the
//! service moves the game there and its first board is posted in it
//! (mentioning the player to move, which also adds them to the thread).
//!
//! If the thread cannot be created (no **Create Public Threads**, or
//! threads are not allowed here), the game stays in the channel: its first
//! board is posted there as a follow-up and the user is told which
//! permission is missing.

use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, ChannelType, CreateThread};

use super::{
    errors::{describe, is_missing_permission, missing_permission_text},
    reply::{cut, limits, Message},
    respond::Target,
    Data,
};
use crate::{
    i18n::join_sentences,
    service::{Actor, OpenThread, Reply},
    t,
};

/// Opens the thread `request` asks for (see the module docs).
pub async fn open(
    ctx: &serenity::Context,
    data: &Data,
    target: &Target,
    actor: &Actor,
    request: &OpenThread,
) {
    let parent = target.channel_id;
    let allowed = target
        .app_permissions
        .is_none_or(|p| p.administrator() || p.create_public_threads());
    let created = if allowed {
        // A week without messages before Discord archives it: correspondence
        // games are slow. A move in an archived thread unarchives it.
        let thread = CreateThread::new(cut(&request.name, limits::THREAD_NAME))
            .kind(ChannelType::PublicThread)
            .auto_archive_duration(AutoArchiveDuration::OneWeek);
        super::retry::create_thread(&ctx.http, parent, thread)
            .await
            .map_err(Some)
    } else {
        Err(None)
    };
    match created {
        Ok(thread) => {
            let board = data
                .service
                .thread_opened(request.game_id, &thread.id.to_string())
                .await;
            post_in_thread(ctx, target, thread.id, &board).await;
        }
        Err(error) => {
            let why = match &error {
                Some(e) if !is_missing_permission(e) => {
                    tracing::error!(game = request.game_id, server = %actor.server, channel = %parent, error = %describe(e), "thread creation failed");
                    t!(target.lang, "discord-thread-failed")
                }
                // Refused by Discord, or known beforehand to be refused.
                _ => missing_permission_text(
                    target.lang,
                    "Create Public Threads",
                    &t!(target.lang, "discord-what-open-thread"),
                ),
            };
            let board = data
                .service
                .thread_opened(request.game_id, &parent.to_string())
                .await;
            let message =
                Message::from_reply_in(&board, target.capabilities(), target.lang).to_followup();
            if let Err(e) = target.follow_up(&ctx.http, message).await {
                tracing::error!(game = request.game_id, error = %describe(&e), "could not post the first board");
            }
            target
                .tell(
                    &ctx.http,
                    &t!(target.lang, "discord-thread-fallback", why = why),
                )
                .await;
        }
    }
}

async fn post_in_thread(
    ctx: &serenity::Context,
    target: &Target,
    thread: serenity::ChannelId,
    board: &Reply,
) {
    if board.ephemeral {
        // Not a board but a problem for the user (the game vanished?).
        target.tell(&ctx.http, &board.text).await;
        return;
    }
    // Threads inherit the parent channel's permissions.
    let message = Message::from_reply_in(board, target.capabilities(), target.lang).to_message();
    if let Err(e) = super::retry::send_message(&ctx.http, thread, message).await {
        tracing::error!(thread = %thread, error = %describe(&e), "could not post the first board in the thread");
        let text = if is_missing_permission(&e) {
            let place = format!("<#{thread}>");
            join_sentences(
                target.lang,
                [
                    missing_permission_text(
                        target.lang,
                        "Send Messages in Threads",
                        &t!(target.lang, "discord-what-post-board", thread = place),
                    ),
                    t!(target.lang, "discord-board-in-thread-hint"),
                ],
            )
        } else {
            t!(
                target.lang,
                "discord-board-post-failed",
                thread = format!("<#{thread}>")
            )
        };
        target.tell(&ctx.http, &text).await;
    }
}

/// Opens a tournament game's thread in `parent` on the scheduler's behalf
/// (no interaction to answer): the thread, the game moved there, its first
/// board posted. If the thread cannot be created the game stays without a
/// place and is offered again at the next start-up; the failure is logged
/// for the operator.
pub async fn open_for_notice(
    http: &serenity::Http,
    service: &crate::service::Service,
    parent: serenity::ChannelId,
    request: &OpenThread,
) {
    let thread = CreateThread::new(cut(&request.name, limits::THREAD_NAME))
        .kind(ChannelType::PublicThread)
        .auto_archive_duration(AutoArchiveDuration::OneWeek);
    let thread = match super::retry::create_thread(http, parent, thread).await {
        Ok(thread) => thread,
        Err(e) => {
            tracing::error!(game = request.game_id, channel = %parent, error = %describe(&e), "could not open a tournament game's thread");
            return;
        }
    };
    let board = service
        .thread_opened(request.game_id, &thread.id.to_string())
        .await;
    let message = Message::from_reply(&board, super::reply::Capabilities::ALL).to_message();
    if let Err(e) = super::retry::send_message(http, thread.id, message).await {
        tracing::error!(thread = %thread.id, error = %describe(&e), "could not post the first board in the thread");
    }
}
