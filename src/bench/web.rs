//! `chessbot bench --web`: the live web board under load, side by side
//! with the move path without it, in the same run on the same games.
//!
//! - For 1, 100 and 1,000 concurrent games, each with both players'
//!   sockets open: the time from a move sent on the mover's socket until
//!   the opponent's socket has the new position; then the same moves
//!   through [`Service::handle`] alone (what a Discord move costs the
//!   service). The phases alternate (web, direct, web, direct) so a noisy
//!   moment of the machine falls on both.
//! - One game watched by 1,000 spectators' sockets: the time from a move
//!   until the last of them has it.
//! - The page's weight: the HTML and every file it loads, raw and
//!   compressed (deflate level 9, as gzip sends it, plus its 18-byte
//!   frame).

use std::{sync::Arc, time::Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
use shakmaty::{uci::UciMove, CastlingMode, Chess, Position};
use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Message};

use super::{report::Samples, throughput::actor, BenchArgs};
use crate::{
    clock::{Clock, SystemClock},
    render::{RenderConfig, Renderer},
    service::{
        links::{Purpose, WebLinks, SESSION_VALID_MS},
        ColorChoice, Command, Service, UserRef,
    },
};

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Moves timed in each phase, over all its games (at least 6 per game).
const MOVES_PER_PHASE: usize = 300;
/// Alternations of the web and the direct phase.
const ROUNDS: usize = 2;

pub async fn run(args: &BenchArgs, url: &str) -> anyhow::Result<()> {
    let renderer = Arc::new(Renderer::new(RenderConfig::default())?);
    let store = crate::store::Store::open(url).await?;
    let service = Service::new(store, renderer, Arc::new(SystemClock));
    super::throughput::configure(&service).await?;
    let links = WebLinks::new("http://127.0.0.1", b"bench secret");
    let options = crate::platform::web::WebOptions {
        links: links.clone(),
        activity: None,
    };
    let (addr, _server) =
        crate::platform::web::start(service.clone(), "127.0.0.1:0".parse()?, options).await?;
    println!(
        "chessbot bench --web: on {}, {} cores; {MOVES_PER_PHASE} moves per phase (at least 6 a game), {ROUNDS} rounds of each",
        super::database::describe(url),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "{:>6} {:>14} {:>14} {:>14} {:>14} {:>13}",
        "games", "web p50 ms", "web p99 ms", "direct p50", "direct p99", "web adds p99"
    );
    let mut first_game = None;
    for games in [1usize, 100, 1000]
        .into_iter()
        .filter(|g| *g <= args.games.max(1))
    {
        let set = GameSet::start(&service, &links, addr, games).await?;
        first_game.get_or_insert(set.games[0].id);
        let (mut web, mut direct) = (Samples::default(), Samples::default());
        let mut set = set;
        for round in 0..ROUNDS {
            set = set.play_web(round as u64).await?.into_samples(&mut web);
            set = set
                .play_direct(&service, round as u64)
                .await?
                .into_samples(&mut direct);
        }
        println!(
            "{:>6} {:>14.3} {:>14.3} {:>14.3} {:>14.3} {:>13.3}",
            games,
            web.quantile_ms(0.5),
            web.quantile_ms(0.99),
            direct.quantile_ms(0.5),
            direct.quantile_ms(0.99),
            web.quantile_ms(0.99) - direct.quantile_ms(0.99)
        );
        set.close().await;
    }
    watchers(&service, addr, 1000).await?;
    if let Some(game) = first_game {
        page_weight(addr, game).await?;
    }
    Ok(())
}

/// One game with both players' sockets.
struct LiveGame {
    id: i64,
    channel: String,
    white: String,
    black: String,
    position: Chess,
    sockets: [Socket; 2],
}

/// Games played together, and the latencies of the last phase.
struct GameSet {
    games: Vec<LiveGame>,
    samples: Samples,
}

impl GameSet {
    async fn start(
        service: &Service,
        links: &WebLinks,
        addr: std::net::SocketAddr,
        count: usize,
    ) -> anyhow::Result<GameSet> {
        let mut games = Vec::with_capacity(count);
        for i in 0..count {
            let channel = format!("web{count}-{i}");
            let (white, black) = (format!("ww{count}-{i}"), format!("wb{count}-{i}"));
            let id = start_game(service, &channel, &white, &black).await?;
            let expires = SystemClock.now_ms() + SESSION_VALID_MS;
            let mut sockets = Vec::new();
            for user in [&white, &black] {
                let cookie = links.sign(Purpose::Session, 0, user, expires);
                let mut socket = connect(addr, id, Some(&cookie)).await?;
                next_state(&mut socket).await?;
                sockets.push(socket);
            }
            let [w, b]: [Socket; 2] = sockets
                .try_into()
                .map_err(|_| anyhow::anyhow!("two sockets"))?;
            games.push(LiveGame {
                id,
                channel,
                white,
                black,
                position: Chess::default(),
                sockets: [w, b],
            });
        }
        Ok(GameSet {
            games,
            samples: Samples::default(),
        })
    }

    /// Every game plays its moves on the sockets, all games at once.
    async fn play_web(self, seed: u64) -> anyhow::Result<GameSet> {
        let moves_per_game = (MOVES_PER_PHASE / self.games.len()).max(6);
        let tasks: Vec<_> = self
            .games
            .into_iter()
            .enumerate()
            .map(|(i, mut game)| {
                tokio::spawn(async move {
                    let mut rng = SmallRng::seed_from_u64(seed * 1_000_003 + i as u64);
                    let mut samples = Samples::default();
                    for _ in 0..moves_per_game {
                        let Some(uci) = pick(&game.position, &mut rng) else {
                            break;
                        };
                        let ply = game_ply(&game.position);
                        let mover = usize::from(game.position.turn() == shakmaty::Color::Black);
                        let frame =
                            serde_json::json!({"v": 1, "t": "move", "uci": uci, "ply": ply});
                        let started = Instant::now();
                        game.sockets[mover]
                            .send(Message::Text(frame.to_string()))
                            .await?;
                        wait_ply(&mut game.sockets[1 - mover], ply + 1).await?;
                        samples.push(started.elapsed());
                        wait_ply(&mut game.sockets[mover], ply + 1).await?;
                        game.position = played(&game.position, &uci)?;
                    }
                    anyhow::Ok((game, samples))
                })
            })
            .collect();
        gather(tasks).await
    }

    /// The same, through the service alone (the sockets drain on the side).
    async fn play_direct(self, service: &Service, seed: u64) -> anyhow::Result<GameSet> {
        let moves_per_game = (MOVES_PER_PHASE / self.games.len()).max(6);
        let tasks: Vec<_> = self
            .games
            .into_iter()
            .enumerate()
            .map(|(i, mut game)| {
                let service = service.clone();
                tokio::spawn(async move {
                    let mut rng = SmallRng::seed_from_u64(seed * 7_000_003 + i as u64);
                    let mut samples = Samples::default();
                    for _ in 0..moves_per_game {
                        let Some(uci) = pick(&game.position, &mut rng) else {
                            break;
                        };
                        let ply = game_ply(&game.position);
                        let mover = match game.position.turn() {
                            shakmaty::Color::White => game.white.clone(),
                            shakmaty::Color::Black => game.black.clone(),
                        };
                        let command = Command::BoardMove {
                            game: game.id,
                            ply,
                            text: uci.clone(),
                        };
                        let started = Instant::now();
                        let reply = service.handle(&actor(&mover, &game.channel), command).await;
                        samples.push(started.elapsed());
                        if reply.ephemeral {
                            bail!("a bench move was refused: {}", reply.text);
                        }
                        // Both pages hear of it; read them before going on.
                        for socket in &mut game.sockets {
                            wait_ply(socket, ply + 1).await?;
                        }
                        game.position = played(&game.position, &uci)?;
                    }
                    anyhow::Ok((game, samples))
                })
            })
            .collect();
        gather(tasks).await
    }

    fn into_samples(mut self, into: &mut Samples) -> GameSet {
        into.extend(std::mem::take(&mut self.samples));
        self
    }

    async fn close(self) {
        for mut game in self.games {
            for socket in &mut game.sockets {
                let _ = socket.close(None).await;
            }
        }
    }
}

async fn gather(
    tasks: Vec<tokio::task::JoinHandle<anyhow::Result<(LiveGame, Samples)>>>,
) -> anyhow::Result<GameSet> {
    let mut set = GameSet {
        games: Vec::with_capacity(tasks.len()),
        samples: Samples::default(),
    };
    for task in tasks {
        let (game, samples) = task.await.context("bench game panicked")??;
        set.games.push(game);
        set.samples.extend(samples);
    }
    Ok(set)
}

/// One game watched by `count` spectators: from each move until the last
/// watcher has it.
async fn watchers(
    service: &Service,
    addr: std::net::SocketAddr,
    count: usize,
) -> anyhow::Result<()> {
    let (channel, white, black) = ("watched", "watched-w", "watched-b");
    let id = start_game(service, channel, white, black).await?;
    let mut sockets = Vec::with_capacity(count);
    for _ in 0..count {
        let mut socket = connect(addr, id, None).await?;
        next_state(&mut socket).await?;
        sockets.push(socket);
    }
    let mut position = Chess::default();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut samples = Samples::default();
    for _ in 0..20 {
        let Some(uci) = pick(&position, &mut rng) else {
            break;
        };
        let ply = game_ply(&position);
        let mover = if position.turn() == shakmaty::Color::White {
            white
        } else {
            black
        };
        let command = Command::BoardMove {
            game: id,
            ply,
            text: uci.clone(),
        };
        let started = Instant::now();
        let waiting: Vec<_> = sockets
            .into_iter()
            .map(|mut socket| {
                tokio::spawn(async move {
                    wait_ply(&mut socket, ply + 1).await?;
                    anyhow::Ok((socket, Instant::now()))
                })
            })
            .collect();
        let reply = service.handle(&actor(mover, channel), command).await;
        if reply.ephemeral {
            bail!("a watched move was refused: {}", reply.text);
        }
        let mut last = started;
        sockets = Vec::with_capacity(count);
        for task in waiting {
            let (socket, at) = task.await.context("watcher panicked")??;
            last = last.max(at);
            sockets.push(socket);
        }
        samples.push(last - started);
        position = played(&position, &uci)?;
    }
    println!(
        "one game, {count} watchers: until the last has the move: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} moves)",
        samples.quantile_ms(0.5),
        samples.quantile_ms(0.99),
        samples.quantile_ms(1.0),
        samples.len()
    );
    for mut socket in sockets {
        let _ = socket.close(None).await;
    }
    Ok(())
}

/// The page and every file it loads: raw and compressed bytes.
async fn page_weight(addr: std::net::SocketAddr, game: i64) -> anyhow::Result<()> {
    let html = http_get(addr, &format!("/game/{game}")).await?;
    let mut files = vec![("page HTML".to_owned(), html)];
    for (name, bytes) in crate::platform::web::asset_files() {
        files.push((name.to_owned(), bytes.to_vec()));
    }
    let theme = http_get(addr, "/theme/brown.css").await?;
    files.push(("theme CSS".to_owned(), theme));
    let (mut raw, mut packed) = (0, 0);
    for (name, bytes) in &files {
        let compressed = miniz_oxide::deflate::compress_to_vec(bytes, 9).len() + 18;
        println!(
            "  {name:<26} {:>8} B raw {:>8} B gzipped",
            bytes.len(),
            compressed
        );
        raw += bytes.len();
        packed += compressed;
    }
    println!("page weight: {raw} B raw, {packed} B gzipped (pieces are in the CSS)");
    Ok(())
}

async fn start_game(
    service: &Service,
    channel: &str,
    white: &str,
    black: &str,
) -> anyhow::Result<i64> {
    let challenge = Command::Challenge {
        opponent: Some(UserRef {
            id: black.to_owned(),
            name: black.to_owned(),
        }),
        color: ColorChoice::White,
        rated: Some(false),
        time: Some("3d".to_owned()),
        fen: None,
        variant: None,
        position: None,
    };
    service.handle(&actor(white, channel), challenge).await;
    let reply = service
        .handle(&actor(black, channel), Command::Accept { challenge: None })
        .await;
    if reply.image.is_none() {
        bail!("a bench game did not start: {}", reply.text);
    }
    let record = service
        .store()
        .active_game_in(channel)
        .await?
        .context("the bench game's row")?;
    Ok(record.id)
}

async fn connect(
    addr: std::net::SocketAddr,
    game: i64,
    session: Option<&str>,
) -> anyhow::Result<Socket> {
    let mut request = format!("ws://{addr}/game/{game}/ws").into_client_request()?;
    if let Some(session) = session {
        request
            .headers_mut()
            .insert("cookie", format!("chessbot_session={session}").parse()?);
    }
    // The client too without Nagle: a move frame must not wait for an ACK.
    let (socket, _) = tokio_tungstenite::connect_async_with_config(request, None, true).await?;
    Ok(socket)
}

async fn next_state(socket: &mut Socket) -> anyhow::Result<serde_json::Value> {
    loop {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(30), socket.next())
            .await
            .context("no frame within 30 s")?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let value: serde_json::Value = serde_json::from_str(&text)?;
                match value["t"].as_str() {
                    Some("state") => return Ok(value),
                    Some("refused") => bail!("refused: {}", value["text"]),
                    _ => {}
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.into()),
            None => bail!("the socket closed"),
        }
    }
}

async fn wait_ply(socket: &mut Socket, ply: i64) -> anyhow::Result<()> {
    loop {
        if next_state(socket).await?["ply"].as_i64() >= Some(ply) {
            return Ok(());
        }
    }
}

fn game_ply(position: &Chess) -> i64 {
    let full = i64::from(position.fullmoves().get());
    (full - 1) * 2 + i64::from(position.turn() == shakmaty::Color::Black)
}

/// A random legal move in UCI, if the game goes on.
pub(super) fn pick(position: &Chess, rng: &mut SmallRng) -> Option<String> {
    if position.is_game_over() {
        return None;
    }
    let moves = position.legal_moves();
    let mv = moves.choose(rng)?;
    Some(UciMove::from_move(*mv, CastlingMode::Standard).to_string())
}

pub(super) fn played(position: &Chess, uci: &str) -> anyhow::Result<Chess> {
    let mv = uci.parse::<UciMove>()?.to_move(position)?;
    let mut next = position.clone();
    next.play_unchecked(mv);
    Ok(next)
}

pub(super) async fn http_get(addr: std::net::SocketAddr, path: &str) -> anyhow::Result<Vec<u8>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let body = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(raw.as_slice(), |at| &raw[at + 4..]);
    Ok(body.to_vec())
}
