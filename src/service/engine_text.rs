//! The words of the engine features (playing the computer, analysis).

use shakmaty::Color;

use crate::engine::analysis::Judgement;

pub(super) fn no_engine() -> String {
    "No chess engine is installed on this bot, so playing the computer and game analysis are not available. The bot's operator can install Stockfish (`apt-get install stockfish`) or set `engine_path`.".to_owned()
}

pub(super) fn bad_level(level: i64) -> String {
    format!("`level`: {level} is not a level; pick one from 1 (beginner) to 8 (full strength).")
}

pub(super) fn no_such_game(id: i64) -> String {
    format!("I can't find game #{id} on this server.")
}

pub(super) fn no_game_here() -> String {
    "There is no game in this channel yet. Name one: `/analyze game:12`.".to_owned()
}

pub(super) fn analysis_of_active_game(id: i64) -> String {
    format!("Game #{id} is still being played: analysis is only for finished games, so that nobody gets engine help during a game.")
}

pub(super) fn nothing_to_analyse(id: i64) -> String {
    format!("Game #{id} has no moves to analyse.")
}

pub(super) fn already_analysing(id: i64) -> String {
    format!("Game #{id} is being analysed already; the result will be posted here.")
}

pub(super) fn queue_full(waiting: usize) -> String {
    format!("{waiting} analyses are already waiting on this server. Please ask again when one has finished.")
}

pub(super) fn progress(id: i64, done: usize, total: usize) -> String {
    format!("Analysing game #{id}: move {done} of {total}…")
}

pub(super) fn analysis_failed(id: i64) -> String {
    format!("Sorry, the analysis of game #{id} failed: the engine did not answer. Please try `/analyze` again later.")
}

pub(super) fn result_title(id: i64, white: &str, black: &str, result: &str) -> String {
    format!("Analysis of game #{id}: {white} (White) vs {black} (Black), {result}.")
}

fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

pub(super) fn player_line(
    name: &str,
    color: Color,
    accuracy: Option<f64>,
    [inaccuracies, mistakes, blunders]: [usize; 3],
) -> String {
    let side = match color {
        Color::White => "White",
        Color::Black => "Black",
    };
    let accuracy = accuracy.map_or_else(|| "no moves".to_owned(), |a| format!("accuracy {a:.0}%"));
    format!(
        "{name} ({side}): {accuracy}; {}, {}, {}.",
        count(inaccuracies, "inaccuracy", "inaccuracies"),
        count(mistakes, "mistake", "mistakes"),
        count(blunders, "blunder", "blunders"),
    )
}

pub(super) fn worst_moves_heading() -> String {
    "Worst moves:".to_owned()
}

pub(super) fn worst_move(played: &str, before: &str, after: &str, best: Option<&str>) -> String {
    match best {
        Some(best) => format!("• {played} ({before} → {after}); better was {best}"),
        None => format!("• {played} ({before} → {after})"),
    }
}

pub(super) fn judgement_comment(judgement: Judgement, best: Option<&str>) -> String {
    let word = match judgement {
        Judgement::Inaccuracy => "Inaccuracy.",
        Judgement::Mistake => "Mistake.",
        Judgement::Blunder => "Blunder.",
    };
    match best {
        Some(best) => format!("{word} {best} was best."),
        None => word.to_owned(),
    }
}

pub(super) fn chart_title(id: i64, white: &str, black: &str) -> String {
    format!("Game #{id}: {white} vs {black}")
}

pub(super) fn annotator() -> String {
    "chessbot (Stockfish)".to_owned()
}
