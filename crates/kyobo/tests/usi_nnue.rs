//! The NNUE evaluation as a GUI meets it: `EvalFile` / `EvalDir` read at
//! `isready`, the network's value in `eval`, games played with it, and every kind
//! of bad file answered with `info string error: …` while the engine goes on with
//! the handcrafted evaluation.

use crate::common;

use common::{assert_legal, Gui};
use eval::nnue::stack::evaluate_afresh;
use eval::nnue::{Network, NnueStack};
use shogi::Position;
use std::sync::Arc;
use std::time::Duration;
use testdata::ScratchDir;

const SECS: Duration = Duration::from_secs(1);

/// A folder of its own for each test, removed at the end.
struct Scratch(ScratchDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        Scratch(ScratchDir::new(&format!("usi-nnue-{name}")))
    }
}

fn network_bytes(seed: u64) -> (Network, Vec<u8>) {
    let net = Network::random(seed).expect("memory for a test net");
    let mut bytes = Vec::new();
    net.write(&mut bytes).expect("written");
    (net, bytes)
}

fn ready(gui: &mut Gui) -> Vec<String> {
    gui.send("isready");
    gui.lines_until("readyok", 20 * SECS)
}

fn eval_lines(gui: &mut Gui) -> Vec<String> {
    gui.send("eval");
    gui.send("isready");
    gui.lines_until("readyok", 10 * SECS)
}

#[test]
fn a_network_read_from_evaldir_evaluates_and_plays() {
    let dir = Scratch::new("good");
    let (net, bytes) = network_bytes(11);
    std::fs::write(dir.0.join("nn.bin"), bytes).expect("write nn.bin");
    let mut gui = Gui::start();
    gui.handshake();
    gui.send(&format!("setoption name EvalDir value {}", dir.0.display()));
    let lines = ready(&mut gui);
    assert!(lines.iter().any(|l| l.starts_with("info string NNUE network ")), "{lines:?}");

    let moves = "7g7f 3c3d 8h2b+ 3a2b B*4e";
    gui.send(&format!("position startpos moves {moves}"));
    let mut pos = Position::startpos();
    for m in moves.split(' ') {
        let m = pos.parse_usi_move(m).expect("legal");
        pos.do_move(m);
    }
    let net = Arc::new(net);
    let expected = evaluate_afresh(&net, &pos).expect("standard set");
    let lines = eval_lines(&mut gui);
    let shown = |value: i32| format!("info string nnue value {value} (side to move's view)");
    assert!(lines.iter().any(|l| l == &shown(expected)), "{lines:?}");

    // `FV_SCALE` divides the network's output by another number than 16.
    gui.send("setoption name FV_SCALE value 5");
    let mut stack = NnueStack::new(net.clone(), &pos).expect("standard set");
    stack.set_output_scale(5);
    let scaled = stack.evaluate(&pos);
    assert_ne!(scaled, expected, "a position whose value the scales tell apart");
    let lines = eval_lines(&mut gui);
    assert!(lines.iter().any(|l| l == &shown(scaled)), "{lines:?}");
    gui.send("setoption name FV_SCALE value 0");
    let lines = eval_lines(&mut gui);
    assert!(lines.iter().any(|l| l.starts_with("info string error: FV_SCALE")), "{lines:?}");
    assert!(lines.iter().any(|l| l == &shown(scaled)), "the scale stays: {lines:?}");
    gui.send("setoption name FV_SCALE value 16");

    // A few moves of a game, each answered with a legal move.
    let mut played: Vec<String> = moves.split(' ').map(str::to_string).collect();
    for _ in 0..6 {
        gui.send(&format!("position startpos moves {}", played.join(" ")));
        gui.send("go btime 0 wtime 0 byoyomi 200");
        let line = gui.expect("bestmove", 10 * SECS);
        let m = assert_legal(&pos, &line);
        pos.do_move(m);
        played.push(m.to_usi());
    }

    // Back to the handcrafted evaluation.
    gui.send("setoption name EvalFile value none");
    ready(&mut gui);
    let lines = eval_lines(&mut gui);
    assert!(!lines.iter().any(|l| l.contains("nnue value")), "{lines:?}");
    gui.quit();
}

#[test]
fn bad_files_are_errors_and_the_handcrafted_evaluation_stays() {
    let dir = Scratch::new("bad");
    let (_, bytes) = network_bytes(12);
    let truncated = dir.0.join("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("write");
    let mut other = bytes.clone();
    other[4] ^= 0x40; // the architecture hash
    let architecture = dir.0.join("other.bin");
    std::fs::write(&architecture, &other).expect("write");
    let text = dir.0.join("text.bin");
    std::fs::write(&text, "not a network at all\n").expect("write");
    let cases = [
        (dir.0.join("missing.bin"), "cannot read the file"),
        (truncated, "truncated"),
        (architecture, "not halfKP 256x2-32-32"),
        (text, "not an nn.bin file"),
    ];
    let mut gui = Gui::start();
    gui.handshake();
    for (path, why) in &cases {
        gui.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = ready(&mut gui);
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: EvalFile")
                && l.contains(why)
                && l.contains("handcrafted")),
            "{why}: {lines:?}"
        );
        let lines = eval_lines(&mut gui);
        assert!(!lines.iter().any(|l| l.contains("nnue value")), "{lines:?}");
        // The engine still plays.
        gui.send("position startpos");
        gui.send("go btime 0 wtime 0 byoyomi 100");
        let line = gui.expect("bestmove", 10 * SECS);
        assert_legal(&Position::startpos(), &line);
    }
    gui.send("setoption name EvalFile value");
    let lines = ready(&mut gui);
    assert!(lines.iter().any(|l| l.starts_with("info string error: EvalFile needs")), "{lines:?}");
    gui.quit();
}
