//! `kyobo csa` against loopback servers: exchanges recorded from shogi-server
//! replayed line by line, and servers that misbehave (a dropped connection, lines
//! cut in pieces, unknown messages, a slow server, a refused login, a game from a
//! set position with moves already played, a time-up just after a move). The
//! client must never crash, never send an illegal or late move, and keep complete
//! records.

use crate::alone;
use crate::csa_server;

use csa_server::{
    csa_of, legal_csa, login_and_start, record_moves, records, referee, run_client, run_client_env,
    scratch, serve, GameSpec, Peer, Script, Stop,
};
use shogi::{Color, Position};
use std::io::{BufRead, Write};
use std::time::Duration;

const MINUTE: Duration = Duration::from_secs(60);

/// Acts as a USI engine when the test binary is started by the client with
/// `KYOBO_FAKE_ENGINE_MOVES` set: it answers each `go` with the move of the game
/// at that ply (a replay needs the recorded moves, not a fresh search), past them
/// with the first legal move. With `KYOBO_FAKE_ENGINE_REFUSE=WORD` it stops, as
/// GPS Shogi's `gpsusi` does on `binc`, when a `go` holds that word.
///
/// Not a test: ignored, so that it never counts as one, and run by the client
/// through `--ignored --exact csa::fake_usi_engine`.
#[test]
#[ignore = "a USI engine that the CSA tests start, not a test"]
fn fake_usi_engine() {
    let moves = std::env::var("KYOBO_FAKE_ENGINE_MOVES")
        .expect("started by the CSA tests, with KYOBO_FAKE_ENGINE_MOVES set");
    let refuse = std::env::var("KYOBO_FAKE_ENGINE_REFUSE").ok();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let mut pos = Position::startpos();
    let mut ply = 0;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = match line.split_whitespace().next() {
            Some("usi") => "id name fake\nusiok".to_string(),
            Some("isready") => "readyok".to_string(),
            Some("position") => {
                let (setup, played) = line.split_once(" moves ").unwrap_or((&line, ""));
                let sfen = setup.strip_prefix("position sfen ").unwrap_or(shogi::STARTPOS);
                pos = Position::from_sfen(sfen).expect("client sends a good sfen");
                ply = 0;
                for m in played.split_whitespace() {
                    let mv = pos.parse_usi_move(m).expect("client sends legal moves");
                    pos.do_move(mv);
                    ply += 1;
                }
                continue;
            }
            Some("go") => {
                if refuse.as_ref().is_some_and(|w| line.split_whitespace().any(|t| t == w)) {
                    std::process::exit(1);
                }
                let first = shogi::legal_moves(&pos).iter().next().map(|m| m.to_usi());
                match moves.get(ply).map(|m| m.to_string()).or(first) {
                    Some(m) => format!("info depth 1 score cp 0 pv {m}\nbestmove {m}"),
                    None => "bestmove resign".to_string(),
                }
            }
            Some("quit") => break,
            _ => continue,
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
    std::process::exit(0);
}

/// Flags that make the client play with [`fake_usi_engine`].
fn fake_engine_flags() -> Vec<String> {
    let engine = std::env::current_exe().expect("test binary");
    let mut flags: Vec<String> = vec!["--engine".into(), engine.to_string_lossy().into_owned()];
    for a in ["csa::fake_usi_engine", "--exact", "--ignored", "--nocapture", "--test-threads=1"] {
        flags.push("--engine-arg".into());
        flags.push(a.into());
    }
    flags
}

/// One line of a transcript: `<` from the server, `>` from the client.
fn transcript(text: &str) -> Vec<(char, String)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.split_once("] ")?.1;
            let mark = rest.chars().next()?;
            let line = rest.get(2..).unwrap_or("").to_string();
            matches!(mark, '<' | '>').then_some((mark, line))
        })
        .collect()
}

/// Replays a transcript of a game played through shogi-server: the server's lines
/// sent as recorded, each client line checked against the recorded one (moves by
/// their move, without the comment); the client's engine plays the recorded moves.
fn replay(fixture: &str, name: &str) {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/csa/{fixture}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let lines = transcript(&text);
    let id = lines
        .iter()
        .find(|(m, l)| *m == '>' && l.starts_with("LOGIN "))
        .and_then(|(_, l)| l.split_whitespace().nth(1))
        .expect("a LOGIN line")
        .to_string();
    // The game's moves, from the server's echoes.
    let mut pos = Position::startpos();
    let mut usi = Vec::new();
    let mut csa = Vec::new();
    for (mark, line) in &lines {
        if *mark == '<' && (line.starts_with('+') || line.starts_with('-')) && line.len() >= 7 {
            let m = legal_csa(&pos, line).unwrap_or_else(|| panic!("fixture move {line}"));
            usi.push(m.to_usi());
            csa.push(csa_of(&pos, m));
            pos.do_move(m);
        }
    }
    assert!(usi.len() > 20, "a whole game");
    let script_lines = lines.clone();
    let server = serve(vec![Box::new(move |peer: &mut Peer| {
        for (mark, line) in script_lines {
            match mark {
                '<' if line.is_empty() => {}
                '<' => peer.send(&line),
                _ if line.is_empty() => {}
                _ => {
                    let got = peer.expect(Duration::from_secs(30));
                    let key = |l: &str| {
                        if l.starts_with("LOGIN ") {
                            l.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
                        } else {
                            l.split(',').next().unwrap_or("").to_string()
                        }
                    };
                    assert_eq!(key(&got), key(&line), "client line");
                }
            }
        }
        peer.drain(Duration::from_secs(5));
        peer.close();
    }) as Script]);
    let dir = scratch(name);
    let mut cmd_extra = fake_engine_flags();
    cmd_extra.push("--id".into());
    cmd_extra.push(id);
    let extra: Vec<&str> = cmd_extra.iter().map(String::as_str).collect();
    let env = [("KYOBO_FAKE_ENGINE_MOVES", usi.join(" "))];
    let run = run_client_env(server.port, &dir, &extra, &env, MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    let recs = records(&dir);
    assert_eq!(recs.len(), 1);
    let moves = record_moves(&recs[0], shogi::STARTPOS);
    let moves: Vec<String> =
        moves.iter().map(|m| m.split(',').next().unwrap_or("").to_string()).collect();
    assert_eq!(moves, csa, "the record has every move");
    assert!(recs[0].contains("%TORYO"), "{}", recs[0]);
    // The record reads back as a CSA record: every move, and the ending.
    let read = records::read_csa(&recs[0]).unwrap_or_else(|e| panic!("{e}:\n{}", recs[0]));
    assert_eq!(read.moves.len(), csa.len());
    assert_eq!(read.ending.map(|e| e.reason), Some(records::EndReason::Resign));
}

#[test]
fn replays_a_game_recorded_from_shogi_server_as_white() {
    let _alone = alone();
    replay("shogi-server-10-1F-white.log", "replay-white");
}

#[test]
fn replays_a_game_recorded_from_shogi_server_as_black() {
    let _alone = alone();
    replay("shogi-server-10-1F-black.log", "replay-black");
}

#[test]
fn replays_a_game_against_gps_shogi_recorded_from_shogi_server() {
    let _alone = alone();
    replay("shogi-server-vs-gps-0-2-white.log", "replay-gps");
}

#[test]
fn a_rejected_login_ends_with_a_clear_message_and_a_failure() {
    let _alone = alone();
    let server = serve(vec![Box::new(|peer: &mut Peer| {
        let login = peer.expect(Duration::from_secs(10));
        assert!(login.starts_with("LOGIN kyobo_test "));
        peer.send("LOGIN:incorrect");
        peer.close();
    }) as Script]);
    let dir = scratch("rejected");
    let run = run_client(server.port, &dir, &[], MINUTE);
    server.join();
    assert!(!run.success, "a refused login must fail: {}", run.stdout);
    assert!(run.stderr.contains("rejected the login"), "{}", run.stderr);
    let log = std::fs::read_to_string(dir.join("transcript.log")).expect("log");
    for text in [&run.stdout, &run.stderr, &log] {
        assert!(!text.contains("s3cret-pw"), "the password leaked: {text}");
    }
    assert!(log.contains("LOGIN kyobo_test *****"), "{log}");
}

/// Plays `moves` client moves from `spec`, then ends the game with `result`
/// lines.
fn short_game(spec: GameSpec, moves: usize, result: &'static [&'static str]) -> Script {
    Box::new(move |peer: &mut Peer| {
        login_and_start(peer, &spec);
        let (_, stop) = referee(peer, &spec, moves);
        assert_eq!(stop, Stop::Moves);
        for l in result {
            peer.send(l);
        }
        peer.drain(Duration::from_secs(5));
        peer.close();
    })
}

#[test]
fn a_dropped_connection_mid_game_is_followed_by_the_next_game() {
    let _alone = alone();
    let first = GameSpec::even("drop+1", Color::Black, 1);
    let second = GameSpec::even("drop+2", Color::White, 1);
    let server = serve(vec![
        Box::new(move |peer: &mut Peer| {
            login_and_start(peer, &first);
            referee(peer, &first, 3);
            peer.close();
        }) as Script,
        // The next attempt finds nobody listening for a moment: refused.
        Box::new(|peer: &mut Peer| peer.close()) as Script,
        short_game(second, 4, &["%TORYO", "#RESIGN", "#WIN"]),
    ]);
    let dir = scratch("drop");
    let run = run_client(server.port, &dir, &["--games", "2"], MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("DISCONNECTED"), "{}", run.stdout);
    assert!(run.stdout.contains("1 won"), "{}", run.stdout);
    let recs = records(&dir);
    assert_eq!(recs.len(), 2);
    assert_eq!(record_moves(&recs[0], shogi::STARTPOS).len(), 5, "{}", recs[0]);
    assert!(recs[0].contains("%CHUDAN"));
    assert_eq!(record_moves(&recs[1], shogi::STARTPOS).len(), 8, "{}", recs[1]);
}

#[test]
fn partial_lines_unknown_messages_and_a_slow_server() {
    let _alone = alone();
    let spec = GameSpec::even("slow+1", Color::Black, 2);
    let server = serve(vec![Box::new(move |peer: &mut Peer| {
        let login = peer.expect(Duration::from_secs(10));
        assert!(login.starts_with("LOGIN "));
        // The answer in pieces, then a long wait for an opponent.
        peer.send_raw(b"LOGIN:kyo");
        std::thread::sleep(Duration::from_millis(200));
        peer.send_raw(b"bo_test OK\r\n##[CHAT] hello\n%%UNKNOWN thing\n");
        std::thread::sleep(Duration::from_millis(2500));
        assert!(
            peer.keepalives >= 1 || peer.next_line(Duration::from_secs(2)) == Some(String::new())
        );
        // The summary a few bytes at a time, with lines nobody asked for.
        let text: String = spec.summary().iter().map(|l| format!("{l}\n")).collect();
        let text = text.replace("Max_Moves:256\n", "Max_Moves:256\nSome_New_Key:42\n");
        for chunk in text.as_bytes().chunks(7) {
            peer.send_raw(chunk);
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(peer.expect(Duration::from_secs(30)).starts_with("AGREE"));
        peer.send("garbage line");
        peer.send(&format!("START:{}", spec.game_id));
        peer.send("##[MONITOR] something unknown");
        let (_, stop) = referee(peer, &spec, 3);
        assert_eq!(stop, Stop::Moves);
        peer.send("%TORYO");
        peer.send("#RESIGN");
        peer.send_raw(b"#W");
        std::thread::sleep(Duration::from_millis(300));
        peer.send_raw(b"IN\n");
        peer.drain(Duration::from_secs(5));
    }) as Script]);
    let dir = scratch("slow");
    let run = run_client(server.port, &dir, &["--keepalive", "1"], MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("over: WIN #RESIGN"), "{}", run.stdout);
}

#[test]
fn a_game_from_a_set_position_with_moves_already_played() {
    let _alone = alone();
    // Black: king 5i, rook 2h, golds 4i 6i, pawns; White: king 5a, silvers,
    // pawns; Black holds a bishop. Five moves already played.
    let sfen = "4k4/3s1s3/ppppppppp/9/9/9/PPPPPPPPP/7R1/3GKG3 b B 1";
    let mut spec = GameSpec::even("position+1", Color::White, 1);
    spec.sfen = sfen.to_string();
    spec.position = vec![
        "P1 *  *  *  * -OU *  *  *  * ".to_string(),
        "P2 *  *  * -GI * -GI *  *  * ".to_string(),
        "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU".to_string(),
        "P4 *  *  *  *  *  *  *  *  * ".to_string(),
        "P5 *  *  *  *  *  *  *  *  * ".to_string(),
        "P6 *  *  *  *  *  *  *  *  * ".to_string(),
        "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU".to_string(),
        "P8 *  *  *  *  *  *  * +HI * ".to_string(),
        "P9 *  *  * +KI+OU+KI *  *  * ".to_string(),
        "P+00KA".to_string(),
        "+".to_string(),
    ];
    spec.moves = ["+2726FU,T3", "-3334FU,T5", "+0055KA,T2", "-4233GI,T1", "+5544KA,T0"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let check = spec.clone();
    let server = serve(vec![short_game(spec, 3, &["#SENNICHITE", "#DRAW"])]);
    let dir = scratch("position");
    let run = run_client(server.port, &dir, &[], MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("from move 6"), "{}", run.stdout);
    assert!(run.stdout.contains("over: DRAW #SENNICHITE"), "{}", run.stdout);
    let recs = records(&dir);
    let moves = record_moves(&recs[0], &check.sfen);
    assert_eq!(moves.len(), 5 + 3 + 2, "{}", recs[0]);
    assert!(recs[0].contains("P+00KA") && recs[0].contains("%SENNICHITE"), "{}", recs[0]);
}

#[test]
fn a_time_up_just_after_a_move_ends_the_game() {
    let _alone = alone();
    let spec = GameSpec::even("timeup+1", Color::Black, 1);
    let server = serve(vec![Box::new(move |peer: &mut Peer| {
        login_and_start(peer, &spec);
        let line = peer.expect(Duration::from_secs(5));
        assert!(legal_csa(&Position::startpos(), &line).is_some(), "{line}");
        // The move arrived, but (says the server) too late.
        peer.send("#TIME_UP");
        peer.send("#LOSE");
        peer.drain(Duration::from_secs(5));
    }) as Script]);
    let dir = scratch("timeup");
    let run = run_client(server.port, &dir, &[], MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("over: LOSE #TIME_UP"), "{}", run.stdout);
    let recs = records(&dir);
    assert!(recs[0].contains("%TIME_UP"), "{}", recs[0]);
}

#[test]
fn every_result_line_ends_its_game() {
    let _alone = alone();
    let endings: [&[&str]; 7] = [
        &["#OUTE_SENNICHITE", "#LOSE"],
        &["#MAX_MOVES", "#CENSORED"],
        &["#ILLEGAL_MOVE", "#WIN"],
        &["%KACHI", "#JISHOGI", "#LOSE"],
        &["#CHUDAN"],
        &["#SENNICHITE", "#DRAW"],
        &["%TORYO", "#RESIGN", "#WIN"],
    ];
    let scripts: Vec<Script> = endings
        .iter()
        .enumerate()
        .map(|(i, end)| {
            let color = if i % 2 == 0 { Color::Black } else { Color::White };
            short_game(GameSpec::even(&format!("end+{i}"), color, 1), 1, end)
        })
        .collect();
    let server = serve(scripts);
    let dir = scratch("results");
    let run = run_client(server.port, &dir, &["--games", "7"], Duration::from_secs(120));
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    for expected in [
        "LOSE #OUTE_SENNICHITE",
        "CENSORED #MAX_MOVES",
        "WIN #ILLEGAL_MOVE",
        "LOSE #JISHOGI",
        "INTERRUPTED #CHUDAN",
        "DRAW #SENNICHITE",
        "WIN #RESIGN",
    ] {
        assert!(run.stdout.contains(&format!("over: {expected}")), "{expected}:\n{}", run.stdout);
    }
    assert!(
        run.stdout.contains("played 7 games: 2 won, 2 lost, 1 drawn, 2 without a result"),
        "{}",
        run.stdout
    );
    for (i, rec) in records(&dir).iter().enumerate() {
        assert!(rec.contains("'*result: "), "record {i}:\n{rec}");
    }
}

#[test]
fn a_lost_position_is_resigned_and_a_won_declaration_declared() {
    let _alone = alone();
    // White to move with a bare king against everything: the engine resigns.
    let mut lost = GameSpec::even("resign+1", Color::White, 1);
    lost.sfen = "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w RB2G2S2N2L9P 1".to_string();
    lost.position = vec![
        "P1 *  *  *  * -OU *  *  *  * ".to_string(),
        "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU".to_string(),
        "P8 * +KA *  *  *  *  * +HI * ".to_string(),
        "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY".to_string(),
        "P+00AL".to_string(),
        "-".to_string(),
    ];
    // Black's king in the enemy camp with 28 points and ten pieces there: a win
    // by declaration (27-point rule).
    let mut declare = GameSpec::even("declare+1", Color::Black, 1);
    declare.sfen = "K1+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/9/4k4 b RB2G 1".to_string();
    declare.position = vec![
        "P1+OU * +TO+TO+TO+TO+TO+TO+TO".to_string(),
        "P2+TO+TO+TO+TO+TO+TO+TO+TO+TO".to_string(),
        "P9 *  *  *  * -OU *  *  *  * ".to_string(),
        "P+00HI00KA00KI00KI".to_string(),
        "P-00AL".to_string(),
        "+".to_string(),
    ];
    let check_declare = declare.clone();
    let server = serve(vec![
        Box::new(move |peer: &mut Peer| {
            login_and_start(peer, &lost);
            let (_, stop) = referee(peer, &lost, 20);
            assert_eq!(stop, Stop::Special("%TORYO".to_string()));
            peer.send_lines(&["%TORYO".into(), "#RESIGN".into(), "#LOSE".into()]);
            peer.drain(Duration::from_secs(5));
        }) as Script,
        Box::new(move |peer: &mut Peer| {
            assert!(check_declare.position_now().side_to_move() == Color::Black);
            login_and_start(peer, &declare);
            let (_, stop) = referee(peer, &declare, 1);
            assert_eq!(stop, Stop::Special("%KACHI".to_string()));
            peer.send_lines(&["%KACHI".into(), "#JISHOGI".into(), "#WIN".into()]);
            peer.drain(Duration::from_secs(5));
        }) as Script,
    ]);
    let dir = scratch("resign");
    let run =
        run_client(server.port, &dir, &["--games", "2", "--option", "ResignValue=1000"], MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("over: LOSE #RESIGN"), "{}", run.stdout);
    assert!(run.stdout.contains("over: WIN #JISHOGI"), "{}", run.stdout);
}

#[test]
fn an_engine_that_stops_is_resigned_for_and_started_again() {
    let _alone = alone();
    // An engine that stops on `binc` (as gpsusi does): each game is resigned on
    // its first move, and the next game has a new engine.
    let mut fischer = GameSpec::even("fischer+1", Color::Black, 0);
    fischer.total = 10;
    fischer.increment = 1;
    let games: Vec<Script> = (0..2)
        .map(|_| {
            let spec = fischer.clone();
            Box::new(move |peer: &mut Peer| {
                login_and_start(peer, &spec);
                let (_, stop) = referee(peer, &spec, 1);
                assert_eq!(stop, Stop::Special("%TORYO".to_string()));
                peer.send_lines(&["%TORYO".into(), "#RESIGN".into(), "#LOSE".into()]);
                peer.drain(Duration::from_secs(5));
            }) as Script
        })
        .collect();
    let server = serve(games);
    let dir = scratch("engine-stops");
    let flags = fake_engine_flags();
    let mut extra: Vec<&str> = flags.iter().map(String::as_str).collect();
    extra.extend(["--games", "2"]);
    let env =
        [("KYOBO_FAKE_ENGINE_MOVES", String::new()), ("KYOBO_FAKE_ENGINE_REFUSE", "binc".into())];
    let run = run_client_env(server.port, &dir, &extra, &env, MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.stdout.matches("the engine has stopped").count(), 2, "{}", run.stdout);

    // Without binc/winc the same engine plays the Fischer game.
    let server = serve(vec![short_game(fischer, 3, &["#MAX_MOVES", "#CENSORED"])]);
    let mut extra: Vec<&str> = flags.iter().map(String::as_str).collect();
    extra.push("--no-usi-increment");
    let dir = scratch("no-increment");
    let run = run_client_env(server.port, &dir, &extra, &env, MINUTE);
    server.join();
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("over: CENSORED #MAX_MOVES"), "{}", run.stdout);
}
