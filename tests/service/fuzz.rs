//! Fuzz targets as proptest properties: every parser that reads text from a
//! user or a platform must answer (a value or an error), never panic, and
//! round-trip what it produces. `cargo test` runs a modest number of cases;
//! `PROPTEST_CASES=…` raises it and `fuzz/run.sh SECONDS` runs each target
//! for a bounded time. Crashes found are kept as regression tests at the
//! end of this file.
//!
//! Targets: `pgn_import`, `fen`, `time_control`, `button_id`,
//! `console_line`, `slash_options`, `board_png` (the move-input target
//! lives in `tests/core/move_input.rs`).

use std::sync::{Arc, Mutex, OnceLock};

use chessbot::{
    chess::{pgn, Game},
    clock::TimeControl,
    platform::console::{
        parse::{parse_line, to_command, Line},
        Console, ConsoleOptions,
    },
    render::{Arrow, Frame, PlayerLine, PlayersBar, RenderConfig, Renderer, Theme},
    service::buttons::ButtonAction,
};
use proptest::prelude::*;
use shakmaty::{Chess, Color, Position, Square};

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Text that looks like PGN: tags, move numbers, SAN, comments, variations,
/// NAGs, results, escapes and stray bytes.
fn pgn_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("[Event \"x\"]\n".to_owned()),
        Just("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n".to_owned()),
        Just("[SetUp \"1\"]\n".to_owned()),
        Just("[TimeControl \"300+5\"]\n".to_owned()),
        Just("1. e4 e5 2. Nf3 Nc6 ".to_owned()),
        Just("{ comment } ".to_owned()),
        Just("( 1... c5 ) ".to_owned()),
        Just("$1 ".to_owned()),
        Just("1-0".to_owned()),
        Just("*".to_owned()),
        Just("\n\n".to_owned()),
        Just("O-O-O ".to_owned()),
        Just("e8=Q+ ".to_owned()),
        Just("[%clk 0:01:00]".to_owned()),
        "[a-hKQRBNx1-8=+#.O -]{1,8}",
        "[\\[\\]{}()\"\\\\;%$*]{1,4}",
        any::<String>(),
    ];
    prop::collection::vec(token, 0..24).prop_map(|t| t.concat())
}

/// Text that looks like FEN: board ranks, side, castling, en passant, counters.
fn fen_like() -> impl Strategy<Value = String> {
    (
        "[pnbrqkPNBRQK1-9/]{0,70}",
        "[wb ]{0,2}",
        "[KQkqA-Ha-h-]{0,5}",
        "[a-h1-8-]{0,3}",
        "[0-9]{0,6}",
        "[0-9]{0,6}",
    )
        .prop_map(|(board, side, castling, ep, half, full)| {
            format!("{board} {side} {castling} {ep} {half} {full}")
        })
}

fn time_control_like() -> impl Strategy<Value = String> {
    "[0-9 +/:.dhmsDHMS|a-z-]{0,24}"
}

fn button_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "(game|challenge|x)?:[0-9-]{0,20}:(resign|resign-confirm|draw-offer|draw-accept|draw-decline|draw-claim|accept|decline|cancel|[a-z]{0,6})(:[0-9+-]{0,21})?(:.*)?",
        any::<String>(),
    ]
}

fn console_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,6}: /(challenge|accept|decline|cancel|move|board|resign|draw|abort|games|leaderboard|profile|history|pgn|rating|rating-preview|settings|help|[a-z]{0,5})( [a-z_]{0,8}:?(\"[^\"]{0,10}\"?|[^ ]{0,10}))*",
        "[a-z]{0,6}: click [A-Za-z ]{0,12}",
        ":(channel|advance|restart|[a-z]{0,4})( .{0,10})?",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn pgn_import(text in pgn_like()) {
        if let Ok(imported) = pgn::import(&text) {
            // Whatever was imported exports and imports again to the same moves.
            let exported = pgn::export(&imported.game, &Default::default(), None);
            let again = pgn::import(&exported);
            prop_assert!(again.is_ok(), "re-import of {:?} failed: {:?}", exported, again.err());
            let again = again.unwrap_or_else(|_| unreachable!());
            prop_assert_eq!(again.game.plies().len(), imported.game.plies().len());
            prop_assert_eq!(again.game.fen(), imported.game.fen());
        }
    }

    #[test]
    fn fen(text in prop_oneof![fen_like(), any::<String>()]) {
        if let Ok(game) = Game::from_fen(&text) {
            // The canonical FEN reads back to the same position.
            let again = Game::from_fen(&game.fen());
            prop_assert!(again.is_ok(), "{:?} → {:?}", text, game.fen());
            prop_assert_eq!(again.map(|g| g.fen()).ok(), Some(game.fen()));
        }
    }

    #[test]
    fn time_control(text in prop_oneof![time_control_like(), any::<String>()]) {
        if let Ok(tc) = text.parse::<TimeControl>() {
            let canonical = tc.to_string();
            prop_assert_eq!(canonical.parse::<TimeControl>().ok(), Some(tc.clone()), "{:?}", canonical);
            prop_assert!(!tc.describe().is_empty());
            let _ = TimeControl::from_pgn_tag(&tc.to_pgn_tag());
        }
    }

    #[test]
    fn button_id(text in button_like()) {
        if let Some(action) = ButtonAction::parse(&text) {
            prop_assert_eq!(ButtonAction::parse(&action.id()), Some(action));
            prop_assert!(action.id().len() <= 100, "Discord caps custom ids at 100");
        }
    }

    #[test]
    fn console_line(text in console_like()) {
        if let Ok(Line::Slash { command, args, .. }) = parse_line(&text) {
            let _ = to_command(&command, &args);
        }
    }
}

/// One console (one database) shared by the slash-option cases.
fn console() -> &'static (tokio::runtime::Runtime, Mutex<Console>) {
    static CONSOLE: OnceLock<(tokio::runtime::Runtime, Mutex<Console>)> = OnceLock::new();
    CONSOLE.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let dir = tempfile::tempdir().expect("temp dir").keep();
        let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
        let mut console = runtime
            .block_on(Console::new(ConsoleOptions {
                database_url: format!("sqlite:{}", dir.join("fuzz.db").display()),
                out_dir: None,
                moderators: vec!["mod".to_owned()],
                echo: false,
                renderer,
                locale: None,
                seed: None,
                web: None,
            }))
            .expect("console");
        // A game in progress, so moves and game commands reach the service.
        runtime.block_on(async {
            let mut out = Vec::new();
            for line in [
                "mod: /settings threads:off",
                "alice: /challenge @bob color:white",
                "bob: /accept",
            ] {
                console.run_line(line, &mut out).await.expect("setup line");
            }
        });
        (runtime, Mutex::new(console))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    /// Random option values of every slash command, through the console
    /// parser and the real service: the bot always answers, and never with
    /// the apology (a user's text is never an internal error).
    #[test]
    fn slash_options(
        user in "(alice|bob|mod|[a-z]{1,6})",
        command in "(challenge|accept|decline|cancel|move|board|resign|draw|abort|games|leaderboard|profile|history|pgn|rating-preview|settings|help)",
        option in "(opponent|color|rated|time|challenge|text|claim_draw|confirm|action|page|user|game|theme|threads|strict_illegal_moves|challenge_hours|rated_per_pair_daily)?",
        value in prop_oneof!["[^\"\n\r]{0,40}", "@[a-z]{0,6}", "-?[0-9]{0,20}", "[a-h1-8KQRBNx=+#-]{0,8}"],
    ) {
        let (runtime, console) = console();
        let mut console = console.lock().unwrap_or_else(|e| e.into_inner());
        let option = if option.is_empty() { String::new() } else { format!("{option}:") };
        let line = format!("{user}: /{command} {option}\"{value}\"");
        let mut out = Vec::new();
        let ran = runtime.block_on(console.run_line(&line, &mut out));
        prop_assert!(ran.is_ok(), "{}: {:?}", line, ran.err());
        let out = String::from_utf8_lossy(&out);
        prop_assert!(!out.trim().is_empty(), "no answer to {}", line);
        prop_assert!(!out.contains("Sorry, something went wrong"), "{} → {}", line, out);
    }
}

fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(|| Renderer::new(RenderConfig::default()).expect("renderer"))
}

/// A position `plies` random legal moves into a game, and its last move.
fn position_after(seed: u64, plies: usize) -> (Chess, Option<(Square, Square)>) {
    let mut position = Chess::default();
    let mut last = None;
    let mut state = seed | 1;
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = moves[(state % moves.len() as u64) as usize];
        last = Some((mv.from().unwrap_or(mv.to()), mv.to()));
        position.play_unchecked(mv);
    }
    (position, last)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    /// Any board the renderer can be asked for (position, side, last move,
    /// marks, arrows, names and details of any text, theme, size) encodes
    /// to a PNG that decodes to exactly the pixels drawn: the pasted tile
    /// rows of `render::png` never say anything but what is there.
    #[test]
    fn board_png(
        seed in any::<u64>(),
        plies in 0usize..120,
        black_below in any::<bool>(),
        square_px in prop_oneof![Just(60u32), 2u32..=64],
        theme in prop::sample::select(Theme::names().collect::<Vec<_>>()),
        marks in prop::collection::vec(0u8..64, 0..4),
        arrows in prop::collection::vec((0u8..64, 0u8..64), 0..3),
        names in prop::option::of((".{0,40}", ".{0,20}", ".{0,40}", ".{0,20}")),
    ) {
        let (position, last_move) = position_after(seed, plies);
        let square = |i: u8| Square::new(u32::from(i));
        let mut frame = Frame::from_position(&position);
        frame.orientation = if black_below { Color::Black } else { Color::White };
        frame.last_move = last_move;
        frame.square_px = square_px;
        frame.theme = Theme::by_name(theme).expect("a built-in theme");
        frame.marks = marks.into_iter().map(square).collect();
        frame.arrows = arrows.into_iter().map(|(a, b)| Arrow { from: square(a), to: square(b) }).collect();
        frame.players = names.map(|(top, top_detail, bottom, bottom_detail)| PlayersBar {
            top: PlayerLine { name: top, detail: top_detail },
            bottom: PlayerLine { name: bottom, detail: bottom_detail },
        });
        let renderer = renderer();
        let (canvas, _) = renderer.render_canvas(&frame).expect("canvas");
        let bytes = renderer.render_png(&frame).expect("png");
        let mut reader = png::Decoder::new(std::io::Cursor::new(&bytes[..])).read_info().expect("png header");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a decodable size")];
        let info = reader.next_frame(&mut pixels).expect("png data");
        pixels.truncate(info.buffer_size());
        prop_assert_eq!((info.width, info.height), (canvas.width, canvas.height));
        prop_assert!(pixels == canvas.pixels, "decoded pixels differ ({} px board)", square_px * 8);
    }
}
