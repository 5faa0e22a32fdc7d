//! The ladder and records: leaderboard, profiles (with a chart of points
//! over time), game history, a player's active games, PGN export and the
//! rating preview of a pairing.

use super::{
    error::{refuse_msg, ServiceError},
    session::stored_ending,
    Actor, Attachment, Card, Image, Reply, Service, UserRef,
};
use crate::{
    chess::{
        color_text,
        pgn::{self, PgnTags},
        Variant,
    },
    i18n::Lang,
    msg,
    rating::{self, GameOutcome, Points},
    store::{GameRecord, Score},
    t,
};

/// Players per leaderboard page.
const PAGE_SIZE: i64 = 10;
/// Games listed by `profile` and `history`.
pub(super) const RECENT_GAMES: i64 = 10;
/// Recent games counted for a profile's most played openings.
const OPENING_GAMES: i64 = 100;
/// Opening families a profile lists.
const TOP_OPENINGS: usize = 3;
/// Rated games before a player's points settle (seed 001): until then `?`.
pub(super) const PROVISIONAL_GAMES: i64 = crate::rating::PROVISIONAL_GAMES as i64;

/// The club scheme's settlement in the store's terms.
pub(super) fn settle(white: i64, black: i64, score: Score) -> (i64, i64) {
    let outcome = match score {
        Score::WhiteWins => GameOutcome::WhiteWins,
        Score::BlackWins => GameOutcome::BlackWins,
        Score::Draw => GameOutcome::Draw,
    };
    let s = rating::settle(
        Points::from_hundredths(white),
        Points::from_hundredths(black),
        outcome,
    );
    (s.white_delta.hundredths(), s.black_delta.hundredths())
}

/// "win +6, draw −7.5, loss −15" for a player with `me` points against `them`.
pub(super) fn stakes(lang: Lang, me: i64, them: i64) -> String {
    let win = settle(me, them, Score::WhiteWins).0;
    let draw = settle(me, them, Score::Draw).0;
    let loss = settle(me, them, Score::BlackWins).0;
    let show = |d: i64| Points::from_hundredths(d).signed().to_string();
    t!(
        lang,
        "ladder-stakes",
        win = show(win),
        draw = show(draw),
        loss = show(loss)
    )
}

/// Points with the provisional mark.
pub(crate) fn points_text(points: i64, rated_games: i64) -> String {
    let mark = if rated_games < PROVISIONAL_GAMES {
        "?"
    } else {
        ""
    };
    format!("{}{mark}", Points::from_hundredths(points))
}

impl Service {
    pub(super) async fn leaderboard(
        &self,
        actor: &Actor,
        page: i64,
        variant: Option<&str>,
    ) -> Result<Reply, ServiceError> {
        let variant = match variant {
            Some(text) => super::start::read_variant(text)?,
            None => Variant::Standard,
        };
        let total = self.store().ladder_size_in(&actor.server, variant).await?;
        let pages = ((total + PAGE_SIZE - 1) / PAGE_SIZE).max(1);
        if !(1..=pages).contains(&page) {
            return refuse_msg(msg!("ladder-page-range", pages = pages));
        }
        let lang = self.server_lang(&actor.server).await;
        let offset = (page - 1) * PAGE_SIZE;
        let players = self
            .store()
            .leaderboard_in(&actor.server, variant, offset, PAGE_SIZE)
            .await?;
        let standard = variant == Variant::Standard;
        if players.is_empty() {
            return Ok(Reply::text(if standard {
                t!(lang, "ladder-empty")
            } else {
                t!(lang, "ladder-variant-empty", variant = variant.name(lang))
            }));
        }
        let mut lines = vec![if standard {
            t!(lang, "ladder-title", page = page, pages = pages)
        } else {
            t!(
                lang,
                "ladder-variant-title",
                variant = variant.name(lang),
                page = page,
                pages = pages
            )
        }];
        for (i, p) in players.iter().enumerate() {
            lines.push(t!(
                lang,
                "ladder-line",
                rank = offset + i as i64 + 1,
                name = p.titled_name(),
                points = points_text(p.points, p.rated_games),
                level = Points::from_hundredths(p.points).level().name(lang),
                wins = p.wins,
                draws = p.draws,
                losses = p.losses
            ));
        }
        lines.push(t!(lang, "ladder-provisional", games = PROVISIONAL_GAMES));
        let mut reply = Reply::text(lines.join("\n"));
        if !standard {
            // The web pages show standard chess's ladder only.
            return Ok(reply);
        }
        // The web page holds more players per page: the one with this
        // page's first player.
        let web_page = offset / super::pages::LADDER_PAGE_SIZE + 1;
        self.link_page(
            &actor.server,
            &format!("/ladder?page={web_page}"),
            lang,
            &mut reply,
        )
        .await?;
        Ok(reply)
    }

    pub(super) async fn profile(
        &self,
        actor: &Actor,
        user: Option<UserRef>,
    ) -> Result<Reply, ServiceError> {
        let (id, name) = self.subject(actor, user);
        let Some(player) = self.store().player(&actor.server, &id).await? else {
            return refuse_msg(msg!("ladder-not-played", name = name));
        };
        let lang = self.server_lang(&actor.server).await;
        let points = Points::from_hundredths(player.points);
        let level = points.level();
        let mut card = Card {
            title: player.titled_name(),
            ..Card::default()
        };
        card.fields.push((
            t!(lang, "profile-field-points"),
            points_text(player.points, player.rated_games),
        ));
        card.fields.push((
            t!(lang, "profile-field-level"),
            match lang {
                Lang::En => format!("{} ({})", level.name_en(), level.name_zh()),
                Lang::ZhCn => level.name_zh(),
            },
        ));
        card.fields.push((
            t!(lang, "profile-field-record"),
            t!(
                lang,
                "profile-record",
                count = player.rated_games,
                wins = player.wins,
                draws = player.draws,
                losses = player.losses
            ),
        ));
        let games = self
            .store()
            .games_of(&actor.server, &id, false, RECENT_GAMES)
            .await?;
        if !games.is_empty() {
            card.fields.push((
                t!(lang, "profile-field-recent"),
                self.game_lines(&games, &id, lang).await?.join("\n"),
            ));
        }
        // Each variant's ladder the player has a rated game on, a line each.
        let variants = self.store().variant_records(&actor.server, &id).await?;
        // Points marked `?` are explained below the card, as on the ladder.
        let provisional = std::iter::once(player.rated_games)
            .chain(variants.iter().map(|(_, record)| record.rated_games))
            .any(|games| games < PROVISIONAL_GAMES);
        if provisional {
            card.footer = Some(t!(lang, "ladder-provisional", games = PROVISIONAL_GAMES));
        }
        for (variant, record) in variants {
            card.fields.push((
                variant.name(lang),
                t!(
                    lang,
                    "profile-variant-line",
                    points = points_text(record.points, record.rated_games),
                    level = Points::from_hundredths(record.points).level().name(lang),
                    count = record.rated_games,
                    wins = record.wins,
                    draws = record.draws,
                    losses = record.losses
                ),
            ));
        }
        if let Some(line) = Box::pin(self.puzzle_profile_line(&actor.server, &id, lang)).await? {
            card.fields.push((t!(lang, "profile-field-puzzles"), line));
        }
        let openings = self.most_played_openings(&actor.server, &id, lang).await?;
        if !openings.is_empty() {
            card.fields
                .push((t!(lang, "profile-field-openings"), openings.join("\n")));
        }
        let history = self.store().rating_history(&actor.server, &id).await?;
        let image = if history.is_empty() {
            None
        } else {
            let mut series = vec![(history[0].at_ms, history[0].before)];
            series.extend(history.iter().map(|c| (c.at_ms, c.after)));
            let shown = |p: i64| Points::from_hundredths(p).to_string();
            let values = || series.iter().map(|&(_, p)| p);
            let description = t!(
                lang,
                "alt-points-chart",
                name = &player.display_name,
                count = history.len(),
                first = shown(series[0].1),
                last = shown(values().next_back().unwrap_or(0)),
                low = shown(values().min().unwrap_or(0)),
                high = shown(values().max().unwrap_or(0))
            );
            let title = t!(lang, "chart-title", name = &player.display_name);
            let png = tokio::task::spawn_blocking(move || {
                crate::render::chart::points_chart(&series, &title, lang)
            })
            .await
            .map_err(|e| ServiceError::Internal(format!("chart task: {e}")))?
            .map_err(|e| ServiceError::Internal(format!("chart: {e}")))?;
            Some(Image {
                file_name: format!(
                    "points-{}.png",
                    player
                        .user_id
                        .chars()
                        // A name's letters in any script (a console user
                        // 张伟); the Discord adapter makes names safe again.
                        .filter(|c| c.is_alphanumeric())
                        .collect::<String>()
                ),
                png,
                description: crate::chess::describe::cut(
                    &description,
                    crate::chess::describe::MAX_DESCRIPTION,
                ),
            })
        };
        let mut reply = Reply {
            text: t!(
                lang,
                "profile-summary",
                name = player.titled_name(),
                points = points_text(player.points, player.rated_games),
                level = level.name(lang)
            ),
            card: Some(card),
            image,
            ..Reply::default()
        };
        let rest = format!("/player/{}", super::pages::path_part(&player.user_id));
        self.link_page(&actor.server, &rest, lang, &mut reply)
            .await?;
        Ok(reply)
    }

    pub(super) async fn history(
        &self,
        actor: &Actor,
        user: Option<UserRef>,
    ) -> Result<Reply, ServiceError> {
        let (id, name) = self.subject(actor, user);
        let games = self
            .store()
            .games_of(&actor.server, &id, false, RECENT_GAMES)
            .await?;
        let lang = self.server_lang(&actor.server).await;
        if games.is_empty() {
            return Ok(Reply::text(t!(lang, "history-empty", name = name)));
        }
        let mut lines = vec![t!(lang, "history-title", name = name)];
        lines.extend(self.game_lines(&games, &id, lang).await?);
        Ok(Reply::text(lines.join("\n")))
    }

    pub(super) async fn games(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let games = self
            .store()
            .games_of(&actor.server, &actor.user, true, 25)
            .await?;
        let lang = actor.lang();
        if games.is_empty() {
            return Ok(Reply::private(t!(lang, "games-none")));
        }
        let mut lines = vec![t!(lang, "games-title")];
        for record in games {
            let session = self.load(record).await?;
            let mine = session.side_of(&actor.user);
            let turn = session.game.turn();
            let opponent_id = match mine {
                Some(side) => session.player_id(!side).to_owned(),
                None => continue,
            };
            let opponent = self.name_in(&actor.server, &opponent_id, lang).await?;
            let whose = if mine == Some(turn) {
                t!(lang, "games-your-move")
            } else {
                t!(lang, "games-their-move")
            };
            // `<#id>` links the channel on Discord; the console prints `#name`.
            let left = match mine {
                Some(side) => self.time_left(actor.lang(), &session, side),
                None => String::new(),
            };
            let place = match &session.record.game.channel_id {
                Some(channel) => format!("<#{channel}>"),
                None => t!(lang, "games-opening-thread"),
            };
            let line = t!(
                lang,
                "games-line",
                id = session.record.id,
                opponent = opponent,
                place = place,
                whose = whose,
                number = session.game.plies().len() / 2 + 1
            );
            let left = match session.open_adjournment() {
                Some(open) => {
                    let offset = Box::pin(self.settings_of(&session))
                        .await?
                        .utc_offset_minutes;
                    let when = match open.resume_ms {
                        Some(at) => t!(
                            lang,
                            "adjourn-resumes-at",
                            time = crate::clock::local_minute(at, offset)
                        ),
                        None => t!(lang, "adjourn-resume-unset"),
                    };
                    format!(" · {}", t!(lang, "games-adjourned", when = when))
                }
                None => left,
            };
            let opening = match crate::chess::opening::classify(&session.game) {
                Some(o) => format!(" · {}", o.text(lang)),
                None => String::new(),
            };
            let variant = variant_part(lang, session.record.game.variant);
            lines.push(format!("{line}{variant}{opening}{left}"));
        }
        Ok(Reply::private(lines.join("\n")))
    }

    /// ` · 2 d 3 h left` (correspondence: the time the
    /// player to move has left), ` · your clock 4:32, theirs 5:00` (live);
    /// empty without a deadline.
    fn time_left(
        &self,
        lang: crate::i18n::Lang,
        session: &super::session::Session,
        mine: shakmaty::Color,
    ) -> String {
        let now = self.now_ms();
        let tc: Option<crate::clock::TimeControl> = session.record.game.time_control.parse().ok();
        if let Some(crate::clock::TimeControl::Live(live)) = tc {
            let times: Vec<i64> = session.game.plies().iter().map(|p| p.at_ms).collect();
            let clocks =
                crate::clock::clocks_paused(&live, &times, &session.pauses()).remaining_at(now);
            let clock =
                |c: shakmaty::Color| crate::clock::format_clk(clocks[crate::chess::color_index(c)]);
            let clocks = crate::t!(
                lang,
                "features-games-clocks",
                mine = clock(mine),
                theirs = clock(!mine)
            );
            return format!(" · {clocks}");
        }
        match session.record.state.deadline_ms {
            Some(deadline) => {
                // In the reader's own units (`2天23小时`, `2 d 23 h`).
                let left = crate::clock::human_left_in(lang, deadline - now);
                format!(" · {}", crate::t!(lang, "features-games-left", left = left))
            }
            None => String::new(),
        }
    }

    /// The game a command names: by number on this server, or else this
    /// channel's newest; `None` when there is none (each command says so in
    /// its own words).
    pub(super) async fn named_game(
        &self,
        actor: &Actor,
        game: Option<i64>,
    ) -> Result<Option<crate::store::GameRecord>, ServiceError> {
        Ok(match game {
            Some(id) => self
                .store()
                .game(id)
                .await?
                .filter(|g| g.game.server_id == actor.server),
            None => self.store().latest_game_in(&actor.channel).await?,
        })
    }

    pub(super) async fn pgn(
        &self,
        actor: &Actor,
        game: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let Some(record) = self.named_game(actor, game).await? else {
            return refuse_msg(match game {
                Some(id) => msg!("pgn-game-not-found", id = id),
                None => msg!("pgn-no-game"),
            });
        };
        let session = self.load(record).await?;
        let r = &session.record;
        let tags = self.pgn_tags(&session).await?;
        let clocks = clock_comments(&session.game, &r.game.time_control, &session.pauses());
        let notes = adjournment_notes(&session);
        let text = pgn::export_noted(&session.game, &tags, clocks.as_deref(), &notes);
        // Always as a `.pgn` file (what chess programs open); in the
        // message too when it fits in one (Discord's limit is 2,000
        // characters, and a cut PGN is worse than none).
        let inline = format!("```\n{text}```");
        let file = Attachment {
            file_name: format!("game-{}.pgn", r.id),
            bytes: text.into_bytes(),
        };
        Ok(Reply {
            text: if inline.chars().count() <= PGN_INLINE_CHARS {
                inline
            } else {
                crate::t!(
                    self.server_lang(&actor.server).await,
                    "fixes-pgn-attached",
                    game = r.id,
                    count = session.game.plies().len().div_ceil(2)
                )
            },
            files: vec![file],
            ..Reply::default()
        })
    }

    /// The PGN tags of a stored game: names, date, time control, the club
    /// points both players had before it, and its id.
    pub(super) async fn pgn_tags(
        &self,
        session: &super::session::Session,
    ) -> Result<PgnTags, ServiceError> {
        let r = &session.record;
        // PGN is data: its names stay as stored, in English where they are
        // the bot's own words ("Stockfish level 1", "deleted player").
        let white = self.pgn_name(r, &r.game.white_id).await?;
        let black = self.pgn_name(r, &r.game.black_id).await?;
        let [white_title, black_title] =
            Box::pin(self.titles_of(&r.game.server_id, [&r.game.white_id, &r.game.black_id]))
                .await?;
        let changes = self.store().game_rating_changes(r.id).await?;
        let points_before = |user: &str| -> Option<String> {
            changes
                .iter()
                .find(|c| c.user_id == user)
                .map(|c| Points::from_hundredths(c.before).to_string())
        };
        let tc: Option<crate::clock::TimeControl> = r.game.time_control.parse().ok();
        Ok(PgnTags {
            // lichess's words: "Rated Chess960 game".
            event: match (r.game.rated, r.game.variant.pgn_tag()) {
                (true, None) => "Rated game".to_owned(),
                (false, None) => "Casual game".to_owned(),
                (true, Some(variant)) => format!("Rated {variant} game"),
                (false, Some(variant)) => format!("Casual {variant} game"),
            },
            site: "chessbot".to_owned(),
            date: pgn_date(r.game.created_ms),
            round: "-".to_owned(),
            white,
            black,
            time_control: tc.map(|t| t.to_pgn_tag()),
            white_title,
            black_title,
            white_points: points_before(&r.game.white_id),
            black_points: points_before(&r.game.black_id),
            extra: opening_tags(&session.game)
                .into_iter()
                .chain([("GameId".to_owned(), r.id.to_string())])
                .collect(),
        })
    }

    /// A player's name in a game's PGN: as stored, but the computer by the
    /// engine that played this game's variant.
    async fn pgn_name(&self, r: &GameRecord, user: &str) -> Result<String, ServiceError> {
        match crate::engine::Level::of_player(user) {
            Some(level) => Ok(level.display_name_in(r.game.variant)),
            None => self.stored_name(&r.game.server_id, user).await,
        }
    }

    pub(super) async fn rating_preview(
        &self,
        actor: &Actor,
        opponent: &UserRef,
    ) -> Result<Reply, ServiceError> {
        if opponent.id == actor.user {
            return refuse_msg(msg!("preview-self"));
        }
        let lang = actor.lang();
        let me = self.points_of(&actor.server, &actor.user).await?;
        let them = self.points_of(&actor.server, &opponent.id).await?;
        let name = super::display_name(&opponent.name);
        Ok(Reply::private(t!(
            lang,
            "preview",
            mine = Points::from_hundredths(me).to_string(),
            name = name,
            theirs = Points::from_hundredths(them).to_string(),
            my_stakes = stakes(lang, me, them),
            their_stakes = stakes(lang, them, me)
        )))
    }

    /// The opening families `user` played most in their recent games
    /// (lichess counts the same way: by where each game's book ended), most
    /// played first, ties by name.
    pub(super) async fn most_played_openings(
        &self,
        server: &str,
        user: &str,
        lang: Lang,
    ) -> Result<Vec<String>, ServiceError> {
        let games = self
            .store()
            .games_of(server, user, false, OPENING_GAMES)
            .await?;
        let mut counts: std::collections::BTreeMap<&'static str, i64> = Default::default();
        for record in &games {
            let moves = self.store().moves(record.id).await?;
            // A game that does not replay is the store's problem, reported
            // where the game is played; here it just counts for nothing.
            let Ok(game) = crate::chess::Game::replay_in(
                record.game.variant,
                record.game.initial_fen.as_deref(),
                moves.iter().map(|m| (m.uci.as_str(), m.played_ms)),
            ) else {
                continue;
            };
            if let Some(opening) = crate::chess::opening::classify(&game) {
                *counts.entry(opening.family()).or_default() += 1;
            }
        }
        let mut ranked: Vec<(&str, i64)> = counts.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        Ok(ranked
            .into_iter()
            .take(TOP_OPENINGS)
            .map(|(family, count)| {
                let shown = crate::chess::opening::family_text(family, lang);
                t!(lang, "profile-opening-line", opening = shown, count = count)
            })
            .collect())
    }

    fn subject(&self, actor: &Actor, user: Option<UserRef>) -> (String, String) {
        match user {
            Some(u) => (u.id, super::display_name(&u.name)),
            None => (actor.user.clone(), super::display_name(&actor.name)),
        }
    }

    /// One line per game from `user`'s side: opponent, colour, result.
    pub(super) async fn game_lines(
        &self,
        games: &[GameRecord],
        user: &str,
        lang: Lang,
    ) -> Result<Vec<String>, ServiceError> {
        let mut lines = Vec::with_capacity(games.len());
        for g in games {
            let white = g.game.white_id == user;
            let opponent_id = if white {
                &g.game.black_id
            } else {
                &g.game.white_id
            };
            let opponent = self.name_in(&g.game.server_id, opponent_id, lang).await?;
            let outcome = match stored_ending(&g.state) {
                None => t!(lang, "history-in-progress"),
                Some(e) => {
                    let how = e.termination.text(lang);
                    match e.result.winner() {
                        Some(w) if (w == shakmaty::Color::White) == white => {
                            t!(lang, "history-won", termination = how)
                        }
                        Some(_) => t!(lang, "history-lost", termination = how),
                        None if e.is_rated_result() => {
                            t!(lang, "history-drew", termination = how)
                        }
                        None => t!(lang, "history-aborted"),
                    }
                }
            };
            let color = if white {
                shakmaty::Color::White
            } else {
                shakmaty::Color::Black
            };
            let line = t!(
                lang,
                "history-line",
                id = g.id,
                color = color_text(lang, color),
                opponent = opponent,
                outcome = outcome
            );
            lines.push(format!("{line}{}", variant_part(lang, g.game.variant)));
        }
        Ok(lines)
    }
}

/// ` · Crazyhouse` after a game's line in a list; nothing for standard
/// chess (the default goes without saying).
fn variant_part(lang: crate::i18n::Lang, variant: crate::chess::Variant) -> String {
    match variant {
        crate::chess::Variant::Standard => String::new(),
        other => format!(" · {}", other.name(lang)),
    }
}

/// lichess's `ECO` and `Opening` tags (English: PGN is data), once the
/// game has reached a named position.
pub(super) fn opening_tags(game: &crate::chess::Game) -> Vec<(String, String)> {
    match crate::chess::opening::classify(game) {
        Some(o) => vec![
            ("ECO".to_owned(), o.eco.to_owned()),
            ("Opening".to_owned(), o.name.to_owned()),
        ],
        None => Vec::new(),
    }
}

/// For a live game, the mover's remaining time after each ply (`[%clk]`).
pub(super) fn clock_comments(
    game: &crate::chess::Game,
    time_control: &str,
    pauses: &[crate::clock::Pause],
) -> Option<Vec<i64>> {
    let tc: crate::clock::TimeControl = time_control.parse().ok()?;
    let live = tc.live()?;
    let times: Vec<i64> = game.plies().iter().map(|p| p.at_ms).collect();
    let first = shakmaty::Position::turn(game.initial_position());
    Some(
        (1..=times.len())
            .map(|n| {
                let mover = if n % 2 == 1 { first } else { !first };
                crate::clock::clocks_paused(live, &times[..n], pauses).remaining_ms
                    [crate::chess::color_index(mover)]
            })
            .collect(),
    )
}

/// The PGN comments of a game's adjournments (封棋): one after the last
/// move before each, saying why and when it resumed. The sealed move of a
/// game not yet resumed is not in the game, so it is not in its PGN.
pub(super) fn adjournment_notes(session: &super::session::Session) -> Vec<pgn::PlyNote> {
    let mut notes = vec![pgn::PlyNote::default(); session.game.plies().len()];
    for a in &session.adjournments {
        let Some(index) = usize::try_from(a.ply - 1).ok().filter(|i| *i < notes.len()) else {
            continue;
        };
        let why = match a.reason.as_str() {
            "session" => "at the end of the session",
            "agreed" => "by agreement",
            _ => "by the arbiter",
        };
        let resumed = match a.resumed_ms {
            Some(at) => format!(
                "; resumed {} with the sealed move",
                crate::clock::utc_minute(at)
            ),
            None => String::new(),
        };
        notes[index].comment = Some(format!(
            "Adjourned {why} ({}){resumed}",
            crate::clock::utc_minute(a.adjourned_ms)
        ));
    }
    notes
}

/// `YYYY.MM.DD` of a unix-ms time (UTC), for the PGN `Date` tag.
/// The longest PGN shown in the message itself, code fence included (under
/// Discord's 2,000 characters, with room for the adapter's additions).
const PGN_INLINE_CHARS: usize = 1_900;

fn pgn_date(ms: i64) -> String {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(1_796_083_200_000), "2026.12.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
    }

    #[test]
    fn stakes_match_the_spec_example() {
        // 150 vs 100: the higher side wins 6, draws −7.5, loses −15.
        assert_eq!(
            stakes(Lang::En, 15_000, 10_000),
            "win +6, draw -7.5, loss -15"
        );
        assert_eq!(
            stakes(Lang::En, 10_000, 15_000),
            "win +15, draw +7.5, loss -6"
        );
        assert_eq!(stakes(Lang::ZhCn, 15_000, 10_000), "胜 +6，和 -7.5，负 -15");
    }
}
