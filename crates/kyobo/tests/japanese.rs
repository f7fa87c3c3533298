//! The subcommands that print moves print them in Japanese notation on request.

use std::process::Command;

fn kyobo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kyobo")).args(args).output().expect("kyobo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn kyobo_mate_prints_its_line_in_japanese() {
    // A gold dropped on the king's head, guarded by a pawn; then a line with a
    // capture (同) and a promotion.
    let usi = kyobo(&["mate", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"]);
    assert!(usi.contains("\npv G*5b\n"), "{usi}");
    let ja = kyobo(&["mate", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "--japanese"]);
    assert!(ja.contains("\npv ▲５二金\n"), "{ja}");
    let json = kyobo(&["mate", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "--japanese", "--json"]);
    assert!(json.contains("\"pv\":\"G*5b\""), "JSON keeps USI: {json}");
}

/// A gold dropped on the king's head (guarded by the pawn) mates; 5c5b+ is taken
/// by the king (同).
const GOLD_MATE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";

#[test]
fn kyobo_shape_lists_and_judges_moves_in_japanese() {
    // Figure 1 of the bad-shape seed: the rook on 26 after the 2nd-file exchange.
    let moves = ["2g2f", "8c8d", "2f2e", "8d8e", "2e2d", "2c2d", "2h2d", "P*2c", "2d2f", "4a3b"];
    let mut args = vec!["shape", "--sfen", "startpos", "--moves"];
    args.extend(moves);
    let usi = kyobo(&args);
    assert!(
        usi.lines().any(|l| l.starts_with("2f3f ") && l.contains("rook_on_pawn_head")),
        "{usi}"
    );
    args.push("--japanese");
    let ja = kyobo(&args);
    assert!(ja.lines().any(|l| l.starts_with("▲３六飛 rook_on_pawn_head — ")), "{ja}");
    assert!(!ja.contains("2f3f"), "{ja}");
    args.extend(["--move", "2f3f"]);
    let one = kyobo(&args);
    assert!(one.starts_with("▲３六飛: bad shape: rook_on_pawn_head — "), "{one}");
}

#[test]
fn kyobo_tree_prints_a_shogi_positions_moves_in_japanese() {
    let usi = kyobo(&["tree", "--sfen", GOLD_MATE]);
    assert!(usi.contains("\nbest G*5b\n"), "{usi}");
    let ja = kyobo(&["tree", "--sfen", GOLD_MATE, "--japanese"]);
    // The mate ends the line: nothing follows it.
    assert!(ja.contains("\nbest ▲５二金\npv ▲５二金\n"), "{ja}");
    // The textbook trace: nodes named by the move that reached them, the pruned
    // moves at their node.
    let traced = kyobo(&["tree", "--sfen", GOLD_MATE, "--trace", "--japanese"]);
    assert!(traced.contains("\n  enter ▲５二歩成 (-inf, +inf)\n    enter △同　玉 "), "{traced}");
    assert!(traced.contains("alpha-cut at ▲５二歩不成 prunes △"), "{traced}");
    assert!(!traced.contains("5c5b"), "{traced}");
    // ABC's trace: the root keys, each move entered and each node's keys.
    let abc = kyobo(&["tree", "--sfen", GOLD_MATE, "--algo", "abc", "--trace", "--japanese"]);
    // The root's keys are the last iteration's values, the mate first; the
    // refuted moves follow, each with the bound its search proved.
    assert!(abc.contains("; root keys ▲５二金 31999, ▲５八玉 "), "{abc}");
    assert!(abc.contains("\n  ▲５二歩成 by First, key "), "{abc}");
    assert!(abc.contains("\n    keys △同　玉 "), "{abc}");
    assert!(abc.contains("\n    △同　玉 by Second, key "), "{abc}");
    assert!(abc.contains("\nbest ▲５二金\n"), "{abc}");
    assert!(!abc.contains("G*5b") && !abc.contains("5a5b"), "{abc}");
    // A tree given as data has no Japanese notation.
    let refused = Command::new(env!("CARGO_BIN_EXE_kyobo"))
        .args(["tree", "--tree", "((3 12 8) (2 4 6))", "--japanese"])
        .output()
        .expect("kyobo runs");
    assert!(!refused.status.success());
}

#[test]
fn kyobo_bench_prints_its_best_moves_in_japanese() {
    let ja = kyobo(&["bench", "--depth", "1", "--japanese"]);
    assert!(ja.lines().next().is_some_and(|l| l.contains(" bestmove ▲７六歩 ")), "{ja}");
    assert!(ja.lines().any(|l| l.starts_with("position  7:") && l.contains(" bestmove ▲５二金 ")));
}

#[test]
fn kyobo_perft_divide_prints_the_root_moves_in_japanese() {
    let ja = kyobo(&["perft", "2", "--divide", "--japanese"]);
    assert!(ja.contains("▲７六歩: 30\n"), "{ja}");
    // Two golds can go to 58: the words that tell them apart.
    assert!(ja.contains("▲５八金右: 30\n▲５八金左: 30\n"), "{ja}");
    assert!(ja.contains("\nnodes 900\n"), "{ja}");
}
