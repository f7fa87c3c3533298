//! Property tests: random legal playouts keep the position consistent and
//! reversible, and the parsers never panic on any input.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use shogi::{legal_moves, Move, Position, STARTPOS};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A small deterministic generator, so every failure replays from its seed.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
        // Zero is a fixed point of xorshift; splitmix the seed first.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        XorShift((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Start positions for playouts: the opening, a sharp middlegame, a position
/// with many drops and a kingless tsume position.
const STARTS: [&str; 4] = [
    STARTPOS,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "4k4/9/4P4/9/9/9/9/9/9 b 2G2S 1",
];

/// Picks a move, half the time among captures when there are any (captures
/// exercise hands and the hand keys; a uniform pick rarely makes them).
fn pick(rng: &mut XorShift, moves: &[Move]) -> Move {
    if rng.next().is_multiple_of(2) {
        let caps: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
        if !caps.is_empty() {
            return caps[rng.below(caps.len())];
        }
    }
    moves[rng.below(moves.len())]
}

fn check_playout(start: &str, seed: u64, len: usize) -> Result<(), TestCaseError> {
    let mut pos = Position::from_sfen(start).unwrap();
    let (start_sfen, start_key) = (pos.to_sfen(), (pos.board_key(), pos.hand_key()));
    let mut rng = XorShift::new(seed);
    let mut played = Vec::new();
    for _ in 0..len {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break; // mate (or a tsume attacker out of moves)
        }
        let m = pick(&mut rng, &moves);
        let mover = pos.side_to_move();
        let predicted = pos.keys_after(m);
        pos.do_move(m);
        prop_assert_eq!(predicted, (pos.board_key(), pos.hand_key(), pos.hand(mover)));
        played.push(m);
        let line = || format!("{start} moves {played:?}");
        // Incremental keys and checkers equal the ones computed from scratch.
        prop_assert!(pos.is_consistent(), "inconsistent after {}", line());
        // The SFEN describes the position completely.
        let sfen = pos.to_sfen();
        let back = Position::from_sfen(&sfen)
            .map_err(|e| TestCaseError::fail(format!("{sfen}: {e} after {}", line())))?;
        prop_assert_eq!(&back, &pos, "round trip of {}", sfen);
        prop_assert_eq!(back.key(), pos.key(), "key after round trip of {}", sfen);
        prop_assert_eq!(back.checkers(), pos.checkers());
    }
    for &m in played.iter().rev() {
        pos.undo_move(m);
    }
    prop_assert_eq!(pos.to_sfen(), start_sfen);
    prop_assert_eq!((pos.board_key(), pos.hand_key()), start_key);
    prop_assert!(pos.is_consistent());
    prop_assert_eq!(pos.history_len(), 0);
    Ok(())
}

proptest! {
    // No regression files: a failure prints its seed, which replays exactly.
    #![proptest_config(Config { cases: 512, failure_persistence: None, ..Config::default() })]

    #[test]
    fn random_playouts_stay_consistent_and_undo(
        start in 0..STARTS.len(),
        seed in any::<u64>(),
        len in 0usize..200,
    ) {
        check_playout(STARTS[start], seed, len)?;
    }
}

// ---- Parsers never panic ------------------------------------------------------------

/// Feeds one input to both parsers; a successfully parsed position also has its
/// moves generated and one of them played, since such positions can be odd.
fn exercise(text: &str, probe: &Position) -> bool {
    let _ = probe.parse_usi_move(text);
    match Position::from_sfen(text) {
        Ok(mut pos) => {
            let moves = legal_moves(&pos);
            let _ = pos.parse_usi_move("7g7f");
            if let Some(&m) = moves.first() {
                let _ = pos.parse_usi_move(&m.to_usi());
                pos.do_move(m);
                assert!(pos.is_consistent(), "{text}: inconsistent after {m}");
                pos.undo_move(m);
            }
            true
        }
        Err(_) => false,
    }
}

/// Characters that SFEN and USI use, so mutations stay near valid inputs.
const ALPHABET: &[char] = &[
    '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '/', '+', '-', ' ', '*', 'b', 'w', 'P', 'L',
    'N', 'S', 'G', 'B', 'R', 'K', 'p', 'l', 'n', 's', 'g', 'r', 'k', 'a', 'i', 'x', '\t', 'é',
    '\u{0}',
];

fn mutate(rng: &mut XorShift, seed: &str) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    // Mostly a single edit, so that many results still parse and reach the
    // later checks (material, nifu, dead pieces, check) and move generation.
    let edits = if rng.below(2) == 0 { 1 } else { 2 + rng.below(4) };
    for _ in 0..edits {
        let n = chars.len();
        let c = if rng.below(8) == 0 {
            char::from_u32(rng.below(0x800) as u32).unwrap_or('?')
        } else {
            ALPHABET[rng.below(ALPHABET.len())]
        };
        match rng.below(7) {
            0 | 1 if n > 0 => chars[rng.below(n)] = c,
            2 => chars.insert(rng.below(n + 1), c),
            3 if n > 0 => {
                chars.remove(rng.below(n));
            }
            4 if n > 1 => {
                // Swap two characters: moves pieces around, often keeping widths.
                let (a, b) = (rng.below(n), rng.below(n));
                chars.swap(a, b);
            }
            5 if n > 0 => {
                // Replace a piece letter by another: keeps the board's shape.
                let i = rng.below(n);
                if chars[i].is_ascii_alphabetic() {
                    const PIECES: &[u8] = b"PLNSGBRKplnsgbrk";
                    chars[i] = PIECES[rng.below(PIECES.len())] as char;
                }
            }
            6 if n > 1 => {
                // Duplicate or drop a run: changes rank widths and counts wholesale.
                let a = rng.below(n);
                let b = (a + 1 + rng.below(8)).min(n);
                let run: Vec<char> = chars[a..b].to_vec();
                if rng.below(2) == 0 {
                    chars.splice(b..b, run);
                } else {
                    chars.drain(a..b);
                }
            }
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

/// Valid inputs to mutate: SFENs (including odd ones) and USI moves.
const SEEDS: &[&str] = &[
    STARTPOS,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "4k4/9/4P4/9/9/9/9/9/9 b G 1",
    "7nk/7p1/8G/9/9/9/9/9/4K4 b P 1",
    "+P3k3+L/+N8/9/9/9/9/4P4/4+P4/4K4 b - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
    "9/9/9/9/9/9/9/9/9 b - 1",
    "7g7f",
    "8h2b+",
    "P*5e",
];

#[test]
fn mutated_inputs_never_panic() {
    const RUNS: usize = 200_000;
    let probes: Vec<Position> =
        SEEDS[..7].iter().map(|s| Position::from_sfen(s).unwrap()).collect();
    let mut rng = XorShift::new(20_240_611);
    let mut parsed = 0;
    let mut panics = Vec::new();
    for i in 0..RUNS {
        let seed = SEEDS[rng.below(SEEDS.len())];
        let input = mutate(&mut rng, seed);
        let probe = &probes[i % probes.len()];
        match catch_unwind(AssertUnwindSafe(|| exercise(&input, probe))) {
            Ok(true) => parsed += 1,
            Ok(false) => {}
            Err(_) => panics.push(input),
        }
        if panics.len() >= 5 {
            break;
        }
    }
    eprintln!(
        "mutation fuzz: {RUNS} inputs, {parsed} parsed as positions, {} panics",
        panics.len()
    );
    assert!(panics.is_empty(), "panicking inputs: {panics:#?}");
    // Guard against a mutator that only ever breaks its inputs.
    assert!(parsed > RUNS / 20, "only {parsed} mutated SFENs parsed");
}

#[test]
fn arbitrary_strings_never_panic() {
    const CASES: u32 = 20_000;
    let probe = Position::startpos();
    let mut runner =
        TestRunner::new(Config { cases: CASES, failure_persistence: None, ..Config::default() });
    let runs = Cell::new(0u32);
    // Printable strings, raw bytes (lossily decoded) and SFEN-shaped strings.
    let strategy = prop_oneof![
        any::<String>(),
        proptest::collection::vec(any::<u8>(), 0..120)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        "[1-9lnsgkrbpLNSGKRBP+/]{0,40} [bw] [-0-9PLNSGBRplnsgbr]{0,6} [0-9]{0,3}",
        "[1-9PLNSGBRK*][a-i*][1-9][a-i]\\+?",
    ];
    runner
        .run(&strategy, |s| {
            runs.set(runs.get() + 1);
            exercise(&s, &probe);
            Ok(())
        })
        .unwrap();
    let runs = runs.get();
    eprintln!("arbitrary-string fuzz: {runs} inputs");
    assert!(runs >= CASES);
}
