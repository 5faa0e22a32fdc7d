//! The console front end: every feature of the bot driven by typed lines,
//! without Discord. It is the offline demo and the test harness of the
//! transcript suite. All users are members of one server; the named users
//! are its moderators; time is simulated (`:advance`), and `:restart` drops
//! all in-memory state and reopens the database, as a bot restart would.
//!
//! Languages: `--locale zh-CN` gives every user that client locale and the
//! server that Discord locale (so replies and public messages are Chinese);
//! `:locale alice en-US` changes one user's client locale, as a person
//! switching their Discord client's language would.
//!
//! Output lines: `[#chan] bot: text`, `[#chan] bot → alice (only you): text`
//! for ephemeral replies, and `[#chan] bot: <path>` for images written under
//! the output folder (`[image NAME]` when there is none).

pub mod parse;

use std::{
    io::{self, BufRead, Write},
    path::PathBuf,
    sync::Arc,
};

use parse::{parse_line, to_command, Line};

use crate::{
    clock::{parse_duration, Clock, DurationError, ManualClock},
    engine::Engine,
    i18n::{Lang, Msg},
    msg,
    render::Renderer,
    service::{Actor, Button, ButtonStyle, Command, Reply, Service},
    store::Store,
    t,
};

/// The server every console user belongs to.
pub const SERVER: &str = "console";
/// The channel the console starts in.
pub const FIRST_CHANNEL: &str = "chess";
/// Where simulated time starts: 2026-01-01 12:00 UTC.
pub const START_MS: i64 = 1_767_268_800_000;

/// How to run a console.
#[derive(Clone)]
pub struct ConsoleOptions {
    pub database_url: String,
    /// Folder for board images; `None` prints their names only.
    pub out_dir: Option<PathBuf>,
    pub moderators: Vec<String>,
    /// Print each input line (as `> line`) before its output, as the
    /// transcripts hold them.
    pub echo: bool,
    pub renderer: Arc<Renderer>,
    /// The client locale of every user and the server's locale (`zh-CN`);
    /// `None`: no locale, English.
    pub locale: Option<String>,
    /// Draws by lot from this seed (reproducible transcripts); `None`:
    /// from entropy.
    pub seed: Option<u64>,
    /// Serve the live web board here (`127.0.0.1:8080`): the console then
    /// runs in real time and prints each new game's links.
    pub web: Option<std::net::SocketAddr>,
}

/// A message the bot posted, remembered so its buttons can be clicked.
struct Posted {
    channel: String,
    /// `Some(user)` for an ephemeral message only that user sees.
    visible_to: Option<String>,
    buttons: Vec<Button>,
}

/// A running console session.
pub struct Console {
    options: ConsoleOptions,
    /// The engine (kept across `:restart`, as the process would keep it).
    engine: Option<Arc<Engine>>,
    clock: ManualClock,
    service: Service,
    channel: String,
    posted: Vec<Posted>,
    channels: Vec<String>,
    /// Keys of the messages the bot keeps editing that were shown already.
    edited: std::collections::HashSet<String>,
    /// Users whose client locale `:locale` changed.
    locales: std::collections::HashMap<String, Option<String>>,
    /// Every reply printed, when asked for ([`Console::keep_replies`]).
    kept: Option<Vec<Reply>>,
    /// Games whose web links were printed (or are about to be: `to_link`).
    linked: std::collections::HashSet<i64>,
    to_link: Vec<i64>,
}

impl Console {
    /// `:puzzles FILE`: reads a puzzle file (the starter set's format) and
    /// adds its puzzles to the console server's pool; how many were new.
    async fn load_puzzles(&self, file: &str) -> Result<usize, String> {
        let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
        let found = crate::puzzle::starter::read(&text)?;
        let name = std::path::Path::new(file)
            .file_name()
            .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned());
        let puzzles: Vec<crate::store::NewPuzzle> = found
            .iter()
            .map(|f| crate::store::NewPuzzle::found(f, &format!("import:{name}")))
            .collect();
        self.service
            .store()
            .add_puzzles(SERVER, &puzzles, self.clock.now_ms())
            .await
            .map_err(|e| e.to_string())
    }

    pub async fn new(options: ConsoleOptions) -> anyhow::Result<Console> {
        Console::with_engine(options, None).await
    }

    /// A console whose bot has an engine (to play the computer and analyse
    /// games). Work the engine does in the background is waited for after
    /// each line, so its messages follow the line that caused them.
    pub async fn with_engine(
        options: ConsoleOptions,
        engine: Option<Arc<Engine>>,
    ) -> anyhow::Result<Console> {
        let clock = match options.web {
            // Live clocks tick for real on the web board.
            Some(_) => follow_real_time(),
            None => ManualClock::new(START_MS),
        };
        let service = Console::start_service(&options, &clock, engine.clone()).await?;
        if let Some(addr) = options.web {
            let secret = crate::platform::web::secret(&service, None).await?;
            let public_url = crate::platform::web::default_public_url(addr);
            let links = crate::service::links::WebLinks::new(&public_url, &secret);
            let options = crate::platform::web::WebOptions {
                links,
                activity: None,
            };
            let (bound, _task) =
                crate::platform::web::start(service.clone(), addr, options).await?;
            eprintln!("[console] web board at http://{bound}");
        }
        service.startup().await;
        if let Some(dir) = &options.out_dir {
            std::fs::create_dir_all(dir)?;
        }
        Ok(Console {
            options,
            engine,
            clock,
            service,
            channel: FIRST_CHANNEL.to_owned(),
            posted: Vec::new(),
            channels: vec![FIRST_CHANNEL.to_owned()],
            edited: Default::default(),
            locales: std::collections::HashMap::new(),
            kept: None,
            linked: Default::default(),
            to_link: Vec::new(),
        })
    }

    async fn start_service(
        options: &ConsoleOptions,
        clock: &ManualClock,
        engine: Option<Arc<Engine>>,
    ) -> anyhow::Result<Service> {
        let store = Store::open(&options.database_url).await?;
        let clock: Arc<dyn Clock> = Arc::new(clock.clone());
        let service = Service::new(store, options.renderer.clone(), clock);
        if let Some(seed) = options.seed {
            service.seed_lots(seed);
        }
        if let Some(engine) = engine {
            service.attach_engine(engine);
        }
        Ok(service)
    }

    /// From now on, keep every reply printed, for [`Console::take_replies`]
    /// (tests hold every reply of a session to Discord's limits).
    pub fn keep_replies(&mut self) {
        self.kept.get_or_insert_with(Vec::new);
    }

    /// The replies kept since the last call.
    pub fn take_replies(&mut self) -> Vec<Reply> {
        self.kept.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub fn service(&self) -> &Service {
        &self.service
    }

    /// Reads lines until the input ends.
    pub async fn run(
        &mut self,
        mut input: impl BufRead,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                break;
            }
            // A line that is not UTF-8 (a terminal in another encoding, a
            // binary pasted by mistake) is read with U+FFFD in place of
            // what cannot be decoded and answered like any other line:
            // one bad line must not end the session.
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim_end_matches(['\n', '\r']);
            self.run_line(line, out).await?;
        }
        self.service.store().close().await;
        Ok(())
    }

    /// Runs one input line and prints what the bot answers, then what its
    /// background work (the computer's moves, analyses) posts as a result.
    pub async fn run_line(&mut self, line: &str, out: &mut impl Write) -> anyhow::Result<()> {
        self.run_one(line, out).await?;
        self.settle(out).await?;
        self.print_web_links(out).await
    }

    /// Waits for the background work the last step started and prints
    /// what it posts, until it is all done.
    async fn settle(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        loop {
            self.service.background_idle().await;
            let notices = self.service.take_notices();
            if notices.is_empty() {
                return Ok(());
            }
            self.post_notices(&notices, out).await?;
        }
    }

    async fn run_one(&mut self, line: &str, out: &mut impl Write) -> anyhow::Result<()> {
        if self.options.echo && !line.trim().is_empty() {
            writeln!(out, "> {}", line.trim_end())?;
        }
        // The console's own words (a line it cannot read, what a directive
        // did) are in the server's language; answers to a user's line in
        // that user's.
        let lang = self.lang();
        let parsed = match parse_line(line) {
            Ok(parsed) => parsed,
            Err(e) => {
                writeln!(out, "[console] {}", e.text(lang))?;
                return Ok(());
            }
        };
        match parsed {
            Line::Nothing => {}
            Line::Locale { user, locale } => {
                let shown = match &locale {
                    Some(locale) => locale.clone(),
                    None => t!(lang, "console-locale-none"),
                };
                writeln!(
                    out,
                    "[console] {}",
                    t!(lang, "console-locale-set", user = &user, locale = shown)
                )?;
                self.locales.insert(user, locale);
            }
            Line::Channel(name) => {
                if !self.channels.contains(&name) {
                    self.channels.push(name.clone());
                }
                self.channel = name;
            }
            Line::Advance(text) => match parse_duration(&text) {
                Ok(by) => {
                    writeln!(
                        out,
                        "[console] {}",
                        t!(lang, "console-time-advances", by = &text)
                    )?;
                    self.advance(by, out).await?;
                }
                Err(e) => writeln!(out, "[console] {}", duration_error(&e).text(lang))?,
            },
            Line::Puzzles(file) => {
                let said = match self.load_puzzles(&file).await {
                    Ok(added) => t!(lang, "console-puzzles-added", count = added, file = &file),
                    Err(problem) => {
                        t!(lang, "console-puzzles-bad", file = &file, problem = problem)
                    }
                };
                writeln!(out, "[console] {said}")?;
            }
            Line::Restart(down) => {
                self.service.store().close().await;
                if let Some(text) = down {
                    match parse_duration(&text) {
                        Ok(by) => {
                            self.clock.advance(by);
                            writeln!(
                                out,
                                "[console] {}",
                                t!(lang, "console-was-down", by = &text)
                            )?;
                        }
                        Err(e) => writeln!(out, "[console] {}", duration_error(&e).text(lang))?,
                    }
                }
                // The old bot's background work ends with it.
                self.service.background_idle().await;
                self.service =
                    Console::start_service(&self.options, &self.clock, self.engine.clone()).await?;
                writeln!(out, "[console] {}", t!(lang, "console-restarted"))?;
                let notices = self.service.startup().await;
                self.post_notices(&notices, out).await?;
            }
            Line::Slash {
                user,
                command,
                mut args,
            } => match read_file_option(&command, &mut args)
                .and_then(|()| to_command(&command, &args))
            {
                Ok(command) => self.send(&user, command, out).await?,
                Err(e) => {
                    let channel = self.channel.clone();
                    let lang = self.user_lang(&user);
                    print_private(out, lang, &channel, &user, &e.text(lang))?;
                }
            },
            Line::Click { user, label } => {
                let lang = self.user_lang(&user);
                let said = match self.find_button(&user, &label) {
                    // A link button opens its address in the browser on
                    // Discord: here it says the address, and the bot hears
                    // nothing.
                    Some(button) if button.style == ButtonStyle::Link => {
                        t!(lang, "console-link-button", url = &button.id)
                    }
                    Some(button) => {
                        return self
                            .send(&user, Command::Button { id: button.id }, out)
                            .await;
                    }
                    None => t!(lang, "console-no-button", label = &label),
                };
                let channel = self.channel.clone();
                print_private(out, lang, &channel, &user, &said)?;
            }
        }
        Ok(())
    }

    /// Moves the simulated clock forward, stopping at every deadline and
    /// reminder on the way so they fire at their own time, as they would
    /// with the real clock.
    async fn advance(
        &mut self,
        by: std::time::Duration,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        let by_ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        let target = self.clock.now_ms().saturating_add(by_ms);
        // Each step fires at least one event; the bound only guards against
        // an event that keeps coming back.
        for _ in 0..10_000 {
            match self.service.next_event_ms().await {
                Some(at) if at <= target => self.clock.set(at.max(self.clock.now_ms())),
                _ => break,
            }
            let notices = self.service.tick().await;
            self.post_notices(&notices, out).await?;
            // What the event set off in the background (a tournament's
            // next round after a forfeit) happens at the event's time too,
            // before the clock moves on.
            self.settle(out).await?;
        }
        self.clock.set(target);
        let notices = self.service.tick().await;
        self.post_notices(&notices, out).await?;
        self.settle(out).await
    }

    /// Reads lines as they come while the bot works in real time: what
    /// background work and the web board post is printed at once, and the
    /// scheduler ticks every second (time losses, reminders).
    pub async fn run_live(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        let (lines, mut incoming) = tokio::sync::mpsc::channel::<String>(16);
        std::thread::spawn(move || {
            for line in std::io::stdin().lines() {
                let Ok(line) = line else { break };
                if lines.blocking_send(line).is_err() {
                    break;
                }
            }
        });
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            tokio::select! {
                line = incoming.recv() => match line {
                    Some(line) => self.run_line(&line, out).await?,
                    None => break,
                },
                () = self.service.notices_ready() => {
                    let notices = self.service.take_notices();
                    self.post_notices(&notices, out).await?;
                }
                _ = tick.tick() => {
                    let notices = self.service.tick().await;
                    self.post_notices(&notices, out).await?;
                }
            }
            self.print_web_links(out).await?;
            out.flush()?;
        }
        self.service.store().close().await;
        Ok(())
    }

    /// Notes the games of boards shown with a Play in browser button (the
    /// web board is on) whose links were not printed yet.
    fn note_web_links(&mut self, buttons: &[Button]) {
        use crate::service::buttons::{ButtonAction, GameButton};
        for button in buttons {
            if let Some(ButtonAction::Game {
                id,
                action: GameButton::Browser,
                ..
            }) = ButtonAction::parse(&button.id)
                && self.linked.insert(id)
            {
                self.to_link.push(id);
            }
        }
    }

    /// With the web board on: each new game's two players' links and its
    /// spectators' page.
    async fn print_web_links(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        let Some(links) = self.service.web_links().cloned() else {
            return Ok(());
        };
        for id in std::mem::take(&mut self.to_link) {
            let Some(game) = self.service.store().game(id).await? else {
                continue;
            };
            let expires = self.service.now_ms() + crate::service::links::LINK_VALID_MS;
            for user in [&game.game.white_id, &game.game.black_id] {
                let url = links.play_url(id, user, expires);
                writeln!(out, "[web] {user}: {url}")?;
            }
            writeln!(out, "[web] {}", links.watch_url(id))?;
        }
        Ok(())
    }

    async fn post_notices(
        &mut self,
        notices: &[crate::service::Notice],
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        for notice in notices {
            match (&notice.channel, &notice.dm_user) {
                (_, Some(user)) => {
                    for line in notice.reply.text.lines() {
                        writeln!(out, "[dm → {user}] bot: {line}")?;
                    }
                }
                (Some(channel), None) => {
                    let channel = channel.clone();
                    let lang = self.service.server_lang(SERVER).await;
                    let reply = &notice.reply;
                    // A thread request alone (a tournament game's) posts
                    // nothing in the channel but the thread.
                    let bare =
                        reply.text.is_empty() && reply.card.is_none() && reply.image.is_none();
                    if !bare {
                        self.print(lang, &channel, "", reply, out)?;
                    }
                    if let Some(thread) = &reply.open_thread {
                        self.open_thread(lang, &channel, "", thread, out).await?;
                    }
                }
                (None, None) => {}
            }
        }
        Ok(())
    }

    /// The console's own language: the server's (`--locale`).
    fn lang(&self) -> Lang {
        Lang::from_locale(self.options.locale.as_deref())
    }

    /// The language of `user`'s client (`:locale`, else `--locale`).
    fn user_lang(&self, user: &str) -> Lang {
        Lang::from_locale(self.actor(user).locale.as_deref())
    }

    fn actor(&self, user: &str) -> Actor {
        Actor {
            server: SERVER.to_owned(),
            channel: self.channel.clone(),
            user: user.to_owned(),
            name: user.to_owned(),
            locale: match self.locales.get(user) {
                Some(chosen) => chosen.clone(),
                None => self.options.locale.clone(),
            },
            server_locale: self.options.locale.clone(),
            is_moderator: self.options.moderators.iter().any(|m| m == user),
        }
    }

    async fn send(
        &mut self,
        user: &str,
        command: Command,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        let actor = self.actor(user);
        let reply = self.service.handle(&actor, command).await;
        let channel = self.channel.clone();
        // The words around a reply (field labels' colon, the marks) are in
        // the reply's language: the asker's for a private one, the
        // server's (its `/settings language`) for a public one.
        let public = self.service.server_lang(SERVER).await;
        self.print(public, &channel, user, &reply, out)?;
        if let Some(thread) = &reply.open_thread {
            self.open_thread(public, &channel, user, thread, out)
                .await?;
        }
        Ok(())
    }

    /// Opens the thread a new game asked for in `parent` (as Discord
    /// would) and posts the game's first board there.
    async fn open_thread(
        &mut self,
        public: Lang,
        parent: &str,
        user: &str,
        thread: &crate::service::OpenThread,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        let name = self.new_channel_name(&thread.name);
        writeln!(
            out,
            "[#{parent}] bot: {}",
            t!(public, "console-thread-opened", name = &name)
        )?;
        let board = self.service.thread_opened(thread.game_id, &name).await;
        self.print(public, &name, user, &board, out)
    }

    fn new_channel_name(&mut self, title: &str) -> String {
        let slug: String = title
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '-' })
            .collect();
        let slug = slug
            .split('-')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let mut name = slug.clone();
        let mut n = 2;
        while self.channels.contains(&name) {
            name = format!("{slug}-{n}");
            n += 1;
        }
        self.channels.push(name.clone());
        name
    }

    /// The newest button with this label that `user` can see here.
    fn find_button(&self, user: &str, label: &str) -> Option<Button> {
        self.posted
            .iter()
            .rev()
            .filter(|p| p.channel == self.channel)
            .filter(|p| p.visible_to.as_deref().is_none_or(|u| u == user))
            .find_map(|p| {
                p.buttons
                    .iter()
                    .find(|b| b.label.eq_ignore_ascii_case(label))
                    .cloned()
            })
    }

    /// Prints a reply; `public` is the language of the server's public
    /// messages.
    fn print(
        &mut self,
        public: Lang,
        channel: &str,
        user: &str,
        reply: &Reply,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        if let Some(kept) = &mut self.kept {
            kept.push(reply.clone());
        }
        // The console's own words (the deadline line, the marks) follow the
        // reply's language: the reader's for a private reply, as Discord
        // says "only you can see this" in the client's language.
        let lang = if reply.ephemeral {
            self.user_lang(user)
        } else {
            public
        };
        let prefix = if reply.ephemeral {
            private_prefix(self.user_lang(user), channel, user)
        } else if reply
            .edits
            .as_ref()
            .is_some_and(|key| !self.edited.insert(key.clone()))
        {
            // A message the bot keeps editing (progress): each edit after
            // the first is shown as lines of its own, marked.
            format!("[#{channel}] bot{}:", t!(lang, "console-edit"))
        } else {
            format!("[#{channel}] bot:")
        };
        let mentions: String = reply.mentions.iter().map(|m| format!("@{m} ")).collect();
        let text = channel_links(&reply.text);
        let mut lines = text.lines();
        if let Some(first) = lines.next() {
            writeln!(out, "{prefix} {mentions}{first}")?;
        }
        for line in lines {
            writeln!(out, "{prefix} {line}")?;
        }
        if let Some(card) = &reply.card {
            writeln!(out, "{prefix}   {}", card.title)?;
            for (name, value) in &card.fields {
                let mut lines = value.lines();
                let first = lines.next().unwrap_or("");
                writeln!(
                    out,
                    "{prefix}   {}",
                    t!(lang, "console-field", name = name.as_str(), value = first)
                )?;
                for line in lines {
                    writeln!(out, "{prefix}     {line}")?;
                }
            }
            if let Some(deadline) = card.deadline_ms {
                let when = relative(lang, deadline - self.clock.now_ms());
                // Under the card's own label where it has one (a live game's
                // first move, a tournament's start), as Discord shows it.
                let line = match card.deadline_label.as_deref() {
                    Some(label) => t!(lang, "console-field", name = label, value = when.as_str()),
                    None => t!(lang, "console-deadline", when = when),
                };
                writeln!(out, "{prefix}   {line}")?;
            }
            if let Some(footer) = &card.footer {
                writeln!(out, "{prefix}   {footer}")?;
            }
        }
        if let Some(image) = &reply.image {
            match &self.options.out_dir {
                Some(dir) => {
                    let path = dir.join(&image.file_name);
                    std::fs::write(&path, &image.png)?;
                    writeln!(out, "{prefix} {}", path.display())?;
                }
                None => writeln!(out, "{prefix} [image {}]", image.file_name)?,
            }
            // What a screen reader reads on Discord (the attachment's
            // description), so transcripts check it too.
            if !image.description.is_empty() {
                let alt = t!(lang, "console-image-alt", text = image.description.as_str());
                writeln!(out, "{prefix}   {alt}")?;
            }
        }
        for file in &reply.files {
            match &self.options.out_dir {
                Some(dir) => {
                    let path = dir.join(&file.file_name);
                    std::fs::write(&path, &file.bytes)?;
                    writeln!(out, "{prefix} {}", path.display())?;
                }
                None => writeln!(out, "{prefix} [file {}]", file.file_name)?,
            }
        }
        if !reply.buttons.is_empty() {
            let labels: Vec<String> = reply
                .buttons
                .iter()
                .map(|b| match b.style {
                    // What a link button opens, so it can be followed.
                    ButtonStyle::Link => format!("[{} → {}]", b.label, b.id),
                    _ => format!("[{}]", b.label),
                })
                .collect();
            writeln!(out, "{prefix} {}", labels.join(" "))?;
            self.note_web_links(&reply.buttons);
            self.posted.push(Posted {
                channel: channel.to_owned(),
                visible_to: reply.ephemeral.then(|| user.to_owned()),
                buttons: reply.buttons.clone(),
            });
        }
        Ok(())
    }
}

/// A clock that starts now and keeps up with the real one (`:wait` may
/// still move it ahead).
fn follow_real_time() -> ManualClock {
    let now = || crate::clock::SystemClock.now_ms();
    let clock = ManualClock::new(now());
    let follower = clock.clone();
    tokio::spawn(async move {
        let mut step = tokio::time::interval(std::time::Duration::from_millis(20));
        loop {
            step.tick().await;
            let real = now();
            if real > follower.now_ms() {
                follower.set(real);
            }
        }
    });
    clock
}

/// The service writes a channel as `<#id>` (a link on Discord); here a
/// channel's id is its name, shown as `#name`.
fn channel_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<#") {
        let after = &rest[start + 2..];
        match after.find('>') {
            Some(end) if !after[..end].contains(char::is_whitespace) => {
                out.push_str(&rest[..start]);
                out.push('#');
                out.push_str(&after[..end]);
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str(&rest[..start + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn print_private(
    out: &mut impl Write,
    lang: Lang,
    channel: &str,
    user: &str,
    text: &str,
) -> io::Result<()> {
    writeln!(out, "{} {text}", private_prefix(lang, channel, user))
}

/// `[#chan] bot → alice (only you):`, as Discord marks a private answer.
/// `/show file:PATH` and `/analyze file:PATH`: the console's attached
/// file. Its text becomes the `pgn:` option, as the Discord adapter
/// downloads an attachment; a file too large or not text is refused before
/// the service sees it.
fn read_file_option(command: &str, args: &mut [parse::Arg]) -> Result<(), crate::i18n::Msg> {
    if command != "show" && command != "analyze" {
        return Ok(());
    }
    let Some(arg) = args.iter_mut().find(|a| a.name.as_deref() == Some("file")) else {
        return Ok(());
    };
    let max = crate::service::MAX_SHOW_PGN_BYTES;
    let size = std::fs::metadata(&arg.value)
        .map(|m| m.len())
        .map_err(|e| {
            crate::msg!(
                "console-file-unreadable",
                path = arg.value.as_str(),
                reason = e.to_string()
            )
        })?;
    if size > max as u64 {
        return Err(crate::msg!("show-pgn-too-large", bytes = size, max = max));
    }
    let bytes = std::fs::read(&arg.value).map_err(|e| {
        crate::msg!(
            "console-file-unreadable",
            path = arg.value.as_str(),
            reason = e.to_string()
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|_| crate::msg!("show-pgn-not-text"))?;
    arg.name = Some("pgn".to_owned());
    arg.value = text;
    Ok(())
}

fn private_prefix(lang: Lang, channel: &str, user: &str) -> String {
    format!("[#{channel}] bot → {user}{}:", t!(lang, "console-only-you"))
}

/// Why `:advance` / `:restart` cannot read a duration, in words of the
/// catalogues (the clock core's own errors are English, for the config).
fn duration_error(e: &DurationError) -> Msg {
    match e {
        DurationError::Empty => msg!("console-duration-empty"),
        DurationError::TooLong(count) => msg!("console-duration-too-long", count = *count),
        DurationError::Invalid(text) => msg!("console-duration-invalid", text = text),
        DurationError::Overflow(text) => msg!("console-duration-overflow", text = text),
    }
}

/// "in 2 d 23 h" / "in 59 min" / "passed" (`2天23小时后`, `已过`).
fn relative(lang: Lang, ms: i64) -> String {
    if ms <= 0 {
        return t!(lang, "console-deadline-passed");
    }
    t!(
        lang,
        "console-deadline-in",
        left = crate::clock::human_left_in(lang, ms)
    )
}

#[cfg(test)]
mod link_tests {
    #[test]
    fn channel_links_read_as_names() {
        assert_eq!(
            super::channel_links("#3 in <#alice-vs-bob>: your move"),
            "#3 in #alice-vs-bob: your move"
        );
        assert_eq!(super::channel_links("a <# b> c <#"), "a <# b> c <#");
    }
}
