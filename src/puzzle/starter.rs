//! Puzzle files: one puzzle a line, tab-separated — the FEN, the solution
//! in UCI (space-separated), the theme keys (space-separated) — with `#`
//! comment lines. The starter set ([`STARTER`], `assets/puzzles/starter.tsv`)
//! is such a file, made by `chessbot puzzles generate` from engine games
//! and loaded into a server's pool the first time someone there asks for a
//! puzzle. Reading checks every line (legal moves, known themes), so a
//! damaged file is refused, not half-loaded.

use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, Position};

use super::{Found, Theme};

/// The starter set shipped with the bot.
pub const STARTER: &str = include_str!("../../assets/puzzles/starter.tsv");

/// One line of a puzzle file.
pub fn write_line(found: &Found) -> String {
    let themes: Vec<&str> = found.themes.iter().map(|t| t.key()).collect();
    format!(
        "{}\t{}\t{}",
        found.fen,
        found.moves.join(" "),
        themes.join(" ")
    )
}

/// Reads a puzzle file; an error names the first bad line (1-based).
pub fn read(text: &str) -> Result<Vec<Found>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(read_line(line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(out)
}

fn read_line(line: &str) -> Result<Found, String> {
    let mut fields = line.split('\t');
    let (Some(fen), Some(moves), themes) = (fields.next(), fields.next(), fields.next()) else {
        return Err("expected FEN<TAB>moves<TAB>themes".to_owned());
    };
    let mut position: Chess = fen
        .parse::<Fen>()
        .map_err(|e| e.to_string())?
        .into_position(CastlingMode::Standard)
        .map_err(|e| e.to_string())?;
    let moves: Vec<String> = moves.split_whitespace().map(str::to_owned).collect();
    if moves.is_empty() || moves.len().is_multiple_of(2) {
        return Err("a solution has an odd number of moves (it ends on the solver's)".to_owned());
    }
    for uci in &moves {
        let mv = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(&position).ok())
            .ok_or_else(|| format!("`{uci}` is not a legal move there"))?;
        position.play_unchecked(mv);
    }
    let themes = themes
        .unwrap_or("")
        .split_whitespace()
        .map(|k| Theme::from_key(k).ok_or_else(|| format!("unknown theme `{k}`")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Found {
        fen: fen.to_owned(),
        moves,
        themes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_lines_are_named() {
        let found = Found {
            fen: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".to_owned(),
            moves: vec!["a1a8".to_owned()],
            themes: vec![Theme::MateIn1, Theme::Endgame],
        };
        let text = format!("# a comment\n\n{}\n", write_line(&found));
        assert_eq!(read(&text), Ok(vec![found]));
        let bad = "# x\n6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a9\tmateIn1\n";
        assert_eq!(
            read(bad),
            Err("line 2: `a1a9` is not a legal move there".to_owned())
        );
        let even = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a8 g8h8\t\n";
        assert!(read(even).is_err());
        let theme = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a8\tbrilliant\n";
        assert_eq!(
            read(theme),
            Err("line 1: unknown theme `brilliant`".to_owned())
        );
        assert!(read("not a fen\ta1a8\t").is_err());
    }

    /// Every shipped puzzle replays (checked by `read`) and carries exactly
    /// the themes the rules find in it now.
    #[test]
    fn the_shipped_starter_set_reads_with_its_themes() {
        let puzzles = read(STARTER).expect("the starter set reads");
        for p in &puzzles {
            let start: Chess = p
                .fen
                .parse::<Fen>()
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            let mut position = start.clone();
            let mut moves = Vec::new();
            for uci in &p.moves {
                let mv = uci
                    .parse::<UciMove>()
                    .expect("uci")
                    .to_move(&position)
                    .expect("legal");
                position.play_unchecked(mv);
                moves.push(mv);
            }
            assert_eq!(super::super::detect(&start, &moves), p.themes, "{}", p.fen);
        }
        let mut fens: Vec<&str> = puzzles.iter().map(|p| p.fen.as_str()).collect();
        fens.sort_unstable();
        fens.dedup();
        assert_eq!(fens.len(), puzzles.len(), "no position twice");
    }
}
