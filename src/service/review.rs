//! The answer of a finished analysis, for a stored game (`/analyze 12`) and
//! a pasted one (`/analyze pgn:…`) alike: the advantage chart, each
//! player's accuracy and counts of inaccuracies, mistakes and blunders, the
//! worst moves with the engine's better move, and the annotated PGN. Built
//! from the evaluation of every position; where they came from (the store
//! or a run that stored nothing) is the caller's business.

use shakmaty::{san::SanPlus, uci::UciMove, Color, Position};

use super::{
    analyze::positions_of, engine_text as text, error::ServiceError, Attachment, Image, Reply,
};
use crate::{
    chess::{
        notation::Notation,
        pgn::{self, PgnTags, PlyNote},
        Game,
    },
    engine::{
        analysis::{review, GameReview, Judgement},
        Score,
    },
    i18n::Lang,
    render::advantage::{advantage_chart, Mark},
    t,
};

/// A checkmated position, in centipawns from the winner's side: beyond
/// every real evaluation (the chart and the maths clip it to ±10 pawns).
pub(super) const MATED_CP: i32 = 100_000;
/// Worst moves listed in the result.
const WORST_MOVES: usize = 3;

/// What was analysed: a stored game, by number, or a pasted one (`named`:
/// whether its PGN names either player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reviewed {
    Game(i64),
    Pasted { named: bool },
}

impl Reviewed {
    /// The progress line, edited in place while the engine works.
    pub(super) fn progress(self, lang: Lang, done: usize, total: usize) -> String {
        match self {
            Reviewed::Game(id) => text::progress(lang, id, done, total),
            Reviewed::Pasted { .. } => {
                t!(lang, "engine-progress-pasted", done = done, total = total)
            }
        }
    }

    /// What is said when the engine gave up on it.
    pub(super) fn failed(self, lang: Lang) -> String {
        match self {
            Reviewed::Game(id) => text::analysis_failed(lang, id),
            Reviewed::Pasted { .. } => t!(lang, "engine-analysis-failed-pasted"),
        }
    }

    fn title(self, lang: Lang, names: &[String; 2], result: &str) -> String {
        match self {
            Reviewed::Game(id) => text::result_title(lang, id, &names[0], &names[1], result),
            Reviewed::Pasted { named: true } => t!(
                lang,
                "engine-result-title-pasted",
                white = names[0].as_str(),
                black = names[1].as_str(),
                result = result
            ),
            // "White (White) vs Black (Black)" would say nothing.
            Reviewed::Pasted { named: false } => {
                t!(lang, "engine-result-title-pasted-unnamed", result = result)
            }
        }
    }

    /// The chart's own title: numbers and names only, since the chart's
    /// font (DejaVu Sans) has no Chinese glyphs.
    fn chart_title(self, names: &[String; 2]) -> String {
        match self {
            Reviewed::Game(id) => text::chart_title(id, &names[0], &names[1]),
            Reviewed::Pasted { .. } => format!("{} – {}", names[0], names[1]),
        }
    }

    fn file_stem(self) -> String {
        match self {
            Reviewed::Game(id) => format!("game-{id}"),
            Reviewed::Pasted { .. } => "pasted-game".to_owned(),
        }
    }

    fn chart_file(self) -> String {
        match self {
            Reviewed::Game(id) => format!("analysis-{id}.png"),
            Reviewed::Pasted { .. } => "analysis-pasted-game.png".to_owned(),
        }
    }
}

/// Everything the answer is made of.
pub(super) struct ReviewInput<'a> {
    pub subject: Reviewed,
    pub game: &'a Game,
    /// White's and Black's names as shown.
    pub names: [String; 2],
    pub tags: PgnTags,
    /// How moves are written on this server (`Nf3` or `马f3`).
    pub notation: Notation,
    /// The evaluation of every position (White's view), the start first.
    pub scores: Vec<Score>,
    /// The engine's best move in each position (UCI), where it named one.
    pub best_uci: Vec<Option<String>>,
}

/// The answer of a finished analysis (see the module documentation).
pub(super) async fn review_reply(
    lang: Lang,
    input: ReviewInput<'_>,
) -> Result<Reply, ServiceError> {
    let ReviewInput {
        subject,
        game,
        names,
        mut tags,
        notation,
        scores,
        best_uci,
    } = input;
    let positions = positions_of(game);
    if scores.len() != positions.len() {
        return Err(ServiceError::Internal(format!(
            "an analysis of {} positions for {} positions",
            scores.len(),
            positions.len()
        )));
    }
    let first = game.initial_position().turn();
    let reviewed = review(first, &scores);
    let result = game.ending().map_or("*", |e| e.result.pgn()).to_owned();
    // The engine's better move before each judged move, in SAN.
    let better = |ply: usize| better_move(positions.get(ply)?, best_uci.get(ply)?.as_deref()?);
    let start_move = u32::from(game.initial_position().fullmoves());
    let numbered = |ply: usize, san: &str| move_label(first, start_move, ply, san);
    let mut lines = vec![subject.title(lang, &names, &result)];
    if let Some(opening) = crate::chess::opening::classify(game) {
        lines.push(t!(lang, "engine-opening", opening = opening.text(lang)));
    }
    let named = subject != Reviewed::Pasted { named: false };
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        lines.push(text::player_line(
            lang,
            named.then_some(names[i].as_str()),
            color,
            reviewed.accuracy[i],
            reviewed.counts[i],
        ));
    }
    let worst = reviewed.worst(WORST_MOVES);
    if !worst.is_empty() {
        lines.push(text::worst_moves_heading(lang));
        for m in worst {
            let Some(ply) = game.plies().get(m.ply) else {
                continue;
            };
            // Written as the server writes moves (`马f6`); the PGN below
            // keeps the letters.
            let played = numbered(
                m.ply,
                &format!("{}{}", notation.write(&ply.san), nag(m.judgement)),
            );
            let best = better(m.ply).map(|san| numbered(m.ply, &notation.write(&san)));
            lines.push(text::worst_move(
                lang,
                &played,
                &m.before.human(),
                &m.after.human(),
                best.as_deref(),
            ));
        }
    }
    let notes = annotations(lang, &reviewed, &scores, better);
    tags.extra.push(("Annotator".to_owned(), text::annotator()));
    let annotated = pgn::export_annotated(game, &tags, &notes);
    let pawns: Vec<f64> = scores
        .iter()
        .map(|s| f64::from(s.clipped_cp()) / 100.0)
        .collect();
    let marks: Vec<(usize, Mark)> = reviewed
        .moves
        .iter()
        .filter_map(|m| Some((m.ply + 1, mark(m.judgement?))))
        .collect();
    let description = chart_description(lang, subject, &pawns, marks.len());
    let title = subject.chart_title(&names);
    let png = tokio::task::spawn_blocking(move || advantage_chart(&pawns, &marks, &title))
        .await
        .map_err(|e| ServiceError::Internal(format!("chart task: {e}")))?
        .map_err(|e| ServiceError::Internal(format!("chart: {e}")))?;
    Ok(Reply {
        text: lines.join("\n"),
        image: Some(Image {
            file_name: subject.chart_file(),
            png,
            description,
        }),
        files: vec![Attachment {
            file_name: format!("{}-analysis.pgn", subject.file_stem()),
            bytes: annotated.into_bytes(),
        }],
        ..Reply::default()
    })
}

/// The engine's best move `uci` in `position`, in SAN (`None` if it is not
/// a legal move there).
pub(super) fn better_move<P: shakmaty::Position + Clone>(
    position: &P,
    uci: &str,
) -> Option<String> {
    let mv = UciMove::from_ascii(uci.as_bytes())
        .ok()?
        .to_move(position)
        .ok()?;
    Some(SanPlus::from_move(position.clone(), mv).to_string())
}

/// The advantage chart in one line for screen readers: where the game
/// ended, its extremes (White's view, in pawns) and the bad moves marked.
fn chart_description(lang: Lang, subject: Reviewed, pawns: &[f64], marked: usize) -> String {
    let shown = |p: f64| format!("{p:+.1}");
    let last = pawns.last().copied().unwrap_or(0.0);
    let low = pawns.iter().copied().fold(f64::INFINITY, f64::min);
    let high = pawns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (last, low, high) = (
        shown(last),
        shown(if low.is_finite() { low } else { 0.0 }),
        shown(if high.is_finite() { high } else { 0.0 }),
    );
    let count = pawns.len().saturating_sub(1);
    let text = match subject {
        Reviewed::Game(id) => t!(
            lang,
            "alt-advantage-chart",
            id = id,
            count = count,
            last = last,
            low = low,
            high = high,
            marked = marked
        ),
        Reviewed::Pasted { .. } => t!(
            lang,
            "alt-advantage-chart-pasted",
            count = count,
            last = last,
            low = low,
            high = high,
            marked = marked
        ),
    };
    crate::chess::describe::cut(&text, crate::chess::describe::MAX_DESCRIPTION)
}

fn nag(judgement: Option<Judgement>) -> &'static str {
    judgement.map_or("", Judgement::nag)
}

fn mark(judgement: Judgement) -> Mark {
    match judgement {
        Judgement::Inaccuracy => Mark::Inaccuracy,
        Judgement::Mistake => Mark::Mistake,
        Judgement::Blunder => Mark::Blunder,
    }
}

/// `12. Nf3` or `12... Nf6` for the ply at `index` of a game that began
/// at full move `start` with `first` to move.
fn move_label(first: Color, start: u32, index: usize, san: &str) -> String {
    let offset = usize::from(first == Color::Black);
    let number = start as usize + (index + offset) / 2;
    if (index + offset).is_multiple_of(2) {
        format!("{number}. {san}")
    } else {
        format!("{number}... {san}")
    }
}

/// One note per ply: the evaluation after it as `[%eval]` (lichess's form:
/// pawns from White's view, `#N` for a mate; none after a checkmate, whose
/// `#` says it all), and for a judged move its glyph and the better move.
fn annotations(
    lang: Lang,
    reviewed: &GameReview,
    scores: &[Score],
    better: impl Fn(usize) -> Option<String>,
) -> Vec<PlyNote> {
    reviewed
        .moves
        .iter()
        .map(|m| {
            let after = scores.get(m.ply + 1).copied();
            let mut comment = match after {
                Some(Score::Cp(cp)) if cp.abs() >= MATED_CP => None,
                Some(score) => Some(format!("[%eval {}]", score.pgn_eval())),
                None => None,
            };
            if let Some(j) = m.judgement {
                let words = text::judgement_comment(lang, j, better(m.ply).as_deref());
                comment = Some(match comment {
                    Some(eval) => format!("{eval} {words}"),
                    None => words,
                });
            }
            PlyNote {
                nag: m.judgement.map(Judgement::nag),
                comment,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_labels() {
        assert_eq!(move_label(Color::White, 1, 0, "e4"), "1. e4");
        assert_eq!(move_label(Color::White, 1, 1, "e5"), "1... e5");
        assert_eq!(move_label(Color::White, 1, 2, "Nf3"), "2. Nf3");
        assert_eq!(move_label(Color::Black, 10, 0, "Nf6"), "10... Nf6");
        assert_eq!(move_label(Color::Black, 10, 1, "Nf3"), "11. Nf3");
    }
}
