//! PVS's numeric parameters reach its search: a set parameter changes what is
//! searched, and a value outside its range is refused with the state intact,
//! whether set on PVS or through the engine.

use crate::common::{random_tree, Lcg};
use search::engine::Signals;
use search::pvs::Pvs;
use search::tree::TreeGame;
use search::{Engine, Limits};

/// A random tree of 7 plies, up to 6 moves a node.
fn tree() -> TreeGame {
    let text = random_tree(&mut Lcg(62), 7, 6, &mut 0);
    TreeGame::parse(&text).expect("a well-formed tree")
}

/// PVS's nodes on `tree` to its leaves, with the options `(name, value)` set.
fn pvs_nodes(tree: &TreeGame, options: &[(&str, i64)]) -> u64 {
    let mut pvs = Pvs::without_tables(1);
    for &(name, value) in options {
        pvs.params.set(name, value).expect("a parameter in its range");
    }
    let mut engine = Engine::with_searcher(pvs, 1);
    engine.search(tree, &Limits::depth(7), &Signals::new(), &mut |_| {}).nodes
}

#[test]
fn a_set_parameter_changes_the_search() {
    let tree = tree();
    let defaults = pvs_nodes(&tree, &[]);
    assert_eq!(pvs_nodes(&tree, &[]), defaults, "the same search twice");
    // Late-move pruning and reductions turned nearly off search more.
    let wider =
        pvs_nodes(&tree, &[("Tune_LmpBase", 20), ("Tune_LmrDiv", 1000), ("Tune_LmrBase", 0)]);
    assert!(wider > defaults, "{wider} nodes with less pruning, {defaults} with the defaults");
}

#[test]
fn values_outside_the_range_and_unknown_names_are_refused() {
    let mut pvs = Pvs::without_tables(1);
    let before = pvs.params;
    assert!(pvs.params.set("Tune_LmrDiv", 49).is_err());
    assert!(pvs.params.set("Tune_LmrDiv", 1001).is_err());
    assert!(pvs.params.set("Tune_NoSuchThing", 100).is_err());
    assert_eq!(pvs.params, before, "a refused value changes nothing");
    pvs.params.set("Tune_LmrDiv", 300).expect("in range");
    assert_ne!(pvs.params, before);
}

#[test]
fn the_time_parameters_are_the_time_managers_shares() {
    use search::pvs::params::PvsParams;
    use search::time::TimeShares;
    let mut params = PvsParams::default();
    assert_eq!(params.time_shares(), TimeShares::DEFAULT, "the defaults are the manager's");
    params.set("Tune_TimeMaxShare", 5).expect("in range");
    params.set("Tune_TimeNextIteration", 40).expect("in range");
    params.set("Tune_TimeStable6", 45).expect("in range");
    let shares = params.time_shares();
    assert_eq!(shares.main_time_share, 5);
    assert_eq!(shares.next_iteration, 0.4);
    assert_eq!(shares.stable6, 0.45);
    assert_eq!(shares.moves_left, 70, "the others unchanged");
}

/// `Engine::set_parameter` reaches the running PVS in every build (a tuning
/// build or not), and refuses what `PvsParams::set` refuses.
#[test]
fn an_engine_sets_the_running_searchers_parameters() {
    let tree = tree();
    let defaults = pvs_nodes(&tree, &[]);
    let mut engine = Engine::new(1, 1);
    for (name, value) in [("Tune_LmpBase", 20), ("Tune_LmrDiv", 1000), ("Tune_LmrBase", 0)] {
        engine.set_parameter(name, value).expect("a parameter in its range");
    }
    assert!(engine.set_parameter("Tune_LmrDiv", 1001).is_err());
    assert!(engine.set_parameter("Tune_NoSuchThing", 1).is_err());
    let wider = engine.search(&tree, &Limits::depth(7), &Signals::new(), &mut |_| {}).nodes;
    assert!(wider > defaults, "{wider} nodes with less pruning, {defaults} with the defaults");
}
