//! Chinese names and descriptions of every command, option and choice, so
//! a Discord client set to Chinese lists `/挑战`, `/走棋`, `/排行榜` and
//! describes them in Chinese. The words live in the catalogue
//! (`locales/zh-CN/discord.ftl`); this table says which word belongs to
//! which command, so every id stays a literal the catalogue tests can see.
//!
//! Discord sends back the command's base (English) name and option names
//! whatever the client shows, so nothing else changes.

use crate::{
    i18n::Lang,
    platform::discord::{Data, Error},
    t,
};

/// Discord's locale code for Simplified Chinese.
const ZH: &str = "zh-CN";

/// Adds the `zh-CN` localisations to `commands`.
pub fn apply(commands: &mut [poise::Command<Data, Error>]) {
    for command in commands {
        localize(command, "");
    }
}

/// Localises one command and its subcommands, which are looked up by their
/// path (`conditional add`).
fn localize(command: &mut poise::Command<Data, Error>, parent: &str) {
    let path = match parent {
        "" => command.name.to_string(),
        parent => format!("{parent} {}", command.name),
    };
    {
        if let Some((name, description)) = command_words(&path) {
            command
                .name_localizations
                .to_mut()
                .push((ZH.into(), name.into()));
            command
                .description_localizations
                .to_mut()
                .push((ZH.into(), description.into()));
        }
        for parameter in &mut command.parameters {
            if let Some((name, description)) = option_words(&path, &parameter.name) {
                parameter
                    .name_localizations
                    .to_mut()
                    .push((ZH.into(), name.into()));
                parameter
                    .description_localizations
                    .to_mut()
                    .push((ZH.into(), description.into()));
            }
            for choice in parameter.choices.to_mut() {
                if let Some(label) = choice_words(&path, &parameter.name, &choice.name) {
                    choice
                        .localizations
                        .to_mut()
                        .push((ZH.into(), label.into()));
                }
            }
        }
    }
    for sub in &mut command.subcommands {
        localize(sub, &path);
    }
}

/// A command's Chinese name and description.
fn command_words(command: &str) -> Option<(String, String)> {
    let zh = Lang::ZhCn;
    Some(match command {
        "challenge" => (t!(zh, "cmd-challenge"), t!(zh, "cmd-challenge-desc")),
        "accept" => (t!(zh, "cmd-accept"), t!(zh, "cmd-accept-desc")),
        "decline" => (t!(zh, "cmd-decline"), t!(zh, "cmd-decline-desc")),
        "cancel" => (t!(zh, "cmd-cancel"), t!(zh, "cmd-cancel-desc")),
        "move" => (t!(zh, "cmd-move"), t!(zh, "cmd-move-desc")),
        "board" => (t!(zh, "cmd-board"), t!(zh, "cmd-board-desc")),
        "activity" => (t!(zh, "cmd-activity"), t!(zh, "cmd-activity-desc")),
        "resign" => (t!(zh, "cmd-resign"), t!(zh, "cmd-resign-desc")),
        "draw" => (t!(zh, "cmd-draw"), t!(zh, "cmd-draw-desc")),
        "abort" => (t!(zh, "cmd-abort"), t!(zh, "cmd-abort-desc")),
        "games" => (t!(zh, "cmd-games"), t!(zh, "cmd-games-desc")),
        "leaderboard" => (t!(zh, "cmd-leaderboard"), t!(zh, "cmd-leaderboard-desc")),
        "profile" => (t!(zh, "cmd-profile"), t!(zh, "cmd-profile-desc")),
        "puzzle" => (t!(zh, "cmd-puzzle"), t!(zh, "cmd-puzzle-desc")),
        "history" => (t!(zh, "cmd-history"), t!(zh, "cmd-history-desc")),
        "pgn" => (t!(zh, "cmd-pgn"), t!(zh, "cmd-pgn-desc")),
        "rating" => (t!(zh, "cmd-rating"), t!(zh, "cmd-rating-desc")),
        "settings" => (t!(zh, "cmd-settings"), t!(zh, "cmd-settings-desc")),
        "notify" => (t!(zh, "cmd-notify"), t!(zh, "cmd-notify-desc")),
        "vacation" => (t!(zh, "cmd-vacation"), t!(zh, "cmd-vacation-desc")),
        "help" => (t!(zh, "cmd-help"), t!(zh, "cmd-help-desc")),
        "play" => (t!(zh, "cmd-play"), t!(zh, "cmd-play-desc")),
        "analyze" => (t!(zh, "cmd-analyze"), t!(zh, "cmd-analyze-desc")),
        "replay" => (t!(zh, "cmd-replay"), t!(zh, "cmd-replay-desc")),
        "show" => (t!(zh, "cmd-show"), t!(zh, "cmd-show-desc")),
        "takeback" => (t!(zh, "cmd-takeback"), t!(zh, "cmd-takeback-desc")),
        "board-orientation" => (
            t!(zh, "cmd-board-orientation"),
            t!(zh, "cmd-board-orientation-desc"),
        ),
        "privacy" => (t!(zh, "cmd-privacy"), t!(zh, "cmd-privacy-desc")),
        "conditional" => (t!(zh, "cmd-conditional"), t!(zh, "cmd-conditional-desc")),
        "conditional add" => (
            t!(zh, "cmd-conditional-add"),
            t!(zh, "cmd-conditional-add-desc"),
        ),
        "conditional list" => (
            t!(zh, "cmd-conditional-list"),
            t!(zh, "cmd-conditional-list-desc"),
        ),
        "conditional clear" => (
            t!(zh, "cmd-conditional-clear"),
            t!(zh, "cmd-conditional-clear-desc"),
        ),
        "adjourn" => (t!(zh, "cmd-adjourn"), t!(zh, "cmd-adjourn-desc")),
        "adjourn offer" => (
            t!(zh, "cmd-adjourn-offer"),
            t!(zh, "cmd-adjourn-offer-desc"),
        ),
        "adjourn accept" => (
            t!(zh, "cmd-adjourn-accept"),
            t!(zh, "cmd-adjourn-accept-desc"),
        ),
        "adjourn decline" => (
            t!(zh, "cmd-adjourn-decline"),
            t!(zh, "cmd-adjourn-decline-desc"),
        ),
        "adjourn now" => (t!(zh, "cmd-adjourn-now"), t!(zh, "cmd-adjourn-now-desc")),
        "adjourn resume" => (
            t!(zh, "cmd-adjourn-resume"),
            t!(zh, "cmd-adjourn-resume-desc"),
        ),
        "seal" => (t!(zh, "cmd-seal"), t!(zh, "cmd-seal-desc")),
        "title" => (t!(zh, "cmd-title"), t!(zh, "cmd-title-desc")),
        "tournament" => (t!(zh, "cmd-tournament"), t!(zh, "cmd-tournament-desc")),
        "tournament create" => (
            t!(zh, "cmd-tournament-create"),
            t!(zh, "cmd-tournament-create-desc"),
        ),
        "tournament join" => (
            t!(zh, "cmd-tournament-join"),
            t!(zh, "cmd-tournament-join-desc"),
        ),
        "tournament leave" => (
            t!(zh, "cmd-tournament-leave"),
            t!(zh, "cmd-tournament-leave-desc"),
        ),
        "tournament withdraw" => (
            t!(zh, "cmd-tournament-withdraw"),
            t!(zh, "cmd-tournament-withdraw-desc"),
        ),
        "tournament start" => (
            t!(zh, "cmd-tournament-start"),
            t!(zh, "cmd-tournament-start-desc"),
        ),
        "tournament list" => (
            t!(zh, "cmd-tournament-list"),
            t!(zh, "cmd-tournament-list-desc"),
        ),
        "tournament info" => (
            t!(zh, "cmd-tournament-info"),
            t!(zh, "cmd-tournament-info-desc"),
        ),
        "tournament pairings" => (
            t!(zh, "cmd-tournament-pairings"),
            t!(zh, "cmd-tournament-pairings-desc"),
        ),
        "tournament standings" => (
            t!(zh, "cmd-tournament-standings"),
            t!(zh, "cmd-tournament-standings-desc"),
        ),
        "tournament export" => (
            t!(zh, "cmd-tournament-export"),
            t!(zh, "cmd-tournament-export-desc"),
        ),
        "tournament result" => (
            t!(zh, "cmd-tournament-result"),
            t!(zh, "cmd-tournament-result-desc"),
        ),
        "tournament pause" => (
            t!(zh, "cmd-tournament-pause"),
            t!(zh, "cmd-tournament-pause-desc"),
        ),
        "tournament resume" => (
            t!(zh, "cmd-tournament-resume"),
            t!(zh, "cmd-tournament-resume-desc"),
        ),
        "tournament cancel" => (
            t!(zh, "cmd-tournament-cancel"),
            t!(zh, "cmd-tournament-cancel-desc"),
        ),
        "tournament remove" => (
            t!(zh, "cmd-tournament-remove"),
            t!(zh, "cmd-tournament-remove-desc"),
        ),
        _ => return None,
    })
}

/// An option's Chinese name and description (by command, as the same name
/// can mean different things).
fn option_words(command: &str, option: &str) -> Option<(String, String)> {
    let zh = Lang::ZhCn;
    Some(match (command, option) {
        ("challenge", "opponent") => (
            t!(zh, "opt-opponent"),
            t!(zh, "opt-challenge-opponent-desc"),
        ),
        ("challenge", "color") => (t!(zh, "opt-color"), t!(zh, "opt-color-desc")),
        ("challenge", "rated") => (t!(zh, "opt-rated"), t!(zh, "opt-rated-desc")),
        ("challenge", "time") => (t!(zh, "opt-time"), t!(zh, "opt-challenge-time-desc")),
        ("challenge", "fen") => (t!(zh, "opt-fen"), t!(zh, "opt-fen-desc")),
        ("challenge" | "play", "variant") => (t!(zh, "opt-variant"), t!(zh, "opt-variant-desc")),
        ("challenge" | "play", "position") => (t!(zh, "opt-position"), t!(zh, "opt-position-desc")),
        ("move", "move") => (t!(zh, "opt-move"), t!(zh, "opt-move-desc")),
        ("move", "claim_draw") => (t!(zh, "opt-claim-draw"), t!(zh, "opt-claim-draw-desc")),
        ("draw", "action") => (t!(zh, "opt-action"), t!(zh, "opt-action-desc")),
        ("leaderboard", "page") => (t!(zh, "opt-page"), t!(zh, "opt-page-desc")),
        ("leaderboard", "variant") => (t!(zh, "opt-variant"), t!(zh, "opt-ladder-variant-desc")),
        ("leaderboard", "board") => (t!(zh, "opt-board"), t!(zh, "opt-board-desc")),
        ("profile", "user") => (t!(zh, "opt-user"), t!(zh, "opt-profile-user-desc")),
        ("history", "user") => (t!(zh, "opt-user"), t!(zh, "opt-history-user-desc")),
        ("pgn", "game") => (t!(zh, "opt-game"), t!(zh, "opt-game-desc")),
        ("rating", "opponent") => (t!(zh, "opt-opponent"), t!(zh, "opt-rating-opponent-desc")),
        ("settings", "time") => (t!(zh, "opt-time"), t!(zh, "opt-settings-time-desc")),
        ("settings", "threads") => (t!(zh, "opt-threads"), t!(zh, "opt-threads-desc")),
        ("settings", "spectators") => (t!(zh, "opt-spectators"), t!(zh, "opt-spectators-desc")),
        ("settings", "web") => (t!(zh, "opt-web"), t!(zh, "opt-web-desc")),
        ("settings", "theme") => (t!(zh, "opt-theme"), t!(zh, "opt-theme-desc")),
        ("settings", "strict_illegal_moves") => (t!(zh, "opt-strict"), t!(zh, "opt-strict-desc")),
        ("settings", "challenge_hours") => (
            t!(zh, "opt-challenge-hours"),
            t!(zh, "opt-challenge-hours-desc"),
        ),
        ("settings", "rated_per_pair_daily") => {
            (t!(zh, "opt-per-pair"), t!(zh, "opt-per-pair-desc"))
        }
        ("settings", "vacation_days") => (
            t!(zh, "opt-vacation-days"),
            t!(zh, "opt-vacation-days-desc"),
        ),
        ("settings", "reminders") => (t!(zh, "opt-reminders"), t!(zh, "opt-reminders-desc")),
        ("settings", "language") => (t!(zh, "opt-language"), t!(zh, "opt-language-desc")),
        ("settings", "notation") => (t!(zh, "opt-notation"), t!(zh, "opt-notation-desc")),
        ("notify", "mode") => (t!(zh, "opt-mode"), t!(zh, "opt-mode-desc")),
        ("vacation", "days") => (t!(zh, "opt-days"), t!(zh, "opt-days-desc")),
        ("play", "level") => (t!(zh, "opt-level"), t!(zh, "opt-level-desc")),
        ("play", "color") => (t!(zh, "opt-color"), t!(zh, "opt-play-color-desc")),
        ("play", "time") => (t!(zh, "opt-time"), t!(zh, "opt-challenge-time-desc")),
        ("show", "fen") => (t!(zh, "opt-fen"), t!(zh, "opt-show-fen-desc")),
        ("show", "pgn") => (t!(zh, "opt-pgn"), t!(zh, "opt-show-pgn-desc")),
        ("show", "file") => (t!(zh, "opt-file"), t!(zh, "opt-show-file-desc")),
        ("analyze", "pgn") => (t!(zh, "opt-pgn"), t!(zh, "opt-analyze-pgn-desc")),
        ("analyze", "file") => (t!(zh, "opt-file"), t!(zh, "opt-analyze-file-desc")),
        ("analyze" | "replay", "game") => (t!(zh, "opt-game"), t!(zh, "opt-game-desc")),
        ("accept" | "decline" | "cancel", "challenge") => {
            (t!(zh, "opt-challenge"), t!(zh, "opt-challenge-desc"))
        }
        ("takeback", "action") => (t!(zh, "opt-action"), t!(zh, "opt-takeback-action-desc")),
        ("board-orientation", "side") => (t!(zh, "opt-side"), t!(zh, "opt-side-desc")),
        ("settings", "log") => (t!(zh, "opt-log"), t!(zh, "opt-log-desc")),
        ("conditional add", "line") => (t!(zh, "opt-line"), t!(zh, "opt-line-desc")),
        ("adjourn resume", "when") => (t!(zh, "opt-when"), t!(zh, "opt-when-desc")),
        ("seal", "move") => (t!(zh, "opt-move"), t!(zh, "opt-seal-move-desc")),
        ("title", "user") => (t!(zh, "opt-user"), t!(zh, "opt-title-user-desc")),
        ("title", "title") => (t!(zh, "opt-title"), t!(zh, "opt-title-desc")),
        ("settings", "session_hours") => (
            t!(zh, "opt-session-hours"),
            t!(zh, "opt-session-hours-desc"),
        ),
        ("settings", "time_zone") => (t!(zh, "opt-time-zone"), t!(zh, "opt-time-zone-desc")),
        ("settings", "puzzle_channel") => (
            t!(zh, "opt-puzzle-channel"),
            t!(zh, "opt-puzzle-channel-desc"),
        ),
        ("settings", "puzzle_time") => (t!(zh, "opt-puzzle-time"), t!(zh, "opt-puzzle-time-desc")),
        ("settings", "puzzles") => (t!(zh, "opt-puzzles"), t!(zh, "opt-puzzles-desc")),
        ("puzzle", "source") => (t!(zh, "opt-source"), t!(zh, "opt-source-desc")),
        (tc, "tournament") if tc.starts_with("tournament ") => {
            (t!(zh, "opt-tournament"), t!(zh, "opt-tournament-desc"))
        }
        ("tournament create", "name") => (t!(zh, "opt-name"), t!(zh, "opt-tournament-name-desc")),
        ("tournament create", "format") => (t!(zh, "opt-format"), t!(zh, "opt-format-desc")),
        ("tournament create", "rounds") => (t!(zh, "opt-rounds"), t!(zh, "opt-rounds-desc")),
        ("tournament create", "time") => (t!(zh, "opt-time"), t!(zh, "opt-tournament-time-desc")),
        ("tournament create", "rated") => {
            (t!(zh, "opt-rated"), t!(zh, "opt-tournament-rated-desc"))
        }
        ("tournament create", "tiebreaks") => {
            (t!(zh, "opt-tiebreaks"), t!(zh, "opt-tiebreaks-desc"))
        }
        ("tournament create", "vacations") => {
            (t!(zh, "opt-vacations"), t!(zh, "opt-vacations-desc"))
        }
        ("tournament create", "max_players") => {
            (t!(zh, "opt-max-players"), t!(zh, "opt-max-players-desc"))
        }
        ("tournament create", "start") => (t!(zh, "opt-start"), t!(zh, "opt-start-desc")),
        ("tournament create", "first_move") => {
            (t!(zh, "opt-first-move"), t!(zh, "opt-first-move-desc"))
        }
        ("tournament create", "schedule") => (t!(zh, "opt-schedule"), t!(zh, "opt-schedule-desc")),
        ("tournament create", "match_games") => {
            (t!(zh, "opt-match-games"), t!(zh, "opt-match-games-desc"))
        }
        ("tournament create", "decider") => (t!(zh, "opt-decider"), t!(zh, "opt-decider-desc")),
        ("tournament create", "groups") => (t!(zh, "opt-groups"), t!(zh, "opt-groups-desc")),
        ("tournament create", "teams") => (t!(zh, "opt-teams"), t!(zh, "opt-teams-desc")),
        ("tournament create", "variant") => {
            (t!(zh, "opt-variant"), t!(zh, "opt-tournament-variant-desc"))
        }
        ("tournament pairings" | "tournament result", "round") => {
            (t!(zh, "opt-round"), t!(zh, "opt-round-desc"))
        }
        ("tournament result" | "tournament remove", "player") => {
            (t!(zh, "opt-player"), t!(zh, "opt-player-desc"))
        }
        ("tournament result", "result") => (t!(zh, "opt-result"), t!(zh, "opt-result-desc")),
        ("tournament result", "correct") => (t!(zh, "opt-correct"), t!(zh, "opt-correct-desc")),
        _ => return None,
    })
}

/// A choice's Chinese label (by command: `accept` is a draw's in `/draw`,
/// a takeback's in `/takeback`).
fn choice_words(command: &str, option: &str, choice: &str) -> Option<String> {
    let zh = Lang::ZhCn;
    if command == "takeback" {
        return Some(match choice {
            "request" => t!(zh, "choice-takeback-request"),
            "accept" => t!(zh, "choice-takeback-accept"),
            "decline" => t!(zh, "choice-takeback-decline"),
            _ => return None,
        });
    }
    Some(match (option, choice) {
        ("board", "games") => t!(zh, "choice-board-games"),
        ("board", "puzzles") => t!(zh, "choice-board-puzzles"),
        ("source", "near") => t!(zh, "choice-source-near"),
        ("source", "daily") => t!(zh, "choice-source-daily"),
        ("source", "mine") => t!(zh, "choice-source-mine"),
        ("color", "White") => t!(zh, "color-white"),
        ("color", "Black") => t!(zh, "color-black"),
        ("color", "Random") => t!(zh, "choice-random"),
        ("variant", "standard") => t!(zh, "variant-standard"),
        ("variant", "chess960") => t!(zh, "variant-chess960"),
        ("variant", "crazyhouse") => t!(zh, "variant-crazyhouse"),
        ("variant", "atomic") => t!(zh, "variant-atomic"),
        ("variant", "antichess") => t!(zh, "variant-antichess"),
        ("variant", "kingofthehill") => t!(zh, "variant-kingofthehill"),
        ("variant", "threecheck") => t!(zh, "variant-threecheck"),
        ("variant", "horde") => t!(zh, "variant-horde"),
        ("variant", "racingkings") => t!(zh, "variant-racingkings"),
        ("action", "offer") => t!(zh, "button-draw-offer"),
        ("action", "accept") => t!(zh, "button-draw-accept"),
        ("action", "decline") => t!(zh, "button-draw-decline"),
        ("action", "claim") => t!(zh, "button-draw-claim"),
        ("side", "auto") => t!(zh, "choice-auto"),
        ("format", "swiss") => t!(zh, "tournament-format-swiss"),
        ("format", "roundrobin") => t!(zh, "tournament-format-roundrobin"),
        ("format", "double-roundrobin") => t!(zh, "tournament-format-double-roundrobin"),
        ("format", "groups") => t!(zh, "tournament-format-groups"),
        ("format", "knockout") => t!(zh, "tournament-format-knockout"),
        ("format", "team") => t!(zh, "tournament-format-team"),
        ("schedule", "all") => t!(zh, "tournament-schedule-all"),
        ("schedule", "rounds") => t!(zh, "tournament-schedule-rounds"),
        ("side", "white") => t!(zh, "choice-side-white"),
        ("theme", "brown") => t!(zh, "choice-theme-brown"),
        ("theme", "blue") => t!(zh, "choice-theme-blue"),
        ("theme", "green") => t!(zh, "choice-theme-green"),
        ("mode", "dm") => t!(zh, "choice-notify-dm"),
        ("mode", "channel") => t!(zh, "choice-notify-channel"),
        ("language" | "notation", "auto") => t!(zh, "choice-auto"),
        ("language", "en") => t!(zh, "settings-language-en"),
        ("language", "zh-CN") => t!(zh, "settings-language-zh"),
        ("notation", "letters") => t!(zh, "settings-notation-letters"),
        ("notation", "chinese") => t!(zh, "settings-notation-chinese"),
        ("title", "none") => t!(zh, "choice-title-none"),
        ("title", "GM") => t!(zh, "title-gm"),
        ("title", "IM") => t!(zh, "title-im"),
        ("title", "FM") => t!(zh, "title-fm"),
        ("title", "WGM") => t!(zh, "title-wgm"),
        ("title", "WIM") => t!(zh, "title-wim"),
        ("web", "off") => t!(zh, "web-pages-value-off"),
        ("web", "link") => t!(zh, "web-pages-value-link"),
        ("web", "public") => t!(zh, "web-pages-value-public"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    /// Discord's rules for names: 1–32 characters, lower case where the
    /// script has case, letters, digits, `-` and `_` only.
    fn valid_name(name: &str) -> bool {
        let n = name.chars().count();
        (1..=32).contains(&n)
            && name
                .chars()
                .all(|c| (c.is_alphanumeric() || c == '-' || c == '_') && !c.is_uppercase())
    }

    #[test]
    fn conditional_subcommands_have_valid_chinese_words() {
        let commands = super::super::all();
        let conditional = commands
            .iter()
            .find(|c| c.name == "conditional")
            .expect("/conditional");
        let zh = |v: &[(Cow<'static, str>, Cow<'static, str>)]| {
            v.iter().find(|(l, _)| l == ZH).map(|(_, w)| w.to_string())
        };
        assert_eq!(conditional.subcommands.len(), 3);
        for sub in &conditional.subcommands {
            let name = zh(&sub.name_localizations).expect("a Chinese name");
            assert!(valid_name(&name), "{name}");
            assert!(zh(&sub.description_localizations).is_some());
            for p in &sub.parameters {
                let name = zh(&p.name_localizations).expect("a Chinese option name");
                assert!(valid_name(&name), "{name}");
                let description = zh(&p.description_localizations).expect("description");
                assert!((1..=100).contains(&description.chars().count()));
            }
        }
    }

    #[test]
    fn every_command_option_and_choice_has_valid_chinese_words() {
        let commands = super::super::all();
        for command in &commands {
            let zh = |v: &Cow<'static, [(Cow<'static, str>, Cow<'static, str>)]>| {
                v.iter().find(|(l, _)| l == ZH).map(|(_, w)| w.to_string())
            };
            let name = zh(&command.name_localizations)
                .unwrap_or_else(|| panic!("/{} has no Chinese name", command.name));
            assert!(valid_name(&name), "/{}: {name}", command.name);
            let description = zh(&command.description_localizations).expect("description");
            assert!(
                (1..=100).contains(&description.chars().count()),
                "{description}"
            );
            for p in &command.parameters {
                let name = zh(&p.name_localizations)
                    .unwrap_or_else(|| panic!("/{} {} has no Chinese name", command.name, p.name));
                assert!(valid_name(&name), "/{} {}: {name}", command.name, p.name);
                let description = zh(&p.description_localizations).expect("description");
                assert!(
                    (1..=100).contains(&description.chars().count()),
                    "{description}"
                );
                for c in p.choices.iter() {
                    let label = zh(&c.localizations).unwrap_or_else(|| {
                        panic!("/{} {} {}: no label", command.name, p.name, c.name)
                    });
                    assert!((1..=100).contains(&label.chars().count()));
                }
            }
        }
    }
}
