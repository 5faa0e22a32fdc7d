//! Writes sample crosstable images to look at: an English and a Chinese
//! table of 8 players after 4 of 5 rounds, with shared places, a withdrawn
//! player, byes, an absence, pending games and a name too long to fit.
//!
//! `cargo run --example crosstable -- /tmp` writes
//! `/tmp/crosstable-en.png` and `/tmp/crosstable-zh.png`.

use std::path::PathBuf;

use chessbot::render::{crosstable_png, CellColour, CellOutcome, CrossCell, CrossRow, Crosstable};

/// One player: place, start number, name, level, cells, score,
/// tie-breaks, withdrawn. Cells: `"5w1"` is start number 5 with White,
/// won; `=` a draw, `0` a loss, `…` pending; `bye` a bye, `-` absent.
type Player = (
    &'static str,
    &'static str,
    &'static str,
    [&'static str; 5],
    &'static str,
    [&'static str; 3],
    bool,
);

const PLAYERS: [Player; 8] = [
    (
        "1",
        "Alice Chen",
        "Level 5",
        ["5w1", "3b=", "2w1", "4w1", "7w…"],
        "3½",
        ["9¼", "11", "3"],
        false,
    ),
    (
        "2–3",
        "Bartholomew Featherstonehaugh-Cholmondeley",
        "Level 9",
        ["6b1", "4w1", "1b0", "5w1", "3b…"],
        "3",
        ["7", "12½", "3"],
        false,
    ),
    (
        "2–3",
        "Carmen Ortega",
        "Level 12",
        ["7w1", "1w=", "4b=", "8w1", "2w…"],
        "3",
        ["6¾", "10", "2"],
        false,
    ),
    (
        "4",
        "Emma Schulz",
        "Unranked",
        ["1b0", "7b=", "8w1", "2b0", "bye"],
        "2½",
        ["3¼", "11½", "1"],
        false,
    ),
    (
        "5–7",
        "Dmitri Volkov",
        "Level 7",
        ["8b1", "2b0", "3w=", "1b0", "8w…"],
        "1½",
        ["2¾", "12", "1"],
        false,
    ),
    (
        "5–7",
        "Farid Haddad",
        "Level 20",
        ["2w0", "8w1", "7b=", "-", "-"],
        "1½",
        ["2", "9", "1"],
        true,
    ),
    (
        "5–7",
        "Grace O'Neill",
        "Level 15",
        ["3b0", "5w=", "6w=", "bye", "1b…"],
        "1½",
        ["1¾", "10½", "0"],
        false,
    ),
    (
        "8",
        "Hugo Lambert",
        "",
        ["4w0", "6b0", "5b0", "3b0", "4b…"],
        "0",
        ["0", "11", "0"],
        false,
    ),
];

const CHINESE_NAMES: [&str; 8] = [
    "张伟",
    "诸葛明远·欧阳静怡·司马长风·上官云",
    "王芳",
    "陈静",
    "刘洋",
    "杨磊",
    "赵敏",
    "欧阳娜娜",
];
const CHINESE_LEVELS: [&str; 8] = ["5级", "9级", "12级", "无级别", "7级", "20级", "15级", ""];

fn cell(spec: &str, bye: &str) -> CrossCell {
    let (opponent, colour, result, outcome) = match spec {
        "bye" => ("", None, bye, CellOutcome::Win),
        "-" => ("", None, "−", CellOutcome::Unplayed),
        _ => {
            let (number, rest) = spec.split_at(1);
            let (colour, result) = rest.split_at(1);
            let colour = if colour == "w" {
                CellColour::White
            } else {
                CellColour::Black
            };
            let (result, outcome) = match result {
                "1" => ("1", CellOutcome::Win),
                "=" => ("½", CellOutcome::Draw),
                "0" => ("0", CellOutcome::Loss),
                _ => ("…", CellOutcome::Pending),
            };
            (number, Some(colour), result, outcome)
        }
    };
    CrossCell {
        opponent: opponent.into(),
        colour,
        result: result.into(),
        outcome,
    }
}

fn table(chinese: bool) -> Crosstable {
    let rows = PLAYERS
        .iter()
        .enumerate()
        .map(
            |(i, &(place, name, level, cells, score, tiebreaks, withdrawn))| {
                let bye = if chinese { "轮空" } else { "bye" };
                CrossRow {
                    place: place.into(),
                    name: if chinese { CHINESE_NAMES[i] } else { name }.into(),
                    level: if chinese { CHINESE_LEVELS[i] } else { level }.into(),
                    cells: cells.iter().map(|c| cell(c, bye)).collect(),
                    score: score.into(),
                    tiebreaks: tiebreaks.iter().map(|t| t.to_string()).collect(),
                    withdrawn,
                }
            },
        )
        .collect();
    if chinese {
        Crosstable {
            title: "俱乐部积分编排赛 — 第4轮后（共5轮）".into(),
            place_heading: "名次".into(),
            name_heading: "姓名".into(),
            level_heading: "级别".into(),
            score_heading: "积分".into(),
            round_headings: (1..=5).map(|r| format!("第{r}轮")).collect(),
            tiebreak_headings: vec!["小分".into(), "对手分".into(), "胜局".into()],
            rows,
            footer: "同分时依次比较：小分、对手分、胜局。杨磊已退赛。".into(),
        }
    } else {
        Crosstable {
            title: "Club Swiss — after round 4 of 5".into(),
            place_heading: "#".into(),
            name_heading: "Name".into(),
            level_heading: "Level".into(),
            score_heading: "Pts".into(),
            round_headings: (1..=5).map(|r| format!("R{r}")).collect(),
            tiebreak_headings: vec!["SB".into(), "BH".into(), "W".into()],
            rows,
            footer: "Tie-breaks in order: Sonneborn–Berger, Buchholz, wins. Farid Haddad withdrew."
                .into(),
        }
    }
}

fn main() -> anyhow::Result<()> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "/tmp".into()));
    for (lang, chinese) in [("en", false), ("zh", true)] {
        let path = dir.join(format!("crosstable-{lang}.png"));
        std::fs::write(&path, crosstable_png(&table(chinese))?)?;
        println!("{}", path.display());
    }
    Ok(())
}
