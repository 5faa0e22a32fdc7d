//! Button clicks. poise handles slash commands and autocomplete; clicks
//! arrive here as gateway events. A button's custom id is the service's own
//! stable id (`game:42:resign:7`), handed back as `Command::Button`, so
//! buttons work after a restart and a stale one gets the service's polite
//! "this game has moved on".

use poise::serenity_prelude as serenity;

use super::{
    actor::{actor, Origin},
    respond::{answer, Target},
    Data, Error,
};
use crate::{i18n::Lang, service::Command, t};

/// poise's event handler: routes component interactions, tells `/readyz`
/// whether the gateway is connected, ignores the rest.
pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::Ready { .. } | serenity::FullEvent::Resume { .. } => {
            crate::metrics::set_gateway_connected(true);
        }
        serenity::FullEvent::ShardStageUpdate { event } => {
            crate::metrics::set_gateway_connected(
                event.new == serenity::ConnectionStage::Connected,
            );
        }
        _ => {}
    }
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
    {
        on_click(framework.serenity_context, framework.user_data, click).await;
    }
    Ok(())
}

async fn on_click(ctx: &serenity::Context, data: &Data, click: &serenity::ComponentInteraction) {
    let target = Target::from(click);
    let lang = Lang::from_locale(Some(click.locale.as_str()));
    if !matches!(
        click.data.kind,
        serenity::ComponentInteractionDataKind::Button
    ) {
        target
            .refuse(&ctx.http, &t!(lang, "discord-control-unknown"))
            .await;
        return;
    }
    let Some(actor) = actor(Origin::from(click)) else {
        target
            .refuse(&ctx.http, &t!(lang, "discord-server-only"))
            .await;
        return;
    };
    let id = click.data.custom_id.clone();
    if id == crate::service::buttons::ACTIVITY_LAUNCH_ID {
        super::activity::launch(&ctx.http, data, &target, lang).await;
        return;
    }
    answer(ctx, data, &target, &actor, Command::Button { id }).await;
}
