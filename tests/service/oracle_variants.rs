//! lichess's other variants (Crazyhouse, Atomic, Antichess, King of the
//! Hill, Three-check, Horde, Racing Kings) against an outside
//! implementation: random games played through the service (challenge,
//! accept, `/move`, `/pgn`), each position checked against python-chess
//! (PyPI `chess`, its `chess.variant` boards), which shares no code with
//! shakmaty.
//!
//! After every move: the legal moves (UCI, drops as `N@f3`) of the game as
//! the store holds it and replays it, the FEN (pockets, promoted pieces,
//! checks left), whether the game is over, with a reason python-chess also
//! finds (it reports every reason that holds: the variant's own ending,
//! checkmate, stalemate, …), the result, and the draw the side to move may
//! claim. Every few moves an illegal move is tried and must be refused
//! privately, and so is a drop that cannot be made. At the end: the game's
//! PGN (`/pgn`) read by python-chess and by the bot's own import, both
//! replaying to the same position. Every fourth game starts from a FEN
//! reached by a few random moves (`/challenge fen:`), so FENs with pockets
//! and checks are read as well as written.
//!
//! The games lean on each variant's special rules: drops and captures
//! (Crazyhouse), explosions (Atomic), checks (Three-check), the king
//! walking to the centre (King of the Hill), the horde's pawns advancing
//! (Horde), kings racing up the board (Racing Kings); Antichess's captures
//! are forced anyway. Moves are typed as UCI or as SAN, drops also as
//! `@e4` for a pawn.
//!
//! `cargo test` plays one game per variant (`VARIANTS_ORACLE_GAMES`,
//! games per variant); the full run is documented in `docs/variants.md`:
//!
//! ```text
//! VARIANTS_ORACLE_GAMES=1000 VARIANTS_ORACLE_SEED=27 \
//!   cargo test --test service oracle_variants -- --nocapture
//! ```
//!
//! (`VARIANTS_ORACLE_ONLY=atomic` plays one variant.) Skipped with a
//! notice where python3 or `chess` is missing, except under CI, where that
//! fails (`.ci/run` installs it).

use std::{
    collections::BTreeMap,
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command as Process, Stdio},
    sync::Arc,
};

use chessbot::{
    chess::{pgn, Game, Variant},
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{Actor, ColorChoice, Command, Service, UserRef},
    store::{GameRecord, MoveRecord, ServerSettings, Store},
};
use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};
use serde_json::{json, Value};
use shakmaty::{san::San, uci::UciMove, Color, Position, Role, Square};

use crate::{common, optional};

/// The variants checked here (standard chess and Chess960 have their own
/// checks: the rules suites and `oracle960.rs`).
const VARIANTS: [Variant; 7] = [
    Variant::Crazyhouse,
    Variant::Atomic,
    Variant::Antichess,
    Variant::KingOfTheHill,
    Variant::ThreeCheck,
    Variant::Horde,
    Variant::RacingKings,
];

/// Plies after which a game still running is resigned (Crazyhouse has no
/// move-count draw and Horde's pawns take long to fall).
const MAX_PLIES: usize = 300;

/// python-chess behind a pipe.
struct Oracle {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    fn start() -> Oracle {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/variants/oracle.py"
        );
        let mut child = Process::new("python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Oracle {
            _child: child,
            stdin,
            stdout,
        }
    }

    fn ask(&mut self, request: Value) -> Value {
        writeln!(self.stdin, "{request}").expect("oracle writes");
        self.stdin.flush().expect("oracle flush");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("oracle answers");
        let answer: Value = serde_json::from_str(&line).expect("oracle JSON");
        assert!(answer.get("error").is_none(), "{request} -> {answer}");
        answer
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("a string").to_owned())
        .collect()
}

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: "guild".to_owned(),
        channel: channel.to_owned(),
        user: user.to_owned(),
        name: user.to_owned(),
        locale: None,
        is_moderator: false,
        server_locale: None,
    }
}

/// What the run saw of one variant, for its closing figures.
#[derive(Default)]
struct Figures {
    games: usize,
    from_fen: usize,
    plies: usize,
    positions: usize,
    /// Moves of each kind played: `drop`, `capture`, `check`, `san`, …
    played: BTreeMap<&'static str, usize>,
    illegal_refused: usize,
    drops_refused: usize,
    claims: usize,
    endings: BTreeMap<String, usize>,
    several_reasons: usize,
    pgn_round_trips: usize,
    /// Crazyhouse positions whose FENs differ in the halfmove clock or
    /// the order of a pocket's pieces only (see `play_one`).
    halfmove_clocks_differing: usize,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variant_games_agree_with_python_chess() {
    if !optional::require(
        "python3 with chess (python-chess)",
        optional::python_module("chess"),
        "the variants oracle (tests/service/oracle_variants.rs)",
        "pip install chess",
    ) {
        return;
    }
    let env = |name: &str| std::env::var(name).ok();
    let games: usize = env("VARIANTS_ORACLE_GAMES")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let seed: u64 = env("VARIANTS_ORACLE_SEED")
        .and_then(|v| v.parse().ok())
        .unwrap_or(27);
    let only = env("VARIANTS_ORACLE_ONLY").map(|key| {
        Variant::from_key(&key).unwrap_or_else(|| panic!("VARIANTS_ORACLE_ONLY: no variant {key}"))
    });
    let db = common::TestDb::sqlite();
    let mut defaults = ServerSettings::defaults("");
    defaults.threads = false;
    let store = Store::open(&db.url)
        .await
        .expect("store")
        .with_server_defaults(defaults);
    let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(1_767_268_800_000));
    let service = Service::new(store, renderer, clock);
    let mut oracle = Oracle::start();
    let mut rng = SmallRng::seed_from_u64(seed);
    for variant in VARIANTS
        .into_iter()
        .filter(|v| only.is_none_or(|o| o == *v))
    {
        let mut figures = Figures::default();
        let started = std::time::Instant::now();
        for index in 0..games {
            let channel = format!("{}-{index}", variant.key());
            let from_fen = index % 4 == 3;
            play_one(
                &service,
                &mut oracle,
                &mut rng,
                variant,
                &channel,
                from_fen,
                &mut figures,
            )
            .await;
            figures.games += 1;
            figures.from_fen += usize::from(from_fen);
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{} oracle (seed {seed}): {} games ({} from a FEN), {} plies, {} positions \
             compared, moves played {:?}, {} illegal moves and {} impossible drops refused, \
             {} claimable draws, endings {:?} ({} with several reasons), {} PGN round trips, \
             {} Crazyhouse FENs differing only in the halfmove clock or pocket order, {secs:.1} s",
            variant.key(),
            figures.games,
            figures.from_fen,
            figures.plies,
            figures.positions,
            figures.played,
            figures.illegal_refused,
            figures.drops_refused,
            figures.claims,
            figures.endings,
            figures.several_reasons,
            figures.pgn_round_trips,
            figures.halfmove_clocks_differing,
        );
        assert_eq!(figures.pgn_round_trips, games);
    }
}

/// A FEN a few random plies into a game of `variant` (or its start, if
/// those plies end it).
fn a_few_moves_in(variant: Variant, rng: &mut SmallRng) -> String {
    let mut game = Game::start_of(variant);
    let plies = rng.gen_range(4..14);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        let Some(&mv) = moves.choose(rng) else { break };
        let mut next = game.clone();
        if next.play_move(mv, 0).is_err() || next.is_over() {
            break;
        }
        game = next;
    }
    game.fen()
}

/// The moves among `legal` that lean on the variant's special rule.
fn favoured(variant: Variant, seen: &Value, game: &Game) -> Vec<String> {
    let legal = strings(&seen["legal"]);
    let position = game.position();
    let from_to = |uci: &str| -> Option<(Square, Square)> {
        Some((uci.get(0..2)?.parse().ok()?, uci.get(2..4)?.parse().ok()?))
    };
    let king_move = |uci: &&String| {
        from_to(uci).is_some_and(|(from, _)| position.board().kings().contains(from))
    };
    match variant {
        Variant::Crazyhouse => {
            let drops = strings(&seen["drops"]);
            if drops.is_empty() {
                strings(&seen["captures"])
            } else {
                drops
            }
        }
        Variant::Atomic => strings(&seen["captures"]),
        Variant::ThreeCheck => strings(&seen["checks"]),
        Variant::KingOfTheHill => {
            // Toward d4/e4/d5/e5: the king's distance to the nearest one
            // shrinks.
            let centre = [Square::D4, Square::E4, Square::D5, Square::E5];
            let distance = |sq: Square| centre.iter().map(|c| sq.distance(*c)).min().unwrap_or(0);
            legal
                .iter()
                .filter(king_move)
                .filter(|uci| from_to(uci).is_some_and(|(f, t)| distance(t) < distance(f)))
                .cloned()
                .collect()
        }
        Variant::Horde if game.turn() == Color::White => legal
            .iter()
            .filter(|uci| {
                from_to(uci).is_some_and(|(from, _)| position.board().pawns().contains(from))
            })
            .cloned()
            .collect(),
        Variant::Horde => strings(&seen["captures"]),
        Variant::RacingKings => legal
            .iter()
            .filter(king_move)
            .filter(|uci| from_to(uci).is_some_and(|(f, t)| t.rank() > f.rank()))
            .cloned()
            .collect(),
        _ => Vec::new(),
    }
}

/// How often a favoured move is taken when there is one.
fn lean(variant: Variant) -> f64 {
    match variant {
        Variant::KingOfTheHill | Variant::RacingKings => 0.35,
        _ => 0.6,
    }
}

/// One random game of `variant` in `channel`, checked at every ply.
#[allow(clippy::too_many_arguments)]
async fn play_one(
    service: &Service,
    oracle: &mut Oracle,
    rng: &mut SmallRng,
    variant: Variant,
    channel: &str,
    from_fen: bool,
    figures: &mut Figures,
) {
    let (alice, bob) = (actor("alice", channel), actor("bob", channel));
    let fen = from_fen.then(|| a_few_moves_in(variant, rng));
    let reply = service
        .handle(
            &alice,
            Command::Challenge {
                opponent: Some(UserRef {
                    id: "bob".to_owned(),
                    name: "bob".to_owned(),
                }),
                color: ColorChoice::White,
                rated: Some(fen.is_none()),
                time: Some("14d".to_owned()),
                fen: fen.clone(),
                variant: Some(variant.key().to_owned()),
                position: None,
            },
        )
        .await;
    assert!(!reply.ephemeral, "{variant} {fen:?}: {}", reply.text);
    let reply = service
        .handle(&bob, Command::Accept { challenge: None })
        .await;
    assert!(!reply.ephemeral, "{}", reply.text);
    let mut seen = oracle.ask(json!({"op": "new", "variant": variant.key(), "fen": fen}));
    let mut plies = 0;
    loop {
        let (record, _, game) = stored(service, channel).await;
        assert_eq!(record.game.variant, variant);
        let line: Vec<&str> = game.plies().iter().map(|p| p.uci.as_str()).collect();
        let context = format!(
            "{variant} from {}, ply {plies}, {}, after {}",
            fen.as_deref().unwrap_or("the start"),
            game.fen(),
            line.join(" ")
        );
        figures.positions += 1;
        let theirs = seen["fen"].as_str().expect("fen");
        if variant == Variant::Crazyhouse && game.fen() != theirs {
            // One known difference, in a field no Crazyhouse rule reads
            // (it has no move-count draw): a pawn drop resets the halfmove
            // clock in shakmaty (as a pawn move does) but not in
            // python-chess. And the pieces in a pocket are listed in
            // another order (`[NQp]`, `[QNp]`: the same pocket). Everything
            // else must agree; the plies where the FENs differ are counted.
            let fields = |fen: &str| -> Vec<String> {
                let mut f: Vec<String> = fen.split(' ').map(str::to_owned).collect();
                f.remove(4);
                f[0] = pocket_sorted(&f[0]);
                f
            };
            assert_eq!(fields(&game.fen()), fields(theirs), "{context}");
            figures.halfmove_clocks_differing += 1;
        } else {
            assert_eq!(game.fen(), theirs, "{context}");
        }
        let mut ours: Vec<String> = game
            .position()
            .legal_moves()
            .into_iter()
            .map(|m| game.uci(m))
            .collect();
        ours.sort();
        let legal = strings(&seen["legal"]);
        assert_eq!(ours, legal, "{context}: legal moves");
        let over = seen["over"].as_bool().expect("over");
        assert_eq!(game.is_over(), over, "{context}: over");
        assert_eq!(record.is_active(), !over, "{context}: stored status");
        if over {
            let reasons = strings(&seen["reasons"]);
            let termination = record.state.termination.clone().unwrap_or_default();
            assert!(
                reasons.contains(&termination),
                "{context}: ended by {termination}, python-chess says {reasons:?}"
            );
            let result = match seen["winner"].as_str() {
                Some("white") => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            };
            assert_eq!(record.state.result.as_deref(), Some(result), "{context}");
            if reasons.len() > 1 {
                figures.several_reasons += 1;
            }
            *figures.endings.entry(termination).or_default() += 1;
            break;
        }
        let claim = seen["claim"].as_bool().expect("claim");
        assert_eq!(game.claimable_draw().is_some(), claim, "{context}: claim");
        figures.claims += usize::from(claim);
        let mover = if game.turn() == Color::White {
            &alice
        } else {
            &bob
        };
        if plies >= MAX_PLIES {
            let reply = service
                .handle(mover, Command::Resign { confirmed: true })
                .await;
            assert!(!reply.ephemeral, "{}", reply.text);
            *figures.endings.entry("resignation".to_owned()).or_default() += 1;
            break;
        }
        if plies % 7 == 3 {
            refuse_illegal(service, rng, mover, &legal, &context, figures).await;
        }
        let wanted = favoured(variant, &seen, &game);
        let uci = match wanted.choose(rng) {
            Some(uci) if rng.gen_bool(lean(variant)) => uci.clone(),
            _ => legal.choose(rng).expect("a legal move").clone(),
        };
        let text = typed(rng, &game, &uci, figures);
        count_kind(&seen, &uci, figures);
        let reply = service
            .handle(
                mover,
                Command::Move {
                    text: text.clone(),
                    claim_draw: false,
                },
            )
            .await;
        assert!(!reply.ephemeral, "{context}: {text}: {}", reply.text);
        seen = oracle.ask(json!({"op": "push", "uci": uci}));
        plies += 1;
        figures.plies += 1;
    }
    pgn_round_trip(service, oracle, variant, &alice, channel, figures).await;
}

/// The move `uci` as a player types it: UCI, or SAN (a third of the time),
/// and a pawn drop now and then as lichess's bare `@e4`.
fn typed(rng: &mut SmallRng, game: &Game, uci: &str, figures: &mut Figures) -> String {
    let mv = uci
        .parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(game.position()).ok())
        .expect("python-chess's move is ours too");
    match rng.gen_range(0..3) {
        0 => {
            *figures.played.entry("typed as SAN").or_default() += 1;
            San::from_move(game.position(), mv).to_string()
        }
        1 if uci.starts_with("P@") => {
            *figures.played.entry("typed as @square").or_default() += 1;
            uci[1..].to_owned()
        }
        _ => uci.to_owned(),
    }
}

fn count_kind(seen: &Value, uci: &str, figures: &mut Figures) {
    let has = |field: &str| strings(&seen[field]).iter().any(|m| m == uci);
    for (field, kind) in [
        ("drops", "drop"),
        ("captures", "capture"),
        ("checks", "check"),
    ] {
        if has(field) {
            *figures.played.entry(kind).or_default() += 1;
        }
    }
}

/// A move python-chess calls illegal (squares at random), and a drop that
/// cannot be made: both refused, privately.
async fn refuse_illegal(
    service: &Service,
    rng: &mut SmallRng,
    mover: &Actor,
    legal: &[String],
    context: &str,
    figures: &mut Figures,
) {
    let files = "abcdefgh".as_bytes();
    let square = |rng: &mut SmallRng| {
        format!(
            "{}{}",
            files[rng.gen_range(0..8)] as char,
            rng.gen_range(1..=8)
        )
    };
    // Not from the b-file: the forgiving reader takes `b2c4` as `B2c4` (a
    // bishop from the second rank, SPEC §1's `b…` rule) when that is legal.
    let wrong = loop {
        let text = format!("{}{}", square(rng), square(rng));
        if !legal.contains(&text) && !text.starts_with('b') {
            break text;
        }
    };
    let drop = loop {
        let role = *[
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .choose(rng)
        .expect("a role");
        let text = format!("{}@{}", role.upper_char(), square(rng));
        if !legal.contains(&text) {
            break text;
        }
    };
    for text in [wrong, drop] {
        let reply = service
            .handle(
                mover,
                Command::Move {
                    text: text.clone(),
                    claim_draw: false,
                },
            )
            .await;
        // The next ply's comparison with python-chess checks that nothing
        // was stored.
        assert!(
            reply.ephemeral,
            "{context}: {text} was played: {}",
            reply.text
        );
        if text.contains('@') {
            figures.drops_refused += 1;
        } else {
            figures.illegal_refused += 1;
        }
    }
}

/// The game of `channel` as the store holds it: its row, its moves, and
/// the game they replay to from its start.
async fn stored(service: &Service, channel: &str) -> (GameRecord, Vec<MoveRecord>, Game) {
    let record = service
        .store()
        .latest_game_in(channel)
        .await
        .expect("store")
        .expect("the game");
    let moves = service.store().moves(record.id).await.expect("moves");
    let game = Game::replay_in(
        record.game.variant,
        record.game.initial_fen.as_deref(),
        moves.iter().map(|m| (m.uci.as_str(), m.played_ms)),
    )
    .expect("the stored game replays");
    (record, moves, game)
}

/// The game's `/pgn`, read back by python-chess and by the bot's import:
/// both reach the position the game ended in, in the same variant.
async fn pgn_round_trip(
    service: &Service,
    oracle: &mut Oracle,
    variant: Variant,
    alice: &Actor,
    channel: &str,
    figures: &mut Figures,
) {
    let (record, moves, game) = stored(service, channel).await;
    let reply = service
        .handle(
            alice,
            Command::Pgn {
                game: Some(record.id),
            },
        )
        .await;
    let text = reply
        .files
        .iter()
        .find(|f| f.file_name.ends_with(".pgn"))
        .map(|f| String::from_utf8(f.bytes.clone()).expect("utf-8"))
        .expect("a PGN file");
    let theirs = oracle.ask(json!({"op": "pgn", "text": text}));
    assert_eq!(strings(&theirs["errors"]), Vec::<String>::new(), "{text}");
    assert_eq!(theirs["variant"].as_str(), variant.pgn_tag(), "{text}");
    assert_eq!(
        theirs["uci_variant"].as_str(),
        Some(variant.uci_variant()),
        "{text}"
    );
    assert_eq!(theirs["plies"], json!(moves.len()));
    let (ours_fen, their_fen) = (
        game.fen(),
        theirs["fen"].as_str().unwrap_or_default().to_owned(),
    );
    if variant == Variant::Crazyhouse {
        // The halfmove clock aside (see `play_one`).
        let cut = |fen: &str| {
            let mut f: Vec<String> = fen.split(' ').map(str::to_owned).collect();
            f.remove(4);
            f[0] = pocket_sorted(&f[0]);
            f.join(" ")
        };
        assert_eq!(cut(&their_fen), cut(&ours_fen), "{text}");
    } else {
        assert_eq!(their_fen, ours_fen, "{text}");
    }
    assert_eq!(
        theirs["result"].as_str(),
        record.state.result.as_deref(),
        "{text}"
    );
    let ours = pgn::import(&text).expect("the bot reads its own PGN");
    assert_eq!(ours.game.variant(), variant);
    assert_eq!(ours.game.fen(), game.fen());
    assert_eq!(ours.game.plies().len(), moves.len());
    figures.pgn_round_trips += 1;
}

/// A Crazyhouse board field with its pocket's pieces in one order.
fn pocket_sorted(board: &str) -> String {
    match board.split_once('[') {
        Some((squares, pocket)) => {
            let mut pieces: Vec<char> = pocket.trim_end_matches(']').chars().collect();
            pieces.sort_unstable();
            format!("{squares}[{}]", pieces.into_iter().collect::<String>())
        }
        None => board.to_owned(),
    }
}
