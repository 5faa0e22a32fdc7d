//! The catalogues against each other and against the code: every message
//! exists in every language with the same variables, every id the code
//! asks for exists, and no catalogue keeps an id the code never uses.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
};

use chessbot::i18n::{catalogue_errors, catalogue_ids, catalogue_variables, Lang};

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source readable");
            out.push((path.display().to_string(), text));
        }
    }
}

/// The message ids the code asks for: the first string literal inside each
/// `t!(…)` and `msg!(…)` call (ids must be literals at the call site).
/// Comments (the macros' own docs) are skipped.
fn used_ids(text: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let text = code.as_str();
    let mut ids = Vec::new();
    for marker in ["t!(", "msg!("] {
        let mut rest = text;
        while let Some(at) = rest.find(marker) {
            // `format!(`, `print!(`… end in `t!(` too: only a macro named
            // exactly `t` or `msg` counts.
            let before = rest[..at].chars().next_back();
            rest = &rest[at + marker.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let Some(open) = rest.find('"') else { break };
            let Some(len) = rest[open + 1..].find('"') else {
                break;
            };
            let literal = &rest[open + 1..open + 1 + len];
            if !literal.is_empty()
                && literal
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                ids.push(literal.to_owned());
            }
        }
    }
    ids
}

fn code() -> Vec<(String, String)> {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    files
}

#[test]
fn every_catalogue_parses() {
    assert_eq!(catalogue_errors(), Vec::<String>::new());
}

#[test]
fn every_language_has_every_message_with_the_same_variables() {
    let english = catalogue_variables(Lang::En);
    assert!(
        english.len() > 100,
        "only {} English messages",
        english.len()
    );
    for lang in Lang::ALL {
        let other = catalogue_variables(lang);
        let missing: BTreeSet<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: BTreeSet<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        assert!(extra.is_empty(), "{lang} has ids English lacks: {extra:?}");
        let differ: BTreeMap<_, _> = english
            .iter()
            .filter(|(id, vars)| other.get(*id) != Some(vars))
            .map(|(id, vars)| (id.clone(), (vars.clone(), other.get(id).cloned())))
            .collect();
        assert!(differ.is_empty(), "{lang}: variables differ: {differ:?}");
    }
}

#[test]
fn the_code_asks_only_for_ids_that_exist() {
    let known = catalogue_ids(Lang::En);
    let mut unknown = Vec::new();
    for (path, text) in code() {
        for id in used_ids(&text) {
            if !known.contains(&id) {
                unknown.push(format!("{path}: {id}"));
            }
        }
    }
    assert!(unknown.is_empty(), "ids in no catalogue: {unknown:#?}");
}

#[test]
fn no_catalogue_keeps_an_unused_id() {
    let files = code();
    let used: BTreeSet<String> = files.iter().flat_map(|(_, text)| used_ids(text)).collect();
    for lang in Lang::ALL {
        let unused: Vec<_> = catalogue_ids(lang)
            .into_iter()
            .filter(|id| !used.contains(id))
            .collect();
        assert!(unused.is_empty(), "{lang}: unused ids {unused:?}");
    }
}

#[test]
fn the_scanner_finds_ids_across_lines_and_skips_other_macros() {
    let text = "let a = t!(\n    lang,\n    \"board-title\",\n    white = w\n);\n\
                let b = msg!(\"game-not-found\");\nlet c = format!(\"x-y\");";
    assert_eq!(used_ids(text), vec!["board-title", "game-not-found"]);
}

#[test]
fn english_plurals_are_right() {
    use chessbot::t;
    assert_eq!(
        t!(Lang::En, "time-days-per-move", count = 1),
        "1 day per move"
    );
    assert_eq!(
        t!(Lang::En, "time-days-per-move", count = 3),
        "3 days per move"
    );
    assert!(t!(
        Lang::En,
        "profile-record",
        count = 1,
        wins = 1,
        draws = 0,
        losses = 0
    )
    .starts_with("1 rated game:"));
    assert!(t!(
        Lang::En,
        "profile-record",
        count = 2,
        wins = 1,
        draws = 1,
        losses = 0
    )
    .starts_with("2 rated games:"));
    assert_eq!(t!(Lang::ZhCn, "time-days-per-move", count = 3), "每步3天");
}
