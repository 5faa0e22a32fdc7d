//! Reading console lines: `alice: /challenge @bob color:white`, `bob: click
//! Accept`, and the `:channel`, `:advance`, `:restart` directives. Slash
//! command options are `name:value` as in Discord; the first option may be
//! given bare (`alice: /move e4`), and a value may be quoted.

use crate::{
    i18n::Msg,
    msg,
    service::{
        AdjournAction, ColorChoice, Command, ConditionalAction, DrawAction, Setting,
        TakebackAction, TournamentCommand, TournamentOptions, UserRef,
    },
};

/// The `/tournament` subcommands, as Discord shows them.
macro_rules! tournament_subcommands {
    () => {
        "create"
            | "join"
            | "leave"
            | "withdraw"
            | "start"
            | "list"
            | "info"
            | "pairings"
            | "standings"
            | "export"
            | "result"
            | "pause"
            | "resume"
            | "cancel"
            | "remove"
    };
}

/// One console line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A blank line or a `#` comment.
    Nothing,
    Slash {
        user: String,
        command: String,
        args: Vec<Arg>,
    },
    Click {
        user: String,
        label: String,
    },
    Channel(String),
    Advance(String),
    /// `:puzzles FILE`: add a puzzle file's puzzles to the console server's
    /// pool (as `chessbot puzzles import` does for analysed games).
    Puzzles(String),
    /// Restart, optionally after the bot was down for a while.
    Restart(Option<String>),
    /// `:locale alice zh-CN`: the client locale a user's commands carry
    /// (`:locale alice` clears it).
    Locale {
        user: String,
        locale: Option<String>,
    },
}

/// One option of a slash command: `name:value`, or a bare value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub name: Option<String>,
    pub value: String,
}

/// Reads a line, or says what is wrong with it (in words of the
/// catalogues: the console shows them in its reader's language).
pub fn parse_line(line: &str) -> Result<Line, Msg> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(Line::Nothing);
    }
    if let Some(rest) = line.strip_prefix(':') {
        let (word, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let arg = arg.trim();
        return match word {
            "channel" if !arg.is_empty() => {
                Ok(Line::Channel(arg.trim_start_matches('#').to_owned()))
            }
            "advance" if !arg.is_empty() => Ok(Line::Advance(arg.to_owned())),
            "puzzles" if !arg.is_empty() => Ok(Line::Puzzles(arg.to_owned())),
            "restart" => Ok(Line::Restart((!arg.is_empty()).then(|| arg.to_owned()))),
            "locale" if !arg.is_empty() => {
                let (user, locale) = arg
                    .trim()
                    .split_once(char::is_whitespace)
                    .unwrap_or((arg.trim(), ""));
                let locale = locale.trim();
                Ok(Line::Locale {
                    user: user.trim_start_matches('@').to_owned(),
                    locale: (!locale.is_empty()).then(|| locale.to_owned()),
                })
            }
            _ => Err(msg!("console-unknown-directive", word = word)),
        };
    }
    let Some((user, rest)) = line.split_once(':') else {
        return Err(msg!("console-line-form"));
    };
    let user = user.trim();
    if user.is_empty()
        || user.len() > 32
        || !user
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(msg!("console-bad-user-name"));
    }
    let rest = rest.trim();
    if let Some(label) = rest.strip_prefix("click ") {
        return Ok(Line::Click {
            user: user.to_owned(),
            label: label.trim().to_owned(),
        });
    }
    let Some(slash) = rest.strip_prefix('/') else {
        return Err(msg!("console-not-a-command"));
    };
    let tokens = split_tokens(slash)?;
    let Some((command, args)) = tokens.split_first() else {
        return Err(msg!("console-which-command"));
    };
    // Subcommands (`/settings log 2`, `/privacy show`) become one name.
    let (command, args) = match (command.as_str(), args.first().map(String::as_str)) {
        ("settings", Some("log"))
        | ("privacy", Some("show" | "forget"))
        | ("conditional", Some("add" | "list" | "clear"))
        | ("adjourn", Some("offer" | "accept" | "decline" | "now" | "resume"))
        | ("tournament", Some(tournament_subcommands!())) => {
            (format!("{command} {}", args[0]), &args[1..])
        }
        _ => (command.clone(), args),
    };
    let args = args
        .iter()
        .map(|t| match t.split_once(':') {
            Some((name, value)) if is_option_name(name) => Arg {
                name: Some(name.to_owned()),
                value: value.to_owned(),
            },
            _ => Arg {
                name: None,
                value: t.clone(),
            },
        })
        .collect();
    Ok(Line::Slash {
        user: user.to_owned(),
        command,
        args,
    })
}

fn is_option_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// Splits on whitespace, keeping `"quoted text"` (after `name:` too) whole.
/// A backslash takes the next `"` or `\` as it is, so that a pasted PGN's
/// tags can be quoted inside a value (`pgn:"[White \"Li Na\"] 1. e4 *"`).
fn split_tokens(text: &str) -> Result<Vec<String>, Msg> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some('"' | '\\')) => {
                current.extend(chars.next());
            }
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if quoted {
        return Err(msg!("console-open-quote"));
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    Ok(tokens)
}

/// The options each command takes, in the order bare values fill them.
fn options_of(command: &str) -> Option<&'static [&'static str]> {
    Some(match command {
        "challenge" => &[
            "opponent", "color", "rated", "time", "fen", "variant", "position",
        ],
        "accept" | "decline" | "cancel" => &["challenge"],
        "move" => &["move", "claim_draw"],
        "board" | "abort" | "games" | "help" => &[],
        "resign" => &["confirm"],
        "draw" => &["action"],
        "leaderboard" => &["page", "board", "variant"],
        "puzzle" => &["source"],
        "profile" | "history" => &["user"],
        "pgn" => &["game"],
        "analyze" => &["game", "pgn", "file"],
        "play" => &["level", "color", "time", "variant", "position"],
        "rating" | "rating-preview" => &["opponent"],
        "settings" => &[
            "time",
            "threads",
            "spectators",
            "web",
            "theme",
            "strict_illegal_moves",
            "challenge_hours",
            "rated_per_pair_daily",
            "vacation_days",
            "reminders",
            "notify",
            "log",
            "language",
            "notation",
            "session_hours",
            "time_zone",
            "puzzle_channel",
            "puzzle_time",
            "puzzles",
        ],
        "vacation" => &["days"],
        "adjourn offer" | "adjourn accept" | "adjourn decline" | "adjourn now" => &[],
        "adjourn resume" => &["when"],
        "seal" => &["move"],
        "title" => &["user", "title"],
        "settings log" => &["page"],
        "privacy" | "privacy show" | "privacy forget" => &[],
        "notify" => &["mode"],
        "takeback" => &["action"],
        "replay" => &["game"],
        "show" => &["fen", "pgn", "file"],
        "board-orientation" => &["side"],
        "conditional list" | "conditional clear" => &[],
        "conditional add" => &["line"],
        "tournament create" => &[
            "name",
            "format",
            "rounds",
            "time",
            "rated",
            "tiebreaks",
            "vacations",
            "max_players",
            "start",
            "first_move",
            "schedule",
            "match_games",
            "decider",
            "groups",
            "teams",
            "variant",
        ],
        "tournament list" => &[],
        "tournament join"
        | "tournament leave"
        | "tournament withdraw"
        | "tournament start"
        | "tournament info"
        | "tournament standings"
        | "tournament export"
        | "tournament pause"
        | "tournament resume" => &["tournament"],
        "tournament pairings" => &["round", "tournament"],
        "tournament cancel" => &["tournament", "confirm"],
        "tournament result" => &["player", "result", "round", "tournament", "correct"],
        "tournament remove" => &["player", "tournament"],
        _ => return None,
    })
}

/// Turns a slash command and its options into a service command.
pub fn to_command(command: &str, args: &[Arg]) -> Result<Command, Msg> {
    if command == "tournament" {
        return Err(msg!("console-tournament-subcommand"));
    }
    if command == "adjourn" {
        return Err(msg!("console-adjourn-subcommand"));
    }
    if command == "conditional" {
        // Discord shows the three subcommands; here a forgotten one is named.
        return Err(msg!("console-conditional-subcommand"));
    }
    let names =
        options_of(command).ok_or_else(|| msg!("console-unknown-command", command = command))?;
    // A line of moves is often typed without quotes: its words are the line.
    let joined;
    let args = if command == "conditional add"
        && args.len() > 1
        && args
            .iter()
            .all(|a| a.name.as_deref().is_none_or(|n| n == "line"))
    {
        let words: Vec<&str> = args.iter().map(|a| a.value.as_str()).collect();
        joined = [Arg {
            name: Some("line".to_owned()),
            value: words.join(" "),
        }];
        &joined[..]
    } else {
        args
    };
    // `/leaderboard puzzles`: the board named bare, as Discord users say it.
    let named_board;
    let args = if command == "leaderboard" {
        named_board = args
            .iter()
            .map(|a| match a.name {
                None if matches!(a.value.as_str(), "puzzles" | "games") => Arg {
                    name: Some("board".to_owned()),
                    value: a.value.clone(),
                },
                _ => a.clone(),
            })
            .collect::<Vec<_>>();
        &named_board[..]
    } else {
        args
    };
    let mut values: Vec<(&'static str, String)> = Vec::new();
    let mut next_bare = 0;
    for arg in args {
        let name = match &arg.name {
            Some(name) => *names
                .iter()
                .find(|n| **n == name.as_str())
                .ok_or_else(|| no_such_option(command, name, names))?,
            None => {
                let name = names
                    .get(next_bare)
                    .ok_or_else(|| too_many_values(command, names))?;
                next_bare += 1;
                name
            }
        };
        if values.iter().any(|(n, _)| *n == name) {
            return Err(msg!("console-option-twice", name = name));
        }
        values.push((name, arg.value.clone()));
    }
    let get = |name: &str| {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    };
    Ok(match command {
        "challenge" => Command::Challenge {
            opponent: get("opponent").map(|v| user_ref(&v)).transpose()?,
            color: match get("color") {
                Some(v) => ColorChoice::from_id(&v).ok_or_else(|| msg!("console-bad-color"))?,
                None => ColorChoice::Random,
            },
            rated: get("rated").map(|v| boolean("rated", &v)).transpose()?,
            time: get("time"),
            fen: get("fen"),
            variant: get("variant"),
            position: get("position")
                .map(|v| number("position", &v))
                .transpose()?,
        },
        "accept" => Command::Accept {
            challenge: get("challenge")
                .map(|v| number("challenge", v.trim_start_matches('#')))
                .transpose()?,
        },
        "decline" => Command::Decline {
            challenge: get("challenge")
                .map(|v| number("challenge", v.trim_start_matches('#')))
                .transpose()?,
        },
        "cancel" => Command::Cancel {
            challenge: get("challenge")
                .map(|v| number("challenge", v.trim_start_matches('#')))
                .transpose()?,
        },
        "move" => Command::Move {
            text: get("move").ok_or_else(|| msg!("console-move-needs-text"))?,
            claim_draw: get("claim_draw")
                .map(|v| boolean("claim_draw", &v))
                .transpose()?
                .unwrap_or(false),
        },
        "board" => Command::Board,
        "abort" => Command::Abort,
        "games" => Command::Games,
        "help" => Command::Help,
        "resign" => Command::Resign {
            confirmed: get("confirm")
                .map(|v| boolean("confirm", &v))
                .transpose()?
                .unwrap_or(false),
        },
        "draw" => Command::Draw {
            action: match get("action") {
                Some(v) => {
                    DrawAction::from_id(&v).ok_or_else(|| msg!("console-bad-draw-action"))?
                }
                None => DrawAction::Offer,
            },
        },
        "leaderboard" => {
            let page = get("page")
                .map(|v| number("page", &v))
                .transpose()?
                .unwrap_or(1);
            match get("board").as_deref() {
                None | Some("games") => Command::Leaderboard {
                    page,
                    variant: get("variant"),
                },
                Some("puzzles") => Command::PuzzleLeaderboard { page },
                Some(_) => return Err(msg!("console-bad-board")),
            }
        }
        "puzzle" => match get("source").as_deref().map(str::trim) {
            None | Some("near") => Command::Puzzle,
            Some("daily") => Command::DailyPuzzle,
            Some("mine") => Command::MistakePuzzle,
            Some(_) => return Err(msg!("console-bad-puzzle-source")),
        },
        "profile" => Command::Profile {
            user: get("user").map(|v| user_ref(&v)).transpose()?,
        },
        "history" => Command::History {
            user: get("user").map(|v| user_ref(&v)).transpose()?,
        },
        "pgn" => Command::Pgn {
            game: get("game")
                .map(|v| number("game", v.trim_start_matches('#')))
                .transpose()?,
        },
        // `file:` was read into `pgn:` by the console before parsing.
        "show" => Command::Show {
            fen: get("fen"),
            pgn: get("pgn"),
        },
        // `file:` was read into `pgn:` by the console before parsing.
        "analyze" => Command::Analyze {
            game: get("game")
                .map(|v| number("game", v.trim_start_matches('#')))
                .transpose()?,
            pgn: get("pgn"),
        },
        "play" => Command::Play {
            level: number(
                "level",
                &get("level").ok_or_else(|| msg!("console-play-needs-level"))?,
            )?,
            color: match get("color") {
                Some(v) => ColorChoice::from_id(&v).ok_or_else(|| msg!("console-bad-color"))?,
                None => ColorChoice::Random,
            },
            time: get("time"),
            variant: get("variant"),
            position: get("position")
                .map(|v| number("position", &v))
                .transpose()?,
        },
        "rating" | "rating-preview" => Command::RatingPreview {
            opponent: user_ref(
                &get("opponent").ok_or_else(|| msg!("console-rating-needs-opponent"))?,
            )?,
        },
        "settings log" => Command::SettingsLog {
            page: get("page")
                .map(|v| number("page", &v))
                .transpose()?
                .unwrap_or(1),
        },
        "privacy" => return Err(msg!("console-privacy-subcommand")),
        "conditional add" => Command::Conditional {
            action: ConditionalAction::Add {
                line: get("line").ok_or_else(|| msg!("console-conditional-needs-line"))?,
            },
        },
        "conditional list" => Command::Conditional {
            action: ConditionalAction::List,
        },
        "conditional clear" => Command::Conditional {
            action: ConditionalAction::Clear,
        },
        "adjourn offer" | "adjourn accept" | "adjourn decline" | "adjourn now" => {
            Command::Adjourn {
                action: AdjournAction::from_id(command.trim_start_matches("adjourn "))
                    .ok_or_else(|| msg!("console-adjourn-subcommand"))?,
            }
        }
        "adjourn resume" => Command::Adjourn {
            action: AdjournAction::Resume {
                when: get("when").ok_or_else(|| msg!("console-adjourn-needs-when"))?,
            },
        },
        "seal" => Command::Seal { text: get("move") },
        "title" => Command::Title {
            user: user_ref(&get("user").ok_or_else(|| msg!("console-title-needs-user"))?)?,
            title: get("title").ok_or_else(|| msg!("console-title-needs-title"))?,
        },
        "privacy show" => Command::PrivacyShow,
        "privacy forget" => Command::PrivacyForget { confirmed: false },
        "settings" => {
            let mut changes = Vec::new();
            for (name, value) in &values {
                changes.push(match *name {
                    "time" => Setting::DefaultTime(value.clone()),
                    "threads" => Setting::Threads(boolean(name, value)?),
                    "spectators" => Setting::Spectators(boolean(name, value)?),
                    "web" => Setting::WebPages(value.clone()),
                    "theme" => Setting::Theme(value.clone()),
                    "strict_illegal_moves" => Setting::StrictIllegalMoves(boolean(name, value)?),
                    "challenge_hours" => Setting::ChallengeHours(number(name, value)?),
                    "vacation_days" => Setting::VacationDaysPerYear(number(name, value)?),
                    "reminders" => Setting::ReminderHours(
                        value
                            .split(',')
                            .map(|h| number(name, h))
                            .collect::<Result<_, _>>()?,
                    ),
                    "log" => {
                        if values.len() > 1 {
                            return Err(msg!("console-settings-or-log"));
                        }
                        return Ok(Command::SettingsLog {
                            page: number(name, value)?,
                        });
                    }
                    "language" => Setting::Language(value.clone()),
                    "notation" => Setting::Notation(value.clone()),
                    "session_hours" => Setting::SessionHours(number(name, value)?),
                    "time_zone" => Setting::TimeZone(value.clone()),
                    // A channel by its console name (`#puzzles`); `off`:
                    // no daily puzzle.
                    "puzzle_channel" => {
                        Setting::PuzzleChannel(match value.trim().trim_start_matches('#') {
                            "off" | "none" => None,
                            name => Some(name.to_owned()),
                        })
                    }
                    "puzzle_time" => Setting::PuzzleTime(value.clone()),
                    "puzzles" => Setting::PuzzleMining(boolean(name, value)?),
                    "notify" => Setting::NotifyByDm(match value.trim() {
                        "dm" => true,
                        "channel" => false,
                        _ => return Err(msg!("console-bad-notify")),
                    }),
                    _ => Setting::RatedGamesPerPairDaily(number(name, value)?),
                });
            }
            Command::Settings { changes }
        }
        // The personal `/notify dm|channel`, as on Discord.
        "notify" => Command::Settings {
            changes: vec![Setting::NotifyByDm(
                match get("mode").as_deref().map(str::trim) {
                    Some("dm") => true,
                    Some("channel") => false,
                    _ => return Err(msg!("console-notify-needs-mode")),
                },
            )],
        },
        "vacation" => Command::Vacation {
            days: number(
                "days",
                &get("days").ok_or_else(|| msg!("console-vacation-needs-days"))?,
            )?,
        },
        "takeback" => Command::Takeback {
            action: match get("action") {
                Some(v) => TakebackAction::from_id(&v)
                    .ok_or_else(|| msg!("console-bad-takeback-action"))?,
                None => TakebackAction::Request,
            },
        },
        "replay" => Command::Replay {
            game: get("game")
                .map(|v| number("game", v.trim_start_matches('#')))
                .transpose()?,
        },
        "board-orientation" => Command::BoardOrientation {
            white: match get("side").as_deref().map(str::trim) {
                Some("white") => true,
                Some("auto") => false,
                _ => return Err(msg!("console-bad-orientation")),
            },
        },
        tournament if tournament.starts_with("tournament ") => {
            Command::Tournament(tournament_command(tournament, &get)?)
        }
        _ => return Err(msg!("console-unknown-command", command = command)),
    })
}

/// `/tournament <subcommand> …` with its options read by `get`.
fn tournament_command(
    command: &str,
    get: &dyn Fn(&str) -> Option<String>,
) -> Result<TournamentCommand, Msg> {
    let tournament = get("tournament");
    let flag = |name: &str| -> Result<bool, Msg> {
        Ok(get(name)
            .map(|v| boolean(name, &v))
            .transpose()?
            .unwrap_or(false))
    };
    let player = || -> Result<UserRef, Msg> {
        user_ref(&get("player").ok_or_else(|| msg!("console-tournament-needs-player"))?)
    };
    let count = |name: &str| get(name).map(|v| number(name, &v)).transpose();
    Ok(match command {
        "tournament create" => TournamentCommand::Create(TournamentOptions {
            name: get("name").ok_or_else(|| msg!("console-tournament-needs-name"))?,
            format: get("format"),
            rounds: count("rounds")?,
            time: get("time"),
            rated: get("rated").map(|v| boolean("rated", &v)).transpose()?,
            tiebreaks: get("tiebreaks"),
            vacations: get("vacations")
                .map(|v| boolean("vacations", &v))
                .transpose()?,
            max_players: count("max_players")?,
            start: get("start"),
            first_move: get("first_move"),
            schedule: get("schedule"),
            match_games: count("match_games")?,
            decider: get("decider"),
            groups: count("groups")?,
            teams: get("teams"),
            variant: get("variant"),
        }),
        "tournament join" => TournamentCommand::Join { tournament },
        "tournament leave" => TournamentCommand::Leave { tournament },
        "tournament withdraw" => TournamentCommand::Withdraw { tournament },
        "tournament start" => TournamentCommand::Start { tournament },
        "tournament list" => TournamentCommand::List,
        "tournament info" => TournamentCommand::Info { tournament },
        "tournament pairings" => TournamentCommand::Pairings {
            tournament,
            round: count("round")?,
        },
        "tournament standings" => TournamentCommand::Standings { tournament },
        "tournament export" => TournamentCommand::Export { tournament },
        "tournament pause" => TournamentCommand::Pause { tournament },
        "tournament resume" => TournamentCommand::Resume { tournament },
        "tournament cancel" => TournamentCommand::Cancel {
            tournament,
            confirmed: flag("confirm")?,
        },
        "tournament result" => TournamentCommand::Result {
            tournament,
            player: player()?,
            result: get("result").ok_or_else(|| msg!("console-tournament-needs-result"))?,
            round: count("round")?,
            correct: flag("correct")?,
        },
        "tournament remove" => TournamentCommand::Remove {
            tournament,
            player: player()?,
        },
        _ => return Err(msg!("console-unknown-command", command = command)),
    })
}

fn no_such_option(command: &str, name: &str, names: &[&str]) -> Msg {
    if names.is_empty() {
        msg!("console-no-options", command = command, name = name)
    } else {
        msg!(
            "console-no-such-option",
            command = command,
            name = name,
            options = names.join(", ")
        )
    }
}

fn too_many_values(command: &str, names: &[&str]) -> Msg {
    if names.is_empty() {
        msg!("console-takes-no-values", command = command)
    } else {
        msg!(
            "console-too-many-values",
            command = command,
            options = names.join(", ")
        )
    }
}

fn user_ref(value: &str) -> Result<UserRef, Msg> {
    let name = value.trim().trim_start_matches('@');
    if name.is_empty()
        || name.len() > 32
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(msg!("console-bad-user-ref"));
    }
    Ok(UserRef {
        id: name.to_owned(),
        name: name.to_owned(),
    })
}

fn boolean(name: &str, value: &str) -> Result<bool, Msg> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => Ok(true),
        "false" | "no" | "off" => Ok(false),
        _ => Err(msg!("console-not-boolean", name = name)),
    }
}

fn number(name: &str, value: &str) -> Result<i64, Msg> {
    let v = value.trim();
    if v.is_empty() || v.len() > 12 {
        return Err(msg!("console-not-number", name = name));
    }
    v.parse()
        .map_err(|_| msg!("console-not-number", name = name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backslash_quotes_a_quote_inside_a_value() {
        let line = r#"alice: /show pgn:"[White \"张伟\"] [Black \"Li Na\"] 1. e4 *" "#;
        let Ok(Line::Slash { command, args, .. }) = parse_line(line) else {
            panic!("{line}");
        };
        assert_eq!(
            to_command(&command, &args),
            Ok(Command::Show {
                fen: None,
                pgn: Some(r#"[White "张伟"] [Black "Li Na"] 1. e4 *"#.into()),
            })
        );
        // A backslash before anything else stays, and `\\` is one.
        assert_eq!(
            split_tokens(r#"a\b "c\\d" \\"#),
            Ok(vec![r"a\b".to_owned(), r"c\d".to_owned(), r"\".to_owned()])
        );
        assert_eq!(
            split_tokens(r#"pgn:"a \""#),
            Err(msg!("console-open-quote"))
        );
    }

    #[test]
    fn conditional_lines_with_or_without_quotes() {
        let expected = Ok(Command::Conditional {
            action: ConditionalAction::Add {
                line: "Nxd5 Qxd5 Nc3".into(),
            },
        });
        for line in [
            "alice: /conditional add line:\"Nxd5 Qxd5 Nc3\"",
            "alice: /conditional add Nxd5 Qxd5 Nc3",
            "alice: /conditional add line:Nxd5 Qxd5 Nc3",
        ] {
            let Ok(Line::Slash { command, args, .. }) = parse_line(line) else {
                panic!("{line}");
            };
            assert_eq!(to_command(&command, &args), expected, "{line}");
        }
        let Ok(Line::Slash { command, args, .. }) = parse_line("alice: /conditional list") else {
            panic!("list");
        };
        assert_eq!(
            to_command(&command, &args),
            Ok(Command::Conditional {
                action: ConditionalAction::List
            })
        );
        for bare in ["alice: /conditional", "alice: /conditional e5 Nf3"] {
            let Ok(Line::Slash { command, args, .. }) = parse_line(bare) else {
                panic!("{bare}");
            };
            let said = to_command(&command, &args)
                .unwrap_err()
                .text(crate::i18n::Lang::En);
            assert!(said.contains("takes `add`, `list` or `clear`"), "{said}");
        }
    }

    #[test]
    fn lines() {
        assert_eq!(parse_line("  # note"), Ok(Line::Nothing));
        assert_eq!(
            parse_line(":channel #games"),
            Ok(Line::Channel("games".into()))
        );
        assert_eq!(
            parse_line("bob: click Accept draw"),
            Ok(Line::Click {
                user: "bob".into(),
                label: "Accept draw".into()
            })
        );
        let Ok(Line::Slash {
            user,
            command,
            args,
        }) = parse_line("alice: /challenge @bob color:white time:\"10+5\"")
        else {
            panic!("not a slash line");
        };
        assert_eq!((user.as_str(), command.as_str()), ("alice", "challenge"));
        assert_eq!(
            to_command(&command, &args),
            Ok(Command::Challenge {
                opponent: Some(UserRef {
                    id: "bob".into(),
                    name: "bob".into()
                }),
                color: ColorChoice::White,
                rated: None,
                time: Some("10+5".into()),
                fen: None,
                variant: None,
                position: None,
            })
        );
    }

    #[test]
    fn bad_options_are_named() {
        let err = |line: &str| match parse_line(line) {
            Ok(Line::Slash { command, args, .. }) => to_command(&command, &args)
                .unwrap_err()
                .text(crate::i18n::Lang::En),
            other => panic!("{other:?}"),
        };
        assert!(err("a: /challenge @bob colour:white").contains("no option `colour`"));
        assert!(err("a: /challenge @bob color:purple").contains("white, black or random"));
        assert!(err("a: /move").contains("needs the move"));
        assert!(err("a: /frobnicate").contains("unknown command"));
        assert!(err("a: /leaderboard page:x").contains("whole number"));
        assert!(parse_line(":teleport").is_err());
        assert_eq!(
            parse_line(":locale alice zh-CN"),
            Ok(Line::Locale {
                user: "alice".into(),
                locale: Some("zh-CN".into())
            })
        );
        assert!(parse_line("no colon here").is_err());
    }

    #[test]
    fn errors_are_said_in_the_readers_language() {
        use crate::i18n::Lang;
        let Ok(Line::Slash { command, args, .. }) =
            parse_line("张伟: /challenge @李娜 colour:white")
        else {
            panic!("not a slash line");
        };
        let err = to_command(&command, &args).unwrap_err();
        assert_eq!(
            err.text(Lang::En),
            "`/challenge` has no option `colour`; its options: opponent, color, rated, time, fen, variant, position"
        );
        assert_eq!(
            err.text(Lang::ZhCn),
            "`/challenge` 没有选项 `colour`；它的选项有：opponent, color, rated, time, fen, variant, position"
        );
        let err = parse_line(":teleport").unwrap_err();
        assert!(err.text(Lang::ZhCn).starts_with("未知的指令 `:teleport`"));
        let Ok(Line::Slash { command, args, .. }) = parse_line("a: /board extra") else {
            panic!("not a slash line");
        };
        assert_eq!(
            to_command(&command, &args).unwrap_err().text(Lang::En),
            "`/board` takes no options"
        );
    }
}

#[cfg(test)]
mod same_options_as_discord {
    use super::options_of;

    /// Every slash command's path ("tournament create") and option names,
    /// as the Discord adapter registers them.
    fn discord_commands() -> Vec<(String, Vec<String>)> {
        fn walk<U, E>(
            prefix: &str,
            command: &poise::Command<U, E>,
            out: &mut Vec<(String, Vec<String>)>,
        ) {
            let path = match prefix {
                "" => command.name.to_string(),
                _ => format!("{prefix} {}", command.name),
            };
            if command.subcommands.is_empty() {
                let names = command
                    .parameters
                    .iter()
                    .map(|p| p.name.to_string())
                    .collect();
                out.push((path, names));
            } else {
                for sub in &command.subcommands {
                    walk(&path, sub, out);
                }
            }
        }
        let mut out = Vec::new();
        for command in crate::platform::discord::commands::all() {
            walk("", &command, &mut out);
        }
        out
    }

    /// What only one side has, and why.
    const ONLY_ON_DISCORD: &[&str] = &[
        // Launches the Activity inside Discord's client.
        "activity",
    ];
    /// Console options Discord answers with a button instead (`confirm`),
    /// and `/settings notify:`, the console's spelling of `/notify`.
    const ONLY_IN_THE_CONSOLE: &[(&str, &str)] = &[
        ("resign", "confirm"),
        ("tournament cancel", "confirm"),
        ("settings", "notify"),
    ];

    #[test]
    fn the_console_takes_the_options_discord_offers() {
        let mut differences = Vec::new();
        for (path, mut discord) in discord_commands() {
            let Some(console) = options_of(&path) else {
                if !ONLY_ON_DISCORD.contains(&path.as_str()) {
                    differences.push(format!("/{path}: not in the console"));
                }
                continue;
            };
            let mut console: Vec<String> = console
                .iter()
                .filter(|option| !ONLY_IN_THE_CONSOLE.contains(&(path.as_str(), **option)))
                .map(|s| s.to_string())
                .collect();
            discord.sort();
            console.sort();
            if discord != console {
                differences.push(format!("/{path}: Discord {discord:?}, console {console:?}"));
            }
        }
        assert!(differences.is_empty(), "{}", differences.join("\n"));
    }
}
