//! The game viewer's contents: every position of a game, its moves as the
//! server writes them, the clocks after each move of a live game, and for
//! an analysed game the engine's evaluations, the accuracies and the
//! mistakes with the better moves. A game still being played shows its
//! moves but never an analysis (fair play).

use shakmaty::{fen::Fen, EnPassantMode, Position};

use super::Club;
use crate::{
    chess::{color_index, pgn},
    clock::format_clock,
    i18n::Lang,
    service::{
        analyze::positions_of, ladder::clock_comments, lang::settings_notation,
        session::stored_ending, Service, ServiceError,
    },
    t,
};

/// One game, ready to be shown move by move.
#[derive(Clone, Debug)]
pub struct ViewerPage {
    pub game_id: i64,
    /// White's and Black's names.
    pub players: [String; 2],
    /// "White wins by checkmate", or that the game is on.
    pub status: String,
    pub active: bool,
    /// "C50 Italian Game", once the game reached a named position.
    pub opening: Option<String>,
    /// The starting position (FEN).
    pub start_fen: String,
    pub plies: Vec<ViewerPly>,
    /// White's and Black's accuracy (analysed games), as "87%".
    pub accuracy: Option<[Option<String>; 2]>,
    /// White's and Black's inaccuracies, mistakes and blunders.
    pub counts: Option<[[usize; 3]; 2]>,
    /// The evaluation of every position, White's view, in pawns clipped to
    /// ±10 (analysed games): plies + 1 values.
    pub pawns: Option<Vec<f64>>,
    /// The game in PGN (letters, with clocks for a live game).
    pub pgn: String,
    /// The board's theme on this server.
    pub theme: String,
}

#[derive(Clone, Debug)]
pub struct ViewerPly {
    /// "12.", "12…" and the move as the server writes it (`Nf3`, `马f3`).
    pub number: String,
    pub san: String,
    /// The move in letters (`Nf3`), whatever the server's notation.
    pub letters: String,
    /// The position after the move.
    pub fen: String,
    /// The move's squares (`e2`, `e4`), for the board's highlight.
    pub from: String,
    pub to: String,
    /// The mover's time left after it, live games only ("4:32").
    pub clock: Option<String>,
    /// `?!`, `?`, `??` (analysed games).
    pub judgement: Option<&'static str>,
    /// The engine's better move, for a judged move.
    pub better: Option<String>,
}

impl Service {
    /// Game `game_id` of `club`'s server; `None` if it is not one of its.
    pub async fn viewer_page(
        &self,
        club: &Club,
        game_id: i64,
        lang: Lang,
    ) -> Result<Option<ViewerPage>, ServiceError> {
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        if record.game.server_id != club.server() {
            return Ok(None);
        }
        let active = record.is_active();
        let session = self.load(record).await?;
        let r = &session.record;
        let server = &r.game.server_id;
        let players = [
            self.name_in(server, &r.game.white_id, lang).await?,
            self.name_in(server, &r.game.black_id, lang).await?,
        ];
        let notation = settings_notation(&club.settings);
        let status = match stored_ending(&r.state) {
            Some(ending) => ending.text(lang),
            None => t!(lang, "web-viewer-in-progress"),
        };
        let review = if active {
            None
        } else {
            self.stored_review(&session).await?
        };
        let clocks = clock_comments(&session.game, &r.game.time_control, &session.pauses());
        let first = session.game.initial_position().turn();
        let start_move = u32::from(session.game.initial_position().fullmoves());
        let positions = positions_of(&session.game);
        let plies = session
            .game
            .plies()
            .iter()
            .enumerate()
            .map(|(i, ply)| {
                let mover = if i % 2 == 0 { first } else { !first };
                let full = start_move + (i as u32 + u32::from(first.is_black())) / 2;
                let number = match mover {
                    shakmaty::Color::White => format!("{full}."),
                    shakmaty::Color::Black => format!("{full}…"),
                };
                let judged = review
                    .as_ref()
                    .and_then(|r| r.review.moves.get(i))
                    .and_then(|m| m.judgement);
                ViewerPly {
                    number,
                    san: notation.write(&ply.san).into_owned(),
                    letters: ply.san.to_string(),
                    fen: fen_of(&positions[i + 1]),
                    from: ply.uci.get(0..2).unwrap_or_default().to_owned(),
                    to: ply.uci.get(2..4).unwrap_or_default().to_owned(),
                    clock: clocks
                        .as_ref()
                        .and_then(|c| c.get(i))
                        .map(|&ms| format_clock(ms)),
                    judgement: judged.map(|j| j.nag()),
                    better: judged
                        .and(review.as_ref())
                        .and_then(|r| r.better.get(i).cloned().flatten())
                        .map(|san| notation.write(&san).into_owned()),
                }
            })
            .collect();
        let tags = self.pgn_tags(&session).await?;
        let pgn = pgn::export(&session.game, &tags, clocks.as_deref());
        let percent = |a: Option<f64>| a.map(|v| format!("{}%", v.round() as i64));
        Ok(Some(ViewerPage {
            game_id,
            players,
            status,
            active,
            opening: crate::chess::opening::classify(&session.game).map(|o| o.text(lang)),
            start_fen: fen_of(&positions[0]),
            plies,
            accuracy: review.as_ref().map(|r| {
                [
                    percent(r.review.accuracy[color_index(shakmaty::Color::White)]),
                    percent(r.review.accuracy[color_index(shakmaty::Color::Black)]),
                ]
            }),
            counts: review.as_ref().map(|r| r.review.counts),
            pawns: review.as_ref().map(|r| {
                r.scores
                    .iter()
                    .map(|s| f64::from(s.clipped_cp()) / 100.0)
                    .collect()
            }),
            pgn,
            theme: club.settings.theme.clone(),
        }))
    }
}

impl ViewerPage {
    /// The position after `ply` plies in words, for the board image's
    /// alternative text (whose move, the last move, check, every piece).
    pub fn position_text(&self, ply: usize, lang: Lang) -> String {
        let fen = match ply.checked_sub(1).and_then(|i| self.plies.get(i)) {
            Some(p) => &p.fen,
            None => &self.start_fen,
        };
        let Ok(position) = fen.parse::<Fen>().map_err(|_| ()).and_then(|f| {
            f.into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Chess960)
                .map_err(|_| ())
        }) else {
            return String::new();
        };
        let last = ply.checked_sub(1).and_then(|i| self.plies.get(i));
        let over = !self.active && ply == self.plies.len();
        let caption = crate::chess::describe::Caption {
            last_move: last.map(|p| p.letters.as_str()),
            ending: over.then(|| self.status.clone()),
        };
        crate::chess::describe::describe(lang, &position, &caption)
    }
}

fn fen_of<P: shakmaty::Position>(position: &P) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

impl Service {
    /// The board of game `game_id` after `ply` plies (clamped to the game),
    /// as a PNG: what the viewer shows where no script runs.
    pub async fn viewer_board(
        &self,
        club: &Club,
        game_id: i64,
        ply: usize,
    ) -> Result<Option<Vec<u8>>, ServiceError> {
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        if record.game.server_id != club.server() {
            return Ok(None);
        }
        let session = self.load(record).await?;
        let positions = positions_of(&session.game);
        let ply = ply.min(positions.len() - 1);
        let mut frame = crate::render::Frame::from_position(&positions[ply]);
        frame.last_move = ply
            .checked_sub(1)
            .and_then(|i| session.game.plies().get(i))
            .map(|p| crate::chess::dests::move_squares(&p.mv));
        if let Some(theme) = crate::render::Theme::by_name(&club.settings.theme) {
            frame.theme = theme;
        }
        let image = self
            .render_board(frame, format!("game-{game_id}-{ply}.png"))
            .await?;
        Ok(Some(image.png))
    }
}
