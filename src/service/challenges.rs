//! Challenges: issue one (to a player or open to anyone), accept it (which
//! starts the game, in a thread of its own when the server wants threads),
//! decline it, or cancel it. Expired challenges cannot be accepted.

use rand::Rng;

use super::{
    buttons::{ButtonAction, ChallengeButton},
    error::{check_length, refuse, refuse_msg, ServiceError},
    Actor, Button, ButtonStyle, ChallengeOptions, ColorChoice, OpenThread, Reply, Service, UserRef,
};
use crate::{
    i18n::{join_sentences, Lang},
    msg,
    store::{ChallengeRecord, ChallengeStatus, NewChallenge, NewGame, StoreError},
    t,
};

const DAY_MS: i64 = 24 * 3600 * 1000;

impl Service {
    pub(super) async fn challenge(
        &self,
        actor: &Actor,
        opponent: Option<UserRef>,
        color: ColorChoice,
        options: ChallengeOptions,
    ) -> Result<Reply, ServiceError> {
        let ChallengeOptions {
            rated,
            time,
            fen,
            variant,
            position,
        } = options;
        // A challenge to the computer is a game against it.
        if let Some(level) = opponent
            .as_ref()
            .and_then(|o| crate::engine::Level::of_player(&o.id))
        {
            let options = ChallengeOptions {
                time,
                variant,
                position,
                ..ChallengeOptions::default()
            };
            return self
                .play_computer(actor, i64::from(level.number()), color, options)
                .await;
        }
        let settings = self.store().server(&actor.server).await?;
        let mine = actor.lang();
        let time = match time {
            Some(text) => {
                check_length("time", &text, 32)?;
                text
            }
            None => settings.default_time_control.clone(),
        };
        let time_control = super::play::parse_time_control(&time, mine)?;
        let start = super::start::challenge_start(
            variant.as_deref(),
            position,
            fen.as_deref(),
            actor.lang(),
            || self.draw_number(crate::chess::chess960::POSITIONS),
        )?;
        let mut start_image = None;
        if start.fen.is_some() {
            // The challenged player sees the position before deciding.
            let game = &start.game;
            let mut frame = crate::render::Frame::from_position(game.position());
            frame.orientation = game.turn();
            frame.theme = crate::render::Theme::by_name(&settings.theme).unwrap_or_default();
            // The challenge is posted in the channel: the server's words.
            let lang = self.server_lang(&actor.server).await;
            super::variant_board::decorate(&mut frame, game, lang, game.turn());
            let mut image = self.draw_now((frame, "challenge-position.png".to_owned()))?;
            image.description = super::view::board_description(lang, game);
            start_image = Some(image);
        }
        let initial_fen = start.fen.clone();
        // As on lichess, a game from a set position is never rated: the
        // position may favour one side as much as its author likes. A
        // Chess960 start is no set position: it is rated on its own ladder.
        if start.set_up && rated == Some(true) {
            return refuse_msg(crate::msg!("fixes-fen-unrated"));
        }
        let rated = rated.map(|r| r && !start.set_up);
        let now = self.now_ms();
        if let Some(opponent) = &opponent {
            check_length("opponent", &opponent.name, 100)?;
            if opponent.id == actor.user {
                return refuse_msg(msg!("challenge-self"));
            }
            if self
                .store()
                .pending_challenge_between(&actor.server, &actor.user, &opponent.id, now)
                .await?
                .is_some()
            {
                return refuse_msg(msg!(
                    "challenge-already-waiting",
                    name = super::display_name(&opponent.name)
                ));
            }
        }
        if self.store().active_game_in(&actor.channel).await?.is_some() {
            return refuse_msg(msg!("challenge-channel-busy"));
        }
        let rated = rated.unwrap_or(!start.set_up);
        if let (Some(opponent), true) = (&opponent, rated) {
            self.check_pair_limit(actor, &opponent.id, settings.rated_games_per_pair_daily)
                .await?;
        }
        if let Some(opponent) = &opponent {
            self.touch_player(
                &actor.server,
                &opponent.id,
                &super::display_name(&opponent.name),
            )
            .await?;
        }
        let record = self
            .store()
            .create_challenge(&NewChallenge {
                server_id: actor.server.clone(),
                channel_id: actor.channel.clone(),
                challenger_id: actor.user.clone(),
                opponent_id: opponent.as_ref().map(|o| o.id.clone()),
                color: color.id().to_owned(),
                rated,
                time_control: time_control.canonical.clone(),
                initial_fen: initial_fen.clone(),
                variant: start.variant,
                start_number: start.number,
                created_ms: now,
                expires_ms: now + settings.challenge_ttl_ms,
            })
            .await?;
        // A public announcement: the server's language.
        let lang = super::lang::settings_lang(&settings);
        let opponent_id = opponent.as_ref().map_or("", |o| o.id.as_str());
        let [mine, theirs] =
            Box::pin(self.titles_of(&actor.server, [&actor.user, opponent_id])).await?;
        let challenger = crate::store::titled(mine.as_deref(), &super::display_name(&actor.name));
        let whom = match &opponent {
            Some(o) => crate::store::titled(theirs.as_deref(), &super::display_name(&o.name)),
            None => t!(lang, "challenge-anyone"),
        };
        let colour = match color {
            ColorChoice::Random => t!(lang, "challenge-colours-random"),
            ColorChoice::White => t!(lang, "challenge-plays-white", name = &challenger),
            ColorChoice::Black => t!(lang, "challenge-plays-black", name = &challenger),
        };
        let time_text = time_control.control.text(lang);
        let issued = if rated {
            t!(
                lang,
                "challenge-issued-rated",
                challenger = &challenger,
                opponent = &whom,
                time = time_text,
                colour = colour
            )
        } else {
            t!(
                lang,
                "challenge-issued-unrated",
                challenger = &challenger,
                opponent = &whom,
                time = time_text,
                colour = colour
            )
        };
        let stakes = match (&opponent, rated) {
            (Some(o), true) => self.stakes_line(actor, &o.id, start.variant, lang).await?,
            _ => String::new(),
        };
        let from_position = if start.variant != crate::chess::Variant::Standard {
            t!(
                lang,
                "challenge-variant-line",
                variant = start.variant.with_start(lang, start.number)
            )
        } else if start.set_up {
            t!(lang, "challenge-from-position")
        } else {
            String::new()
        };
        let expires = t!(
            lang,
            "challenge-expires",
            hours = settings.challenge_ttl_ms / 3_600_000
        );
        // Its number, for `/accept challenge:ID` when several wait.
        let number = t!(lang, "features-challenge-number", id = record.id);
        let text = join_sentences(lang, [issued, stakes, from_position, expires, number]);
        let button = |action, label: String, style| Button {
            id: ButtonAction::Challenge {
                id: record.id,
                action,
            }
            .id(),
            label,
            style,
        };
        Ok(Reply {
            text,
            buttons: vec![
                button(
                    ChallengeButton::Accept,
                    t!(lang, "button-accept"),
                    ButtonStyle::Success,
                ),
                button(
                    ChallengeButton::Decline,
                    t!(lang, "button-decline"),
                    ButtonStyle::Secondary,
                ),
                button(
                    ChallengeButton::Cancel,
                    t!(lang, "button-cancel"),
                    ButtonStyle::Danger,
                ),
            ],
            mentions: opponent.map(|o| vec![o.id]).unwrap_or_default(),
            image: start_image,
            ..Reply::default()
        })
    }

    /// "Stakes: win +x, draw ±y, loss −z" for the challenger against `opponent`.
    async fn stakes_line(
        &self,
        actor: &Actor,
        opponent: &str,
        variant: crate::chess::Variant,
        lang: Lang,
    ) -> Result<String, ServiceError> {
        let me = self.points_in(&actor.server, &actor.user, variant).await?;
        let them = self.points_in(&actor.server, opponent, variant).await?;
        Ok(t!(
            lang,
            "challenge-stakes",
            name = super::display_name(&actor.name),
            stakes = super::ladder::stakes(lang, me, them)
        ))
    }

    pub(super) async fn check_pair_limit(
        &self,
        actor: &Actor,
        other: &str,
        limit: i64,
    ) -> Result<(), ServiceError> {
        if limit <= 0 {
            return Ok(());
        }
        let since = self.now_ms() - DAY_MS;
        let played = self
            .store()
            .rated_games_between_since(&actor.server, &actor.user, other, since)
            .await?;
        if played >= limit {
            return refuse_msg(msg!("challenge-pair-limit", count = played, limit = limit));
        }
        Ok(())
    }

    /// The challenge a button names, or the one in this channel meant by a
    /// command without an id.
    async fn find_challenge(
        &self,
        actor: &Actor,
        id: Option<i64>,
        mine: bool,
    ) -> Result<ChallengeRecord, ServiceError> {
        if let Some(id) = id {
            return match self.store().challenge(id).await? {
                Some(c) if c.challenge.server_id == actor.server => Ok(c),
                _ => refuse_msg(msg!("challenge-not-found")),
            };
        }
        let now = self.now_ms();
        let pending = self
            .store()
            .pending_challenges_in(&actor.server, &actor.channel)
            .await?;
        let live = pending.iter().filter(|c| c.challenge.expires_ms > now);
        let candidates: Vec<&ChallengeRecord> = if mine {
            live.filter(|c| c.challenge.challenger_id == actor.user)
                .collect()
        } else {
            let for_me: Vec<&ChallengeRecord> = live
                .clone()
                .filter(|c| c.challenge.opponent_id.as_deref() == Some(actor.user.as_str()))
                .collect();
            if for_me.is_empty() {
                live.filter(|c| c.challenge.opponent_id.is_none()).collect()
            } else {
                for_me
            }
        };
        if candidates.len() > 1 {
            // Several wait here: taking the newest silently surprised people.
            // Several messages in one: put into words here, in the
            // asker's language.
            let lang = actor.lang();
            let mut lines = vec![t!(lang, "features-challenge-several")];
            for c in &candidates {
                lines.push(format!("• {}", self.describe_challenge(lang, c).await?));
            }
            return refuse(lines.join("\n"));
        }
        match candidates.first() {
            Some(c) => Ok((*c).clone()),
            None if pending.iter().any(|c| c.challenge.expires_ms <= now) => {
                refuse_msg(msg!("challenge-expired"))
            }
            None => refuse_msg(msg!("challenge-none-for-you")),
        }
    }

    fn check_open(&self, challenge: &ChallengeRecord) -> Result<(), ServiceError> {
        match challenge.status {
            ChallengeStatus::Pending if challenge.challenge.expires_ms <= self.now_ms() => {
                refuse_msg(msg!("challenge-expired"))
            }
            ChallengeStatus::Pending => Ok(()),
            ChallengeStatus::Accepted => refuse_msg(msg!("challenge-already-accepted")),
            ChallengeStatus::Declined => refuse_msg(msg!("challenge-was-declined")),
            ChallengeStatus::Cancelled => refuse_msg(msg!("challenge-was-cancelled")),
            ChallengeStatus::Expired => refuse_msg(msg!("challenge-expired")),
        }
    }

    pub(super) async fn accept(
        &self,
        actor: &Actor,
        id: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let record = self.find_challenge(actor, id, false).await?;
        self.check_open(&record)?;
        let c = &record.challenge;
        if c.challenger_id == actor.user {
            return refuse_msg(msg!("challenge-accept-own"));
        }
        if let Some(opponent) = &c.opponent_id
            && *opponent != actor.user
        {
            let name = self.name_in(&c.server_id, opponent, actor.lang()).await?;
            return refuse_msg(msg!("challenge-not-for-you", name = name));
        }
        let settings = self.store().server(&actor.server).await?;
        if c.rated {
            self.check_pair_limit(actor, &c.challenger_id, settings.rated_games_per_pair_daily)
                .await?;
        }
        let challenger_white = match c.color.as_str() {
            "white" => true,
            "black" => false,
            _ => rand::thread_rng().gen_bool(0.5),
        };
        let (white, black) = if challenger_white {
            (c.challenger_id.clone(), actor.user.clone())
        } else {
            (actor.user.clone(), c.challenger_id.clone())
        };
        let now = self.now_ms();
        let time_control = super::play::parse_time_control(&c.time_control, actor.lang())?;
        let channel_id = (!settings.threads).then(|| c.channel_id.clone());
        let new_game = NewGame {
            server_id: c.server_id.clone(),
            home_channel_id: c.channel_id.clone(),
            channel_id,
            white_id: white,
            black_id: black,
            rated: c.rated,
            time_control: time_control.canonical.clone(),
            initial_fen: c.initial_fen.clone(),
            variant: c.variant,
            start_number: c.start_number,
            deadline_ms: super::time::first_deadline(&time_control.canonical, now),
            created_ms: now,
        };
        let game = match self
            .store()
            .accept_challenge(record.id, now, &new_game)
            .await
        {
            Ok(game) => game,
            Err(StoreError::Conflict) => return refuse_msg(msg!("challenge-answered-already")),
            Err(StoreError::ChannelBusy) => return refuse_msg(msg!("challenge-channel-busy-now")),
            Err(e) => return Err(e.into()),
        };
        let game = self.arm_first_reminder(game, &settings, now).await?;
        let lang = super::lang::settings_lang(&settings);
        let white_name = self
            .name_in(&c.server_id, &game.game.white_id, lang)
            .await?;
        let black_name = self
            .name_in(&c.server_id, &game.game.black_id, lang)
            .await?;
        if settings.threads {
            // The first board, posted in the thread, pings the player to
            // move: the challenger is pinged here only if that is not them.
            // The text does not promise a thread: the adapter may find it
            // cannot open one, and then the game stays in this channel.
            let to_move = match game
                .game
                .initial_fen
                .as_deref()
                .map(|fen| crate::chess::Game::from_fen_in(c.variant, fen))
            {
                Some(Ok(start)) => start.turn(),
                _ => shakmaty::Color::White,
            };
            let to_move_id = match to_move {
                shakmaty::Color::White => &game.game.white_id,
                shakmaty::Color::Black => &game.game.black_id,
            };
            let mentions = if *to_move_id == c.challenger_id {
                Vec::new()
            } else {
                vec![c.challenger_id.clone()]
            };
            return Ok(Reply {
                text: t!(
                    lang,
                    "features-challenge-accepted",
                    name = super::display_name(&actor.name),
                    id = record.id,
                    white = white_name.as_str(),
                    black = black_name.as_str()
                ),
                mentions,
                open_thread: Some(OpenThread {
                    game_id: game.id,
                    name: t!(
                        lang,
                        "challenge-thread-name",
                        white = &white_name,
                        black = &black_name
                    ),
                }),
                ..Reply::default()
            });
        }
        let session = self.load(game).await?;
        let mut reply = self.board_reply(&session, &session.game, None).await?;
        let accepted = t!(
            lang,
            "features-challenge-accepted",
            name = super::display_name(&actor.name),
            id = record.id,
            white = white_name.as_str(),
            black = black_name.as_str()
        );
        reply.text = join_sentences(lang, [accepted.as_str(), &reply.text]);
        Ok(reply)
    }

    /// Stores the first reminder of a game just created (correspondence
    /// games only) and returns the game with it.
    pub(super) async fn arm_first_reminder(
        &self,
        mut game: crate::store::GameRecord,
        settings: &crate::store::ServerSettings,
        now: i64,
    ) -> Result<crate::store::GameRecord, ServiceError> {
        let first_reminder = super::time::next_reminder_at(
            game.game.deadline_ms,
            now,
            &settings.reminder_hours,
            now,
        )
        .filter(|_| {
            matches!(
                game.game.time_control.parse::<crate::clock::TimeControl>(),
                Ok(crate::clock::TimeControl::Correspondence(_))
            )
        });
        self.store()
            .set_next_reminder(game.id, first_reminder)
            .await?;
        game.state.next_reminder_ms = first_reminder;
        Ok(game)
    }

    pub(super) async fn decline(
        &self,
        actor: &Actor,
        id: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let record = self.find_challenge(actor, id, false).await?;
        self.check_open(&record)?;
        match &record.challenge.opponent_id {
            Some(opponent) if *opponent == actor.user => {}
            Some(_) => return refuse_msg(msg!("challenge-decline-not-yours")),
            None if record.challenge.challenger_id == actor.user => {
                return refuse_msg(msg!("challenge-decline-own"))
            }
            None => return refuse_msg(msg!("challenge-decline-open")),
        }
        self.close(&record, ChallengeStatus::Declined).await?;
        let lang = self.server_lang(&actor.server).await;
        Ok(Reply {
            text: t!(
                lang,
                "features-challenge-declined",
                name = super::display_name(&actor.name),
                id = record.id,
                challenger = self
                    .name_in(&actor.server, &record.challenge.challenger_id, lang)
                    .await?
            ),
            mentions: vec![record.challenge.challenger_id.clone()],
            ..Reply::default()
        })
    }

    pub(super) async fn cancel(
        &self,
        actor: &Actor,
        id: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let record = self.find_challenge(actor, id, true).await?;
        self.check_open(&record)?;
        if record.challenge.challenger_id != actor.user {
            return refuse_msg(msg!("challenge-cancel-not-yours"));
        }
        self.close(&record, ChallengeStatus::Cancelled).await?;
        let lang = self.server_lang(&actor.server).await;
        let what = self.describe_challenge(lang, &record).await?;
        Ok(Reply::text(t!(
            lang,
            "features-challenge-cancelled",
            name = super::display_name(&actor.name),
            challenge = what
        )))
    }

    async fn close(
        &self,
        record: &ChallengeRecord,
        status: ChallengeStatus,
    ) -> Result<(), ServiceError> {
        match self.store().close_challenge(record.id, status).await {
            Ok(()) => Ok(()),
            Err(StoreError::Conflict) => refuse_msg(msg!("challenge-answered-already")),
            Err(e) => Err(e.into()),
        }
    }

    /// Pending challenges of `actor`'s channel for autocomplete: the ones
    /// they may accept or decline (`own == false`) or cancel (`own`), whose
    /// description contains `partial`, as (label, id). Never fails: anything
    /// unexpected yields no suggestions.
    pub async fn challenge_suggestions(
        &self,
        actor: &Actor,
        own: bool,
        partial: &str,
        limit: usize,
    ) -> Vec<(String, i64)> {
        let now = self.now_ms();
        let pending = match self
            .store()
            .pending_challenges_in(&actor.server, &actor.channel)
            .await
        {
            Ok(pending) => pending,
            Err(e) => {
                tracing::warn!(channel = %actor.channel, error = %e, "challenge suggestions failed");
                return Vec::new();
            }
        };
        let partial = partial.trim().trim_start_matches('#').to_lowercase();
        let mut out = Vec::new();
        for c in pending.iter().filter(|c| c.challenge.expires_ms > now) {
            let mine = c.challenge.challenger_id == actor.user;
            let for_me = c
                .challenge
                .opponent_id
                .as_deref()
                .is_none_or(|o| o == actor.user);
            if (own && !mine) || (!own && (mine || !for_me)) {
                continue;
            }
            let Ok(label) = self.describe_challenge(actor.lang(), c).await else {
                continue;
            };
            if label.to_lowercase().contains(&partial) {
                out.push((label, c.id));
            }
            if out.len() >= limit {
                break;
            }
        }
        out
    }

    /// `#7 from alice to bob: rated, 3 days per move` (or `to anyone`).
    pub(super) async fn describe_challenge(
        &self,
        lang: Lang,
        c: &ChallengeRecord,
    ) -> Result<String, ServiceError> {
        let from = self
            .name_in(&c.challenge.server_id, &c.challenge.challenger_id, lang)
            .await?;
        let to = match &c.challenge.opponent_id {
            Some(id) => self.name_in(&c.challenge.server_id, id, lang).await?,
            None => t!(lang, "features-challenge-anyone"),
        };
        let time = super::play::parse_time_control(&c.challenge.time_control, lang).map_or_else(
            |_| c.challenge.time_control.clone(),
            |t| t.control.text(lang),
        );
        // A variant's challenge says which, and from which start.
        let time = match c.challenge.variant {
            crate::chess::Variant::Standard => time,
            v => t!(
                lang,
                "challenge-line-variant",
                time = time,
                variant = v.with_start(lang, c.challenge.start_number)
            ),
        };
        Ok(if c.challenge.rated {
            t!(
                lang,
                "features-challenge-line-rated",
                id = c.id,
                from = from,
                to = to,
                time = time
            )
        } else {
            t!(
                lang,
                "features-challenge-line-unrated",
                id = c.id,
                from = from,
                to = to,
                time = time
            )
        })
    }

    /// A player's name as stored (their id if never seen), for PGN.
    pub(super) async fn stored_name(
        &self,
        server: &str,
        user: &str,
    ) -> Result<String, ServiceError> {
        Ok(self
            .store()
            .player(server, user)
            .await?
            .map_or_else(|| user.to_owned(), |p| p.display_name))
    }

    /// A player's name on a server as shown in `lang` (see
    /// [`super::shown_name`]: the computer and an erased player are named
    /// in words of the catalogues).
    pub(super) async fn name_in(
        &self,
        server: &str,
        user: &str,
        lang: Lang,
    ) -> Result<String, ServiceError> {
        let row = self.store().player(server, user).await?;
        Ok(super::shown_name(
            lang,
            user,
            row.as_ref().map(|p| p.titled_name()).as_deref(),
        ))
    }

    /// The FIDE titles of two players on a server (`None`: no title, or
    /// no such player).
    pub(super) async fn titles_of(
        &self,
        server: &str,
        users: [&str; 2],
    ) -> Result<[Option<String>; 2], ServiceError> {
        let mut titles = [None, None];
        for (title, user) in titles.iter_mut().zip(users) {
            if !user.is_empty() {
                *title = self
                    .store()
                    .player(server, user)
                    .await?
                    .and_then(|p| p.title);
            }
        }
        Ok(titles)
    }

    /// A player's points in hundredths (0 if never rated).
    pub(super) async fn points_of(&self, server: &str, user: &str) -> Result<i64, ServiceError> {
        Ok(self
            .store()
            .player(server, user)
            .await?
            .map_or(0, |p| p.points))
    }

    /// A player's points on `variant`'s ladder, in hundredths (0 if never
    /// rated in it).
    pub(super) async fn points_in(
        &self,
        server: &str,
        user: &str,
        variant: crate::chess::Variant,
    ) -> Result<i64, ServiceError> {
        Ok(self
            .store()
            .player_in(server, user, variant)
            .await?
            .map_or(0, |p| p.points))
    }
}
