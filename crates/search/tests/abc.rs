//! ABC search on trees given as data: with thresholds too large to end a line
//! early it is plain minimax; the early β-cut changes no result and saves
//! quiescence searches. (Conspiracy depth and the termination test on
//! hand-computed examples: `abc::conspiracy`'s unit tests.)

use crate::common;

use common::{random_tree, Lcg};
use search::engine::Signals;
use search::textbook::{minimax, NoTrace};
use search::tree::TreeGame;
use search::{Engine, Limits, SearchResult};

/// ABC on `tree` up to `threshold`, with `options` (`NAME`, value).
fn abc(
    tree: &TreeGame,
    threshold: i32,
    options: &[(&str, i64)],
) -> SearchResult<search::tree::TreeMove> {
    let mut engine = Engine::new(1, 1);
    engine.set_algorithm("ABC").expect("ABC is an algorithm");
    for &(name, value) in options {
        engine.set_algorithm_option(name, value).expect("a known option");
    }
    engine.search(tree, &Limits::depth(threshold), &Signals::new(), &mut |_| {})
}

fn counter(result: &SearchResult<search::tree::TreeMove>, name: &str) -> u64 {
    result.counters.iter().find(|c| c.0 == name).map_or(0, |c| c.1)
}

/// A node of a tree with branching at most 4 adds at most 3 to a conspiracy
/// depth, and a tree of 4 plies has at most 2 nodes of each side on a line: with
/// thresholds of 8 no line ends before the leaves, and ABC is minimax.
#[test]
fn with_thresholds_too_large_to_end_a_line_abc_is_minimax() {
    let mut rng = Lcg(23);
    for _ in 0..200 {
        let mut c = 0;
        let text = random_tree(&mut rng, 4, 4, &mut c);
        let tree = TreeGame::parse(&text).unwrap();
        let expected = minimax(&tree, 4, &mut NoTrace).value;
        for options in [
            &[("ABC_SearchedKeys", 0)][..],
            &[("ABC_SearchedKeys", 1)],
            // KFEnd's root window, open above (the default closes it 300
            // above the last iteration's value).
            &[("ABC_RootAspiration", 0)],
            // Root moves fail high above these windows and are searched again.
            &[("ABC_RootAspiration", 5)],
            &[("ABC_RootAspiration", 40)],
        ] {
            let r = abc(&tree, 8, options);
            assert_eq!(r.score, expected, "{options:?} {text}");
            // The move played is worth the root's value.
            let mut after = tree.clone();
            search::Game::make_move(&mut after, r.best_move.expect("a move"));
            assert_eq!(-minimax(&after, 3, &mut NoTrace).value, expected, "{text}");
        }
    }
}

/// A random tree whose every node has a value (a static evaluation) that its
/// children's scatter around, as a game's do: keys then tell something of the
/// values below them.
fn correlated_tree(rng: &mut Lcg, depth: u32, value: i32, counter: &mut u32) -> String {
    *counter += 1;
    let name = format!("n{counter}:{value}");
    if depth == 0 {
        return name;
    }
    let kids = 2 + rng.next(3);
    let children: Vec<String> = (0..kids)
        .map(|_| {
            let child = value + rng.next(81) as i32 - 40;
            correlated_tree(rng, depth - 1, child, counter)
        })
        .collect();
    format!("{name}({})", children.join(" "))
}

/// Keeping the searched values as the next iteration's keys
/// (`ABC_SearchedKeys`) searches fewer nodes on trees whose evaluations say
/// something of the values below them, with thresholds that end no line early
/// (the value stays minimax).
#[test]
fn searched_keys_save_nodes() {
    let mut rng = Lcg(31);
    let mut nodes = [0u64; 2];
    for _ in 0..60 {
        let mut c = 0;
        let text = correlated_tree(&mut rng, 6, 0, &mut c);
        let tree = TreeGame::parse(&text).unwrap();
        let expected = minimax(&tree, 6, &mut NoTrace).value;
        let options: [&[(&str, i64)]; 2] = [&[("ABC_SearchedKeys", 0)], &[("ABC_SearchedKeys", 1)]];
        for (n, o) in nodes.iter_mut().zip(options) {
            let r = abc(&tree, 13, o);
            assert_eq!(r.score, expected, "{o:?} {text}");
            *n += counter(&r, "abc_nodes");
        }
    }
    let [plain, searched] = nodes;
    assert!(searched < plain, "with searched keys {searched} nodes, without {plain}");
}

/// With small thresholds and Δ lines do end early; the early β-cut (a key at or
/// above β where the mover's conspiracy depth is already reached) gives every
/// root the same value and move as the search without it, and computes fewer
/// keys. (The position table is off: a node the cut ends stores no keys, which
/// would change what later iterations read.)
#[test]
fn the_early_beta_cut_changes_no_result_and_saves_key_searches() {
    let mut rng = Lcg(5);
    let (mut with_cut, mut without_cut, mut cuts) = (0, 0, 0);
    for n in 0..300 {
        let mut c = 0;
        let text = random_tree(&mut rng, 5, 4, &mut c);
        let tree = TreeGame::parse(&text).unwrap();
        let threshold = 2 + n % 4;
        // Every third tree also counts the length of its lines (every 2 plies).
        let plies_per_depth = if n % 3 == 0 { 2 } else { 0 };
        let base = [
            ("ABC_Delta", 30),
            ("ABC_SFuncCap", 2),
            ("ABC_PositionTable", 0),
            ("ABC_PliesPerDepth", plies_per_depth),
        ];
        let on = abc(&tree, threshold, &[base[0], base[1], base[2], base[3], ("ABC_EarlyCut", 1)]);
        let off = abc(&tree, threshold, &[base[0], base[1], base[2], base[3], ("ABC_EarlyCut", 0)]);
        assert_eq!((on.score, on.best_move), (off.score, off.best_move), "{text}");
        assert_eq!(counter(&off, "early_cuts"), 0);
        cuts += counter(&on, "early_cuts");
        with_cut += counter(&on, "key_searches");
        without_cut += counter(&off, "key_searches");
    }
    assert!(cuts > 100, "only {cuts} early cuts");
    assert!(with_cut < without_cut, "{with_cut} key searches with the cut, {without_cut} without");
}

/// Lines end by conspiracy depth before the leaves when the thresholds are small.
#[test]
fn small_thresholds_end_lines_early() {
    let mut rng = Lcg(9);
    let mut c = 0;
    let tree = TreeGame::parse(&random_tree(&mut rng, 6, 4, &mut c)).unwrap();
    let r = abc(&tree, 2, &[("ABC_Delta", 100)]);
    assert!(counter(&r, "leaves") > 0);
    assert!(counter(&r, "abc_nodes") < abc(&tree, 12, &[("ABC_Delta", 100)]).nodes);
}
