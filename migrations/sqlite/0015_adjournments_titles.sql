-- Issue 29: adjourned games (封棋) with a sealed move, and FIDE titles.
--
-- A player's title on a server (GM, IM, FM, WGM, WIM), set by moderators.
ALTER TABLE players ADD COLUMN title TEXT;
-- Hours in one session of a live game (seed 001: 5小时为1场), after which a
-- game whose players have made the moves their control requires is
-- adjourned; and the server's time zone, as minutes east of UTC, in which
-- moderators give resumption times.
ALTER TABLE servers ADD COLUMN session_hours INTEGER NOT NULL DEFAULT 5;
ALTER TABLE servers ADD COLUMN utc_offset_minutes INTEGER NOT NULL DEFAULT 0;
-- One adjournment of a game: when (at ply `ply`), why (`session`,
-- `agreed`, `arbiter`), the sealer's colour, the sealed move (shown to
-- nobody until resumption), the resumption time and when it resumed. The
-- sealer's clock runs until `sealed_ms`; no clock runs from then until
-- `resumed_ms`. A game has at most one open adjournment. A player's
-- proposed resumption time waits in `proposed_by` (a colour) and
-- `proposed_ms` until the opponent agrees.
CREATE TABLE adjournments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id        INTEGER NOT NULL REFERENCES games (id),
    ply            INTEGER NOT NULL,
    reason         TEXT    NOT NULL,
    adjourned_ms   INTEGER NOT NULL,
    sealer         TEXT    NOT NULL,
    sealed_uci     TEXT,
    sealed_ms      INTEGER,
    resume_ms      INTEGER,
    resumed_ms     INTEGER,
    reminded_hours INTEGER,
    proposed_by    TEXT,
    proposed_ms    INTEGER
);
CREATE UNIQUE INDEX adjournments_open ON adjournments (game_id) WHERE resumed_ms IS NULL;
CREATE INDEX adjournments_by_game ON adjournments (game_id, ply);
CREATE INDEX adjournments_due ON adjournments (resume_ms) WHERE resumed_ms IS NULL;
-- A player's offer to adjourn (by colour), standing while the game still
-- has `ply` half-moves.
CREATE TABLE adjourn_offers (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    offered_by TEXT NOT NULL,
    ply INTEGER NOT NULL
);
