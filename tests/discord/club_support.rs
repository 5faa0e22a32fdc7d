//! What the club pages' tests share: the service on a SQLite file with its
//! web adapter serving, commands run as any member (moderators: `mod`),
//! games played to an end, tournaments played a round at a time, and the
//! pages read over plain HTTP.

use std::{collections::HashMap, sync::Arc};

use chessbot::{
    clock::{Clock, ManualClock},
    platform::web::{self, WebOptions},
    render::{RenderConfig, Renderer},
    service::{
        links::WebLinks, Actor, ColorChoice, Command, DrawAction, Reply, Service, Setting,
        TournamentCommand, TournamentOptions, UserRef,
    },
    store::Store,
};

use crate::web_support::{free_addr, get, Answer};

pub const SERVER: &str = "club-guild";
pub const LOBBY: &str = "lobby";
const START_MS: i64 = 1_767_268_800_000;

/// The service with its web adapter, and the threads it asked for.
pub struct ClubBed {
    pub service: Service,
    pub base: String,
    threads: HashMap<i64, String>,
    _dir: tempfile::TempDir,
}

impl ClubBed {
    pub async fn start() -> ClubBed {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite:{}", dir.path().join("club.db").display());
        let store = Store::open(&url).await.expect("store");
        let clock = ManualClock::new(START_MS);
        let shared: Arc<dyn Clock> = Arc::new(clock.clone());
        let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
        let service = Service::new(store, renderer, shared);
        let addr = free_addr();
        let base = format!("http://{addr}");
        let links = WebLinks::new(&base, b"the club tests' secret");
        web::start(
            service.clone(),
            addr,
            WebOptions {
                links,
                activity: None,
            },
        )
        .await
        .expect("the web adapter serves");
        ClubBed {
            service,
            base,
            threads: HashMap::new(),
            _dir: dir,
        }
    }

    pub fn actor(&self, user: &str, name: &str, channel: &str) -> Actor {
        Actor {
            server: SERVER.into(),
            channel: channel.into(),
            user: user.into(),
            name: name.into(),
            locale: None,
            server_locale: None,
            is_moderator: user == "mod",
        }
    }

    /// Runs `command` as `user` (shown as `user`) in `channel`.
    pub async fn run_in(&mut self, user: &str, channel: &str, command: Command) -> Reply {
        self.run_named(user, user, channel, command).await
    }

    pub async fn run_named(
        &mut self,
        user: &str,
        name: &str,
        channel: &str,
        command: Command,
    ) -> Reply {
        let reply = self
            .service
            .handle(&self.actor(user, name, channel), command)
            .await;
        if let Some(thread) = &reply.open_thread {
            self.open_thread(thread.game_id).await;
        }
        self.settle().await;
        reply
    }

    /// What the adapter does when a reply asks for a game's thread.
    async fn open_thread(&mut self, game_id: i64) {
        let name = format!("thread-{game_id}");
        self.service.thread_opened(game_id, &name).await;
        self.threads.insert(game_id, name);
    }

    /// A rated correspondence game, `white` against `black` (each shown by
    /// their name), started in the lobby; its id.
    pub async fn new_game(&mut self, white: (&str, &str), black: (&str, &str)) -> i64 {
        self.new_game_in(white, black, None).await
    }

    /// [`ClubBed::new_game`] in `variant` (lichess's key).
    pub async fn new_game_in(
        &mut self,
        (white, white_name): (&str, &str),
        (black, black_name): (&str, &str),
        variant: Option<&str>,
    ) -> i64 {
        let r = self
            .run_named(
                white,
                white_name,
                LOBBY,
                Command::Challenge {
                    opponent: Some(UserRef {
                        id: black.into(),
                        name: black_name.into(),
                    }),
                    color: ColorChoice::White,
                    rated: Some(true),
                    time: None,
                    fen: None,
                    variant: variant.map(str::to_owned),
                    position: None,
                },
            )
            .await;
        assert!(!r.ephemeral, "challenge refused: {}", r.text);
        let r = self
            .run_named(
                black,
                black_name,
                LOBBY,
                Command::Accept { challenge: None },
            )
            .await;
        assert!(!r.ephemeral, "accept refused: {}", r.text);
        self.service
            .store()
            .games_of(SERVER, white, true, 1)
            .await
            .unwrap()
            .first()
            .expect("the new game")
            .id
    }

    /// A moderator's `/settings web:<value>`.
    pub async fn set_web(&mut self, value: &str) -> Reply {
        self.run_in(
            "mod",
            LOBBY,
            Command::Settings {
                changes: vec![Setting::WebPages(value.into())],
            },
        )
        .await
    }

    /// The slug of the club's pages (made once they are first turned on).
    pub async fn slug(&self) -> String {
        self.service
            .store()
            .server(SERVER)
            .await
            .unwrap()
            .web_slug
            .expect("a slug once the pages were on")
    }

    pub async fn page(&self, path: &str) -> Answer {
        get(&format!("{}{path}", self.base), &[]).await
    }

    pub async fn club_page(&self, rest: &str) -> Answer {
        let slug = self.slug().await;
        self.page(&format!("/club/{slug}{rest}")).await
    }

    /// Lets background steps finish and opens the threads they ask for.
    pub async fn settle(&mut self) {
        loop {
            self.service.background_idle().await;
            let notices = self.service.take_notices();
            if notices.is_empty() {
                return;
            }
            for n in notices {
                if let Some(thread) = &n.reply.open_thread {
                    self.open_thread(thread.game_id).await;
                }
            }
        }
    }

    /// Games of tournament `id` still pending.
    pub async fn pending_games(&self, id: i64) -> Vec<i64> {
        self.service
            .store()
            .tournament_games(id)
            .await
            .unwrap()
            .iter()
            .filter(|b| b.result.is_none())
            .filter_map(|b| b.game_id)
            .collect()
    }

    /// The channel game `game_id` is played in.
    pub fn channel_of(&self, game_id: i64) -> String {
        self.threads
            .get(&game_id)
            .cloned()
            .unwrap_or_else(|| LOBBY.to_owned())
    }

    /// Plays `moves` in game `game_id`, White first, then ends it with
    /// `result` (`1-0`, `0-1` by resignation, `1/2-1/2` by agreement,
    /// `*`: left on).
    pub async fn play(&mut self, game_id: i64, moves: &[&str], result: &str) {
        let record = self.service.store().game(game_id).await.unwrap().unwrap();
        let channel = self.channel_of(game_id);
        let (white, black) = (record.game.white_id.clone(), record.game.black_id.clone());
        for (i, mv) in moves.iter().enumerate() {
            let user = if i % 2 == 0 { &white } else { &black };
            let r = self
                .run_in(
                    user,
                    &channel,
                    Command::Move {
                        text: (*mv).into(),
                        claim_draw: false,
                    },
                )
                .await;
            assert!(!r.ephemeral, "move {mv} refused: {}", r.text);
        }
        let steps: Vec<(String, Command)> = match result {
            "1-0" => vec![(black, Command::Resign { confirmed: true })],
            "0-1" => vec![(white, Command::Resign { confirmed: true })],
            "1/2-1/2" => vec![
                (
                    white,
                    Command::Draw {
                        action: DrawAction::Offer,
                    },
                ),
                (
                    black,
                    Command::Draw {
                        action: DrawAction::Accept,
                    },
                ),
            ],
            _ => vec![],
        };
        for (user, command) in steps {
            let r = self.run_in(&user, &channel, command).await;
            assert!(!r.ephemeral, "refused: {}", r.text);
        }
    }
}

/// A started tournament of `players` members (`p1`, `p2`, …) in `format`
/// (`rounds` for a Swiss; a knockout plays one game a match); its id.
pub async fn tournament(
    bed: &mut ClubBed,
    name: &str,
    format: &str,
    players: usize,
    rounds: i64,
) -> i64 {
    let r = bed
        .run_in(
            "mod",
            LOBBY,
            Command::Tournament(TournamentCommand::Create(TournamentOptions {
                name: name.into(),
                format: Some(format.into()),
                rounds: (rounds > 0).then_some(rounds),
                rated: Some(false),
                match_games: (format == "knockout").then_some(1),
                decider: (format == "knockout").then(|| "none".to_owned()),
                tiebreaks: (format == "swiss").then(|| "buchholz-cut1,buchholz,sb".to_owned()),
                ..TournamentOptions::default()
            })),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let id = bed
        .service
        .store()
        .tournaments_of(SERVER, false, 1)
        .await
        .unwrap()[0]
        .id;
    for i in 1..=players {
        let user = format!("p{i}");
        let r = bed
            .run_in(
                &user,
                LOBBY,
                Command::Tournament(TournamentCommand::Join {
                    tournament: Some(format!("#{id}")),
                }),
            )
            .await;
        assert!(!r.ephemeral, "{}", r.text);
    }
    let r = bed
        .run_in(
            "mod",
            LOBBY,
            Command::Tournament(TournamentCommand::Start {
                tournament: Some(format!("#{id}")),
            }),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    id
}
