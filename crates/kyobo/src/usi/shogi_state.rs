//! Shogi over USI (option `Variant` = `shogi`, the default): the position, the
//! engine and its tables, the opening book, the NNUE network, `go mate`, the
//! mate probe before each game move, and the bad-shape check and the mate guard
//! of the answer.

use super::book::{random_opening_here, random_opening_pick, BookAnswer, BookState};
use super::command::{excerpt, GoParams, Start};
use super::nnue::NetworkState;
use super::options::Options;
use super::report::{bestmove_line, error, info_line, warning, Answer};
use super::variant::{clock_for, split_hash, GameVariant, SearchThread};
use super::{display, mate_guard, mate_hook, mate_probe, send, shape_time};
use search::engine::Signals;
use search::time::TimeOptions;
use search::{Engine, Limits};
use shogi::{Color, Position};
use shogi_game::shape_rule::ShapeRule;
use shogi_game::ShogiGame;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The shogi side of a USI session, kept while Dobutsu is played.
pub struct ShogiState {
    /// The position of the last `position` command (as far as its moves were legal).
    position: Position,
    /// Why there is no position to search: the last `position` had a bad SFEN.
    position_error: Option<String>,
    engine: Arc<Mutex<Engine<ShogiGame>>>,
    /// The solver of `go mate`, kept between calls.
    mate_slot: Arc<mate_hook::MateSlot>,
    /// The mate probe before each game move (its table and last line kept).
    prober: Arc<Mutex<mate_probe::Prober>>,
    /// The `USI_Hash` the tables were last made for.
    tables_for_mb: usize,
    /// The `SearchAlgorithm` they were made for.
    tables_for_algorithm: &'static str,
    /// The opening book (`BookFile`) and the random draws of the opening.
    book: BookState,
    /// The NNUE network (`EvalFile`), when one is read.
    network: NetworkState,
}

impl ShogiState {
    /// The start position and an engine with the tables `options` ask for.
    pub fn new(options: &Options) -> ShogiState {
        let (search_mb, probe_mb) = split_hash(options.hash_mb);
        ShogiState {
            position: Position::startpos(),
            position_error: None,
            engine: Arc::new(Mutex::new(Engine::new(search_mb, options.threads))),
            mate_slot: Arc::new(Mutex::new(None)),
            prober: Arc::new(Mutex::new(mate_probe::Prober::new(mate::Solver::new(probe_mb)))),
            tables_for_mb: options.hash_mb,
            tables_for_algorithm: options.algorithm,
            book: BookState::default(),
            network: NetworkState::default(),
        }
    }

    /// Makes the search's and the probe's tables for `USI_Hash` and
    /// `SearchAlgorithm` (no search may be running), freeing `go mate`'s. When the
    /// memory is not there, the error is sent, the tables as they were are kept
    /// and `USI_Hash` goes back to their size.
    fn make_tables(&mut self, options: &mut Options) {
        if let Ok(mut slot) = self.mate_slot.lock() {
            *slot = None;
        }
        let (search_mb, probe_mb) = split_hash(options.hash_mb);
        let Ok(mut engine) = self.engine.lock() else {
            return;
        };
        if let Err(e) = engine.set_algorithm(options.algorithm) {
            error(e);
        }
        apply_algorithm_options(&mut engine, options);
        self.tables_for_algorithm = engine.algorithm();
        if let Err(e) = engine.try_set_hash_mb(search_mb) {
            error(format!(
                "USI_Hash {}: {e}; keeping USI_Hash {}",
                options.hash_mb, self.tables_for_mb
            ));
            options.hash_mb = self.tables_for_mb;
            let (search_mb, _) = split_hash(self.tables_for_mb);
            let _ = engine.try_set_hash_mb(search_mb);
            return;
        }
        engine.touch_table();
        if let Ok(mut prober) = self.prober.lock() {
            if self.tables_for_mb != options.hash_mb {
                if let Some(solver) = mate::Solver::try_new(probe_mb) {
                    prober.set_solver(solver);
                }
            }
        }
        self.tables_for_mb = options.hash_mb;
    }

    /// Reads the network `EvalFile` names (when it changed), telling the GUI.
    fn prepare_network(&mut self, options: &Options) {
        match self.network.prepare(options.network_file().as_deref()) {
            Some(Ok(line)) => send(&format!("info string {line}")),
            Some(Err(e)) => error(e),
            None => {}
        }
    }

    /// Opens the book `BookFile` names (when it changed), telling the GUI.
    fn prepare_book(&mut self, options: &Options) {
        match self.book.prepare(&options.book) {
            Some(Ok(line)) => send(&format!("info string {line}")),
            Some(Err(e)) => error(e),
            None => {}
        }
    }

    /// `go mate`: the solver runs on the search thread so that `stop` is read
    /// meanwhile. Its table takes the search's share of `USI_Hash`: the
    /// search's table is freed first.
    fn go_mate(&mut self, time: Option<u64>, options: &Options, search: &mut SearchThread) {
        if let Some(e) = &self.position_error {
            error(format!("no position to solve ({e})"));
            send("checkmate notimplemented");
            return;
        }
        if let Ok(mut engine) = self.engine.lock() {
            engine.release_table();
        }
        let (pos, (hash_mb, _)) = (self.position.clone(), split_hash(options.hash_mb));
        search.mate_stop.store(false, Ordering::SeqCst);
        let stop = Arc::clone(&search.mate_stop);
        let slot = Arc::clone(&self.mate_slot);
        search.start(time.is_none(), move || mate_hook::answer(&slot, &pos, time, hash_mb, stop));
    }
}

impl GameVariant for ShogiState {
    /// Tables are made here, where GUIs wait, not on the game's clock.
    fn prepare(&mut self, options: &mut Options) {
        self.make_tables(options);
        self.prepare_book(options);
        self.prepare_network(options);
    }

    fn new_game(&mut self, options: &mut Options) {
        self.make_tables(options);
        if let Ok(mut engine) = self.engine.lock() {
            engine.clear();
        }
        if let Ok(mut prober) = self.prober.lock() {
            prober.forget();
        }
    }

    fn option_set(&mut self, name: &str, options: &Options) {
        if name.eq_ignore_ascii_case("RandomSeed") {
            self.book.reseed(options.book.random_seed);
        }
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) -> Option<String> {
        let (pos, problem) = build_position(start, moves);
        self.position_error = None;
        match pos {
            Some(pos) => self.position = pos,
            None => self.position_error = problem.clone(),
        }
        let mut problem = problem?;
        if let Start::Sfen(sfen) = start {
            if self.position_error.is_some() && ::dobutsu::Position::from_sfen(sfen).is_ok() {
                problem.push_str(" (a Dobutsu shogi SFEN: setoption name Variant value dobutsu)");
            }
        }
        Some(problem)
    }

    fn go(&mut self, params: GoParams, options: &mut Options, search: &mut SearchThread) {
        if let Some(time) = params.mate {
            self.go_mate(time, options, search);
            return;
        }
        if let Some(e) = &self.position_error {
            // Nothing sound can be searched; the GUI still gets its one answer.
            error(format!("no position to search ({e})"));
            send(&bestmove_line(&Answer::Resign));
            return;
        }
        if !params.infinite && params.searchmoves.is_empty() {
            self.prepare_book(options);
            let mut warnings = Vec::new();
            let answer =
                self.book.answer(&self.position, &options.book, options.ponder, &mut |w| {
                    warnings.push(w)
                });
            for w in warnings {
                warning(w);
            }
            if let Some(answer) = answer {
                answer_from_book(answer, params.ponder, search);
                return;
            }
        }
        if self.tables_for_mb != options.hash_mb || self.tables_for_algorithm != options.algorithm {
            // `setoption` without the `isready` a GUI sends: make them now.
            self.make_tables(options);
        }
        if let Ok(mut slot) = self.mate_slot.lock() {
            // `go mate`'s table goes, so that the search's can be made again.
            *slot = None;
        }
        let side = self.position.side_to_move();
        let limits = Limits {
            depth: params.depth.map(|d| d.clamp(1, 127) as i32),
            nodes: params.nodes,
            movetime: params.movetime.map(Duration::from_millis),
            clock: clock_for(side, &params.clock),
            infinite: params.infinite,
            ponder: params.ponder,
            multipv: options.multipv,
            game_ply: self.position.game_ply(),
        };
        let mut among = Vec::new();
        for text in &params.searchmoves {
            match self.position.parse_usi_move(text) {
                Ok(m) => among.push(m),
                Err(e) => warning(format!("searchmoves: {} ignored: {e}", excerpt(text))),
            }
        }
        let random = (!params.infinite
            && among.is_empty()
            && random_opening_here(&self.position, &options.book))
        .then(|| book::Rng::new(self.book.rng.next_u64()));
        self.prepare_network(options);
        let mut game = ShogiGame::new(self.position.clone());
        game.entering_king_rule = options.entering_king_rule;
        game.max_moves_to_draw = options.max_moves_to_draw;
        if !game.set_network(self.network.network.clone()) && self.network.network.is_some() {
            warning("the NNUE network evaluates only positions of the standard set of pieces; searching with the handcrafted evaluation");
        }
        game.set_network_scale(options.fv_scale);
        game.set_eval_scales(&options.eval_scales);

        let limited = limits.depth.is_some() || limits.nodes.is_some() || limits.uses_clock();
        let open_ended = params.infinite || params.ponder || !limited;
        search.signals.reset(params.ponder);
        let engine = Arc::clone(&self.engine);
        let signals = Arc::clone(&search.signals);
        let options = options.clone();
        let prober = Arc::clone(&self.prober);
        // `stop` ends the probe's solve as well as the search.
        search.mate_stop.store(false, Ordering::SeqCst);
        let probe_stop = Arc::clone(&search.mate_stop);
        search.start(open_ended, move || {
            // With searchmoves, the mate probe (whose mate may start elsewhere) is
            // left out.
            let probed = if among.is_empty() {
                probe_for_mate(&prober, &game, &limits, &options, &probe_stop)
            } else {
                Err(limits)
            };
            let answer = match probed {
                Ok(answer) => {
                    wait_for_release(&signals, false);
                    answer
                }
                Err(limits) => {
                    let (answer, order) =
                        think(&engine, &game, &among, &limits, &signals, &options, random);
                    guard(&prober, &game, answer, &order, &limits, &probe_stop)
                }
            };
            vec![bestmove_line(&answer)]
        });
    }

    fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    fn position_error(&self) -> Option<&str> {
        self.position_error.as_deref()
    }

    fn board(&self) -> Vec<String> {
        display::board(&self.position)
    }

    fn moves(&self) -> Vec<String> {
        display::moves(&self.position)
    }

    fn evaluation(&mut self, options: &Options) -> Vec<String> {
        self.prepare_network(options);
        let network = self.network.network.as_ref();
        let danger = options.eval_scales.danger();
        display::evaluation(&self.position, &danger, network.map(|n| (n, options.fv_scale)))
    }

    fn shape(&self) -> Result<Vec<String>, String> {
        Ok(display::shape(&self.position))
    }
}

/// Answers `go` with a book move: at once, or, when pondering, once
/// `ponderhit` or `stop` comes (on the search thread, as a search would).
fn answer_from_book(answer: BookAnswer, ponder: bool, search: &mut SearchThread) {
    search.signals.reset(ponder);
    let signals = Arc::clone(&search.signals);
    search.start(ponder, move || {
        wait_for_release(&signals, false);
        let mut lines = answer.lines;
        lines.push(bestmove_line(&Answer::Move { best: answer.best, ponder: answer.ponder }));
        lines
    });
}

/// An answer known before the time is up waits while the engine ponders (until
/// `ponderhit` or `stop`), and, for an `infinite` search, until `stop`.
fn wait_for_release(signals: &Signals, infinite: bool) {
    while !signals.stopped() && (infinite || signals.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The mate probe (see `mate_probe`): the answer when it finds a mate, else the
/// limits left for the search. While the engine ponders, the probe runs on the
/// opponent's time with the share the move will have, and its mate is answered
/// at `ponderhit`.
fn probe_for_mate(
    prober: &Mutex<mate_probe::Prober>,
    game: &ShogiGame,
    limits: &Limits,
    options: &Options,
    stop: &Arc<AtomicBool>,
) -> Result<Answer, Limits> {
    let mut left = limits.clone();
    let timed = Limits { ponder: false, ..limits.clone() };
    if mate_probe::budget(&timed).is_none() {
        return Err(left);
    }
    if game.declaration_wins() {
        return Err(left);
    }
    let start = Instant::now();
    let Ok(mut prober) = prober.lock() else {
        return Err(left);
    };
    if let Some(line) = prober.find(game.position(), &timed, stop) {
        let pv: Vec<String> = line.iter().map(|m| m.to_usi()).collect();
        send(&format!(
            "info depth {n} time {ms} score mate {n} pv {pv}",
            n = line.len(),
            ms = start.elapsed().as_millis(),
            pv = pv.join(" ")
        ));
        let ponder = if options.ponder { line.get(1).copied() } else { None };
        return Ok(Answer::Move { best: line[0], ponder });
    }
    if !limits.ponder {
        mate_probe::charge(&mut left, start.elapsed());
    }
    Err(left)
}

/// The mate guard (see `mate_guard`) of `answer`, the search's move, given the
/// search's order of the root moves (empty: no guard).
fn guard(
    prober: &Mutex<mate_probe::Prober>,
    game: &ShogiGame,
    answer: Answer,
    order: &[shogi::Move],
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> Answer {
    let (Answer::Move { best, .. }, Some(time)) = (&answer, mate_guard::budget(limits)) else {
        return answer;
    };
    if order.first() != Some(best) {
        return answer;
    }
    let Ok(mut prober) = prober.lock() else {
        return answer;
    };
    let Some(guarded) = mate_guard::choose(prober.solver(), game.position(), order, time, stop)
    else {
        return answer;
    };
    let passed: Vec<String> = guarded
        .passed_over
        .iter()
        .map(|(m, line)| format!("{} (mate in {}: {})", m.to_usi(), line.len(), line[0].to_usi()))
        .collect();
    send(&format!(
        "info string mate guard: {} passed over; {} instead",
        passed.join(", "),
        guarded.chosen.to_usi()
    ));
    Answer::Move { best: guarded.chosen, ponder: None }
}

/// Runs one search on the search thread and decides the answer; with it, where
/// the mate guard is to look at the answer, the root moves in the search's
/// order (else none).
fn think(
    engine: &Mutex<Engine<ShogiGame>>,
    game: &ShogiGame,
    among: &[shogi::Move],
    limits: &Limits,
    signals: &Signals,
    options: &Options,
    random: Option<book::Rng>,
) -> (Answer, Vec<shogi::Move>) {
    if game.declaration_wins() {
        // Winning by declaration needs no search.
        wait_for_release(signals, limits.infinite);
        return (Answer::Win, Vec::new());
    }
    let Ok(mut engine) = engine.lock() else {
        return (Answer::Resign, Vec::new());
    };
    engine.set_threads(options.threads);
    apply_algorithm_options(&mut engine, options);
    engine.time_options = TimeOptions {
        network_delay_ms: options.network_delay,
        network_delay2_ms: options.network_delay2,
        minimum_thinking_ms: options.minimum_thinking_time,
        ..TimeOptions::default()
    };
    let start = Instant::now();
    let checked = options.bad_shape_check && among.is_empty() && random.is_none();
    let mut main_limits = if checked { shape_time::main_limits(limits) } else { limits.clone() };
    let guarded = options.mate_guard
        && among.is_empty()
        && random.is_none()
        && mate_guard::budget(limits).is_some();
    if guarded {
        main_limits = mate_guard::main_limits(&main_limits);
    }
    if random.is_some() {
        // Exact values for the moves the draw is among.
        let width = options.book.random_opening_width;
        main_limits.multipv = main_limits.multipv.max(width);
    }
    let show_multipv = main_limits.multipv > 1;
    let mut report = |info: &search::Info<shogi::Move>| send(&info_line(info, show_multipv));
    let result = if among.is_empty() {
        engine.search(game, &main_limits, signals, &mut report)
    } else {
        engine.search_among(game, among, &main_limits, signals, &mut report)
    };
    let (best, ponder) = match result.best_move {
        None => return (Answer::Resign, Vec::new()),
        Some(_) if result.score <= -options.resign_value => return (Answer::Resign, Vec::new()),
        Some(best) => (best, if options.ponder { result.ponder_move } else { None }),
    };
    if let Some(mut rng) = random {
        if let Some(pick) = random_opening_pick(&result.root_moves, &options.book, &mut rng) {
            if pick != best {
                send(&format!(
                    "info string random opening: {} instead of {} (within {} cp)",
                    pick.to_usi(),
                    best.to_usi(),
                    options.book.random_opening_margin
                ));
                return (Answer::Move { best: pick, ponder: None }, Vec::new());
            }
        }
    }
    if checked && !signals.stopped() {
        let opts = engine.time_options;
        if let Some(check) = shape_time::check_limits(limits, result.depth, start.elapsed(), &opts)
        {
            let rule = ShapeRule { margin: options.bad_shape_margin, ..ShapeRule::default() };
            if let Some(r) = rule.apply(&mut engine, game, best, &check, signals) {
                let passed: Vec<String> = r
                    .passed_over
                    .iter()
                    .map(|(m, why)| format!("{} ({why})", m.to_usi()))
                    .collect();
                send(&format!(
                    "info string bad shape: {} ({}) {} replaced by {} {}{}",
                    r.bad.to_usi(),
                    r.check,
                    r.bad_score,
                    r.by.to_usi(),
                    r.score,
                    if passed.is_empty() {
                        String::new()
                    } else {
                        format!("; passed over {}", passed.join(", "))
                    }
                ));
                return (Answer::Move { best: r.by, ponder: None }, Vec::new());
            }
        }
    }
    let order = if guarded && !signals.stopped() {
        result.root_moves.iter().map(|r| r.mv).collect()
    } else {
        Vec::new()
    };
    (Answer::Move { best, ponder }, order)
}

/// Gives the engine the algorithms' options as `setoption` left them (checked
/// there already).
fn apply_algorithm_options(engine: &mut Engine<ShogiGame>, options: &Options) {
    for &(name, value) in &options.algorithm_values {
        if let Err(e) = engine.set_algorithm_option(name, value) {
            error(e);
        }
    }
}

/// The position `position …` describes: as far as its moves are legal (the
/// GUI's game should match the engine's as far as it can), with the reason it
/// stops short; `None` when the SFEN itself is bad.
fn build_position(start: &Start, moves: &[String]) -> (Option<Position>, Option<String>) {
    let mut pos = match start {
        Start::StartPos => Position::startpos(),
        Start::Sfen(sfen) => match Position::from_sfen(sfen) {
            Ok(pos) => pos,
            Err(e) => return (None, Some(format!("bad SFEN '{}': {e}", excerpt(sfen)))),
        },
    };
    for (i, text) in moves.iter().enumerate() {
        match pos.parse_usi_move(text) {
            Ok(m) => pos.do_move(m),
            Err(e) => {
                let problem = format!(
                    "move {} ({}) is illegal: {e}; the position is the one after move {i}",
                    i + 1,
                    excerpt(text)
                );
                return (Some(pos), Some(problem));
            }
        }
    }
    (Some(pos), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::time::Clock;

    /// The guard between the search and `bestmove`: the search's move, which
    /// allows G*5h mate, is replaced by the next move of its order; kept where the
    /// search's order does not start with it (a move decided otherwise), and
    /// where the move has no time limit.
    #[test]
    fn the_guard_replaces_a_move_that_allows_a_mate() {
        let (pos, careless, guarding) = mate_guard::careless_rook();
        let prober = Mutex::new(mate_probe::Prober::new(mate::Solver::new(1)));
        let game = ShogiGame::new(pos.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let clock = Clock { remaining_ms: 0, byoyomi_ms: 10_000, increment_ms: 0 };
        let timed = Limits { clock: Some(clock), multipv: 1, ..Limits::default() };
        let careless_answer = || Answer::Move { best: careless, ponder: None };
        let order = [careless, guarding];
        let answer = guard(&prober, &game, careless_answer(), &order, &timed, &stop);
        assert_eq!(bestmove_line(&answer), "bestmove 2i2h");
        let answer = guard(&prober, &game, careless_answer(), &[], &timed, &stop);
        assert_eq!(bestmove_line(&answer), "bestmove 2i2c");
        let untimed = Limits { depth: Some(6), ..timed };
        let answer = guard(&prober, &game, careless_answer(), &order, &untimed, &stop);
        assert_eq!(bestmove_line(&answer), "bestmove 2i2c");
    }
}
