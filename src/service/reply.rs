//! What the bot answers, in platform-neutral terms: text, an embed-like card,
//! an image, buttons with stable ids, and delivery hints. Adapters turn a
//! [`Reply`] into a Discord message or console lines.

/// A bot answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub card: Option<Card>,
    pub image: Option<Image>,
    pub buttons: Vec<Button>,
    /// Only the person who asked sees it.
    pub ephemeral: bool,
    /// Users to notify (the player to move, a challenged opponent).
    pub mentions: Vec<String>,
    /// Open a thread with this name and move the game there.
    pub open_thread: Option<OpenThread>,
    /// Files attached besides the image (a game's PGN, an annotated PGN,
    /// a data export).
    pub files: Vec<Attachment>,
    /// Names a message the bot keeps editing (an analysis's progress, then
    /// its result): an adapter that has already posted a message with this
    /// key edits that message instead of posting a new one.
    pub edits: Option<String>,
}

/// A file attached to a message, in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// An embed: a title, fields and a footer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Card {
    pub title: String,
    pub fields: Vec<(String, String)>,
    pub footer: Option<String>,
    /// A moment to show as a relative time (a deadline), unix ms.
    pub deadline_ms: Option<i64>,
    /// The label of that moment in the card's language (`None`: `Deadline`).
    pub deadline_label: Option<String>,
}

/// An attached image, in memory (a board, a chart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub file_name: String,
    pub png: Vec<u8>,
    /// What the image shows, in words, for screen readers (Discord's
    /// attachment description, at most
    /// [`MAX_DESCRIPTION`](crate::chess::describe::MAX_DESCRIPTION)
    /// characters): the position of a board, one line for a chart.
    pub description: String,
}

/// How a button looks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ButtonStyle {
    Primary,
    Secondary,
    Success,
    Danger,
    /// Opens an address (the button's `id` is the URL).
    Link,
}

/// A button; its id is stable and self-describing, so it works after a restart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub id: String,
    pub label: String,
    pub style: ButtonStyle,
}

/// A message the bot sends on its own (reminders, timeouts), not as the
/// answer to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The channel to post in, or `None` for a direct message.
    pub channel: Option<String>,
    /// For a direct message: the user to write to.
    pub dm_user: Option<String>,
    pub reply: Reply,
}

/// A request to open a thread for a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenThread {
    pub game_id: i64,
    pub name: String,
}

impl Reply {
    /// A plain public message.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            ..Reply::default()
        }
    }

    /// A message only the asker sees.
    pub fn private(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            ephemeral: true,
            ..Reply::default()
        }
    }
}
