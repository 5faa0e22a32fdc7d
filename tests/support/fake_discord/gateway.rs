//! The WebSocket gateway (`topics/gateway`): HELLO, IDENTIFY → READY +
//! GUILD_CREATE, heartbeats, RESUME, and dispatches pushed by the harness.
//!
//! Faked: opcodes 0 (dispatch, with a per-connection sequence number),
//! 1 (heartbeat, answered with 11), 2 (identify), 6 (resume, always answered
//! with 9 INVALID_SESSION `false`, so the client re-identifies: this fake
//! keeps no replay buffer), 10 (hello), 11 (heartbeat ack). Presence updates
//! (op 3) and member requests (op 8) are accepted and ignored.
//! Not faked: zlib transport compression (serenity asks for payload
//! compression in IDENTIFY, but Discord only compresses when asked to in the
//! URL, and serenity reads Text frames as plain JSON), ETF encoding, rate
//! limits on gateway sends, sharding beyond one shard.

use std::{sync::Arc, time::Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::{
    model,
    recorder::{Outgoing, RecordedIdentify, Session, Shared},
};

/// Heartbeat interval sent in HELLO. Discord uses ~41 s; a shorter one would
/// only add noise to latency measurements.
pub const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// Runs one gateway connection until either side closes it.
pub async fn run(shared: Arc<Shared>, socket: WebSocket, ws_url: String) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn_id = shared.with(|w| {
        let id = w.new_id();
        w.sessions.push(Session {
            conn_id: id,
            tx: tx.clone(),
            ready: false,
        });
        id
    });
    let (mut sink, mut stream) = socket.split();
    let mut seq: u64 = 0;

    let hello =
        json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": null, "t": null});
    if send(&mut sink, &hello).await.is_err() {
        remove_session(&shared, conn_id);
        return;
    }

    loop {
        tokio::select! {
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(b))) => String::from_utf8_lossy(&b).into_owned(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else {
                    eprintln!("fake discord gateway: undecodable frame {text:?}");
                    continue;
                };
                let op = payload["op"].as_u64().unwrap_or(u64::MAX);
                match op {
                    // Heartbeat → heartbeat ack.
                    1 => {
                        if send(&mut sink, &json!({"op": 11, "d": null, "s": null, "t": null})).await.is_err() {
                            break;
                        }
                    }
                    2 => {
                        if !shared.read(|w| w.token_valid) {
                            // Discord closes with 4004 "Authentication failed".
                            let _ = sink.send(close(4004, "Authentication failed.")).await;
                            break;
                        }
                        let session_id = format!("fake-session-{conn_id}");
                        shared.with(|w| {
                            w.identifies.push(RecordedIdentify {
                                intents: payload["d"]["intents"].as_u64().unwrap_or(0),
                                shard: payload["d"].get("shard").cloned(),
                                session_id: session_id.clone(),
                                at: Instant::now(),
                            })
                        });
                        let (channels, threads) = shared.read(|w| {
                            let mut channels = Vec::new();
                            let mut threads = Vec::new();
                            for c in w.channels.values() {
                                if c.get("thread_metadata").is_some() {
                                    threads.push(c.clone());
                                } else {
                                    channels.push(c.clone());
                                }
                            }
                            (channels, threads)
                        });
                        let ready = dispatch(&mut seq, "READY", model::ready(&session_id, &ws_url));
                        let guild = dispatch(&mut seq, "GUILD_CREATE", model::guild_create(&channels, &threads));
                        if send(&mut sink, &ready).await.is_err() || send(&mut sink, &guild).await.is_err() {
                            break;
                        }
                        // Only now may the harness dispatch interactions: the
                        // client has its session and its cache has the guild.
                        shared.with(|w| {
                            if let Some(s) = w.sessions.iter_mut().find(|s| s.conn_id == conn_id) {
                                s.ready = true;
                            }
                        });
                    }
                    // Resume: this fake cannot replay missed events, so it
                    // does what Discord does when a session is gone.
                    6 => {
                        if send(&mut sink, &json!({"op": 9, "d": false, "s": null, "t": null})).await.is_err() {
                            break;
                        }
                    }
                    3 | 4 | 8 => {}
                    other => eprintln!("fake discord gateway: ignoring op {other}: {text}"),
                }
            }
            out = rx.recv() => {
                match out {
                    Some(Outgoing::Dispatch(t, d)) => {
                        let frame = dispatch(&mut seq, &t, d);
                        if send(&mut sink, &frame).await.is_err() {
                            break;
                        }
                    }
                    Some(Outgoing::Close(code, reason)) => {
                        let _ = sink.send(close(code, &reason)).await;
                        break;
                    }
                    None => break,
                }
            }
        }
    }
    remove_session(&shared, conn_id);
}

fn dispatch(seq: &mut u64, t: &str, d: Value) -> Value {
    *seq += 1;
    json!({"op": 0, "s": *seq, "t": t, "d": d})
}

fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.to_owned().into(),
    }))
}

async fn send(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    v: &Value,
) -> Result<(), axum::Error> {
    // Text frames: serenity treats Binary frames as zlib-compressed.
    sink.send(Message::Text(v.to_string())).await
}

fn remove_session(shared: &Shared, conn_id: u64) {
    shared.with(|w| w.sessions.retain(|s| s.conn_id != conn_id));
}
