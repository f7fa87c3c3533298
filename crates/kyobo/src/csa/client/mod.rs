//! The client proper: log in, read the game summary, agree, play the game with the
//! engine, save the record; game after game, reconnecting when the connection
//! fails.

mod game;

use super::clock::Margin;
use super::link::{Connection, Event, Transcript};
use super::summary::{GameSummary, SummaryReader};
use super::usi_process::{EngineCommand, UsiEngine};
use std::collections::VecDeque;
use std::fmt;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Everything the client needs to know, settled from the settings file and flags.
#[derive(Clone, Debug)]
pub struct Settings {
    pub host: String,
    pub port: u16,
    pub id: String,
    /// The password; never written anywhere.
    pub password: String,
    /// A game name such as `floodgate-300-10F`, sent as `<game>,<password>` in
    /// the password field (shogi-server's convention); `None` sends the password
    /// alone.
    pub game_name: Option<String>,
    pub games: u32,
    pub engine: EngineCommand,
    pub usi_options: Vec<(String, String)>,
    pub records_dir: PathBuf,
    pub log: Option<PathBuf>,
    /// Milliseconds always kept back from each move for the network.
    pub margin_ms: u64,
    /// An empty line goes to the server after this long without sending.
    pub keepalive: Duration,
    /// The first wait before reconnecting; doubled on each failure in a row, at
    /// most a minute.
    pub retry_delay: Duration,
    /// Failures in a row (connecting, a dropped connection) before giving up.
    pub max_retries: u32,
    /// Send floodgate's evaluation comment (`'* <score> <pv>`) with each move.
    pub eval_comment: bool,
    /// How long a move may take in a game with no clock.
    pub untimed_move_ms: u64,
    /// Send the increment as `binc`/`winc`. Engines that refuse them (GPS
    /// Shogi's `gpsusi` stops on `binc`) get the same clock without: the
    /// increment is already in the main time given, so the edge is unchanged.
    pub usi_increment: bool,
}

impl Settings {
    /// The password field of `LOGIN`.
    pub fn login_secret(&self) -> String {
        match (&self.game_name, self.password.is_empty()) {
            (Some(g), true) => g.clone(),
            (Some(g), false) => format!("{g},{}", self.password),
            (None, _) => self.password.clone(),
        }
    }
}

/// Why the client stopped.
#[derive(Debug)]
pub enum ClientError {
    /// The connection failed or closed before a game (worth retrying).
    Connection(String),
    /// A connection that gave no game: a summary we refused, the opponent's
    /// `REJECT` (worth retrying).
    NoGame(String),
    /// The server refused the id and password at the first login of the run;
    /// retrying would not help.
    LoginRejected(String),
    /// The engine could not be started or did not answer.
    Engine(String),
    /// The connection failed `attempts` times in a row.
    GaveUp { attempts: u32, last: String },
    /// A record or transcript file could not be written.
    File(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Connection(why) | ClientError::NoGame(why) => write!(f, "{why}"),
            ClientError::LoginRejected(why) => write!(f, "the server rejected the login: {why}"),
            ClientError::Engine(why) => write!(f, "engine: {why}"),
            ClientError::GaveUp { attempts, last } => {
                write!(f, "gave up after {attempts} failed attempts in a row; the last: {last}")
            }
            ClientError::File(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ClientError {}

impl ClientError {
    /// Whether connecting again may help (else the run ends with the error).
    pub fn retryable(&self) -> bool {
        matches!(self, ClientError::Connection(_) | ClientError::NoGame(_))
    }
}

/// How a game ended for us.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Lose,
    Draw,
    /// `#CENSORED`: ended by the server without a result (max moves).
    Censored,
    /// `#CHUDAN`: interrupted.
    Interrupted,
    /// The connection dropped before a result came.
    Disconnected,
}

impl GameResult {
    fn word(self) -> &'static str {
        match self {
            GameResult::Win => "WIN",
            GameResult::Lose => "LOSE",
            GameResult::Draw => "DRAW",
            GameResult::Censored => "CENSORED",
            GameResult::Interrupted => "INTERRUPTED",
            GameResult::Disconnected => "DISCONNECTED",
        }
    }

    fn gameover(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            _ => "draw",
        }
    }
}

/// One game's end.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    pub result: GameResult,
}

/// Games, results and the failures met on the way, for the closing summary.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub other: u32,
}

/// The client and its links.
pub struct Client {
    s: Settings,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    pending: VecDeque<Event>,
    engine: Option<UsiEngine>,
    engine_gen: u64,
    engine_name: String,
    /// `bestmove` lines still to come from searches whose answer no longer matters.
    stale_bestmoves: u32,
    conn: Option<Connection>,
    conn_seq: u64,
    /// A login has succeeded in this run: a later refusal is retried, not final.
    logged_in_once: bool,
    last_sent: Instant,
    transcript: Transcript,
    margin: Margin,
    pub tally: Tally,
}

/// Prints one progress line.
fn say(line: &str) {
    crate::print_line(line);
}

/// The wait before the `failures`-th retry in a row.
pub fn backoff(first: Duration, failures: u32) -> Duration {
    let factor = 1u32 << failures.saturating_sub(1).min(6);
    (first * factor).min(Duration::from_secs(60))
}

impl Client {
    pub fn new(s: Settings) -> Result<Client, ClientError> {
        let file = match &s.log {
            None => None,
            Some(p) => {
                Some(std::fs::OpenOptions::new().create(true).append(true).open(p).map_err(
                    |e| ClientError::File(format!("cannot open the log {}: {e}", p.display())),
                )?)
            }
        };
        let transcript = Transcript::new(file, &s.login_secret());
        let (tx, rx) = channel();
        let margin = Margin::new(s.margin_ms);
        Ok(Client {
            s,
            tx,
            rx,
            pending: VecDeque::new(),
            engine: None,
            engine_gen: 0,
            engine_name: String::new(),
            stale_bestmoves: 0,
            conn: None,
            conn_seq: 0,
            logged_in_once: false,
            last_sent: Instant::now(),
            transcript,
            margin,
            tally: Tally::default(),
        })
    }

    /// Plays the settings' number of games; `Ok` once they are played.
    pub fn run(&mut self) -> Result<(), ClientError> {
        self.start_engine()?;
        let mut failures = 0u32;
        while self.tally.games < self.s.games {
            let number = self.tally.games + 1;
            let attempt = self.one_connection(number);
            self.hang_up();
            match attempt {
                Ok(outcome) => {
                    let dropped = outcome.result == GameResult::Disconnected;
                    failures = u32::from(dropped);
                    if dropped {
                        self.wait_before_retry(failures, "the connection dropped during the game");
                    } else if self.tally.games < self.s.games {
                        // Let the server see the last connection go first.
                        std::thread::sleep(Duration::from_millis(500));
                    }
                }
                Err(retry) if retry.retryable() => {
                    failures += 1;
                    let why = retry.to_string();
                    self.check_retries(failures, &why)?;
                    self.wait_before_retry(failures, &why);
                }
                Err(fatal) => {
                    self.stop_engine();
                    return Err(fatal);
                }
            }
        }
        let t = &self.tally;
        say(&format!(
            "played {} games: {} won, {} lost, {} drawn, {} without a result",
            t.games, t.wins, t.losses, t.draws, t.other
        ));
        self.stop_engine();
        Ok(())
    }

    fn check_retries(&mut self, failures: u32, why: &str) -> Result<(), ClientError> {
        if failures > self.s.max_retries {
            self.stop_engine();
            return Err(ClientError::GaveUp { attempts: failures, last: why.to_string() });
        }
        Ok(())
    }

    fn wait_before_retry(&mut self, failures: u32, why: &str) {
        let wait = backoff(self.s.retry_delay, failures);
        say(&format!("{why}; connecting again in {:.1} s", wait.as_secs_f64()));
        self.transcript.note(&format!("{why}; retry in {} ms", wait.as_millis()));
        std::thread::sleep(wait);
    }

    fn hang_up(&mut self) {
        if let Some(c) = self.conn.take() {
            c.close();
        }
        self.pending.retain(|e| !matches!(e, Event::Server { .. } | Event::ServerClosed { .. }));
    }

    // ---- the engine ----------------------------------------------------------

    fn start_engine(&mut self) -> Result<(), ClientError> {
        self.engine_gen += 1;
        let engine = UsiEngine::spawn(&self.s.engine, self.engine_gen, self.tx.clone())
            .map_err(ClientError::Engine)?;
        self.engine = Some(engine);
        self.stale_bestmoves = 0;
        self.engine_send("usi");
        let mut name = String::new();
        self.wait_engine(Duration::from_secs(20), |line| {
            if let Some(n) = line.strip_prefix("id name ") {
                name = n.trim().to_string();
            }
            line.trim() == "usiok"
        })
        .map_err(|e| ClientError::Engine(format!("no usiok: {e}")))?;
        self.engine_name = if name.is_empty() { self.s.engine.program.clone() } else { name };
        for (n, v) in self.s.usi_options.clone() {
            self.engine_send(&format!("setoption name {n} value {v}"));
        }
        self.engine_ready(Duration::from_secs(120))
            .map_err(|e| ClientError::Engine(format!("no readyok: {e}")))?;
        say(&format!("engine: {}", self.engine_name));
        Ok(())
    }

    fn stop_engine(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }

    fn engine_send(&mut self, line: &str) {
        if let Some(e) = self.engine.as_mut() {
            if !e.send(line) {
                self.transcript.note("the engine no longer reads its input");
            }
        }
    }

    fn engine_ready(&mut self, timeout: Duration) -> Result<(), String> {
        self.engine_send("isready");
        self.wait_engine(timeout, |line| line.trim() == "readyok")
    }

    /// Waits for an engine line for which `done` is true; server lines that come
    /// meanwhile are kept for later, and the keep-alive goes on.
    fn wait_engine(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        let mut kept = VecDeque::new();
        let result = loop {
            let Some(event) = self.next_event(deadline) else {
                break Err(format!("no answer within {} s", timeout.as_secs()));
            };
            match event {
                Event::Engine { line, .. } => {
                    if line.starts_with("bestmove") && self.stale_bestmoves > 0 {
                        self.stale_bestmoves -= 1;
                        continue;
                    }
                    if done(&line) {
                        break Ok(());
                    }
                }
                Event::EngineGone { .. } => {
                    self.engine = None;
                    break Err("the engine has stopped".to_string());
                }
                other => kept.push_back(other),
            }
        };
        while let Some(e) = kept.pop_back() {
            self.pending.push_front(e);
        }
        result
    }

    /// The next event of the current connection and engine before `deadline`,
    /// sending keep-alive lines on the way; `None` at the deadline.
    fn next_event(&mut self, deadline: Instant) -> Option<Event> {
        loop {
            if let Some(e) = self.pending.pop_front() {
                return Some(e);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            let keepalive_at = self.last_sent + self.s.keepalive;
            if self.conn.is_some() && now >= keepalive_at {
                self.send_server("");
                continue;
            }
            let until = if self.conn.is_some() { deadline.min(keepalive_at) } else { deadline };
            match self.rx.recv_timeout(until.saturating_duration_since(now)) {
                Ok(e) => {
                    if self.is_current(&e) {
                        return Some(e);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn is_current(&mut self, e: &Event) -> bool {
        let conn = self.conn.as_ref().map(|c| c.id);
        match e {
            Event::Server { conn: c, line } => {
                if Some(*c) == conn {
                    self.transcript.received(line);
                    true
                } else {
                    false
                }
            }
            Event::ServerClosed { conn: c, reason } => {
                if Some(*c) == conn {
                    self.transcript.note(&format!("connection closed: {reason}"));
                    true
                } else {
                    false
                }
            }
            Event::Engine { gen, .. } | Event::EngineGone { gen } => *gen == self.engine_gen,
        }
    }

    // ---- the server ----------------------------------------------------------

    fn send_server(&mut self, line: &str) -> bool {
        self.last_sent = Instant::now();
        let Some(conn) = self.conn.as_mut() else { return false };
        self.transcript.sent(line);
        match conn.send(line) {
            Ok(()) => true,
            Err(e) => {
                self.transcript.note(&format!("send failed: {e}"));
                false
            }
        }
    }

    /// Connects, logs in, waits for a game, plays it and logs out.
    fn one_connection(&mut self, number: u32) -> Result<GameOutcome, ClientError> {
        self.conn_seq += 1;
        let conn = Connection::open(
            &self.s.host,
            self.s.port,
            Duration::from_secs(10),
            self.conn_seq,
            self.tx.clone(),
        )
        .map_err(|e| {
            ClientError::Connection(format!(
                "cannot connect to {}:{}: {e}",
                self.s.host, self.s.port
            ))
        })?;
        self.transcript.note(&format!("connected to {}:{}", self.s.host, self.s.port));
        self.conn = Some(conn);
        self.login()?;
        let summary = self.await_summary()?;
        // A new game for the engine: its tables cleared on the way.
        if self.engine.is_none() {
            self.start_engine()?;
        }
        self.engine_send("usinewgame");
        if let Err(e) = self.engine_ready(Duration::from_secs(120)) {
            self.send_server("REJECT");
            return Err(ClientError::Engine(format!("no readyok before the game: {e}")));
        }
        self.send_server(&format!("AGREE {}", summary.game_id));
        self.await_start(&summary)?;
        let outcome = self.play(number, &summary)?;
        self.send_server("LOGOUT");
        Ok(outcome)
    }

    fn login(&mut self) -> Result<(), ClientError> {
        let line = format!("LOGIN {} {}", self.s.id, self.s.login_secret());
        self.send_server(&line);
        say(&format!("login as {} at {}:{}", self.s.id, self.s.host, self.s.port));
        let deadline = Instant::now() + Duration::from_secs(60);
        let ok = format!("LOGIN:{} OK", self.s.id);
        loop {
            match self.next_event(deadline) {
                None => {
                    return Err(ClientError::Connection(
                        "no answer to LOGIN within 60 s".to_string(),
                    ))
                }
                Some(Event::Server { line, .. }) => {
                    let line = line.trim_end();
                    if line == ok || (line.starts_with("LOGIN:") && line.ends_with(" OK")) {
                        self.logged_in_once = true;
                        return Ok(());
                    }
                    if line.starts_with("LOGIN:incorrect") && self.logged_in_once {
                        // After games played this is most likely our previous
                        // connection not yet gone from the server: worth a retry.
                        return Err(ClientError::Connection(
                            "LOGIN:incorrect (the server may still hold our last connection)"
                                .to_string(),
                        ));
                    }
                    if line.starts_with("LOGIN:incorrect") {
                        // The server may say why on the next line before closing.
                        let why = self.read_rest(Duration::from_millis(500));
                        let detail = if why.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", why.join("; "))
                        };
                        return Err(ClientError::LoginRejected(format!(
                            "LOGIN:incorrect for id '{}'{detail}",
                            self.s.id
                        )));
                    }
                }
                Some(Event::ServerClosed { reason, .. }) => {
                    return Err(ClientError::Connection(format!(
                        "connection closed before the login was answered: {reason}"
                    )))
                }
                Some(Event::EngineGone { .. }) => self.engine = None,
                Some(Event::Engine { .. }) => {}
            }
        }
    }

    /// Server lines that arrive within `window` (after a refusal).
    fn read_rest(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut lines = Vec::new();
        while let Some(e) = self.next_event(deadline) {
            match e {
                Event::Server { line, .. } if !line.trim().is_empty() => {
                    lines.push(self.transcript.redact(&line))
                }
                Event::ServerClosed { .. } => break,
                _ => {}
            }
        }
        lines
    }

    fn await_summary(&mut self) -> Result<GameSummary, ClientError> {
        let mut reader: Option<SummaryReader> = None;
        loop {
            let Some(event) = self.next_event(Instant::now() + Duration::from_secs(3600)) else {
                continue;
            };
            match event {
                Event::Server { line, .. } => {
                    let finished = match reader.as_mut() {
                        Some(r) => r.line(&line),
                        None => {
                            if line.trim_end() == "BEGIN Game_Summary" {
                                reader = Some(SummaryReader::default());
                            }
                            false
                        }
                    };
                    match if finished { reader.take().map(SummaryReader::finish) } else { None } {
                        Some(Ok(s)) => return Ok(s),
                        Some(Err(e)) => {
                            say(&format!("refusing the game: {e}"));
                            self.send_server("REJECT");
                            return Err(ClientError::NoGame(format!("game refused: {e}")));
                        }
                        None => {}
                    }
                }
                Event::ServerClosed { reason, .. } => {
                    return Err(ClientError::Connection(format!(
                        "connection closed while waiting for a game: {reason}"
                    )))
                }
                Event::EngineGone { .. } => self.engine = None,
                Event::Engine { line, .. } => {
                    if line.starts_with("bestmove") && self.stale_bestmoves > 0 {
                        self.stale_bestmoves -= 1;
                    }
                }
            }
        }
    }

    fn await_start(&mut self, summary: &GameSummary) -> Result<(), ClientError> {
        loop {
            let Some(event) = self.next_event(Instant::now() + Duration::from_secs(3600)) else {
                continue;
            };
            match event {
                Event::Server { line, .. } => {
                    let line = line.trim_end();
                    if line.starts_with("START:") {
                        return Ok(());
                    }
                    if line.starts_with("REJECT:") {
                        say(&format!("game {} rejected: {line}", summary.game_id));
                        return Err(ClientError::NoGame(format!("the game was rejected ({line})")));
                    }
                }
                Event::ServerClosed { reason, .. } => {
                    return Err(ClientError::Connection(format!(
                        "connection closed before the game started: {reason}"
                    )))
                }
                Event::EngineGone { .. } => self.engine = None,
                Event::Engine { .. } => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_a_minute() {
        let d = Duration::from_secs(2);
        assert_eq!(backoff(d, 1), Duration::from_secs(2));
        assert_eq!(backoff(d, 2), Duration::from_secs(4));
        assert_eq!(backoff(d, 4), Duration::from_secs(16));
        assert_eq!(backoff(d, 30), Duration::from_secs(60));
    }
}
