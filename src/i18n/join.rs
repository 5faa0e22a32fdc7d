//! Sentences made from parts ("challenge issued" + "what it is worth" +
//! "when it expires") joined as each language writes them: English puts a
//! space between sentences, Chinese none (its full stop `。` is a full-width
//! character that carries the gap). Lists of words likewise: `a, b, c` in
//! English, `a、b、c` (the enumeration comma 顿号) in Chinese.

use super::Lang;

/// `parts` joined into one text in `lang`; empty parts are left out.
///
/// In Chinese a space is kept only where a part ends in a Latin letter,
/// digit or sign (`挑战编号 #1` followed by more text), so that nothing
/// Latin runs into the next word.
///
/// ```
/// use chessbot::i18n::{join_sentences, Lang};
/// assert_eq!(join_sentences(Lang::En, ["Game on.", "Your move."]), "Game on. Your move.");
/// assert_eq!(join_sentences(Lang::ZhCn, ["对局开始。", "轮到你走棋。"]), "对局开始。轮到你走棋。");
/// assert_eq!(join_sentences(Lang::ZhCn, ["挑战 #1", "", "已接受。"]), "挑战 #1 已接受。");
/// ```
pub fn join_sentences<S: AsRef<str>>(lang: Lang, parts: impl IntoIterator<Item = S>) -> String {
    let mut text = String::new();
    for part in parts {
        let part = part.as_ref().trim();
        if part.is_empty() {
            continue;
        }
        if let Some(last) = text.chars().next_back()
            && needs_space(lang, last)
        {
            text.push(' ');
        }
        text.push_str(part);
    }
    text
}

/// Words listed in `lang`: `Embed Links, Attach Files` /
/// `嵌入链接、附加文件`. Lists of code (moves, option names) keep `, `:
/// they are not words of the language.
///
/// ```
/// use chessbot::i18n::{join_list, Lang};
/// assert_eq!(join_list(Lang::En, ["a", "b"]), "a, b");
/// assert_eq!(join_list(Lang::ZhCn, ["甲", "乙"]), "甲、乙");
/// ```
pub fn join_list<S: AsRef<str>>(lang: Lang, items: impl IntoIterator<Item = S>) -> String {
    let separator = match lang {
        Lang::En => ", ",
        Lang::ZhCn => "、",
    };
    items
        .into_iter()
        .map(|s| s.as_ref().to_owned())
        .collect::<Vec<_>>()
        .join(separator)
}

/// Whether a space goes after a part ending in `last`.
fn needs_space(lang: Lang, last: char) -> bool {
    match lang {
        Lang::En => true,
        Lang::ZhCn => last.is_ascii(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_sentences_touch_and_english_ones_do_not() {
        let zh = join_sentences(
            Lang::ZhCn,
            [
                "张伟向李娜发起计分挑战。",
                "张伟的得失：胜 +10。",
                "挑战编号 #1。",
            ],
        );
        assert_eq!(
            zh,
            "张伟向李娜发起计分挑战。张伟的得失：胜 +10。挑战编号 #1。"
        );
        assert_eq!(
            join_sentences(Lang::En, ["alice challenges bob.", "Challenge #1."]),
            "alice challenges bob. Challenge #1."
        );
        // A closing bracket or an exclamation mark in Chinese is full-width too.
        assert_eq!(
            join_sentences(Lang::ZhCn, ["李娜 接受了挑战 #1！", "1. e4"]),
            "李娜 接受了挑战 #1！1. e4"
        );
        assert_eq!(
            join_sentences(Lang::ZhCn, ["第1局 e4", "好"]),
            "第1局 e4 好"
        );
        assert_eq!(join_sentences(Lang::En, ["", " a ", ""]), "a");
    }
}
