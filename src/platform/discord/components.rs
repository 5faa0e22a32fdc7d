//! Button clicks. poise handles slash commands and autocomplete; clicks
//! arrive here as gateway events. A button's custom id is the service's own
//! stable id (`game:42:resign:7`), handed back as `Command::Button`, so
//! buttons work after a restart and a stale one gets the service's polite
//! "this game has moved on".
//!
//! One button asks for text: Seal move (an adjourned game's sealed move,
//! 封棋) opens a form whose answer comes back as a modal submission and
//! goes to the service as `/seal` would.

use poise::serenity_prelude as serenity;

use super::{
    actor::{actor, Origin},
    respond::{answer, Target},
    Data, Error,
};
use crate::{
    i18n::Lang,
    service::{
        buttons::{ButtonAction, GameButton},
        Command,
    },
    t,
};

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
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(click),
        } => on_click(framework.serenity_context, framework.user_data, click).await,
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Modal(form),
        } => on_form(framework.serenity_context, framework.user_data, form).await,
        _ => {}
    }
    Ok(())
}

/// The custom id of the sealed-move form, and of its one field.
const SEAL_FORM: &str = "seal-form";
const SEAL_FIELD: &str = "move";

/// Opens the form that asks the presser for the move to seal.
async fn ask_for_sealed_move(ctx: &serenity::Context, target: &Target, lang: Lang) {
    let field = serenity::CreateInputText::new(
        serenity::InputTextStyle::Short,
        t!(lang, "seal-form-label"),
        SEAL_FIELD,
    )
    .placeholder(t!(lang, "seal-form-placeholder"))
    .min_length(1)
    .max_length(32)
    .required(true);
    let form = serenity::CreateModal::new(SEAL_FORM, t!(lang, "seal-form-title"))
        .components(vec![serenity::CreateActionRow::InputText(field)]);
    if let Err(e) = target
        .respond(&ctx.http, serenity::CreateInteractionResponse::Modal(form))
        .await
    {
        tracing::warn!(error = %super::errors::describe(&e), "could not open the seal form");
    }
}

/// A submitted form: the sealed move, sealed as `/seal move:…` would.
async fn on_form(ctx: &serenity::Context, data: &Data, form: &serenity::ModalInteraction) {
    let target = Target::from(form);
    let lang = Lang::from_locale(Some(form.locale.as_str()));
    let text = form
        .data
        .components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(input) if input.custom_id == SEAL_FIELD => {
                input.value.clone()
            }
            _ => None,
        });
    let (true, Some(text)) = (form.data.custom_id == SEAL_FORM, text) else {
        target
            .refuse(&ctx.http, &t!(lang, "discord-control-unknown"))
            .await;
        return;
    };
    let Some(actor) = actor(Origin::from(form)) else {
        target
            .refuse(&ctx.http, &t!(lang, "discord-server-only"))
            .await;
        return;
    };
    answer(
        ctx,
        data,
        &target,
        &actor,
        Command::Seal { text: Some(text) },
    )
    .await;
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
    if let Some(ButtonAction::Game {
        action: GameButton::Seal,
        ..
    }) = ButtonAction::parse(&id)
    {
        // The sealer types the move into a form only they see; the service
        // checks it when the form comes back.
        ask_for_sealed_move(ctx, &target, lang).await;
        return;
    }
    if id == crate::service::buttons::ACTIVITY_LAUNCH_ID {
        super::activity::launch(&ctx.http, data, &target, lang).await;
        return;
    }
    answer(ctx, data, &target, &actor, Command::Button { id }).await;
}
