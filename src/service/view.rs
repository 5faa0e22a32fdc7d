//! How a game is shown: the board reply (image, whose turn, last move, FEN,
//! time, buttons, the player to mention) and, once a game has ended, its
//! result with both players' rating changes and new levels.

use std::sync::Arc;

use shakmaty::{Color, Move, Position, Square};

use super::{
    buttons::GameButton, error::ServiceError, session::Session, ButtonStyle, Card, Image, Reply,
    Service,
};
use crate::{
    chess::{color_index, color_name, Game},
    clock::{clocks_after, format_clk, TimeControl},
    rating::Points,
    render::{Frame, PlayerLine, PlayersBar, Theme},
    store::{GameRecord, PlayerRecord, RatingChangeRecord},
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
        let players = self.players_of(&session.record).await?;
        self.board_reply_with(session, game, ratings, players).await
    }

    /// Both players' rows of a game (names and points), in one query.
    pub(super) async fn players_of(
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

    /// [`Self::board_reply`] with the players' rows already read (a move
    /// reads them while its change commits). Points come from `ratings`
    /// when the game has just been settled.
    pub(super) async fn board_reply_with(
        &self,
        session: &Session,
        game: &Game,
        ratings: Option<[RatingChangeRecord; 2]>,
        [white_row, black_row]: [Option<PlayerRecord>; 2],
    ) -> Result<Reply, ServiceError> {
        let record = &session.record;
        let name_or_id = |row: &Option<PlayerRecord>, id: &str| {
            row.as_ref()
                .map_or_else(|| id.to_owned(), |p| p.display_name.clone())
        };
        let white = name_or_id(&white_row, &record.game.white_id);
        let black = name_or_id(&black_row, &record.game.black_id);
        let points = match &ratings {
            Some([w, b]) => [w.after, b.after],
            None => [&white_row, &black_row].map(|row| row.as_ref().map_or(0, |p| p.points)),
        };
        let name = |c: Color| match c {
            Color::White => white.as_str(),
            Color::Black => black.as_str(),
        };
        let tc: Option<TimeControl> = record.game.time_control.parse().ok();
        let mut card = Card {
            title: format!("{white} (White) vs {black} (Black)"),
            ..Card::default()
        };
        let mut reply = Reply::default();
        let turn = game.turn();
        match game.ending() {
            None => {
                reply.text = format!("{} ({}) to move.", name(turn), color_name(turn));
                card.fields.push((
                    "Turn".to_owned(),
                    format!("{} ({})", name(turn), color_name(turn)),
                ));
                reply.mentions = vec![session.player_id(turn).to_owned()];
            }
            Some(ending) => {
                reply.text = format!("Game over: {ending}.");
                card.fields.push((
                    "Result".to_owned(),
                    format!("{} — {ending}", ending.result.pgn()),
                ));
            }
        }
        if let Some(ply) = game.last_ply() {
            card.fields.push(("Last move".to_owned(), ply.san.clone()));
        }
        if let Some(offerer) = game.draw_offer() {
            card.fields.push((
                "Draw offer".to_owned(),
                format!("{} offers a draw", name(offerer)),
            ));
        }
        if let Some(claim) = game.claimable_draw() {
            card.fields.push((
                "Draw claim".to_owned(),
                format!(
                    "{} may claim a draw by {}",
                    name(turn),
                    claim.termination().describe()
                ),
            ));
        }
        if let Some(tc) = &tc {
            card.fields.push(("Time".to_owned(), tc.describe()));
            if !game.is_over() {
                card.deadline_ms = record.state.deadline_ms;
            }
        }
        if let Some([w, b]) = &ratings {
            for (who, change) in [(white.as_str(), w), (black.as_str(), b)] {
                let after = Points::from_hundredths(change.after);
                card.fields.push((
                    format!("{who}'s points"),
                    format!(
                        "{} → {after} ({}), {}",
                        Points::from_hundredths(change.before),
                        Points::from_hundredths(change.delta).signed(),
                        after.level().name_en()
                    ),
                ));
            }
        }
        card.fields.push(("FEN".to_owned(), game.fen()));
        card.footer = Some(format!(
            "Game #{}{}",
            record.id,
            if record.game.rated {
                " · rated"
            } else {
                " · unrated"
            }
        ));
        reply.card = Some(card);
        reply.image = Some(
            self.board_image(session, game, tc.as_ref(), [&white, &black], points)
                .await?,
        );
        if !game.is_over() {
            let button =
                |action, label: &str, style| self.game_button(session, action, label, style);
            reply
                .buttons
                .push(button(GameButton::Resign, "Resign", ButtonStyle::Danger));
            match game.draw_offer() {
                Some(_) => {
                    reply.buttons.push(button(
                        GameButton::DrawAccept,
                        "Accept draw",
                        ButtonStyle::Success,
                    ));
                    reply.buttons.push(button(
                        GameButton::DrawDecline,
                        "Decline draw",
                        ButtonStyle::Secondary,
                    ));
                }
                _ => reply.buttons.push(button(
                    GameButton::DrawOffer,
                    "Offer draw",
                    ButtonStyle::Secondary,
                )),
            }
            reply.buttons.extend(self.give_time_button(session));
            if game.claimable_draw().is_some() {
                reply.buttons.push(button(
                    GameButton::DrawClaim,
                    "Claim draw",
                    ButtonStyle::Primary,
                ));
            }
        }
        Ok(reply)
    }

    async fn board_image(
        &self,
        session: &Session,
        game: &Game,
        tc: Option<&TimeControl>,
        [white, black]: [&str; 2],
        points: [i64; 2],
    ) -> Result<Image, ServiceError> {
        let settings = self.settings_of(session).await?;
        let position = game.position();
        // The player to move sees the board from their side; a finished game
        // is shown from White's.
        let orientation = if game.is_over() {
            Color::White
        } else {
            position.turn()
        };
        let mut frame = Frame::from_position(position);
        frame.orientation = orientation;
        frame.theme = Theme::by_name(&settings.theme).unwrap_or_default();
        frame.last_move = game.last_ply().map(|p| move_squares(&p.mv));
        let details = self.bar_details(game, tc, points);
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
        let renderer: Arc<_> = self.inner.renderer.clone();
        let started = std::time::Instant::now();
        let png = tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            let png = renderer.render_png(&frame);
            crate::metrics::observe_render(started.elapsed());
            png
        })
        .await
        .map_err(|e| ServiceError::Internal(format!("render task: {e}")))?
        .map_err(|e| ServiceError::Internal(format!("render: {e}")))?;
        self.inner
            .timings
            .record(super::timing::Stage::Render, started);
        Ok(Image {
            file_name: format!("game-{}-{}.png", session.record.id, game.plies().len()),
            png,
        })
    }

    /// What the name bars show beside each player: remaining time on a live
    /// clock, else club points (`points`, in hundredths, White's first).
    fn bar_details(&self, game: &Game, tc: Option<&TimeControl>, points: [i64; 2]) -> [String; 2] {
        if let Some(TimeControl::Live(live)) = tc {
            let times: Vec<i64> = game.plies().iter().map(|p| p.at_ms).collect();
            let state = clocks_after(live, &times);
            let now = if game.is_over() {
                state.running_since_ms.unwrap_or(0)
            } else {
                self.now_ms()
            };
            let [w, b] = state.remaining_at(now);
            return [format_clk(w), format_clk(b)];
        }
        points.map(|p| Points::from_hundredths(p).to_string())
    }
}

/// The two squares a move touches, as highlighted (castling: king's from/to).
fn move_squares(mv: &Move) -> (Square, Square) {
    match *mv {
        Move::Castle { king, rook } => {
            let to_file = if rook.file() > king.file() {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            (king, Square::from_coords(to_file, king.rank()))
        }
        _ => (mv.from().unwrap_or(mv.to()), mv.to()),
    }
}
