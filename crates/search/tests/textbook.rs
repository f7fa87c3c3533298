//! The textbook algorithms on trees given as data: values, visiting order, windows
//! and exactly which children each cut prunes.

use search::textbook::{alphabeta, format_trace, minimax, negamax, CutKind, NoTrace, TraceEvent};
use search::tree::{TreeGame, TreeMove};
use search::value::INFINITE;

use crate::common;
use common::{random_tree, Lcg};

/// A three-ply exercise tree in the style of exercise 13 of Sakuta's αβ notes: A is MAX, B-D
/// are MIN, E-J are MAX, the leaves (values from A's side) are MIN nodes.
///
/// Worked by hand: B = min(E=5, F=9) = 5, C = min(G=2, H=0) = 0, D = min(I=8, J=9) = 8,
/// A = 8 by D. Alpha-beta: F is beta-cut after M=6 ≥ 5 (N pruned); C is alpha-cut
/// after G returns 5 ≤ 5 (H pruned with its leaves); J is beta-cut after U=9 ≥ 8
/// (V pruned).
const EXERCISE: &str =
    "A(B(E(K:3 L:5) F(M:6 N:9)) C(G(O:1 P:2) H(Q:0 R:-1)) D(I(S:8 T:4) J(U:9 V:2)))";

fn names(moves: &[TreeMove]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

fn cuts(events: &[TraceEvent<TreeMove>]) -> Vec<(String, CutKind, Vec<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Cut { path, kind, pruned } => {
                Some((path.last().map_or("A".to_string(), |m| m.to_string()), *kind, names(pruned)))
            }
            _ => None,
        })
        .collect()
}

fn window_at(events: &[TraceEvent<TreeMove>], node: &str) -> Option<(i32, i32)> {
    events.iter().find_map(|e| match e {
        TraceEvent::Enter { path, window }
            if path.last().map(|m| m.to_string()).as_deref() == Some(node) =>
        {
            *window
        }
        _ => None,
    })
}

fn entered(events: &[TraceEvent<TreeMove>]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Enter { path, .. } => {
                Some(path.last().map_or("A".to_string(), |m| m.to_string()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn minimax_values_the_exercise_tree() {
    let tree = TreeGame::parse(EXERCISE).unwrap();
    let out = minimax(&tree, 3, &mut NoTrace);
    assert_eq!(out.value, 8);
    assert_eq!(names(&out.pv), ["D", "I", "S"]);
    assert_eq!(out.nodes, 22, "minimax visits every node");
}

#[test]
fn alphabeta_maxmin_cuts_the_expected_children() {
    let tree = TreeGame::parse(EXERCISE).unwrap();
    let mut trace = Vec::new();
    let out = alphabeta(&tree, 3, -INFINITE, INFINITE, &mut trace);
    assert_eq!(out.value, 8);
    assert_eq!(out.pv[0].to_string(), "D");
    assert_eq!(
        cuts(&trace),
        vec![
            ("F".to_string(), CutKind::Beta, vec!["N".to_string()]),
            ("C".to_string(), CutKind::Alpha, vec!["H".to_string()]),
            ("J".to_string(), CutKind::Beta, vec!["V".to_string()]),
        ]
    );
    // Windows as MAX sees them.
    assert_eq!(window_at(&trace, "C"), Some((5, INFINITE)));
    assert_eq!(window_at(&trace, "D"), Some((5, INFINITE)));
    assert_eq!(window_at(&trace, "G"), Some((5, INFINITE)));
    assert_eq!(window_at(&trace, "J"), Some((5, 8)));
    // Nodes never entered: the pruned children and everything below them.
    let seen = entered(&trace);
    for pruned in ["N", "H", "Q", "R", "V"] {
        assert!(!seen.contains(&pruned.to_string()), "{pruned} was visited");
    }
    assert_eq!(out.nodes, 17);
}

#[test]
fn negamax_cuts_the_same_children_with_negated_windows() {
    let tree = TreeGame::parse(EXERCISE).unwrap();
    let mut trace = Vec::new();
    let out = negamax(&tree, 3, -INFINITE, INFINITE, &mut trace);
    assert_eq!(out.value, 8);
    let mut maxmin = Vec::new();
    alphabeta(&tree, 3, -INFINITE, INFINITE, &mut maxmin);
    assert_eq!(cuts(&trace), cuts(&maxmin));
    assert_eq!(entered(&trace), entered(&maxmin));
    // At MIN nodes negamax holds (-beta, -alpha).
    assert_eq!(window_at(&trace, "C"), Some((-INFINITE, -5)));
    assert_eq!(window_at(&trace, "G"), Some((5, INFINITE)));
    assert_eq!(window_at(&trace, "J"), Some((5, 8)));
}

#[test]
fn a_narrow_root_window_cuts_more() {
    // Exercise 13 (5): negamax(4, 6) from the root.
    let tree = TreeGame::parse(EXERCISE).unwrap();
    let mut trace = Vec::new();
    let out = negamax(&tree, 3, 4, 6, &mut trace);
    // The true value 8 lies above the window: fail-hard returns the bound.
    assert_eq!(out.value, 6);
    let pruned: Vec<String> = cuts(&trace).into_iter().flat_map(|c| c.2).collect();
    let full: Vec<String> = {
        let mut t = Vec::new();
        negamax(&tree, 3, -INFINITE, INFINITE, &mut t);
        cuts(&t).into_iter().flat_map(|c| c.2).collect()
    };
    assert!(pruned.len() > full.len(), "{pruned:?} vs {full:?}");
}

/// The cuts that prune something, as (node, kind, pruned children).
fn pruning_cuts(events: &[TraceEvent<TreeMove>]) -> Vec<(String, CutKind, Vec<String>)> {
    cuts(events).into_iter().filter(|c| !c.2.is_empty()).collect()
}

fn cut(node: &str, kind: CutKind, pruned: &[&str]) -> (String, CutKind, Vec<String>) {
    (node.to_string(), kind, pruned.iter().map(|p| p.to_string()).collect())
}

/// Exercise 13's questions (2), (5) and (6) on the exercise tree, worked by hand
/// with Sakuta's fail-hard negamax (his αβ lecture notes) (`m` starts at alpha; a cut when `m >= beta`).
#[test]
fn exercise_13_questions_answered() {
    let tree = TreeGame::parse(EXERCISE).unwrap();

    // (2) negamax(-inf, +inf): the windows each node is called with, from its own
    // side. B returns -5 (E = 5), so F is called with (-inf, 5) and M with (-5, +inf);
    // C and D with (-inf, -5), G (under C) with (5, +inf).
    let mut trace = Vec::new();
    negamax(&tree, 3, -INFINITE, INFINITE, &mut trace);
    assert_eq!(window_at(&trace, "C"), Some((-INFINITE, -5)));
    assert_eq!(window_at(&trace, "D"), Some((-INFINITE, -5)));
    assert_eq!(window_at(&trace, "G"), Some((5, INFINITE)));
    assert_eq!(window_at(&trace, "M"), Some((-5, INFINITE)));

    // (5) negamax(4, 6): E = 5 inside the window; F cut at M = 6 >= 5 (N); G
    // returns its alpha 5, so C is cut at once (H, with Q and R); I cut at S = 8 >= 6
    // (T, which the full window searched); J at U = 9 >= 6 (V); the root fails high
    // with its beta 6.
    let mut trace = Vec::new();
    let out = negamax(&tree, 3, 4, 6, &mut trace);
    assert_eq!(out.value, 6);
    assert_eq!(
        pruning_cuts(&trace),
        vec![
            cut("F", CutKind::Beta, &["N"]),
            cut("C", CutKind::Alpha, &["H"]),
            cut("I", CutKind::Beta, &["T"]),
            cut("J", CutKind::Beta, &["V"]),
        ]
    );

    // (6) B, C and D each searched on its own with the full window (one thread
    // each), the leaves from the side to move there (negated): B keeps its cut of N
    // and D its cut of V, but C no longer knows A's 5 from B and searches H whole.
    // A takes the largest of -B, -C, -D: 8 by D, as the sequential search.
    let subtrees = [
        ("B(E(K:-3 L:-5) F(M:-6 N:-9))", -5, vec![cut("F", CutKind::Beta, &["N"])]),
        ("C(G(O:-1 P:-2) H(Q:0 R:1))", 0, vec![]),
        ("D(I(S:-8 T:-4) J(U:-9 V:-2))", -8, vec![cut("J", CutKind::Beta, &["V"])]),
    ];
    let mut best = (-INFINITE, String::new());
    for (text, value, expected_cuts) in subtrees {
        let sub = TreeGame::parse(text).unwrap();
        let mut trace = Vec::new();
        let out = negamax(&sub, 2, -INFINITE, INFINITE, &mut trace);
        assert_eq!(out.value, value, "{text}");
        // Kinds are named from the subtree's root, now a MAX node.
        let found: Vec<(String, Vec<String>)> =
            pruning_cuts(&trace).into_iter().map(|(n, _, p)| (n, p)).collect();
        let wanted: Vec<(String, Vec<String>)> =
            expected_cuts.into_iter().map(|(n, _, p)| (n, p)).collect();
        assert_eq!(found, wanted, "{text}");
        if -out.value > best.0 {
            best = (-out.value, text[..1].to_string());
        }
    }
    assert_eq!(best, (8, "D".to_string()));
}

#[test]
fn the_trace_prints_like_the_seed_program() {
    let tree = TreeGame::parse("A(B(D:1 E:2) C(F:0 G:5))").unwrap();
    let mut trace = Vec::new();
    negamax(&tree, 2, -INFINITE, INFINITE, &mut trace);
    let text = format_trace(&trace, "A");
    // Values are each node's own (negamax) view; windows likewise.
    let expected = "\
enter A (-inf, +inf)
  enter B (-inf, +inf)
    enter D (-inf, +inf)
    leaf D = 1
    enter E (-inf, 1)
    leaf E = 2
  return B = -1
  enter C (-inf, -1)
    enter F (1, +inf)
    leaf F = 0
  alpha-cut at C prunes G
  return C = 0
return A = 1
";
    assert_eq!(text, expected);
}

#[test]
fn all_three_agree_on_random_trees() {
    let mut rng = Lcg(7);
    for _ in 0..200 {
        let mut c = 0;
        let text = random_tree(&mut rng, 4, 4, &mut c);
        let tree = TreeGame::parse(&text).unwrap();
        let mm = minimax(&tree, 4, &mut NoTrace);
        let ab = alphabeta(&tree, 4, -INFINITE, INFINITE, &mut NoTrace);
        let nm = negamax(&tree, 4, -INFINITE, INFINITE, &mut NoTrace);
        assert_eq!(mm.value, ab.value, "{text}");
        assert_eq!(mm.value, nm.value, "{text}");
        assert_eq!(ab.nodes, nm.nodes, "{text}");
        assert!(ab.nodes <= mm.nodes);
        // Fail-hard: a window around the value brackets it correctly.
        let v = mm.value;
        assert_eq!(negamax(&tree, 4, v - 1, v + 1, &mut NoTrace).value, v, "{text}");
        assert!(negamax(&tree, 4, v, v + 5, &mut NoTrace).value <= v);
        assert!(negamax(&tree, 4, v - 5, v, &mut NoTrace).value >= v);
    }
}

#[test]
fn the_classical_engine_agrees_with_minimax_on_small_trees() {
    use search::engine::Signals;
    use search::{Engine, Limits};
    let mut rng = Lcg(11);
    let mut engine = Engine::new(1, 1);
    for _ in 0..200 {
        let mut c = 0;
        let text = random_tree(&mut rng, 3, 2, &mut c);
        let tree = TreeGame::parse(&text).unwrap();
        let mm = minimax(&tree, 3, &mut NoTrace);
        engine.clear();
        let signals = Signals::new();
        let r = engine.search(&tree, &Limits::depth(3), &signals, &mut |_| {});
        assert_eq!(r.score, mm.value, "{text}");
        // The chosen move is worth the root's value.
        let best = r.best_move.unwrap();
        let mut after = tree.clone();
        search::Game::make_move(&mut after, best);
        let child = minimax(&after, 2, &mut NoTrace);
        assert_eq!(-child.value, mm.value, "{text}");
    }
}

/// The textbooks' 3 × 3 example written as nested lists: minimax values it 3 from
/// all nine leaves; alpha-beta and negamax value it 3 from seven (after B's 3, F is
/// cut at its first leaf 2, and J after 14, 5, 2: H and I are never valued), and
/// visit exactly the same nodes; a window around the value prunes more.
#[test]
fn the_three_by_three_example() {
    let tree = TreeGame::parse("((3 12 8) (2 4 6) (14 5 2))").unwrap();
    let mm = minimax(&tree, 2, &mut NoTrace);
    assert_eq!((mm.value, mm.leaves), (3, 9));
    let mut ab_events = Vec::new();
    let ab = alphabeta(&tree, 2, -INFINITE, INFINITE, &mut ab_events);
    assert_eq!((ab.value, ab.leaves), (3, 7));
    assert_eq!(names(&ab.pv), ["B", "C"]);
    let mut nm_events = Vec::new();
    let nm = negamax(&tree, 2, -INFINITE, INFINITE, &mut nm_events);
    assert_eq!((nm.value, nm.leaves, nm.nodes), (3, 7, ab.nodes));
    assert_eq!(entered(&ab_events), entered(&nm_events));
    assert!(!entered(&ab_events).iter().any(|n| n == "H" || n == "I"));
    // With (3, 4) B is cut at its first leaf already: the fail-hard bound 3.
    let narrow = alphabeta(&tree, 2, 3, 4, &mut NoTrace);
    assert_eq!(narrow.value, 3);
    assert!(narrow.leaves < ab.leaves, "{} leaves", narrow.leaves);
}

/// A tree of the text format read on its own, for the brute force below: a
/// node's name and either its value (a leaf, from the root's side) or children.
enum Brute {
    Leaf(String, i32),
    Node(String, Vec<Brute>),
}

fn brute_parse(text: &str) -> Brute {
    fn node(s: &[u8], at: &mut usize) -> Brute {
        let start = *at;
        while *at < s.len() && !b"(): ".contains(&s[*at]) {
            *at += 1;
        }
        let name = String::from_utf8(s[start..*at].to_vec()).expect("ASCII");
        if s[*at] == b':' {
            *at += 1;
            let start = *at;
            while *at < s.len() && (s[*at] == b'-' || s[*at].is_ascii_digit()) {
                *at += 1;
            }
            let value = std::str::from_utf8(&s[start..*at]).unwrap().parse().unwrap();
            return Brute::Leaf(name, value);
        }
        *at += 1; // '('
        let mut children = Vec::new();
        while s[*at] != b')' {
            if s[*at] == b' ' {
                *at += 1;
                continue;
            }
            children.push(node(s, at));
        }
        *at += 1; // ')'
        Brute::Node(name, children)
    }
    node(text.as_bytes(), &mut 0)
}

/// Minimax by brute force (MAX at the root, alternating): the value and every
/// leaf name reachable by optimal play.
fn brute_minimax(tree: &Brute, is_max: bool) -> i32 {
    match tree {
        Brute::Leaf(_, v) => *v,
        Brute::Node(_, children) => {
            let values = children.iter().map(|c| brute_minimax(c, !is_max));
            if is_max {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
    }
}

/// Checks that `pv` is a path from the root of `tree` to a leaf along which
/// every move keeps the root's value `value` (each side plays a best move).
fn check_pv(tree: &Brute, pv: &[TreeMove], value: i32, what: &str) {
    let mut node = tree;
    let mut is_max = true;
    for (ply, m) in pv.iter().enumerate() {
        let Brute::Node(_, children) = node else {
            panic!("{what}: the pv goes on past a leaf at ply {ply}");
        };
        let name = m.to_string();
        node = children
            .iter()
            .find(|c| matches!(c, Brute::Leaf(n, _) | Brute::Node(n, _) if *n == name))
            .unwrap_or_else(|| panic!("{what}: {name} is not a child at ply {ply}"));
        is_max = !is_max;
        assert_eq!(brute_minimax(node, is_max), value, "{what}: {name} is not a best move");
    }
    assert!(matches!(node, Brute::Leaf(..)), "{what}: the pv stops before a leaf");
}

/// Every algorithm's value is the brute force's, and its principal variation is
/// a path from the root to a leaf of that value, each move a best one, on random
/// trees of depth 1 to 4.
#[test]
fn principal_variations_are_paths_of_best_moves() {
    let mut rng = Lcg(61);
    for _ in 0..300 {
        let mut c = 0;
        let depth = 1 + rng.next(4) as u32;
        let text = random_tree(&mut rng, depth, 3, &mut c);
        let tree = TreeGame::parse(&text).unwrap();
        let brute = brute_parse(&text);
        let value = brute_minimax(&brute, true);
        let results = [
            ("minimax", minimax(&tree, depth, &mut NoTrace)),
            ("alphabeta", alphabeta(&tree, depth, -INFINITE, INFINITE, &mut NoTrace)),
            ("negamax", negamax(&tree, depth, -INFINITE, INFINITE, &mut NoTrace)),
        ];
        for (name, r) in results {
            assert_eq!(r.value, value, "{name} {text}");
            check_pv(&brute, &r.pv, value, &format!("{name} {text}"));
        }
    }
    // The tree a user met: the pv is C (a leaf), not C D.
    let tree = TreeGame::parse("A(B(D:0 E:1) C:4)").unwrap();
    for pv in [
        minimax(&tree, 2, &mut NoTrace).pv,
        alphabeta(&tree, 2, -INFINITE, INFINITE, &mut NoTrace).pv,
        negamax(&tree, 2, -INFINITE, INFINITE, &mut NoTrace).pv,
    ] {
        assert_eq!(names(&pv), ["C"]);
    }
}
