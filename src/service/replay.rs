//! `/replay [game]`: a game as an animated GIF, one frame per move, each
//! with the move just played (numbered SAN) beside the player who made it,
//! and the result on the last frame. A player sees it from their side
//! (or with White at the bottom if they chose so); anyone else from White's.
//!
//! What is drawn on the frames is notation only (SAN, `1-0`, `½`), the
//! same in every language: the board font has no CJK glyphs.

use shakmaty::{Color, Position};

use super::{
    error::{refuse_msg, ServiceError},
    view::move_squares,
    Actor, Image, Reply, Service,
};
use crate::{
    chess::{color_index, Game, GameResult},
    i18n::Lang,
    msg,
    render::{GifFrame, GifOptions, PlayerLine, PlayersBar, Theme, MAX_GIF_FRAMES},
    t,
};

/// Time each move is shown, and the last frame before the replay loops.
const FRAME_MS: u32 = 1_000;
const LAST_FRAME_MS: u32 = 4_000;

impl Service {
    /// `game` replayed as a GIF (one frame a ply, the players bar from
    /// `names`), rendered off the async runtime.
    pub(super) async fn render_replay(
        &self,
        game: &Game,
        names: &[String; 2],
        orientation: Color,
        theme: Theme,
        lang: Lang,
    ) -> Result<Vec<u8>, ServiceError> {
        let frames = replay_frames(game, names, orientation, lang);
        let options = GifOptions {
            orientation,
            theme,
            frame_delay_ms: FRAME_MS,
            last_frame_delay_ms: LAST_FRAME_MS,
            ..GifOptions::default()
        };
        let service = self.clone();
        tokio::task::spawn_blocking(move || service.inner.renderer.render_gif(&options, &frames))
            .await
            .map_err(|e| ServiceError::Internal(format!("replay task: {e}")))?
            .map_err(|e| ServiceError::Internal(format!("replay: {e}")))
    }

    pub(super) async fn replay_gif(
        &self,
        actor: &Actor,
        game: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let Some(record) = self.named_game(actor, game).await? else {
            return refuse_msg(match game {
                Some(id) => msg!("features-replay-not-found", game = id),
                None => msg!("features-replay-no-game"),
            });
        };
        let session = self.load(record).await?;
        let r = &session.record;
        let game = &session.game;
        if game.plies().len() + 1 > MAX_GIF_FRAMES {
            return refuse_msg(msg!(
                "features-replay-too-long",
                game = r.id,
                plies = game.plies().len(),
                max = MAX_GIF_FRAMES - 1
            ));
        }
        let players = self
            .store()
            .player_pair(&r.game.server_id, [&r.game.white_id, &r.game.black_id])
            .await?;
        // Posted in the channel: the server's language.
        let lang = self.server_lang(&actor.server).await;
        let names = [0, 1].map(|i| {
            super::shown_name_in(
                lang,
                [&r.game.white_id, &r.game.black_id][i],
                players[i].as_ref().map(|p| p.titled_name()).as_deref(),
                r.game.variant,
            )
        });
        let viewer = session.side_of(&actor.user);
        let pinned = self
            .store()
            .player(&actor.server, &actor.user)
            .await?
            .is_some_and(|p| p.board_white);
        let orientation = match viewer {
            Some(side) if !pinned => side,
            _ => Color::White,
        };
        let theme = Theme::by_name(&self.settings_of(&session).await?.theme).unwrap_or_default();
        let gif = self
            .render_replay(game, &names, orientation, theme, lang)
            .await?;
        let outcome = match game.ending() {
            Some(ending) if ending.result == GameResult::NoResult => ending.text(lang),
            Some(ending) => t!(
                lang,
                "features-replay-result",
                result = ending.result.pgn(),
                ending = ending.text(lang)
            ),
            None => t!(lang, "features-replay-in-progress"),
        };
        Ok(Reply {
            text: t!(
                lang,
                "features-replay-caption",
                game = r.id,
                white = names[0].as_str(),
                black = names[1].as_str(),
                outcome = outcome
            ),
            image: Some(Image {
                file_name: format!("replay-{}.gif", r.id),
                png: gif,
                description: replay_description(
                    lang,
                    &t!(lang, "alt-game-number", id = r.id),
                    game,
                    Some(&names),
                ),
            }),
            ..Reply::default()
        })
    }
}

/// A replay in words for screen readers: which game, how many moves, and
/// the final position (as a board's description says it).
pub(super) fn replay_description(
    lang: Lang,
    game_label: &str,
    game: &Game,
    names: Option<&[String; 2]>,
) -> String {
    let count = game.plies().len();
    let position = super::view::board_description(lang, game);
    let text = match names {
        Some([white, black]) => t!(
            lang,
            "alt-replay",
            game = game_label,
            white = white.as_str(),
            black = black.as_str(),
            count = count,
            position = position
        ),
        // A pasted game that names neither player: "White (White) vs Black
        // (Black)" would say nothing.
        None => t!(
            lang,
            "alt-replay-unnamed",
            game = game_label,
            count = count,
            position = position
        ),
    };
    crate::chess::describe::cut(&text, crate::chess::describe::MAX_DESCRIPTION)
}

/// One frame for the starting position and one per ply, each with its
/// variant's marks (pockets, checks given, the hill; text in `lang`). The
/// mover's bar shows the move just played; the last frame of a finished
/// game shows each player's score beside it.
pub(super) fn replay_frames(
    game: &Game,
    names: &[String; 2],
    orientation: Color,
    lang: Lang,
) -> Vec<GifFrame> {
    let variant = game.variant();
    let marked = |frame: &mut GifFrame, position: &shakmaty::variant::VariantPosition| {
        (frame.marks, frame.strips) =
            super::variant_board::marks(variant, position, lang, orientation);
    };
    let bar = |details: &[String; 2]| {
        let line = |c: Color| PlayerLine {
            name: names[color_index(c)].clone(),
            detail: details[color_index(c)].clone(),
        };
        Some(PlayersBar {
            top: line(!orientation),
            bottom: line(orientation),
        })
    };
    let mut position = game.initial_position().clone();
    let first = position.turn();
    let first_number = position.fullmoves().get();
    let mut details: [String; 2] = Default::default();
    let mut start = GifFrame::from_position(&position, None);
    start.players = bar(&details);
    marked(&mut start, &position);
    let mut frames = vec![start];
    for (i, ply) in game.plies().iter().enumerate() {
        let mover = if i % 2 == 0 { first } else { !first };
        // The full-move number of this ply, counted from the start position.
        let after_first = i + usize::from(first == Color::Black);
        let number = first_number.saturating_add(u32::try_from(after_first / 2).unwrap_or(0));
        details = Default::default();
        details[color_index(mover)] = match mover {
            Color::White => format!("{number}. {}", ply.san),
            Color::Black => format!("{number}... {}", ply.san),
        };
        position.play_unchecked(ply.mv);
        let mut frame = GifFrame::from_position(&position, Some(move_squares(&ply.mv)));
        frame.players = bar(&details);
        marked(&mut frame, &position);
        frames.push(frame);
    }
    if let (Some(ending), Some(last)) = (game.ending(), frames.last_mut()) {
        let scores = match ending.result {
            GameResult::WhiteWins => ["1", "0"],
            GameResult::BlackWins => ["0", "1"],
            GameResult::Draw => ["½", "½"],
            GameResult::NoResult => ["*", "*"],
        };
        for (detail, score) in details.iter_mut().zip(scores) {
            *detail = if detail.is_empty() {
                score.to_owned()
            } else {
                format!("{detail}   {score}")
            };
        }
        last.players = bar(&details);
    }
    frames
}
