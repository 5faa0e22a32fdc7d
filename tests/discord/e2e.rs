//! The Discord front end end to end: the real bot (`platform::discord::run`,
//! serenity + poise) against the fake Discord of `tests/support`, on a
//! SQLite file, asserting on the payloads the bot sends.
//!
//! `scenario`: registration; a challenge, accepted with its button; the
//! game's thread and first board; `/move` autocomplete; moves with a board
//! PNG that shows them; a move out of turn; a restart of the bot in the
//! middle (old buttons keep working, stale ones are refused politely);
//! resignation with confirmation; the leaderboard; a second game whose
//! thread cannot be created (it stays playable in the channel and the user
//! is told the missing permission). Then a few hundred `/move`s are timed.
//!
//! `deferred_answers`: the slow path (defer, then edit or follow up).
//! `analysis_edits_its_response`: `/analyze` (with the real Stockfish)
//! shows its progress in its deferred response and edits it into the
//! result with the chart.
//! `rejected_token`: a token Discord refuses stops the bot with a clear error.
//! `tournament_threads`: a tournament created, joined and started with the
//! subcommands; the scheduler opens each game's thread and posts its board
//! there, and the final standings come with the crosstable image.
//!
//! Run with `cargo test --test discord e2e:: -- --nocapture` to see the
//! latency figures.

use crate::optional;
use crate::support;

use std::{sync::Arc, time::Duration};

use chessbot::{
    engine::{AnalysisLimits, Engine, EngineOptions},
    platform::discord::{run, BotSettings},
};
use serde_json::{json, Value};
use shakmaty::{san::San, Chess, Color, Position};
use support::fake_discord::{
    opt_attachment, opt_bool, opt_focused, opt_int, opt_str, opt_user, FakeDiscord, InteractionId,
    LatencyStats, RecordedCallback, RecordedMessage, TestUser, ALICE, BOB, CAROL, CHESS_CHANNEL,
    GENERAL_CHANNEL, GUILD_ID, TOKEN,
};
use tokio::{sync::oneshot, task::JoinHandle};

const WAIT: Duration = Duration::from_secs(15);
/// `/move` round trips timed at the end of the scenario.
const TIMED_MOVES: usize = 300;

/// The bot running in a task, with its shutdown trigger.
struct Bot {
    stop: oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Bot {
    fn start(fake: &FakeDiscord, database_url: &str, defer_after: Option<Duration>) -> Bot {
        Bot::start_with(fake, database_url, defer_after, None)
    }

    /// [`Bot::start`] with a chess engine (for `/play` and `/analyze`).
    fn start_with(
        fake: &FakeDiscord,
        database_url: &str,
        defer_after: Option<Duration>,
        engine: Option<Arc<Engine>>,
    ) -> Bot {
        let mut settings = BotSettings::new(TOKEN, database_url);
        settings.engine = engine;
        settings.http_proxy = Some(fake.http_url());
        settings.dev_guild_id = Some(GUILD_ID);
        // The scenarios click faster than any person (dozens of commands a
        // second from one user); flood limits have their own tests
        // (tests/service/operations.rs).
        settings.limits = chessbot::limits::Limits::off();
        if let Some(d) = defer_after {
            settings.defer_after = d;
        }
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(run(settings, async move {
            let _ = stopped.await;
        }));
        Bot { stop, task }
    }

    /// Graceful shutdown; the bot must end without error.
    async fn stop(self) {
        let _ = self.stop.send(());
        match tokio::time::timeout(WAIT, self.task).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => panic!("bot ended with an error: {e:#}"),
            Ok(Err(e)) => panic!("bot task panicked: {e}"),
            Err(_) => panic!("bot did not stop within {WAIT:?}"),
        }
    }
}

/// Logs of the bot, shown for failing tests (`RUST_LOG` to change).
fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "warn,chessbot=info".into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_test_writer()
        .try_init();
}

fn temp_db() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite:{}", dir.path().join("chessbot.db").display());
    (dir, url)
}

/// Decodes a PNG to RGBA (the renderer writes indexed colour).
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<[u8; 4]>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().expect("attachment is a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a decodable size")];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    buf.truncate(info.buffer_size());
    let pixels = match info.color_type {
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect(),
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    (info.width, info.height, pixels)
}

/// A decoded board image: 8 squares across, a players bar above and below
/// (see `render::compose`), seen from `bottom`'s side.
struct BoardImage {
    width: u32,
    pixels: Vec<[u8; 4]>,
    square: u32,
    bar: u32,
    bottom: Color,
}

impl BoardImage {
    fn decode(png: &[u8], bottom: Color) -> BoardImage {
        let (width, height, pixels) = decode_png(png);
        assert_eq!(width, 480, "boards are 480 px wide");
        let square = width / 8;
        let bar = (height - width) / 2;
        assert!(bar > 0, "the board has players bars ({width}×{height})");
        BoardImage {
            width,
            pixels,
            square,
            bar,
            bottom,
        }
    }

    /// The pixel at the centre of a square (`"e4"`).
    fn centre(&self, square: &str) -> [u8; 4] {
        let b = square.as_bytes();
        let (file, rank) = (u32::from(b[0] - b'a'), u32::from(b[1] - b'1'));
        let (col, row) = match self.bottom {
            Color::White => (file, 7 - rank),
            Color::Black => (7 - file, rank),
        };
        let x = col * self.square + self.square / 2;
        let y = self.bar + row * self.square + self.square / 2;
        self.pixels[(y * self.width + x) as usize]
    }
}

fn command<'a>(commands: &'a [Value], name: &str) -> &'a Value {
    commands
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("/{name} is not registered"))
}

fn option<'a>(command: &'a Value, name: &str) -> &'a Value {
    command["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == name))
        .unwrap_or_else(|| panic!("/{} has no option {name}", command["name"]))
}

fn choice_names(option: &Value) -> Vec<String> {
    option["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str().map(str::to_owned))
        .collect()
}

/// A choice option as Discord sends it: the value registered for the
/// choice called `choice` (poise registers choices as integers).
fn opt_choice(commands: &[Value], cmd: &str, name: &str, choice: &str) -> Value {
    let o = option(command(commands, cmd), name);
    let value = o["choices"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == choice))
        .map(|c| c["value"].clone())
        .unwrap_or_else(|| panic!("/{cmd} {name} has no choice {choice}"));
    json!({"name": name, "type": o["type"], "value": value})
}

/// The button labelled `label` on a message.
fn button_id(message: &RecordedMessage, label: &str) -> String {
    find_button(&message.json["components"], label).unwrap_or_else(|| {
        panic!(
            "no {label:?} button on message {}: {:?}",
            message.id,
            message.custom_ids()
        )
    })
}

fn find_button(components: &Value, label: &str) -> Option<String> {
    for c in components.as_array().into_iter().flatten() {
        if c["label"] == label {
            return c["custom_id"].as_str().map(str::to_owned);
        }
        if let Some(id) = find_button(&c["components"], label) {
            return Some(id);
        }
    }
    None
}

fn field<'a>(embed: &'a Value, name: &str) -> &'a str {
    embed["fields"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == name))
        .and_then(|f| f["value"].as_str())
        .unwrap_or_else(|| panic!("embed has no field {name:?}: {embed}"))
}

async fn slash(
    fake: &FakeDiscord,
    user: &TestUser,
    channel: u64,
    name: &str,
    options: Value,
) -> RecordedCallback {
    let i = fake.send_slash(user, channel, name, options).await;
    fake.wait_callback(&i, WAIT).await
}

async fn click(
    fake: &FakeDiscord,
    user: &TestUser,
    channel: u64,
    message: &RecordedMessage,
    label: &str,
) -> RecordedCallback {
    let id = button_id(message, label);
    let i = fake.click_button(user, channel, message, &id).await;
    fake.wait_callback(&i, WAIT).await
}

/// A public board answer: its embed and PNG.
fn board_of(cb: &RecordedCallback) -> (Value, Vec<u8>) {
    assert_eq!(cb.kind, 4, "answered directly: {:?}", cb.data);
    assert!(!cb.flags_ephemeral(), "a board is public: {}", cb.content());
    let embed = cb.embeds().first().cloned().expect("a board embed");
    let files = cb.attachments();
    assert_eq!(files.len(), 1, "one PNG attached");
    assert_eq!(
        embed["image"]["url"],
        json!(format!("attachment://{}", files[0].0))
    );
    (embed, files[0].1.clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenario() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let bench = fake.add_text_channel("bench");
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);

    // ---- registration ---------------------------------------------------
    let commands = fake.wait_commands(WAIT).await;
    let mut names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "abort",
            "accept",
            "activity",
            "adjourn",
            "analyze",
            "board",
            "board-orientation",
            "cancel",
            "challenge",
            "conditional",
            "decline",
            "draw",
            "games",
            "help",
            "history",
            "leaderboard",
            "move",
            "notify",
            "pgn",
            "play",
            "privacy",
            "profile",
            "puzzle",
            "rating",
            "replay",
            "resign",
            "seal",
            "settings",
            "show",
            "takeback",
            "title",
            "tournament",
            "vacation"
        ]
    );
    for c in &commands {
        assert_eq!(c["guild_id"], json!(GUILD_ID.to_string()), "dev guild");
        assert!(!c["description"].as_str().unwrap_or("").is_empty());
    }
    assert_eq!(
        choice_names(option(command(&commands, "leaderboard"), "board")),
        ["games", "puzzles"]
    );
    let challenge = command(&commands, "challenge");
    assert_eq!(option(challenge, "opponent")["type"], 6);
    assert_eq!(
        choice_names(option(challenge, "color")),
        ["White", "Black", "Random"]
    );
    assert_eq!(option(challenge, "rated")["type"], 5);
    assert_eq!(option(challenge, "time")["autocomplete"], true);
    let mv = command(&commands, "move");
    assert_eq!(option(mv, "move")["autocomplete"], true);
    assert_eq!(option(mv, "move")["required"], true);
    assert_eq!(option(mv, "claim_draw")["type"], 5);
    assert_eq!(
        choice_names(option(command(&commands, "draw"), "action")),
        ["offer", "accept", "decline", "claim"]
    );
    let settings = command(&commands, "settings");
    assert_eq!(
        settings["default_member_permissions"], "32",
        "Manage Server"
    );
    assert_eq!(
        choice_names(option(settings, "theme")),
        ["brown", "blue", "green"]
    );
    assert_eq!(
        option(command(&commands, "rating"), "opponent")["required"],
        true
    );

    // Members without Manage Server may not change the settings.
    let cb = slash(
        &fake,
        &BOB,
        CHESS_CHANNEL,
        "settings",
        json!([opt_bool("threads", false)]),
    )
    .await;
    assert!(cb.flags_ephemeral());
    assert!(cb.content().contains("Manage Server"), "{}", cb.content());

    // ---- the challenge --------------------------------------------------
    let white = opt_choice(&commands, "challenge", "color", "White");
    let cb = slash(
        &fake,
        &ALICE,
        CHESS_CHANNEL,
        "challenge",
        json!([opt_user("opponent", &BOB), white.clone()]),
    )
    .await;
    assert_eq!(cb.kind, 4);
    assert!(!cb.flags_ephemeral());
    assert!(
        cb.content()
            .starts_with(&format!("{} alice challenges bob", BOB.mention())),
        "{}",
        cb.content()
    );
    assert_eq!(
        cb.data["allowed_mentions"]["users"],
        json!([BOB.id.to_string()])
    );
    let ids = cb.custom_ids();
    assert_eq!(ids.len(), 3, "{ids:?}");
    for (id, action) in ids.iter().zip(["accept", "decline", "cancel"]) {
        assert!(id.starts_with("challenge:") && id.ends_with(action), "{id}");
    }
    let challenge_msg = cb.message().clone();

    // carol may not accept a challenge meant for bob.
    let cb = click(&fake, &CAROL, CHESS_CHANNEL, &challenge_msg, "Accept").await;
    assert!(cb.flags_ephemeral(), "{}", cb.content());
    assert!(cb.content().contains("not for you"), "{}", cb.content());

    // ---- bob accepts: a thread and the first board in it ----------------
    let cb = click(&fake, &BOB, CHESS_CHANNEL, &challenge_msg, "Accept").await;
    assert!(!cb.flags_ephemeral());
    assert!(cb.content().contains("bob accepted"), "{}", cb.content());
    let threads = fake.wait_threads(1, WAIT).await;
    let thread = &threads[0];
    assert_eq!((thread.parent_id, thread.kind), (CHESS_CHANNEL, 11));
    assert!(
        thread.name.contains("alice") && thread.name.contains("bob"),
        "{}",
        thread.name
    );
    let first = fake
        .wait_message_in(thread.id, WAIT, |m| !m.embeds().is_empty())
        .await;
    assert!(
        first.content().starts_with(&ALICE.mention()),
        "{}",
        first.content()
    );
    assert_eq!(first.mentions(), [ALICE.id]);
    assert_eq!(first.embeds()[0]["title"], "alice (White) vs bob (Black)");
    assert_eq!(first.files.len(), 1);
    let first_png = first.files[0].bytes.clone();
    assert!(first.json["embeds"][0]["image"]["url"]
        .as_str()
        .is_some_and(|u| u.contains(&first.files[0].filename)));
    button_id(&first, "Resign");
    button_id(&first, "Offer draw");

    // ---- autocomplete ---------------------------------------------------
    let i = fake
        .send_autocomplete(&ALICE, thread.id, "move", json!([opt_focused("move", "N")]))
        .await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert_eq!(cb.kind, 8);
    let mut offered: Vec<String> = cb.choices().into_iter().map(|(_, v)| v).collect();
    offered.sort();
    assert_eq!(offered, ["Na3", "Nc3", "Nf3", "Nh3"]);

    // ---- bob out of turn; alice e4 --------------------------------------
    let cb = slash(
        &fake,
        &BOB,
        thread.id,
        "move",
        json!([opt_str("move", "e5")]),
    )
    .await;
    assert_eq!(cb.kind, 4);
    assert!(cb.flags_ephemeral(), "errors are private: {}", cb.content());
    assert!(
        cb.content().to_lowercase().contains("turn"),
        "{}",
        cb.content()
    );
    assert!(cb.attachments().is_empty());

    let cb = slash(
        &fake,
        &ALICE,
        thread.id,
        "move",
        json!([opt_str("move", "e4")]),
    )
    .await;
    let (embed, png) = board_of(&cb);
    assert!(
        cb.content()
            .starts_with(&format!("{} 1. e4", BOB.mention())),
        "{}",
        cb.content()
    );
    assert_eq!(field(&embed, "Last move"), "e4");
    assert!(
        field(&embed, "Deadline").starts_with("<t:") && field(&embed, "Deadline").ends_with(":R>")
    );
    // Black to move: the board is seen from Black's side.
    let before = BoardImage::decode(&first_png, Color::White);
    let after = BoardImage::decode(&png, Color::Black);
    assert_eq!(
        after.centre("e4"),
        before.centre("e2"),
        "the e2 pawn is now on e4"
    );
    assert_eq!(
        after.centre("e4"),
        after.centre("c2"),
        "e4 holds a white pawn like c2"
    );
    assert_ne!(after.centre("e4"), after.centre("e2"), "e2 is empty now");
    assert_ne!(
        before.centre("e4"),
        after.centre("e4"),
        "e4 was empty before"
    );
    let e4_board = cb.message().clone();

    // ---- bob e5, then a restart -----------------------------------------
    let cb = slash(
        &fake,
        &BOB,
        thread.id,
        "move",
        json!([opt_str("move", "e5")]),
    )
    .await;
    let (embed, _) = board_of(&cb);
    assert_eq!(field(&embed, "Last move"), "e5");
    let e5_board = cb.message().clone();

    bot.stop().await;
    fake.wait_disconnected(WAIT).await;
    let bot = Bot::start(&fake, &db, None);
    fake.wait_identified(2, WAIT).await;
    fake.wait("the second registration", WAIT, |w| {
        (w.registrations.len() >= 2).then_some(())
    })
    .await;

    // A button from before the restart that is out of date...
    let cb = click(&fake, &ALICE, thread.id, &e4_board, "Resign").await;
    assert!(cb.flags_ephemeral());
    assert!(cb.content().contains("moved on"), "{}", cb.content());
    // ...and one that is current still works.
    let cb = click(&fake, &ALICE, thread.id, &e5_board, "Resign").await;
    assert!(cb.flags_ephemeral());
    assert!(
        cb.content().contains("Resign this game?"),
        "{}",
        cb.content()
    );

    // ---- alice resigns with /resign and confirms ------------------------
    let cb = slash(&fake, &ALICE, thread.id, "resign", json!([])).await;
    assert!(cb.flags_ephemeral());
    let confirm = cb.message().clone();
    let cb = click(&fake, &ALICE, thread.id, &confirm, "Yes, resign").await;
    let (embed, _) = board_of(&cb);
    assert!(
        cb.content().contains("Black wins by resignation"),
        "{}",
        cb.content()
    );
    assert_eq!(field(&embed, "alice's points"), "0 → -10 (-10), Unranked");
    assert_eq!(field(&embed, "bob's points"), "0 → 10 (+10), Unranked");
    // A finished game offers only a rematch.
    let ids = cb.custom_ids();
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert!(ids[0].contains(":rematch:"), "{ids:?}");

    // ---- the leaderboard ------------------------------------------------
    let cb = slash(&fake, &CAROL, CHESS_CHANNEL, "leaderboard", json!([])).await;
    assert!(!cb.flags_ephemeral());
    let text = cb.content();
    assert!(text.contains("1. bob — 10? points"), "{text}");
    assert!(text.contains("alice — -10? points"), "{text}");
    // The puzzle ladder: nobody has finished a puzzle yet.
    let cb = slash(
        &fake,
        &CAROL,
        CHESS_CHANNEL,
        "leaderboard",
        json!([opt_choice(&commands, "leaderboard", "board", "puzzles")]),
    )
    .await;
    assert!(
        cb.content().contains("The puzzle ladder is empty"),
        "{}",
        cb.content()
    );

    // ---- no permission to create threads --------------------------------
    let cb = slash(
        &fake,
        &ALICE,
        GENERAL_CHANNEL,
        "challenge",
        json!([opt_user("opponent", &CAROL), white.clone()]),
    )
    .await;
    let challenge_msg = cb.message().clone();
    fake.fail_next(
        "POST",
        "/threads",
        403,
        json!({"message": "Missing Permissions", "code": 50013}),
    );
    let i = fake
        .click_button(
            &CAROL,
            GENERAL_CHANNEL,
            &challenge_msg,
            &button_id(&challenge_msg, "Accept"),
        )
        .await;
    let accepted = fake.wait_callback(&i, WAIT).await;
    assert!(
        accepted.content().contains("carol accepted"),
        "{}",
        accepted.content()
    );
    let followups = fake.wait_followups(&i, 2, WAIT).await;
    let board = followups
        .iter()
        .find(|m| !m.flags_ephemeral())
        .expect("the first board, public, in the channel");
    assert_eq!(board.channel_id, GENERAL_CHANNEL);
    assert_eq!(board.embeds()[0]["title"], "alice (White) vs carol (Black)");
    assert_eq!(board.files.len(), 1);
    let note = followups
        .iter()
        .find(|m| m.flags_ephemeral())
        .expect("a private note");
    assert!(
        note.content().contains("Create Public Threads"),
        "{}",
        note.content()
    );
    assert_eq!(fake.threads().len(), 1, "no second thread");
    let cb = slash(
        &fake,
        &ALICE,
        GENERAL_CHANNEL,
        "move",
        json!([opt_str("move", "d4")]),
    )
    .await;
    let (embed, _) = board_of(&cb);
    assert_eq!(field(&embed, "Last move"), "d4");

    // ---- latency: a few hundred /move round trips -----------------------
    // Unrated random games in their own channel (threads off), so that no
    // position repeats often and the games run long.
    threads_off(&fake, bench).await;
    let samples = timed_moves(&fake, bench, &white, 0x2545_f491_4f6c_dd1d, TIMED_MOVES).await;
    println!(
        "/move: INTERACTION_CREATE sent → callback with the board received: {}",
        LatencyStats::of(&samples)
    );

    bot.stop().await;
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
}

/// Turns game threads off for the server (alice may manage it).
async fn threads_off(fake: &FakeDiscord, channel: u64) {
    let cb = slash(
        fake,
        &ALICE,
        channel,
        "settings",
        json!([opt_bool("threads", false)]),
    )
    .await;
    assert!(cb.content().contains("threads: off"), "{}", cb.content());
}

/// Starts an unrated game, alice (White) against carol, in `channel`
/// (threads off: the game stays in the channel).
async fn start_game(fake: &FakeDiscord, channel: u64, white: &Value) {
    let cb = slash(
        fake,
        &ALICE,
        channel,
        "challenge",
        json!([
            opt_user("opponent", &CAROL),
            white.clone(),
            opt_bool("rated", false)
        ]),
    )
    .await;
    let msg = cb.message().clone();
    let cb = click(fake, &CAROL, channel, &msg, "Accept").await;
    // Threads are off: the answer is the game's first board.
    assert!(cb.content().contains("carol accepted"), "{}", cb.content());
    assert_eq!(cb.attachments().len(), 1);
}

/// `count` move latencies from as many random games in `channel` as it takes.
async fn timed_moves(
    fake: &FakeDiscord,
    channel: u64,
    white: &Value,
    seed: u64,
    count: usize,
) -> Vec<Duration> {
    let mut rng = seed;
    let mut samples = Vec::with_capacity(count);
    while samples.len() < count {
        start_game(fake, channel, white).await;
        let left = count - samples.len();
        samples.extend(play_random_game(fake, channel, &mut rng, left).await);
    }
    samples
}

/// Plays random legal moves (as SAN, by the player to move) in the game of
/// `channel` until it ends or `limit` moves were made; the latency of each.
async fn play_random_game(
    fake: &FakeDiscord,
    channel: u64,
    rng: &mut u64,
    limit: usize,
) -> Vec<Duration> {
    let mut samples = Vec::new();
    let mut position = Chess::default();
    while samples.len() < limit {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let m = moves[(*rng % moves.len() as u64) as usize];
        let san = San::from_move(&position, m).to_string();
        let player = if position.turn() == Color::White {
            &ALICE
        } else {
            &CAROL
        };
        let cb = slash(
            fake,
            player,
            channel,
            "move",
            json!([opt_str("move", &san)]),
        )
        .await;
        assert!(!cb.flags_ephemeral(), "{san}: {}", cb.content());
        assert_eq!(cb.attachments().len(), 1);
        samples.push(cb.latency());
        position.play_unchecked(m);
        if cb.custom_ids().is_empty() {
            break; // the game ended (mate, stalemate, an automatic draw)
        }
    }
    samples
}

/// A benchmark, not a check: interaction → callback latency under load.
///
/// `cargo test --release --test discord e2e::load -- --ignored --nocapture`
///
/// `LOAD_GAMES` games (default 8), each in its own channel, play random
/// moves at once: every game sends its next `/move` as soon as the answer
/// to the previous one arrived; games are played to their end, and new ones
/// started, until at least `LOAD_MOVES` moves (default 800) were timed. In the same run, under the same load, `/help` (no database, no
/// image: the bare Discord round trip through serenity and poise) is timed
/// as the reference; then both again one at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run with --release -- --ignored --nocapture"]
async fn load() {
    init_logs();
    let env = |key: &str, default: usize| {
        std::env::var(key)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (games, total) = (env("LOAD_GAMES", 8).max(1), env("LOAD_MOVES", 800));
    let fake = std::sync::Arc::new(FakeDiscord::start().await);
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let commands = fake.wait_commands(WAIT).await;
    let white = opt_choice(&commands, "challenge", "color", "White");
    threads_off(&fake, CHESS_CHANNEL).await;
    let channels: Vec<u64> = (0..games)
        .map(|i| fake.add_text_channel(&format!("load-{i}")))
        .collect();

    // Under load: all games at once, /help alongside. Games start one at a
    // time (alice may have one challenge waiting for carol; starts are not
    // timed).
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let starting = std::sync::Arc::new(tokio::sync::Mutex::new(()));
    let players: Vec<_> = channels
        .iter()
        .enumerate()
        .map(|(i, &channel)| {
            let (fake, white, done) = (fake.clone(), white.clone(), done.clone());
            let starting = starting.clone();
            tokio::spawn(async move {
                let mut rng = 0x2545_f491_4f6c_dd1d_u64 ^ ((i as u64 + 1) << 32);
                let mut samples = Vec::new();
                while done.load(std::sync::atomic::Ordering::Relaxed) < total {
                    {
                        let _one_at_a_time = starting.lock().await;
                        start_game(&fake, channel, &white).await;
                    }
                    let moves = play_random_game(&fake, channel, &mut rng, usize::MAX).await;
                    done.fetch_add(moves.len(), std::sync::atomic::Ordering::Relaxed);
                    samples.extend(moves);
                }
                samples
            })
        })
        .collect();
    let reference = {
        let (fake, done) = (fake.clone(), done.clone());
        tokio::spawn(async move {
            let mut samples = Vec::new();
            while done.load(std::sync::atomic::Ordering::Relaxed) < total {
                samples.push(
                    slash(&fake, &BOB, GENERAL_CHANNEL, "help", json!([]))
                        .await
                        .latency(),
                );
            }
            samples
        })
    };
    let started = std::time::Instant::now();
    let mut moves = Vec::new();
    for p in players {
        moves.extend(p.await.expect("player task"));
    }
    let elapsed = started.elapsed();
    let help = reference.await.expect("reference task");
    println!(
        "under load ({games} games at once): {:.0} moves/s through Discord",
        moves.len() as f64 / elapsed.as_secs_f64()
    );
    println!("  /move: {}", LatencyStats::of(&moves));
    println!("  /help (reference): {}", LatencyStats::of(&help));

    // One at a time.
    let moves = timed_moves(&fake, channels[0], &white, 0x9e37_79b9_7f4a_7c15, 200).await;
    let mut help = Vec::new();
    for _ in 0..200 {
        help.push(
            slash(&fake, &BOB, GENERAL_CHANNEL, "help", json!([]))
                .await
                .latency(),
        );
    }
    println!("one at a time:");
    println!("  /move: {}", LatencyStats::of(&moves));
    println!("  /help (reference): {}", LatencyStats::of(&help));
    bot.stop().await;
}

/// With `defer_after` zero every answer takes the slow path: a command is
/// deferred and its "thinking…" response edited into the answer (followed
/// by a ping when it mentions someone, or replaced by a private follow-up
/// when it is private); a click is acknowledged and answered with a
/// follow-up. The fake Discord edits the placeholder with the first
/// follow-up after a deferral, as Discord does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deferred_answers() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, Some(Duration::ZERO));
    let commands = fake.wait_commands(WAIT).await;
    let white = opt_choice(&commands, "challenge", "color", "White");
    // Deferred: the callback comes first, the answer (after the commit) later.
    let i = fake
        .send_slash(
            &ALICE,
            CHESS_CHANNEL,
            "settings",
            json!([opt_bool("threads", false)]),
        )
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5);
    let done = fake.wait_original(&i, WAIT).await;
    assert!(
        done.content().contains("threads: off"),
        "{}",
        done.content()
    );

    let i = fake
        .send_slash(
            &ALICE,
            CHESS_CHANNEL,
            "challenge",
            json!([opt_user("opponent", &BOB), white.clone()]),
        )
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5);
    // The placeholder becomes the challenge, buttons and all; it pings bob
    // in a second message (an edit notifies nobody) that links to it.
    let challenge = fake.wait_original(&i, WAIT).await;
    assert!(
        challenge.content().contains("alice challenges bob"),
        "{}",
        challenge.content()
    );
    assert!(challenge.notified.is_empty());
    let ping = fake.wait_followups(&i, 1, WAIT).await.remove(0);
    assert_eq!(ping.notified, vec![BOB.id]);
    assert!(
        ping.content().contains(&challenge.id.to_string()),
        "{}",
        ping.content()
    );
    assert!(ping.custom_ids().is_empty() && ping.files.is_empty());

    // A click: acknowledged (type 6), then the answer as a follow-up; the
    // game has no thread, so its first board follows too.
    let i = fake
        .click_button(
            &BOB,
            CHESS_CHANNEL,
            &challenge,
            &button_id(&challenge, "Accept"),
        )
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 6);
    let followups = fake.wait_followups(&i, 1, WAIT).await;
    assert!(
        followups[0].content().contains("bob accepted"),
        "{}",
        followups[0].content()
    );

    // A private answer after a public deferral: placeholder gone, private follow-up.
    let i = fake
        .send_slash(&BOB, CHESS_CHANNEL, "move", json!([opt_str("move", "e5")]))
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5);
    let note = &fake.wait_followups(&i, 1, WAIT).await[0];
    assert!(note.flags_ephemeral());
    assert!(
        note.content().to_lowercase().contains("turn"),
        "{}",
        note.content()
    );
    wait_placeholder_gone(&fake, &i).await;

    // A board that pings the player to move: deferred, then posted as a
    // new message with the PNG, which notifies bob (and only bob).
    let i = fake
        .send_slash(
            &ALICE,
            CHESS_CHANNEL,
            "move",
            json!([opt_str("move", "e4")]),
        )
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5);
    let board = fake.wait_original(&i, WAIT).await;
    assert!(board.content().contains("1. e4"), "{}", board.content());
    assert!(!board.flags_ephemeral());
    assert_eq!(board.files.len(), 1);
    assert_eq!(
        board.embeds()[0]["image"]["url"],
        json!(format!("attachment://{}", board.files[0].filename))
    );
    assert!(
        !board.custom_ids().is_empty(),
        "the board keeps its buttons"
    );
    let ping = fake.wait_followups(&i, 1, WAIT).await.remove(0);
    assert_eq!(ping.notified, vec![BOB.id]);

    // A deferred answer that pings nobody still edits its placeholder.
    let i = fake
        .send_slash(&ALICE, CHESS_CHANNEL, "board", json!([]))
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5);
    let shown = fake.wait_original(&i, WAIT).await;
    assert!(shown.content().contains("1. e4") || !shown.embeds().is_empty());
    assert!(shown.notified.is_empty());

    // Over the whole slow path, who was notified of what: bob of the
    // challenge and of alice's move; alice of bob's acceptance (the game's
    // first board asks her to move).
    let notified: Vec<(u64, String)> = fake
        .messages_in(CHESS_CHANNEL)
        .iter()
        .flat_map(|m| {
            m.notified
                .iter()
                .map(|id| (*id, m.content().chars().take(40).collect::<String>()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        notified
            .iter()
            .all(|(id, _)| *id == ALICE.id || *id == BOB.id),
        "{notified:?}"
    );
    assert_eq!(
        notified.iter().filter(|(id, _)| *id == BOB.id).count(),
        2,
        "{notified:?}"
    );

    bot.stop().await;
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
}

/// Quick and slow answers leave the same messages, as Discord really
/// keeps them: after `/challenge @bob` exactly one message with the
/// challenge's Accept button, and bob notified by a message; the game's
/// first board in its thread pings alice; her move leaves exactly one board
/// and notifies bob.
async fn one_message_per_answer_and_its_ping(defer_after: Option<Duration>) {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, defer_after);
    let commands = fake.wait_commands(WAIT).await;
    let white = opt_choice(&commands, "challenge", "color", "White");
    let i = fake
        .send_slash(
            &ALICE,
            CHESS_CHANNEL,
            "challenge",
            json!([opt_user("opponent", &BOB), white]),
        )
        .await;
    fake.wait_callback(&i, WAIT).await;
    // The ping is the answer's last message.
    fake.wait_message_in(CHESS_CHANNEL, WAIT, |m| m.notified.contains(&BOB.id))
        .await;
    let with_accept: Vec<RecordedMessage> = fake
        .messages_in(CHESS_CHANNEL)
        .into_iter()
        .filter(|m| find_button(&m.json["components"], "Accept").is_some())
        .collect();
    assert_eq!(with_accept.len(), 1, "{}", fake.summary());
    let challenge = &with_accept[0];
    assert!(!challenge.flags_ephemeral());
    assert!(challenge.content().contains("alice challenges bob"));
    // Clicking needs the message to exist still.
    fake.click_button(
        &BOB,
        CHESS_CHANNEL,
        challenge,
        &button_id(challenge, "Accept"),
    )
    .await;
    let thread = fake.wait_threads(1, WAIT).await.remove(0);
    let first = fake
        .wait_message_in(thread.id, WAIT, |m| m.notified.contains(&ALICE.id))
        .await;
    assert_eq!(first.files.len(), 1, "the first board: {}", fake.summary());

    let i = fake
        .send_slash(&ALICE, thread.id, "move", json!([opt_str("move", "e4")]))
        .await;
    fake.wait_callback(&i, WAIT).await;
    fake.wait_message_in(thread.id, WAIT, |m| {
        m.notified.contains(&BOB.id) && m.created_at > first.created_at
    })
    .await;
    let boards: Vec<RecordedMessage> = fake
        .messages_in(thread.id)
        .into_iter()
        .filter(|m| !m.files.is_empty() && m.created_at > first.created_at)
        .collect();
    assert_eq!(boards.len(), 1, "{}", fake.summary());
    assert!(
        boards[0].content().contains("1. e4"),
        "{}",
        boards[0].content()
    );
    assert!(
        !boards[0].custom_ids().is_empty(),
        "the board keeps its buttons"
    );
    bot.stop().await;
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
}

/// Discord's own failures lose no board. The first board of a new game
/// meets two 500s from the thread's channel and gets there on the third
/// try; a move whose interaction callback Discord keeps failing (every
/// retry spent) is stored, and its board goes to the thread as a message
/// of its own that notifies the opponent; a callback that Discord took but
/// answered 500 is retried, answered 40060, and leaves exactly one board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_failures_lose_no_board() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let commands = fake.wait_commands(WAIT).await;
    let white = opt_choice(&commands, "challenge", "color", "White");
    let i = fake
        .send_slash(
            &ALICE,
            CHESS_CHANNEL,
            "challenge",
            json!([opt_user("opponent", &BOB), white]),
        )
        .await;
    fake.wait_callback(&i, WAIT).await;
    let challenge = fake
        .wait_message_in(CHESS_CHANNEL, WAIT, |m| {
            find_button(&m.json["components"], "Accept").is_some()
        })
        .await;
    fake.fail_times("POST", "/messages", 2, false);
    fake.click_button(
        &BOB,
        CHESS_CHANNEL,
        &challenge,
        &button_id(&challenge, "Accept"),
    )
    .await;
    let thread = fake.wait_threads(1, WAIT).await.remove(0);
    let first = fake
        .wait_message_in(thread.id, WAIT, |m| !m.files.is_empty())
        .await;
    assert!(first.notified.contains(&ALICE.id), "{}", fake.summary());

    // Every try of the move's callback fails: 1 + 3 retries.
    fake.fail_times("POST", "/callback", 4, false);
    let i = fake
        .send_slash(&ALICE, thread.id, "move", json!([opt_str("move", "e4")]))
        .await;
    let board = fake
        .wait_message_in(thread.id, WAIT, |m| {
            m.content().contains("1. e4") && !m.files.is_empty()
        })
        .await;
    assert!(board.notified.contains(&BOB.id), "{}", fake.summary());
    let failed = fake
        .requests()
        .iter()
        .filter(|r| r.path.contains(&i.id.to_string()) && r.status == 500)
        .count();
    assert_eq!(failed, 4, "every try was made: {}", fake.summary());

    // Taken, but answered 500: the retry hears 40060, and one board stays.
    fake.fail_times("POST", "/callback", 1, true);
    let i = fake
        .send_slash(&BOB, thread.id, "move", json!([opt_str("move", "e5")]))
        .await;
    fake.wait("the retried callback", WAIT, |w| {
        let tries = w
            .requests
            .iter()
            .filter(|r| r.path.contains(&i.id.to_string()))
            .count();
        (tries >= 2).then_some(())
    })
    .await;
    let answer = fake.wait_original(&i, WAIT).await;
    assert!(answer.content().contains("e5"), "{}", answer.content());
    let boards = fake
        .messages_in(thread.id)
        .into_iter()
        .filter(|m| m.content().contains("e5") && !m.files.is_empty())
        .count();
    assert_eq!(boards, 1, "{}", fake.summary());

    bot.stop().await;
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_message_per_answer_quick() {
    one_message_per_answer_and_its_ping(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_message_per_answer_always_deferred() {
    one_message_per_answer_and_its_ping(Some(Duration::ZERO)).await;
}

/// `/analyze` on Discord: the command's deferred response ("thinking…")
/// is edited to show the analysis's progress and then into the result,
/// with the advantage chart (PNG) and the annotated PGN attached; nothing
/// else is posted. The game is played first with quick answers, then the
/// bot restarts to take the slow path. Needs Stockfish
/// (`apt-get install stockfish`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_edits_its_response() {
    if !optional::stockfish() {
        return;
    }
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let options = EngineOptions {
        // Shallow, so the test stays quick on a shared machine.
        analysis: AnalysisLimits {
            depth: 8,
            nodes: 100_000,
            movetime_ms: 1_000,
        },
        ..EngineOptions::default()
    };
    let engine = Arc::new(Engine::start(None, 1, 16, 1, options).await.expect(
        "Stockfish is needed for this test: apt-get install stockfish (it lands in /usr/games)",
    ));
    let bot = Bot::start_with(&fake, &db, None, Some(engine.clone()));
    let commands = fake.wait_commands(WAIT).await;
    let white = opt_choice(&commands, "challenge", "color", "White");
    threads_off(&fake, CHESS_CHANNEL).await;
    start_game(&fake, CHESS_CHANNEL, &white).await;
    // Légal's mate: 13 half-moves, so the analysis posts a progress step
    // (every 10 positions) before its result.
    let moves = [
        "e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Bxf7+", "Ke7", "Nd5#",
    ];
    let mut last = None;
    for (i, san) in moves.iter().enumerate() {
        let player = if i % 2 == 0 { &ALICE } else { &CAROL };
        let cb = slash(
            &fake,
            player,
            CHESS_CHANNEL,
            "move",
            json!([opt_str("move", san)]),
        )
        .await;
        assert!(!cb.flags_ephemeral(), "{san}: {}", cb.content());
        last = Some(cb);
    }
    let last = last.expect("moves were played");
    assert!(last.content().contains("checkmate"), "{}", last.content());

    // The slow path: every answer is deferred.
    bot.stop().await;
    fake.wait_disconnected(WAIT).await;
    let bot = Bot::start_with(&fake, &db, Some(Duration::ZERO), Some(engine));
    fake.wait_identified(2, WAIT).await;
    fake.wait("the second registration", WAIT, |w| {
        (w.registrations.len() >= 2).then_some(())
    })
    .await;

    let i = fake
        .send_slash(&ALICE, CHESS_CHANNEL, "analyze", json!([]))
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5, "deferred");
    let done = fake
        .wait("the response edited into the result", WAIT * 4, |w| {
            let mid = w.interactions.get(&i.id)?.original?;
            w.messages
                .iter()
                .find(|m| m.id == mid && m.content().starts_with("Analysis of game #1"))
                .cloned()
        })
        .await;
    // Placeholder, progress from move 0, maybe steps between, the result.
    let versions = &done.versions;
    assert!(versions.len() >= 3, "{versions:#?}");
    assert_eq!(versions[0], "", "the deferred placeholder");
    assert_eq!(versions[1], "Analysing game #1: move 0 of 13…");
    let steps: Vec<usize> = versions[1..versions.len() - 1]
        .iter()
        .map(|v| {
            v.strip_prefix("Analysing game #1: move ")
                .and_then(|rest| rest.strip_suffix(" of 13…"))
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("not a progress step: {v:?}"))
        })
        .collect();
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
    let result = done.content();
    assert!(result.contains("accuracy"), "{result}");
    assert!(result.contains("alice (White)"), "{result}");
    // The chart and the annotated PGN came with the last edit.
    let chart = done
        .files
        .iter()
        .find(|f| f.filename == "analysis-1.png")
        .unwrap_or_else(|| panic!("no chart: {:?}", done.json["attachments"]));
    let (width, height, _) = decode_png(&chart.bytes);
    assert!(width > 300 && height > 150, "{width}×{height}");
    let pgn = done
        .files
        .iter()
        .find(|f| f.filename == "game-1-analysis.pgn")
        .expect("the annotated PGN");
    let pgn = String::from_utf8_lossy(&pgn.bytes);
    assert!(pgn.contains("[%eval"), "{pgn}");
    assert!(pgn.contains("Nd5#"), "{pgn}");
    // One message showed it all: none was posted beside it.
    let about: Vec<String> = fake
        .messages_in(CHESS_CHANNEL)
        .iter()
        .filter(|m| m.content().contains("nalys"))
        .map(|m| m.content().chars().take(60).collect())
        .collect();
    assert_eq!(about.len(), 1, "{about:#?}");
    // The edits went through the interaction's token.
    let token_edits = fake
        .requests()
        .iter()
        .filter(|r| r.method == "PATCH" && r.path.ends_with("/messages/@original"))
        .count();
    assert!(token_edits >= 2, "{token_edits} edits of @original");

    // Any game, attached as a .pgn file: reviewed the same way, on the
    // deferred path too, and nothing of it stored.
    let file = fake.upload(
        "club-night.pgn",
        b"[White \"Anna\"]\n[Black \"Ben\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let i = fake
        .send_slash(
            &BOB,
            CHESS_CHANNEL,
            "analyze",
            json!([opt_attachment("file", &file)]),
        )
        .await;
    assert_eq!(fake.wait_callback(&i, WAIT).await.kind, 5, "deferred");
    let pasted = fake
        .wait("the pasted game's review", WAIT * 4, |w| {
            let mid = w.interactions.get(&i.id)?.original?;
            w.messages
                .iter()
                .find(|m| m.id == mid && m.content().starts_with("Analysis of the pasted game"))
                .cloned()
        })
        .await;
    assert!(
        pasted
            .content()
            .starts_with("Analysis of the pasted game: Anna (White) vs Ben (Black), 0-1."),
        "{}",
        pasted.content()
    );
    assert_eq!(
        pasted.versions[1],
        "Analysing the pasted game: move 0 of 4…"
    );
    assert!(pasted
        .files
        .iter()
        .any(|f| f.filename == "analysis-pasted-game.png"));
    assert!(pasted
        .files
        .iter()
        .any(|f| f.filename == "pasted-game-analysis.pgn"));
    // Both a text and a file: refused, privately.
    let both = slash(
        &fake,
        &BOB,
        CHESS_CHANNEL,
        "analyze",
        json!([opt_str("pgn", "1. e4 e5"), opt_attachment("file", &file)]),
    )
    .await;
    assert!(both.flags_ephemeral());
    assert!(both.content().contains("not both"), "{}", both.content());

    bot.stop().await;
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
}

/// `/help` works in a direct message (everything else asks for a server).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_in_a_dm() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    fake.wait_commands(WAIT).await;
    let i = fake.send_dm_slash(&ALICE, "help").await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert_eq!(cb.kind, 4);
    assert_help_whole(&cb);
    let i = fake.send_dm_slash(&ALICE, "games").await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert!(
        cb.content().contains("Use me in a server"),
        "{}",
        cb.content()
    );
    bot.stop().await;
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
}

/// `/help` in a server channel: the whole help, in the asker's language,
/// one embed field per topic, nothing cut.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_is_whole_in_both_languages() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    fake.wait_commands(WAIT).await;
    let cb = slash(&fake, &ALICE, CHESS_CHANNEL, "help", json!([])).await;
    assert!(cb.flags_ephemeral());
    assert_help_whole(&cb);
    let i = fake
        .send_slash_in_locale(&BOB, CHESS_CHANNEL, "help", json!([]), "zh-CN")
        .await;
    let cb = fake.wait_callback(&i, WAIT).await;
    let embed = &cb.embeds()[0];
    assert!(
        embed["title"]
            .as_str()
            .unwrap_or("")
            .contains("向朋友发起挑战"),
        "{embed}"
    );
    assert!(
        field(embed, "和棋").contains("长将通过重复局面规则判和。"),
        "{embed}"
    );
    bot.stop().await;
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
}

/// The English help as one embed with a field per topic, each whole (its
/// last sentence is there, nothing ends in the cut mark).
fn assert_help_whole(cb: &RecordedCallback) {
    let embeds = cb.embeds();
    assert_eq!(embeds.len(), 1, "{:?}", cb.data);
    let embed = &embeds[0];
    assert!(embed["title"]
        .as_str()
        .unwrap_or("")
        .starts_with("chessbot"));
    let names: Vec<&str> = embed["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "Playing",
            "Casual games, rematches, replays",
            "Time and correspondence",
            "Adjourned games (封棋)",
            "The computer",
            "Draws",
            "Ladder and records",
            "Tournaments",
            "Moderators and your data"
        ]
    );
    assert!(field(embed, "Playing").contains("/challenge"));
    assert!(
        field(embed, "Draws").ends_with("is a draw through these repetition rules."),
        "{embed}"
    );
    assert!(
        field(embed, "Moderators and your data").ends_with("`/privacy forget` erases it."),
        "{embed}"
    );
    assert!(!cb.content().contains("Use me in a server"));
}

/// Waits until the "thinking…" placeholder of `i` has been deleted.
async fn wait_placeholder_gone(fake: &FakeDiscord, i: &InteractionId) {
    fake.wait("the placeholder to be deleted", WAIT, |w| {
        w.interactions
            .get(&i.id)
            .and_then(|x| x.original)
            .is_some_and(|mid| w.messages.iter().all(|m| m.id != mid))
            .then_some(())
    })
    .await;
}

/// A token Discord refuses ends `run` with an error that says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rejected_token() {
    init_logs();
    let fake = FakeDiscord::start().await;
    fake.set_token_valid(false);
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let result = tokio::time::timeout(WAIT, bot.task)
        .await
        .expect("the bot gives up at once")
        .expect("no panic");
    let error = result
        .expect_err("a rejected token is an error")
        .to_string();
    assert!(error.contains("rejected the bot token"), "{error}");
    assert!(!error.contains(TOKEN), "the token is never printed");
}

/// `/tournament <sub> options…` as Discord sends a subcommand.
fn sub(name: &str, options: Value) -> Value {
    json!([{"type": 1, "name": name, "options": options}])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_threads() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let commands = fake.wait_commands(WAIT).await;
    let ch = CHESS_CHANNEL;
    // Only moderators create.
    let refused = slash(
        &fake,
        &BOB,
        ch,
        "tournament",
        sub("create", json!([opt_str("name", "Cup")])),
    )
    .await;
    assert!(refused.flags_ephemeral(), "{}", refused.content());
    let created = slash(
        &fake,
        &ALICE,
        ch,
        "tournament",
        sub(
            "create",
            json!([opt_str("name", "Cup"), opt_int("rounds", 1)]),
        ),
    )
    .await;
    assert!(!created.flags_ephemeral(), "{}", created.content());
    assert!(created.content().contains("Cup"), "{}", created.content());
    for user in [&ALICE, &BOB] {
        let joined = slash(&fake, user, ch, "tournament", sub("join", json!([]))).await;
        assert!(!joined.flags_ephemeral(), "{}", joined.content());
    }
    let started = slash(&fake, &ALICE, ch, "tournament", sub("start", json!([]))).await;
    assert!(
        started.content().contains("round 1 of 1"),
        "{}",
        started.content()
    );
    // The scheduler opens the game's thread in the channel and posts the
    // first board in it.
    let thread = fake.wait_threads(1, WAIT).await.remove(0);
    assert_eq!(thread.parent_id, ch);
    assert!(thread.name.starts_with("Cup R1: "), "{}", thread.name);
    let board = fake
        .wait_message_in(thread.id, WAIT, |m| !m.files.is_empty())
        .await;
    assert!(board.json["content"]
        .as_str()
        .unwrap_or("")
        .contains("to move"));
    // "Cup R1: alice vs bob": White is named first.
    let (white, black) = if thread.name.ends_with("alice vs bob") {
        (ALICE, BOB)
    } else {
        (BOB, ALICE)
    };
    for (user, mv) in [(&white, "e4"), (&black, "e5")] {
        let moved = slash(&fake, user, thread.id, "move", json!([opt_str("move", mv)])).await;
        assert!(!moved.flags_ephemeral(), "{}", moved.content());
    }
    slash(
        &fake,
        &white,
        thread.id,
        "draw",
        json!([opt_choice(&commands, "draw", "action", "offer")]),
    )
    .await;
    let drawn = slash(
        &fake,
        &black,
        thread.id,
        "draw",
        json!([opt_choice(&commands, "draw", "action", "accept")]),
    )
    .await;
    assert!(!drawn.flags_ephemeral(), "{}", drawn.content());
    // The end: announced in the tournament's channel with the crosstable.
    let over = fake
        .wait_message_in(ch, WAIT, |m| {
            m.json["content"]
                .as_str()
                .unwrap_or("")
                .contains("Cup is over")
        })
        .await;
    assert_eq!(over.files.len(), 1, "the crosstable image");
    let (width, _, _) = decode_png(&over.files[0].bytes);
    assert!(width > 200);
    fake.assert_no_unknown_routes();
    fake.assert_nothing_cut();
    bot.stop().await;
}

/// The descriptions Discord received with a message's attachments
/// (`attachments[].description` of the payload), in upload order.
fn descriptions(payload: &Value) -> Vec<String> {
    payload["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| a["description"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// Every attachment of `payload` is described, within Discord's 1,024
/// characters, and the first description contains each of `expected`.
fn assert_described(payload: &Value, what: &str, expected: &[&str]) {
    let all = descriptions(payload);
    assert!(!all.is_empty(), "{what}: no attachment: {payload}");
    for d in &all {
        assert!(
            !d.is_empty(),
            "{what}: an attachment without a description: {payload}"
        );
        assert!(
            d.chars().count() <= 1024,
            "{what}: {} characters",
            d.chars().count()
        );
    }
    for e in expected {
        assert!(all[0].contains(e), "{what}: {e:?} not in {:?}", all[0]);
    }
}

/// Boards, the replay GIF, the points chart and the crosstable all reach
/// Discord with a description a screen reader reads, in English and in
/// Chinese (the server's language).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_are_described() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let commands = fake.wait_commands(WAIT).await;
    let ch = CHESS_CHANNEL;
    threads_off(&fake, ch).await;
    // A tournament whose crosstable is shown in both languages.
    let created = slash(
        &fake,
        &ALICE,
        ch,
        "tournament",
        sub(
            "create",
            json!([opt_str("name", "Cup"), opt_int("rounds", 1)]),
        ),
    )
    .await;
    assert!(!created.flags_ephemeral(), "{}", created.content());
    for user in [&ALICE, &BOB] {
        slash(&fake, user, ch, "tournament", sub("join", json!([]))).await;
    }
    for (lang, words) in [
        (
            "en",
            [
                "White to move.",
                "Black to move. Last move: f3.",
                "Game over: Black wins by checkmate. Last move: Qh4#.",
                "White: Ke1, Qd1",
                "Replay of game #",
                "Chart of alice's points",
                "Crosstable: ",
            ],
        ),
        (
            "zh-CN",
            [
                "白方走棋。",
                "黑方走棋。上一步：f3。",
                "对局结束：",
                "白方：王e1、后d1",
                "回放",
                "alice的积分走势图",
                "成绩表：",
            ],
        ),
    ] {
        let set = slash(
            &fake,
            &ALICE,
            ch,
            "settings",
            json!([opt_choice(&commands, "settings", "language", lang)]),
        )
        .await;
        assert!(!set.content().is_empty());
        // A rated game, alice (White) against bob: fool's mate.
        let cb = slash(
            &fake,
            &ALICE,
            ch,
            "challenge",
            json!([
                opt_user("opponent", &BOB),
                opt_choice(&commands, "challenge", "color", "White")
            ]),
        )
        .await;
        let msg = cb.message().clone();
        let accept = if lang == "en" { "Accept" } else { "接受" };
        let first = click(&fake, &BOB, ch, &msg, accept).await;
        assert_described(&first.data, "first board", &[words[0], words[3]]);
        let mut last = None;
        for (user, mv) in [(&ALICE, "f3"), (&BOB, "e5"), (&ALICE, "g4"), (&BOB, "Qh4#")] {
            let moved = slash(&fake, user, ch, "move", json!([opt_str("move", mv)])).await;
            if mv == "f3" {
                assert_described(&moved.data, "board after f3", &[words[1]]);
            }
            last = Some(moved);
        }
        let mate = last.expect("moves made");
        assert_described(&mate.data, "final board", &[words[2]]);
        let replay = slash(&fake, &ALICE, ch, "replay", json!([])).await;
        assert!(replay.attachments()[0].0.ends_with(".gif"));
        assert_described(&replay.data, "replay GIF", &[words[4]]);
        let profile = slash(&fake, &ALICE, ch, "profile", json!([])).await;
        assert_described(&profile.data, "points chart", &[words[5]]);
        if lang == "en" {
            let started = slash(&fake, &ALICE, ch, "tournament", sub("start", json!([]))).await;
            assert!(!started.flags_ephemeral(), "{}", started.content());
        }
        let standings = slash(&fake, &ALICE, ch, "tournament", sub("standings", json!([]))).await;
        assert_described(&standings.data, "crosstable", &[words[6]]);
    }
    fake.assert_no_unknown_routes();
    bot.stop().await;
}

/// `/show`: a FEN drawn with its opening named, a pasted PGN and an
/// attached `.pgn` file replayed as GIFs; a bad FEN or PGN answered
/// privately with the field or move at fault; in English and Chinese.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn show_any_position_or_game() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let commands = fake.wait_commands(WAIT).await;
    let ch = CHESS_CHANNEL;
    let italian = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    let shown = slash(&fake, &ALICE, ch, "show", json!([opt_str("fen", italian)])).await;
    let (embed, png) = board_of(&shown);
    assert_eq!(field(&embed, "Opening"), "C50 Italian Game");
    let (width, _, _) = decode_png(&png);
    assert!(width >= 400, "{width}");
    assert_described(
        &shown.data,
        "shown FEN",
        &["Black to move.", "White: Ke1, Qd1"],
    );
    let bad = slash(
        &fake,
        &ALICE,
        ch,
        "show",
        json!([opt_str(
            "fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"
        )]),
    )
    .await;
    assert!(bad.flags_ephemeral(), "{}", bad.content());
    assert!(
        bad.content().contains("field 2 of the FEN, `x`"),
        "{}",
        bad.content()
    );
    let pasted = slash(
        &fake,
        &ALICE,
        ch,
        "show",
        json!([opt_str("pgn", "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4")]),
    )
    .await;
    assert!(!pasted.flags_ephemeral(), "{}", pasted.content());
    assert!(
        pasted.content().contains("E20 Nimzo-Indian Defense"),
        "{}",
        pasted.content()
    );
    assert!(pasted.attachments()[0].1.starts_with(b"GIF8"));
    assert_described(&pasted.data, "pasted GIF", &["Replay of the pasted game"]);
    let illegal = slash(
        &fake,
        &ALICE,
        ch,
        "show",
        json!([opt_str("pgn", "1. e4 e5 2. Nf3 Nc6 3. Ke3")]),
    )
    .await;
    assert!(illegal.flags_ephemeral());
    assert!(
        illegal.content().contains("Move 3. Ke3"),
        "{}",
        illegal.content()
    );
    let file = fake.upload(
        "game.pgn",
        b"[White \"Anna\"]\n[Black \"Ben\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n",
    );
    let attached = slash(
        &fake,
        &BOB,
        ch,
        "show",
        json!([opt_attachment("file", &file)]),
    )
    .await;
    assert!(!attached.flags_ephemeral(), "{}", attached.content());
    assert!(
        attached.content().contains("Anna (White) vs Ben (Black)"),
        "{}",
        attached.content()
    );
    assert!(
        attached
            .content()
            .contains("B90 Sicilian Defense: Najdorf Variation"),
        "{}",
        attached.content()
    );
    // In Chinese (the server's language): the family's Chinese name.
    slash(
        &fake,
        &ALICE,
        ch,
        "settings",
        json!([opt_choice(&commands, "settings", "language", "zh-CN")]),
    )
    .await;
    let zh = slash(
        &fake,
        &BOB,
        ch,
        "show",
        json!([opt_attachment("file", &file)]),
    )
    .await;
    assert!(
        zh.content().contains("B90 西西里防御：Najdorf Variation"),
        "{}",
        zh.content()
    );
    assert_described(&zh.data, "pasted GIF in Chinese", &["粘贴的对局回放"]);
    let zh_fen = slash(&fake, &ALICE, ch, "show", json!([opt_str("fen", italian)])).await;
    assert_described(&zh_fen.data, "shown FEN in Chinese", &["黑方走棋。"]);
    // Nothing was stored: no game exists.
    let games = slash(&fake, &ALICE, ch, "games", json!([])).await;
    assert!(games.flags_ephemeral());
    fake.assert_no_unknown_routes();
    bot.stop().await;
}

/// Adjourned games on Discord (issue 29): `/adjourn now` by a moderator
/// posts the adjournment with a Seal move button; the button opens a form;
/// the sealer's form seals the move, answered only to them; anyone else's
/// is refused, privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seal_button_opens_a_form_only_the_sealer_can_use() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let commands = fake.wait_commands(WAIT).await;
    let ch = CHESS_CHANNEL;
    threads_off(&fake, ch).await;
    let cb = slash(
        &fake,
        &ALICE,
        ch,
        "challenge",
        json!([
            opt_user("opponent", &CAROL),
            opt_choice(&commands, "challenge", "color", "White"),
            opt_bool("rated", false),
            opt_str("time", "40/9000:16/3600")
        ]),
    )
    .await;
    let msg = cb.message().clone();
    click(&fake, &CAROL, ch, &msg, "Accept").await;
    // A live clock starts once each side has moved: until then the card's
    // deadline is the first move's, and says so.
    for (user, mv, label) in [(&ALICE, "e4", "First move due"), (&CAROL, "e5", "Deadline")] {
        let moved = slash(&fake, user, ch, "move", json!([opt_str("move", mv)])).await;
        assert!(!moved.flags_ephemeral(), "{}", moved.content());
        let (embed, _) = board_of(&moved);
        assert!(field(&embed, label).starts_with("<t:"), "{embed}");
    }
    // carol is no moderator: the arbiter's verb is refused.
    let refused = slash(&fake, &CAROL, ch, "adjourn", sub("now", json!([]))).await;
    assert!(refused.flags_ephemeral(), "{}", refused.content());
    let adjourned = slash(&fake, &ALICE, ch, "adjourn", sub("now", json!([]))).await;
    assert!(
        adjourned.content().contains("adjourns the game"),
        "{}",
        adjourned.content()
    );
    let announcement = adjourned.message().clone();
    // The button opens the form (a MODAL callback), for anyone who presses.
    let id = button_id(&announcement, "Seal move");
    let pressed = fake.click_button(&ALICE, ch, &announcement, &id).await;
    let form = fake.wait_callback(&pressed, WAIT).await;
    assert_eq!(form.kind, 9, "a modal: {:?}", form.data);
    assert_eq!(form.data["custom_id"], "seal-form");
    // carol's form is refused privately; alice's seals, only she is told.
    let theirs = fake
        .submit_form(&CAROL, ch, "seal-form", &[("move", "Nc6")])
        .await;
    let theirs = fake.wait_callback(&theirs, WAIT).await;
    assert!(theirs.flags_ephemeral(), "{}", theirs.content());
    assert!(theirs.content().contains("not you"), "{}", theirs.content());
    let mine = fake
        .submit_form(&ALICE, ch, "seal-form", &[("move", "Nf3")])
        .await;
    let mine = fake.wait_callback(&mine, WAIT).await;
    assert!(mine.flags_ephemeral(), "{}", mine.content());
    assert!(
        mine.content().contains("You sealed Nf3"),
        "{}",
        mine.content()
    );
    // Nothing public shows the sealed move.
    for m in fake.messages_in(ch) {
        if m.json["flags"].as_u64().unwrap_or(0) & 64 == 0 {
            assert!(
                !m.json.to_string().contains("Nf3"),
                "a public message shows the sealed move: {}",
                m.json
            );
        }
    }
    fake.assert_no_unknown_routes();
    bot.stop().await;
}

/// A Chess960 challenge made with `/challenge`'s new options: `variant`
/// offers lichess's keys (named in Chinese for zh-CN clients), `position`
/// takes 0–959; the challenge shows its start, the board names it, and a
/// number outside 0–959 is refused privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess960_challenge_with_the_new_options() {
    init_logs();
    let fake = FakeDiscord::start().await;
    let (_dir, db) = temp_db();
    let bot = Bot::start(&fake, &db, None);
    let commands = fake.wait_commands(WAIT).await;
    let challenge = command(&commands, "challenge");
    let variant = option(challenge, "variant");
    assert_eq!(
        choice_names(variant),
        [
            "standard",
            "chess960",
            "crazyhouse",
            "atomic",
            "antichess",
            "kingofthehill",
            "threecheck",
            "horde",
            "racingkings"
        ]
    );
    let zh: Vec<&str> = variant["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name_localizations"]["zh-CN"].as_str())
        .collect();
    assert_eq!(
        zh,
        [
            "标准国际象棋",
            "960国际象棋",
            "疯狂屋",
            "原子棋",
            "反国际象棋",
            "山丘之王",
            "三次将军",
            "部落",
            "王者竞速"
        ]
    );
    assert_eq!(variant["name_localizations"]["zh-CN"], "变体");
    let position = option(challenge, "position");
    assert_eq!(position["type"], json!(4), "an integer");
    assert_eq!(
        (
            position["min_value"].as_f64(),
            position["max_value"].as_f64()
        ),
        (Some(0.0), Some(959.0))
    );
    assert_eq!(position["name_localizations"]["zh-CN"], "起始局面");
    assert_eq!(
        choice_names(option(command(&commands, "leaderboard"), "variant")),
        choice_names(variant)
    );
    threads_off(&fake, CHESS_CHANNEL).await;
    let chess960 = opt_choice(&commands, "challenge", "variant", "chess960");
    let white = opt_choice(&commands, "challenge", "color", "White");
    // Discord bounds the number, but a client may not: the bot refuses too.
    let bad = slash(
        &fake,
        &ALICE,
        CHESS_CHANNEL,
        "challenge",
        json!([
            opt_user("opponent", &BOB),
            chess960.clone(),
            opt_int("position", 960)
        ]),
    )
    .await;
    assert!(bad.flags_ephemeral(), "{}", bad.content());
    assert!(bad.content().contains("0 to 959"), "{}", bad.content());
    let cb = slash(
        &fake,
        &ALICE,
        CHESS_CHANNEL,
        "challenge",
        json!([
            opt_user("opponent", &BOB),
            white,
            chess960,
            opt_int("position", 12)
        ]),
    )
    .await;
    assert!(!cb.flags_ephemeral(), "{}", cb.content());
    assert!(
        cb.content()
            .contains("Variant: Chess960, start position 12."),
        "{}",
        cb.content()
    );
    assert_eq!(cb.attachments().len(), 1, "the start position's image");
    let msg = cb.message().clone();
    let cb = click(&fake, &BOB, CHESS_CHANNEL, &msg, "Accept").await;
    let (embed, _) = board_of(&cb);
    assert_eq!(field(&embed, "Variant"), "Chess960, start position 12");
    assert_eq!(
        field(&embed, "FEN"),
        "qbnnrkbr/pppppppp/8/8/8/8/PPPPPPPP/QBNNRKBR w KQkq - 0 1"
    );
    let moved = slash(
        &fake,
        &ALICE,
        CHESS_CHANNEL,
        "move",
        json!([opt_str("move", "f3")]),
    )
    .await;
    assert!(!moved.flags_ephemeral(), "{}", moved.content());
    bot.stop().await;
}
