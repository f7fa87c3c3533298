//! The USI engine the client plays with: a child process (by default this same
//! `kyobo` binary, `kyobo usi`; any USI engine such as GPS Shogi's `gpsusi`).
//! Its output lines arrive as [`Event::Engine`](super::link::Event).

use super::link::{spawn_line_reader, Event};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// How to start the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    pub program: String,
    pub args: Vec<String>,
}

/// A running engine process.
pub struct UsiEngine {
    child: Child,
    stdin: Option<ChildStdin>,
}

impl UsiEngine {
    /// Starts the engine; its stdout is read on a thread of its own, its stderr
    /// goes to ours.
    pub fn spawn(cmd: &EngineCommand, gen: u64, tx: Sender<Event>) -> Result<UsiEngine, String> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the engine '{}': {e}", cmd.program))?;
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            let _ = child.kill();
            return Err("the engine's output cannot be read".to_string());
        };
        let tx_end = tx.clone();
        spawn_line_reader(
            stdout,
            move |line| tx.send(Event::Engine { gen, line }).is_ok(),
            move |_| {
                let _ = tx_end.send(Event::EngineGone { gen });
            },
        );
        Ok(UsiEngine { child, stdin })
    }

    /// Sends one line; `false` when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> bool {
        match self.stdin.as_mut() {
            Some(stdin) => {
                stdin.write_all(format!("{line}\n").as_bytes()).and_then(|_| stdin.flush()).is_ok()
            }
            None => false,
        }
    }

    /// Asks the engine to quit and waits a little; kills it if it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the engine said about its search, from its `info` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    /// Centipawns from the mover's side; mates as ±(100000 − plies).
    pub score: Option<i64>,
    pub pv: Vec<String>,
}

/// The value written for a mate in `n` plies (negative: being mated).
pub fn mate_score(n: i64) -> i64 {
    let magnitude = 100_000 - n.abs().min(99_999);
    if n >= 0 {
        magnitude
    } else {
        -magnitude
    }
}

impl SearchInfo {
    /// Takes in one `info` line (other lines and `info string` are ignored). A
    /// line with a bound (`lowerbound`/`upperbound`) updates the depth only.
    pub fn update(&mut self, line: &str) {
        let mut tokens = line.split_whitespace();
        if tokens.next() != Some("info") {
            return;
        }
        let tokens: Vec<&str> = tokens.collect();
        if tokens.first() == Some(&"string") {
            return;
        }
        let mut score = None;
        let mut bounded = false;
        let mut pv = None;
        let mut i = 0;
        while i < tokens.len() {
            match tokens[i] {
                "depth" => {
                    if let Some(d) = tokens.get(i + 1).and_then(|t| t.parse().ok()) {
                        self.depth = Some(d);
                    }
                    i += 1;
                }
                "score" => {
                    match (tokens.get(i + 1), tokens.get(i + 2)) {
                        (Some(&"cp"), Some(v)) => score = v.parse::<i64>().ok(),
                        (Some(&"mate"), Some(v)) => {
                            score = match *v {
                                "+" => Some(mate_score(1)),
                                "-" | "-0" => Some(mate_score(-1)),
                                v => v.parse::<i64>().ok().map(mate_score),
                            }
                        }
                        _ => {}
                    }
                    i += 2;
                }
                "lowerbound" | "upperbound" => bounded = true,
                "pv" => {
                    pv = Some(tokens[i + 1..].iter().map(|s| s.to_string()).collect());
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        if bounded {
            return;
        }
        if let Some(s) = score {
            self.score = Some(s);
        }
        if let Some(pv) = pv {
            self.pv = pv;
        }
    }
}

/// The engine's answer: `bestmove <move> [ponder <move>]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    Move(String),
    Resign,
    Win,
}

/// Reads a `bestmove` line.
pub fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut tokens = line.split_whitespace();
    if tokens.next() != Some("bestmove") {
        return None;
    }
    Some(match tokens.next()? {
        "resign" => BestMove::Resign,
        "win" => BestMove::Win,
        m => BestMove::Move(m.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_and_line() {
        let mut info = SearchInfo::default();
        info.update("info depth 3 seldepth 5 score cp 30 nodes 100 pv 7g7f 3c3d");
        info.update("info depth 4 score cp 90 lowerbound pv 2g2f");
        info.update("info string hello");
        assert_eq!(
            info,
            SearchInfo { depth: Some(4), score: Some(30), pv: vec!["7g7f".into(), "3c3d".into()] }
        );
        info.update("info depth 9 score mate 3 pv 5b5a+");
        assert_eq!(info.score, Some(99_997));
        info.update("info score mate -2 pv 5a4a");
        assert_eq!(info.score, Some(-99_998));
        info.update("info score mate - pv 5a4a");
        assert_eq!(info.score, Some(-99_999));
        info.update("info score cp lots depth pv");
        assert_eq!(info.score, Some(-99_999));
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(
            parse_bestmove("bestmove 7g7f ponder 3c3d"),
            Some(BestMove::Move("7g7f".into()))
        );
        assert_eq!(parse_bestmove("bestmove resign"), Some(BestMove::Resign));
        assert_eq!(parse_bestmove("bestmove win"), Some(BestMove::Win));
        assert_eq!(parse_bestmove("bestmove"), None);
        assert_eq!(parse_bestmove("info bestmove"), None);
    }
}
