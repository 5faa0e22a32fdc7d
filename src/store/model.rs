//! The records the store keeps, in plain domain types: ids are the platform's
//! ids as text, points are integer hundredths, times are unix milliseconds.

pub use crate::chess::Variant;

/// A server's settings, chosen by its moderators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    pub server_id: String,
    /// Time control of challenges that do not name one (`3d`, `10+5`, …).
    pub default_time_control: String,
    /// Whether an accepted challenge opens a thread for its game.
    pub threads: bool,
    /// Board colour theme name.
    pub theme: String,
    /// The house rule of seed 003: the third king move into check loses.
    pub strict_illegal_moves: bool,
    /// How long a challenge waits for an answer.
    pub challenge_ttl_ms: i64,
    /// Rated games allowed between the same two players per day (0: no limit).
    pub rated_games_per_pair_daily: i64,
    /// Vacation days each player may take per year (365 days).
    pub vacation_days_per_year: i64,
    /// Hours before a correspondence deadline at which the player to move
    /// is reminded, largest first.
    pub reminder_hours: Vec<i64>,
    /// Language of public messages (`en`, `zh-CN`); `None`: follow
    /// [`Self::discord_locale`], else English.
    pub language: Option<String>,
    /// The server's locale as Discord last reported it (`guild_locale`).
    pub discord_locale: Option<String>,
    /// How moves are written in replies (`letters`, `chinese`); `None`:
    /// Chinese piece names on a Chinese server, letters otherwise.
    pub notation: Option<String>,
    /// Whether anyone with a game's public link may watch its live board.
    pub spectators: bool,
    /// Whether the club's pages are on the web, and how.
    pub web_pages: WebPages,
    /// The pages' address part (`/club/{slug}/…`), made when they are first
    /// turned on.
    pub web_slug: Option<String>,
    /// Hours in one session of a live game (seed 001: 5小时为1场).
    pub session_hours: i64,
    /// The server's time zone, as minutes east of UTC: resumption times
    /// are given and shown in it.
    pub utc_offset_minutes: i64,
    /// The channel the daily puzzle is posted in (`None`: no daily puzzle).
    pub puzzle_channel: Option<String>,
    /// The hour of the day (0-23, in the server's time zone) it is posted.
    pub puzzle_hour: i64,
    /// Since when the server's finished games are mined for puzzles in the
    /// background (`/settings puzzles:on`); `None`: off.
    pub puzzle_mining_since_ms: Option<i64>,
}

/// Who may read a server's pages on the web (`/settings web`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WebPages {
    /// Nothing served: every address is a 404.
    #[default]
    Off,
    /// Served at unlisted addresses with an unguessable slug.
    Link,
    /// The same addresses, and listed on the site's front page.
    Public,
}

impl WebPages {
    pub fn id(self) -> &'static str {
        match self {
            WebPages::Off => "off",
            WebPages::Link => "link",
            WebPages::Public => "public",
        }
    }

    pub fn from_id(id: &str) -> Option<WebPages> {
        match id {
            "off" => Some(WebPages::Off),
            "link" => Some(WebPages::Link),
            "public" => Some(WebPages::Public),
            _ => None,
        }
    }
}

impl ServerSettings {
    /// The settings of a server nobody has configured.
    pub fn defaults(server_id: &str) -> ServerSettings {
        ServerSettings {
            server_id: server_id.to_owned(),
            default_time_control: "3d".to_owned(),
            threads: true,
            spectators: true,
            web_pages: WebPages::Off,
            web_slug: None,
            theme: "brown".to_owned(),
            strict_illegal_moves: false,
            challenge_ttl_ms: 24 * 3600 * 1000,
            rated_games_per_pair_daily: 0,
            vacation_days_per_year: 14,
            reminder_hours: vec![24, 1],
            language: None,
            discord_locale: None,
            notation: None,
            session_hours: 5,
            utc_offset_minutes: 0,
            puzzle_channel: None,
            puzzle_hour: 9,
            puzzle_mining_since_ms: None,
        }
    }
}

/// A player on one server's ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    pub server_id: String,
    pub user_id: String,
    pub display_name: String,
    /// Points in hundredths.
    pub points: i64,
    pub rated_games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// Reminders by direct message (at most one summary a day) instead of
    /// a mention in the game's channel.
    pub notify_dm: bool,
    /// Boards drawn with White at the bottom for this player, instead of
    /// from the side of the player to move.
    pub board_white: bool,
    /// The client locale this player last used (`zh-CN`, `en-US`), for
    /// messages sent with no command to answer (DM summaries).
    pub locale: Option<String>,
    /// The player's FIDE title (`GM`, `IM`, `FM`, `WGM`, `WIM`), set by
    /// the server's moderators.
    pub title: Option<String>,
}

impl PlayerRecord {
    /// The name as shown beside a board or on a table: the title first
    /// (`GM 张伟`).
    pub fn titled_name(&self) -> String {
        titled(self.title.as_deref(), &self.display_name)
    }
}

/// `name` with `title` before it, if any.
pub fn titled(title: Option<&str>, name: &str) -> String {
    match title {
        Some(title) => format!("{title} {name}"),
        None => name.to_owned(),
    }
}

/// Where a challenge stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeStatus {
    Pending,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

impl ChallengeStatus {
    pub const fn id(self) -> &'static str {
        match self {
            ChallengeStatus::Pending => "pending",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    pub fn from_id(id: &str) -> Option<ChallengeStatus> {
        [
            ChallengeStatus::Pending,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Cancelled,
            ChallengeStatus::Expired,
        ]
        .into_iter()
        .find(|s| s.id() == id)
    }
}

/// A challenge to be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    pub server_id: String,
    pub channel_id: String,
    pub challenger_id: String,
    /// `None`: an open challenge anyone may accept.
    pub opponent_id: Option<String>,
    /// `white`, `black` or `random`: the challenger's colour.
    pub color: String,
    pub rated: bool,
    pub time_control: String,
    /// The starting position, when not the standard one (always, in
    /// Chess960: the position drawn or chosen for the challenge).
    pub initial_fen: Option<String>,
    /// The rules the game will be played by.
    pub variant: Variant,
    /// The Chess960 start position's number (0–959).
    pub start_number: Option<u16>,
    pub created_ms: i64,
    pub expires_ms: i64,
}

/// A stored challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRecord {
    pub id: i64,
    pub challenge: NewChallenge,
    pub status: ChallengeStatus,
    pub game_id: Option<i64>,
}

/// A game to be stored when a challenge is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub server_id: String,
    pub home_channel_id: String,
    /// `None` while the game's thread is being opened.
    pub channel_id: Option<String>,
    pub white_id: String,
    pub black_id: String,
    pub rated: bool,
    pub time_control: String,
    pub initial_fen: Option<String>,
    /// The rules the game is played by; its ladder when rated.
    pub variant: Variant,
    /// The Chess960 start position's number (0–959).
    pub start_number: Option<u16>,
    pub deadline_ms: Option<i64>,
    pub created_ms: i64,
}

/// The mutable part of a game row, written whole by every change.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameState {
    /// `None` while the game runs; `1-0`, `0-1`, `1/2-1/2` or `*` after.
    pub result: Option<String>,
    /// [`crate::chess::Termination::id`] once ended.
    pub termination: Option<String>,
    /// `white` or `black`: whose draw offer stands.
    pub draw_offer: Option<String>,
    pub illegal_white: i64,
    pub illegal_black: i64,
    pub deadline_ms: Option<i64>,
    /// Extra time for the side to move in the current turn (given by the
    /// opponent, or downtime grace); a move resets it.
    pub bonus_ms: i64,
    /// When the next reminder of this turn is due (correspondence only).
    pub next_reminder_ms: Option<i64>,
    pub ended_ms: Option<i64>,
}

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: i64,
    pub game: NewGame,
    pub state: GameState,
    /// Bumped by every change; a change names the version it was made on.
    pub version: i64,
    /// Takeback and rematch requests (not part of [`GameState`]: a move's
    /// commit does not write them).
    pub offers: GameOffers,
}

/// What the players of a game asked each other besides moves.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameOffers {
    /// The user who asked to take back their last move, and the version of
    /// the game the request was made on: it stands only while the game is
    /// still at that version.
    pub takeback: Option<(String, i64)>,
    /// The user who offered a rematch of this finished game.
    pub rematch_by: Option<String>,
    /// The game the rematch started, once agreed.
    pub rematch_game_id: Option<i64>,
}

/// Taking back the last move or two of a game: the moves after
/// `keep_plies` go, and the game gets `state`, if it is still at
/// `expected_version` and `requested_by`'s takeback request still stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeBack {
    pub game_id: i64,
    pub expected_version: i64,
    pub requested_by: String,
    pub keep_plies: i64,
    pub state: GameState,
}

impl GameRecord {
    pub fn is_active(&self) -> bool {
        self.state.result.is_none()
    }

    /// Who asked for a takeback that still stands (made on this version).
    pub fn takeback_by(&self) -> Option<&str> {
        match &self.offers.takeback {
            Some((user, version)) if *version == self.version => Some(user),
            _ => None,
        }
    }
}

/// One stored half-move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// 1 for the first half-move of the game.
    pub ply: i64,
    pub uci: String,
    pub san: String,
    pub played_ms: i64,
}

/// One player's rating change from one rated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingChangeRecord {
    pub game_id: i64,
    pub user_id: String,
    pub before: i64,
    pub delta: i64,
    pub after: i64,
    pub at_ms: i64,
}

/// How a rated game scores for White: 1, ½ or 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    WhiteWins,
    BlackWins,
    Draw,
}

/// The point changes of a rated game: `(white delta, black delta)` from the
/// players' points before it, in hundredths.
pub type Settle = fn(white_points: i64, black_points: i64, score: Score) -> (i64, i64);

/// Everything one action does to a game, committed in one transaction.
#[derive(Clone, Debug)]
pub struct GameChange {
    pub game_id: i64,
    /// The version the change was computed on; another writer's change in
    /// between makes this one fail with [`super::StoreError::Conflict`].
    pub expected_version: i64,
    pub new_move: Option<MoveRecord>,
    pub state: GameState,
    /// For a rated game that ends decisively or drawn: the score, and the
    /// rule that turns both players' current points into changes.
    pub rating: Option<(Score, Settle)>,
    /// The player who moved, for a move: a vacation of theirs running at
    /// `at_ms` ends then, in the same transaction (a vacation ends when its
    /// player moves).
    pub mover: Option<Mover>,
    pub at_ms: i64,
}

/// The player making a move, as the caller saw them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mover {
    pub user_id: String,
    /// Whether the caller saw a vacation of theirs running at the change's
    /// `at_ms`. If the store finds otherwise, the change is refused with
    /// [`super::StoreError::Conflict`], as for a stale version: what the
    /// caller computed (the deadline, what it will tell the player) rests on
    /// what it saw.
    pub vacation_running: bool,
}

/// What a committed change did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub version: i64,
    /// White's and Black's rating change, for rated endings.
    pub ratings: Option<[RatingChangeRecord; 2]>,
    /// Whether the mover had a vacation running that is now over.
    pub vacation_ended: bool,
    /// The game row's new `xmin` (PostgreSQL): the game stamp of a
    /// [`super::ViewCheck`] for the next change.
    pub stamp: Option<String>,
}

/// One adjournment of a game (封棋).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjournment {
    pub id: i64,
    pub game_id: i64,
    /// The game's plies when it was adjourned.
    pub ply: i64,
    /// `session` (a session's end), `agreed` or `arbiter`.
    pub reason: String,
    pub adjourned_ms: i64,
    /// `white` or `black`: the side to move, who seals.
    pub sealer: String,
    /// The sealed move (UCI): shown to nobody until the resumption.
    pub sealed_uci: Option<String>,
    pub sealed_ms: Option<i64>,
    /// When play resumes, once set.
    pub resume_ms: Option<i64>,
    pub resumed_ms: Option<i64>,
    /// The nearest reminder of the resumption sent, in hours before it.
    pub reminded_hours: Option<i64>,
    /// A player's proposed resumption time (`white` or `black`, and when),
    /// waiting for the opponent's agreement.
    pub proposed_by: Option<String>,
    pub proposed_ms: Option<i64>,
}

impl Adjournment {
    /// Whether the game is still adjourned (not resumed).
    pub fn is_open(&self) -> bool {
        self.resumed_ms.is_none()
    }
}

/// An adjournment to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAdjournment {
    pub ply: i64,
    pub reason: String,
    pub adjourned_ms: i64,
    pub sealer: String,
}

/// A player's standing offer to adjourn a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjournOffer {
    /// `white` or `black`.
    pub offered_by: String,
    /// The game's plies when it was offered: a move ends the offer.
    pub ply: i64,
}
