//! Semantic image tests: decode the PNG bytes and check what a person would
//! see on each square, for both orientations.

use std::sync::OnceLock;

use chessbot::render::{
    Arrow, Frame, GifFrame, GifOptions, PlayerLine, PlayersBar, RenderConfig, RenderError,
    Renderer, Rgb, Theme,
};
use shakmaty::{fen::Fen, Board, CastlingMode, Chess, Color, Piece, Position, Role, Square};

const MIDDLEGAME: &str = "r1bqk2r/pppp1Bpp/2n2n2/2b1p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4";

fn renderer() -> &'static Renderer {
    static R: OnceLock<Renderer> = OnceLock::new();
    R.get_or_init(|| Renderer::new(RenderConfig::default()).expect("renderer"))
}

fn position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .expect("legal")
}

/// A decoded RGB image.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn decode(png_bytes: &[u8]) -> Image {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("png header");
        let mut buf = vec![0; reader.output_buffer_size().expect("a decodable size")];
        let info = reader.next_frame(&mut buf).expect("png data");
        assert_eq!(
            info.color_type,
            png::ColorType::Rgb,
            "indexed PNG expands to RGB"
        );
        buf.truncate(info.buffer_size());
        Image {
            width: info.width,
            height: info.height,
            rgb: buf,
        }
    }

    fn px(&self, x: u32, y: u32) -> Rgb {
        let i = ((y * self.width + x) * 3) as usize;
        Rgb(self.rgb[i], self.rgb[i + 1], self.rgb[i + 2])
    }
}

fn close(a: Rgb, b: Rgb, tol: i32) -> bool {
    (i32::from(a.0) - i32::from(b.0)).abs() <= tol
        && (i32::from(a.1) - i32::from(b.1)).abs() <= tol
        && (i32::from(a.2) - i32::from(b.2)).abs() <= tol
}

/// Per pixel of a square: 1 = piece white, 2 = piece black, 0 = anything else.
fn signature(img: &Image, x0: u32, y0: u32, sq: u32) -> Vec<u8> {
    let mut sig = Vec::with_capacity((sq * sq) as usize);
    for y in 0..sq {
        for x in 0..sq {
            let c = img.px(x0 + x, y0 + y);
            sig.push(if close(c, Rgb(255, 255, 255), 40) {
                1
            } else if close(c, Rgb(16, 16, 16), 40) {
                2
            } else {
                0
            });
        }
    }
    sig
}

/// What stands on a square, judged from the image alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Empty,
    Piece(Color),
}

/// Independent colour check: both sets are outlined in dark ink, but a
/// white piece has a light body (over a fifth of its ink is light; measured
/// 0.24..0.72 for white, 0.00..0.14 for black pieces at 40..100 px), an
/// empty square has no ink.
fn seen(sig: &[u8]) -> Seen {
    let n = sig.len() as f32;
    let white = sig.iter().filter(|&&s| s == 1).count() as f32 / n;
    let black = sig.iter().filter(|&&s| s == 2).count() as f32 / n;
    if white < 0.02 && black < 0.02 {
        Seen::Empty
    } else if white / (white + black) > 0.19 {
        Seen::Piece(Color::White)
    } else {
        Seen::Piece(Color::Black)
    }
}

/// Reference signatures of the twelve pieces (each drawn alone on d4).
fn references(sq: u32) -> Vec<(Piece, Vec<u8>)> {
    let mut refs = Vec::new();
    for color in [Color::White, Color::Black] {
        for role in Role::ALL {
            let piece = Piece { color, role };
            let mut board = Board::empty();
            board.set_piece_at(Square::D4, piece);
            let frame = Frame {
                square_px: sq,
                ..Frame::from_board(board)
            };
            let img = Image::decode(&renderer().render_png(&frame).expect("png"));
            refs.push((piece, signature(&img, 3 * sq, 4 * sq, sq)));
        }
    }
    refs
}

fn square_origin(orientation: Color, sq: Square, px: u32, top: u32) -> (u32, u32) {
    let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
    match orientation {
        Color::White => (f * px, top + (7 - r) * px),
        Color::Black => ((7 - f) * px, top + r * px),
    }
}

/// Lists every square where the image disagrees with `expected`.
fn mismatches(img: &Image, expected: &Board, orientation: Color, sq: u32, top: u32) -> Vec<String> {
    let refs = references(sq);
    let mut wrong = Vec::new();
    for square in Square::ALL {
        let (x, y) = square_origin(orientation, square, sq, top);
        let sig = signature(img, x, y, sq);
        let want = expected.piece_at(square);
        // 1. colour, judged independently of the renderer's own tiles.
        let colour = seen(&sig);
        let want_colour = want.map_or(Seen::Empty, |p| Seen::Piece(p.color));
        if colour != want_colour {
            wrong.push(format!(
                "{square}: saw {colour:?}, expected {want_colour:?}"
            ));
            continue;
        }
        // 2. shape: the closest reference piece must be the expected one.
        if let Some(want) = want {
            let best = refs
                .iter()
                .min_by_key(|(_, r)| r.iter().zip(&sig).filter(|(a, b)| a != b).count())
                .map(|(p, _)| *p);
            if best != Some(want) {
                wrong.push(format!("{square}: looks like {best:?}, expected {want:?}"));
            }
        }
    }
    wrong
}

fn frame_of(pos: &Chess, orientation: Color) -> Frame {
    Frame {
        orientation,
        ..Frame::from_position(pos)
    }
}

#[test]
fn start_position_both_orientations() {
    let pos = Chess::default();
    for orientation in [Color::White, Color::Black] {
        let png = renderer()
            .render_png(&frame_of(&pos, orientation))
            .expect("png");
        let img = Image::decode(&png);
        assert_eq!((img.width, img.height), (480, 480));
        let wrong = mismatches(&img, pos.board(), orientation, 60, 0);
        assert!(wrong.is_empty(), "{orientation:?}: {wrong:?}");
    }
}

#[test]
fn middlegame_with_highlight_and_check() {
    let pos = position(MIDDLEGAME);
    let theme = Theme::default();
    for orientation in [Color::White, Color::Black] {
        let frame = Frame {
            last_move: Some((Square::C4, Square::F7)),
            ..frame_of(&pos, orientation)
        };
        assert_eq!(frame.check, Some(Square::E8));
        let img = Image::decode(&renderer().render_png(&frame).expect("png"));
        let wrong = mismatches(&img, pos.board(), orientation, 60, 0);
        assert!(wrong.is_empty(), "{orientation:?}: {wrong:?}");

        // Backgrounds, sampled at the left edge of each square (no piece,
        // no label reaches there).
        for square in Square::ALL {
            let (x, y) = square_origin(orientation, square, 60, 0);
            let c = img.px(x + 1, y + 30);
            let base = theme.square(square.is_light());
            if square == Square::C4 || square == Square::F7 {
                let want = base.blend(theme.last_move.color, theme.last_move.alpha());
                assert!(close(c, want, 2), "{square} highlight: {c:?} vs {want:?}");
            } else if square == Square::E8 {
                assert!(c.0 > c.1 + 40 && c.1 + 30 < base.1, "{square} glow: {c:?}");
                // Around the king, a good part of the square glows red.
                let red = (0..60)
                    .flat_map(|dy| (0..60).map(move |dx| (dx, dy)))
                    .filter(|&(dx, dy)| {
                        let p = img.px(x + dx, y + dy);
                        i32::from(p.0) - i32::from(p.1) > 80
                    })
                    .count();
                assert!(red > 500, "{square} glow: {red} red pixels");
            } else {
                assert!(close(c, base, 2), "{square} plain: {c:?} vs {base:?}");
            }
        }
    }
}

#[test]
fn wrong_piece_on_wrong_square_fails() {
    let pos = position(MIDDLEGAME);
    let img = Image::decode(
        &renderer()
            .render_png(&frame_of(&pos, Color::White))
            .expect("png"),
    );
    // Claim the knight on f3 is a bishop: the shape check must object.
    let mut board = pos.board().clone();
    board.set_piece_at(
        Square::F3,
        Piece {
            color: Color::White,
            role: Role::Bishop,
        },
    );
    let wrong = mismatches(&img, &board, Color::White, 60, 0);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].starts_with("f3"), "{wrong:?}");
    // Claim a piece moved: two squares disagree.
    let mut board = pos.board().clone();
    board.discard_piece_at(Square::E4);
    board.set_piece_at(
        Square::E3,
        Piece {
            color: Color::White,
            role: Role::Pawn,
        },
    );
    assert_eq!(mismatches(&img, &board, Color::White, 60, 0).len(), 2);
    // The flipped image read as if White were at the bottom fails badly.
    let flipped = Image::decode(
        &renderer()
            .render_png(&frame_of(&pos, Color::Black))
            .expect("png"),
    );
    assert!(mismatches(&flipped, pos.board(), Color::White, 60, 0).len() > 10);
}

/// The ink of a label: pixels of the given colour within a corner patch.
fn patch(img: &Image, x0: u32, y0: u32, w: u32, h: u32, ink: Rgb) -> Vec<bool> {
    let mut v = Vec::new();
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            v.push(close(img.px(x, y), ink, 30));
        }
    }
    v
}

#[test]
fn coordinates_sit_on_the_right_edges() {
    let theme = Theme::default();
    let sq = 60;
    let c = sq * 2 / 5; // corner patch size
    let empty = |o| {
        Image::decode(
            &renderer()
                .render_png(&Frame {
                    orientation: o,
                    ..Frame::from_board(Board::empty())
                })
                .expect("png"),
        )
    };
    let white = empty(Color::White);
    let black = empty(Color::Black);
    for (img, orientation) in [(&white, Color::White), (&black, Color::Black)] {
        for square in Square::ALL {
            let (x, y) = square_origin(orientation, square, sq, 0);
            let ink = theme.square(!square.is_light());
            let top_right = patch(img, x + sq - c, y, c, c, ink);
            let bottom_left = patch(img, x, y + sq - c, c, c, ink);
            let count = |p: &[bool]| p.iter().filter(|&&b| b).count();
            let right_column = x == 7 * sq;
            let bottom_row = y == 7 * sq;
            assert_eq!(
                count(&top_right) > 8,
                right_column,
                "{orientation:?} {square}: rank label"
            );
            assert_eq!(
                count(&bottom_left) > 8,
                bottom_row,
                "{orientation:?} {square}: file label"
            );
        }
    }
    // The label follows the square, not the screen position: rank 8 is top
    // right with White below, bottom right (on a8) with Black below.
    let corner = |img: &Image, x: u32, y: u32, sqr: Square| {
        patch(img, x + sq - c, y, c, c, theme.square(!sqr.is_light()))
    };
    assert_eq!(
        corner(&white, 7 * sq, 0, Square::H8),
        corner(&black, 7 * sq, 7 * sq, Square::A8)
    );
    assert_ne!(
        corner(&white, 7 * sq, 0, Square::H8),
        corner(&white, 7 * sq, 7 * sq, Square::H1)
    );
    // Files: 'a' bottom left with White below, bottom right with Black below.
    let file_patch = |img: &Image, x: u32, sqr: Square| {
        patch(img, x, 7 * sq + sq - c, c, c, theme.square(!sqr.is_light()))
    };
    assert_eq!(
        file_patch(&white, 0, Square::A1),
        file_patch(&black, 7 * sq, Square::A8)
    );
    assert_ne!(
        file_patch(&white, 0, Square::A1),
        file_patch(&white, 7 * sq, Square::H1)
    );
}

#[test]
fn every_theme_and_size_renders() {
    let pos = position(MIDDLEGAME);
    for theme in Theme::all() {
        for sq in [2, 5, 40, 60, 100, 256] {
            let frame = Frame {
                theme: *theme,
                square_px: sq,
                last_move: Some((Square::C4, Square::F7)),
                ..Frame::from_position(&pos)
            };
            let img = Image::decode(&renderer().render_png(&frame).expect("png"));
            assert_eq!((img.width, img.height), (8 * sq, 8 * sq));
            if sq < 16 {
                continue; // pieces cover whole squares
            }
            // a1 is dark, h1 light, in every theme (sampled at the left edge).
            assert!(
                close(img.px(0, 8 * sq - 1 - sq / 2), theme.dark, 3),
                "{} {sq}",
                theme.name
            );
            assert!(
                close(img.px(7 * sq, 8 * sq - 1 - sq / 2), theme.light, 3),
                "{} {sq}",
                theme.name
            );
        }
        assert_eq!(Theme::by_name(theme.name), Some(*theme));
    }
    assert!(Theme::names().count() >= 3);
}

#[test]
fn pieces_are_right_at_40_px_squares() {
    let pos = position(MIDDLEGAME);
    let frame = Frame {
        square_px: 40,
        ..Frame::from_position(&pos)
    };
    let img = Image::decode(&renderer().render_png(&frame).expect("png"));
    let wrong = mismatches(&img, pos.board(), Color::White, 40, 0);
    assert!(wrong.is_empty(), "{wrong:?}");
}

#[test]
fn sizes_out_of_range_are_refused() {
    for sq in [0, 1, 257, 10_000] {
        let frame = Frame {
            square_px: sq,
            ..Frame::from_position(&Chess::default())
        };
        assert!(
            matches!(renderer().render_png(&frame), Err(RenderError::Size { .. })),
            "{sq}"
        );
    }
}

#[test]
fn players_bar_and_arrows() {
    let pos = Chess::default();
    let frame = Frame {
        players: Some(PlayersBar {
            top: PlayerLine {
                name: "Black player".into(),
                detail: "4:32".into(),
            },
            bottom: PlayerLine {
                name: "White <&> player with a very very long name indeed, really".into(),
                detail: "107.5".into(),
            },
        }),
        arrows: vec![Arrow {
            from: Square::E2,
            to: Square::E4,
        }],
        ..Frame::from_position(&pos)
    };
    let img = Image::decode(&renderer().render_png(&frame).expect("png"));
    let bar = (img.height - 480) / 2;
    assert!(bar >= 12);
    assert_eq!(img.width, 480);
    let theme = Theme::default();
    // The bars are their background colour at the edges, with text inside.
    assert!(close(img.px(0, 0), theme.bar_bg, 2));
    assert!(close(img.px(479, img.height - 1), theme.bar_bg, 2));
    let text_pixels = (0..bar)
        .flat_map(|y| (0..480).map(move |x| (x, y)))
        .filter(|&(x, y)| close(img.px(x, y), theme.bar_fg, 40))
        .count();
    assert!(text_pixels > 50, "{text_pixels}");
    // The board is shifted down by the bar and still right.
    assert!(mismatches(&img, pos.board(), Color::White, 60, bar)
        .iter()
        .all(|m| m.starts_with("e2") || m.starts_with("e3") || m.starts_with("e4")));
    // The arrow crosses e3 (empty): its centre is arrow-coloured.
    let (x, y) = square_origin(Color::White, Square::E3, 60, bar);
    let c = img.px(x + 30, y + 30);
    let want = theme.light.blend(theme.arrow.color, theme.arrow.alpha());
    let want_dark = theme.dark.blend(theme.arrow.color, theme.arrow.alpha());
    assert!(close(c, want, 12) || close(c, want_dark, 12), "{c:?}");
}

/// The top bar's pixels of a board whose top player is `name` (`detail`).
fn top_bar(name: &str, detail: &str) -> Vec<Rgb> {
    let frame = Frame {
        players: Some(PlayersBar {
            top: PlayerLine {
                name: name.into(),
                detail: detail.into(),
            },
            bottom: PlayerLine {
                name: "alice".into(),
                detail: "0".into(),
            },
        }),
        ..Frame::from_position(&Chess::default())
    };
    let img = Image::decode(&renderer().render_png(&frame).expect("png"));
    let bar = (img.height - 480) / 2;
    (0..bar)
        .flat_map(|y| (0..480).map(move |x| (x, y)))
        .map(|(x, y)| img.px(x, y))
        .collect()
}

/// Chinese names and levels are drawn with real glyphs (a CJK font, see
/// render::fonts), not missing-glyph boxes: boxes would draw 张伟 and 李娜
/// (and 1级 and 2级's 级) identically, as they draw two unknown characters.
#[test]
fn players_bar_draws_chinese_names_and_levels() {
    let theme = Theme::default();
    let ink = |px: &[Rgb]| px.iter().filter(|&&c| close(c, theme.bar_fg, 60)).count();
    let zhang = top_bar("张伟", "1级");
    let li = top_bar("李娜", "1级");
    let boxes = top_bar("\u{F0000}\u{F0001}", "1级");
    assert!(ink(&zhang) > 80, "{}", ink(&zhang));
    assert_ne!(zhang, li, "two different names draw differently");
    assert_ne!(zhang, boxes, "张伟 is not two missing-glyph boxes");
    // The level: 级 against an unknown character after the same digit.
    assert_ne!(top_bar("x", "1级"), top_bar("x", "1\u{F0000}"));
    // Mixed Latin and CJK, and 无级别, draw without trouble.
    assert!(ink(&top_bar("Wei 张伟 (Beijing)", "无级别")) > ink(&top_bar("Wei", "0")));
}

#[test]
fn custom_pieces_dir() {
    let dir = tempfile::tempdir().expect("tempdir");
    for color in ['w', 'b'] {
        for role in ['K', 'Q', 'R', 'B', 'N', 'P'] {
            let fill = if color == 'w' { "#ffffff" } else { "#101010" };
            let svg = format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" width="45" height="45"><circle cx="22.5" cy="22.5" r="15" fill="{fill}" stroke="#000" stroke-width="1.5"/></svg>"##
            );
            std::fs::write(dir.path().join(format!("{color}{role}.svg")), svg).expect("write");
        }
    }
    let r = Renderer::new(RenderConfig {
        pieces_dir: Some(dir.path().to_owned()),
    })
    .expect("custom set");
    let img = Image::decode(
        &r.render_png(&Frame::from_position(&Chess::default()))
            .expect("png"),
    );
    // Discs: white on e1's centre, dark on e8's centre, nothing on e4.
    assert!(close(
        img.px(4 * 60 + 30, 7 * 60 + 30),
        Rgb(255, 255, 255),
        2
    ));
    assert!(close(img.px(4 * 60 + 30, 30), Rgb(16, 16, 16), 2));
    assert!(close(
        img.px(4 * 60 + 30, 4 * 60 + 30),
        Theme::default().light,
        2
    ));

    // A broken file is a start-up error naming the file.
    std::fs::write(dir.path().join("bN.svg"), "<svg not really").expect("write");
    let err = Renderer::new(RenderConfig {
        pieces_dir: Some(dir.path().to_owned()),
    })
    .expect_err("broken");
    assert!(
        matches!(&err, RenderError::Pieces { path, .. } if path.ends_with("bN.svg")),
        "{err}"
    );
    // A missing file too.
    std::fs::remove_file(dir.path().join("wQ.svg")).expect("rm");
    let err = Renderer::new(RenderConfig {
        pieces_dir: Some(dir.path().to_owned()),
    })
    .expect_err("missing");
    assert!(err.to_string().contains("wQ.svg"), "{err}");
}

#[test]
fn gif_replay_decodes() {
    let mut pos = Chess::default();
    let mut frames = vec![GifFrame::from_position(&pos, None)];
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "c4f7"] {
        let m = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        let squares = (m.from().expect("from"), m.to());
        pos.play_unchecked(m);
        frames.push(GifFrame::from_position(&pos, Some(squares)));
    }
    assert_eq!(frames.last().and_then(|f| f.check), Some(Square::E8));
    let bytes = renderer()
        .render_gif(&GifOptions::default(), &frames)
        .expect("gif");
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = opts.read_info(&bytes[..]).expect("gif header");
    assert_eq!((decoder.width(), decoder.height()), (480, 480));
    let mut count = 0;
    let mut delays = Vec::new();
    while let Some(f) = decoder.read_next_frame().expect("frame") {
        count += 1;
        delays.push(f.delay);
        if count > 1 {
            assert!(
                u32::from(f.width) * u32::from(f.height) < 480 * 480,
                "later frames are partial"
            );
        }
    }
    assert_eq!(count, frames.len());
    assert!(delays.last().copied().unwrap_or(0) >= 300);
    assert!(matches!(
        renderer().render_gif(&GifOptions::default(), &[]),
        Err(RenderError::NoFrames)
    ));
}

#[test]
fn renderer_is_shareable_across_threads() {
    let r = std::sync::Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let r = std::sync::Arc::clone(&r);
            std::thread::spawn(move || {
                let frame = Frame {
                    square_px: 30 + i,
                    ..Frame::from_position(&Chess::default())
                };
                r.render_png(&frame).map(|b| b.len())
            })
        })
        .collect();
    for h in handles {
        assert!(h.join().expect("thread").expect("png") > 100);
    }
}

#[test]
fn points_chart_decodes_with_the_right_size() {
    use chessbot::render::chart::{points_chart, HEIGHT, WIDTH};
    let day = 86_400_000;
    let t0 = 1_700_000_000_000;
    let data: Vec<(i64, i64)> = [0, 1000, 1750, 1200, 10750, 20500, 19000, 25000]
        .iter()
        .enumerate()
        .map(|(i, &p)| (t0 + i as i64 * day, p))
        .collect();
    for (points, title) in [
        (&data[..], "Alice — points"),
        (&data[..1], "One game"),
        (&[][..], "Nobody <yet>"),
        (&[(t0, -1500), (t0, 300)][..], "Same instant"),
    ] {
        let png = points_chart(points, title, chessbot::i18n::Lang::En).expect("chart");
        let mut decoder = png::Decoder::new(std::io::Cursor::new(&png[..]));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("header");
        let mut buf = vec![0; reader.output_buffer_size().expect("a decodable size")];
        let info = reader.next_frame(&mut buf).expect("data");
        assert_eq!((info.width, info.height), (WIDTH, HEIGHT), "{title}");
        // Not blank: some dark (text) and some blue (line) pixels.
        let px: Vec<&[u8]> = buf[..info.buffer_size()].chunks_exact(4).collect();
        assert!(
            px.iter()
                .filter(|p| p[0] < 80 && p[1] < 80 && p[2] < 80)
                .count()
                > 100,
            "{title}"
        );
        if !points.is_empty() {
            assert!(
                px.iter().filter(|p| p[2] > 150 && p[0] < 80).count() > 100,
                "{title}"
            );
        }
    }
}
