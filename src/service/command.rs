//! What a person asks the bot to do, in platform-neutral terms: a
//! [`Command`] and the [`Actor`] who sent it. Adapters build these from
//! Discord interactions or console lines.

/// Who sent a command, and from where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The server (Discord guild) id.
    pub server: String,
    /// The channel or thread the command came from.
    pub channel: String,
    pub user: String,
    /// The name to show for this user.
    pub name: String,
    /// The user's client locale (`en-US`, `zh-CN`): private replies speak it.
    pub locale: Option<String>,
    /// The server's locale (Discord's `guild_locale`): the default
    /// language of public messages until `/settings language` chooses one.
    pub server_locale: Option<String>,
    /// Whether the platform says this user may moderate the server.
    pub is_moderator: bool,
}

impl Actor {
    /// The language of replies only this user sees.
    pub fn lang(&self) -> crate::i18n::Lang {
        crate::i18n::Lang::from_locale(self.locale.as_deref())
    }
}

/// Another user named in a command (an opponent, a profile to look at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRef {
    pub id: String,
    pub name: String,
}

/// The colour a challenger asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

impl ColorChoice {
    pub const fn id(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    pub fn from_id(text: &str) -> Option<ColorChoice> {
        match text.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => Some(ColorChoice::White),
            "black" | "b" => Some(ColorChoice::Black),
            "random" | "r" | "any" => Some(ColorChoice::Random),
            _ => None,
        }
    }
}

/// What to do about a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
    Claim,
}

impl DrawAction {
    pub fn from_id(text: &str) -> Option<DrawAction> {
        match text.trim().to_ascii_lowercase().as_str() {
            "offer" => Some(DrawAction::Offer),
            "accept" => Some(DrawAction::Accept),
            "decline" => Some(DrawAction::Decline),
            "claim" => Some(DrawAction::Claim),
            _ => None,
        }
    }
}

/// What to do about a takeback.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TakebackAction {
    /// Ask the opponent to let you take back your last move.
    Request,
    Accept,
    Decline,
}

impl TakebackAction {
    pub fn from_id(text: &str) -> Option<TakebackAction> {
        match text.trim().to_ascii_lowercase().as_str() {
            "request" | "ask" => Some(TakebackAction::Request),
            "accept" => Some(TakebackAction::Accept),
            "decline" => Some(TakebackAction::Decline),
            _ => None,
        }
    }
}

/// What to do about adjourning a game (封棋).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdjournAction {
    /// Offer the opponent to adjourn (as a draw offer works).
    Offer,
    Accept,
    Decline,
    /// Adjourn at once, as the arbiter (moderators).
    Now,
    /// Set when play resumes: a local date and time in the server's time
    /// zone, `YYYY-MM-DD HH:MM` (moderators).
    Resume {
        when: String,
    },
}

impl AdjournAction {
    /// The simple actions by name (`resume` needs its time).
    pub fn from_id(text: &str) -> Option<AdjournAction> {
        match text.trim().to_ascii_lowercase().as_str() {
            "offer" => Some(AdjournAction::Offer),
            "accept" => Some(AdjournAction::Accept),
            "decline" => Some(AdjournAction::Decline),
            "now" => Some(AdjournAction::Now),
            _ => None,
        }
    }
}

/// What to do with one's conditional moves (correspondence games).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionalAction {
    /// Add a line: the opponent's move, your answer, their move, … (on your
    /// own turn it starts with your pending move).
    Add { line: String },
    /// Show your lines (only to you).
    List,
    /// Remove all of them.
    Clear,
}

/// A setting a moderator changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    DefaultTime(String),
    Threads(bool),
    Theme(String),
    StrictIllegalMoves(bool),
    ChallengeHours(i64),
    RatedGamesPerPairDaily(i64),
    VacationDaysPerYear(i64),
    /// Hours before a deadline to remind, e.g. `[24, 1]`.
    ReminderHours(Vec<i64>),
    /// The language of public messages (`en`, `zh-CN`), or `auto` to follow
    /// the server's Discord locale.
    Language(String),
    /// How moves are written in public messages (`letters`, `chinese`), or
    /// `auto` to follow the language.
    Notation(String),
    /// The asker's own preference (not a moderator setting): reminders by
    /// direct message (`true`) or as a mention in the game's channel.
    NotifyByDm(bool),
    /// Whether anyone with a game's public link may watch its live board.
    Spectators(bool),
    /// Whether the club's pages are on the web: `off`, `link` or `public`.
    WebPages(String),
    /// Hours in one session of a live game, after which it is adjourned.
    SessionHours(i64),
    /// The server's time zone as a UTC offset (`UTC+8`, `-5:30`).
    TimeZone(String),
    /// The daily puzzle's channel (its id), or `None` for no daily puzzle.
    PuzzleChannel(Option<String>),
    /// The hour of the daily puzzle (`9`, `21:00`), in the server's time
    /// zone.
    PuzzleTime(String),
    /// Whether the server's finished games are mined for puzzles in the
    /// background.
    PuzzleMining(bool),
}

/// Everything the bot can be asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Option<UserRef>,
        color: ColorChoice,
        /// `None`: rated.
        rated: Option<bool>,
        /// `None`: the server's default time control.
        time: Option<String>,
        /// Start from this position instead of the standard one.
        fen: Option<String>,
        /// lichess's variant key (`standard`, `chess960`); `None`: standard.
        /// Read by the service, which refuses one it does not play.
        variant: Option<String>,
        /// Chess960's start position, 0–959 (`None`: drawn at random).
        position: Option<i64>,
    },
    /// Accept a challenge: by id (a button), or the one waiting in this channel.
    Accept {
        challenge: Option<i64>,
    },
    Decline {
        challenge: Option<i64>,
    },
    Cancel {
        challenge: Option<i64>,
    },
    Move {
        text: String,
        /// Claim the draw (repetition / fifty moves) this move creates.
        claim_draw: bool,
    },
    /// A move from a live board: in game `game`, only while it has `ply`
    /// plies (a board that sends a move twice has it applied once).
    BoardMove {
        game: i64,
        ply: i64,
        text: String,
    },
    /// A live board's button, on the board shown at `ply` plies.
    BoardAction {
        game: i64,
        ply: i64,
        action: super::live::BoardAction,
    },
    Board,
    /// Resign; without confirmation the bot asks first.
    Resign {
        confirmed: bool,
    },
    Draw {
        action: DrawAction,
    },
    Abort,
    Games,
    Leaderboard {
        page: i64,
        /// lichess's variant key: that variant's ladder (`None`: standard).
        variant: Option<String>,
    },
    /// `/leaderboard puzzles`: the puzzle ladder.
    PuzzleLeaderboard {
        page: i64,
    },
    /// `/puzzle`: a puzzle near the asker's puzzle points (or the open one
    /// again).
    Puzzle,
    /// `/puzzle source:daily`: today's daily puzzle, privately (as its
    /// post's Solve button).
    DailyPuzzle,
    /// `/puzzle source:mine`: a puzzle from the asker's own mistakes
    /// (found when `/analyze` reviewed their game).
    MistakePuzzle,
    Profile {
        user: Option<UserRef>,
    },
    History {
        user: Option<UserRef>,
    },
    Pgn {
        game: Option<i64>,
    },
    RatingPreview {
        opponent: UserRef,
    },
    Settings {
        changes: Vec<Setting>,
    },
    /// The moderators' audit log of this server, newest first (moderators only).
    SettingsLog {
        page: i64,
    },
    /// What the bot stores about the asker, as a JSON attachment.
    PrivacyShow,
    /// Erase the asker's data; without confirmation the bot asks first.
    PrivacyForget {
        confirmed: bool,
    },
    /// Take `days` of vacation (pausing correspondence deadlines), or end a
    /// running vacation with `0`.
    Vacation {
        days: i64,
    },
    /// A game against the computer at `level` (1..8; checked by the
    /// service), unrated.
    Play {
        level: i64,
        color: ColorChoice,
        /// `None`: the server's default time control.
        time: Option<String>,
        /// lichess's variant key, as for `/challenge` (`None`: standard).
        variant: Option<String>,
        /// Chess960's start position, 0–959 (`None`: drawn at random).
        position: Option<i64>,
    },
    /// The engine's review of a finished game: by id, or this channel's
    /// latest; or of a game pasted as PGN (`pgn`, its text; nothing is
    /// stored). At most one of them.
    Analyze {
        game: Option<i64>,
        pgn: Option<String>,
    },
    /// Ask to take back your last move in a casual game, or answer the
    /// opponent's request.
    Takeback {
        action: TakebackAction,
    },
    /// A game (this channel's newest by default) as an animated GIF.
    Replay {
        game: Option<i64>,
    },
    /// Draw any position (`fen`) or replay any pasted game (`pgn`, the text
    /// of a PGN); exactly one of them. Nothing is stored.
    Show {
        fen: Option<String>,
        pgn: Option<String>,
    },
    /// The asker's own board orientation: White at the bottom (`true`), or
    /// the side of the player to move (`false`, the default).
    BoardOrientation {
        white: bool,
    },
    /// The asker's conditional moves in this channel's game.
    Conditional {
        action: ConditionalAction,
    },
    /// Club competitions (`/tournament …`).
    Tournament(TournamentCommand),
    /// Adjourning a live game (`/adjourn …`).
    Adjourn {
        action: AdjournAction,
    },
    /// Seal the move of an adjourned game (`move`: only the sealer sees the
    /// answer), or, without a move, see one's own sealed move.
    Seal {
        text: Option<String>,
    },
    /// A moderator sets a member's FIDE title (`GM`, `IM`, `FM`, `WGM`,
    /// `WIM`, or `none`).
    Title {
        user: UserRef,
        title: String,
    },
    Help,
    /// A button press, by its custom id.
    Button {
        id: String,
    },
}

impl Command {
    /// A challenge to `opponent` with the challenger as White, everything
    /// else as the server sets it (rated, its time control, the standard
    /// start).
    pub fn challenge_as_white(opponent: UserRef) -> Command {
        Command::Challenge {
            opponent: Some(opponent),
            color: ColorChoice::White,
            rated: None,
            time: None,
            fen: None,
            variant: None,
            position: None,
        }
    }
}

/// Which tournament a command is about: `#3`, `3` or a name; `None` means
/// the newest one still running (or open) created in this channel, else in
/// this server.
pub type TournamentRef = Option<String>;

/// The `/tournament` subcommands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    /// Create one (moderators).
    Create(TournamentOptions),
    Join {
        tournament: TournamentRef,
    },
    /// Take one's entry back before the start.
    Leave {
        tournament: TournamentRef,
    },
    /// Leave after the start: not paired again; pending games are lost by
    /// forfeit.
    Withdraw {
        tournament: TournamentRef,
    },
    /// Start (moderators).
    Start {
        tournament: TournamentRef,
    },
    /// The server's tournaments.
    List,
    Info {
        tournament: TournamentRef,
    },
    Pairings {
        tournament: TournamentRef,
        round: Option<i64>,
    },
    Standings {
        tournament: TournamentRef,
    },
    /// The TRF and a PGN of all games, as attachments.
    Export {
        tournament: TournamentRef,
    },
    /// Set (or, with `correct`, change) the result of a player's board in
    /// `round` (default: the current one); moderators.
    Result {
        tournament: TournamentRef,
        player: UserRef,
        /// `win`, `loss`, `draw`, `forfeit-win`, `forfeit-loss`,
        /// `double-forfeit` (for `player`), or `1-0`, `0-1`, `1/2-1/2`,
        /// `+-`, `-+`, `--` (from White's side).
        result: String,
        round: Option<i64>,
        correct: bool,
    },
    /// Stop pairing new rounds (moderators).
    Pause {
        tournament: TournamentRef,
    },
    Resume {
        tournament: TournamentRef,
    },
    /// End it without standings (moderators); asks for confirmation first.
    Cancel {
        tournament: TournamentRef,
        confirmed: bool,
    },
    /// Take a player out (moderators): before the start their entry goes,
    /// after it they are withdrawn.
    Remove {
        tournament: TournamentRef,
        player: UserRef,
    },
}

/// What `/challenge` is given besides whom and which colour; the service
/// checks every value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// `None`: rated, unless the game starts from a set-up position.
    pub rated: Option<bool>,
    pub time: Option<String>,
    pub fen: Option<String>,
    pub variant: Option<String>,
    pub position: Option<i64>,
}

/// What `/tournament create` is given; the service checks every value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentOptions {
    pub name: String,
    /// `swiss` (default), `roundrobin`, `double-roundrobin`, `groups`,
    /// `knockout`, `team`.
    pub format: Option<String>,
    /// Swiss rounds.
    pub rounds: Option<i64>,
    /// A time control (`3d` default, or live like `10+5`).
    pub time: Option<String>,
    pub rated: Option<bool>,
    /// Tie-breaks in order, comma separated (`sb,buchholz,…`).
    pub tiebreaks: Option<String>,
    /// Whether vacations pause tournament games (default yes).
    pub vacations: Option<bool>,
    pub max_players: Option<i64>,
    /// When to start by itself: a delay like `2h` or `3d`; none for a
    /// moderator's start.
    pub start: Option<String>,
    /// How long a player has for the first move before losing by forfeit
    /// (`1h` for live events by default, the time control's own for
    /// correspondence).
    pub first_move: Option<String>,
    /// Round robins: `all` (every game at the start) or `rounds`.
    pub schedule: Option<String>,
    /// Knockout: games per match (default 2).
    pub match_games: Option<i64>,
    /// Knockout: `pairs:N,sudden` (default `pairs:1,sudden`), or `none`.
    pub decider: Option<String>,
    /// Group round robin: the number of groups.
    pub groups: Option<i64>,
    /// Team events: `Red: @a @b @c @d; Blue: @e @f @g @h` (board order).
    pub teams: Option<String>,
    /// lichess's variant key (`None`: standard chess). In Chess960 every
    /// board of a round starts from one position drawn by lot.
    pub variant: Option<String>,
}
