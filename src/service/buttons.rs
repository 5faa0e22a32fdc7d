//! Button ids: stable, self-describing strings (`game:42:resign:7`,
//! `challenge:9:accept`), so a button keeps working after a restart and a
//! press on a board that has moved on is recognised by its ply count.

/// What a button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ButtonAction {
    Challenge {
        id: i64,
        action: ChallengeButton,
    },
    Game {
        id: i64,
        action: GameButton,
        /// The board the button was shown on, as the number of plies played
        /// then: a move makes the button stale, a declined draw or extra
        /// time (which post no new board) do not.
        version: i64,
    },
    /// Confirms `/privacy forget` (for whoever presses it: the button is
    /// shown only to the asker, and erases only the presser's data).
    PrivacyForget,
    /// A hint for the presser's open attempt at puzzle `id`.
    PuzzleHint {
        id: i64,
    },
    /// Starts the presser's private attempt at day `day`'s daily puzzle
    /// (under the day's post).
    DailySolve {
        day: i64,
    },
    /// Joins tournament `id` (under its announcement).
    TournamentJoin {
        id: i64,
    },
    /// Confirms `/tournament cancel` (shown only to the moderator who
    /// asked; checked again on the press).
    TournamentCancel {
        id: i64,
    },
}

/// The custom id of [`ButtonAction::PrivacyForget`].
pub const PRIVACY_FORGET_ID: &str = "privacy:forget";
/// The board message's "Open in Discord" button: the Discord adapter
/// answers it by launching the Activity (it reaches no service command).
pub const ACTIVITY_LAUNCH_ID: &str = "activity:launch";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeButton {
    Accept,
    Decline,
    Cancel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameButton {
    /// Asks for confirmation.
    Resign,
    ResignConfirm,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    DrawClaim,
    /// Add a day to the opponent's correspondence deadline.
    GiveTime,
    /// Ask to take back one's last move (casual games).
    Takeback,
    TakebackAccept,
    TakebackDecline,
    /// Offer (first click) or accept (the opponent's click) a rematch of a
    /// finished game.
    Rematch,
    /// The presser's own link to the game's live board (web board on).
    Browser,
    /// Answer the opponent's offer to adjourn.
    AdjournAccept,
    AdjournDecline,
    /// Seal the move of an adjourned game (Discord asks for it in a form;
    /// elsewhere the presser hears how to seal).
    Seal,
}

const CHALLENGE_ACTIONS: [(ChallengeButton, &str); 3] = [
    (ChallengeButton::Accept, "accept"),
    (ChallengeButton::Decline, "decline"),
    (ChallengeButton::Cancel, "cancel"),
];

const GAME_ACTIONS: [(GameButton, &str); 15] = [
    (GameButton::Resign, "resign"),
    (GameButton::ResignConfirm, "resign-confirm"),
    (GameButton::DrawOffer, "draw-offer"),
    (GameButton::DrawAccept, "draw-accept"),
    (GameButton::DrawDecline, "draw-decline"),
    (GameButton::DrawClaim, "draw-claim"),
    (GameButton::GiveTime, "give-time"),
    (GameButton::Takeback, "takeback"),
    (GameButton::TakebackAccept, "takeback-accept"),
    (GameButton::TakebackDecline, "takeback-decline"),
    (GameButton::Rematch, "rematch"),
    (GameButton::Browser, "browser"),
    (GameButton::AdjournAccept, "adjourn-accept"),
    (GameButton::AdjournDecline, "adjourn-decline"),
    (GameButton::Seal, "seal"),
];

impl GameButton {
    /// The action named `name` in a button id (`draw-offer`).
    pub fn from_id(name: &str) -> Option<GameButton> {
        GAME_ACTIONS
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(a, _)| *a)
    }
}

impl ButtonAction {
    /// The button's custom id.
    pub fn id(self) -> String {
        match self {
            ButtonAction::Challenge { id, action } => {
                let name = CHALLENGE_ACTIONS
                    .iter()
                    .find(|(a, _)| *a == action)
                    .map_or("?", |(_, n)| n);
                format!("challenge:{id}:{name}")
            }
            ButtonAction::Game {
                id,
                action,
                version,
            } => {
                let name = GAME_ACTIONS
                    .iter()
                    .find(|(a, _)| *a == action)
                    .map_or("?", |(_, n)| n);
                format!("game:{id}:{name}:{version}")
            }
            ButtonAction::PrivacyForget => PRIVACY_FORGET_ID.to_owned(),
            ButtonAction::PuzzleHint { id } => format!("puzzle:{id}:hint"),
            ButtonAction::DailySolve { day } => format!("puzzle:daily:{day}"),
            ButtonAction::TournamentJoin { id } => format!("tournament:{id}:join"),
            ButtonAction::TournamentCancel { id } => format!("tournament:{id}:cancel"),
        }
    }

    /// Reads a custom id; anything malformed is `None`.
    pub fn parse(text: &str) -> Option<ButtonAction> {
        if text.len() > 100 {
            return None;
        }
        let parts: Vec<&str> = text.split(':').collect();
        match parts.as_slice() {
            ["challenge", id, name] => Some(ButtonAction::Challenge {
                id: parse_id(id)?,
                action: CHALLENGE_ACTIONS.iter().find(|(_, n)| n == name)?.0,
            }),
            ["game", id, name, version] => Some(ButtonAction::Game {
                id: parse_id(id)?,
                action: GAME_ACTIONS.iter().find(|(_, n)| n == name)?.0,
                version: parse_id(version)?,
            }),
            ["privacy", "forget"] => Some(ButtonAction::PrivacyForget),
            ["puzzle", id, "hint"] => Some(ButtonAction::PuzzleHint { id: parse_id(id)? }),
            ["puzzle", "daily", day] => Some(ButtonAction::DailySolve {
                day: parse_id(day)?,
            }),
            ["tournament", id, "join"] => Some(ButtonAction::TournamentJoin { id: parse_id(id)? }),
            ["tournament", id, "cancel"] => {
                Some(ButtonAction::TournamentCancel { id: parse_id(id)? })
            }
            _ => None,
        }
    }
}

fn parse_id(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for action in [
            ButtonAction::Challenge {
                id: 9,
                action: ChallengeButton::Accept,
            },
            ButtonAction::Game {
                id: 42,
                action: GameButton::ResignConfirm,
                version: 7,
            },
            ButtonAction::PuzzleHint { id: 12 },
            ButtonAction::DailySolve { day: 20_455 },
            ButtonAction::Game {
                id: 1,
                action: GameButton::DrawClaim,
                version: 0,
            },
            ButtonAction::Game {
                id: 3,
                action: GameButton::TakebackAccept,
                version: 12,
            },
            ButtonAction::Game {
                id: 5,
                action: GameButton::Rematch,
                version: 40,
            },
            ButtonAction::PrivacyForget,
        ] {
            assert_eq!(ButtonAction::parse(&action.id()), Some(action));
        }
        assert_eq!(
            ButtonAction::Game {
                id: 42,
                action: GameButton::Resign,
                version: 7
            }
            .id(),
            "game:42:resign:7"
        );
    }

    #[test]
    fn malformed_ids_are_refused() {
        for bad in [
            "",
            "game",
            "game:1:resign",
            "game:x:resign:1",
            "game:1:explode:1",
            "game:-1:resign:1",
            "challenge:1:accept:2",
            "game:1:resign:99999999999999999999",
            &"a".repeat(500),
        ] {
            assert_eq!(ButtonAction::parse(bad), None, "{bad}");
        }
    }
}
