//! What the web board's tests share: the bot with its web board on against
//! the fake Discord, a game started in `#chess` (threads off, so the game
//! stays in the channel), players' links got with the Play in browser
//! button, plain HTTP requests and WebSocket connections.

use std::{net::SocketAddr, time::Duration};

use chessbot::{
    config::Secret,
    platform::{
        discord::{run, BotSettings, WebBoard},
        web::{api_base, ActivityAuth},
    },
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::oneshot,
    task::JoinHandle,
};
use tokio_tungstenite::{tungstenite, MaybeTlsStream, WebSocketStream};

use crate::support::fake_discord::{
    model::{APP_ID, CLIENT_SECRET},
    opt_bool, opt_str, opt_user, FakeDiscord, RecordedMessage, TestUser, CHESS_CHANNEL, GUILD_ID,
    TOKEN,
};

pub const WAIT: Duration = Duration::from_secs(20);
/// The links' signing secret in these tests (so a test can forge or age one).
pub const SECRET: &str = "the web tests' secret";

/// The bot with its web board, running in a task.
pub struct WebBot {
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
    _dir: tempfile::TempDir,
    pub database_url: String,
}

impl WebBot {
    /// Starts the bot (flood limits as configured by default when
    /// `limits`, else off) and waits until its web board answers.
    pub async fn start(fake: &FakeDiscord, limits: bool) -> WebBot {
        WebBot::start_with(fake, limits, false).await
    }

    /// [`WebBot::start`], with the board as a Discord Activity too when
    /// `activity` (signing in at the fake Discord's OAuth2 endpoint).
    pub async fn start_with(fake: &FakeDiscord, limits: bool, activity: bool) -> WebBot {
        let dir = tempfile::tempdir().expect("temp dir");
        let database_url = format!("sqlite:{}", dir.path().join("chessbot.db").display());
        let addr = free_addr();
        let mut settings = BotSettings::new(TOKEN, &database_url);
        settings.http_proxy = Some(fake.http_url());
        settings.dev_guild_id = Some(GUILD_ID);
        if !limits {
            settings.limits = chessbot::limits::Limits::off();
        }
        settings.web = Some(WebBoard {
            addr,
            public_url: None,
            secret: Some(Secret::new(SECRET)),
            activity: activity.then(|| ActivityAuth {
                client_id: APP_ID.to_string(),
                client_secret: Secret::new(CLIENT_SECRET),
                api_base: api_base(Some(&fake.http_url())),
            }),
        });
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(run(settings, async move {
            let _ = stopped.await;
        }));
        fake.wait_commands(WAIT).await;
        let deadline = tokio::time::Instant::now() + WAIT;
        while TcpStream::connect(addr).await.is_err() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "web board never answered on {addr}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        WebBot {
            addr,
            stop,
            task,
            _dir: dir,
            database_url,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn stop(self) {
        let _ = self.stop.send(());
        let ended = tokio::time::timeout(WAIT, self.task).await;
        assert!(matches!(ended, Ok(Ok(Ok(())))), "bot did not stop cleanly");
    }
}

/// An address nothing listens on now.
pub fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

/// Starts a live game in `#chess`, `white` against `black` (threads off,
/// `time`), and returns its first board message.
pub async fn start_game(
    fake: &FakeDiscord,
    white: &TestUser,
    black: &TestUser,
    time: &str,
) -> RecordedMessage {
    start_game_with(fake, white, black, time, &[]).await
}

/// [`start_game`] with `more` options to `/challenge` (a variant, say).
pub async fn start_game_with(
    fake: &FakeDiscord,
    white: &TestUser,
    black: &TestUser,
    time: &str,
    more: &[Value],
) -> RecordedMessage {
    let i = fake
        .send_slash(
            white,
            CHESS_CHANNEL,
            "settings",
            json!([opt_bool("threads", false)]),
        )
        .await;
    fake.wait_callback(&i, WAIT).await;
    let mut options = vec![
        opt_user("opponent", black),
        json!({"name": "color", "type": 4, "value": 0}),
        opt_str("time", time),
    ];
    options.extend_from_slice(more);
    let i = fake
        .send_slash(white, CHESS_CHANNEL, "challenge", Value::Array(options))
        .await;
    let challenge = fake.wait_callback(&i, WAIT).await.message().clone();
    let accept = button(&challenge.json["components"], "Accept").expect("an Accept button");
    let i = fake
        .click_button(black, CHESS_CHANNEL, &challenge, &accept)
        .await;
    let board = fake.wait_callback(&i, WAIT).await;
    assert!(board.content().contains("accepted"), "{}", board.content());
    board.message().clone()
}

/// The custom id of the button labelled `label`.
pub fn button(components: &Value, label: &str) -> Option<String> {
    find(components, &|c| c["label"] == label)
        .and_then(|c| c["custom_id"].as_str().map(str::to_owned))
}

/// The URL of the link button labelled `label`.
pub fn link_button(components: &Value, label: &str) -> Option<String> {
    find(components, &|c| c["label"] == label && c["style"] == 5)
        .and_then(|c| c["url"].as_str().map(str::to_owned))
}

fn find(components: &Value, pred: &dyn Fn(&Value) -> bool) -> Option<Value> {
    for c in components.as_array().into_iter().flatten() {
        if pred(c) {
            return Some(c.clone());
        }
        if let Some(found) = find(&c["components"], pred) {
            return Some(found);
        }
    }
    None
}

/// `user`'s own link, from Play in browser under `board` (answered privately).
pub async fn player_link(fake: &FakeDiscord, user: &TestUser, board: &RecordedMessage) -> String {
    let id =
        button(&board.json["components"], "Play in browser").expect("a Play in browser button");
    let i = fake.click_button(user, CHESS_CHANNEL, board, &id).await;
    let cb = fake.wait_callback(&i, WAIT).await;
    assert!(cb.flags_ephemeral(), "a player's link is private");
    link_button(&cb.data["components"], "Play in browser").expect("the link button")
}

/// A plain HTTP/1.1 answer.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// `GET url` with extra headers, over a fresh connection: the raw head
/// and the body's bytes.
async fn request(url: &str, headers: &[(&str, &str)]) -> (String, Vec<u8>) {
    http_send("GET", url, headers, "").await
}

/// `method url` with extra headers and `body`, over a fresh connection.
async fn http_send(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (String, Vec<u8>) {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_owned()), |(h, p)| (h, format!("/{p}")));
    let mut stream = TcpStream::connect(host).await.expect("connect");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if !body.is_empty() {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(raw.len());
    let body = raw.split_off((split + 4).min(raw.len()));
    (String::from_utf8_lossy(&raw).into_owned(), body)
}

/// `GET url` with extra headers, over a fresh connection.
pub async fn get(url: &str, headers: &[(&str, &str)]) -> Answer {
    answer_of(request(url, headers).await)
}

/// `POST url` with a JSON body.
pub async fn post_json(url: &str, body: &Value) -> Answer {
    let headers = [("Content-Type", "application/json")];
    answer_of(http_send("POST", url, &headers, &body.to_string()).await)
}

fn answer_of((head, body): (String, Vec<u8>)) -> Answer {
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// The body of `GET url` as bytes (an image).
pub async fn get_bytes(url: &str) -> Vec<u8> {
    request(url, &[]).await.1
}

/// The session cookie (`name=value`) a player's link sets.
pub async fn session_cookie(link: &str) -> String {
    let answer = get(link, &[]).await;
    assert_eq!(answer.status, 303, "a valid link redirects");
    let cookie = answer.header("set-cookie").expect("a session cookie");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    cookie.split(';').next().expect("name=value").to_owned()
}

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens game `game`'s socket with `cookie` (a spectator without) from
/// `origin`; `Err` is the refused upgrade's status.
pub async fn open_socket(
    bot: &WebBot,
    game: i64,
    cookie: Option<&str>,
    origin: &str,
) -> Result<Socket, u16> {
    use tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/game/{game}/ws", bot.addr)
        .into_client_request()
        .expect("request");
    let headers = request.headers_mut();
    headers.insert("origin", origin.parse().expect("origin"));
    if let Some(cookie) = cookie {
        headers.insert("cookie", cookie.parse().expect("cookie"));
    }
    match tokio_tungstenite::connect_async_with_config(request, None, true).await {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        Err(e) => panic!("socket: {e}"),
    }
}

/// The next frame: a JSON text, or the close frame's code and reason.
pub async fn next(socket: &mut Socket) -> Result<Value, (u16, String)> {
    loop {
        let frame = tokio::time::timeout(WAIT, socket.next())
            .await
            .expect("a frame in time");
        match frame {
            Some(Ok(tungstenite::Message::Text(text))) => {
                return Ok(serde_json::from_str(&text).expect("JSON"))
            }
            Some(Ok(tungstenite::Message::Close(close))) => {
                return Err(close.map_or((1005, String::new()), |c| {
                    (c.code.into(), c.reason.into_owned())
                }))
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err((1006, e.to_string())),
            None => return Err((1006, "ended".to_owned())),
        }
    }
}

/// The next `state` frame (skipping other kinds).
pub async fn next_state(socket: &mut Socket) -> Value {
    loop {
        let frame = next(socket).await.expect("an open socket");
        if frame["t"] == "state" {
            return frame;
        }
    }
}

pub async fn send(socket: &mut Socket, frame: Value) {
    socket
        .send(tungstenite::Message::Text(frame.to_string()))
        .await
        .expect("send");
}

pub async fn send_raw(socket: &mut Socket, text: String) {
    let _ = socket.send(tungstenite::Message::Text(text)).await;
}
