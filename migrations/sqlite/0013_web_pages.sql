-- The club's pages on the web (issue 26): per server, whether its
-- tournaments, ladder, profiles and games are served ('off', the default;
-- 'link': at unlisted addresses under an unguessable slug; 'public': the
-- same addresses, listed on the site's front page), and that slug (made
-- the first time the pages are turned on, kept after).
ALTER TABLE servers ADD COLUMN web_pages TEXT NOT NULL DEFAULT 'off';
ALTER TABLE servers ADD COLUMN web_slug TEXT;
CREATE UNIQUE INDEX servers_web_slug ON servers (web_slug);
