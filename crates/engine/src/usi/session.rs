//! The USI state machine: options, the current position, and the search thread.

use super::command::{ClockFields, Command, GoParams, Start};
use super::options::Options;
use super::report::{bestmove_line, info_line, Answer};
use super::{mate_hook, mate_probe, send};
use eval::ShogiGame;
use search::engine::Signals;
use search::time::{Clock, TimeOptions};
use search::{Engine, Limits};
use shogi::{Color, Position};
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
    position: Position,
    engine: Arc<Mutex<Engine>>,
    signals: Arc<Signals>,
    /// Set by `gameover`: the running search ends without a `bestmove`.
    silence: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// The running search ends only on `stop`/`ponderhit` (infinite or ponder).
    open_ended: bool,
    /// Stops a running `go mate`.
    mate_stop: Arc<AtomicBool>,
    /// The solver of `go mate`, kept between calls.
    mate_slot: Arc<mate_hook::MateSlot>,
    /// The solver of the mate probe before each game move (its table kept).
    probe_solver: Arc<Mutex<mate::Solver>>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

fn error(msg: impl std::fmt::Display) {
    send(&format!("info string error: {msg}"));
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
        Session {
            engine: Arc::new(Mutex::new(Engine::new(options.hash_mb, options.threads))),
            options,
            position: Position::startpos(),
            signals: Arc::new(Signals::new()),
            silence: Arc::new(AtomicBool::new(false)),
            search: None,
            open_ended: false,
            mate_stop: Arc::new(AtomicBool::new(false)),
            mate_slot: Arc::new(Mutex::new(None)),
            probe_solver: Arc::new(Mutex::new(mate::Solver::new(mate_probe::PROBE_HASH_MB))),
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
                if self.search.is_none() {
                    if let Ok(mut engine) = self.engine.lock() {
                        engine.set_hash_mb(self.options.hash_mb);
                    }
                }
                send("readyok");
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    error(e);
                }
            }
            Command::UsiNewGame => {
                self.finish_search(false);
                if let Ok(mut engine) = self.engine.lock() {
                    engine.set_hash_mb(self.options.hash_mb);
                    engine.clear();
                }
            }
            Command::Position { start, moves } => match build_position(&start, &moves) {
                Ok(pos) => self.position = pos,
                Err(e) => error(e),
            },
            Command::Go(params) => self.go(params),
            Command::Stop => self.finish_search(false),
            Command::PonderHit(fields) => {
                let clock = clock_for(self.position.side_to_move(), &fields);
                self.signals.ponderhit(clock);
            }
            Command::GameOver(_) => self.finish_search(true),
            Command::Quit => {
                self.finish_search(true);
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// The input ended (a script piped its commands): let a search with limits
    /// finish and answer, stop an open-ended one.
    pub fn end_of_input(&mut self) {
        if let Some(handle) = self.search.take() {
            if self.open_ended {
                self.signals.stop();
                self.mate_stop.store(true, Ordering::SeqCst);
            }
            let _ = handle.join();
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

    fn go(&mut self, params: GoParams) {
        self.finish_search(false);
        if let Some(time) = params.mate {
            // The solver runs on the search thread so that `stop` is read meanwhile.
            self.open_ended = time.is_none();
            self.mate_stop.store(false, Ordering::SeqCst);
            self.silence.store(false, Ordering::SeqCst);
            let (pos, hash_mb) = (self.position.clone(), self.options.hash_mb);
            let stop = Arc::clone(&self.mate_stop);
            let slot = Arc::clone(&self.mate_slot);
            let silence = Arc::clone(&self.silence);
            self.search = Some(std::thread::spawn(move || {
                let lines = mate_hook::answer(&slot, &pos, time, hash_mb, stop);
                if !silence.load(Ordering::SeqCst) {
                    for line in &lines {
                        send(line);
                    }
                }
            }));
            return;
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
        let mut game = ShogiGame::new(self.position.clone());
        game.entering_king_rule = self.options.entering_king_rule;
        game.max_moves_to_draw = self.options.max_moves_to_draw;

        self.open_ended = params.infinite || params.ponder;
        self.signals.reset(params.ponder);
        self.silence.store(false, Ordering::SeqCst);
        let engine = Arc::clone(&self.engine);
        let signals = Arc::clone(&self.signals);
        let silence = Arc::clone(&self.silence);
        let options = self.options.clone();
        let probe_solver = Arc::clone(&self.probe_solver);
        self.search = Some(std::thread::spawn(move || {
            let answer = match probe_for_mate(&probe_solver, &game, &limits, &options) {
                Ok(answer) => answer,
                Err(limits) => think(&engine, &game, &limits, &signals, &options),
            };
            if !silence.load(Ordering::SeqCst) {
                send(&bestmove_line(&answer));
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
    engine: &Mutex<Engine>,
    game: &ShogiGame,
    limits: &Limits,
    signals: &Signals,
    options: &Options,
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
    engine.set_hash_mb(options.hash_mb);
    engine.set_threads(options.threads);
    engine.time_options = TimeOptions {
        network_delay_ms: options.network_delay,
        network_delay2_ms: options.network_delay2,
        minimum_thinking_ms: options.minimum_thinking_time,
    };
    let show_multipv = options.multipv > 1;
    let result = engine.search(game, limits, signals, &mut |info| {
        send(&info_line(info, show_multipv));
    });
    match result.best_move {
        None => Answer::Resign,
        Some(_) if result.score <= -options.resign_value => Answer::Resign,
        Some(best) => {
            Answer::Move { best, ponder: if options.ponder { result.ponder_move } else { None } }
        }
    }
}

/// The position `position …` describes, or why it cannot be set up.
fn build_position(start: &Start, moves: &[String]) -> Result<Position, String> {
    let mut pos = match start {
        Start::StartPos => Position::startpos(),
        Start::Sfen(sfen) => {
            Position::from_sfen(sfen).map_err(|e| format!("bad SFEN '{sfen}': {e}"))?
        }
    };
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_usi_move(text)
            .map_err(|e| format!("illegal move {} ({text}) in position: {e}", i + 1))?;
        pos.do_move(m);
    }
    Ok(pos)
}
