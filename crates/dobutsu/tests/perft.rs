//! Perft counts: lines of exactly n plies, positions where the game is over
//! (Tanaka's model) not expanded. Every number here was also computed by
//! `tools/perft.py`, an independent implementation in Python (a dict board,
//! moves as strings) written from the rules, not from this crate.

use dobutsu::{divide, perft, Position, STARTPOS};

/// Start position, depths 1 to 10.
const START_COUNTS: [u64; 10] =
    [4, 17, 96, 577, 3_199, 18_754, 115_169, 723_421, 4_446_877, 28_736_226];

/// Positions with hands, hens, drops and either side to move (four from the
/// reference's perfect game, after 20, 40, 55 and 70 plies, and a set-up),
/// depths 1 to 6.
const OTHER_COUNTS: [(&str, [u64; 6]); 5] = [
    ("1l1/2e/1CG/1L1 b Cge 1", [13, 235, 1_854, 21_617, 172_728, 1_724_436]),
    ("gl1/2e/C2/L+cG b e 1", [5, 22, 198, 1_391, 8_819, 64_893]),
    ("g1l/C1E/1LC/3 w ge 1", [17, 98, 826, 5_756, 44_334, 312_141]),
    ("1l1/ge1/e1G/L2 b 2c 1", [6, 56, 345, 2_717, 16_941, 141_659]),
    ("G2/3/L1l/1c1 b Ee 1", [15, 136, 929, 3_753, 16_263, 81_123]),
];

#[test]
fn start_position_counts() {
    let mut pos = Position::from_sfen(STARTPOS).unwrap();
    assert_eq!(perft(&mut pos, 0), 1);
    for (depth, &expected) in START_COUNTS.iter().enumerate() {
        assert_eq!(perft(&mut pos, depth as u32 + 1), expected, "depth {}", depth + 1);
    }
    assert_eq!(pos, Position::startpos());
}

#[test]
fn other_positions_counts() {
    for (sfen, counts) in OTHER_COUNTS {
        let mut pos = Position::from_sfen(sfen).unwrap();
        for (depth, &expected) in counts.iter().enumerate() {
            assert_eq!(perft(&mut pos, depth as u32 + 1), expected, "{sfen} depth {}", depth + 1);
        }
        assert_eq!(pos.to_sfen(), sfen);
    }
}

#[test]
fn divide_splits_the_count_by_first_move() {
    let mut pos = Position::startpos();
    let split = divide(&mut pos, 4);
    let mut named: Vec<(String, u64)> = split.iter().map(|(m, n)| (m.to_string(), *n)).collect();
    named.sort();
    // From `tools/perft.py --divide 4`.
    assert_eq!(
        named,
        [
            ("b3b2".to_string(), 334),
            ("b4a3".to_string(), 74),
            ("b4c3".to_string(), 71),
            ("c4c3".to_string(), 98)
        ]
    );
    assert_eq!(split.iter().map(|s| s.1).sum::<u64>(), START_COUNTS[3]);
}

#[test]
fn a_finished_game_has_no_lines() {
    // Sente can capture Gote's lion: the game is over, nothing is expanded.
    let mut pos = Position::from_sfen("1l1/1G1/3/1L1 b - 1").unwrap();
    assert_eq!(perft(&mut pos, 1), 0);
    assert_eq!(perft(&mut pos, 0), 1);
    assert!(divide(&mut pos, 2).is_empty());
}
