//! Dobutsu through the search framework: every algorithm (PVS and ABC through
//! `search::Engine`, textbook minimax, alpha-beta and negamax) finds the wins in
//! 1, 3 and 5 plies of constructed positions, by lion capture and by try, and
//! they all agree on random positions where the search reaches the end of the
//! game. Plus the contract of the trait's optional methods.

use crate::common;

use common::{careful_game, moves_of, random_setup, Lcg};
use dobutsu::game::{evaluate, see};
use dobutsu::{Dobutsu, End, Move, Position};
use search::engine::Signals;
use search::textbook::{alphabeta, minimax, negamax, NoTrace};
use search::value::{mate_in, mated_in, INFINITE, MATE, MATE_IN_MAX_PLY};
use search::{Engine, Game, Limits, Outcome, RepetitionStatus, Value};

/// A constructed position: its SFEN, the plies to the win for the side to move
/// (the capture of the lion counting as one), how the game ends, and the first
/// moves that win that fast.
struct Case {
    sfen: &'static str,
    plies: u32,
    ends_by: End,
    winning_first_moves: &'static [&'static str],
}

const CASES: [Case; 6] = [
    // The giraffe takes the lion: the game is over already (Tanaka's rule),
    // and an engine asked for a move plays the capture.
    Case {
        sfen: "1l1/1G1/3/1L1 b - 1",
        plies: 1,
        ends_by: End::CanCaptureLion,
        winning_first_moves: &["b2b1"],
    },
    // The lion steps onto rank 1 where Gote's lion cannot reach it.
    Case {
        sfen: "3/L2/2l/3 b - 1",
        plies: 1,
        ends_by: End::TryAgainst,
        winning_first_moves: &["a2a1", "a2b1"],
    },
    // The hen takes the giraffe: the lion has nowhere safe to go.
    Case {
        sfen: "1El/1g1/1+CL/3 b - 1",
        plies: 3,
        ends_by: End::CanCaptureLion,
        winning_first_moves: &["b3b2"],
    },
    // The lion walks: c2 then c1 or b1, Gote's lion cannot guard both.
    Case {
        sfen: "3/l2/2L/3 b - 1",
        plies: 3,
        ends_by: End::TryAgainst,
        winning_first_moves: &["c3c2"],
    },
    // Two elephant drops corner Gote's lion.
    Case {
        sfen: "G2/3/L1l/1c1 b Ee 1",
        plies: 5,
        ends_by: End::CanCaptureLion,
        winning_first_moves: &["E*b3"],
    },
    // The lion runs up the c-file while Gote's lion is too far.
    Case {
        sfen: "l2/1C1/1Cg/2L b - 1",
        plies: 5,
        ends_by: End::TryAgainst,
        winning_first_moves: &["c4c3"],
    },
];

fn game(sfen: &str) -> Dobutsu {
    Dobutsu::from_sfen(sfen).unwrap()
}

/// The engine's value and move with `algorithm` (one of
/// `search::engine::ALGORITHMS`) to `iterations` (a depth for PVS, a threshold
/// for ABC).
fn engine(game: &Dobutsu, algorithm: &str, iterations: i32) -> (Value, Move) {
    let mut engine = Engine::new(1, 1);
    engine.set_algorithm(algorithm).expect("a known algorithm");
    let r = engine.search(game, &Limits::depth(iterations), &Signals::new(), &mut |_| {});
    (r.score, r.best_move.expect("a move"))
}

/// The textbook values (minimax, alpha-beta, negamax) to `depth`, with the
/// first move of each principal variation.
fn textbook(game: &Dobutsu, depth: u32) -> [(&'static str, Value, Option<Move>); 3] {
    let mm = minimax(game, depth, &mut NoTrace);
    let ab = alphabeta(game, depth, -INFINITE, INFINITE, &mut NoTrace);
    let nm = negamax(game, depth, -INFINITE, INFINITE, &mut NoTrace);
    [
        ("minimax", mm.value, mm.pv.first().copied()),
        ("alphabeta", ab.value, ab.pv.first().copied()),
        ("negamax", nm.value, nm.pv.first().copied()),
    ]
}

/// Whether `m` keeps `value` (a mate value) at the root of `game`: the value
/// after it, seen `plies_left` deep, is the same mate one ply nearer.
fn keeps_value(game: &Dobutsu, m: Move, value: Value, plies_left: u32) -> bool {
    let mut g = game.clone();
    g.make_move(m);
    let child = alphabeta(&g, plies_left, -INFINITE, INFINITE, &mut NoTrace).value;
    // Mates count plies from the root: the child's root is one ply further.
    let from_root = if child >= MATE_IN_MAX_PLY {
        child - 1
    } else if child <= -MATE_IN_MAX_PLY {
        child + 1
    } else {
        child
    };
    -from_root == value
}

#[test]
fn every_algorithm_finds_the_constructed_wins() {
    for case in &CASES {
        let g = game(case.sfen);
        let value = mate_in(case.plies as i32);
        // The textbook algorithms, to the exact depth and one more.
        for depth in [case.plies, case.plies + 1] {
            for (name, v, first) in textbook(&g, depth) {
                assert_eq!(v, value, "{name} depth {depth} on {}", case.sfen);
                if let Some(m) = first {
                    let text = m.to_string();
                    assert!(case.winning_first_moves.contains(&text.as_str()), "{name}: {text}");
                }
            }
        }
        // The principal variation ends the way the case says.
        let line = minimax(&g, case.plies, &mut NoTrace).pv;
        let mut pos = g.position();
        for &m in &line {
            pos.make_move(m);
        }
        assert_eq!(pos.end(), Some(case.ends_by), "{} after {line:?}", case.sfen);
        // The engines, a few iterations beyond what the win needs.
        for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
            let iterations = if algorithm == "ABC" { 10 } else { case.plies as i32 + 3 };
            let (v, m) = engine(&g, algorithm, iterations);
            assert_eq!(v, value, "{algorithm} on {}", case.sfen);
            assert!(
                case.winning_first_moves.contains(&m.to_string().as_str()),
                "{algorithm} on {}: {m}",
                case.sfen
            );
            assert!(keeps_value(&g, m, value, case.plies - 1), "{algorithm}: {m}");
        }
    }
}

#[test]
fn every_algorithm_sees_the_loss_after_the_winning_move() {
    // One ply into each case of 3 and 5 plies, the side to move is lost in 2
    // and 4 plies, whatever it does.
    for case in CASES.iter().filter(|c| c.plies > 1) {
        let mut g = game(case.sfen);
        g.make_move(g.position().parse_move(case.winning_first_moves[0]).unwrap());
        let value = mated_in(case.plies as i32 - 1);
        for (name, v, _) in textbook(&g, case.plies - 1) {
            assert_eq!(v, value, "{name} after the first move of {}", case.sfen);
        }
        for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
            let iterations = if algorithm == "ABC" { 10 } else { case.plies as i32 + 2 };
            assert_eq!(engine(&g, algorithm, iterations).0, value, "{algorithm} on {}", case.sfen);
        }
    }
}

/// Not-yet-finished positions: one at random from each of `games` games
/// between players who avoid losing at once, and `setups` random set-ups.
fn random_positions(games: usize, setups: usize) -> Vec<Position> {
    let mut rng = Lcg(31);
    let mut out = Vec::new();
    for _ in 0..games {
        let line = careful_game(&mut rng, 60);
        out.push(line[rng.next(line.len() as u64) as usize]);
    }
    let mut n = 0;
    while n < setups {
        if let Some(pos) = random_setup(&mut rng, 4) {
            out.push(pos);
            n += 1;
        }
    }
    out.retain(|p| p.end().is_none());
    out
}

/// Plies to the end of the game in a mate value.
fn distance(v: Value) -> i32 {
    MATE - v.abs()
}

/// The engines on positions whose value `exact` (a mate) the textbook search
/// proved within `horizon` plies: PVS, deep enough for its reductions and
/// pruning to leave the short line alone, finds exactly that value and a move
/// that keeps it; so does ABC with its forward pruning widened to the most
/// moves it keeps (`ABC_Width` 12). With KFEnd's width of 10, ABC may drop the
/// one quiet move (a drop) that wins fastest: it still names the right winner
/// and never a faster end than the true one.
fn check_engines(positions: &[(Position, Value)], horizon: u32, abc_iterations: i32) {
    let mut abc_default_exact = 0;
    for &(pos, exact) in positions {
        let g = Dobutsu::new(pos);
        let sfen = pos.to_sfen();
        for (algorithm, iterations, width) in
            [("PVS", 13, 10), ("ABC", abc_iterations, 12), ("ABC", abc_iterations, 10)]
        {
            let mut engine = Engine::new(1, 1);
            engine.set_algorithm(algorithm).unwrap();
            engine.set_algorithm_option("ABC_Width", width).unwrap();
            let r = engine.search(&g, &Limits::depth(iterations), &Signals::new(), &mut |_| {});
            let (v, m) = (r.score, r.best_move.expect("a move"));
            if algorithm == "ABC" && width == 10 {
                assert!(v.signum() == exact.signum() && v.abs() >= MATE_IN_MAX_PLY, "{sfen}");
                assert!(distance(v) >= distance(exact), "ABC on {sfen}: {v} {exact}");
                abc_default_exact += usize::from(v == exact);
                continue;
            }
            assert_eq!(v, exact, "{algorithm} width {width} on {sfen}");
            if exact > 0 {
                assert!(keeps_value(&g, m, exact, horizon - 1), "{algorithm} on {sfen}: {m}");
            }
        }
    }
    assert!(abc_default_exact * 100 >= positions.len() * 98, "{abc_default_exact}");
}

#[test]
fn the_algorithms_agree_where_the_search_reaches_the_end_of_the_game() {
    let positions = random_positions(1000, 1000);
    assert!(positions.len() > 1000);
    let (mut mates3, mut mates5) = (Vec::new(), Vec::new());
    for &pos in &positions {
        let g = Dobutsu::new(pos);
        // The three textbook algorithms agree everywhere (same leaves), and
        // alpha-beta and negamax deeper too.
        let [(_, mm, _), (_, ab, ab_first), (_, nm, _)] = textbook(&g, 3);
        assert_eq!((ab, nm), (mm, mm), "{}", pos.to_sfen());
        if mm.abs() >= MATE_IN_MAX_PLY {
            mates3.push((pos, mm));
            if mm > 0 {
                assert!(keeps_value(&g, ab_first.expect("a move"), mm, 2), "{}", pos.to_sfen());
            }
        }
        let ab5 = alphabeta(&g, 5, -INFINITE, INFINITE, &mut NoTrace).value;
        let nm5 = negamax(&g, 5, -INFINITE, INFINITE, &mut NoTrace).value;
        assert_eq!(ab5, nm5, "{}", pos.to_sfen());
        if ab5.abs() >= MATE_IN_MAX_PLY {
            mates5.push((pos, ab5));
        }
    }
    let wins = mates3.iter().filter(|m| m.1 > 0).count();
    assert!(wins >= 50 && mates3.len() - wins >= 50, "{} mates, {wins} wins", mates3.len());
    assert!(mates5.len() > mates3.len() + 50);
    // Wherever the game ends within 3 (or 5) plies, the engines find that end.
    check_engines(&mates3, 3, 10);
    check_engines(&mates5, 5, 12);
}

#[test]
fn minimax_agrees_deeper_on_small_positions() {
    for pos in random_positions(0, 100) {
        let g = Dobutsu::new(pos);
        let [(_, mm, _), (_, ab, _), (_, nm, _)] = textbook(&g, 4);
        assert_eq!((ab, nm), (mm, mm), "{}", pos.to_sfen());
    }
}

#[test]
fn outcome_and_no_moves_speak_for_the_side_to_move() {
    assert_eq!(game("1l1/1G1/3/1L1 b - 1").outcome(), Some(Outcome::Win));
    assert_eq!(game("3/1L1/1G1/l2 b - 1").outcome(), Some(Outcome::Loss));
    assert_eq!(game("L2/3/2l/3 b - 1").outcome(), Some(Outcome::Win));
    assert_eq!(Dobutsu::default().outcome(), None);
    assert_eq!(Dobutsu::default().no_moves(), Outcome::Loss);
    // Played out: capturing the lion leaves the loser without one.
    let mut g = game("1l1/1G1/3/1L1 b - 1");
    g.make_move(g.position().parse_move("b2b1").unwrap());
    assert_eq!(g.outcome(), Some(Outcome::Loss));
}

#[test]
fn a_repeated_position_is_a_draw() {
    let mut g = Dobutsu::default();
    for text in ["c4c3", "a1a2", "c3c4"] {
        g.play_usi(text).unwrap();
        assert_eq!(g.repetition(16), None);
    }
    g.play_usi("a2a1").unwrap();
    assert_eq!(g.repetition(16), Some(RepetitionStatus::Draw));
    // Only within the plies asked about.
    assert_eq!(g.repetition(3), None);
    assert_eq!(g.repetition(4), Some(RepetitionStatus::Draw));
    // Unmaking forgets it.
    let m = g.history()[3].parse_move("a2a1").unwrap();
    g.unmake_move(m);
    assert_eq!(g.repetition(16), None);
    assert_eq!(g.history().len(), 3);
}

#[test]
fn the_staged_moves_legality_and_encoding() {
    for pos in random_positions(200, 200) {
        let g = Dobutsu::new(pos);
        let mut all = Vec::new();
        g.legal_moves(&mut all);
        let (mut tactical, mut quiet) = (Vec::new(), Vec::new());
        g.tactical_moves(&mut tactical);
        g.quiet_moves(&mut quiet);
        let mut union = [tactical.clone(), quiet].concat();
        union.sort_by_key(|m| m.raw());
        let mut sorted = all.clone();
        sorted.sort_by_key(|m| m.raw());
        assert_eq!(union, sorted);
        let mut evasions = Vec::new();
        g.evasions(&mut evasions);
        assert_eq!(evasions, all);
        for &m in &all {
            assert!(g.is_legal(m));
            assert_eq!(g.is_tactical(m), tactical.contains(&m));
            let code = Dobutsu::encode_move(m);
            assert_ne!(code, 0);
            assert_eq!(Dobutsu::decode_move(code), m);
            assert!(g.history_index(m) < Dobutsu::HISTORY_SIZE);
            assert!(g.continuation_index(m) < Dobutsu::CONTINUATION_SIZE);
        }
        assert_eq!(Dobutsu::decode_move(0), Move::NONE);
        assert_eq!(Dobutsu::decode_move(1 << 20), Move::NONE);
        assert!(g.evaluate().abs() < MATE_IN_MAX_PLY);
        // The opponent's view is the negation.
        let mut flipped = pos;
        flipped.pass();
        assert_eq!(evaluate(&flipped), -evaluate(&pos));
    }
}

#[test]
fn check_tries_and_exchanges() {
    let start = Dobutsu::default();
    assert!(!start.in_check());
    let take = start.position().parse_move("b3b2").unwrap();
    let quiet = start.position().parse_move("c4c3").unwrap();
    // The chick on b2 would attack Gote's lion.
    assert!(start.gives_check(take));
    assert!(!start.gives_check(quiet));
    // Chick for chick: an even exchange (the elephant recaptures).
    assert_eq!(see(&start.position(), take), 0);
    assert!(start.see_ge(take, 0) && !start.see_ge(take, 1));
    let mut after = start.clone();
    after.make_move(take);
    assert!(after.in_check());
    // A lion stepping into an attack loses it.
    let pos = Position::from_sfen("1l1/3/1L1/3 b - 1").unwrap();
    assert!(see(&pos, pos.parse_move("b3b2").unwrap()) < -5000);
    // The try: found as a win in one, and seen as a threat by the other side.
    let mut g = game("3/L2/2l/3 b - 1");
    let winning = g.mate_in_one().expect("a try");
    assert!(["a2a1", "a2b1"].contains(&winning.to_string().as_str()));
    assert!(g.is_tactical(winning));
    assert!(game("3/L2/2l/3 w - 1").opponent_threatens_to_end());
    assert!(!start.opponent_threatens_to_end());
    assert_eq!(game("1l1/3/3/1L1 b - 1").mate_in_one(), None);
    // Every generated move has a value, and tactical moves an order.
    for m in moves_of(&start.position()) {
        let _ = start.tactical_order(m);
    }
}
