//! A loopback CSA server for the client's tests: it accepts connections on
//! 127.0.0.1 and runs one script per connection — replaying a recorded exchange,
//! refereeing a game (every move the client sends is checked legal and in time),
//! or misbehaving as networks and servers do.

#![allow(dead_code)]

use shogi::{legal_moves, Color, Move, PieceKind, Position};
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use testdata::ScratchDir;

/// One connection's script.
pub type Script = Box<dyn FnOnce(&mut Peer) + Send>;

/// The server: its port, and the thread that runs the scripts.
pub struct Server {
    pub port: u16,
    handle: JoinHandle<()>,
}

/// Listens on a free port of 127.0.0.1 and runs `scripts[i]` on the `i`-th
/// connection. A connection that does not come within 60 s fails the test.
pub fn serve(scripts: Vec<Script>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    listener.set_nonblocking(true).expect("nonblocking");
    let handle = std::thread::spawn(move || {
        for script in scripts {
            let deadline = Instant::now() + Duration::from_secs(60);
            let stream = loop {
                match listener.accept() {
                    Ok((s, _)) => break s,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        assert!(Instant::now() < deadline, "the client did not connect");
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(e) => panic!("accept: {e}"),
                }
            };
            stream.set_nonblocking(false).expect("blocking");
            let mut peer = Peer::new(stream);
            script(&mut peer);
        }
    });
    Server { port, handle }
}

impl Server {
    /// Waits for every script to have run; a script's panic fails the test here.
    pub fn join(self) {
        if let Err(e) = self.handle.join() {
            std::panic::resume_unwind(e);
        }
    }
}

/// The server's end of one connection.
pub struct Peer {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
    partial: Vec<u8>,
    /// Every line received, empty ones included.
    pub received: Vec<String>,
    /// Empty (keep-alive) lines received.
    pub keepalives: usize,
    /// When the last line was sent.
    pub last_sent: Instant,
}

impl Peer {
    fn new(stream: TcpStream) -> Peer {
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        Peer {
            stream,
            reader,
            partial: Vec::new(),
            received: Vec::new(),
            keepalives: 0,
            last_sent: Instant::now(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_lines(&mut self, lines: &[String]) {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        self.send_raw(text.as_bytes());
    }

    /// Bytes as they are: part of a line, several lines.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        // A client that has gone is the test's to notice elsewhere.
        let _ = self.stream.write_all(bytes);
        let _ = self.stream.flush();
        self.last_sent = Instant::now();
    }

    /// The next line (keep-alive lines included), or `None` at the timeout or the
    /// end of the connection.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            self.stream.set_read_timeout(Some(left)).expect("timeout");
            match self.reader.read_until(b'\n', &mut self.partial) {
                Ok(0) => return None,
                Ok(_) if self.partial.ends_with(b"\n") => {
                    let line = String::from_utf8_lossy(&self.partial)
                        .trim_end_matches(['\r', '\n'])
                        .to_string();
                    self.partial.clear();
                    if line.is_empty() {
                        self.keepalives += 1;
                    }
                    self.received.push(line.clone());
                    return Some(line);
                }
                Ok(_) => return None,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(_) => return None,
            }
        }
    }

    /// The next line that is not a keep-alive; panics after `timeout`.
    pub fn expect(&mut self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if l.is_empty() => {}
                Some(l) => return l,
                None => panic!(
                    "no line from the client within {timeout:?}; received: {:?}",
                    self.received
                ),
            }
        }
    }

    /// Reads until the client closes the connection or `timeout` passes.
    pub fn drain(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.next_line(deadline.saturating_duration_since(Instant::now())).is_some() {}
    }

    pub fn close(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

// ---- CSA notation, written independently of the client's -------------------

const NAMES: [(PieceKind, &str); 14] = [
    (PieceKind::Pawn, "FU"),
    (PieceKind::Lance, "KY"),
    (PieceKind::Knight, "KE"),
    (PieceKind::Silver, "GI"),
    (PieceKind::Gold, "KI"),
    (PieceKind::Bishop, "KA"),
    (PieceKind::Rook, "HI"),
    (PieceKind::King, "OU"),
    (PieceKind::ProPawn, "TO"),
    (PieceKind::ProLance, "NY"),
    (PieceKind::ProKnight, "NK"),
    (PieceKind::ProSilver, "NG"),
    (PieceKind::Horse, "UM"),
    (PieceKind::Dragon, "RY"),
];

/// `m` (a move of the side to move) in CSA notation.
pub fn csa_of(pos: &Position, m: Move) -> String {
    let sign = if pos.side_to_move() == Color::Black { '+' } else { '-' };
    let square = |s: shogi::Square| format!("{}{}", s.file() + 1, s.rank() + 1);
    let from = if m.is_drop() { "00".to_string() } else { square(m.from()) };
    let name = NAMES.iter().find(|(k, _)| *k == m.kind_after()).map_or("??", |(_, n)| n);
    format!("{sign}{from}{}{name}", square(m.to()))
}

/// The legal move of `pos` spelt `text` in CSA (anything after a comma ignored).
pub fn legal_csa(pos: &Position, text: &str) -> Option<Move> {
    let text = text.split(',').next().unwrap_or("");
    legal_moves(pos).iter().copied().find(|&m| csa_of(pos, m) == text)
}

// ---- game summaries and refereed games ---------------------------------------

/// The even game's position lines.
pub fn hirate_lines() -> Vec<String> {
    [
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
        "P2 * -HI *  *  *  *  * -KA * ",
        "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
        "P4 *  *  *  *  *  *  *  *  * ",
        "P5 *  *  *  *  *  *  *  *  * ",
        "P6 *  *  *  *  *  *  *  *  * ",
        "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
        "P8 * +KA *  *  *  *  * +HI * ",
        "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
        "P+",
        "P-",
        "+",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// What a refereed game starts from.
#[derive(Clone)]
pub struct GameSpec {
    pub game_id: String,
    /// The client's side.
    pub client: Color,
    pub total: u64,
    pub byoyomi: u64,
    pub increment: u64,
    /// Position lines (`P1`…`P9`, `P+`, `P-`, the side to move).
    pub position: Vec<String>,
    /// The SFEN of the same position (the referee's own view).
    pub sfen: String,
    /// Moves already played, `+7776FU,T3`.
    pub moves: Vec<String>,
}

impl GameSpec {
    /// An even game, the client playing `client`, `byoyomi` seconds a move.
    pub fn even(game_id: &str, client: Color, byoyomi: u64) -> GameSpec {
        GameSpec {
            game_id: game_id.to_string(),
            client,
            total: 0,
            byoyomi,
            increment: 0,
            position: hirate_lines(),
            sfen: shogi::STARTPOS.to_string(),
            moves: Vec::new(),
        }
    }

    pub fn summary(&self) -> Vec<String> {
        let turn = if self.client == Color::Black { "+" } else { "-" };
        let start = Position::from_sfen(&self.sfen).expect("spec sfen");
        let to_move = if start.side_to_move() == Color::Black { "+" } else { "-" };
        let mut lines: Vec<String> = vec![
            "BEGIN Game_Summary".into(),
            "Protocol_Version:1.2".into(),
            "Protocol_Mode:Server".into(),
            "Format:Shogi 1.0".into(),
            "Declaration:Jishogi 1.1".into(),
            format!("Game_ID:{}", self.game_id),
            "Name+:black_player".into(),
            "Name-:white_player".into(),
            format!("Your_Turn:{turn}"),
            "Rematch_On_Draw:NO".into(),
            format!("To_Move:{to_move}"),
            "Max_Moves:256".into(),
            "BEGIN Time".into(),
            "Time_Unit:1sec".into(),
            format!("Total_Time:{}", self.total),
            format!("Byoyomi:{}", self.byoyomi),
            format!("Increment:{}", self.increment),
            "Least_Time_Per_Move:0".into(),
            "END Time".into(),
            "BEGIN Position".into(),
        ];
        lines.extend(self.position.iter().cloned());
        lines.extend(self.moves.iter().cloned());
        lines.push("END Position".into());
        lines.push("END Game_Summary".into());
        lines
    }

    /// The position after the moves already played.
    pub fn position_now(&self) -> Position {
        let mut pos = Position::from_sfen(&self.sfen).expect("spec sfen");
        for m in &self.moves {
            let mv = legal_csa(&pos, m).unwrap_or_else(|| panic!("spec move {m} legal"));
            pos.do_move(mv);
        }
        pos
    }
}

/// Answers the login and sends the summary; returns after `START`.
pub fn login_and_start(peer: &mut Peer, spec: &GameSpec) {
    let login = peer.expect(Duration::from_secs(10));
    let id = login.split_whitespace().nth(1).unwrap_or("").to_string();
    assert!(login.starts_with("LOGIN "), "{login}");
    peer.send(&format!("LOGIN:{id} OK"));
    peer.send_lines(&spec.summary());
    let agree = peer.expect(Duration::from_secs(30));
    assert!(agree.starts_with("AGREE"), "expected AGREE, got {agree}");
    peer.send(&format!("START:{}", spec.game_id));
}

/// How a refereed stretch of game ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    /// The client made its `n`-th move.
    Moves,
    /// The client sent `%TORYO`, `%KACHI`, …
    Special(String),
}

/// Referees from the current position: checks every client move legal and in
/// time (by the server's rule), echoes it with its time, answers with a move of
/// its own (a pseudo-random legal one), until the client has made `client_moves`
/// moves or sent a special move. Returns the position and why it stopped.
pub fn referee(peer: &mut Peer, spec: &GameSpec, client_moves: usize) -> (Position, Stop) {
    let mut pos = spec.position_now();
    let mut remaining = spec.total * 1000;
    let mut seed = 0x9e37_79b9_u64;
    let mut made = 0;
    loop {
        if pos.side_to_move() == spec.client {
            let allowance = remaining + (spec.byoyomi + spec.increment) * 1000;
            let started = peer.last_sent;
            let line = peer.expect(Duration::from_millis(allowance + 3000));
            let elapsed = started.elapsed();
            // The server's limit, scaled like every allowance of these tests.
            assert!(
                elapsed < crate::allowed(allowance),
                "late move {line}: {elapsed:?} of {allowance} ms"
            );
            if line.starts_with('%') {
                return (pos, Stop::Special(line));
            }
            let Some(m) = legal_csa(&pos, &line) else {
                panic!("illegal move '{line}' in {}", pos.to_sfen());
            };
            let secs = elapsed.as_secs();
            remaining = (remaining + spec.increment * 1000).saturating_sub(secs * 1000);
            let text = csa_of(&pos, m);
            peer.send(&format!("{text},T{secs}"));
            pos.do_move(m);
            made += 1;
            if made == client_moves {
                return (pos, Stop::Moves);
            }
        } else {
            let moves = legal_moves(&pos);
            assert!(!moves.is_empty(), "the referee's side is mated: {}", pos.to_sfen());
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            peer.send(&format!("{},T1", csa_of(&pos, m)));
            pos.do_move(m);
        }
    }
}

// ---- the client process ------------------------------------------------------

/// A scratch directory of the test's own.
pub fn scratch(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("csa-test-{name}"))
}

/// What `kyobo csa` did.
pub struct Run {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

/// `kyobo csa` against 127.0.0.1:`port` with id `kyobo_test` (unless `extra`
/// names one), password
/// `s3cret-pw`, records and log in `dir`, a small hash; `extra` flags after.
/// Fails the test when it runs longer than `timeout`.
pub fn run_client(port: u16, dir: &Path, extra: &[&str], timeout: Duration) -> Run {
    run_client_env(port, dir, extra, &[], timeout)
}

/// [`run_client`] with environment variables for the client (and its engine).
pub fn run_client_env(
    port: u16,
    dir: &Path,
    extra: &[&str],
    env: &[(&str, String)],
    timeout: Duration,
) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kyobo"));
    cmd.args(["csa", "--host", "127.0.0.1", "--port", &port.to_string()])
        .args(if extra.contains(&"--id") { &[][..] } else { &["--id", "kyobo_test"][..] })
        .args(["--password", "s3cret-pw"])
        .arg("--records")
        .arg(dir.join("records"))
        .arg("--log")
        .arg(dir.join("transcript.log"))
        .args(["--option", "USI_Hash=16", "--retry-delay-ms", "100", "--max-retries", "3"])
        .args(extra)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("kyobo starts");
    // The pipes are read as the client writes, so that it never blocks on them.
    let read_all = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = read_all(Box::new(child.stderr.take().expect("piped stderr")));
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait().expect("waiting for kyobo csa") {
            Some(status) => break status,
            None if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("kyobo csa still running after {timeout:?}");
            }
        }
    };
    Run {
        success: status.success(),
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

/// The records written to `dir/records`, sorted by name.
pub fn records(dir: &Path) -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("records"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    paths.iter().map(|p| std::fs::read_to_string(p).expect("record")).collect()
}

/// The moves of a record, each checked legal from `sfen` on (the record's own
/// starting position, which the test knows).
pub fn record_moves(record: &str, sfen: &str) -> Vec<String> {
    let mut pos = Position::from_sfen(sfen).expect("sfen");
    let mut moves = Vec::new();
    for line in record.lines() {
        if (line.starts_with('+') || line.starts_with('-')) && line.len() >= 7 {
            let m = legal_csa(&pos, line)
                .unwrap_or_else(|| panic!("record move {line} illegal:\n{record}"));
            pos.do_move(m);
            moves.push(line.to_string());
        }
    }
    moves
}
