//! The board socket's frames, JSON text with a version field `v` (1):
//! the page sends `move` and `act`; the server sends `state` (everything
//! the page shows, for its viewer), `refused` (an action of the viewer's
//! was refused: nothing changed) and `said`.

use serde::Deserialize;
use serde_json::{json, Value};
use shakmaty::Color;

use crate::service::{BoardAction, LiveView};

/// The protocol version both sides speak.
pub const VERSION: u64 = 1;

/// The largest frame a page may send (bytes); a larger one closes the socket.
pub const MAX_FRAME: usize = 4096;

/// What a page asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// A move in UCI (`e2e4`, `e7e8q`, a Crazyhouse drop `N@f3`) on the
    /// position at `ply` plies.
    Move { uci: String, ply: i64 },
    /// A board button on the position at `ply` plies.
    Act { action: BoardAction, ply: i64 },
}

/// Why a frame was not understood; the socket closes with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Malformed {
    TooLarge,
    NotJson,
    UnknownVersion,
    Unknown,
}

impl Malformed {
    /// The WebSocket close code and reason.
    pub fn close(&self) -> (u16, &'static str) {
        match self {
            Malformed::TooLarge => (1009, "frame over 4 KB"),
            Malformed::NotJson => (1007, "frame is not valid JSON"),
            Malformed::UnknownVersion => (1002, "unknown protocol version"),
            Malformed::Unknown => (1008, "unknown request"),
        }
    }
}

#[derive(Deserialize)]
struct Frame {
    v: Option<u64>,
    t: Option<String>,
    uci: Option<String>,
    act: Option<String>,
    ply: Option<i64>,
}

/// Reads one frame from a page.
pub fn parse(text: &str) -> Result<Request, Malformed> {
    if text.len() > MAX_FRAME {
        return Err(Malformed::TooLarge);
    }
    let frame: Frame = serde_json::from_str(text).map_err(|_| Malformed::NotJson)?;
    if frame.v != Some(VERSION) {
        return Err(Malformed::UnknownVersion);
    }
    let ply = frame.ply.filter(|p| *p >= 0).ok_or(Malformed::Unknown)?;
    match frame.t.as_deref() {
        Some("move") => {
            let uci = frame
                .uci
                .filter(|u| is_uci_shaped(u))
                .ok_or(Malformed::Unknown)?;
            Ok(Request::Move { uci, ply })
        }
        Some("act") => {
            let action = frame
                .act
                .as_deref()
                .and_then(BoardAction::from_id)
                .ok_or(Malformed::Unknown)?;
            Ok(Request::Act { action, ply })
        }
        _ => Err(Malformed::Unknown),
    }
}

/// Squares and an optional promotion piece (`e2e4`, `e7e8q`; a king in
/// Antichess, `e7e8k`), or a drop (`N@f3`). Whether the move is legal is
/// the service's to say.
fn is_uci_shaped(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 if b[1] == b'@' => is_drop_shaped(b),
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"qrbnk".contains(&b[4]),
        _ => false,
    }
}

/// `N@f3`: a piece (never a king) and the square it goes on.
fn is_drop_shaped(b: &[u8]) -> bool {
    matches!(b, [piece, b'@', file, rank]
        if b"PNBRQ".contains(piece) && (b'a'..=b'h').contains(file) && (b'1'..=b'8').contains(rank))
}

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The `state` frame of `view`.
pub fn state(view: &LiveView) -> String {
    let [(white, white_points), (black, black_points)] = &view.players;
    let frame = json!({
        "v": VERSION,
        "t": "state",
        "game": view.game_id,
        "version": view.version,
        "ply": view.ply,
        "fen": view.fen,
        "turn": side(view.turn),
        "you": view.viewer.map(side),
        "orientation": side(view.orientation),
        "last": view.last_move.as_ref().map(|(from, to)| [from, to]),
        "check": view.check,
        "dests": view.dests,
        "variant": variant(view),
        "moves": view.moves,
        "opening": view.opening,
        "clock": view.clock.as_ref().map(|c| json!({
            "white_ms": c.white_ms,
            "black_ms": c.black_ms,
            "running": c.running.map(side),
        })),
        "deadline_ms": view.deadline_ms,
        "players": {
            "white": {"name": white, "points": white_points},
            "black": {"name": black, "points": black_points},
        },
        "offers": {
            "draw": view.draw_offer.map(side),
            "takeback": view.takeback_by.map(side),
            "rematch": view.rematch_by.map(side),
        },
        "rematch_game": view.rematch_game,
        "can": {
            "resign": view.can.resign,
            "draw_offer": view.can.draw_offer,
            "draw_claim": view.can.draw_claim,
            "takeback": view.can.takeback,
            "abort": view.can.abort,
            "give_time": view.can.give_time,
            "rematch": view.can.rematch,
        },
        "status": view.status,
        "end": view.end.as_ref().map(|e| json!({
            "result": e.result,
            "text": e.text,
            "points": e.points,
        })),
    });
    frame.to_string()
}

/// The state frame's `variant`: its key and name, and what the board
/// shows besides the pieces (pockets and drops, checks given) where the
/// variant has them.
fn variant(view: &LiveView) -> Value {
    let v = &view.variant;
    let pocket = |counts: &[u8; 5]| {
        let mut hand = serde_json::Map::new();
        for (role, count) in crate::service::POCKET_ROLES.iter().zip(counts) {
            hand.insert(role.char().to_string(), json!(count));
        }
        Value::Object(hand)
    };
    json!({
        "key": v.key,
        "name": v.name,
        "pockets": v.pockets.as_ref().map(|[white, black]| json!({
            "white": pocket(white),
            "black": pocket(black),
        })),
        "drops": v.drops,
        "checks": v.checks_given.map(|[white, black]| json!({"white": white, "black": black})),
    })
}

/// A frame carrying one text (`refused`, `said`).
pub fn text(kind: &str, text: &str) -> String {
    let frame: Value = json!({"v": VERSION, "t": kind, "text": text});
    frame.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::buttons::GameButton;

    #[test]
    fn moves_and_actions_are_read() {
        assert_eq!(
            parse(r#"{"v":1,"t":"move","uci":"e7e8q","ply":12}"#),
            Ok(Request::Move {
                uci: "e7e8q".into(),
                ply: 12
            })
        );
        assert_eq!(
            parse(r#"{"v":1,"t":"act","act":"draw-offer","ply":3}"#),
            Ok(Request::Act {
                action: BoardAction::Button(GameButton::DrawOffer),
                ply: 3
            })
        );
        assert_eq!(
            parse(r#"{"v":1,"t":"act","act":"abort","ply":0}"#),
            Ok(Request::Act {
                action: BoardAction::Abort,
                ply: 0
            })
        );
    }

    #[test]
    fn drops_and_king_promotions_are_read() {
        for uci in ["N@f3", "P@e5", "Q@h8", "e7e8k"] {
            let frame = format!(r#"{{"v":1,"t":"move","uci":"{uci}","ply":4}}"#);
            assert_eq!(
                parse(&frame),
                Ok(Request::Move {
                    uci: uci.into(),
                    ply: 4
                }),
                "{uci}"
            );
        }
    }

    #[test]
    fn anything_else_is_malformed() {
        assert_eq!(parse("{"), Err(Malformed::NotJson));
        assert_eq!(parse("[1,2]"), Err(Malformed::NotJson));
        assert_eq!(parse(&"x".repeat(5000)), Err(Malformed::TooLarge));
        assert_eq!(
            parse(r#"{"v":2,"t":"move","uci":"e2e4","ply":0}"#),
            Err(Malformed::UnknownVersion)
        );
        for bad in [
            r#"{"v":1,"t":"move","uci":"e2e9","ply":0}"#,
            r#"{"v":1,"t":"move","uci":"e7e8x","ply":0}"#,
            r#"{"v":1,"t":"move","uci":"K@e4","ply":0}"#,
            r#"{"v":1,"t":"move","uci":"n@e4","ply":0}"#,
            r#"{"v":1,"t":"move","uci":"N@e9","ply":0}"#,
            r#"{"v":1,"t":"move","uci":"N@e44","ply":0}"#,
            r#"{"v":1,"t":"move","uci":"Nf3","ply":0}"#,
            r#"{"v":1,"t":"move","uci":"e2e4","ply":-1}"#,
            r#"{"v":1,"t":"move","uci":"e2e4"}"#,
            r#"{"v":1,"t":"act","act":"resign","ply":0}"#,
            r#"{"v":1,"t":"act","act":"explode","ply":0}"#,
            r#"{"v":1,"t":"chat","ply":0}"#,
        ] {
            assert_eq!(parse(bad), Err(Malformed::Unknown), "{bad}");
        }
    }
}
