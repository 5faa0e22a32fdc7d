-- The web board (issue 25): whether a server lets anyone with a game's
-- public link watch its live board, and the secret the board's links are
-- signed with (one row, made on first use when the configuration names
-- none; never shown).
ALTER TABLE servers ADD COLUMN spectators INTEGER NOT NULL DEFAULT 1;

CREATE TABLE web_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
