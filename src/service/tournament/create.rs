//! `/tournament create`: a moderator names the competition and chooses its
//! format and settings; every option is checked before anything is stored,
//! and a refusal names the option and the values it takes.

use super::{parse_tiebreaks, tiebreak_id};
use crate::{
    clock::{parse_duration, TimeControl},
    msg,
    service::{
        error::{check_length, echo, refuse_msg, ServiceError, MAX_OPTION_CHARS},
        Actor, Reply, Service, TournamentOptions,
    },
    store::{Entrant, NewTournament},
    t,
    tournament::{event::Format, standings::TieBreak},
};

/// The most rounds a Swiss may have.
pub const MAX_SWISS_ROUNDS: i64 = 30;
/// The most players a tournament may take.
pub const MAX_PLAYERS: i64 = 1_000;
/// The longest a tournament name may be.
pub const MAX_NAME_CHARS: usize = 60;
/// The most boards a team may field.
pub const MAX_BOARDS: usize = 12;
/// The most teams of a team event.
pub const MAX_TEAMS: usize = 20;
/// How long before the start a tournament may be announced.
const MAX_START_DELAY_MS: i64 = 90 * 86_400_000;
/// The first-move deadline of live events unless set: the seed rules' one
/// hour (迟到判负，以1小时为限).
const LIVE_FIRST_MOVE_MS: i64 = 3_600_000;

impl Service {
    pub(super) async fn create_tournament(
        &self,
        actor: &Actor,
        o: TournamentOptions,
    ) -> Result<Reply, ServiceError> {
        self.moderators_only(actor)?;
        let lang = actor.lang();
        let name = echo(&o.name, MAX_NAME_CHARS + 1);
        if name.is_empty() {
            return refuse_msg(msg!("tournament-name-empty"));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return refuse_msg(msg!("tournament-name-long", limit = MAX_NAME_CHARS));
        }
        if name.trim_start_matches('#').parse::<i64>().is_ok() {
            return refuse_msg(msg!("tournament-name-number"));
        }
        let variant = match o.variant.as_deref() {
            Some(text) => crate::service::start::read_variant(text)?,
            None => crate::chess::Variant::Standard,
        };
        let format = match o.format.as_deref() {
            None => Format::Swiss,
            Some(text) => Format::from_id(text).ok_or_else(|| {
                crate::service::UserError::msg(msg!(
                    "tournament-bad-format",
                    value = echo(text, 30)
                ))
            })?,
        };
        let rounds = match (format, o.rounds) {
            (Format::Swiss, None) => 5,
            (Format::Swiss, Some(r)) if (1..=MAX_SWISS_ROUNDS).contains(&r) => r,
            (Format::Swiss, Some(_)) => {
                return refuse_msg(msg!("tournament-bad-rounds", limit = MAX_SWISS_ROUNDS))
            }
            (_, Some(_)) => return refuse_msg(msg!("tournament-rounds-swiss-only")),
            (_, None) => 0,
        };
        let time_text = o.time.clone().unwrap_or_else(|| "3d".to_owned());
        check_length("time", &time_text, MAX_OPTION_CHARS)?;
        let time = crate::service::play::parse_time_control(&time_text, lang)?;
        let live = matches!(time.control, TimeControl::Live(_));
        let tiebreaks = match &o.tiebreaks {
            None => vec![if format == Format::Swiss {
                TieBreak::Buchholz
            } else {
                TieBreak::SonnebornBerger
            }],
            Some(text) => {
                check_length("tiebreaks", text, MAX_OPTION_CHARS)?;
                let list = parse_tiebreaks(text).or_else(|bad| {
                    refuse_msg(msg!("tournament-bad-tiebreak", value = echo(&bad, 30)))
                })?;
                if list.len() > 5 {
                    return refuse_msg(msg!("tournament-too-many-tiebreaks", limit = 5));
                }
                list
            }
        };
        let max_players = o.max_players.unwrap_or(100);
        if !(2..=MAX_PLAYERS).contains(&max_players) {
            return refuse_msg(msg!("tournament-bad-max-players", limit = MAX_PLAYERS));
        }
        let now = self.now_ms();
        let starts_ms = match &o.start {
            None => None,
            Some(text) if text.trim().eq_ignore_ascii_case("manual") => None,
            Some(text) => {
                let ms = duration_ms(text)
                    .filter(|ms| (60_000..=MAX_START_DELAY_MS).contains(ms))
                    .ok_or_else(|| {
                        crate::service::UserError::msg(msg!(
                            "tournament-bad-start",
                            value = echo(text, 30)
                        ))
                    })?;
                Some(now + ms)
            }
        };
        let first_move_ms = match &o.first_move {
            Some(text) => duration_ms(text)
                .filter(|ms| (60_000..=30 * 86_400_000).contains(ms))
                .ok_or_else(|| {
                    crate::service::UserError::msg(msg!(
                        "tournament-bad-first-move",
                        value = echo(text, 30)
                    ))
                })?,
            None if live => LIVE_FIRST_MOVE_MS,
            // Correspondence: the time control's own first deadline.
            None => 0,
        };
        let schedule = match o.schedule.as_deref().map(str::trim) {
            None if live => "rounds",
            None => "all",
            Some("all") => "all",
            Some("rounds") => "rounds",
            Some(other) => {
                return refuse_msg(msg!("tournament-bad-schedule", value = echo(other, 30)))
            }
        };
        let match_games = o.match_games.unwrap_or(2);
        if !(1..=10).contains(&match_games) {
            return refuse_msg(msg!("tournament-bad-match-games"));
        }
        let (decider_pairs, sudden_death) = match &o.decider {
            None => (1, true),
            Some(text) => parse_decider(text).ok_or_else(|| {
                crate::service::UserError::msg(msg!(
                    "tournament-bad-decider",
                    value = echo(text, 30)
                ))
            })?,
        };
        let groups = match (format, o.groups) {
            (Format::Groups, None) => 2,
            (Format::Groups, Some(g)) if (2..=16).contains(&g) => g,
            (Format::Groups, Some(_)) => return refuse_msg(msg!("tournament-bad-groups")),
            (_, Some(_)) => return refuse_msg(msg!("tournament-groups-only")),
            (_, None) => 1,
        };
        let entrants = match (format, &o.teams) {
            (Format::Team, Some(text)) => self.parse_teams(actor, text, now).await?,
            (Format::Team, None) => return refuse_msg(msg!("tournament-teams-needed")),
            (_, Some(_)) => return refuse_msg(msg!("tournament-teams-only")),
            (_, None) => Vec::new(),
        };
        let live_names = self
            .store()
            .tournaments_of(&actor.server, true, 200)
            .await?;
        if live_names
            .iter()
            .any(|t| t.tournament.name.to_lowercase() == name.to_lowercase())
        {
            return refuse_msg(msg!("tournament-name-taken", name = name.as_str()));
        }
        let new = NewTournament {
            server_id: actor.server.clone(),
            channel_id: actor.channel.clone(),
            name: name.clone(),
            format: format.id().to_owned(),
            rounds,
            time_control: time.canonical.clone(),
            rated: o.rated.unwrap_or(true),
            tiebreaks: tiebreaks
                .iter()
                .map(|tb| tiebreak_id(*tb))
                .collect::<Vec<_>>()
                .join(","),
            vacations_pause: o.vacations.unwrap_or(true),
            max_players: if format == Format::Team {
                entrants.len() as i64
            } else {
                max_players
            },
            starts_ms,
            first_move_ms,
            schedule: schedule.to_owned(),
            match_games,
            decider_pairs,
            sudden_death,
            groups_count: groups,
            // C.04.3 E / TRF(x) XXC: the first colour is drawn by lot once
            // and stored, so every later pairing is reproducible.
            initial_colour: if self.draw_lot() { "white" } else { "black" }.to_owned(),
            variant,
            created_by: actor.user.clone(),
            created_ms: now,
        };
        let record = self.store().create_tournament(&new, &entrants).await?;
        let public = self.server_lang(&actor.server).await;
        let how = if format == Format::Team {
            t!(public, "tournament-created-teams", id = record.id)
        } else {
            t!(public, "tournament-created-join", id = record.id)
        };
        let when = match starts_ms {
            Some(ms) => t!(
                public,
                "tournament-starts-in",
                after = crate::clock::human_left_in(public, ms - now)
            ),
            None => t!(public, "tournament-starts-manual"),
        };
        let text = crate::i18n::join_sentences(
            public,
            [
                t!(
                    public,
                    "tournament-created",
                    name = name.as_str(),
                    id = record.id,
                    format = format_name(public, format)
                ),
                if variant == crate::chess::Variant::Standard {
                    String::new()
                } else if variant.numbered_starts() {
                    t!(public, "tournament-variant", variant = variant.name(public))
                } else {
                    // lichess's other variants: every board from the
                    // variant's usual start.
                    t!(
                        public,
                        "tournament-variant-usual",
                        variant = variant.name(public)
                    )
                },
                how,
                when,
            ],
        );
        let mut reply = Reply::text(text);
        reply.card = Some(
            self.tournament_card(public, &record, entrants.len())
                .await?,
        );
        if format != Format::Team {
            reply.buttons = vec![super::view::join_button(public, record.id)];
        }
        Ok(reply)
    }

    /// Reads `Red: @a @b; Blue: @c @d` into entrants (teams in order,
    /// players in board order).
    async fn parse_teams(
        &self,
        actor: &Actor,
        text: &str,
        now: i64,
    ) -> Result<Vec<Entrant>, ServiceError> {
        check_length("teams", text, 2_000)?;
        let mut out: Vec<Entrant> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((team, members)) = part.split_once([':', '：']) else {
                return refuse_msg(msg!("tournament-team-form"));
            };
            let team = echo(team, 30);
            if team.is_empty() {
                return refuse_msg(msg!("tournament-team-form"));
            }
            if names
                .iter()
                .any(|n| n.to_lowercase() == team.to_lowercase())
            {
                return refuse_msg(msg!("tournament-team-twice", team = team.as_str()));
            }
            let ids: Vec<String> = members
                .split([' ', ','])
                .map(|m| m.trim())
                .filter(|m| !m.is_empty())
                .map(|m| {
                    m.trim_start_matches("<@")
                        .trim_start_matches('!')
                        .trim_start_matches('@')
                        .trim_end_matches('>')
                        .to_owned()
                })
                .collect();
            if ids.is_empty() {
                return refuse_msg(msg!("tournament-team-empty", team = team.as_str()));
            }
            if ids.len() > MAX_BOARDS {
                return refuse_msg(msg!(
                    "tournament-team-too-big",
                    team = team.as_str(),
                    limit = MAX_BOARDS
                ));
            }
            for (board, id) in ids.iter().enumerate() {
                if id.is_empty() || id.len() > 64 {
                    return refuse_msg(msg!("tournament-team-form"));
                }
                if out.iter().any(|e| e.user_id == *id) {
                    return refuse_msg(msg!("tournament-team-member-twice", player = echo(id, 32)));
                }
                let row = self.store().player(&actor.server, id).await?;
                out.push(Entrant {
                    user_id: id.clone(),
                    name: row
                        .as_ref()
                        .map_or_else(|| echo(id, 32), |p| p.display_name.clone()),
                    points: row.map_or(0, |p| p.points),
                    pno: None,
                    section: Some(team.clone()),
                    board: Some(board as i64 + 1),
                    // Keeps the teams' order and the boards' order.
                    joined_ms: now + out.len() as i64,
                    withdrawn_after: None,
                });
            }
            names.push(team);
        }
        if names.len() < 2 {
            return refuse_msg(msg!("tournament-teams-two"));
        }
        if names.len() > MAX_TEAMS {
            return refuse_msg(msg!("tournament-teams-many", limit = MAX_TEAMS));
        }
        let sizes: Vec<usize> = names
            .iter()
            .map(|n| out.iter().filter(|e| e.section.as_ref() == Some(n)).count())
            .collect();
        if sizes.iter().any(|&s| s != sizes[0]) {
            return refuse_msg(msg!("tournament-teams-unequal"));
        }
        Ok(out)
    }
}

/// A duration option in milliseconds (`2h`, `3d`, `1h30m`).
fn duration_ms(text: &str) -> Option<i64> {
    parse_duration(text)
        .ok()
        .and_then(|d| i64::try_from(d.as_millis()).ok())
}

/// `pairs:1,sudden`, `pairs:0,sudden`, `pairs:2`, `sudden`, `none`.
fn parse_decider(text: &str) -> Option<(i64, bool)> {
    let text = text.trim().to_ascii_lowercase();
    if text == "none" {
        return Some((0, false));
    }
    let (mut pairs, mut sudden) = (0, false);
    for part in text.split(',').map(str::trim) {
        match part.split_once(':') {
            Some(("pairs", n)) => pairs = n.trim().parse().ok().filter(|n| (0..=5).contains(n))?,
            None if part == "sudden" => sudden = true,
            _ => return None,
        }
    }
    Some((pairs, sudden))
}

/// The format's name in `lang`.
pub(super) fn format_name(lang: crate::i18n::Lang, format: Format) -> String {
    match format {
        Format::Swiss => t!(lang, "tournament-format-swiss"),
        Format::RoundRobin => t!(lang, "tournament-format-roundrobin"),
        Format::DoubleRoundRobin => t!(lang, "tournament-format-double-roundrobin"),
        Format::Groups => t!(lang, "tournament-format-groups"),
        Format::Knockout => t!(lang, "tournament-format-knockout"),
        Format::Team => t!(lang, "tournament-format-team"),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_decider;

    #[test]
    fn deciders() {
        assert_eq!(parse_decider("pairs:1,sudden"), Some((1, true)));
        assert_eq!(parse_decider("sudden"), Some((0, true)));
        assert_eq!(parse_decider("pairs:2"), Some((2, false)));
        assert_eq!(parse_decider("none"), Some((0, false)));
        assert_eq!(parse_decider("pairs:9"), None);
        assert_eq!(parse_decider("armageddon"), None);
    }
}
