//! What a variant adds to a board image (a position's, or each frame of a
//! replay): King of the Hill's four centre squares tinted, Crazyhouse's
//! pockets (the pieces each side holds, with their counts) and
//! Three-check's checks given, in strips beside the board, each next to
//! its player.

use shakmaty::{variant::VariantPosition, Color, Position, Square};

use crate::{
    chess::{Game, Variant},
    i18n::Lang,
    render::{Frame, StripLine, Strips},
    t,
};

use super::POCKET_ROLES;

/// The hill: a king on one of these wins.
const CENTRE: [Square; 4] = [Square::D4, Square::E4, Square::D5, Square::E5];

/// Adds `game`'s variant marks to `frame` (seen with `orientation` at the
/// bottom), with text in `lang`.
pub(super) fn decorate(frame: &mut Frame, game: &Game, lang: Lang, orientation: Color) {
    let (marks, strips) = marks(game.variant(), game.position(), lang, orientation);
    frame.marks.extend(marks);
    if strips.is_some() {
        frame.strips = strips;
    }
}

/// What `variant` draws besides the pieces of `position`: the squares it
/// tints and its strips (seen with `orientation` at the bottom, text in
/// `lang`).
pub(super) fn marks(
    variant: Variant,
    position: &VariantPosition,
    lang: Lang,
    orientation: Color,
) -> (Vec<Square>, Option<Strips>) {
    match variant {
        Variant::KingOfTheHill => (CENTRE.to_vec(), None),
        Variant::Crazyhouse => {
            let Some(pockets) = position.pockets() else {
                return (Vec::new(), None);
            };
            let line = |color: Color| {
                let hand = &pockets[color];
                StripLine {
                    pocket: Some((color, POCKET_ROLES.map(|role| hand[role]))),
                    text: String::new(),
                }
            };
            let strips = Strips {
                top: line(!orientation),
                bottom: line(orientation),
            };
            (Vec::new(), Some(strips))
        }
        Variant::ThreeCheck => {
            let Some(remaining) = position.remaining_checks() else {
                return (Vec::new(), None);
            };
            let line = |color: Color| StripLine {
                pocket: None,
                text: t!(
                    lang,
                    "board-checks-given",
                    count = 3 - u32::from(remaining[color]).min(3)
                ),
            };
            let strips = Strips {
                top: line(!orientation),
                bottom: line(orientation),
            };
            (Vec::new(), Some(strips))
        }
        _ => (Vec::new(), None),
    }
}
