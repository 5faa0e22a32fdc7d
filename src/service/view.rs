//! How a game is shown: the board reply (image, whose turn, last move, FEN,
//! time, buttons, the player to mention) and, once a game has ended, its
//! result with both players' rating changes and new levels.

use shakmaty::Color;

use super::{
    buttons::GameButton, error::ServiceError, session::Session, timing::Stage, ButtonStyle, Card,
    Image, Reply, Service,
};
use crate::{
    chess::{color_index, color_text, Game},
    clock::{format_clock, TimeControl},
    i18n::Lang,
    rating::Points,
    render::{Frame, PlayerLine, PlayersBar, Theme},
    store::{GameRecord, PlayerRecord, RatingChangeRecord},
    t,
};

impl Service {
    /// The board of `game` (the session's game, possibly just changed), with
    /// the result and `ratings` if it has ended.
    pub(super) async fn board_reply(
        &self,
        session: &Session,
        game: &Game,
        ratings: Option<[RatingChangeRecord; 2]>,
    ) -> Result<Reply, ServiceError> {
        let players = self.players_for(session).await?;
        self.board_reply_with(session, game, ratings, players, None)
            .await
    }

    /// Both players' rows of the session's game: as read along with it for
    /// play, else read now.
    pub(super) async fn players_for(
        &self,
        session: &Session,
    ) -> Result<[Option<PlayerRecord>; 2], ServiceError> {
        let players = match &session.read_along {
            Some(read) => read.players.clone(),
            None => self.players_of(&session.record).await?,
        };
        self.on_game_ladder(&session.record, players).await
    }

    /// The players' rows with the points and record of the ladder the game
    /// is played for: standard chess's as read, another variant's read
    /// from its own ladder (0 points before a first rated game in it).
    async fn on_game_ladder(
        &self,
        record: &GameRecord,
        mut players: [Option<PlayerRecord>; 2],
    ) -> Result<[Option<PlayerRecord>; 2], ServiceError> {
        let variant = record.game.variant;
        if variant == crate::chess::Variant::Standard {
            return Ok(players);
        }
        for row in players.iter_mut().flatten() {
            let own = self
                .store()
                .player_in(&record.game.server_id, &row.user_id, variant)
                .await?;
            row.points = own.as_ref().map_or(0, |p| p.points);
            row.rated_games = own.as_ref().map_or(0, |p| p.rated_games);
            row.wins = own.as_ref().map_or(0, |p| p.wins);
            row.draws = own.as_ref().map_or(0, |p| p.draws);
            row.losses = own.as_ref().map_or(0, |p| p.losses);
        }
        Ok(players)
    }

    /// Both players' rows of a game (names and points), in one query.
    async fn players_of(
        &self,
        record: &GameRecord,
    ) -> Result<[Option<PlayerRecord>; 2], ServiceError> {
        Ok(self
            .store()
            .player_pair(
                &record.game.server_id,
                [&record.game.white_id, &record.game.black_id],
            )
            .await?)
    }

    /// [`Self::board_reply`] with the players' rows already read, and the
    /// board already drawn if `image` (a move draws it while it commits).
    /// Points come from `ratings` when the game has just been settled.
    pub(super) async fn board_reply_with(
        &self,
        session: &Session,
        game: &Game,
        ratings: Option<[RatingChangeRecord; 2]>,
        players: [Option<PlayerRecord>; 2],
        image: Option<Image>,
    ) -> Result<Reply, ServiceError> {
        let record = &session.record;
        let (lang, notation) = self.session_words(session).await?;
        let ([white, black], points) = names_and_points(lang, record, &players, ratings.as_ref());
        let name = |c: Color| match c {
            Color::White => white.as_str(),
            Color::Black => black.as_str(),
        };
        let tc: Option<TimeControl> = record.game.time_control.parse().ok();
        let mut card = Card {
            title: t!(lang, "board-title", white = &white, black = &black),
            ..Card::default()
        };
        let mut reply = Reply::default();
        if game.variant() != crate::chess::Variant::Standard {
            card.fields.push((
                t!(lang, "board-field-variant"),
                game.variant().with_start(lang, game.start_number()),
            ));
        }
        let turn = game.turn();
        match game.ending() {
            None => {
                let color = color_text(lang, turn);
                reply.text = t!(lang, "board-to-move", name = name(turn), color = &color);
                card.fields.push((
                    t!(lang, "board-field-turn"),
                    t!(lang, "board-turn", name = name(turn), color = &color),
                ));
                // The computer needs no notification.
                let to_move = session.player_id(turn);
                if crate::engine::Level::of_player(to_move).is_none() {
                    reply.mentions = vec![to_move.to_owned()];
                }
            }
            Some(ending) => {
                let (result, ending) = (ending.result, ending.text(lang));
                reply.text = t!(lang, "board-game-over", ending = &ending);
                // An aborted game has no score: PGN's `*` means nothing to a
                // player, so the field says only how it ended.
                let field = match result {
                    crate::chess::GameResult::NoResult => ending,
                    scored => format!("{} — {ending}", scored.pgn()),
                };
                card.fields.push((t!(lang, "board-field-result"), field));
            }
        }
        if let Some(ply) = game.last_ply() {
            card.fields.push((
                t!(lang, "board-field-last-move"),
                notation.write(&ply.san).into_owned(),
            ));
        }
        // Named once the game reaches a position of the book, and kept
        // after it leaves (the last named position it passed through).
        if let Some(opening) = crate::chess::opening::classify(game) {
            card.fields
                .push((t!(lang, "board-field-opening"), opening.text(lang)));
        }
        if let Some(open) = session.open_adjournment().filter(|_| !game.is_over()) {
            // Read by `session_words` above.
            let offset = session.settings_read().map_or(0, |s| s.utc_offset_minutes);
            let sealer = name(turn);
            let state = match (&open.sealed_uci, open.resume_ms) {
                (None, _) => t!(lang, "board-adjourned-sealing", name = sealer),
                (Some(_), Some(at)) => t!(
                    lang,
                    "board-adjourned-sealed",
                    name = sealer,
                    time = crate::clock::local_minute(at, offset)
                ),
                (Some(_), None) => t!(lang, "board-adjourned-sealed-unset", name = sealer),
            };
            card.fields.push((t!(lang, "board-field-adjourned"), state));
            reply.text = t!(
                lang,
                "board-adjourned",
                name = sealer,
                color = color_text(lang, turn)
            );
        }
        if let Some(offerer) = game.draw_offer() {
            card.fields.push((
                t!(lang, "board-field-draw-offer"),
                t!(lang, "board-draw-offer", name = name(offerer)),
            ));
        }
        if let Some(claim) = game.claimable_draw() {
            card.fields.push((
                t!(lang, "board-field-draw-claim"),
                t!(
                    lang,
                    "board-draw-claim",
                    name = name(turn),
                    termination = match claim {
                        crate::chess::DrawClaim::ThreefoldRepetition => t!(lang, "claim-threefold"),
                        crate::chess::DrawClaim::FiftyMoveRule => t!(lang, "claim-fifty-move"),
                    }
                ),
            ));
        }
        if let Some(tc) = &tc {
            card.fields
                .push((t!(lang, "board-field-time"), tc.text(lang)));
            if !game.is_over() {
                card.deadline_ms = record.state.deadline_ms;
                // A live clock starts only once each side has moved
                // (`clock::live`): until then the deadline is the first
                // move's, not a flag.
                let first_move = tc.live().is_some() && game.plies().len() < 2;
                card.deadline_label = Some(match first_move {
                    true => t!(lang, "board-field-first-move-due"),
                    false => t!(lang, "board-field-deadline"),
                });
            }
        }
        if let Some([w, b]) = &ratings {
            for (who, change) in [(white.as_str(), w), (black.as_str(), b)] {
                let after = Points::from_hundredths(change.after);
                card.fields.push((
                    t!(lang, "board-field-points", name = who),
                    t!(
                        lang,
                        "board-points-change",
                        before = Points::from_hundredths(change.before).to_string(),
                        after = after.to_string(),
                        delta = Points::from_hundredths(change.delta).signed().to_string(),
                        level = after.level().name(lang)
                    ),
                ));
            }
        }
        card.fields.push(("FEN".to_owned(), game.fen()));
        card.footer = Some(if record.game.rated {
            t!(lang, "board-footer-rated", id = record.id)
        } else {
            t!(lang, "board-footer-unrated", id = record.id)
        });
        reply.card = Some(card);
        let mut image = match image {
            Some(image) => image,
            None => {
                let orientation = board_orientation(game, &players);
                let frame = self
                    .board_frame(
                        session,
                        game,
                        tc.as_ref(),
                        [&white, &black],
                        points,
                        orientation,
                    )
                    .await?;
                self.render_board(frame, image_name(session, game)).await?
            }
        };
        image.description = board_description(lang, game);
        reply.image = Some(image);
        if !game.is_over() {
            let button =
                |action, label: &str, style| self.game_button(session, game, action, label, style);
            reply.buttons.push(button(
                GameButton::Resign,
                &t!(lang, "button-resign"),
                ButtonStyle::Danger,
            ));
            match game.draw_offer() {
                Some(_) => {
                    reply.buttons.push(button(
                        GameButton::DrawAccept,
                        &t!(lang, "button-draw-accept"),
                        ButtonStyle::Success,
                    ));
                    reply.buttons.push(button(
                        GameButton::DrawDecline,
                        &t!(lang, "button-draw-decline"),
                        ButtonStyle::Secondary,
                    ));
                }
                _ => reply.buttons.push(button(
                    GameButton::DrawOffer,
                    &t!(lang, "button-draw-offer"),
                    ButtonStyle::Secondary,
                )),
            }
            reply
                .buttons
                .extend(self.give_time_button(session, game, lang));
            let adjourned = session.open_adjournment().is_some();
            if game.claimable_draw().is_some() && !adjourned {
                reply.buttons.push(button(
                    GameButton::DrawClaim,
                    &t!(lang, "button-draw-claim"),
                    ButtonStyle::Primary,
                ));
            }
            // `lang` is the server's language already (from the settings
            // read along with the game): no second read of the server.
            if !record.game.rated && !game.plies().is_empty() && !adjourned {
                reply.buttons.push(button(
                    GameButton::Takeback,
                    &t!(lang, "features-button-takeback"),
                    ButtonStyle::Secondary,
                ));
            }
        } else if self.store().tournament_of_game(record.id).await?.is_none() {
            // A tournament's next game is the tournament's to pair.
            reply.buttons.push(self.game_button(
                session,
                game,
                GameButton::Rematch,
                &t!(lang, "features-button-rematch"),
                ButtonStyle::Primary,
            ));
        }
        reply.buttons.extend(self.web_buttons(session, game, lang));
        Ok(reply)
    }

    /// What the board of `game` (not ended) will show, for a move to draw
    /// while its change commits ([`Self::draw_now`]).
    pub(super) async fn move_board_frame(
        &self,
        session: &Session,
        game: &Game,
        players: &[Option<PlayerRecord>; 2],
    ) -> Result<(Frame, String), ServiceError> {
        let (lang, _) = self.session_words(session).await?;
        let ([white, black], points) = names_and_points(lang, &session.record, players, None);
        let tc: Option<TimeControl> = session.record.game.time_control.parse().ok();
        let frame = self
            .board_frame(
                session,
                game,
                tc.as_ref(),
                [&white, &black],
                points,
                board_orientation(game, players),
            )
            .await?;
        Ok((frame, image_name(session, game)))
    }

    /// Draws a move's board (480 px) on the calling thread. A move does
    /// this while the database works on its commit: the drawing (0.1–0.2
    /// ms, about what tokio advises at most between two awaits) costs less
    /// than the hop to a blocking thread and back (two thread wake-ups),
    /// and runs beside the database's worker thread instead of after it.
    pub(super) fn draw_now(
        &self,
        (frame, file_name): (Frame, String),
    ) -> Result<Image, ServiceError> {
        let started = std::time::Instant::now();
        // A bug in drawing must cost the player an apology, not the task
        // answering them (as a panicking blocking task would: a JoinError).
        let renderer = &self.inner.renderer;
        let drawn =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| renderer.render_png(&frame)));
        let png = match drawn {
            Ok(png) => png.map_err(|e| ServiceError::Internal(format!("render: {e}")))?,
            Err(_) => return Err(ServiceError::Internal("render panicked".to_owned())),
        };
        crate::metrics::observe_render(started.elapsed());
        self.inner.timings.record(Stage::Render, started);
        Ok(Image {
            file_name,
            png,
            // The reply that shows it says what it shows.
            description: String::new(),
        })
    }

    /// What the board image of `game` shows.
    async fn board_frame(
        &self,
        session: &Session,
        game: &Game,
        tc: Option<&TimeControl>,
        [white, black]: [&str; 2],
        points: [i64; 2],
        orientation: Color,
    ) -> Result<Frame, ServiceError> {
        let settings = self.settings_of(session).await?;
        let position = game.position();
        let mut frame = Frame::from_position(position);
        frame.orientation = orientation;
        frame.theme = Theme::by_name(&settings.theme).unwrap_or_default();
        frame.last_move = game.last_ply().map(|p| move_squares(&p.mv));
        let ended_ms = match game.is_over() {
            // Just ended by this action: the commit set the time.
            true => session
                .record
                .state
                .ended_ms
                .or_else(|| Some(self.now_ms())),
            false => None,
        };
        let details = self.bar_details(game, tc, points, ended_ms, &session.pauses());
        let line = |c: Color| PlayerLine {
            name: match c {
                Color::White => white.to_owned(),
                Color::Black => black.to_owned(),
            },
            detail: details[color_index(c)].clone(),
        };
        frame.players = Some(PlayersBar {
            top: line(!orientation),
            bottom: line(orientation),
        });
        let lang = super::lang::settings_lang(settings);
        super::variant_board::decorate(&mut frame, game, lang, orientation);
        Ok(frame)
    }

    /// Draws `frame` on the blocking pool. The work starts at once; the
    /// returned future only waits for it.
    pub(super) fn render_board(
        &self,
        frame: Frame,
        file_name: String,
    ) -> impl std::future::Future<Output = Result<Image, ServiceError>> + 'static + use<> {
        let service = self.clone();
        let task = tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            let png = service.inner.renderer.render_png(&frame);
            crate::metrics::observe_render(started.elapsed());
            service.inner.timings.record(Stage::Render, started);
            png
        });
        let service = self.clone();
        async move {
            let waiting = std::time::Instant::now();
            let png = task
                .await
                .map_err(|e| ServiceError::Internal(format!("render task: {e}")))?
                .map_err(|e| ServiceError::Internal(format!("render: {e}")))?;
            service.inner.timings.record(Stage::RenderWait, waiting);
            Ok(Image {
                file_name,
                png,
                description: String::new(),
            })
        }
    }

    /// What the name bars show beside each player: remaining time on a live
    /// clock, else club points (`points`, in hundredths, White's first).
    fn bar_details(
        &self,
        game: &Game,
        tc: Option<&TimeControl>,
        points: [i64; 2],
        ended_ms: Option<i64>,
        pauses: &[crate::clock::Pause],
    ) -> [String; 2] {
        if let Some(TimeControl::Live(live)) = tc {
            let times: Vec<i64> = game.plies().iter().map(|p| p.at_ms).collect();
            return live_clocks(
                live,
                &times,
                pauses,
                game.is_over(),
                ended_ms,
                self.now_ms(),
            );
        }
        points.map(|p| Points::from_hundredths(p).to_string())
    }
}

/// The clocks of a live game after moves played at `times`, as the name
/// bars show them (White's first). A finished game's clocks stop when it
/// ended: after a time loss the loser's clock shows run down, not as it
/// stood when their turn began.
fn live_clocks(
    live: &crate::clock::LiveControl,
    times: &[i64],
    pauses: &[crate::clock::Pause],
    over: bool,
    ended_ms: Option<i64>,
    now_ms: i64,
) -> [String; 2] {
    let state = crate::clock::clocks_paused(live, times, pauses);
    let at = if over {
        ended_ms.or(state.running_since_ms).unwrap_or(0)
    } else {
        now_ms
    };
    state.remaining_at(at).map(format_clock)
}

/// Both players' names as shown in `lang` (see [`super::shown_name`]) and
/// points, White's first; points after the game if it was just settled
/// (`ratings`).
pub(super) fn names_and_points(
    lang: Lang,
    record: &GameRecord,
    [white_row, black_row]: &[Option<PlayerRecord>; 2],
    ratings: Option<&[RatingChangeRecord; 2]>,
) -> ([String; 2], [i64; 2]) {
    let name_or_id = |row: &Option<PlayerRecord>, id: &str| {
        super::shown_name_in(
            lang,
            id,
            row.as_ref().map(|p| p.titled_name()).as_deref(),
            record.game.variant,
        )
    };
    let names = [
        name_or_id(white_row, &record.game.white_id),
        name_or_id(black_row, &record.game.black_id),
    ];
    let points = match ratings {
        Some([w, b]) => [w.after, b.after],
        None => [white_row, black_row].map(|row| row.as_ref().map_or(0, |p| p.points)),
    };
    (names, points)
}

/// The side at the bottom of a board image: the player to move sees the
/// board from their side, unless they chose White at the bottom
/// (`/board-orientation white`); a finished game is shown from White's.
fn board_orientation(game: &Game, players: &[Option<PlayerRecord>; 2]) -> Color {
    if game.is_over() {
        return Color::White;
    }
    let turn = game.turn();
    let pinned = players[color_index(turn)]
        .as_ref()
        .is_some_and(|p| p.board_white);
    if pinned {
        Color::White
    } else {
        turn
    }
}

/// A board's words for screen readers, in `lang`: the variant and start
/// (when not standard chess), whose move or how the game ended, the last
/// move, check, and every piece.
pub(super) fn board_description(lang: Lang, game: &Game) -> String {
    let variant = match game.variant() {
        crate::chess::Variant::Standard => String::new(),
        v => t!(
            lang,
            "variant-caption",
            variant = v.with_start(lang, game.start_number())
        ),
    };
    let pieces = crate::chess::describe::describe(
        lang,
        game.position(),
        &crate::chess::describe::Caption {
            last_move: game.last_ply().map(|p| p.san.as_str()),
            ending: game.ending().map(|e| e.text(lang)),
        },
    );
    crate::i18n::join_sentences(lang, [variant, pieces])
}

/// The file name of a board image: the game and its ply.
fn image_name(session: &Session, game: &Game) -> String {
    format!("game-{}-{}.png", session.record.id, game.plies().len())
}

pub(super) use crate::chess::dests::move_squares;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flagged_clock_shows_run_down() {
        let live = match "1+0".parse::<TimeControl>() {
            Ok(TimeControl::Live(l)) => l,
            other => panic!("{other:?}"),
        };
        // The first moves (White at 0, Black at 2 s) are untimed; White's
        // minute then runs from 2 s, out at 62 s; the game ends on time at
        // 62.5 s. Before the fix the bar showed White's full minute.
        let times = [0, 2_000];
        let ended = live_clocks(&live, &times, &[], true, Some(62_500), 99_999);
        assert_eq!(ended, ["0:00.0".to_owned(), "1:00".to_owned()]);
        // In play, 51.5 s into White's turn: 8.5 s left, shown in tenths.
        let running = live_clocks(&live, &times, &[], false, None, 53_500);
        assert_eq!(running, ["0:08.5".to_owned(), "1:00".to_owned()]);
    }
}
