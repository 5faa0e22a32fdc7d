//! `chessbot render`: write a board PNG from a FEN, or a GIF replay (or the
//! final position) from a PGN file.
//!
//! ```text
//! chessbot render --fen FEN [--last-move e2e4] [--flip] [--size N] [--theme NAME] [--pieces-dir DIR] -o board.png
//! chessbot render --pgn game.pgn --gif -o game.gif
//! ```

use std::{io::Write as _, ops::ControlFlow, path::PathBuf};

use anyhow::{anyhow, bail, Context as _};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Color, Position, Square};

use super::{
    frame::check_square, Arrow, Frame, GifFrame, GifOptions, PlayerLine, PlayersBar, RenderConfig,
    Renderer, Theme, MAX_BOARD_PX, MIN_BOARD_PX,
};

/// Arguments of `chessbot render`.
#[derive(Debug, Clone, clap::Args)]
pub struct RenderArgs {
    /// Position to draw (full FEN or just the board part); default: the
    /// starting position.
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// A PGN file: its final position, or with --gif a replay of the game.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Write a GIF replay of the --pgn game instead of a PNG.
    #[arg(long, requires = "pgn")]
    pub gif: bool,
    /// Highlight a move, e.g. e2e4 (with --fen).
    #[arg(long, value_name = "UCI")]
    pub last_move: Option<String>,
    /// Draw an arrow, e.g. g1f3 (repeatable).
    #[arg(long, value_name = "UCI")]
    pub arrow: Vec<String>,
    /// Black at the bottom.
    #[arg(long)]
    pub flip: bool,
    /// Board side in pixels (16..=2048, rounded down to a multiple of 8).
    #[arg(long, default_value_t = 480)]
    pub size: u32,
    /// Board colours.
    #[arg(long, default_value = "brown")]
    pub theme: String,
    /// Folder of wK.svg .. bP.svg to use instead of the built-in pieces.
    #[arg(long, value_name = "DIR")]
    pub pieces_dir: Option<PathBuf>,
    /// Names bar: the player shown at the top, as `NAME[:DETAIL]`.
    #[arg(long, value_name = "NAME[:DETAIL]")]
    pub top: Option<String>,
    /// Names bar: the player shown at the bottom, as `NAME[:DETAIL]`.
    #[arg(long, value_name = "NAME[:DETAIL]")]
    pub bottom: Option<String>,
    /// Output file (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Parses `e2e4`, `e2-e4`, `e7e8q` into its two squares.
pub fn parse_move_squares(text: &str) -> anyhow::Result<(Square, Square)> {
    let cleaned: String = text.trim().chars().filter(|&c| c != '-').collect();
    let bytes = cleaned.as_bytes();
    let bad = || anyhow!("bad move {text:?}: expected two squares like e2e4");
    if !(4..=5).contains(&bytes.len()) {
        return Err(bad());
    }
    let from = Square::from_ascii(&bytes[..2]).map_err(|_| bad())?;
    let to = Square::from_ascii(&bytes[2..4]).map_err(|_| bad())?;
    Ok((from, to))
}

fn parse_player(text: &str) -> PlayerLine {
    match text.split_once(':') {
        Some((name, detail)) => PlayerLine {
            name: name.trim().to_owned(),
            detail: detail.trim().to_owned(),
        },
        None => PlayerLine {
            name: text.trim().to_owned(),
            detail: String::new(),
        },
    }
}

/// Checks the size and converts it to a square size.
pub fn square_px_for(size: u32) -> anyhow::Result<u32> {
    if !(MIN_BOARD_PX..=MAX_BOARD_PX).contains(&size) {
        bail!(
            "--size {size} is out of range: the board must be {MIN_BOARD_PX}..={MAX_BOARD_PX} px"
        );
    }
    Ok(size / 8)
}

fn theme_for(name: &str) -> anyhow::Result<Theme> {
    Theme::by_name(name).ok_or_else(|| {
        anyhow!(
            "unknown theme {name:?}; known themes: {}",
            Theme::names().collect::<Vec<_>>().join(", ")
        )
    })
}

/// Runs `chessbot render`.
pub fn run(args: &RenderArgs) -> anyhow::Result<()> {
    // Validate everything cheap before building the renderer.
    let square_px = square_px_for(args.size)?;
    let theme = theme_for(&args.theme)?;
    let orientation = if args.flip {
        Color::Black
    } else {
        Color::White
    };
    let last_move = args
        .last_move
        .as_deref()
        .map(parse_move_squares)
        .transpose()?;
    let arrows = args
        .arrow
        .iter()
        .map(|a| parse_move_squares(a).map(|(from, to)| Arrow { from, to }))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut players = match (&args.top, &args.bottom) {
        (None, None) => None,
        (top, bottom) => Some(PlayersBar {
            top: top.as_deref().map(parse_player).unwrap_or_default(),
            bottom: bottom.as_deref().map(parse_player).unwrap_or_default(),
        }),
    };

    let game = match &args.pgn {
        Some(path) => {
            let text =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            Some(read_game(&text).with_context(|| format!("in {}", path.display()))?)
        }
        None => None,
    };
    if let Some(game) = &game
        && players.is_none()
        && (game.white.is_some() || game.black.is_some())
    {
        let line = |name: &Option<String>| PlayerLine {
            name: name.clone().unwrap_or_else(|| "?".into()),
            detail: String::new(),
        };
        let (white, black) = (line(&game.white), line(&game.black));
        players = Some(match orientation {
            Color::White => PlayersBar {
                top: black,
                bottom: white,
            },
            Color::Black => PlayersBar {
                top: white,
                bottom: black,
            },
        });
    }

    let renderer = Renderer::new(RenderConfig {
        pieces_dir: args.pieces_dir.clone(),
    })?;

    let bytes = match (&game, args.gif) {
        (Some(game), true) => {
            let options = GifOptions {
                orientation,
                square_px,
                theme,
                players,
                ..GifOptions::default()
            };
            renderer.render_gif(&options, &game.frames)?
        }
        (Some(game), false) => {
            let (pos, last) = game
                .positions
                .last()
                .cloned()
                .ok_or_else(|| anyhow!("the PGN has no position"))?;
            let frame = Frame {
                orientation,
                last_move: last_move.or(last),
                arrows,
                players,
                square_px,
                theme,
                ..Frame::from_position(&pos)
            };
            renderer.render_png(&frame)?
        }
        (None, _) => {
            let text = args
                .fen
                .as_deref()
                .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
            let fen = Fen::from_ascii(text.trim().as_bytes())
                .map_err(|e| anyhow!("bad FEN {text:?}: {e}"))?;
            let mut frame = Frame::from_board(fen.as_setup().board.clone());
            match fen.clone().into_position::<Chess>(CastlingMode::Chess960) {
                Ok(pos) => frame.check = check_square(&pos),
                Err(e) => eprintln!("warning: not a legal chess position ({e}); drawing it anyway"),
            }
            frame.orientation = orientation;
            frame.last_move = last_move;
            frame.arrows = arrows;
            frame.players = players;
            frame.square_px = square_px;
            frame.theme = theme;
            renderer.render_png(&frame)?
        }
    };

    if args.output.as_os_str() == "-" {
        std::io::stdout().write_all(&bytes)?;
    } else {
        std::fs::write(&args.output, &bytes)
            .with_context(|| format!("writing {}", args.output.display()))?;
    }
    Ok(())
}

/// The first game of a PGN file, played out.
#[derive(Debug, Clone, Default)]
pub struct ReplayGame {
    /// `White` tag.
    pub white: Option<String>,
    /// `Black` tag.
    pub black: Option<String>,
    /// The start position and the position after every ply, each with the
    /// move that led there.
    pub positions: Vec<(Chess, Option<(Square, Square)>)>,
    /// The same as replay frames.
    pub frames: Vec<GifFrame>,
}

#[derive(Default)]
struct Collector {
    game: ReplayGame,
    start: Option<Chess>,
    error: Option<String>,
}

impl Visitor for Collector {
    type Tags = ();
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
        match name {
            b"White" => self.game.white = Some(text),
            b"Black" => self.game.black = Some(text),
            b"FEN" => {
                let pos = Fen::from_ascii(value.as_bytes())
                    .map_err(|e| e.to_string())
                    .and_then(|f| {
                        f.into_position::<Chess>(CastlingMode::Chess960)
                            .map_err(|e| e.to_string())
                    });
                match pos {
                    Ok(p) => self.start = Some(p),
                    Err(e) => {
                        self.error = Some(format!("bad FEN tag: {e}"));
                        return ControlFlow::Break(());
                    }
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        let start = self.start.take().unwrap_or_default();
        self.game.positions.push((start.clone(), None));
        ControlFlow::Continue(start)
    }

    fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                let squares = m.from().map(|from| (from, m.to()));
                // Castling is shown king-from → king-to like lichess.
                let squares = match m {
                    shakmaty::Move::Castle { king, rook } => Some((
                        king,
                        m.castling_side().map_or(rook, |s| s.king_to(pos.turn())),
                    )),
                    _ => squares,
                };
                pos.play_unchecked(m);
                self.game.positions.push((pos.clone(), squares));
                ControlFlow::Continue(())
            }
            Err(e) => {
                let ply = self.game.positions.len();
                self.error = Some(format!("move {san_plus} at ply {ply} is not playable: {e}"));
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _movetext: Chess) -> Self::Output {}
}

/// Reads and plays out the first game of a PGN text.
pub fn read_game(pgn: &[u8]) -> anyhow::Result<ReplayGame> {
    let mut reader = Reader::new(std::io::Cursor::new(pgn));
    let mut collector = Collector::default();
    let found = reader.read_game(&mut collector).context("reading PGN")?;
    if let Some(e) = collector.error {
        bail!(e);
    }
    if found.is_none() || collector.game.positions.is_empty() {
        bail!("no game found in the PGN");
    }
    let mut game = collector.game;
    game.frames = game
        .positions
        .iter()
        .map(|(pos, last)| GifFrame::from_position(pos, *last))
        .collect();
    Ok(game)
}
