//! `kyobo tree` as a user meets it: principal variations that are paths from the
//! root, nonsense trees refused with the offending text quoted, bounds said as
//! bounds, ABC's leaves counted, and flags that do not apply refused.

use crate::common;

/// Runs `kyobo tree ARGS`: success, standard output, standard error.
fn tree(args: &[&str]) -> (bool, String, String) {
    common::kyobo(&[&["tree"], args].concat())
}

#[test]
fn the_pv_is_a_path_from_the_root() {
    for algo in ["minimax", "alphabeta", "negamax", "abc"] {
        let (ok, out, err) = tree(&["--tree", "A(B(D:0 E:1) C:4)", "--algo", algo]);
        assert!(ok, "{err}");
        assert!(out.lines().any(|l| l == "pv C"), "{algo}:\n{out}");
    }
    // Unnamed nodes are named A, B, … in order: the root's second child is E.
    let (ok, out, _) = tree(&["--tree", "((0 1) 4)"]);
    assert!(ok && out.lines().any(|l| l == "pv E"), "{out}");
}

#[test]
fn nonsense_trees_are_refused_with_the_text_quoted() {
    for bad in ["()", "(())", "5", "A(B C:4)"] {
        let (ok, out, err) = tree(&["--tree", bad]);
        assert!(!ok, "{bad} accepted:\n{out}");
        assert!(err.contains("bad tree"), "{bad}: {err}");
    }
    let (ok, _, err) = tree(&["--tree", "((3 12 x) (2 4))"]);
    assert!(!ok && err.contains("'x'"), "{err}");
}

#[test]
fn a_value_at_the_window_s_end_is_said_to_be_a_bound() {
    // The tree's value is 3: a window above it gives 4, at most.
    let (ok, out, err) = tree(&["--tree", "((3 12 8) (2 4 6) (14 5 2))", "--algo", "alphabeta"]);
    assert!(ok && out.contains("value 3"), "{err}");
    let args =
        ["--tree", "((3 12 8) (2 4 6) (14 5 2))", "--algo", "negamax", "--window", "4", "10"];
    let (ok, out, _) = tree(&args);
    assert!(ok && out.contains("value 4") && out.contains("upper bound"), "{out}");
    let args =
        ["--tree", "((3 12 8) (2 4 6) (14 5 2))", "--algo", "alphabeta", "--window", "-5", "2"];
    let (ok, out, _) = tree(&args);
    assert!(ok && out.contains("value 2") && out.contains("lower bound"), "{out}");
    let args =
        ["--tree", "((3 12 8) (2 4 6) (14 5 2))", "--algo", "alphabeta", "--window", "0", "9"];
    let (ok, out, _) = tree(&args);
    assert!(ok && out.contains("value 3") && !out.contains("bound"), "{out}");
}

#[test]
fn abc_counts_the_leaves_its_trace_shows() {
    let (ok, out, err) =
        tree(&["--tree", "((3 12 8) (2 4 6) (14 5 2))", "--algo", "abc", "--trace"]);
    assert!(ok, "{err}");
    let counts = out.lines().find(|l| l.starts_with("nodes ")).expect("the counts");
    let leaves: u64 = counts.split_whitespace().nth(3).and_then(|n| n.parse().ok()).unwrap();
    let traced =
        out.lines().filter(|l| l.contains("end of the game") || l.contains("leaf:")).count();
    assert!(
        traced > 0 && leaves >= traced as u64,
        "{leaves} leaves, {traced} in the trace:\n{out}"
    );
}

#[test]
fn a_cut_at_the_last_child_says_nothing_was_left() {
    // At B (MIN), the last child's 3 is below alpha 4 only at its end: an
    // alpha-cut with nothing after it.
    let (ok, out, _) = tree(&["--tree", "A(C:4 B(D:9 E:3))", "--algo", "alphabeta", "--trace"]);
    assert!(ok, "{out}");
    assert!(!out.lines().any(|l| l.trim_end().ends_with("prunes")), "{out}");
    assert!(out.contains("alpha-cut at B (its last child: nothing left to prune)"), "{out}");
}

#[test]
fn flags_that_do_not_apply_are_refused() {
    let t = "((3 12 8) (2 4 6))";
    let (ok, _, err) = tree(&["--tree", t, "--algo", "alphabeta", "--option", "ABC_Delta=2"]);
    assert!(!ok && err.contains("--option"), "{err}");
    let (ok, _, err) = tree(&["--tree", t, "--algo", "abc", "--window", "1", "2"]);
    assert!(!ok && err.contains("--window"), "{err}");
    let (ok, _, err) = tree(&["--tree", t, "--algo", "minimax", "--window", "1", "2"]);
    assert!(!ok && err.contains("--window"), "{err}");
}

/// A position is `startpos` or an SFEN (with or without `sfen `) for shogi and
/// Dobutsu alike.
#[test]
fn positions_take_startpos_or_an_sfen() {
    for args in [
        ["--sfen", "startpos"],
        ["--sfen", "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"],
        ["--dobutsu", "startpos"],
        ["--dobutsu", "sfen gle/1c1/1C1/ELG b - 1"],
    ] {
        let (ok, out, err) = tree(&[args[0], args[1], "--depth", "1"]);
        assert!(ok && out.contains("best "), "{args:?}: {err}");
    }
}
