//! A UCI client over a tokio child process: start the engine, set its
//! options, run one bounded search at a time and read back the best move,
//! the evaluation and the principal variation.
//!
//! Our own rather than a crate: the part of UCI we use is a dozen lines of
//! text (`uci`/`uciok`, `setoption`, `isready`/`readyok`, `position`, `go`,
//! `info … score … pv`, `bestmove`), and what matters here is what the
//! maintained crates do not give: the child is ours to kill (a hung or
//! crashed engine is dropped, which kills it, and the pool starts another),
//! and every wait has a deadline, so no search can outlive its bound.

use std::{path::Path, process::Stdio, time::Duration};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines},
    process::{Child, ChildStdin, ChildStdout, Command},
    time::timeout,
};

use super::Score;

/// How long the engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Extra time a search may take beyond its `movetime` before the engine is
/// considered hung (the engine stops on its own at `movetime`; this covers
/// a slow start on a busy machine).
const GRACE: Duration = Duration::from_secs(5);

/// Why talking to the engine failed. Any of these leaves the process in an
/// unknown state: the caller drops it and starts another.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    #[error("cannot start the engine `{path}`: {source}")]
    Spawn {
        path: String,
        source: std::io::Error,
    },
    #[error("engine i/o: {0}")]
    Io(#[from] std::io::Error),
    #[error("the engine exited")]
    Exited,
    #[error("the engine did not answer in time")]
    Timeout,
    #[error("the engine said something unexpected: {0}")]
    Protocol(String),
}

/// The limits of one search. Every search has a move time and a node
/// limit; the depth is optional.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub movetime_ms: u64,
    pub nodes: u64,
    pub depth: Option<u32>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move in UCI (`e2e4`), `None` if the position has no moves.
    pub best: Option<String>,
    /// The evaluation from the side to move's point of view, if the
    /// engine printed one.
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
}

/// One principal variation of a multi-PV search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// The line's moves in UCI, first the move it is about.
    pub moves: Vec<String>,
    /// Its evaluation, from the side to move's point of view.
    pub score: Score,
    pub depth: u32,
}

/// How the operating system schedules an engine's process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcessPriority {
    Normal,
    /// The lowest (`nice` 19): the process runs only on CPU time nothing
    /// else wants, as background work should.
    Lowest,
}

/// Makes the process `command` starts run at the lowest priority, set in
/// the child before the engine is executed: every thread the engine starts
/// inherits it (a `setpriority` on the pid after the start would reach only
/// its main thread on Linux, not search threads already running).
#[cfg(unix)]
fn lowest_priority(command: &mut Command) {
    // SAFETY: the closure runs in the forked child before `exec` and only
    // makes one async-signal-safe system call, allocating nothing.
    unsafe {
        command.pre_exec(|| {
            if libc::setpriority(libc::PRIO_PROCESS, 0, 19) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Elsewhere the engine runs at the normal priority.
#[cfg(not(unix))]
fn lowest_priority(_command: &mut Command) {}

/// One running engine process.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    /// The options last set, so a search that needs other ones only sends
    /// what changed.
    options: Vec<(String, String)>,
}

impl UciEngine {
    /// Starts the engine at `path` and completes the UCI handshake, setting
    /// `options` (name, value) once it is ready.
    pub async fn start(path: &Path, options: &[(&str, String)]) -> Result<UciEngine, UciError> {
        UciEngine::start_at(path, options, ProcessPriority::Normal).await
    }

    /// [`UciEngine::start`] with the process scheduled at `priority`.
    pub async fn start_at(
        path: &Path,
        options: &[(&str, String)],
        priority: ProcessPriority,
    ) -> Result<UciEngine, UciError> {
        let mut command = Command::new(path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            // Dropping the engine (after an error or a hang) kills it.
            .kill_on_drop(true);
        if priority == ProcessPriority::Lowest {
            lowest_priority(&mut command);
        }
        let mut child = command.spawn().map_err(|source| UciError::Spawn {
            path: path.display().to_string(),
            source,
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(UciError::Protocol("no pipes to the engine".to_owned()));
        };
        let mut engine = UciEngine {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            options: Vec::new(),
        };
        engine.send("uci").await?;
        engine.wait_for("uciok", HANDSHAKE).await?;
        for (name, value) in options {
            engine.set_option(name, value).await?;
        }
        engine.ready().await?;
        Ok(engine)
    }

    /// The operating system's id of the process (for tests that kill it).
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Sets an option if its value differs from the one last set.
    pub async fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        if let Some(known) = self.options.iter_mut().find(|(n, _)| n == name) {
            if known.1 == value {
                return Ok(());
            }
            known.1 = value.to_owned();
        } else {
            self.options.push((name.to_owned(), value.to_owned()));
        }
        self.send(&format!("setoption name {name} value {value}"))
            .await
    }

    /// Tells the engine a new game starts (it clears its hash) and waits
    /// until it is ready.
    pub async fn new_game(&mut self) -> Result<(), UciError> {
        self.send("ucinewgame").await?;
        self.ready().await
    }

    /// Waits for `readyok`.
    pub async fn ready(&mut self) -> Result<(), UciError> {
        self.send("isready").await?;
        self.wait_for("readyok", HANDSHAKE).await
    }

    /// Searches the position `fen` within `limits`. Past the move time
    /// plus a grace period the engine is told to stop; if it still does not
    /// answer, the search fails with [`UciError::Timeout`] and the engine
    /// must be dropped.
    pub async fn search(&mut self, fen: &str, limits: &Limits) -> Result<SearchResult, UciError> {
        self.send(&format!("position fen {fen}")).await?;
        let mut go = format!("go movetime {} nodes {}", limits.movetime_ms, limits.nodes);
        if let Some(depth) = limits.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        self.send(&go).await?;
        let bound = Duration::from_millis(limits.movetime_ms) + GRACE;
        match timeout(bound, self.read_search()).await {
            Ok(result) => result,
            Err(_) => {
                // Ask once more, briefly; a hung engine is killed by the caller.
                self.send("stop").await?;
                match timeout(Duration::from_secs(1), self.read_search()).await {
                    Ok(result) => result,
                    Err(_) => Err(UciError::Timeout),
                }
            }
        }
    }

    /// Searches `fen` for its `lines` best moves (UCI `MultiPV`), each with
    /// its evaluation, best first; fewer when the position has fewer legal
    /// moves, none when it has none. The caller sets `MultiPV` (the pool
    /// does). Bounded like [`UciEngine::search`].
    pub async fn search_lines(
        &mut self,
        fen: &str,
        limits: &Limits,
    ) -> Result<Vec<PvLine>, UciError> {
        self.send(&format!("position fen {fen}")).await?;
        let mut go = format!("go movetime {} nodes {}", limits.movetime_ms, limits.nodes);
        if let Some(depth) = limits.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        self.send(&go).await?;
        let bound = Duration::from_millis(limits.movetime_ms) + GRACE;
        match timeout(bound, self.read_lines()).await {
            Ok(result) => result,
            Err(_) => {
                self.send("stop").await?;
                match timeout(Duration::from_secs(1), self.read_lines()).await {
                    Ok(result) => result,
                    Err(_) => Err(UciError::Timeout),
                }
            }
        }
    }

    async fn read_lines(&mut self) -> Result<Vec<PvLine>, UciError> {
        let mut lines: Vec<Option<PvLine>> = Vec::new();
        loop {
            let line = self.next_line().await?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_pv_info(&line, &mut lines),
                Some("bestmove") => {
                    if words.next().is_none_or(|m| m == "(none)" || m == "0000") {
                        return Ok(Vec::new());
                    }
                    // The lines as last reported, in order; a line missing
                    // in the middle ends the list there.
                    return Ok(lines.into_iter().map_while(|l| l).collect());
                }
                _ => {}
            }
        }
    }

    async fn read_search(&mut self) -> Result<SearchResult, UciError> {
        let mut result = SearchResult {
            best: None,
            score: None,
            depth: 0,
            nodes: 0,
        };
        loop {
            let line = self.next_line().await?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_info(&line, &mut result),
                Some("bestmove") => {
                    result.best = words
                        .next()
                        .filter(|m| *m != "(none)" && *m != "0000")
                        .map(str::to_owned);
                    return Ok(result);
                }
                _ => {}
            }
        }
    }

    async fn send(&mut self, line: &str) -> Result<(), UciError> {
        self.stdin.write_all(line.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        Ok(())
    }

    async fn next_line(&mut self) -> Result<String, UciError> {
        match self.lines.next_line().await? {
            Some(line) => Ok(line),
            None => Err(UciError::Exited),
        }
    }

    async fn wait_for(&mut self, word: &str, within: Duration) -> Result<(), UciError> {
        let wait = async {
            loop {
                if self.next_line().await?.trim() == word {
                    return Ok(());
                }
            }
        };
        timeout(within, wait).await.map_err(|_| UciError::Timeout)?
    }
}

/// Reads an `info` line into `result`: the main line's (multipv 1) depth,
/// nodes and score. Bound scores (`lowerbound`/`upperbound`) are skipped:
/// they are not the engine's verdict.
fn read_info(line: &str, result: &mut SearchResult) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .copied()
    };
    if value("multipv").is_some_and(|m| m != "1") {
        return;
    }
    if words.contains(&"lowerbound") || words.contains(&"upperbound") {
        return;
    }
    if let Some(nodes) = value("nodes").and_then(|n| n.parse().ok()) {
        result.nodes = nodes;
    }
    let Some(at) = words.iter().position(|w| *w == "score") else {
        return;
    };
    let score = match (
        words.get(at + 1),
        words.get(at + 2).map(|n| n.parse::<i32>()),
    ) {
        (Some(&"cp"), Some(Ok(cp))) => Score::Cp(cp),
        (Some(&"mate"), Some(Ok(n))) => Score::Mate(n),
        _ => return,
    };
    result.score = Some(score);
    if let Some(depth) = value("depth").and_then(|d| d.parse().ok()) {
        result.depth = depth;
    }
}

/// Reads an `info … multipv k … score … pv …` line into `lines[k − 1]`
/// (the latest report of each line wins). Bound scores and lines without a
/// `pv` are skipped.
fn read_pv_info(line: &str, lines: &mut Vec<Option<PvLine>>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.contains(&"lowerbound") || words.contains(&"upperbound") {
        return;
    }
    let after = |key: &str| words.iter().position(|w| *w == key).map(|i| i + 1);
    let index: usize = match after("multipv") {
        Some(i) => match words.get(i).and_then(|m| m.parse().ok()) {
            Some(k) if k >= 1 => k,
            _ => return,
        },
        None => 1,
    };
    let Some(at) = after("score") else { return };
    let score = match (words.get(at), words.get(at + 1).map(|n| n.parse::<i32>())) {
        (Some(&"cp"), Some(Ok(cp))) => Score::Cp(cp),
        (Some(&"mate"), Some(Ok(n))) => Score::Mate(n),
        _ => return,
    };
    let Some(pv) = after("pv") else { return };
    let moves: Vec<String> = words[pv..].iter().map(|m| (*m).to_owned()).collect();
    if moves.is_empty() {
        return;
    }
    let depth = after("depth")
        .and_then(|i| words.get(i))
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    if lines.len() < index {
        lines.resize(index, None);
    }
    lines[index - 1] = Some(PvLine {
        moves,
        score,
        depth,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> SearchResult {
        SearchResult {
            best: None,
            score: None,
            depth: 0,
            nodes: 0,
        }
    }

    #[test]
    fn info_lines() {
        let mut r = empty();
        read_info(
            "info depth 12 seldepth 15 multipv 1 score cp 31 nodes 50311 nps 1000 pv e2e4 e7e5",
            &mut r,
        );
        assert_eq!(r.score, Some(Score::Cp(31)));
        assert_eq!((r.depth, r.nodes), (12, 50311));
        read_info("info depth 13 score mate -3 nodes 60000 pv h2h3", &mut r);
        assert_eq!(r.score, Some(Score::Mate(-3)));
        assert_eq!(r.depth, 13);
    }

    #[test]
    fn multi_pv_lines() {
        let mut lines = Vec::new();
        read_pv_info(
            "info depth 9 multipv 1 score cp 40 nodes 5 pv e2e4 e7e5",
            &mut lines,
        );
        read_pv_info(
            "info depth 9 multipv 2 score mate -2 nodes 5 pv g2g4 e7e5",
            &mut lines,
        );
        read_pv_info(
            "info depth 10 multipv 1 score cp 35 nodes 9 pv d2d4",
            &mut lines,
        );
        // Skipped: a bound, a line without moves, a nonsense index.
        read_pv_info(
            "info depth 11 multipv 1 score cp 90 lowerbound pv c2c4",
            &mut lines,
        );
        read_pv_info("info depth 11 multipv 2 score cp 90", &mut lines);
        read_pv_info("info depth 11 multipv 0 score cp 90 pv c2c4", &mut lines);
        let got: Vec<PvLine> = lines.into_iter().flatten().collect();
        assert_eq!(
            got,
            vec![
                PvLine {
                    moves: vec!["d2d4".to_owned()],
                    score: Score::Cp(35),
                    depth: 10
                },
                PvLine {
                    moves: vec!["g2g4".to_owned(), "e7e5".to_owned()],
                    score: Score::Mate(-2),
                    depth: 9
                },
            ]
        );
    }

    #[test]
    fn other_lines_and_bounds_are_ignored() {
        let mut r = empty();
        read_info("info depth 9 score cp 50 lowerbound nodes 10", &mut r);
        assert_eq!(r.score, None);
        read_info("info depth 9 multipv 2 score cp 10 nodes 10", &mut r);
        assert_eq!(r.score, None);
        read_info("info string NNUE evaluation using nn.nnue enabled", &mut r);
        assert_eq!(r.score, None);
        read_info("info depth 9 score cp", &mut r);
        assert_eq!(r.score, None);
    }
}
