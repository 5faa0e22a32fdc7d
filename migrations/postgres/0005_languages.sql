-- Languages (issue 15). A server's language for public messages (`en`,
-- `zh-CN`; NULL: follow the server's Discord locale, else English), the
-- Discord locale last reported for the server, the notation of moves in
-- replies (`letters`, `chinese`; NULL: follow the language), and each
-- player's last known client locale (for notices sent with no command,
-- such as DM summaries).
ALTER TABLE servers ADD COLUMN language TEXT;
ALTER TABLE servers ADD COLUMN discord_locale TEXT;
ALTER TABLE servers ADD COLUMN notation TEXT;
ALTER TABLE players ADD COLUMN locale TEXT;
