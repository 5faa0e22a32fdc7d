//! Opening the board inside Discord: `/activity` and a board's "Open in
//! Discord" button are answered with `LAUNCH_ACTIVITY` (interaction
//! callback type 12), and Discord opens the Activity (the web board's
//! `/activity` page) in the channel. It has to be the interaction's first
//! answer: there is no deferring a launch.

use poise::serenity_prelude as serenity;

use super::{errors::describe, respond::Target, Data};
use crate::{i18n::Lang, t};

/// Launches the Activity for `target`'s user, or says why not.
pub async fn launch(http: &serenity::Http, data: &Data, target: &Target, lang: Lang) {
    if !data.service.activity_enabled() {
        target.refuse(http, &t!(lang, "web-activity-off")).await;
        return;
    }
    if let Err(e) = target
        .respond(http, serenity::CreateInteractionResponse::LaunchActivity)
        .await
    {
        tracing::warn!(interaction = %target.id, error = %describe(&e), "could not launch the Activity");
    }
}
