//! The USI state machine: options, the current position, and the search thread.

use super::book::{random_opening_here, random_opening_pick, BookAnswer, BookState};
use super::command::{excerpt, shorten, ClockFields, Command, GoParams, Start};
use super::dobutsu::{self, DobutsuState};
use super::nnue::NetworkState;
use super::options::{Options, Variant};
use super::report::{bestmove_line, info_line, Answer};
use super::{display, mate_hook, mate_probe, send, shape_time};
use search::engine::Signals;
use search::time::{Clock, TimeOptions};
use search::{Engine, Limits};
use shogi::{Color, Position};
use shogi_game::shape_rule::ShapeRule;
use shogi_game::ShogiGame;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Session {
    options: Options,
    /// The position of the last `position` command (as far as its moves were legal).
    position: Position,
    /// Why there is no position to search: the last `position` had a bad SFEN.
    position_error: Option<String>,
    engine: Arc<Mutex<Engine<ShogiGame>>>,
    signals: Arc<Signals>,
    /// Set by `gameover`: the running search ends without a `bestmove`.
    silence: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// Set by the search thread once it has answered (it ends a moment later).
    answered: Arc<AtomicBool>,
    /// The running search has no limit of its own: it ends on `stop`,
    /// `ponderhit` or the end of input (infinite, ponder, a bare `go`).
    open_ended: bool,
    /// Stops a running `go mate`.
    mate_stop: Arc<AtomicBool>,
    /// The solver of `go mate`, kept between calls.
    mate_slot: Arc<mate_hook::MateSlot>,
    /// The solver of the mate probe before each game move (its table kept).
    probe_solver: Arc<Mutex<mate::Solver>>,
    /// The `USI_Hash` the tables were last made for.
    tables_for_mb: usize,
    /// The `SearchAlgorithm` they were made for.
    tables_for_algorithm: &'static str,
    /// The Dobutsu game, engine and database (option `Variant` = `dobutsu`).
    dobutsu: DobutsuState,
    /// The opening book (`BookFile`) and the random draws of the opening.
    book: BookState,
    /// The NNUE network (`EvalFile`), when one is read.
    network: NetworkState,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

/// At most this many characters of an error are sent.
const ERROR_CHARS: usize = 300;

fn error(msg: impl std::fmt::Display) {
    send(&format!("info string error: {}", shorten(&msg.to_string(), ERROR_CHARS)));
}

fn warning(msg: impl std::fmt::Display) {
    send(&format!("info string warning: {}", shorten(&msg.to_string(), ERROR_CHARS)));
}

/// How `USI_Hash` MiB are shared: the mate probe's table takes a sixteenth (1 to
/// 16 MiB), the search's table (or `go mate`'s, never both) the rest.
pub fn split_hash(hash_mb: usize) -> (usize, usize) {
    let probe = (hash_mb / 16).clamp(1, mate_probe::PROBE_HASH_MB);
    (hash_mb.saturating_sub(probe).max(1), probe)
}

/// The clock of the side to move from USI fields (`None` if no times were sent).
fn clock_for(side: Color, f: &ClockFields) -> Option<Clock> {
    if f.is_empty() {
        return None;
    }
    let (time, inc) = match side {
        Color::Black => (f.btime, f.binc),
        Color::White => (f.wtime, f.winc),
    };
    Some(Clock {
        remaining_ms: time.unwrap_or(0),
        byoyomi_ms: f.byoyomi.unwrap_or(0),
        increment_ms: inc.unwrap_or(0),
    })
}

impl Session {
    pub fn new() -> Session {
        let options = Options::default();
        let (search_mb, probe_mb) = split_hash(options.hash_mb);
        Session {
            engine: Arc::new(Mutex::new(Engine::new(search_mb, options.threads))),
            tables_for_mb: options.hash_mb,
            tables_for_algorithm: options.algorithm,
            options,
            position: Position::startpos(),
            position_error: None,
            signals: Arc::new(Signals::new()),
            silence: Arc::new(AtomicBool::new(false)),
            search: None,
            answered: Arc::new(AtomicBool::new(false)),
            open_ended: false,
            mate_stop: Arc::new(AtomicBool::new(false)),
            mate_slot: Arc::new(Mutex::new(None)),
            probe_solver: Arc::new(Mutex::new(mate::Solver::new(probe_mb))),
            dobutsu: DobutsuState::new(),
            book: BookState::default(),
            network: NetworkState::default(),
        }
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        let command = match Command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                error(e);
                return Flow::Continue;
            }
        };
        match command {
            Command::Empty => {}
            Command::Usi => {
                send(&format!("id name Kyobo {}", env!("CARGO_PKG_VERSION")));
                send("id author the Kyobo developers");
                for line in Options::declarations() {
                    send(&line);
                }
                send("usiok");
            }
            Command::IsReady => {
                // Tables are made here, where GUIs wait, not on the game's clock.
                if !self.search_running() {
                    match self.options.variant {
                        Variant::Shogi => {
                            self.make_tables();
                            self.prepare_book();
                            self.prepare_network();
                        }
                        Variant::Dobutsu => self.prepare_dobutsu(),
                    }
                }
                send("readyok");
            }
            Command::SetOption { name, value } => match self.options.set(&name, value.as_deref()) {
                Err(e) => error(e),
                Ok(()) if name.eq_ignore_ascii_case("RandomSeed") => {
                    self.book.reseed(self.options.book.random_seed);
                }
                Ok(()) => {}
            },
            Command::UsiNewGame => {
                self.finish_search(false);
                self.make_tables();
                if let Ok(mut engine) = self.engine.lock() {
                    engine.clear();
                }
                self.dobutsu.clear();
            }
            Command::Position { start, moves } if self.options.variant == Variant::Dobutsu => {
                if let Some(problem) = self.dobutsu.set_position(&start, &moves) {
                    error(problem);
                }
            }
            Command::Position { start, moves } => {
                let (pos, problem) = build_position(&start, &moves);
                self.position_error = None;
                match pos {
                    Some(pos) => self.position = pos,
                    None => self.position_error = problem.clone(),
                }
                if let Some(mut problem) = problem {
                    if let Start::Sfen(sfen) = &start {
                        if self.position_error.is_some()
                            && ::dobutsu::Position::from_sfen(sfen).is_ok()
                        {
                            problem.push_str(
                                " (a Dobutsu shogi SFEN: setoption name Variant value dobutsu)",
                            );
                        }
                    }
                    error(problem);
                }
            }
            Command::Go(params) if self.options.variant == Variant::Dobutsu => {
                self.go_dobutsu(params)
            }
            Command::Go(params) => self.go(params),
            Command::Stop => self.finish_search(false),
            Command::PonderHit(fields, warnings) => {
                for w in warnings {
                    warning(w);
                }
                let side = match self.options.variant {
                    Variant::Shogi => self.position.side_to_move(),
                    Variant::Dobutsu => match self.dobutsu.game.position().side_to_move() {
                        ::dobutsu::Color::Sente => Color::Black,
                        ::dobutsu::Color::Gote => Color::White,
                    },
                };
                let clock = clock_for(side, &fields);
                self.signals.ponderhit(clock);
            }
            Command::GameOver(_) => self.finish_search(true),
            Command::Quit => {
                self.finish_search(true);
                return Flow::Quit;
            }
            Command::Display | Command::Moves | Command::Eval | Command::Shape
                if self.options.variant == Variant::Dobutsu =>
            {
                let lines = match command {
                    Command::Display => self.dobutsu.board(),
                    Command::Moves => self.dobutsu.moves(),
                    Command::Eval => {
                        self.dobutsu.load_database(&self.options.dobutsu_database);
                        self.dobutsu.evaluation()
                    }
                    _ => {
                        error("shape is for shogi (the bad-shape checks know no Dobutsu)");
                        return Flow::Continue;
                    }
                };
                self.tell(lines);
            }
            Command::Display => self.tell(display::board(&self.position)),
            Command::Moves => self.tell(display::moves(&self.position)),
            Command::Eval => {
                self.prepare_network();
                let network = self.network.network.as_ref();
                let scale = self.options.fv_scale;
                self.tell(display::evaluation(&self.position, network.map(|n| (n, scale))))
            }
            Command::Shape => self.tell(display::shape(&self.position)),
            Command::Help => self.tell(display::help()),
        }
        Flow::Continue
    }

    /// Lines for a person, as `info string` (GUIs ignore them).
    fn tell(&self, lines: Vec<String>) {
        let position_error = match self.options.variant {
            Variant::Shogi => &self.position_error,
            Variant::Dobutsu => &self.dobutsu.error,
        };
        if let Some(e) = position_error {
            warning(format!("no position set ({e}); showing the last good one"));
        }
        for line in lines {
            send(&format!("info string {line}"));
        }
    }

    /// The input ended (a script piped its commands): let a search with limits
    /// finish and answer, stop an open-ended one (it answers at once).
    pub fn end_of_input(&mut self) {
        if let Some(handle) = self.search.take() {
            if self.open_ended {
                self.signals.stop();
                self.mate_stop.store(true, Ordering::SeqCst);
            }
            let _ = handle.join();
        }
    }

    /// Whether a search is running; one that has answered is joined.
    fn search_running(&mut self) -> bool {
        match &self.search {
            Some(handle) if handle.is_finished() || self.answered.load(Ordering::SeqCst) => {
                if let Some(handle) = self.search.take() {
                    let _ = handle.join();
                }
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Stops the running search (if any) and waits for it; `silent`: no bestmove.
    fn finish_search(&mut self, silent: bool) {
        if let Some(handle) = self.search.take() {
            if silent {
                self.silence.store(true, Ordering::SeqCst);
            }
            self.signals.stop();
            self.mate_stop.store(true, Ordering::SeqCst);
            let _ = handle.join();
        }
    }

    /// Makes the search's and the probe's tables for `USI_Hash` and
    /// `SearchAlgorithm` (no search may be running), freeing `go mate`'s. When the
    /// memory is not there, the error is sent, the tables as they were are kept
    /// and `USI_Hash` goes back to their size.
    fn make_tables(&mut self) {
        if let Ok(mut slot) = self.mate_slot.lock() {
            *slot = None;
        }
        let (search_mb, probe_mb) = split_hash(self.options.hash_mb);
        let Ok(mut engine) = self.engine.lock() else {
            return;
        };
        if let Err(e) = engine.set_algorithm(self.options.algorithm) {
            error(e);
        }
        apply_algorithm_options(&mut engine, &self.options);
        self.tables_for_algorithm = engine.algorithm();
        if let Err(e) = engine.try_set_hash_mb(search_mb) {
            error(format!(
                "USI_Hash {}: {e}; keeping USI_Hash {}",
                self.options.hash_mb, self.tables_for_mb
            ));
            self.options.hash_mb = self.tables_for_mb;
            let (search_mb, _) = split_hash(self.tables_for_mb);
            let _ = engine.try_set_hash_mb(search_mb);
            return;
        }
        engine.touch_table();
        if let Ok(mut probe) = self.probe_solver.lock() {
            if self.tables_for_mb != self.options.hash_mb {
                if let Some(solver) = mate::Solver::try_new(probe_mb) {
                    *probe = solver;
                }
            }
        }
        self.tables_for_mb = self.options.hash_mb;
    }

    fn go(&mut self, params: GoParams) {
        self.finish_search(false);
        for w in &params.warnings {
            warning(w);
        }
        if let Some(time) = params.mate {
            self.go_mate(time);
            return;
        }
        if let Some(e) = &self.position_error {
            // Nothing sound can be searched; the GUI still gets its one answer.
            error(format!("no position to search ({e})"));
            send(&bestmove_line(&Answer::Resign));
            return;
        }
        if !params.infinite && params.searchmoves.is_empty() {
            self.prepare_book();
            let mut warnings = Vec::new();
            let answer = self.book.answer(
                &self.position,
                &self.options.book,
                self.options.ponder,
                &mut |w| warnings.push(w),
            );
            for w in warnings {
                warning(w);
            }
            if let Some(answer) = answer {
                self.answer_from_book(answer, params.ponder);
                return;
            }
        }
        if self.tables_for_mb != self.options.hash_mb
            || self.tables_for_algorithm != self.options.algorithm
        {
            // `setoption` without the `isready` a GUI sends: make them now.
            self.make_tables();
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
            multipv: self.options.multipv,
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
            && random_opening_here(&self.position, &self.options.book))
        .then(|| book::Rng::new(self.book.rng.next_u64()));
        self.prepare_network();
        let mut game = ShogiGame::new(self.position.clone());
        game.entering_king_rule = self.options.entering_king_rule;
        game.max_moves_to_draw = self.options.max_moves_to_draw;
        if !game.set_network(self.network.network.clone()) && self.network.network.is_some() {
            warning("the NNUE network evaluates only positions of the standard set of pieces; searching with the handcrafted evaluation");
        }
        game.set_network_scale(self.options.fv_scale);

        let limited = limits.depth.is_some() || limits.nodes.is_some() || limits.uses_clock();
        self.open_ended = params.infinite || params.ponder || !limited;
        self.signals.reset(params.ponder);
        self.silence.store(false, Ordering::SeqCst);
        let engine = Arc::clone(&self.engine);
        let signals = Arc::clone(&self.signals);
        let silence = Arc::clone(&self.silence);
        let options = self.options.clone();
        let probe_solver = Arc::clone(&self.probe_solver);
        let answered = Arc::clone(&self.answered);
        answered.store(false, Ordering::SeqCst);
        self.search = Some(std::thread::spawn(move || {
            // With searchmoves, the mate probe (whose mate may start elsewhere) is
            // left out.
            let probed = if among.is_empty() {
                probe_for_mate(&probe_solver, &game, &limits, &options)
            } else {
                Err(limits)
            };
            let answer = match probed {
                Ok(answer) => answer,
                Err(limits) => think(&engine, &game, &among, &limits, &signals, &options, random),
            };
            // Before the answer: a GUI that has read it finds the search done.
            answered.store(true, Ordering::SeqCst);
            if !silence.load(Ordering::SeqCst) {
                send(&bestmove_line(&answer));
            }
        }));
    }

    /// Reads the network `EvalFile` names (when it changed), telling the GUI.
    fn prepare_network(&mut self) {
        match self.network.prepare(self.options.network_file().as_deref()) {
            Some(Ok(line)) => send(&format!("info string {line}")),
            Some(Err(e)) => error(e),
            None => {}
        }
    }

    /// Opens the book `BookFile` names (when it changed), telling the GUI.
    fn prepare_book(&mut self) {
        match self.book.prepare(&self.options.book) {
            Some(Ok(line)) => send(&format!("info string {line}")),
            Some(Err(e)) => error(e),
            None => {}
        }
    }

    /// Answers `go` with a book move: at once, or, when pondering, once
    /// `ponderhit` or `stop` comes (on the search thread, as a search would).
    fn answer_from_book(&mut self, answer: BookAnswer, ponder: bool) {
        self.open_ended = ponder;
        self.signals.reset(ponder);
        self.silence.store(false, Ordering::SeqCst);
        let signals = Arc::clone(&self.signals);
        let silence = Arc::clone(&self.silence);
        let answered = Arc::clone(&self.answered);
        answered.store(false, Ordering::SeqCst);
        self.search = Some(std::thread::spawn(move || {
            while signals.is_pondering() && !signals.stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
            answered.store(true, Ordering::SeqCst);
            if !silence.load(Ordering::SeqCst) {
                for line in &answer.lines {
                    send(line);
                }
                send(&bestmove_line(&Answer::Move { best: answer.best, ponder: answer.ponder }));
            }
        }));
    }

    /// Reads the Dobutsu database (when its path is new) and makes the
    /// Dobutsu engine's tables, telling the GUI what happened.
    fn prepare_dobutsu(&mut self) {
        if let Some(line) = self.dobutsu.load_database(&self.options.dobutsu_database) {
            send(&format!("info string {line}"));
        }
        if let Err(e) = self.dobutsu.engine(&self.options) {
            error(e);
        }
    }

    /// `go` for Dobutsu shogi (see [`dobutsu::think`]): on the search thread,
    /// as for shogi.
    fn go_dobutsu(&mut self, params: GoParams) {
        self.finish_search(false);
        for w in &params.warnings {
            warning(w);
        }
        if params.mate.is_some() {
            error("go mate is for shogi (Dobutsu positions are solved by the database)");
            send("checkmate notimplemented");
            return;
        }
        if let Some(e) = &self.dobutsu.error {
            error(format!("no position to search ({e})"));
            send("bestmove resign");
            return;
        }
        self.prepare_dobutsu();
        let engine = match self.dobutsu.engine(&self.options) {
            Ok(engine) => engine,
            Err(e) => {
                error(e);
                send("bestmove resign");
                return;
            }
        };
        let game = self.dobutsu.game.clone();
        let pos = game.position();
        let mut among = Vec::new();
        for text in &params.searchmoves {
            match pos.parse_move(text) {
                Ok(m) => among.push(m),
                Err(e) => warning(format!("searchmoves: {} ignored: {e}", excerpt(text))),
            }
        }
        let limits = dobutsu::limits_for(&game, &params, &self.options);
        let limited = limits.depth.is_some() || limits.nodes.is_some() || limits.uses_clock();
        self.open_ended = params.infinite || params.ponder || !limited;
        self.signals.reset(params.ponder);
        self.silence.store(false, Ordering::SeqCst);
        let go = dobutsu::Go {
            game,
            database: self.dobutsu.database(),
            database_path: self.options.dobutsu_database.clone(),
            engine,
            limits,
            among,
            options: self.options.clone(),
        };
        let signals = Arc::clone(&self.signals);
        let silence = Arc::clone(&self.silence);
        let answered = Arc::clone(&self.answered);
        answered.store(false, Ordering::SeqCst);
        self.search = Some(std::thread::spawn(move || {
            let bestmove = dobutsu::think(go, &signals, &|line: &str| send(line));
            answered.store(true, Ordering::SeqCst);
            if !silence.load(Ordering::SeqCst) {
                send(&bestmove);
            }
        }));
    }

    /// `go mate`: the solver runs on the search thread so that `stop` is read
    /// meanwhile. Its table takes the search's share of `USI_Hash`: the
    /// search's table is freed first.
    fn go_mate(&mut self, time: Option<u64>) {
        self.open_ended = time.is_none();
        self.mate_stop.store(false, Ordering::SeqCst);
        self.silence.store(false, Ordering::SeqCst);
        if let Some(e) = &self.position_error {
            error(format!("no position to solve ({e})"));
            send("checkmate notimplemented");
            return;
        }
        if let Ok(mut engine) = self.engine.lock() {
            engine.release_table();
        }
        let (pos, (hash_mb, _)) = (self.position.clone(), split_hash(self.options.hash_mb));
        let stop = Arc::clone(&self.mate_stop);
        let slot = Arc::clone(&self.mate_slot);
        let silence = Arc::clone(&self.silence);
        let answered = Arc::clone(&self.answered);
        answered.store(false, Ordering::SeqCst);
        self.search = Some(std::thread::spawn(move || {
            let lines = mate_hook::answer(&slot, &pos, time, hash_mb, stop);
            answered.store(true, Ordering::SeqCst);
            if !silence.load(Ordering::SeqCst) {
                for line in &lines {
                    send(line);
                }
            }
        }));
    }
}

/// The mate probe (see `mate_probe`): the answer when it finds a mate, else the
/// limits left for the search.
fn probe_for_mate(
    solver: &Mutex<mate::Solver>,
    game: &ShogiGame,
    limits: &Limits,
    options: &Options,
) -> Result<Answer, Limits> {
    let mut left = limits.clone();
    let Some(time) = mate_probe::budget(limits) else {
        return Err(left);
    };
    if game.declaration_wins() {
        return Err(left);
    }
    let start = Instant::now();
    let Ok(mut solver) = solver.lock() else {
        return Err(left);
    };
    if let Some(line) = mate_probe::find(&mut solver, game.position(), time) {
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
    mate_probe::charge(&mut left, start.elapsed());
    Err(left)
}

/// Runs one search on the search thread and decides the answer.
fn think(
    engine: &Mutex<Engine<ShogiGame>>,
    game: &ShogiGame,
    among: &[shogi::Move],
    limits: &Limits,
    signals: &Signals,
    options: &Options,
    random: Option<book::Rng>,
) -> Answer {
    if game.declaration_wins() {
        // Winning by declaration needs no search, but a ponder or infinite search
        // still answers only when released.
        while !signals.stopped() && (limits.infinite || signals.is_pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
        return Answer::Win;
    }
    let Ok(mut engine) = engine.lock() else {
        return Answer::Resign;
    };
    engine.set_threads(options.threads);
    apply_algorithm_options(&mut engine, options);
    engine.time_options = TimeOptions {
        network_delay_ms: options.network_delay,
        network_delay2_ms: options.network_delay2,
        minimum_thinking_ms: options.minimum_thinking_time,
    };
    let start = Instant::now();
    let checked = options.bad_shape_check && among.is_empty() && random.is_none();
    let mut main_limits = if checked { shape_time::main_limits(limits) } else { limits.clone() };
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
        None => return Answer::Resign,
        Some(_) if result.score <= -options.resign_value => return Answer::Resign,
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
                return Answer::Move { best: pick, ponder: None };
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
                return Answer::Move { best: r.by, ponder: None };
            }
        }
    }
    Answer::Move { best, ponder }
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
