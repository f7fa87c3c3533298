//! `kyobo serve` over HTTP, as the page drives it: games, take-backs, records,
//! reviews and analyses, and every kind of bad request answered without
//! stopping the server. (tools/check_serve.py drives the page itself in
//! headless Chromium.)

use crate::common;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use testdata::ScratchDir;

/// A `kyobo serve --port 0` of the test's own, in an empty folder (so no
/// Dobutsu database), killed when dropped.
struct Server {
    child: Child,
    port: u16,
    banner: Vec<String>,
    _dir: ScratchDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer: status, headers (lower-case names) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_default().to_string()
    }
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    fn start_with(extra: &[&str]) -> Server {
        let dir = ScratchDir::new("serve");
        let mut child = Command::new(env!("CARGO_BIN_EXE_kyobo"))
            .args(["serve", "--port", "0", "--hash", "16"])
            .args(extra)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kyobo serve starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut banner = Vec::new();
        for _ in 0..3 {
            let mut line = String::new();
            out.read_line(&mut line).expect("the banner");
            banner.push(line.trim_end().to_string());
        }
        let port = banner[0]
            .strip_prefix("Kyobo serves http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("banner: {banner:?}"));
        Server { child, port, banner, _dir: dir }
    }

    fn request(&self, method: &str, path: &str, body: &[u8], host: Option<&str>) -> Answer {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        stream.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
        let host = host.map_or_else(|| format!("127.0.0.1:{}", self.port), str::to_string);
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("writes");
        // A server may answer (413) before reading a large body; its answer counts.
        let _ = stream.write_all(body);
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Answer { status, headers, body: raw[split + 4..].to_vec() }
    }

    fn get(&self, path: &str) -> Answer {
        self.request("GET", path, b"", None)
    }

    fn post(&self, path: &str, body: &str) -> Answer {
        self.request("POST", path, body.as_bytes(), None)
    }

    /// A new game (the request's JSON): the game as the answer gives it.
    fn new_game(&self, request: &str) -> Value {
        let answer = self.post("/api/game/new", request);
        assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
        answer.json()["game"].clone()
    }

    fn game(&self) -> Value {
        self.get("/api/state").json()["play"].clone()
    }

    /// The game once the engine has answered (a bound, not a measurement).
    fn engine_done(&self) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let g = self.game();
            if g["thinking"] == Value::Bool(false) {
                return g;
            }
            assert!(Instant::now() < deadline, "the engine never answered: {g}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn moves_of(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .map(|a| a.iter().filter_map(|m| m["usi"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

const NEW_SHOGI: &str = r#"{"variant":"shogi","side":"black","movetime_ms":300}"#;

#[test]
fn it_says_it_serves_this_machine_only_and_the_page_fetches_nothing_from_elsewhere() {
    let s = Server::start();
    assert_eq!(s.banner[1], "  this machine only (--address names another address)");
    assert_eq!(s.banner[2], "  Dobutsu: no database, the engine searches");
    let page = s.get("/");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let page = String::from_utf8_lossy(&page.body).into_owned();
    assert!(page.contains(r#"<script src="/app.js">"#) && page.contains(r#"href="/style.css""#));
    for asset in ["/", "/app.js", "/style.css"] {
        let text = String::from_utf8_lossy(&s.get(asset).body).into_owned();
        assert!(!text.contains("https://"), "{asset} names a web address");
        // The one http:// is SVG's namespace, a name and not an address.
        assert_eq!(
            text.matches("http://").count(),
            text.matches("http://www.w3.org/2000/svg").count(),
            "{asset}"
        );
    }
    assert_eq!(s.get("/api/state").json(), serde_json::json!({"play": null, "review": null}));
}

#[test]
fn a_shogi_game_refuses_illegal_moves_with_the_rule_and_takes_back_resigns_and_records() {
    let s = Server::start();
    let g = s.new_game(NEW_SHOGI);
    assert_eq!(g["legal"].as_array().map(Vec::len), Some(30));
    assert_eq!((g["human"].as_str(), g["to_move"].as_str()), (Some("black"), Some("black")));
    let refused = s.post("/api/game/move", r#"{"move":"7g7e"}"#);
    assert_eq!(
        (refused.status, refused.error()),
        (400, "7g7e: the piece cannot move there".into())
    );
    let refused = s.post("/api/game/move", r#"{"move":"P*5e"}"#);
    assert_eq!(refused.error(), "no P in hand to drop");
    let second = s.post("/api/game/new", NEW_SHOGI);
    assert_eq!(second.status, 409);
    assert!(second.error().contains("a game is in progress"), "{}", second.error());

    let g = s.post("/api/game/move", r#"{"move":"7g7f"}"#).json()["game"].clone();
    assert_eq!(moves_of(&g), ["7g7f"]);
    // Asked while the engine thinks, or just after: either way not the person's move.
    let early = s.post("/api/game/move", r#"{"move":"2g2f"}"#);
    if early.status == 400 {
        assert!(
            early.error() == "wait for the engine's move" || early.error() == "it is not your turn"
        );
    }
    let g = s.engine_done();
    let played = moves_of(&g);
    if early.status == 200 {
        assert_eq!(played.len(), 3, "{g}");
    } else {
        assert_eq!(played.len(), 2, "{g}");
        assert!(g["legal"].as_array().is_some_and(|l| !l.is_empty()));
    }

    let g = s.post("/api/game/undo", "").json()["game"].clone();
    assert_eq!(moves_of(&g).len() % 2, 0, "back to the person's turn: {g}");
    assert_eq!(g["to_move"], "black");
    let g = s.post("/api/game/move", r#"{"move":"2g2f"}"#).json()["game"].clone();
    assert_eq!(moves_of(&g).last().map(String::as_str), Some("2g2f"));
    s.engine_done();

    let declared = s.post("/api/game/declare", "");
    assert_eq!(declared.status, 400);
    assert!(declared.error().starts_with("the declaration's conditions do not hold"));
    let g = s.post("/api/game/resign", "").json()["game"].clone();
    assert_eq!(g["over"]["result"], "loss");
    assert_eq!(g["over"]["reason"], "you resigned");
    assert_eq!(s.post("/api/game/resign", "").status, 400);

    let kif = s.get("/api/game/record?format=kif");
    assert_eq!(kif.status, 200);
    assert!(kif.header("content-disposition").is_some_and(|d| d.contains(".kif")));
    let (text, _) = records::decode(&kif.body).expect("Shift_JIS or UTF-8");
    assert!(
        kif.body.iter().any(|&b| b >= 0x80) && std::str::from_utf8(&kif.body).is_err(),
        "Shift_JIS"
    );
    let record = records::read_kif(&text).expect("a KIF the reader reads");
    let played: Vec<String> = record.moves.iter().map(|m| m.mv.to_usi()).collect();
    assert_eq!(played, moves_of(&s.game()));
    assert!(
        text.contains("先手：You") && text.contains("後手：Kyobo") && text.contains("投了"),
        "{text}"
    );
    let csa = String::from_utf8(s.get("/api/game/record?format=csa").body).expect("UTF-8");
    assert!(csa.contains("\n+2726FU\n") && csa.ends_with("%TORYO\n"), "{csa}");
    assert_eq!(s.get("/api/game/record?format=pgn").status, 400);
    // Over: a new game may start.
    assert_eq!(s.post("/api/game/new", NEW_SHOGI).status, 200);
}

#[test]
fn a_handicap_or_a_position_starts_the_game_and_the_engine_moves_first_when_it_should() {
    let s = Server::start();
    let bad = s.post(
        "/api/game/new",
        r#"{"variant":"shogi","side":"black","movetime_ms":300,"sfen":"9/9 b - 1"}"#,
    );
    assert_eq!(bad.status, 400);
    assert!(bad.error().starts_with("SFEN: "), "{}", bad.error());
    let kingless = r#"{"variant":"shogi","side":"black","movetime_ms":300,"sfen":"4k4/9/9/9/9/9/9/9/9 b - 1"}"#;
    assert_eq!(s.post("/api/game/new", kingless).error(), "SFEN: a game needs both kings");
    let nonsense = r#"{"variant":"shogi","side":"black","movetime_ms":300,"handicap":"九枚落ち"}"#;
    assert_eq!(s.post("/api/game/new", nonsense).error(), "no handicap called '九枚落ち'");
    assert_eq!(
        s.post("/api/game/new", r#"{"variant":"chess","side":"black","movetime_ms":300}"#).status,
        400
    );
    assert_eq!(
        s.post("/api/game/new", r#"{"variant":"shogi","side":"black","movetime_ms":7}"#).status,
        400
    );

    // 角落ち: White (the engine) gives the bishop and moves first.
    let g =
        s.new_game(r#"{"variant":"shogi","side":"black","movetime_ms":300,"handicap":"角落ち"}"#);
    assert_eq!(g["start"], "角落ち");
    assert_eq!(g["sfen"], "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    let g = s.engine_done();
    assert_eq!(moves_of(&g).len(), 1, "{g}");
    s.post("/api/game/resign", "");
    let kif = records::decode(&s.get("/api/game/record?format=kif").body).expect("decodes").0;
    assert!(kif.contains("手合割：角落ち"), "{kif}");

    // A silver that may or may not promote on 3c: both moves are offered.
    let sfen = r#"{"variant":"shogi","side":"black","movetime_ms":300,"sfen":"4k4/9/9/6S2/9/9/9/9/4K4 b - 1"}"#;
    let g = s.new_game(sfen);
    let legal: Vec<&str> =
        g["legal"].as_array().expect("legal").iter().filter_map(Value::as_str).collect();
    assert!(legal.contains(&"3d3c") && legal.contains(&"3d3c+"), "{legal:?}");
    assert_eq!(g["start"], "SFEN");
    let g = s.post("/api/game/move", r#"{"move":"3d3c+"}"#).json()["game"].clone();
    assert_eq!(g["moves"][0]["text"], "▲３三銀成");
}

#[test]
fn dobutsu_is_played_against_the_search_without_a_database() {
    let s = Server::start();
    let g = s.new_game(r#"{"variant":"dobutsu","side":"white","movetime_ms":300}"#);
    assert_eq!(g["opponent"], "Kyobo's search (no database)");
    assert_eq!(g["sfen"], "gle/1c1/1C1/ELG b - 1");
    let g = s.engine_done();
    assert_eq!(moves_of(&g).len(), 1, "the engine (Sente) moved first: {g}");
    let refused = s.post("/api/game/move", r#"{"move":"b1b3"}"#);
    assert_eq!(refused.error(), "b1b3: the piece cannot move there");
    let legal = g["legal"][0].as_str().expect("a legal move").to_string();
    let g = s.post("/api/game/move", &format!(r#"{{"move":"{legal}"}}"#)).json()["game"].clone();
    assert_eq!(moves_of(&g)[1], legal);
    s.engine_done();
    assert_eq!(s.get("/api/game/record?format=kif").status, 400);
    let text = String::from_utf8(s.get("/api/game/record?format=txt").body).expect("text");
    assert!(text.starts_with(&format!(
        "position sfen gle/1c1/1C1/ELG b - 1 moves {} {legal}",
        moves_of(&s.game())[0]
    )));
    assert_eq!(s.post("/api/review/game", "").error(), "only shogi games can be reviewed");
}

#[test]
fn dobutsu_with_a_database_is_played_perfectly_from_a_given_position() {
    // Two lions and two chicks: solved in a moment. Sente wins in 15 with
    // Lb4-a3 or Lb4-c3 (kyobo dobutsu best says so, from the same file).
    let small = "1l1/1c1/1C1/1L1 b - 1";
    let dir = ScratchDir::new("serve-db");
    let db = dir.join("small.db");
    let db = db.to_str().expect("a UTF-8 path");
    let (ok, _, err) =
        common::kyobo(&["dobutsu", "solve", "--sfen", small, "--threads", "1", "--out", db]);
    assert!(ok, "{err}");
    let (ok, best, err) = common::kyobo(&["dobutsu", "best", "--sfen", small, "--db", db]);
    assert!(ok, "{err}");
    let winning: Vec<&str> = best
        .lines()
        .filter(|l| l.ends_with("win in 15") && !l.contains("to move"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(winning.len(), 2, "{best}");

    let s = Server::start_with(&["--dobutsu-db", db]);
    assert_eq!(s.banner[2], "  Dobutsu: the database's perfect play");
    let request =
        format!(r#"{{"variant":"dobutsu","side":"white","movetime_ms":300,"sfen":"{small}"}}"#);
    let g = s.new_game(&request);
    assert_eq!(g["opponent"], "the perfect player (database)");
    let g = s.engine_done();
    let played = moves_of(&g);
    assert!(
        played.len() == 1 && winning.contains(&played[0].as_str()),
        "{played:?} not in {winning:?}"
    );
    let text = String::from_utf8(s.get("/api/game/record?format=txt").body).expect("text");
    assert!(text.starts_with(&format!("position sfen {small} moves {}", played[0])), "{text}");
    let bad = s.post(
        "/api/game/new",
        r#"{"variant":"dobutsu","side":"white","movetime_ms":300,"sfen":"lll/3/3/3 b - 1"}"#,
    );
    assert_eq!(bad.status, 400);
    assert!(bad.error().starts_with("SFEN: "), "{}", bad.error());

    // A named database that is missing is an error before the server starts.
    let (ok, _, err) = common::kyobo(&[
        "serve",
        "--port",
        "0",
        "--dobutsu-db",
        &dir.join("none.db").to_string_lossy(),
    ]);
    assert!(!ok && err.contains("--dobutsu-db"), "{err}");
}

/// A three-move CSA record, written here by hand.
const RECORD: &str = "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n";

#[test]
fn a_record_is_reviewed_and_analysed_with_its_progress_sent_as_events() {
    let s = Server::start();
    let mut events = TcpStream::connect(("127.0.0.1", s.port)).expect("connects");
    events.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
    write!(events, "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", s.port)
        .expect("writes");
    let mut events = BufReader::new(events);
    let mut line = String::new();
    events.read_line(&mut line).expect("the head");
    assert_eq!(line, "HTTP/1.1 200 OK\r\n");

    assert_eq!(s.post("/api/review/analyse", r#"{"depth":8}"#).error(), "open a record first");
    let corrupt =
        s.request("POST", "/api/review/open?name=broken.csa", b"+7776FU\n+7776FU\n", None);
    assert_eq!(corrupt.status, 400);
    assert!(corrupt.error().starts_with("broken.csa: line 2"), "{}", corrupt.error());
    let r = s.request("POST", "/api/review/open?name=game.csa", RECORD.as_bytes(), None).json()
        ["review"]
        .clone();
    let texts: Vec<&str> =
        r["plies"].as_array().expect("plies").iter().filter_map(|p| p["text"].as_str()).collect();
    assert_eq!(texts, ["▲７六歩", "△３四歩", "▲２六歩"]);
    assert_eq!(
        r["plies"][2]["sfen"],
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4"
    );
    assert_eq!(r["ending"], "Resign");
    assert_eq!(s.post("/api/review/analyse", r#"{"depth":5}"#).status, 400);
    let started = s.post("/api/review/analyse", r#"{"depth":14}"#).json();
    assert_eq!(started["total"], 3);
    // Seconds of search at depth 14 lie ahead: a second request is refused.
    let second = s.post("/api/review/analyse", r#"{"depth":8}"#);
    assert_eq!(
        (second.status, second.error()),
        (409, "an analysis is running: wait for it to finish".into())
    );

    let mut progress = Vec::new();
    let analysis = loop {
        line.clear();
        assert!(events.read_line(&mut line).expect("an event") > 0, "the stream ended");
        let Some(data) = line.strip_prefix("data: ") else { continue };
        let event: Value = serde_json::from_str(data).expect("JSON");
        match event["type"].as_str() {
            Some("analysis-progress") => progress.push(event["done"].as_u64().unwrap_or(0)),
            Some("analysis") => break event["analysis"].clone(),
            _ => {}
        }
    };
    assert_eq!(progress, [1, 2, 3]);
    let judged = analysis["moves"].as_array().expect("moves");
    assert_eq!(judged.len(), 3);
    for j in judged {
        let chance = j["black_chance"].as_f64().expect("a chance");
        assert!((0.0..=1.0).contains(&chance), "{j}");
    }
    assert_eq!(s.get("/api/state").json()["review"]["analysis"], analysis);
}

#[test]
fn bad_requests_get_a_reason_and_the_server_stays_up() {
    let s = Server::start();
    assert_eq!(s.post("/api/game/move", r#"{"move":"7g7f"}"#).error(), "no game: start one first");
    assert_eq!(s.post("/api/game/undo", "").error(), "no game: start one first");
    let malformed = s.post("/api/game/new", "{not json");
    assert_eq!(malformed.status, 400);
    assert!(malformed.error().starts_with("a malformed request: "));
    assert_eq!(s.post("/api/game/new", r#"{"variant":"shogi"}"#).status, 400);
    let unknown = s.get("/api/nothing");
    assert_eq!((unknown.status, unknown.error()), (404, "no GET /api/nothing".into()));
    assert_eq!(s.get("/nothing").status, 404);
    let huge = vec![b'x'; (4 << 20) + 1];
    assert_eq!(s.request("POST", "/api/review/open?name=a.kif", &huge, None).status, 413);
    let binary: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    assert_eq!(s.request("POST", "/api/review/open?name=a.kif", &binary, None).status, 400);
    let elsewhere = s.request("GET", "/api/state", b"", Some("attacker.example:80"));
    assert_eq!(elsewhere.status, 403);
    // Random bytes and random JSON-looking text at every request that reads a body.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let paths = [
        "/api/game/new",
        "/api/game/move",
        "/api/review/open?name=x.kif",
        "/api/review/open?name=x.csa",
        "/api/review/open",
        "/api/review/analyse",
    ];
    for round in 0..60 {
        let len = (next() % 300) as usize;
        let body: Vec<u8> = if round % 2 == 0 {
            (0..len).map(|_| next() as u8).collect()
        } else {
            let pieces = [
                "{",
                "}",
                "\"move\":",
                "\"7g7f\"",
                "\"depth\":",
                "8",
                ",",
                "[",
                "]",
                "null",
                "手",
                "+7776FU\n",
                "P1",
                "\n",
            ];
            (0..len / 4)
                .flat_map(|_| pieces[(next() % pieces.len() as u64) as usize].bytes())
                .collect()
        };
        let path = paths[round % paths.len()];
        let answer = s.request("POST", path, &body, None);
        // Read, refused or clashing; never the server's own fault.
        assert!([200, 400, 409].contains(&answer.status), "{path}: {}", answer.status);
    }
    let g = s.new_game(NEW_SHOGI);
    assert_eq!(g["id"], 1);
    assert_eq!(s.post("/api/game/undo", "").error(), "nothing to take back");
    assert_eq!(s.get("/api/state").status, 200);
}
