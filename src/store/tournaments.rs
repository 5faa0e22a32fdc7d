//! Tournaments: their settings and state, their entrants, and every board
//! of every round (`migrations/*/0011_tournaments.sql`).
//!
//! Each change that must happen once is a compare-and-set in one
//! transaction: a round is paired only by the writer that moves
//! `current_round` from the round it saw, and its boards' primary key
//! refuses a second copy; starting, joining and leaving check the status in
//! the statement that writes. Two processes (or a restart half-way) cannot
//! pair a round twice or lose one.
//!
//! A tournament game's result is written by a trigger in the statement
//! that ends the game, so no ending is ever missed.

use sqlx::{any::AnyRow, Any, Row, Transaction};

use super::{
    flag, games::insert_game, on_unique_violation, GameRecord, NewGame, Store, StoreError, Variant,
};

/// A tournament's settings, as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub server_id: String,
    pub channel_id: String,
    pub name: String,
    /// `swiss`, `roundrobin`, `double-roundrobin`, `groups`, `knockout`, `team`.
    pub format: String,
    /// Rounds planned (a Swiss's choice; 0 until the start otherwise).
    pub rounds: i64,
    pub time_control: String,
    pub rated: bool,
    /// Tie-break ids in order, comma separated.
    pub tiebreaks: String,
    pub vacations_pause: bool,
    pub max_players: i64,
    pub starts_ms: Option<i64>,
    pub first_move_ms: i64,
    /// Round robins: `all` or `rounds`.
    pub schedule: String,
    pub match_games: i64,
    pub decider_pairs: i64,
    pub sudden_death: bool,
    pub groups_count: i64,
    /// `white` or `black`: pairing number 1's colour in round 1.
    pub initial_colour: String,
    /// The rules of every game (in Chess960, one start per round).
    pub variant: Variant,
    pub created_by: String,
    pub created_ms: i64,
}

/// Where a tournament stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TournamentStatus {
    /// Taking entries.
    Open,
    Running,
    /// Running, but no new round is paired until it resumes.
    Paused,
    Finished,
    Cancelled,
}

impl TournamentStatus {
    pub const fn id(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Paused => "paused",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    pub fn from_id(id: &str) -> Option<TournamentStatus> {
        Some(match id {
            "open" => TournamentStatus::Open,
            "running" => TournamentStatus::Running,
            "paused" => TournamentStatus::Paused,
            "finished" => TournamentStatus::Finished,
            "cancelled" => TournamentStatus::Cancelled,
            _ => return None,
        })
    }

    /// Not yet over.
    pub fn is_live(self) -> bool {
        matches!(
            self,
            TournamentStatus::Open | TournamentStatus::Running | TournamentStatus::Paused
        )
    }
}

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    pub id: i64,
    pub tournament: NewTournament,
    pub status: TournamentStatus,
    /// The last round paired (0 before the start).
    pub current_round: i64,
    pub finished_ms: Option<i64>,
}

/// A player entered in a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub user_id: String,
    pub name: String,
    /// Club points at entry (hundredths), for seeding.
    pub points: i64,
    /// Pairing number, from the start.
    pub pno: Option<i64>,
    /// Team name (team events) or group letter (group round robin).
    pub section: Option<String>,
    /// Board order within a team (1 = first board).
    pub board: Option<i64>,
    pub joined_ms: i64,
    /// Withdrawn after this round: not paired again.
    pub withdrawn_after: Option<i64>,
}

/// One board of one round (one game of a knockout match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    pub round: i64,
    pub board: i64,
    pub game_no: i64,
    pub white_id: String,
    /// `None`: a bye for `white_id`.
    pub black_id: Option<String>,
    pub game_id: Option<i64>,
    /// `None` while pending; `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`, `bye`.
    pub result: Option<String>,
    pub set_by: Option<String>,
}

/// A board to write when a round is paired: with `game` set, the bot's
/// game is created with it (and `result` is `None`); without, it is a bye
/// or an absence recorded with its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewBoard {
    pub round: i64,
    pub board: i64,
    pub game_no: i64,
    pub white_id: String,
    pub black_id: Option<String>,
    pub result: Option<String>,
    pub game: Option<NewGame>,
    /// When the game's first reminder is due (correspondence), written
    /// with it.
    pub first_reminder_ms: Option<i64>,
}

/// Pairing numbers and sections given at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeding {
    pub user_id: String,
    pub pno: i64,
    pub section: Option<String>,
}

const TOURNAMENT_COLUMNS: &str = "id, server_id, channel_id, name, format, rounds, time_control, \
     rated, tiebreaks, vacations_pause, max_players, starts_ms, first_move_ms, schedule, \
     match_games, decider_pairs, sudden_death, groups_count, initial_colour, status, \
     current_round, created_by, created_ms, finished_ms, variant";

const ENTRANT_COLUMNS: &str =
    "user_id, name, points, pno, section, board, joined_ms, withdrawn_after";

const BOARD_COLUMNS: &str = "round, board, game_no, white_id, black_id, game_id, result, set_by";

fn tournament_from_row(row: &AnyRow) -> Result<TournamentRecord, sqlx::Error> {
    let status: String = row.try_get("status")?;
    Ok(TournamentRecord {
        id: row.try_get("id")?,
        tournament: NewTournament {
            server_id: row.try_get("server_id")?,
            channel_id: row.try_get("channel_id")?,
            name: row.try_get("name")?,
            format: row.try_get("format")?,
            rounds: row.try_get("rounds")?,
            time_control: row.try_get("time_control")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            tiebreaks: row.try_get("tiebreaks")?,
            vacations_pause: row.try_get::<i64, _>("vacations_pause")? != 0,
            max_players: row.try_get("max_players")?,
            starts_ms: row.try_get("starts_ms")?,
            first_move_ms: row.try_get("first_move_ms")?,
            schedule: row.try_get("schedule")?,
            match_games: row.try_get("match_games")?,
            decider_pairs: row.try_get("decider_pairs")?,
            sudden_death: row.try_get::<i64, _>("sudden_death")? != 0,
            groups_count: row.try_get("groups_count")?,
            initial_colour: row.try_get("initial_colour")?,
            variant: super::games::variant_from_row(row)?,
            created_by: row.try_get("created_by")?,
            created_ms: row.try_get("created_ms")?,
        },
        status: TournamentStatus::from_id(&status).ok_or_else(|| {
            sqlx::Error::Decode(format!("unknown tournament status {status}").into())
        })?,
        current_round: row.try_get("current_round")?,
        finished_ms: row.try_get("finished_ms")?,
    })
}

fn entrant_from_row(row: &AnyRow) -> Result<Entrant, sqlx::Error> {
    Ok(Entrant {
        user_id: row.try_get("user_id")?,
        name: row.try_get("name")?,
        points: row.try_get("points")?,
        pno: row.try_get("pno")?,
        section: row.try_get("section")?,
        board: row.try_get("board")?,
        joined_ms: row.try_get("joined_ms")?,
        withdrawn_after: row.try_get("withdrawn_after")?,
    })
}

fn board_from_row(row: &AnyRow) -> Result<TournamentGame, sqlx::Error> {
    Ok(TournamentGame {
        round: row.try_get("round")?,
        board: row.try_get("board")?,
        game_no: row.try_get("game_no")?,
        white_id: row.try_get("white_id")?,
        black_id: row.try_get("black_id")?,
        game_id: row.try_get("game_id")?,
        result: row.try_get("result")?,
        set_by: row.try_get("set_by")?,
    })
}

async fn insert_entrant(
    tx: &mut Transaction<'static, Any>,
    tournament_id: i64,
    e: &Entrant,
) -> Result<u64, sqlx::Error> {
    // Written only while the tournament is open and not full: the check
    // and the write are one statement.
    let done = sqlx::query(
        "INSERT INTO tournament_entrants (tournament_id, user_id, name, points, pno, section, \
         board, joined_ms) \
         SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE EXISTS (SELECT 1 FROM tournaments \
         WHERE id = $1 AND status = 'open' AND max_players > \
         (SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = $1))",
    )
    .bind(tournament_id)
    .bind(e.user_id.clone())
    .bind(e.name.clone())
    .bind(e.points)
    .bind(e.pno)
    .bind(e.section.clone())
    .bind(e.board)
    .bind(e.joined_ms)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected())
}

/// Writes a round's boards, creating their games; the created games in
/// the order of `boards` (only those with a game).
async fn insert_boards(
    tx: &mut Transaction<'static, Any>,
    tournament_id: i64,
    boards: &[NewBoard],
) -> Result<Vec<GameRecord>, StoreError> {
    let mut games = Vec::new();
    for b in boards {
        let game = match &b.game {
            Some(g) => {
                let mut record = insert_game(tx, g).await?;
                if let Some(at) = b.first_reminder_ms {
                    let sql = format!(
                        "UPDATE games SET next_reminder_ms = $2, wake_ms = {} WHERE id = $1",
                        super::time::wake_of("deadline_ms", "$2")
                    );
                    sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(record.id)
                        .bind(at)
                        .execute(&mut **tx)
                        .await?;
                    record.state.next_reminder_ms = Some(at);
                }
                Some(record)
            }
            None => None,
        };
        let created = game.as_ref().map_or(0, |g| g.game.created_ms);
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, round, board, game_no, white_id, \
             black_id, game_id, result, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(tournament_id)
        .bind(b.round)
        .bind(b.board)
        .bind(b.game_no)
        .bind(b.white_id.clone())
        .bind(b.black_id.clone())
        .bind(game.as_ref().map(|g| g.id))
        .bind(b.result.clone())
        .bind(created)
        .execute(&mut **tx)
        .await
        .map_err(|e| on_unique_violation(e, StoreError::Conflict))?;
        games.extend(game);
    }
    Ok(games)
}

impl Store {
    /// Stores a new tournament, open for entries, with `entrants` already
    /// in (a team event's teams).
    pub async fn create_tournament(
        &self,
        t: &NewTournament,
        entrants: &[Entrant],
    ) -> Result<TournamentRecord, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let row = sqlx::query(
            "INSERT INTO tournaments (server_id, channel_id, name, format, rounds, time_control, \
             rated, tiebreaks, vacations_pause, max_players, starts_ms, first_move_ms, schedule, \
             match_games, decider_pairs, sudden_death, groups_count, initial_colour, status, \
             current_round, created_by, created_ms, variant) VALUES ($1, $2, $3, $4, $5, $6, $7, \
             $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, 'open', 0, $19, $20, $21) \
             RETURNING id",
        )
        .bind(t.server_id.clone())
        .bind(t.channel_id.clone())
        .bind(t.name.clone())
        .bind(t.format.clone())
        .bind(t.rounds)
        .bind(t.time_control.clone())
        .bind(flag(t.rated))
        .bind(t.tiebreaks.clone())
        .bind(flag(t.vacations_pause))
        .bind(t.max_players)
        .bind(t.starts_ms)
        .bind(t.first_move_ms)
        .bind(t.schedule.clone())
        .bind(t.match_games)
        .bind(t.decider_pairs)
        .bind(flag(t.sudden_death))
        .bind(t.groups_count)
        .bind(t.initial_colour.clone())
        .bind(t.created_by.clone())
        .bind(t.created_ms)
        .bind(t.variant.key().to_owned())
        .fetch_one(&mut *tx)
        .await?;
        let id: i64 = row.try_get("id")?;
        for e in entrants {
            if insert_entrant(&mut tx, id, e).await? != 1 {
                return Err(StoreError::Conflict);
            }
        }
        tx.commit().await?;
        Ok(TournamentRecord {
            id,
            tournament: t.clone(),
            status: TournamentStatus::Open,
            current_round: 0,
            finished_ms: None,
        })
    }

    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRecord>, StoreError> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(tournament_from_row).transpose()?)
    }

    /// A server's tournaments, newest first: the live ones, or all of them.
    pub async fn tournaments_of(
        &self,
        server_id: &str,
        live_only: bool,
        limit: i64,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let filter = if live_only {
            " AND status IN ('open', 'running', 'paused')"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE server_id = $1{filter} \
             ORDER BY id DESC LIMIT $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(tournament_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// Entrants in order of entry (pairing numbers are given at the start).
    pub async fn entrants(&self, tournament_id: i64) -> Result<Vec<Entrant>, StoreError> {
        let sql = format!(
            "SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = $1 \
             ORDER BY joined_ms, user_id"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(tournament_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(entrant_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// Every board of every round so far, in order.
    pub async fn tournament_games(
        &self,
        tournament_id: i64,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let sql = format!(
            "SELECT {BOARD_COLUMNS} FROM tournament_games WHERE tournament_id = $1 \
             ORDER BY round, board, game_no"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(tournament_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(board_from_row).collect::<Result<_, _>>()?)
    }

    /// The tournament and board a game belongs to, if any.
    pub async fn tournament_of_game(
        &self,
        game_id: i64,
    ) -> Result<Option<(i64, TournamentGame)>, StoreError> {
        let sql = format!(
            "SELECT tournament_id, {BOARD_COLUMNS} FROM tournament_games WHERE game_id = $1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some((row.try_get("tournament_id")?, board_from_row(&row)?)),
            None => None,
        })
    }

    /// Enters a player; [`StoreError::Conflict`] if the tournament is no
    /// longer open or is full, or the player is in already.
    pub async fn join_tournament(
        &self,
        tournament_id: i64,
        entrant: &Entrant,
    ) -> Result<(), StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let written = insert_entrant(&mut tx, tournament_id, entrant)
            .await
            .map_err(|e| on_unique_violation(e, StoreError::Conflict))?;
        if written != 1 {
            return Err(StoreError::Conflict);
        }
        tx.commit().await?;
        Ok(())
    }

    /// Takes a player's entry back before the start; `false` if there was
    /// none or the tournament has started.
    pub async fn leave_tournament(
        &self,
        tournament_id: i64,
        user_id: &str,
    ) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 \
             AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'open')",
        )
        .bind(tournament_id)
        .bind(user_id.to_owned())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Withdraws a player after `round`: not paired in later rounds.
    /// `false` if they were withdrawn already.
    pub async fn withdraw_entrant(
        &self,
        tournament_id: i64,
        user_id: &str,
        round: i64,
    ) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE tournament_entrants SET withdrawn_after = $3 \
             WHERE tournament_id = $1 AND user_id = $2 AND withdrawn_after IS NULL",
        )
        .bind(tournament_id)
        .bind(user_id.to_owned())
        .bind(round)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Starts an open tournament: pairing numbers and sections, the rounds
    /// planned, and the first round's boards (or every round's, for a round
    /// robin played all at once, with `paired_rounds` set to match). The
    /// games created, in board order. [`StoreError::Conflict`] if it was
    /// not open any more (another process started it).
    pub async fn start_tournament(
        &self,
        tournament_id: i64,
        rounds: i64,
        paired_rounds: i64,
        seeding: &[Seeding],
        boards: &[NewBoard],
    ) -> Result<Vec<GameRecord>, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'running', rounds = $2, current_round = $3 \
             WHERE id = $1 AND status = 'open'",
        )
        .bind(tournament_id)
        .bind(rounds)
        .bind(paired_rounds)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        for s in seeding {
            sqlx::query(
                "UPDATE tournament_entrants SET pno = $3, section = $4 \
                 WHERE tournament_id = $1 AND user_id = $2",
            )
            .bind(tournament_id)
            .bind(s.user_id.clone())
            .bind(s.pno)
            .bind(s.section.clone())
            .execute(&mut *tx)
            .await?;
        }
        let games = insert_boards(&mut tx, tournament_id, boards).await?;
        tx.commit().await?;
        Ok(games)
    }

    /// Pairs round `round` (the one after `round − 1`, the current): its
    /// boards and games, in one transaction that only the first writer
    /// gets through. [`StoreError::Conflict`] if another got there first.
    pub async fn pair_tournament_round(
        &self,
        tournament_id: i64,
        round: i64,
        boards: &[NewBoard],
    ) -> Result<Vec<GameRecord>, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET current_round = $2 \
             WHERE id = $1 AND status = 'running' AND current_round = $3",
        )
        .bind(tournament_id)
        .bind(round)
        .bind(round - 1)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        let games = insert_boards(&mut tx, tournament_id, boards).await?;
        tx.commit().await?;
        Ok(games)
    }

    /// Adds boards to the current round (the next game of a knockout
    /// match); [`StoreError::Conflict`] if one is there already.
    pub async fn add_tournament_boards(
        &self,
        tournament_id: i64,
        boards: &[NewBoard],
    ) -> Result<Vec<GameRecord>, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let running: Option<i64> =
            sqlx::query_scalar("SELECT id FROM tournaments WHERE id = $1 AND status = 'running'")
                .bind(tournament_id)
                .fetch_optional(&mut *tx)
                .await?;
        if running.is_none() {
            return Err(StoreError::Conflict);
        }
        let games = insert_boards(&mut tx, tournament_id, boards).await?;
        tx.commit().await?;
        Ok(games)
    }

    /// Sets a board's result (a moderator's decision). With `pending_only`
    /// only a board without a result is written. `false` if nothing was.
    pub async fn set_tournament_result(
        &self,
        tournament_id: i64,
        board: &TournamentGame,
        result: &str,
        set_by: &str,
        pending_only: bool,
    ) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let guard = if pending_only {
            " AND result IS NULL"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE tournament_games SET result = $5, set_by = $6 WHERE tournament_id = $1 \
             AND round = $2 AND board = $3 AND game_no = $4{guard}"
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(tournament_id)
            .bind(board.round)
            .bind(board.board)
            .bind(board.game_no)
            .bind(result.to_owned())
            .bind(set_by.to_owned())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Moves a tournament from one of `from` to `to` (pause, resume,
    /// cancel, finish); `false` if it was in none of them.
    pub async fn set_tournament_status(
        &self,
        tournament_id: i64,
        from: &[TournamentStatus],
        to: TournamentStatus,
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let allowed = from
            .iter()
            .map(|s| format!("'{}'", s.id()))
            .collect::<Vec<_>>()
            .join(", ");
        let ends = matches!(to, TournamentStatus::Finished | TournamentStatus::Cancelled);
        let sql = format!(
            "UPDATE tournaments SET status = $2, finished_ms = $3 \
             WHERE id = $1 AND status IN ({allowed})"
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(tournament_id)
            .bind(to.id())
            .bind(ends.then_some(at_ms))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Tournaments with something to do: running ones with no board
    /// pending (a round to pair, a match game to schedule, or the end), and
    /// open ones whose start time has come.
    pub async fn tournaments_due(&self, now_ms: i64) -> Result<Vec<i64>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT id FROM tournaments t WHERE (status = 'running' AND NOT EXISTS \
             (SELECT 1 FROM tournament_games g WHERE g.tournament_id = t.id AND g.result IS NULL)) \
             OR (status = 'open' AND starts_ms IS NOT NULL AND starts_ms <= $1) ORDER BY id",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// Tournament games still waiting for their thread (a restart between
    /// pairing and opening it), oldest first.
    pub async fn tournament_games_without_place(&self) -> Result<Vec<i64>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT g.id FROM games g JOIN tournament_games t ON t.game_id = g.id \
             WHERE g.channel_id IS NULL AND g.status = 'active' ORDER BY g.id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }
}
