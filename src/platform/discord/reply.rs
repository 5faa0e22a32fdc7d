//! A service [`Reply`] as a Discord message: the text (after `<@id>`
//! mentions of the users to notify, and only those may be pinged) as
//! content, the card as an embed whose image is the board PNG attached from
//! memory (`attachment://name.png`), buttons in action rows. Everything is
//! cut to Discord's limits so that a long answer is shortened, not refused.
//!
//! Where the bot may not embed links or attach files in a channel, the card
//! becomes plain text and the image is left out with a note naming the
//! permission, so the game stays playable.

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton, CreateEmbed,
    CreateEmbedFooter, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditInteractionResponse, Permissions,
};

use crate::{
    i18n::Lang,
    service::{ButtonStyle, Card, Reply},
    t,
};

/// Discord's limits (`resources/message`, `resources/message#embed-limits`,
/// `interactions/message-components`).
pub mod limits {
    pub const CONTENT: usize = 2000;
    pub const TITLE: usize = 256;
    pub const FIELD_NAME: usize = 256;
    pub const FIELD_VALUE: usize = 1024;
    pub const FIELDS: usize = 25;
    pub const FOOTER: usize = 2048;
    pub const EMBED_TOTAL: usize = 6000;
    pub const BUTTON_LABEL: usize = 80;
    pub const CUSTOM_ID: usize = 100;
    /// A link button's URL.
    pub const BUTTON_URL: usize = 512;
    pub const BUTTONS_PER_ROW: usize = 5;
    pub const ROWS: usize = 5;
    pub const THREAD_NAME: usize = 100;
    /// An attachment's description (alt text).
    pub const DESCRIPTION: usize = 1024;
}

/// What the bot may do where the message goes (from the interaction's
/// `app_permissions`; unknown means "assume yes" and let Discord say no).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    pub embed_links: bool,
    pub attach_files: bool,
}

impl Capabilities {
    pub const ALL: Capabilities = Capabilities {
        embed_links: true,
        attach_files: true,
    };

    pub fn from_permissions(p: Option<Permissions>) -> Capabilities {
        match p {
            Some(p) => Capabilities {
                embed_links: p.embed_links() || p.administrator(),
                attach_files: p.attach_files() || p.administrator(),
            },
            None => Capabilities::ALL,
        }
    }
}

/// A reply ready to be sent by any of Discord's message routes.
#[derive(Clone, Debug)]
pub struct Message {
    pub content: String,
    pub embed: Option<CreateEmbed>,
    /// The board image (first) and any other file.
    pub attachments: Vec<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
    pub allowed_mentions: CreateAllowedMentions,
    pub ephemeral: bool,
}

/// Fills one of serenity's message builders from a [`Message`]. The four
/// builders have the same setters by name but share no trait; they differ
/// in how a file is attached and whether "ephemeral" exists.
macro_rules! fill {
    ($builder:expr, $message:expr, $attach:ident $(, $ephemeral:ident)?) => {{
        let message = $message;
        let mut m = $builder
            .content(message.content)
            .components(message.rows)
            .allowed_mentions(message.allowed_mentions)
            $(.$ephemeral(message.ephemeral))?;
        if let Some(e) = message.embed {
            m = m.embed(e);
        }
        for a in message.attachments {
            m = m.$attach(a);
        }
        m
    }};
}

impl Message {
    /// [`Self::from_reply_in`] with the adapter's notes in English (where
    /// no interaction says who reads them; with [`Capabilities::ALL`] there
    /// are none).
    pub fn from_reply(reply: &Reply, caps: Capabilities) -> Message {
        Message::from_reply_in(reply, caps, Lang::En)
    }

    /// The message for `reply` where the bot has `caps`; notes about
    /// missing permissions are in `lang`.
    pub fn from_reply_in(reply: &Reply, caps: Capabilities, lang: Lang) -> Message {
        // The cuts below are a safety net; every reply should fit whole.
        for what in super::fit::overflows(reply) {
            tracing::warn!(%what, "a reply does not fit Discord's limits and is cut");
        }
        let mut content = String::new();
        let mentioned = mentioned_users(reply);
        for id in &mentioned {
            content.push_str(&format!("<@{id}> "));
        }
        content.push_str(&reply.text);
        let image = reply.image.as_ref().filter(|_| caps.attach_files).map(|i| {
            let attachment = CreateAttachment::bytes(i.png.clone(), safe_file_name(&i.file_name));
            // What a screen reader reads (Discord's `description`,
            // 1,024 characters at most).
            let described = match i.description.trim() {
                "" => attachment,
                text => attachment.description(cut(text, limits::DESCRIPTION)),
            };
            (safe_file_name(&i.file_name), described)
        });
        let mut embed = None;
        if let Some(card) = &reply.card {
            if caps.embed_links {
                embed = Some(embed_of(
                    card,
                    image.as_ref().map(|(name, _)| name.as_str()),
                ));
            } else {
                content.push_str(&card_as_text(card));
                content.push('\n');
                content.push_str(&t!(lang, "discord-need-embed-links"));
            }
        }
        if reply.image.is_some() && !caps.attach_files {
            content.push('\n');
            content.push_str(&t!(lang, "discord-need-attach-files"));
        }
        let files: Vec<CreateAttachment> = reply
            .files
            .iter()
            .filter(|_| caps.attach_files)
            .map(|f| CreateAttachment::bytes(f.bytes.clone(), safe_name(&f.file_name, "file.txt")))
            .collect();
        if !reply.files.is_empty() && !caps.attach_files {
            content.push('\n');
            content.push_str(&t!(lang, "discord-need-attach-files-file"));
        }
        let mut content = cut(content.trim(), limits::CONTENT);
        if content.is_empty() && embed.is_none() && image.is_none() && files.is_empty() {
            // Discord refuses an empty message.
            content = t!(lang, "discord-done");
        }
        Message {
            content,
            embed,
            attachments: image
                .map(|(_, attachment)| attachment)
                .into_iter()
                .chain(files)
                .collect(),
            rows: rows(reply),
            allowed_mentions: CreateAllowedMentions::new()
                .users(mentioned)
                .replied_user(false),
            ephemeral: reply.ephemeral,
        }
    }

    /// An interaction's initial response (callback type 4).
    pub fn to_response(self) -> CreateInteractionResponseMessage {
        fill!(
            CreateInteractionResponseMessage::new(),
            self,
            add_file,
            ephemeral
        )
    }

    /// The edit that completes a deferred response (`PATCH @original`).
    pub fn to_edit(self) -> EditInteractionResponse {
        fill!(EditInteractionResponse::new(), self, new_attachment)
    }

    /// A follow-up message on an interaction's webhook.
    pub fn to_followup(self) -> CreateInteractionResponseFollowup {
        fill!(
            CreateInteractionResponseFollowup::new(),
            self,
            add_file,
            ephemeral
        )
    }

    /// A plain channel message (a game's first board in its new thread).
    pub fn to_message(self) -> CreateMessage {
        fill!(CreateMessage::new(), self, add_file)
    }

    /// An edit of a message the bot posted (an analysis's progress, then
    /// its result). Files replace the message's earlier attachments.
    pub fn to_message_edit(self) -> serenity::EditMessage {
        fill!(serenity::EditMessage::new(), self, new_attachment)
    }
}

/// The users a reply pings: its mentions that are snowflakes (anything
/// else is dropped), none for a private reply.
pub fn mentioned_users(reply: &Reply) -> Vec<serenity::UserId> {
    if reply.ephemeral {
        return Vec::new();
    }
    reply
        .mentions
        .iter()
        .filter_map(|id| id.parse::<u64>().ok())
        .filter(|id| *id != 0)
        .map(serenity::UserId::new)
        .collect()
}

fn embed_of(card: &Card, image: Option<&str>) -> CreateEmbed {
    let mut embed = CreateEmbed::new()
        .title(cut(&card.title, limits::TITLE))
        .colour(0x00b5_8863);
    let mut budget =
        limits::EMBED_TOTAL.saturating_sub(card.title.chars().count().min(limits::TITLE));
    let footer = card.footer.as_deref().map(|f| cut(f, limits::FOOTER));
    budget = budget.saturating_sub(footer.as_deref().map_or(0, |f| f.chars().count()));
    let mut fields: Vec<(String, String)> = card
        .fields
        .iter()
        .filter(|(name, value)| !name.trim().is_empty() && !value.trim().is_empty())
        .map(|(name, value)| {
            (
                cut(name, limits::FIELD_NAME),
                cut(value, limits::FIELD_VALUE),
            )
        })
        .collect();
    if let Some(ms) = card.deadline_ms {
        // Discord shows `<t:…:R>` as "in 3 days", in each reader's time zone.
        // It goes with the turn and time, before the long FEN line.
        let at = fields
            .iter()
            .position(|(name, _)| name == "FEN")
            .unwrap_or(fields.len());
        fields.insert(
            at,
            (
                deadline_label(card),
                format!("<t:{}:R>", ms.div_euclid(1000)),
            ),
        );
    }
    for (count, (name, value)) in fields.into_iter().enumerate() {
        let size = name.chars().count() + value.chars().count();
        if count == limits::FIELDS || size > budget {
            break;
        }
        budget -= size;
        // Short facts side by side; the FEN and long text get a line each.
        let inline = value.chars().count() <= 32 && name != "FEN";
        embed = embed.field(name, value, inline);
    }
    if let Some(footer) = footer.filter(|f| !f.is_empty()) {
        embed = embed.footer(CreateEmbedFooter::new(footer));
    }
    if let Some(name) = image {
        embed = embed.image(format!("attachment://{name}"));
    }
    embed
}

/// The label of a card's deadline, in the card's language (the service
/// always names it; English is the fallback of a card made elsewhere).
fn deadline_label(card: &Card) -> String {
    card.deadline_label
        .clone()
        .unwrap_or_else(|| t!(Lang::En, "board-field-deadline"))
}

/// The card for channels where embeds are not allowed.
fn card_as_text(card: &Card) -> String {
    let mut text = format!("\n**{}**", card.title);
    for (name, value) in &card.fields {
        text.push_str(&format!("\n{name}: {value}"));
    }
    if let Some(ms) = card.deadline_ms {
        text.push_str(&format!(
            "\n{}: <t:{}:R>",
            deadline_label(card),
            ms.div_euclid(1000)
        ));
    }
    if let Some(footer) = &card.footer {
        text.push_str(&format!("\n{footer}"));
    }
    text
}

fn rows(reply: &Reply) -> Vec<CreateActionRow> {
    let buttons: Vec<CreateButton> = reply
        .buttons
        .iter()
        .filter(|b| {
            let limit = match b.style {
                ButtonStyle::Link => limits::BUTTON_URL,
                _ => limits::CUSTOM_ID,
            };
            let fits = !b.id.is_empty() && b.id.chars().count() <= limit;
            if !fits {
                tracing::warn!(id = %b.id, "button id does not fit Discord's 100 characters; left out");
            }
            fits
        })
        .take(limits::BUTTONS_PER_ROW * limits::ROWS)
        .map(|b| {
            let label = cut(&b.label, limits::BUTTON_LABEL);
            let style = match b.style {
                // A link button has a URL and no custom id or style.
                ButtonStyle::Link => return CreateButton::new_link(b.id.clone()).label(label),
                ButtonStyle::Primary => serenity::ButtonStyle::Primary,
                ButtonStyle::Secondary => serenity::ButtonStyle::Secondary,
                ButtonStyle::Success => serenity::ButtonStyle::Success,
                ButtonStyle::Danger => serenity::ButtonStyle::Danger,
            };
            CreateButton::new(b.id.clone()).label(label).style(style)
        })
        .collect();
    buttons
        .chunks(limits::BUTTONS_PER_ROW)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

/// At most `max` characters, ending in `…` when cut (never inside a char).
pub use crate::chess::describe::cut;

/// An attachment name Discord accepts and `attachment://` can point at:
/// ASCII letters, digits, `-_.`, at most 64 characters, ending in one of
/// the kinds the bot sends; anything else becomes `fallback`.
fn safe_name(name: &str, fallback: &str) -> String {
    const KINDS: [&str; 6] = [".png", ".gif", ".pgn", ".json", ".trf", ".txt"];
    let cleaned: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(64)
        .collect();
    let has_stem = |kind: &str| cleaned.len() > kind.len() && cleaned.ends_with(kind);
    if KINDS.iter().any(|kind| has_stem(kind)) {
        cleaned
    } else {
        fallback.to_owned()
    }
}

/// An image's name (`board.png` if it has none fit to send).
fn safe_file_name(name: &str) -> String {
    safe_name(name, "board.png")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::{Button, Image};

    fn json<T: serde::Serialize>(v: &T) -> serde_json::Value {
        serde_json::to_value(v).expect("serializable")
    }

    #[test]
    fn cut_keeps_short_text_and_marks_long_text() {
        assert_eq!(cut("e4", 10), "e4");
        assert_eq!(cut("马马马马", 3), "马马…");
        assert_eq!(
            cut(&"x".repeat(3000), limits::CONTENT).chars().count(),
            2000
        );
    }

    #[test]
    fn board_reply_becomes_embed_image_buttons_and_one_ping() {
        let reply = Reply {
            text: "1. e4 — bob (Black) to move.".into(),
            card: Some(Card {
                title: "alice (White) vs bob (Black)".into(),
                fields: vec![
                    ("Turn".into(), "bob (Black)".into()),
                    ("FEN".into(), "x".into()),
                ],
                footer: Some("Game #1 · rated".into()),
                deadline_ms: Some(1_767_528_000_123),
                deadline_label: None,
            }),
            image: Some(Image {
                file_name: "game-1-1.png".into(),
                description: "Black to move.".into(),
                png: vec![1, 2, 3],
            }),
            buttons: vec![Button {
                id: "game:1:resign:1".into(),
                label: "Resign".into(),
                style: ButtonStyle::Danger,
            }],
            mentions: vec!["42".into(), "not-a-snowflake".into()],
            ..Reply::default()
        };
        let m = Message::from_reply(&reply, Capabilities::ALL);
        assert_eq!(m.content, "<@42> 1. e4 — bob (Black) to move.");
        let embed = json(m.embed.as_ref().expect("embed"));
        assert_eq!(embed["image"]["url"], "attachment://game-1-1.png");
        assert_eq!(embed["fields"][1]["name"], "Deadline");
        assert_eq!(embed["fields"][1]["value"], "<t:1767528000:R>");
        assert_eq!(embed["fields"][2]["name"], "FEN");
        assert_eq!(embed["fields"][2]["inline"], false);
        assert_eq!(
            json(&m.allowed_mentions)["users"],
            serde_json::json!(["42"])
        );
        assert_eq!(
            json(&m.rows[0])["components"][0]["custom_id"],
            "game:1:resign:1"
        );
    }

    #[test]
    fn without_permissions_the_card_is_text_and_the_missing_one_is_named() {
        let reply = Reply {
            text: "Your move.".into(),
            card: Some(Card {
                title: "T".into(),
                ..Card::default()
            }),
            image: Some(Image {
                file_name: "b.png".into(),
                description: String::new(),
                png: vec![1],
            }),
            ..Reply::default()
        };
        let m = Message::from_reply(
            &reply,
            Capabilities {
                embed_links: false,
                attach_files: false,
            },
        );
        assert!(m.embed.is_none() && m.attachments.is_empty());
        assert!(m.content.contains("**T**"));
        assert!(m.content.contains("Embed Links"));
        assert!(m.content.contains("Attach Files"));
    }

    #[test]
    fn oversized_replies_are_cut_to_discords_limits() {
        let reply = Reply {
            text: "a".repeat(5000),
            card: Some(Card {
                title: "t".repeat(400),
                fields: (0..40)
                    .map(|i| (format!("f{i}"), "v".repeat(1500)))
                    .collect(),
                footer: Some("f".repeat(3000)),
                deadline_ms: None,
                deadline_label: None,
            }),
            buttons: (0..30)
                .map(|i| Button {
                    id: format!("b{i}"),
                    label: "l".repeat(100),
                    style: ButtonStyle::Primary,
                })
                .collect(),
            ..Reply::default()
        };
        let m = Message::from_reply(&reply, Capabilities::ALL);
        assert_eq!(m.content.chars().count(), limits::CONTENT);
        let embed = json(m.embed.as_ref().expect("embed"));
        let total: usize = embed["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .map(|f| {
                f["name"].as_str().unwrap_or("").chars().count()
                    + f["value"].as_str().unwrap_or("").chars().count()
            })
            .sum::<usize>()
            + embed["title"].as_str().unwrap_or("").chars().count()
            + embed["footer"]["text"]
                .as_str()
                .unwrap_or("")
                .chars()
                .count();
        assert!(total <= limits::EMBED_TOTAL, "{total}");
        assert_eq!(m.rows.len(), limits::ROWS);
    }

    #[test]
    fn ephemeral_replies_ping_nobody() {
        let mut reply = Reply::private("Not your turn.");
        reply.mentions = vec!["42".into()];
        let m = Message::from_reply(&reply, Capabilities::ALL);
        assert_eq!(m.content, "Not your turn.");
        assert!(m.ephemeral);
    }
}
