//! FIDE Tournament Report File (TRF-2026, the TRF16 column layout) and the
//! TRF(x) extensions pairing engines read (JaVaFo, bbpPairings):
//!
//! - `001` player lines: pairing number in columns 5–8, name 15–47, rating
//!   49–52, points 81–84, then one 10-column block per round from column 92:
//!   opponent (4 digits, `0000` = none), colour (`w`/`b`/`-`), result code.
//! - `012` tournament name, `XXR n` total rounds, `XXC white1|black1` the
//!   colour pairing number 1 had (or gets) in round 1, `BBW`/`BBD`/`BBU` the
//!   points of a win, a draw and a pairing-allocated bye (bbpPairings' codes).
//!
//! Files from other programs are read as they come: any line end (LF,
//! CRLF, or CR alone, as bbpPairings and some Windows and Mac tournament
//! programs write), UTF-8 or Latin-1 ([`decode`]). Without an `XXC` line
//! the initial colour is the one the top seed had in the first round
//! played, as the endorsed engines infer it.
//!
//! Everything else is kept verbatim and written back. Bad input is an error
//! naming the line and the problem; a file without a single player line is
//! one too (line 0: the file as a whole), never an empty tournament.

use std::{collections::HashMap, fmt, fmt::Write as _};

use super::model::{show_score, Colour, Entry, Outcome, Player, Pno, Score, Tournament};

/// A problem in a TRF file, with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            // A problem of the whole file, not of one line.
            return f.write_str(&self.message);
        }
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The text of a TRF file's bytes: UTF-8 (a byte-order mark dropped), or
/// else Latin-1 (ISO 8859-1), the encoding older tournament programs
/// write, in which every byte is the character of the same number.
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.strip_prefix('\u{feff}').unwrap_or(text).to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// The lines of `text`, whatever ends them: LF, CRLF or CR alone.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
        let line = &rest[..end];
        let after = &rest[end..];
        rest = after
            .strip_prefix("\r\n")
            .or_else(|| after.strip_prefix(['\r', '\n']))
            .unwrap_or(after);
        Some(line)
    })
}

impl std::error::Error for TrfError {}

fn err(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// Columns (0-based byte offsets) of the fixed TRF player line.
const ROUND_START: usize = 91;
const ROUND_WIDTH: usize = 10;

/// The characters of `line` from column `from` (0-based) to `to` (exclusive),
/// or "" past the end. TRF is ASCII in these fields; a multi-byte name only
/// shifts what follows, which we report as a bad field.
fn cols(line: &str, from: usize, to: usize) -> &str {
    let len = line.len();
    let (from, to) = (from.min(len), to.min(len));
    line.get(from..to).unwrap_or("")
}

/// Parses a points field ("4.5", "10", "0,5").
fn parse_points(s: &str) -> Option<Score> {
    let s = s.trim().replace(',', ".");
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s.as_str(), ""),
    };
    let int: Score = int.parse().ok()?;
    let tenth: Score = match frac.chars().next() {
        None => 0,
        Some(c) => c.to_digit(10)? as Score,
    };
    Some(int * 10 + tenth)
}

/// Reads a TRF file.
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut t = Tournament::default();
    let mut lines_of: HashMap<Pno, usize> = HashMap::new();
    let mut colour_given = false;
    for (i, line) in lines(text).enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        if !line.is_ascii() && line.starts_with("001") {
            // Columns count characters (one byte each in the files of other
            // programs); in our UTF-8 text a non-ASCII name would shift
            // every round. Parse a copy with such characters replaced, then
            // take the name from the line itself.
            let ascii: String = line
                .chars()
                .map(|c| if c.is_ascii() { c } else { '?' })
                .collect();
            parse_player(&ascii, n, &mut t, &mut lines_of)?;
            if let Some(p) = t.players.last_mut() {
                p.name = line
                    .chars()
                    .skip(14)
                    .take(33)
                    .collect::<String>()
                    .trim()
                    .to_string();
            }
            continue;
        }
        let code = cols(line, 0, 3);
        let rest = line.get(4..).unwrap_or("").trim();
        match code {
            "001" => parse_player(line, n, &mut t, &mut lines_of)?,
            "012" => t.name = rest.to_string(),
            "XXR" => {
                let r: u32 = rest
                    .parse()
                    .map_err(|_| err(n, format!("XXR: \"{rest}\" is not a number of rounds")))?;
                if r == 0 {
                    return Err(err(n, "XXR: the number of rounds must be at least 1"));
                }
                t.total_rounds = Some(r);
            }
            "XXC" => {
                let mut found = false;
                for word in rest.split_whitespace() {
                    match word {
                        "white1" => {
                            t.initial_colour = Colour::White;
                            found = true;
                            colour_given = true;
                        }
                        "black1" => {
                            t.initial_colour = Colour::Black;
                            found = true;
                            colour_given = true;
                        }
                        // `rank` and other configuration words: not ours.
                        _ => {}
                    }
                }
                if !found && !rest.is_empty() {
                    t.other_lines.push(line.to_string());
                }
            }
            "BBW" | "BBD" | "BBU" => {
                let v = parse_points(rest).ok_or_else(|| {
                    err(n, format!("{code}: \"{rest}\" is not a number of points"))
                })?;
                match code {
                    "BBW" => {
                        t.scoring.win = v;
                        t.scoring.full_bye = v;
                    }
                    "BBD" => {
                        t.scoring.draw = v;
                        t.scoring.half_bye = v;
                    }
                    _ => t.scoring.pab = v,
                }
            }
            _ => {
                if !code.chars().all(|c| c.is_ascii_alphanumeric()) || code.len() != 3 {
                    return Err(err(n, format!("unknown record \"{}\"", cols(line, 0, 12))));
                }
                t.other_lines.push(line.to_string());
            }
        }
    }
    if t.players.is_empty() {
        return Err(err(
            0,
            "no player lines (records starting \"001\"): this is not a TRF tournament file",
        ));
    }
    t.players.sort_by_key(|p| p.pno);
    validate(&t, &lines_of)?;
    if !colour_given && let Some(colour) = first_round_colour(&t) {
        t.initial_colour = colour;
    }
    Ok(t)
}

/// The initial colour a file without `XXC` implies: the colour of the top
/// seed (the lowest pairing number with a game) in the first round with
/// games, as bbpPairings and JaVaFo infer it. `None` before any game.
fn first_round_colour(t: &Tournament) -> Option<Colour> {
    let rounds = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    (0..rounds).find_map(|r| {
        t.players
            .iter()
            .find_map(|p| p.rounds.get(r).copied().flatten().and_then(|e| e.colour))
    })
}

fn parse_player(
    line: &str,
    n: usize,
    t: &mut Tournament,
    lines_of: &mut HashMap<Pno, usize>,
) -> Result<(), TrfError> {
    let pno_text = cols(line, 4, 8).trim();
    let pno: Pno = pno_text.parse().map_err(|_| {
        err(
            n,
            format!("pairing number \"{pno_text}\" (columns 5-8) is not a number"),
        )
    })?;
    if pno == 0 {
        return Err(err(n, "pairing number 0 (columns 5-8)"));
    }
    if lines_of.insert(pno, n).is_some() {
        return Err(err(n, format!("pairing number {pno} appears twice")));
    }
    let rating_text = cols(line, 48, 52).trim();
    let rating = if rating_text.is_empty() {
        0
    } else {
        rating_text.parse().map_err(|_| {
            err(
                n,
                format!("rating \"{rating_text}\" (columns 49-52) is not a number"),
            )
        })?
    };
    let mut p = Player {
        pno,
        name: cols(line, 14, 47).trim().to_string(),
        rating,
        sex: cols(line, 9, 10).trim().to_string(),
        title: cols(line, 10, 13).trim().to_string(),
        federation: cols(line, 53, 56).trim().to_string(),
        fide_id: cols(line, 57, 68).trim().to_string(),
        birth: cols(line, 69, 79).trim().to_string(),
        ..Player::default()
    };
    let mut start = ROUND_START;
    let mut round = 1;
    while start < line.len() {
        let block = cols(line, start, start + ROUND_WIDTH);
        let opp = cols(block, 0, 4).trim();
        let colour = cols(block, 5, 6);
        let result = cols(block, 7, 8);
        if block.trim().is_empty() {
            p.rounds.push(None);
        } else {
            let opponent = if opp.is_empty() || opp.chars().all(|c| c == '0') {
                None
            } else {
                Some(opp.parse::<Pno>().map_err(|_| {
                    err(
                        n,
                        format!("round {round}: opponent \"{opp}\" is not a pairing number"),
                    )
                })?)
            };
            let colour = match colour {
                "w" | "W" => Some(Colour::White),
                "b" | "B" => Some(Colour::Black),
                "-" | " " | "" => None,
                other => {
                    return Err(err(
                        n,
                        format!("round {round}: colour \"{other}\" is not w, b or -"),
                    ))
                }
            };
            let rc = result.chars().next().unwrap_or(' ');
            let outcome = match (rc, opponent) {
                (' ', None) => None,
                (' ', Some(_)) => {
                    return Err(err(
                        n,
                        format!("round {round}: a pairing without a result code"),
                    ))
                }
                // With no opponent, a win code is a full-point bye, a loss
                // code an absence (TRF practice of older programs).
                ('+' | '1' | 'W', None) => Some(Outcome::FullBye),
                ('=' | 'D', None) => Some(Outcome::HalfBye),
                ('0' | 'L', None) => Some(Outcome::ZeroBye),
                (c, _) => Some(Outcome::from_code(c).ok_or_else(|| {
                    err(n, format!("round {round}: unknown result code \"{c}\""))
                })?),
            };
            match outcome {
                None => p.rounds.push(None),
                Some(o) => {
                    if opponent.is_some() && colour.is_none() {
                        return Err(err(n, format!("round {round}: a pairing without a colour")));
                    }
                    if opponent.is_some()
                        && matches!(
                            o,
                            Outcome::PairingBye
                                | Outcome::HalfBye
                                | Outcome::FullBye
                                | Outcome::ZeroBye
                        )
                    {
                        return Err(err(
                            n,
                            format!("round {round}: a bye code with an opponent"),
                        ));
                    }
                    p.rounds.push(Some(Entry {
                        opponent,
                        colour: opponent.and(colour),
                        outcome: o,
                    }));
                }
            }
        }
        start += ROUND_WIDTH;
        round += 1;
    }
    while p.rounds.last() == Some(&None) {
        p.rounds.pop();
    }
    t.players.push(p);
    Ok(())
}

/// Checks that pairings are mutual: each opponent exists and records the
/// same game with the other colour and a matching result.
fn validate(t: &Tournament, lines_of: &HashMap<Pno, usize>) -> Result<(), TrfError> {
    for p in &t.players {
        let n = lines_of.get(&p.pno).copied().unwrap_or(0);
        for (i, e) in p.rounds.iter().enumerate() {
            let Some(e) = e else { continue };
            let Some(o) = e.opponent else { continue };
            let round = i + 1;
            if o == p.pno {
                return Err(err(
                    n,
                    format!("round {round}: player {o} paired with himself"),
                ));
            }
            let Some(op) = t.player(o) else {
                return Err(err(
                    n,
                    format!("round {round}: opponent {o} is not a player"),
                ));
            };
            let back = op.rounds.get(i).copied().flatten();
            let ok = back.is_some_and(|b| {
                b.opponent == Some(p.pno)
                    && b.colour.is_some()
                    && b.colour != e.colour
                    && results_agree(e.outcome, b.outcome)
            });
            if !ok {
                return Err(err(
                    n,
                    format!("round {round}: player {} vs {o} is not recorded the same way by player {o}", p.pno),
                ));
            }
        }
    }
    Ok(())
}

fn results_agree(a: Outcome, b: Outcome) -> bool {
    use Outcome::*;
    matches!(
        (a, b),
        (Win, Loss)
            | (Loss, Win)
            | (Draw, Draw)
            | (UnratedWin, UnratedLoss)
            | (UnratedLoss, UnratedWin)
            | (UnratedDraw, UnratedDraw)
            | (ForfeitWin, ForfeitLoss)
            | (ForfeitLoss, ForfeitWin)
            | (ForfeitLoss, ForfeitLoss)
    )
}

/// Writes a TRF file (TRF16 layout plus `XXR`, `XXC`, `BBW`/`BBD`/`BBU`).
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    if !t.name.is_empty() {
        let _ = writeln!(out, "012 {}", t.name);
    }
    for l in &t.other_lines {
        let _ = writeln!(out, "{l}");
    }
    if let Some(r) = t.total_rounds {
        let _ = writeln!(out, "XXR {r}");
    }
    let _ = writeln!(
        out,
        "XXC {}",
        match t.initial_colour {
            Colour::White => "white1",
            Colour::Black => "black1",
        }
    );
    let d = super::model::Scoring::default();
    if t.scoring.win != d.win {
        let _ = writeln!(out, "BBW {:>4}", show_points(t.scoring.win));
    }
    if t.scoring.draw != d.draw {
        let _ = writeln!(out, "BBD {:>4}", show_points(t.scoring.draw));
    }
    if t.scoring.pab != t.scoring.win {
        let _ = writeln!(out, "BBU {:>4}", show_points(t.scoring.pab));
    }
    let rounds = t.recorded_rounds();
    let scores: Vec<Score> = t
        .players
        .iter()
        .map(|p| p.score_after(&t.scoring, rounds))
        .collect();
    for (k, p) in t.players.iter().enumerate() {
        let rank = 1 + scores.iter().filter(|&&s| s > scores[k]).count();
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            p.pno,
            clip(&p.sex, 1),
            clip(&p.title, 3),
            clip(&p.name, 33),
            if p.rating > 0 {
                p.rating.to_string()
            } else {
                String::new()
            },
            clip(&p.federation, 3),
            clip(&p.fide_id, 11),
            clip(&p.birth, 10),
            show_points(scores[k]),
            rank
        );
        for r in 0..rounds as usize {
            match p.rounds.get(r).copied().flatten() {
                None => line.push_str("          "),
                Some(e) => {
                    let _ = write!(
                        line,
                        "  {:04} {} {}",
                        e.opponent.unwrap_or(0),
                        match e.colour {
                            Some(Colour::White) => 'w',
                            Some(Colour::Black) => 'b',
                            None => '-',
                        },
                        e.outcome.code()
                    );
                }
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// Points with one decimal, as TRF writes them ("1.0", "2.5").
fn show_points(s: Score) -> String {
    let shown = show_score(s);
    if shown.contains('.') {
        shown
    } else {
        format!("{shown}.0")
    }
}

fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_written_and_read_in_their_field() {
        let mut t = parse(SAMPLE).expect("sample");
        t.players[0].title = "GM".into();
        t.players[1].title = "WIM".into();
        let text = write(&t);
        let line = text
            .lines()
            .find(|l| l.starts_with("001") && l.contains("Alpha"))
            .expect("Alpha's line");
        assert_eq!(line[10..13].trim(), "GM");
        assert_eq!(line[14..47].trim(), "Alpha");
        let back = parse(&text).expect("written TRF reads");
        let titles: Vec<&str> = back.players.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["GM", "WIM", ""]);
    }

    const SAMPLE: &str = "012 Club Swiss
XXR 3
XXC white1
001    1      Alpha                             2100                             1.0    1  0002 w 1
001    2      Bravo                             2000                             0.0    3  0001 b 0
001    3      Charlie                           1900                             1.0    1  0000 - U
";

    #[test]
    fn reads_players_rounds_and_extensions() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(t.name, "Club Swiss");
        assert_eq!(t.total_rounds, Some(3));
        assert_eq!(t.players.len(), 3);
        assert_eq!(t.players[0].name, "Alpha");
        assert_eq!(t.players[0].rating, 2100);
        assert_eq!(
            t.players[0].rounds[0],
            Some(Entry::game(2, Colour::White, Outcome::Win))
        );
        assert_eq!(
            t.players[2].rounds[0],
            Some(Entry::bye(Outcome::PairingBye))
        );
    }

    #[test]
    fn round_trips() {
        let t = parse(SAMPLE).unwrap();
        let again = parse(&write(&t)).unwrap();
        assert_eq!(t, again);
    }

    #[test]
    fn bad_input_names_the_line() {
        let bad = SAMPLE.replace("0002 w 1", "0002 w ?");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("unknown result code"), "{e}");

        let bad = SAMPLE.replace("0001 b 0", "0001 b 1");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("not recorded the same way"), "{e}");

        let e = parse("XXR many\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("XXR"));

        let e = parse("001 abcd Someone\n").unwrap_err();
        assert!(e.message.contains("pairing number"), "{e}");
    }

    #[test]
    fn every_line_end_reads_the_same() {
        let lf = parse(SAMPLE).unwrap();
        for end in ["\r\n", "\r"] {
            let t = parse(&SAMPLE.replace('\n', end)).unwrap();
            assert_eq!(t, lf, "line end {end:?}");
        }
        // Line numbers count each line once, whatever ends it.
        let e = parse(&SAMPLE.replace("0002 w 1", "0002 w ?").replace('\n', "\r\n")).unwrap_err();
        assert_eq!(e.line, 4);
    }

    #[test]
    fn latin1_names_are_read() {
        let mut bytes = SAMPLE.replace("Alpha ", "M\u{fc}ller").into_bytes();
        // The same line in Latin-1: ü is the one byte 0xFC.
        let at = bytes.windows(2).position(|w| w == [0xc3, 0xbc]).unwrap();
        bytes.splice(at..at + 2, [0xfc]);
        let t = parse(&decode(&bytes)).unwrap();
        assert_eq!(t.players[0].name, "M\u{fc}ller");
        assert_eq!(t.players[0].rating, 2100);
        assert_eq!(
            t.players[0].rounds[0],
            Some(Entry::game(2, Colour::White, Outcome::Win))
        );
        assert_eq!(decode("\u{feff}012 X".as_bytes()), "012 X");
    }

    #[test]
    fn without_xxc_the_first_round_gives_the_initial_colour() {
        let black = SAMPLE
            .replace("XXC white1\n", "")
            .replace("0002 w 1", "0002 b 1")
            .replace("0001 b 0", "0001 w 0");
        assert_eq!(parse(&black).unwrap().initial_colour, Colour::Black);
        let white = SAMPLE.replace("XXC white1\n", "");
        assert_eq!(parse(&white).unwrap().initial_colour, Colour::White);
        // A given XXC wins.
        let given = black.replace("XXR 3", "XXR 3\nXXC white1");
        assert_eq!(parse(&given).unwrap().initial_colour, Colour::White);
    }

    #[test]
    fn a_file_without_players_is_an_error() {
        let e = parse("012 Club\nXXR 3\n").unwrap_err();
        assert!(e.to_string().contains("no player lines"), "{e}");
        assert!(parse("").is_err());
    }

    #[test]
    fn configurable_bye_points() {
        let t = parse(&format!("BBU  0.5\n{SAMPLE}")).unwrap();
        assert_eq!(t.scoring.pab, 5);
        assert_eq!(t.players[2].score_after(&t.scoring, 1), 5);
        assert!(write(&t).contains("BBU  0.5"));
    }
}
