//! `/show fen:<FEN>` and `/show pgn:<text or file>`: any position drawn as
//! a board, any pasted game replayed as a GIF with its opening named.
//! Nothing is stored: these are pictures, not games.
//!
//! A FEN or PGN that cannot be used is answered privately with what is
//! wrong in it (the FEN field, the PGN move and its number); text longer
//! than a real one is refused before it is read.

use shakmaty::{Color, Position};

use super::{
    error::{refuse, refuse_msg, ServiceError},
    replay::replay_description,
    view::board_description,
    Actor, Card, Reply, Service,
};
use crate::{
    chess::{
        color_text,
        fen_input::read_fen,
        opening,
        pgn::{self, BadMove, PgnError},
        Game, GameResult,
    },
    i18n::Lang,
    msg,
    render::{Frame, Theme, MAX_GIF_FRAMES},
    t,
};

/// The longest PGN `/show` reads (a long game with comments is ~10 KB;
/// Discord's option text stops at 6,000 characters, a file can be more).
pub const MAX_SHOW_PGN_BYTES: usize = 32 * 1024;

impl Service {
    /// `/show`: exactly one of `fen` and `pgn`.
    pub(super) async fn show(
        &self,
        actor: &Actor,
        fen: Option<String>,
        pgn: Option<String>,
    ) -> Result<Reply, ServiceError> {
        match (fen, pgn) {
            (Some(fen), None) => self.show_fen(actor, &fen).await,
            (None, Some(pgn)) => self.show_pgn(actor, &pgn).await,
            _ => refuse_msg(msg!("show-one-of")),
        }
    }

    async fn show_fen(&self, actor: &Actor, text: &str) -> Result<Reply, ServiceError> {
        let position = match read_fen(text) {
            Ok(position) => position,
            Err(problem) => return refuse(problem.text(actor.lang())),
        };
        // `read_fen` accepted it, so this only adds the game's view of it
        // (an ending already on the board: mate, stalemate).
        let variant = match position.castles().mode() {
            shakmaty::CastlingMode::Chess960 => crate::chess::Variant::Chess960,
            shakmaty::CastlingMode::Standard => crate::chess::Variant::Standard,
        };
        let game = Game::from_fen_in(variant, text).or_else(|e| refuse(e.0.text(actor.lang())))?;
        let lang = self.show_lang(actor).await?;
        let theme = self.server_theme(actor).await?;
        let mut frame = Frame::from_position(&position);
        frame.orientation = position.turn();
        frame.theme = theme;
        let mut image = self.draw_now((frame, "position.png".to_owned()))?;
        image.description = board_description(lang, &game);
        let mut card = Card {
            title: t!(lang, "show-position-title"),
            ..Card::default()
        };
        match game.ending() {
            Some(ending) => card
                .fields
                .push((t!(lang, "board-field-result"), ending.text(lang))),
            None => card.fields.push((
                t!(lang, "board-field-turn"),
                color_text(lang, position.turn()),
            )),
        }
        if let Some(named) = opening::lookup(&position) {
            card.fields
                .push((t!(lang, "board-field-opening"), named.text(lang)));
        }
        card.fields.push(("FEN".to_owned(), game.fen()));
        Ok(Reply {
            text: t!(
                lang,
                "show-position-text",
                name = super::display_name(&actor.name)
            ),
            card: Some(card),
            image: Some(image),
            ..Reply::default()
        })
    }

    async fn show_pgn(&self, actor: &Actor, text: &str) -> Result<Reply, ServiceError> {
        let game = read_pasted(actor.lang(), text)?;
        let plies = game.game.plies().len();
        if plies + 1 > MAX_GIF_FRAMES {
            return refuse_msg(msg!(
                "show-pgn-too-long",
                plies = plies,
                max = MAX_GIF_FRAMES - 1
            ));
        }
        let lang = self.show_lang(actor).await?;
        let names = pasted_names(lang, &game);
        let theme = self.server_theme(actor).await?;
        let gif = self
            .render_replay(&game.game, &names, Color::White, theme, lang)
            .await?;
        let outcome = match game.game.ending() {
            Some(ending) if ending.result == GameResult::NoResult => ending.text(lang),
            Some(ending) => t!(
                lang,
                "features-replay-result",
                result = ending.result.pgn(),
                ending = ending.text(lang)
            ),
            None => t!(lang, "show-pgn-unfinished"),
        };
        let count = plies.div_ceil(2);
        // A PGN that names neither player would read "White (White) vs
        // Black (Black)".
        let named = pasted_is_named(&game);
        let caption = match named {
            true => t!(
                lang,
                "show-pgn-caption",
                white = names[0].as_str(),
                black = names[1].as_str(),
                count = count,
                outcome = outcome
            ),
            false => t!(
                lang,
                "show-pgn-caption-unnamed",
                count = count,
                outcome = outcome
            ),
        };
        let mut lines = vec![caption];
        if let Some(named) = opening::classify(&game.game) {
            lines.push(t!(lang, "engine-opening", opening = named.text(lang)));
        }
        Ok(Reply {
            text: lines.join("\n"),
            image: Some(super::Image {
                file_name: "pasted-game.gif".to_owned(),
                png: gif,
                description: replay_description(
                    lang,
                    &t!(lang, "alt-pasted-game"),
                    &game.game,
                    named.then_some(&names),
                ),
            }),
            ..Reply::default()
        })
    }

    /// The language of the public answer: the server's, and for a server
    /// the bot has no row for yet (`/show` creates none), the Discord
    /// locale the interaction carries, as its settings would say.
    pub(super) async fn show_lang(&self, actor: &Actor) -> Result<Lang, ServiceError> {
        let mut settings = self.store().server(&actor.server).await?;
        if settings.discord_locale.is_none() {
            settings.discord_locale = actor.server_locale.clone();
        }
        Ok(crate::service::lang::settings_lang(&settings))
    }

    /// The server's board theme.
    async fn server_theme(&self, actor: &Actor) -> Result<Theme, ServiceError> {
        let settings = self.store().server(&actor.server).await?;
        Ok(Theme::by_name(&settings.theme).unwrap_or_default())
    }
}

/// A game pasted as PGN (`/show`, `/analyze`), read; or the refusal that
/// says what is wrong with it, in `lang`: too large, unreadable (the move
/// and its number), or without a move.
pub(super) fn read_pasted(lang: Lang, text: &str) -> Result<pgn::ImportedGame, ServiceError> {
    if text.len() > MAX_SHOW_PGN_BYTES {
        return refuse_msg(msg!(
            "show-pgn-too-large",
            bytes = text.len(),
            max = MAX_SHOW_PGN_BYTES
        ));
    }
    let game = pgn::import(text).or_else(|e| refuse(pgn_problem(lang, &e)))?;
    if game.game.plies().is_empty() {
        return refuse_msg(msg!("show-pgn-no-moves"));
    }
    Ok(game)
}

/// A pasted game's players as shown: the PGN's names made safe to show,
/// where `?` (unknown) reads as the colour.
pub(super) fn pasted_names(lang: Lang, game: &pgn::ImportedGame) -> [String; 2] {
    [("White", Color::White), ("Black", Color::Black)]
        .map(|(tag, color)| pasted_name(game, tag).unwrap_or_else(|| color_text(lang, color)))
}

/// The player a PGN's `White` or `Black` tag names, unless it names nobody
/// (`?`, as PGN writes an unknown name, or `player`).
fn pasted_name(game: &pgn::ImportedGame, tag: &str) -> Option<String> {
    game.tag(tag)
        .map(super::display_name)
        .filter(|name| name != "?" && name != "player")
}

/// Whether a pasted PGN names at least one of its players.
pub(super) fn pasted_is_named(game: &pgn::ImportedGame) -> bool {
    ["White", "Black"]
        .iter()
        .any(|tag| pasted_name(game, tag).is_some())
}

/// What is wrong with a PGN, in `lang`: the move and its number where a
/// move is at fault.
pub(super) fn pgn_problem(lang: Lang, e: &PgnError) -> String {
    match e {
        PgnError::TooLarge => t!(
            lang,
            "show-pgn-too-large",
            bytes = pgn::MAX_PGN_BYTES + 1,
            max = MAX_SHOW_PGN_BYTES
        ),
        PgnError::Empty => t!(lang, "show-pgn-no-moves"),
        PgnError::Unreadable(reason) => t!(lang, "pgn-unreadable", reason = reason.as_str()),
        PgnError::NotAMove { token, after } => t!(
            lang,
            "pgn-not-a-move",
            token = crate::service::error::echo(token, 40),
            after = *after
        ),
        PgnError::BadFen(problem) => t!(lang, "pgn-bad-fen", reason = problem.text(lang)),
        PgnError::UnknownVariant(name) => t!(
            lang,
            "pgn-unknown-variant",
            variant = crate::service::error::echo(name, 30)
        ),
        PgnError::IllegalMove {
            label, san, kind, ..
        } => {
            let mv = format!("{label} {}", crate::service::error::echo(san, 20));
            match kind {
                BadMove::Illegal => t!(lang, "pgn-illegal-move", mv = mv),
                BadMove::Ambiguous => t!(lang, "pgn-ambiguous-move", mv = mv),
                BadMove::AfterEnd => t!(lang, "pgn-move-after-end", mv = mv),
            }
        }
    }
}
