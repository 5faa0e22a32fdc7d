//! Whether a reply fits Discord's limits whole. [`super::reply`] cuts what
//! does not fit (a shortened answer beats a refused one), but nothing the
//! bot sends should ever need it: [`overflows`] names what would be cut or
//! left out, so that tests can hold every reply to it and the adapter can
//! log the rare one that slips through.

use super::reply::limits;
use crate::service::Reply;

/// What of `reply` Discord would not take whole (sent where the bot has
/// every permission): an empty list when everything fits.
pub fn overflows(reply: &Reply) -> Vec<String> {
    let mut out = Vec::new();
    let chars = |s: &str| s.chars().count();
    let mentions: usize = super::reply::mentioned_users(reply)
        .iter()
        .map(|id| chars(&format!("<@{id}> ")))
        .sum();
    let content = mentions + chars(reply.text.trim());
    if content > limits::CONTENT {
        out.push(format!(
            "content: {content} characters (Discord takes {})",
            limits::CONTENT
        ));
    }
    if let Some(card) = &reply.card {
        let title = chars(&card.title);
        if title > limits::TITLE {
            out.push(format!("card title: {title} characters"));
        }
        let footer = card.footer.as_deref().map_or(0, chars);
        if footer > limits::FOOTER {
            out.push(format!("card footer: {footer} characters"));
        }
        let fields: Vec<&(String, String)> = card
            .fields
            .iter()
            .filter(|(name, value)| !name.trim().is_empty() && !value.trim().is_empty())
            .collect();
        let count = fields.len() + usize::from(card.deadline_ms.is_some());
        if count > limits::FIELDS {
            out.push(format!(
                "card: {count} fields (Discord takes {})",
                limits::FIELDS
            ));
        }
        let mut total = title + footer;
        for (name, value) in fields {
            if chars(name) > limits::FIELD_NAME {
                out.push(format!(
                    "card field name {name:?}: {} characters",
                    chars(name)
                ));
            }
            if chars(value) > limits::FIELD_VALUE {
                out.push(format!(
                    "card field {name:?}: {} characters (Discord takes {})",
                    chars(value),
                    limits::FIELD_VALUE
                ));
            }
            total += chars(name) + chars(value);
        }
        if let Some(label) = card.deadline_label.as_deref() {
            // The deadline field: its label and `<t:…:R>`.
            total += chars(label) + 20;
        }
        if total > limits::EMBED_TOTAL {
            out.push(format!(
                "card: {total} characters in all (Discord takes {})",
                limits::EMBED_TOTAL
            ));
        }
    }
    let buttons = reply.buttons.len();
    if buttons > limits::BUTTONS_PER_ROW * limits::ROWS {
        out.push(format!("{buttons} buttons (Discord takes 25)"));
    }
    for b in &reply.buttons {
        if chars(&b.label) > limits::BUTTON_LABEL {
            out.push(format!("button label {:?}: too long", b.label));
        }
        if b.id.is_empty() || chars(&b.id) > limits::CUSTOM_ID {
            out.push(format!("button id {:?}: empty or too long", b.id));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::{Button, ButtonStyle, Card};

    #[test]
    fn a_reply_that_fits_has_no_overflow() {
        let reply = Reply {
            text: "x".repeat(limits::CONTENT),
            card: Some(Card {
                title: "t".into(),
                fields: vec![("a".into(), "v".repeat(limits::FIELD_VALUE))],
                ..Card::default()
            }),
            ..Reply::default()
        };
        assert!(overflows(&reply).is_empty(), "{:?}", overflows(&reply));
    }

    #[test]
    fn each_limit_is_named() {
        let reply = Reply {
            text: "x".repeat(limits::CONTENT + 1),
            card: Some(Card {
                title: "t".repeat(limits::TITLE + 1),
                fields: (0..26)
                    .map(|i| (format!("f{i}"), "v".repeat(limits::FIELD_VALUE + 1)))
                    .collect(),
                ..Card::default()
            }),
            buttons: vec![Button {
                id: "i".repeat(limits::CUSTOM_ID + 1),
                label: "l".repeat(limits::BUTTON_LABEL + 1),
                style: ButtonStyle::Primary,
            }],
            ..Reply::default()
        };
        let found = overflows(&reply).join("\n");
        for what in [
            "content",
            "card title",
            "26 fields",
            "in all",
            "field \"f0\"",
            "button label",
            "button id",
        ] {
            assert!(found.contains(what), "{what} missing from:\n{found}");
        }
    }
}
