//! Showing tournaments: the server's list, one tournament's settings, a
//! round's pairings, the standings (a short text and the crosstable image)
//! and the export (the FIDE TRF, which other pairing programs read, and a
//! PGN of every game).

use super::{create::format_name, Loaded};
use crate::{
    chess::pgn,
    i18n::{join_sentences, Lang},
    msg,
    rating::{Level, Points},
    render::{crosstable_png, CellColour, CellOutcome, CrossCell, CrossRow, Crosstable},
    service::{
        error::{refuse_msg, ServiceError},
        Actor, Attachment, Button, ButtonStyle, Card, Image, Reply, Service, TournamentRef,
    },
    store::{TournamentRecord, TournamentStatus},
    t,
    tournament::{
        event::{
            table::{table, CellResult, TableRow},
            BoardResult, Format,
        },
        model::{Colour, Pno, Score},
        standings::TieBreak,
        trf,
    },
};

/// Rows of the standings' text version.
const TEXT_ROWS: usize = 10;

impl Service {
    pub(super) async fn list_tournaments(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let lang = actor.lang();
        let all = self
            .store()
            .tournaments_of(&actor.server, false, 15)
            .await?;
        if all.is_empty() {
            return Ok(Reply::private(t!(lang, "tournament-list-empty")));
        }
        let mut lines = vec![t!(lang, "tournament-list-title")];
        for r in &all {
            let count = self.store().entrants(r.id).await?.len();
            lines.push(t!(
                lang,
                "tournament-list-line",
                id = r.id,
                name = r.tournament.name.as_str(),
                format = format_name(lang, format_of(r)),
                status = status_text(lang, r),
                players = count
            ));
        }
        Ok(Reply::private(lines.join("\n")))
    }

    pub(super) async fn tournament_info(
        &self,
        actor: &Actor,
        which: TournamentRef,
    ) -> Result<Reply, ServiceError> {
        let t = self.find_tournament(actor, &which).await?;
        let lang = actor.lang();
        let mut reply = Reply::private(t!(
            lang,
            "tournament-info-players",
            players = t
                .by_pno_or_entry()
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        reply.card = Some(
            self.tournament_card(lang, &t.record, t.entrants.len())
                .await?,
        );
        if t.record.status == TournamentStatus::Open && t.format() != Format::Team {
            reply.buttons = vec![join_button(lang, t.record.id)];
        }
        let rest = format!("/tournament/{}", t.record.id);
        self.link_page(&actor.server, &rest, lang, &mut reply)
            .await?;
        Ok(reply)
    }

    /// A tournament's settings and state as a card.
    pub(super) async fn tournament_card(
        &self,
        lang: Lang,
        r: &TournamentRecord,
        players: usize,
    ) -> Result<Card, ServiceError> {
        let tt = &r.tournament;
        let format = format_of(r);
        let yes_no = |b: bool| {
            if b {
                t!(lang, "tournament-yes")
            } else {
                t!(lang, "tournament-no")
            }
        };
        let mut fields = vec![
            (
                t!(lang, "tournament-field-format"),
                format_name(lang, format),
            ),
            (t!(lang, "tournament-field-status"), status_text(lang, r)),
            (
                t!(lang, "tournament-field-players"),
                if format == Format::Team {
                    players.to_string()
                } else {
                    format!("{players} / {}", tt.max_players)
                },
            ),
            (
                t!(lang, "tournament-field-time"),
                tt.time_control
                    .parse::<crate::clock::TimeControl>()
                    .map_or_else(|_| tt.time_control.clone(), |tc| tc.text(lang)),
            ),
            (t!(lang, "tournament-field-rated"), yes_no(tt.rated)),
        ];
        if tt.rounds > 0 {
            fields.push((t!(lang, "tournament-field-rounds"), tt.rounds.to_string()));
        }
        match format {
            Format::Knockout => {
                fields.push((
                    t!(lang, "tournament-field-match"),
                    t!(
                        lang,
                        "tournament-match-desc",
                        games = tt.match_games,
                        pairs = tt.decider_pairs,
                        sudden = yes_no(tt.sudden_death)
                    ),
                ));
            }
            Format::Team => {}
            _ => fields.push((
                t!(lang, "tournament-field-tiebreaks"),
                super::parse_tiebreaks(&tt.tiebreaks)
                    .unwrap_or_default()
                    .iter()
                    .map(|tb| tiebreak_name(lang, *tb))
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
        if format.is_round_robin() {
            fields.push((
                t!(lang, "tournament-field-schedule"),
                if tt.schedule == "all" {
                    t!(lang, "tournament-schedule-all")
                } else {
                    t!(lang, "tournament-schedule-rounds")
                },
            ));
        }
        if format == Format::Groups {
            fields.push((
                t!(lang, "tournament-field-groups"),
                tt.groups_count.to_string(),
            ));
        }
        fields.push((
            t!(lang, "tournament-field-first-move"),
            if tt.first_move_ms > 0 {
                crate::clock::human_left_in(lang, tt.first_move_ms)
            } else {
                t!(lang, "tournament-first-move-own")
            },
        ));
        fields.push((
            t!(lang, "tournament-field-vacations"),
            yes_no(tt.vacations_pause),
        ));
        let (deadline_ms, deadline_label) = match (r.status, tt.starts_ms) {
            (TournamentStatus::Open, Some(at)) => {
                (Some(at), Some(t!(lang, "tournament-field-starts")))
            }
            _ => (None, None),
        };
        Ok(Card {
            title: t!(
                lang,
                "tournament-card-title",
                name = tt.name.as_str(),
                id = r.id
            ),
            fields,
            footer: Some(t!(lang, "tournament-card-footer", id = r.id)),
            deadline_ms,
            deadline_label,
        })
    }

    pub(super) async fn tournament_pairings(
        &self,
        actor: &Actor,
        which: TournamentRef,
        round: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.as_str();
        if t.record.current_round == 0 {
            return refuse_msg(msg!("tournament-not-started", name = name));
        }
        let round = round.unwrap_or(t.record.current_round);
        let boards: Vec<_> = t.games.iter().filter(|g| g.round == round).collect();
        if boards.is_empty() {
            return refuse_msg(msg!(
                "tournament-no-round",
                round = round,
                rounds = t.record.current_round
            ));
        }
        let lang = actor.lang();
        let mut lines = vec![t!(
            lang,
            "tournament-pairings-title",
            name = name,
            round = round
        )];
        let knockout = t.format() == Format::Knockout;
        for b in boards {
            let white = t
                .entrant(&b.white_id)
                .map_or_else(|| b.white_id.clone(), |e| t.titled_name(e));
            let white = white.as_str();
            let Some(black_id) = &b.black_id else {
                lines.push(t!(lang, "tournament-line-bye", player = white));
                continue;
            };
            let black = t
                .entrant(black_id)
                .map_or_else(|| black_id.clone(), |e| t.titled_name(e));
            let black = black.as_str();
            let result = match b.result.as_deref().and_then(BoardResult::from_id) {
                Some(r) => super::direct::result_text(r).to_owned(),
                None => match b.game_id {
                    Some(id) => t!(lang, "tournament-pending-game", game = id),
                    None => "…".to_owned(),
                },
            };
            let board = if knockout {
                format!("{}.{}", b.board, b.game_no)
            } else {
                b.board.to_string()
            };
            lines.push(t!(
                lang,
                "tournament-pairing-line",
                board = board,
                white = white,
                black = black,
                result = result
            ));
        }
        Ok(Reply::private(lines.join("\n")))
    }

    pub(super) async fn tournament_standings(
        &self,
        actor: &Actor,
        which: TournamentRef,
    ) -> Result<Reply, ServiceError> {
        let t = self.find_tournament(actor, &which).await?;
        if t.record.current_round == 0 {
            let name = t.record.tournament.name.as_str();
            return refuse_msg(msg!("tournament-not-started", name = name));
        }
        // Public: standings are for everyone, in the server's language.
        let lang = self.server_lang(&actor.server).await;
        let title = self.standings_title(&t, lang);
        let mut reply = self.standings_reply(&t, lang, title)?;
        let rest = format!("/tournament/{}", t.record.id);
        self.link_page(&actor.server, &rest, lang, &mut reply)
            .await?;
        Ok(reply)
    }

    /// The announcement of the end: the winner(s), then the standings.
    pub(super) fn final_standings(&self, t: &Loaded, lang: Lang) -> Result<Reply, ServiceError> {
        let rows = table(&t.event(), &t.tiebreaks());
        let name = t.record.tournament.name.as_str();
        let winners: Vec<&TableRow> = rows.iter().filter(|r| r.place.0 == 1).collect();
        let score = winners.first().map_or(0, |r| r.score);
        let knockout = t.format() == Format::Knockout;
        let head = match winners.as_slice() {
            [one] if knockout => t!(
                lang,
                "tournament-over-winner-knockout",
                name = name,
                winner = one.name.as_str()
            ),
            [one] => t!(
                lang,
                "tournament-over-winner",
                name = name,
                winner = one.name.as_str(),
                score = points_text(score)
            ),
            many => t!(
                lang,
                "tournament-over-shared",
                name = name,
                winners = crate::i18n::join_list(lang, many.iter().map(|r| r.name.clone())),
                score = points_text(score)
            ),
        };
        let title = t!(lang, "tournament-final-title", name = name);
        let mut reply = self.standings_reply(t, lang, title)?;
        reply.text = join_sentences(lang, [head, reply.text]);
        // Everyone who played is told.
        reply.mentions = t.entrants.iter().map(|e| e.user_id.clone()).collect();
        Ok(reply)
    }

    pub(super) fn standings_title(&self, t: &Loaded, lang: Lang) -> String {
        let name = t.record.tournament.name.as_str();
        let games = t.games.iter().filter(|g| g.black_id.is_some());
        let total = games.clone().count();
        let done = games.filter(|g| g.result.is_some()).count();
        match t.record.status {
            TournamentStatus::Finished => t!(lang, "tournament-final-title", name = name),
            _ => t!(
                lang,
                "tournament-standings-title",
                name = name,
                round = t.record.current_round,
                done = done,
                total = total
            ),
        }
    }

    /// The standings: a short text (the top rows) and the crosstable image.
    fn standings_reply(
        &self,
        t: &Loaded,
        lang: Lang,
        title: String,
    ) -> Result<Reply, ServiceError> {
        let tiebreaks = t.tiebreaks();
        let format = t.format();
        let shown_tiebreaks: &[TieBreak] = match format {
            Format::Knockout | Format::Team => &[],
            _ => &tiebreaks,
        };
        let rows = table(&t.event(), shown_tiebreaks);
        let mut lines = vec![title.clone()];
        for r in rows.iter().take(TEXT_ROWS) {
            let breaks = shown_tiebreaks
                .iter()
                .zip(&r.tiebreaks)
                .map(|(tb, v)| format!("{} {}", tiebreak_name(lang, *tb), tiebreak_value(*tb, *v)))
                .collect::<Vec<_>>()
                .join(", ");
            let group = r
                .section
                .as_deref()
                .map(|g| format!("[{g}] "))
                .unwrap_or_default();
            lines.push(if format == Format::Knockout {
                t!(
                    lang,
                    "tournament-standings-line-knockout",
                    place = place_text(r.place),
                    name = r.name.as_str(),
                    won = r.score / 10
                )
            } else {
                t!(
                    lang,
                    "tournament-standings-line",
                    place = place_text(r.place),
                    name = format!("{group}{}", r.name),
                    score = points_text(r.score),
                    tiebreaks = breaks
                )
                .trim_end()
                .to_owned()
            });
        }
        if rows.len() > TEXT_ROWS {
            lines.push(t!(
                lang,
                "tournament-standings-more",
                count = rows.len() - TEXT_ROWS
            ));
        }
        // One image holds at most MAX_ROWS rows: a larger field shows its
        // top, and says so under the table.
        let shown = &rows[..rows.len().min(crate::render::crosstable::MAX_ROWS)];
        let mut table = self.crosstable(t, lang, title.clone(), shown, shown_tiebreaks);
        if shown.len() < rows.len() {
            let more = t!(
                lang,
                "tournament-image-more",
                count = rows.len() - shown.len()
            );
            table.footer = format!("{} {more}", table.footer);
        }
        let png = crosstable_png(&table)
            .map_err(|e| ServiceError::Internal(format!("crosstable image: {e}")))?;
        let description = match rows.first() {
            Some(first) => t!(
                lang,
                "alt-crosstable",
                title = title.as_str(),
                players = rows.len(),
                leader = first.name.as_str(),
                score = points_text(first.score)
            ),
            None => t!(lang, "alt-crosstable-empty", title = title.as_str()),
        };
        Ok(Reply {
            text: lines.join("\n"),
            image: Some(Image {
                file_name: format!("tournament-{}-standings.png", t.record.id),
                png,
                description: crate::chess::describe::cut(
                    &description,
                    crate::chess::describe::MAX_DESCRIPTION,
                ),
            }),
            ..Reply::default()
        })
    }

    /// The crosstable's contents in `lang`.
    pub(super) fn crosstable(
        &self,
        t: &Loaded,
        lang: Lang,
        title: String,
        rows: &[TableRow],
        tiebreaks: &[TieBreak],
    ) -> Crosstable {
        let format = t.format();
        let rounds = rows.first().map_or(0, |r| r.cells.len());
        let teams = format == Format::Team;
        Crosstable {
            title,
            place_heading: t!(lang, "tournament-col-place"),
            name_heading: if teams {
                t!(lang, "tournament-col-team")
            } else {
                t!(lang, "tournament-col-name")
            },
            level_heading: if teams {
                String::new()
            } else {
                t!(lang, "tournament-col-level")
            },
            score_heading: if format == Format::Knockout {
                t!(lang, "tournament-col-won")
            } else {
                t!(lang, "tournament-col-score")
            },
            round_headings: (1..=rounds)
                .map(|r| t!(lang, "tournament-col-round", round = r))
                .collect(),
            tiebreak_headings: tiebreaks
                .iter()
                .map(|tb| tiebreak_name(lang, *tb))
                .collect(),
            rows: rows
                .iter()
                .map(|r| CrossRow {
                    place: place_text(r.place),
                    name: match (&r.section, teams) {
                        (Some(g), _) => format!("{} [{g}]", r.name),
                        (None, true) => format!("{}. {}", r.number, r.name),
                        (None, false) => format!("{}. {}", r.number, r.name),
                    },
                    level: if teams {
                        String::new()
                    } else {
                        t.user_of(r.number)
                            .map(|e| {
                                Level::from_points(Points::from_hundredths(e.points)).name(lang)
                            })
                            .unwrap_or_default()
                    },
                    cells: r.cells.iter().map(|c| cross_cell_of(lang, c)).collect(),
                    score: points_text(r.score),
                    tiebreaks: tiebreaks
                        .iter()
                        .zip(&r.tiebreaks)
                        .map(|(tb, v)| tiebreak_value(*tb, *v))
                        .collect(),
                    withdrawn: r.withdrawn,
                })
                .collect(),
            footer: if teams {
                t!(lang, "tournament-footer-team")
            } else {
                t!(lang, "tournament-footer", id = t.record.id)
            },
        }
    }

    /// The tournament as a FIDE TRF file, and a PGN of its games so far.
    pub(super) async fn export_texts(&self, t: &Loaded) -> Result<(String, String), ServiceError> {
        let name = t.record.tournament.name.as_str();
        // The TRF keeps names and titles in their own fields.
        let mut record = t.event().record();
        for p in &mut record.players {
            if let Some(e) = t.user_of(p.pno) {
                p.name = e.name.clone();
                p.title = t.titles.get(&e.user_id).cloned().unwrap_or_default();
            }
        }
        let trf_text = trf::write(&record);
        let mut pgn_text = String::new();
        for b in &t.games {
            let Some(game_id) = b.game_id else { continue };
            let Some(record) = self.store().game(game_id).await? else {
                continue;
            };
            let session = self.load(record).await?;
            let mut tags = self.pgn_tags(&session).await?;
            tags.event = name.to_owned();
            tags.round = if t.format() == Format::Knockout {
                format!("{}.{}.{}", b.round, b.board, b.game_no)
            } else {
                format!("{}.{}", b.round, b.board)
            };
            let notes = crate::service::ladder::adjournment_notes(&session);
            pgn_text.push_str(&pgn::export_noted(&session.game, &tags, None, &notes));
            pgn_text.push('\n');
        }
        Ok((trf_text, pgn_text))
    }

    pub(super) async fn export_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
    ) -> Result<Reply, ServiceError> {
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.as_str();
        if t.record.current_round == 0 {
            return refuse_msg(msg!("tournament-not-started", name = name));
        }
        let (trf_text, pgn_text) = self.export_texts(&t).await?;
        let lang = actor.lang();
        let mut files = vec![Attachment {
            file_name: format!("tournament-{}.trf", t.record.id),
            bytes: trf_text.into_bytes(),
        }];
        if !pgn_text.is_empty() {
            files.push(Attachment {
                file_name: format!("tournament-{}.pgn", t.record.id),
                bytes: pgn_text.into_bytes(),
            });
        }
        Ok(Reply {
            text: t!(
                lang,
                "tournament-exported",
                name = name,
                games = t.games.iter().filter(|g| g.game_id.is_some()).count()
            ),
            files,
            ephemeral: true,
            ..Reply::default()
        })
    }
}

impl Loaded {
    /// Entrants by pairing number once started, else in order of entry.
    fn by_pno_or_entry(&self) -> Vec<&crate::store::Entrant> {
        if self.entrants.iter().all(|e| e.pno.is_some()) && !self.entrants.is_empty() {
            self.by_pno()
        } else {
            self.entrants.iter().collect()
        }
    }
}

/// How a player is named in announcements: their name.
pub(super) fn entrant_label(t: &Loaded, pno: Pno) -> String {
    t.user_of(pno)
        .map_or_else(|| format!("#{pno}"), |e| t.titled_name(e))
}

pub(super) fn join_button(lang: Lang, id: i64) -> Button {
    Button {
        id: crate::service::buttons::ButtonAction::TournamentJoin { id }.id(),
        label: t!(lang, "tournament-button-join"),
        style: ButtonStyle::Primary,
    }
}

fn format_of(r: &TournamentRecord) -> Format {
    Format::from_id(&r.tournament.format).unwrap_or(Format::Swiss)
}

fn status_text(lang: Lang, r: &TournamentRecord) -> String {
    match r.status {
        TournamentStatus::Open => t!(lang, "tournament-status-open"),
        TournamentStatus::Running => t!(
            lang,
            "tournament-status-running",
            round = r.current_round,
            rounds = r.tournament.rounds
        ),
        TournamentStatus::Paused => t!(lang, "tournament-status-paused"),
        TournamentStatus::Finished => t!(lang, "tournament-status-finished"),
        TournamentStatus::Cancelled => t!(lang, "tournament-status-cancelled"),
    }
}

/// `3½`, `½`, `2`.
pub(super) fn points_text(score: Score) -> String {
    let whole = score / 10;
    match (whole, score % 10) {
        (0, 5) => "½".to_owned(),
        (w, 5) => format!("{w}½"),
        (w, 0) => w.to_string(),
        _ => crate::tournament::model::show_score(score),
    }
}

/// `1`, `2–3`.
fn place_text((first, last): (usize, usize)) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

/// A tie-break's name: the seed's words in Chinese (小分, 对手分).
pub(super) fn tiebreak_name(lang: Lang, tb: TieBreak) -> String {
    match tb {
        TieBreak::SonnebornBerger => t!(lang, "tiebreak-sb"),
        TieBreak::Buchholz => t!(lang, "tiebreak-buchholz"),
        TieBreak::BuchholzCut1 => t!(lang, "tiebreak-buchholz-cut1"),
        TieBreak::MedianBuchholz => t!(lang, "tiebreak-median-buchholz"),
        TieBreak::DirectEncounter => t!(lang, "tiebreak-de"),
        TieBreak::Wins => t!(lang, "tiebreak-wins"),
    }
}

/// A tie-break value: hundredths of a point as `7¼` (quarters are what
/// Sonneborn–Berger and Buchholz give with half points), `7.13` otherwise;
/// wins as a count.
fn tiebreak_value(tb: TieBreak, v: i64) -> String {
    if tb == TieBreak::Wins {
        return v.to_string();
    }
    let (whole, rest) = (v / 100, (v % 100).abs());
    let sign = if v < 0 && whole == 0 { "-" } else { "" };
    let fraction = match rest {
        0 => "",
        25 => "¼",
        50 => "½",
        75 => "¾",
        _ => return format!("{sign}{whole}.{rest:02}"),
    };
    match (whole, fraction) {
        (0, "") => "0".to_owned(),
        (0, f) => format!("{sign}{f}"),
        (w, f) => format!("{w}{f}"),
    }
}

pub(super) fn cross_cell_of(lang: Lang, c: &crate::tournament::event::table::Cell) -> CrossCell {
    let outcome = match c.result {
        CellResult::Win | CellResult::ForfeitWin => CellOutcome::Win,
        CellResult::Draw => CellOutcome::Draw,
        CellResult::Loss | CellResult::ForfeitLoss => CellOutcome::Loss,
        CellResult::Pending => CellOutcome::Pending,
        CellResult::Bye => CellOutcome::Win,
        CellResult::Absent => CellOutcome::Unplayed,
    };
    let result = match (c.points, c.result) {
        (_, CellResult::Pending) => "…".to_owned(),
        (Some(p), _) => points_text(p),
        (None, CellResult::Win) => "1".to_owned(),
        (None, CellResult::Draw) => "½".to_owned(),
        (None, CellResult::Loss) => "0".to_owned(),
        (None, CellResult::ForfeitWin) => "+".to_owned(),
        (None, CellResult::ForfeitLoss) => "−".to_owned(),
        (None, CellResult::Bye) => t!(lang, "tournament-cell-bye"),
        (None, CellResult::Absent) => String::new(),
    };
    CrossCell {
        opponent: c.opponent.map(|o| o.to_string()).unwrap_or_default(),
        colour: c.colour.map(|col| match col {
            Colour::White => CellColour::White,
            Colour::Black => CellColour::Black,
        }),
        result,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_places_read_naturally() {
        assert_eq!(points_text(35), "3½");
        assert_eq!(points_text(5), "½");
        assert_eq!(points_text(20), "2");
        assert_eq!(place_text((2, 3)), "2–3");
        assert_eq!(tiebreak_value(TieBreak::SonnebornBerger, 725), "7¼");
        assert_eq!(tiebreak_value(TieBreak::SonnebornBerger, 50), "½");
        assert_eq!(tiebreak_value(TieBreak::SonnebornBerger, 713), "7.13");
        assert_eq!(tiebreak_value(TieBreak::Buchholz, 700), "7");
        assert_eq!(tiebreak_value(TieBreak::Buchholz, 0), "0");
        assert_eq!(tiebreak_value(TieBreak::Wins, 3), "3");
    }
}
