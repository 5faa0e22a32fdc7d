//! The words of the engine features (playing the computer, analysis), from
//! the `engine.ftl` catalogues: refusals as [`Msg`] (shown in the asker's
//! language), public text in the language it is given.

use shakmaty::Color;

use crate::{
    engine::analysis::Judgement,
    i18n::{Lang, Msg},
    msg, t,
};

pub(super) fn no_engine() -> Msg {
    msg!("engine-missing")
}

/// A variant only Fairy-Stockfish plays, without it (`key`: lichess's).
pub(super) fn needs_fairy(key: &str) -> Msg {
    msg!("engine-needs-fairy", variant = key)
}

pub(super) fn bad_level(level: i64) -> Msg {
    msg!("engine-bad-level", level = level)
}

pub(super) fn channel_busy() -> Msg {
    msg!("engine-channel-busy")
}

pub(super) fn play_started(lang: Lang, player: &str, computer: &str, time: &str) -> String {
    t!(
        lang,
        "engine-play-started",
        player = player,
        computer = computer,
        time = time
    )
}

pub(super) fn no_such_game(id: i64) -> Msg {
    msg!("engine-no-such-game", id = id)
}

pub(super) fn no_game_here() -> Msg {
    msg!("engine-no-game-here")
}

pub(super) fn analysis_of_active_game(id: i64) -> Msg {
    msg!("engine-analysis-active", id = id)
}

pub(super) fn nothing_to_analyse(id: i64) -> Msg {
    msg!("engine-nothing-to-analyse", id = id)
}

pub(super) fn already_analysing(lang: Lang, id: i64) -> String {
    t!(lang, "engine-already-analysing", id = id)
}

pub(super) fn queue_full(waiting: usize) -> Msg {
    msg!("engine-queue-full", count = waiting)
}

pub(super) fn progress(lang: Lang, id: i64, done: usize, total: usize) -> String {
    t!(lang, "engine-progress", id = id, done = done, total = total)
}

pub(super) fn analysis_failed(lang: Lang, id: i64) -> String {
    t!(lang, "engine-analysis-failed", id = id)
}

pub(super) fn result_title(lang: Lang, id: i64, white: &str, black: &str, result: &str) -> String {
    t!(
        lang,
        "engine-result-title",
        id = id,
        white = white,
        black = black,
        result = result
    )
}

/// A player's accuracy and bad moves; `name` is `None` for a pasted game
/// that names neither player (then the side alone, not "White (White)").
pub(super) fn player_line(
    lang: Lang,
    name: Option<&str>,
    color: Color,
    accuracy: Option<f64>,
    [inaccuracies, mistakes, blunders]: [usize; 3],
) -> String {
    let side = match color {
        Color::White => "white",
        Color::Black => "black",
    };
    t!(
        lang,
        "engine-player-line",
        named = if name.is_some() { "yes" } else { "no" },
        name = name.unwrap_or_default(),
        side = side,
        moved = if accuracy.is_some() { "yes" } else { "no" },
        accuracy = accuracy.map_or(0, |a| a.round() as i64),
        inaccuracies = inaccuracies,
        mistakes = mistakes,
        blunders = blunders,
    )
}

pub(super) fn worst_moves_heading(lang: Lang) -> String {
    t!(lang, "engine-worst-heading")
}

pub(super) fn worst_move(
    lang: Lang,
    played: &str,
    before: &str,
    after: &str,
    best: Option<&str>,
) -> String {
    match best {
        Some(best) => t!(
            lang,
            "engine-worst-move-better",
            played = played,
            before = before,
            after = after,
            best = best
        ),
        None => t!(
            lang,
            "engine-worst-move",
            played = played,
            before = before,
            after = after
        ),
    }
}

pub(super) fn judgement_comment(lang: Lang, judgement: Judgement, best: Option<&str>) -> String {
    let judgement = match judgement {
        Judgement::Inaccuracy => "inaccuracy",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    };
    match best {
        Some(best) => t!(
            lang,
            "engine-judgement-better",
            judgement = judgement,
            best = best
        ),
        None => t!(lang, "engine-judgement", judgement = judgement),
    }
}

/// The chart's title: numbers and names only, since the chart's font
/// (DejaVu Sans) has no Chinese glyphs.
pub(super) fn chart_title(id: i64, white: &str, black: &str) -> String {
    format!("#{id}: {white} – {black}")
}

/// The PGN `Annotator` tag (a name, not a sentence).
pub(super) fn annotator() -> String {
    "chessbot (Stockfish)".to_owned()
}
