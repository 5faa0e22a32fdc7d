//! The club's pages over HTTP (issue 26): `/settings web` turns them on
//! (`link`: unlisted, `public`: listed on the front page) and off (every
//! address a 404, as for a club that never existed); names from users are
//! escaped; `/privacy forget` takes a player off every page; the ladder
//! pages by fifty; a Swiss tournament's page holds pairings, standings
//! with its tie-break columns, the crosstable and each player's card, and
//! its TRF and PGN; a knockout is drawn as a bracket; the game viewer and
//! its PNG board; bad requests change nothing.

use chessbot::service::{Command, TournamentCommand};

use crate::club_support::{ClubBed, LOBBY, SERVER};

const EVIL: &str = "<script>alert(1)</script>";

/// The Scholar's mate: White mates on move 4.
const SCHOLAR: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_follow_the_setting_escape_names_and_forget_players() {
    let mut bed = ClubBed::start().await;
    let game = bed.new_game(("alice", "alice"), ("evil", EVIL)).await;
    bed.play(game, &SCHOLAR, "*").await;
    // The bot keeps `<` and `>` out of the names it stores; a name that
    // came in some other way (an older version, a restored backup) must
    // still be text on a page.
    bed.service
        .store()
        .touch_player(SERVER, "evil", EVIL)
        .await
        .unwrap();

    // Off (the default): no slug, and any club address is a 404.
    let settings = bed.service.store().server(SERVER).await.unwrap();
    assert_eq!(settings.web_slug, None);
    let made_up = bed.page("/club/abcdefghijklmnopqrstuvwxyz/ladder").await;
    assert_eq!(made_up.status, 404);

    // Not a moderator: refused, nothing changes.
    let before = bed.service.store().server(SERVER).await.unwrap();
    let refused = bed
        .run_in(
            "alice",
            LOBBY,
            Command::Settings {
                changes: vec![chessbot::service::Setting::WebPages("public".into())],
            },
        )
        .await;
    assert!(refused.ephemeral, "{}", refused.text);
    assert_eq!(bed.service.store().server(SERVER).await.unwrap(), before);
    // A value it does not know: refused by name, nothing changes.
    let refused = bed.set_web("everyone").await;
    assert!(refused.ephemeral);
    assert!(
        refused.text.contains("everyone") && refused.text.contains("`link`"),
        "{}",
        refused.text
    );
    assert_eq!(bed.service.store().server(SERVER).await.unwrap(), before);

    // Link: the answer gives the address; the pages serve, unlisted.
    let on = bed.set_web("link").await;
    assert!(!on.ephemeral, "{}", on.text);
    let slug = bed.slug().await;
    assert!(
        on.text.contains(&format!(" at {}/club/{slug}.", bed.base)),
        "{}",
        on.text
    );
    // The address as given opens the club's front page; so does the form
    // with a final slash that earlier answers gave.
    for path in [format!("/club/{slug}"), format!("/club/{slug}/")] {
        assert_eq!(bed.page(&path).await.status, 200, "{path}");
    }
    let ladder = bed.club_page("/ladder").await;
    assert_eq!(ladder.status, 200);
    assert!(
        ladder.body.contains("noindex"),
        "an unlisted club is not indexed"
    );
    assert!(ladder
        .body
        .contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!ladder.body.contains(EVIL), "a name is text, never markup");
    assert!(
        ladder
            .header("content-security-policy")
            .is_some_and(|csp| csp.contains("script-src 'self'")),
        "no inline script can run"
    );
    let index = bed.page("/").await;
    assert!(
        !index.body.contains(&slug),
        "an unlisted club is not on the front page"
    );

    // The game viewer, its PGN and its board image.
    let viewer = bed.club_page(&format!("/game/{game}")).await;
    assert_eq!(viewer.status, 200);
    assert!(viewer.body.contains("Qxf7#"), "the moves");
    assert!(viewer.body.contains("&lt;script&gt;"));
    assert!(!viewer.body.contains(EVIL));
    let pgn = bed.club_page(&format!("/game/{game}/pgn")).await;
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.contains("4. Qxf7# 1-0"), "{}", pgn.body);
    assert!(pgn
        .header("content-disposition")
        .is_some_and(|d| d.contains(".pgn")));
    let image =
        crate::web_support::get_bytes(&format!("{}/club/{slug}/game/{game}/board?ply=3", bed.base))
            .await;
    assert!(
        image.starts_with(b"\x89PNG"),
        "the board after 2. Bc4 as a PNG"
    );
    // The board image says what it shows, for screen readers.
    let at_three = bed.club_page(&format!("/game/{game}?ply=3")).await;
    assert!(
        at_three
            .body
            .contains("alt=\"Black to move. Last move: Bc4.")
            && at_three.body.contains("White: Ke1"),
        "the position in words"
    );
    // Malformed steps are not errors: the last position.
    let odd = bed.club_page(&format!("/game/{game}?ply=banana")).await;
    assert_eq!(odd.status, 200);

    // A profile, with its link under /profile in Discord.
    let profile = bed.club_page("/player/alice").await;
    assert_eq!(profile.status, 200);
    assert!(
        profile.body.contains("<svg class=\"chart points\""),
        "the points chart"
    );
    // Her points carry the provisional `?`, explained as on the ladder.
    assert!(
        profile
            .body
            .contains("<p class=\"note\">? = provisional (fewer than 50 rated games)</p>"),
        "{}",
        profile.body
    );
    let reply = bed
        .run_in("alice", LOBBY, Command::Profile { user: None })
        .await;
    let link = reply
        .buttons
        .iter()
        .find(|b| b.id.contains(&format!("/club/{slug}/player/alice")));
    assert!(
        link.is_some(),
        "/profile links its page: {:?}",
        reply.buttons
    );
    let board = bed
        .run_in(
            "alice",
            LOBBY,
            Command::Leaderboard {
                page: 1,
                variant: None,
            },
        )
        .await;
    assert!(
        board
            .buttons
            .iter()
            .any(|b| b.id.ends_with(&format!("/club/{slug}/ladder?page=1"))),
        "{:?}",
        board.buttons
    );

    // Unknown pages of the club are 404s too.
    assert_eq!(bed.club_page("/game/999999").await.status, 404);
    assert_eq!(bed.club_page("/player/nobody").await.status, 404);
    assert_eq!(bed.club_page("/tournament/abc").await.status, 404);

    // Public: listed on the front page, indexable.
    bed.set_web("public").await;
    assert_eq!(bed.slug().await, slug, "the address stays");
    let index = bed.page("/").await;
    assert!(
        index.body.contains(&format!("/club/{slug}")),
        "{}",
        index.body
    );
    assert!(!bed.club_page("/ladder").await.body.contains("noindex"));

    // Forgotten: the player is on no page any more.
    let r = bed
        .run_named(
            "evil",
            EVIL,
            LOBBY,
            Command::PrivacyForget { confirmed: true },
        )
        .await;
    assert!(r.ephemeral, "{}", r.text);
    for path in [
        "/ladder".to_owned(),
        format!("/game/{game}"),
        "/player/evil".to_owned(),
    ] {
        let page = bed.club_page(&path).await;
        assert!(
            !page.body.contains("&lt;script&gt;"),
            "{path} still names the player"
        );
    }
    assert_eq!(bed.club_page("/player/evil").await.status, 404);

    // Off again: every address is a 404 as for a club that never was.
    bed.set_web("off").await;
    for path in ["", "/ladder", "/player/alice"] {
        assert_eq!(bed.club_page(path).await.status, 404, "{path}");
    }
    let game_page = bed.club_page(&format!("/game/{game}")).await;
    assert_eq!(game_page.status, 404);
    assert_eq!(
        game_page.body, made_up.body,
        "off and unknown look the same"
    );
    assert!(!bed.page("/").await.body.contains(&slug));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_pages_by_fifty() {
    let mut bed = ClubBed::start().await;
    bed.set_web("link").await;
    // 120 players on the ladder, points falling by one each.
    bed.service.store().server(SERVER).await.unwrap();
    for i in 0..120 {
        sqlx::query(
            "INSERT INTO players (server_id, user_id, display_name, points, rated_games, wins) \
             VALUES ($1, $2, $3, $4, $5, 1)",
        )
        .bind(SERVER)
        .bind(format!("u{i:03}"))
        .bind(format!("Player {i:03}"))
        .bind(150_000 - i * 100)
        .bind(if i < 60 { 60 } else { 3 })
        .execute(bed.service.store().pool())
        .await
        .unwrap();
    }
    let first = bed.club_page("/ladder").await;
    assert_eq!(
        first.body.matches("<tr").count(),
        51,
        "50 players and the heading"
    );
    assert!(first.body.contains("Player 000") && first.body.contains("Player 049"));
    assert!(!first.body.contains("Player 050"));
    assert!(first.body.contains("rel=\"next\"") && !first.body.contains("rel=\"prev\""));
    let third = bed.club_page("/ladder?page=3").await;
    assert_eq!(third.body.matches("<tr").count(), 21);
    assert!(third.body.contains("Page 3 of 3"));
    assert!(
        third.body.contains("class=\"provisional\""),
        "fewer than 50 rated games"
    );
    assert!(third.body.contains("Player 119"));
    for bad in ["4", "0", "-1", "two"] {
        assert_eq!(
            bed.club_page(&format!("/ladder?page={bad}")).await.status,
            404,
            "{bad}"
        );
    }
    let zh = bed.club_page("/ladder?page=2&lang=zh-CN").await;
    assert!(zh.body.contains("天梯排名") && zh.body.contains("第 2 页，共 3 页"));
    assert!(zh
        .header("set-cookie")
        .is_some_and(|c| c.contains("chessbot_lang=zh-CN")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_page_and_a_knockout_bracket() {
    let mut bed = ClubBed::start().await;
    bed.set_web("link").await;
    let swiss = crate::club_support::tournament(&mut bed, "Autumn Swiss", "swiss", 9, 3).await;
    let results = ["1-0", "0-1", "1/2-1/2"];
    for round in 1..=3 {
        for (k, game) in bed.pending_games(swiss).await.into_iter().enumerate() {
            bed.play(game, &["e4", "e5"], results[(k + round) % 3])
                .await;
        }
    }
    let page = bed.club_page(&format!("/tournament/{swiss}")).await;
    assert_eq!(page.status, 200);
    let body = &page.body;
    for part in [
        "id=\"standings\"",
        "id=\"crosstable\"",
        "id=\"pairings\"",
        "id=\"cards\"",
        "id=\"round-3\"",
    ] {
        assert!(body.contains(part), "{part}");
    }
    for heading in ["BH-C1", "BH", "SB"] {
        assert!(
            body.contains(&format!(">{heading}</th>")),
            "the tie-break column {heading}"
        );
    }
    assert_eq!(
        body.matches("class=\"card\"").count(),
        9,
        "a card per player"
    );
    assert!(
        body.contains("Bye") || body.contains("bye"),
        "nine players: a bye each round"
    );
    let trf = bed.club_page(&format!("/tournament/{swiss}/trf")).await;
    assert_eq!(trf.status, 200);
    assert!(
        trf.body.lines().filter(|l| l.starts_with("001 ")).count() == 9,
        "{}",
        trf.body
    );
    let pgn = bed.club_page(&format!("/tournament/{swiss}/pgn")).await;
    assert!(pgn.body.matches("[Event \"Autumn Swiss\"]").count() >= 12);

    let knockout = crate::club_support::tournament(&mut bed, "Cup", "knockout", 4, 0).await;
    for _ in 0..2 {
        for game in bed.pending_games(knockout).await {
            bed.play(game, &["d4", "d5"], "1-0").await;
        }
    }
    let page = bed.club_page(&format!("/tournament/{knockout}")).await;
    let body = &page.body;
    assert!(
        body.contains("class=\"bracket\""),
        "a knockout is drawn as a bracket"
    );
    assert_eq!(body.matches("class=\"bracket-round\"").count(), 2);
    assert_eq!(
        body.matches("class=\"match\"").count(),
        3,
        "two semi-finals and a final"
    );
    let record = bed
        .service
        .store()
        .tournament(knockout)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(record.status, chessbot::store::TournamentStatus::Finished);
    // A team match: the standings rank the teams by game points.
    let r = bed
        .run_in(
            "mod",
            LOBBY,
            Command::Tournament(TournamentCommand::Create(
                chessbot::service::TournamentOptions {
                    name: "Team <Cup> & \"Co\"".into(),
                    format: Some("team".into()),
                    rated: Some(false),
                    teams: Some("Red: t1 t2; Blue: t3 t4".into()),
                    ..chessbot::service::TournamentOptions::default()
                },
            )),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let teams = bed
        .service
        .store()
        .tournaments_of(SERVER, false, 1)
        .await
        .unwrap()[0]
        .id;
    bed.run_in(
        "mod",
        LOBBY,
        Command::Tournament(TournamentCommand::Start {
            tournament: Some(format!("#{teams}")),
        }),
    )
    .await;
    let results = ["1-0", "1/2-1/2"];
    for (k, game) in bed.pending_games(teams).await.into_iter().enumerate() {
        bed.play(game, &["c4", "c5"], results[k % 2]).await;
    }
    let page = bed.club_page(&format!("/tournament/{teams}")).await;
    assert_eq!(page.status, 200);
    let standings = page
        .body
        .split("id=\"crosstable\"")
        .next()
        .unwrap()
        .to_owned();
    assert!(standings.contains(">Team</th>"), "teams, not players");
    assert!(standings.contains("Red") && standings.contains("Blue"));
    assert!(standings.contains("<b>1½</b>"), "Red's game points: 1 + ½");
    assert!(
        page.body.contains("Team &lt;Cup&gt; &amp; &quot;Co&quot;")
            || page.body.contains("Team  Cup  &amp; &quot;Co&quot;"),
        "a tournament's name is text"
    );

    // The tournament's answers in Discord carry the page's link.
    let info = bed
        .run_in(
            "mod",
            LOBBY,
            Command::Tournament(TournamentCommand::Info {
                tournament: Some(format!("#{knockout}")),
            }),
        )
        .await;
    assert!(info
        .buttons
        .iter()
        .any(|b| b.id.ends_with(&format!("/tournament/{knockout}"))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_variant_has_its_ladder_page() {
    let mut bed = ClubBed::start().await;
    let game = bed
        .new_game_in(("alice", "alice"), ("bob", "bob"), Some("crazyhouse"))
        .await;
    bed.play(game, &SCHOLAR, "*").await;
    bed.set_web("link").await;

    // The standard ladder has nobody yet; Crazyhouse's has both.
    let standard = bed.club_page("/ladder").await;
    assert_eq!(standard.status, 200);
    assert!(!standard.body.contains(">alice</a>"), "{}", standard.body);
    assert!(
        standard
            .body
            .contains("ladder?variant=crazyhouse\">Crazyhouse</a>"),
        "a link to each variant's ladder"
    );
    let house = bed.club_page("/ladder?variant=crazyhouse").await;
    assert_eq!(house.status, 200);
    assert!(house.body.contains("<h1>Ladder: Crazyhouse</h1>"));
    assert!(house.body.contains(">alice</a>") && house.body.contains(">bob</a>"));
    assert!(house
        .body
        .contains("ladder?variant=crazyhouse\" aria-current=\"page\""));
    // Another variant's ladder is empty; an unknown one is no page.
    let atomic = bed.club_page("/ladder?variant=atomic").await;
    assert_eq!(atomic.status, 200);
    assert!(!atomic.body.contains(">alice</a>"));
    assert_eq!(bed.club_page("/ladder?variant=bughouse").await.status, 404);
    // The game's history line names its variant.
    let profile = bed.club_page("/player/alice").await;
    assert!(profile.body.contains(" · Crazyhouse"), "{}", profile.body);
}

/// The console with the web on: turning the pages on gives an address that
/// opens the club, a link button prints the address it opens, and clicking
/// it says where it leads instead of pressing anything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_shows_where_a_link_button_leads() {
    let dir = tempfile::tempdir().unwrap();
    let (mut console, addr) = console_with_web(&dir, None).await;
    // Line by line: `run` closes the store at the end of its input.
    let mut out = Vec::new();
    for line in [
        "admin: /settings web:link threads:false",
        // A rated game, so the ladder has a page to link to.
        "alice: /challenge @bob color:white rated:true",
        "bob: click Accept",
        "alice: /move e4",
        "bob: /move e5",
        "alice: /resign confirm:true",
        "admin: /leaderboard",
        "admin: click Open the page",
    ] {
        console.run_line(line, &mut out).await.unwrap();
    }
    let out = String::from_utf8(out).unwrap();
    let base = format!("http://{addr}/club/");
    // The confirmation's address, as given, is the club's front page.
    let home = out
        .lines()
        .find(|line| line.contains("Settings changed"))
        .and_then(|line| line.split(" at ").nth(1))
        .and_then(|rest| rest.split([' ', ';']).next())
        .map(|url| url.trim_end_matches('.'))
        .unwrap_or_else(|| panic!("no address in {out}"));
    assert!(home.starts_with(&base), "{out}");
    assert_eq!(
        crate::web_support::get(home, &[]).await.status,
        200,
        "{home}"
    );
    // The board of the game just resigned offers its page, no longer Play
    // in browser (the buttons followed the game before the ending).
    let ended = out
        .lines()
        .find(|line| line.contains("[Rematch]"))
        .unwrap_or_else(|| panic!("no game-over buttons in {out}"));
    assert!(
        ended.contains(&format!("[Open the page → {home}/game/")),
        "{ended}"
    );
    assert!(!ended.contains("Play in browser"), "{ended}");
    // The leaderboard's link button prints what it opens, and that serves.
    let ladder = format!("{home}/ladder?page=1");
    assert!(
        out.contains(&format!("[Open the page → {ladder}]")),
        "{out}"
    );
    assert_eq!(crate::web_support::get(&ladder, &[]).await.status, 200);
    // A click names the address; the bot is not asked about a button.
    assert!(
        out.contains(&format!("that button opens {ladder} in the browser")),
        "{out}"
    );
    assert!(!out.contains("no longer"), "{out}");
    // Sent to the bot, the address would be refused as an unknown button.
    assert!(!out.contains("not one of mine"), "{out}");
}

/// The address in a Chinese confirmation ends where Discord's link ends: its
/// autolinker takes everything up to whitespace (then drops trailing ASCII
/// punctuation only), so a full-width `。` or `，` right after the address
/// would become part of the link and the link a 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_confirmation_ends_its_address_where_discord_does() {
    let dir = tempfile::tempdir().unwrap();
    let (mut console, _) = console_with_web(&dir, Some("zh-CN")).await;
    let mut out = Vec::new();
    for line in [
        "admin: /settings web:public",
        // Two changes at once: the address is followed by the next one.
        "admin: /settings web:link threads:false",
    ] {
        console.run_line(line, &mut out).await.unwrap();
    }
    let out = String::from_utf8(out).unwrap();
    let confirmations: Vec<&str> = out.lines().filter(|l| l.contains("网址：")).collect();
    assert_eq!(confirmations.len(), 2, "{out}");
    for line in confirmations {
        let link = discord_link_in(line).unwrap_or_else(|| panic!("no link in {line}"));
        assert_eq!(
            crate::web_support::get(&link, &[]).await.status,
            200,
            "{link} in {line}"
        );
    }
}

/// The first link Discord's client would make of `text`: `https?://`, then
/// everything up to whitespace or `<`, less a trailing ASCII `.,:;"')]`.
fn discord_link_in(text: &str) -> Option<String> {
    let start = text.find("http://").or_else(|| text.find("https://"))?;
    let rest = &text[start..];
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '<')
        .unwrap_or(rest.len());
    Some(
        rest[..end]
            .trim_end_matches(['.', ',', ':', ';', '"', '\'', ')', ']'])
            .to_owned(),
    )
}

/// A console on a database in `dir`, with `admin` its moderator, speaking
/// `locale` (else English), and the web on at a free address.
async fn console_with_web(
    dir: &tempfile::TempDir,
    locale: Option<&str>,
) -> (chessbot::platform::console::Console, std::net::SocketAddr) {
    use chessbot::{
        platform::console::{Console, ConsoleOptions},
        render::{RenderConfig, Renderer},
    };
    let addr = crate::web_support::free_addr();
    let console = Console::new(ConsoleOptions {
        database_url: format!("sqlite:{}", dir.path().join("c.db").display()),
        out_dir: None,
        moderators: vec!["admin".to_owned()],
        echo: false,
        renderer: std::sync::Arc::new(Renderer::new(RenderConfig::default()).unwrap()),
        locale: locale.map(str::to_owned),
        seed: Some(1),
        web: Some(addr),
    })
    .await
    .unwrap();
    (console, addr)
}
