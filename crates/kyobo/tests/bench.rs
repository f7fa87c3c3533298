//! `kyobo bench` is deterministic: the node total is a signature of the search.

use std::process::Command;

fn bench_nodes(depth: &str) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_kyobo"))
        .args(["bench", "--depth", depth])
        .output()
        .expect("kyobo bench runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("nodes "))
        .unwrap_or_else(|| panic!("no nodes line in:\n{text}"));
    line["nodes ".len()..].trim().parse().expect("a node count")
}

#[test]
fn the_bench_signature_is_stable() {
    let first = bench_nodes("6");
    assert!(first > 1000);
    assert_eq!(first, bench_nodes("6"));
}

/// **Regression pin.** The node total of `kyobo bench` (depth 10, 16 MB) is the
/// signature of the search and the evaluation: any change to either changes it.
/// A change that means to keep the tree (a refactoring, a speed-up) must leave it
/// as it is; one that means to change the tree updates this number deliberately,
/// and its commit message gives the new total.
#[test]
fn regression_pin_bench_signature() {
    assert_eq!(bench_nodes("10"), 733_685);
}
