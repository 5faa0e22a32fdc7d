//! Smoke test of the fake Discord harness (`tests/support/fake_discord`):
//! a tiny poise bot, defined here, runs on the real serenity client against
//! the fake. It proves the harness can carry everything the chessbot
//! adapter needs: command registration, slash commands answered with an
//! embed + button + PNG upload, autocomplete, button clicks, deferral and
//! follow-ups, thread creation, and a client restart against the same fake.
//! It also measures the interaction round trip the fake adds.

use crate::support;

use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serde_json::{json, Value};
use support::fake_discord::{
    model, opt_focused, opt_str, opt_user, ClientHandle, FakeDiscord, LatencyStats, MessageSource,
    ALICE, BOB, CAROL, CHESS_CHANNEL, GUILD_ID,
};

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

/// The bot's shared state: one PNG made at start-up.
struct Data {
    png: Vec<u8>,
}

const FRUITS: [&str; 6] = [
    "apple",
    "apricot",
    "avocado",
    "banana",
    "blueberry",
    "cherry",
];
const WAIT: Duration = Duration::from_secs(10);

/// A 4×4 RGBA checkerboard, encoded with the `png` crate.
fn make_png() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, 4, 4);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("png header");
        let pixels: Vec<u8> = (0..16)
            .flat_map(|i| {
                if (i + i / 4) % 2 == 0 {
                    [240, 217, 181, 255]
                } else {
                    [181, 136, 99, 255]
                }
            })
            .collect();
        writer.write_image_data(&pixels).expect("png data");
    }
    out
}

/// Answers with an embed, a button and a PNG.
#[poise::command(slash_command)]
async fn ping(ctx: Context<'_>) -> Result<(), Error> {
    let reply = poise::CreateReply::default()
        .content("pong")
        .embed(
            serenity::CreateEmbed::new()
                .title("Ping")
                .description("pong")
                .image("attachment://board.png"),
        )
        .attachment(serenity::CreateAttachment::bytes(
            ctx.data().png.clone(),
            "board.png",
        ))
        .components(vec![serenity::CreateActionRow::Buttons(vec![
            serenity::CreateButton::new("ping:again").label("Again"),
        ])]);
    ctx.send(reply).await?;
    Ok(())
}

async fn complete_fruit(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = FRUITS
        .iter()
        .filter(|f| f.starts_with(partial))
        .map(|f| serenity::AutocompleteChoice::new(f.to_uppercase(), *f))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Picks a fruit, with autocomplete.
#[poise::command(slash_command)]
async fn pick(
    ctx: Context<'_>,
    #[description = "A fruit"]
    #[autocomplete = "complete_fruit"]
    fruit: String,
    #[description = "Who gets it"] to: Option<serenity::User>,
) -> Result<(), Error> {
    let to = to.map(|u| format!(" for {}", u.name)).unwrap_or_default();
    ctx.say(format!("picked {fruit}{to}")).await?;
    Ok(())
}

/// Defers, opens a thread in the channel, posts in it, then follows up.
#[poise::command(slash_command)]
async fn thread(
    ctx: Context<'_>,
    #[description = "Thread name"] name: String,
) -> Result<(), Error> {
    ctx.defer().await?;
    let thread = ctx
        .channel_id()
        .create_thread(
            ctx,
            serenity::CreateThread::new(name).kind(serenity::ChannelType::PublicThread),
        )
        .await?;
    thread.id.say(ctx, "game on").await?;
    ctx.say(format!("thread created <#{}>", thread.id)).await?;
    Ok(())
}

// On Discord the first follow-up after a deferral fills the placeholder
// and only the second is a new message.
/// Defers, then sends two follow-ups.
#[poise::command(slash_command)]
async fn late(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer().await?;
    ctx.say("first").await?;
    ctx.say("second").await?;
    Ok(())
}

/// Defers privately, then follows up "publicly".
#[poise::command(slash_command)]
async fn secret(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    ctx.send(
        poise::CreateReply::default()
            .content("psst")
            .ephemeral(false),
    )
    .await?;
    Ok(())
}

/// Answers twice, which Discord refuses: the second answer must get 400.
#[poise::command(slash_command)]
async fn twice(ctx: Context<'_>) -> Result<(), Error> {
    ctx.say("once").await?;
    if let poise::Context::Application(app) = ctx {
        let again = serenity::CreateInteractionResponseMessage::new().content("twice");
        let result = app
            .interaction
            .create_response(ctx, serenity::CreateInteractionResponse::Message(again))
            .await;
        let verdict = match result {
            Ok(()) => "second response accepted".to_owned(),
            Err(e) => format!("second response refused: {e}"),
        };
        ctx.say(verdict).await?;
    }
    Ok(())
}

async fn event_handler(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
        && click.data.custom_id == "ping:again"
    {
        let msg = serenity::CreateInteractionResponseMessage::new()
            .content(format!("again, {}", click.user.name))
            .ephemeral(true);
        click
            .create_response(
                framework.serenity_context,
                serenity::CreateInteractionResponse::Message(msg),
            )
            .await?;
    }
    Ok(())
}

/// Builds and starts the bot against the fake.
async fn start_bot(fake: &FakeDiscord) -> ClientHandle {
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![ping(), pick(), thread(), twice(), late(), secret()],
            event_handler: |framework, event| Box::pin(event_handler(framework, event)),
            ..Default::default()
        })
        .setup(|ctx, _ready, framework| {
            Box::pin(async move {
                // If setup returns an error, poise never sets its data and
                // every later interaction hangs: log and carry on instead.
                let guild = serenity::GuildId::new(GUILD_ID);
                if let Err(e) =
                    poise::builtins::register_in_guild(ctx, &framework.options().commands, guild)
                        .await
                {
                    eprintln!("command registration failed: {e}");
                }
                Ok(Data { png: make_png() })
            })
        })
        .build();
    let client = fake
        .client_builder(serenity::GatewayIntents::non_privileged())
        .framework(framework)
        .await
        .expect("client builds");
    ClientHandle::spawn(client)
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("attachment is a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a decodable size")];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_client_against_fake_discord() {
    let begun = Instant::now();
    let fake = FakeDiscord::start().await;
    let client = start_bot(&fake).await;
    fake.wait_ready(WAIT).await;
    println!("first session ready after {:?}", begun.elapsed());

    // Registration: the commands, in the guild, with their options.
    let commands = fake.wait_commands(WAIT).await;
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, ["ping", "pick", "thread", "twice", "late", "secret"]);
    let pick_cmd = &commands[1];
    assert_eq!(pick_cmd["guild_id"], json!(GUILD_ID.to_string()));
    assert_eq!(pick_cmd["options"][0]["name"], "fruit");
    assert_eq!(pick_cmd["options"][0]["type"], 3);
    assert_eq!(pick_cmd["options"][0]["autocomplete"], true);
    assert_eq!(pick_cmd["options"][0]["required"], true);
    assert_eq!(pick_cmd["options"][1]["name"], "to");
    assert_eq!(pick_cmd["options"][1]["type"], 6);

    // /ping: content, embed, button, and the PNG bytes.
    let i = fake
        .send_slash(&ALICE, CHESS_CHANNEL, "ping", json!([]))
        .await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert_eq!(cb.kind, 4);
    assert_eq!(cb.status, 204);
    assert_eq!(cb.content(), "pong");
    assert_eq!(cb.embeds()[0]["title"], "Ping");
    assert_eq!(cb.embeds()[0]["image"]["url"], "attachment://board.png");
    assert_eq!(cb.custom_ids(), ["ping:again"]);
    assert!(!cb.flags_ephemeral());
    let files = cb.attachments();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].0, "board.png");
    assert_eq!(cb.files[0].content_type.as_deref(), Some("image/png"));
    let (w, h, pixels) = decode_png(&files[0].1);
    assert_eq!((w, h), (4, 4));
    assert_eq!(&pixels[..4], &[240, 217, 181, 255]);
    // The response became a message in #chess, with the attachment object.
    let ping_msg = cb.message().clone();
    assert_eq!(ping_msg.channel_id, CHESS_CHANNEL);
    assert_eq!(ping_msg.json["attachments"][0]["filename"], "board.png");
    assert_eq!(ping_msg.json["interaction"]["name"], "ping");
    assert_eq!(fake.messages_in(CHESS_CHANNEL).len(), 1);

    // Autocomplete: the choices that start with what was typed.
    let i = fake
        .send_autocomplete(
            &BOB,
            CHESS_CHANNEL,
            "pick",
            json!([opt_focused("fruit", "ap")]),
        )
        .await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert_eq!(cb.kind, 8);
    assert_eq!(
        cb.choices(),
        [
            ("APPLE".to_owned(), "apple".to_owned()),
            ("APRICOT".to_owned(), "apricot".to_owned())
        ]
    );

    // A slash command with a user option (resolved data filled by the fake).
    let i = fake
        .send_slash(
            &BOB,
            CHESS_CHANNEL,
            "pick",
            json!([opt_str("fruit", "cherry"), opt_user("to", &CAROL)]),
        )
        .await;
    assert_eq!(
        fake.wait_callback(&i, WAIT).await.content(),
        "picked cherry for carol"
    );

    // A button click on the /ping message gets an ephemeral reply.
    let i = fake
        .click_button(&BOB, CHESS_CHANNEL, &ping_msg, "ping:again")
        .await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert_eq!(cb.kind, 4);
    assert_eq!(cb.content(), "again, bob");
    assert!(cb.flags_ephemeral());

    // Deferral, a thread through the channel API, a message in it, and a follow-up.
    let i = fake
        .send_slash(
            &ALICE,
            CHESS_CHANNEL,
            "thread",
            json!([opt_str("name", "alice vs bob")]),
        )
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5);
    // poise answers a deferred command with a follow-up, which on Discord
    // fills the "thinking…" placeholder instead of posting a new message.
    let original = fake.wait_original(&i, WAIT).await;
    assert!(fake.callbacks_for(&i).len() == 1 && original.edits == 1);
    let threads = fake.threads();
    assert_eq!(threads.len(), 1);
    let t = &threads[0];
    assert_eq!(
        (t.name.as_str(), t.parent_id, t.kind),
        ("alice vs bob", CHESS_CHANNEL, 11)
    );
    assert_eq!(original.content(), format!("thread created <#{}>", t.id));
    assert!(
        fake.messages_in(CHESS_CHANNEL).iter().all(|m| m.source
            != MessageSource::Followup {
                interaction_id: i.id
            }),
        "no message besides the filled placeholder"
    );
    let in_thread = fake.messages_in(t.id);
    assert_eq!(in_thread.len(), 1);
    assert_eq!(in_thread[0].content(), "game on");

    // The first follow-up after a deferral fills the placeholder; the
    // second is a new message.
    let i = fake
        .send_slash(&BOB, CHESS_CHANNEL, "late", json!([]))
        .await;
    let second = fake.wait_followups(&i, 1, WAIT).await;
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].content(), "second");
    assert_eq!(fake.wait_original(&i, WAIT).await.content(), "first");
    // A private deferral stays private, whatever the follow-up asks.
    let i = fake
        .send_slash(&BOB, CHESS_CHANNEL, "secret", json!([]))
        .await;
    let original = fake.wait_original(&i, WAIT).await;
    assert_eq!(original.content(), "psst");
    assert!(original.flags_ephemeral());

    // Discord's 5xx: injected per route, N times; a request "taken anyway"
    // is carried out, then answered 500, and its retry gets 40060.
    fake.fail_times("POST", "/callback", 1, true);
    let i = fake
        .send_slash(&CAROL, CHESS_CHANNEL, "ping", json!([]))
        .await;
    fake.wait("the failed callback", WAIT, |w| {
        w.requests
            .iter()
            .any(|r| r.path.contains(&i.id.to_string()) && r.status == 500)
            .then_some(())
    })
    .await;
    assert!(fake
        .wait_original(&i, WAIT)
        .await
        .content()
        .starts_with("pong"));

    // One initial response per interaction: the second gets 400 (40060).
    let i = fake
        .send_slash(&CAROL, CHESS_CHANNEL, "twice", json!([]))
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.content(), "once");
    let verdict = &fake.wait_followups(&i, 1, WAIT).await[0];
    assert!(
        verdict.content().starts_with("second response refused")
            && verdict.content().contains("already been acknowledged"),
        "{}",
        verdict.content()
    );
    let statuses: Vec<u16> = fake.callbacks_for(&i).iter().map(|c| c.status).collect();
    assert_eq!(statuses, [204, 400]);

    // Latency: 200 /ping round trips, gateway send → callback received.
    let mut samples = Vec::new();
    for n in 0..200 {
        let user = [&ALICE, &BOB, &CAROL][n % 3];
        let i = fake
            .send_slash(user, CHESS_CHANNEL, "ping", json!([]))
            .await;
        let cb = fake.wait_callback(&i, WAIT).await;
        assert_eq!(cb.attachments().len(), 1);
        samples.push(cb.latency());
    }
    let stats = LatencyStats::of(&samples);
    println!("/ping round trip (INTERACTION_CREATE sent → callback received): {stats}");

    // Restart: stop the client, start a second one on the same fake. Old
    // buttons keep working because their custom ids carry all they need.
    let started = Instant::now();
    client.stop().await;
    fake.wait_disconnected(WAIT).await;
    let client = start_bot(&fake).await;
    let second = fake.wait_identified(2, WAIT).await;
    println!(
        "restart: second session {} ready after {:?}",
        second.session_id,
        started.elapsed()
    );
    fake.wait("the second registration", WAIT, |w| {
        (w.registrations.len() >= 2).then_some(())
    })
    .await;
    // Re-registering keeps command ids, as Discord does for unchanged names.
    let again = fake.registered_commands();
    assert_eq!(again.len(), commands.len());
    for (before, after) in commands.iter().zip(&again) {
        assert_eq!(before["id"], after["id"], "/{} changed id", before["name"]);
    }
    let i = fake
        .click_button(&CAROL, CHESS_CHANNEL, &ping_msg, "ping:again")
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.content(), "again, carol");
    let i = fake
        .send_slash(&BOB, CHESS_CHANNEL, "ping", json!([]))
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.content(), "pong");

    // A gateway drop: serenity resumes, is told the session is gone, and
    // identifies again; interactions keep flowing.
    let dropped = Instant::now();
    fake.drop_gateway();
    fake.wait_identified(3, WAIT).await;
    println!("gateway drop: re-identified after {:?}", dropped.elapsed());
    let i = fake
        .send_slash(&CAROL, CHESS_CHANNEL, "ping", json!([]))
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.content(), "pong");

    // A rejected token: REST calls fail with 401.
    fake.set_token_valid(false);
    let err = fake
        .http()
        .get_current_user()
        .await
        .expect_err("401 with a bad token");
    assert!(
        err.to_string().contains("401") || format!("{err:?}").contains("401"),
        "{err:?}"
    );
    fake.set_token_valid(true);

    client.stop().await;
    fake.assert_no_unknown_routes();
}

/// Every JSON builder of the fake deserializes into the serenity type the
/// client will parse it as. serenity drops events it cannot parse (with only
/// a log line), so a missing field would otherwise show up as a hang.
#[test]
fn builders_match_serenity_models() {
    fn parse<T: serde::de::DeserializeOwned>(what: &str, v: Value) -> T {
        serde_json::from_value(v.clone())
            .unwrap_or_else(|e| panic!("{what} does not parse: {e}\n{v:#}"))
    }
    let chess = model::text_channel(CHESS_CHANNEL, "chess", 0);
    let thread = model::thread_channel(42, CHESS_CHANNEL, "t", 11, model::APP_ID, 1440);
    let _: serenity::Ready = parse("READY", model::ready("s", "ws://x"));
    let _: serenity::Guild = parse(
        "GUILD_CREATE",
        model::guild_create(std::slice::from_ref(&chess), std::slice::from_ref(&thread)),
    );
    let _: serenity::PartialGuild = parse("GET /guilds/{id}", model::rest_guild());
    let _: serenity::GuildChannel = parse("thread", thread.clone());
    let _: serenity::Member = parse("member", model::member(&ALICE));
    let _: serenity::CurrentUser = parse("GET /users/@me", model::bot_user());
    let _: serenity::CurrentApplicationInfo = parse("application", model::application_info());
    let msg = model::message(
        7,
        CHESS_CHANNEL,
        model::bot_user(),
        &json!({"content": "hi <@1100000000000001002>", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]}),
        vec![model::attachment(8, "a.png", "image/png", 3, "http://x")],
    );
    let parsed: serenity::Message = parse("message", msg.clone());
    assert_eq!(parsed.mentions[0].id.get(), BOB.id);

    let mut slash = model::interaction_base(2, 9, "tok", &ALICE, &chess);
    slash["data"] = model::command_data(10, "pick", &json!([opt_user("to", &BOB)]));
    match parse::<serenity::Interaction>("slash interaction", slash) {
        serenity::Interaction::Command(c) => {
            assert_eq!(c.user.id.get(), ALICE.id);
            assert_eq!(c.data.resolved.users.len(), 1);
        }
        other => panic!("not a command: {other:?}"),
    }
    let mut auto = model::interaction_base(4, 9, "tok", &ALICE, &thread);
    auto["data"] = model::command_data(10, "pick", &json!([opt_focused("fruit", "a")]));
    assert!(matches!(
        parse::<serenity::Interaction>("autocomplete interaction", auto),
        serenity::Interaction::Autocomplete(_)
    ));
    let mut click = model::interaction_base(3, 9, "tok", &BOB, &chess);
    click["data"] = model::button_data("go");
    click["message"] = msg;
    assert!(matches!(
        parse::<serenity::Interaction>("component interaction", click),
        serenity::Interaction::Component(_)
    ));
}
