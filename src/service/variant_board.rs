//! What a variant adds to a board image: King of the Hill's four centre
//! squares tinted, Crazyhouse's pockets (the pieces each side holds, with
//! their counts) and Three-check's checks given, in strips beside the
//! board, each next to its player.

use shakmaty::{Color, Position, Role, Square};

use crate::{
    chess::{Game, Variant},
    i18n::Lang,
    render::{Frame, StripLine, Strips},
    t,
};

/// The hill: a king on one of these wins.
const CENTRE: [Square; 4] = [Square::D4, Square::E4, Square::D5, Square::E5];

/// Adds `game`'s variant marks to `frame` (seen with `orientation` at the
/// bottom), with text in `lang`.
pub(super) fn decorate(frame: &mut Frame, game: &Game, lang: Lang, orientation: Color) {
    let position = game.position();
    match game.variant() {
        Variant::KingOfTheHill => frame.marks.extend(CENTRE),
        Variant::Crazyhouse => {
            let Some(pockets) = position.pockets() else {
                return;
            };
            let line = |color: Color| {
                let hand = &pockets[color];
                StripLine {
                    pocket: Some((
                        color,
                        [
                            Role::Pawn,
                            Role::Knight,
                            Role::Bishop,
                            Role::Rook,
                            Role::Queen,
                        ]
                        .map(|role| hand[role]),
                    )),
                    text: String::new(),
                }
            };
            frame.strips = Some(Strips {
                top: line(!orientation),
                bottom: line(orientation),
            });
        }
        Variant::ThreeCheck => {
            let Some(remaining) = position.remaining_checks() else {
                return;
            };
            let line = |color: Color| StripLine {
                pocket: None,
                text: t!(
                    lang,
                    "board-checks-given",
                    count = 3 - u32::from(remaining[color]).min(3)
                ),
            };
            frame.strips = Some(Strips {
                top: line(!orientation),
                bottom: line(orientation),
            });
        }
        _ => {}
    }
}
