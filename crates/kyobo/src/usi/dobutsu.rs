//! Dobutsu shogi over USI (option `Variant` = `dobutsu`): the position, the
//! database of exact values, and the answer to `go`.
//!
//! `position startpos` is Dobutsu's start (`gle/1c1/1C1/ELG b - 1`),
//! `position sfen …` takes a Dobutsu SFEN, and moves are written as
//! `dobutsu::usi` writes them (`b3b2`, `b2b1+`, `C*b2`). `go` answers with
//! the database's best move (the fastest win, else a draw, else the longest
//! loss) when the database (option `DobutsuDatabase`) holds the position,
//! saying so with `info string`; otherwise the search framework's engine
//! (PVS, or the algorithm `SearchAlgorithm` names) searches it within the
//! limits of `go`. Repetitions in the game (from the moves of `position`)
//! and in the search are scored as draws.

use super::command::{excerpt, GoParams, Start};
use super::options::Options;
use super::report::{error, info_line_with, warning};
use super::send;
use super::variant::{split_hash, GameVariant, SearchThread};
use dobutsu::solve::{Database, Value};
use dobutsu::{Dobutsu, End, Move};
use search::engine::Signals;
use search::time::{Clock, TimeOptions};
use search::{Engine, Limits};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The Dobutsu side of a USI session: the game of the last `position`, the
/// engine (made when first needed) and the database (read when first
/// needed, again when its path changes).
pub struct DobutsuState {
    /// The game of the last `position` (its earlier positions kept for
    /// repetitions), as far as its moves were legal.
    game: Dobutsu,
    /// Why there is no game to search: the last `position` had a bad SFEN.
    error: Option<String>,
    engine: Option<Arc<Mutex<Engine<Dobutsu>>>>,
    /// The database read from `loaded_from` (`None`: missing or unreadable).
    database: Option<Arc<Database>>,
    loaded_from: Option<PathBuf>,
}

impl Default for DobutsuState {
    fn default() -> Self {
        DobutsuState::new()
    }
}

impl DobutsuState {
    pub fn new() -> DobutsuState {
        DobutsuState {
            game: Dobutsu::default(),
            error: None,
            engine: None,
            database: None,
            loaded_from: None,
        }
    }

    /// Reads the database at `path` unless it was read from there already;
    /// the line to tell the GUI when something changed.
    fn load_database(&mut self, path: &str) -> Option<String> {
        let path = PathBuf::from(path);
        if self.loaded_from.as_ref() == Some(&path) {
            return None;
        }
        self.loaded_from = Some(path.clone());
        self.database = None;
        match Database::load(&path) {
            Ok(db) => {
                let line = format!(
                    "Dobutsu database {} read: {} positions, perfect play where it holds the \
                     position",
                    path.display(),
                    db.len()
                );
                self.database = Some(Arc::new(db));
                Some(line)
            }
            Err(e) => Some(format!(
                "no Dobutsu database ({}: {e}); the engine searches (`kyobo dobutsu solve` \
                 writes one)",
                path.display()
            )),
        }
    }

    /// The engine, made for `options` (hash size, threads, algorithm).
    fn engine(&mut self, options: &Options) -> Result<Arc<Mutex<Engine<Dobutsu>>>, String> {
        let (search_mb, _) = split_hash(options.hash_mb);
        let engine = match &self.engine {
            Some(e) => Arc::clone(e),
            None => {
                let mut engine: Engine<Dobutsu> = Engine::new(1, options.threads);
                engine
                    .try_set_hash_mb(search_mb)
                    .map_err(|e| format!("USI_Hash {}: {e}", options.hash_mb))?;
                let engine = Arc::new(Mutex::new(engine));
                self.engine = Some(Arc::clone(&engine));
                engine
            }
        };
        if let Ok(mut e) = engine.lock() {
            e.set_algorithm(options.algorithm).map_err(|e| e.to_string())?;
            for &(name, value) in &options.algorithm_values {
                e.set_algorithm_option(name, value)?;
            }
            if e.hash_mb() != search_mb {
                e.try_set_hash_mb(search_mb)
                    .map_err(|err| format!("USI_Hash {}: {err}", options.hash_mb))?;
            }
            e.set_threads(options.threads);
            e.time_options = TimeOptions {
                network_delay_ms: options.network_delay,
                network_delay2_ms: options.network_delay2,
                minimum_thinking_ms: options.minimum_thinking_time,
                ..TimeOptions::default()
            };
        }
        Ok(engine)
    }
}

impl GameVariant for DobutsuState {
    /// Reads the database (when its path is new) and makes the engine's
    /// tables, telling the GUI what happened.
    fn prepare(&mut self, options: &mut Options) {
        if let Some(line) = self.load_database(&options.dobutsu_database) {
            send(&format!("info string {line}"));
        }
        if let Err(e) = self.engine(options) {
            error(e);
        }
    }

    fn new_game(&mut self, _options: &mut Options) {
        if let Some(Ok(mut e)) = self.engine.as_ref().map(|e| e.lock()) {
            e.clear();
        }
    }

    /// The start or a Dobutsu SFEN, then the moves as far as they are legal.
    /// With a bad SFEN the game is left as it was and
    /// [`GameVariant::position_error`] says why.
    fn set_position(&mut self, start: &Start, moves: &[String]) -> Option<String> {
        let mut game = match start {
            Start::StartPos => Dobutsu::default(),
            Start::Sfen(sfen) => match Dobutsu::from_sfen(sfen) {
                Ok(game) => game,
                Err(e) => {
                    let problem = format!("bad Dobutsu SFEN '{}': {e}", excerpt(sfen));
                    self.error = Some(problem.clone());
                    return Some(problem);
                }
            },
        };
        self.error = None;
        let mut problem = None;
        for (i, text) in moves.iter().enumerate() {
            if let Err(e) = game.play_usi(text) {
                problem = Some(format!(
                    "move {} ({}) is illegal: {e}; the position is the one after move {i}",
                    i + 1,
                    excerpt(text)
                ));
                break;
            }
        }
        self.game = game;
        problem
    }

    /// See [`think`]: on the search thread, as for shogi.
    fn go(&mut self, params: GoParams, options: &mut Options, search: &mut SearchThread) {
        if params.mate.is_some() {
            error("go mate is for shogi (Dobutsu positions are solved by the database)");
            send("checkmate notimplemented");
            return;
        }
        if let Some(e) = &self.error {
            error(format!("no position to search ({e})"));
            send("bestmove resign");
            return;
        }
        self.prepare(options);
        let engine = match self.engine(options) {
            Ok(engine) => engine,
            Err(e) => {
                error(e);
                send("bestmove resign");
                return;
            }
        };
        let game = self.game.clone();
        let pos = game.position();
        let mut among = Vec::new();
        for text in &params.searchmoves {
            match pos.parse_move(text) {
                Ok(m) => among.push(m),
                Err(e) => warning(format!("searchmoves: {} ignored: {e}", excerpt(text))),
            }
        }
        let limits = limits_for(&game, &params, options);
        let limited = limits.depth.is_some() || limits.nodes.is_some() || limits.uses_clock();
        let open_ended = params.infinite || params.ponder || !limited;
        search.signals.reset(params.ponder);
        let go = Go {
            game,
            database: self.database.clone(),
            database_path: options.dobutsu_database.clone(),
            engine,
            limits,
            among,
            options: options.clone(),
        };
        let signals = Arc::clone(&search.signals);
        search.start(open_ended, move || vec![think(go, &signals, &|line: &str| send(line))]);
    }

    fn side_to_move(&self) -> shogi::Color {
        match self.game.position().side_to_move() {
            dobutsu::Color::Sente => shogi::Color::Black,
            dobutsu::Color::Gote => shogi::Color::White,
        }
    }

    fn position_error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The board, the side to move, the hands and the SFEN.
    fn board(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.game.board_text().lines().map(str::to_string).collect();
        if let Some(end) = self.game.position().end() {
            lines.push(describe_end(end).to_string());
        }
        lines
    }

    /// The legal moves, their count first.
    fn moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.game.position().legal_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        vec![format!("{} legal moves", names.len()), names.join(" ")]
    }

    /// The exact value from the database (read first, silently, when its
    /// path is new), or the static evaluation.
    fn evaluation(&mut self, options: &Options) -> Vec<String> {
        self.load_database(&options.dobutsu_database);
        let pos = self.game.position();
        if let Some(v) = self.database.as_ref().and_then(|db| db.value(pos)) {
            return vec![format!("exact value for the side to move: {v} (database)")];
        }
        vec![format!(
            "static evaluation for the side to move: {} (100 = a chick)",
            dobutsu::game::evaluate(&pos)
        )]
    }

    fn shape(&self) -> Result<Vec<String>, String> {
        Err("shape is for shogi (the bad-shape checks know no Dobutsu)".to_string())
    }
}

/// What the side to move has at the end of the game.
fn describe_end(end: End) -> &'static str {
    match end {
        End::CanCaptureLion => "the side to move can capture the opposing lion: it has won",
        End::LionCaptured => "the side to move has lost its lion",
        End::TryAgainst => {
            "the opposing lion has reached the far rank safely: the side to move has lost"
        }
        End::TrySurvived => "the side to move's lion has reached the far rank safely: it has won",
    }
}

/// The `score` of an `info` line for an exact value.
fn score_of(v: Value) -> String {
    match v {
        Value::Win(n) => format!("mate {n}"),
        Value::Loss(n) => format!("mate -{n}"),
        Value::Draw => "cp 0".to_string(),
    }
}

/// Everything the search thread needs for one `go`.
struct Go {
    game: Dobutsu,
    database: Option<Arc<Database>>,
    database_path: String,
    engine: Arc<Mutex<Engine<Dobutsu>>>,
    limits: Limits,
    among: Vec<Move>,
    options: Options,
}

/// The limits of `go` for the game `game`.
fn limits_for(game: &Dobutsu, params: &GoParams, options: &Options) -> Limits {
    let f = &params.clock;
    let clock = (!f.is_empty()).then(|| {
        let (time, inc) = match game.position().side_to_move() {
            dobutsu::Color::Sente => (f.btime, f.binc),
            dobutsu::Color::Gote => (f.wtime, f.winc),
        };
        Clock {
            remaining_ms: time.unwrap_or(0),
            byoyomi_ms: f.byoyomi.unwrap_or(0),
            increment_ms: inc.unwrap_or(0),
        }
    });
    Limits {
        depth: params.depth.map(|d| d.clamp(1, 127) as i32),
        nodes: params.nodes,
        movetime: params.movetime.map(Duration::from_millis),
        clock,
        infinite: params.infinite,
        ponder: params.ponder,
        multipv: options.multipv,
        game_ply: game.history().len() as u32 + 1,
    }
}

/// `go` on the search thread: `send` is called with each `info` line as it
/// comes; the `bestmove` line is returned. A game that is over at the root is
/// answered at once (the capture of the lion where it can be captured, else
/// `win` or `resign`), a position the database holds from the database, any
/// other by the engine's search.
fn think(go: Go, signals: &Signals, send: &dyn Fn(&str)) -> String {
    let pos = go.game.position();
    // A ponder or infinite search answers only when released.
    let hold = |signals: &Signals| {
        while !signals.stopped() && (go.limits.infinite || signals.is_pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    if let Some(end) = pos.end() {
        send(&format!("info string the game is over: {}", describe_end(end)));
        hold(signals);
        if !end.mover_wins() {
            return "bestmove resign".to_string();
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let capture = pos
            .lion_square(pos.side_to_move().flip())
            .and_then(|lion| moves.into_iter().find(|m| m.to() == lion));
        return match capture {
            Some(m) => format!("bestmove {m}"),
            None => "bestmove win".to_string(),
        };
    }
    if go.among.is_empty() {
        if let Some(db) = &go.database {
            if let Ok(moves) = db.best(pos) {
                if let Some(&(best, value)) = moves.first() {
                    send(&format!(
                        "info string perfect play from the database {}: {value}",
                        go.database_path
                    ));
                    let plies = value.plies().unwrap_or(0).max(1);
                    send(&format!(
                        "info depth {plies} seldepth {plies} time 0 nodes {} score {} pv {best}",
                        moves.len(),
                        score_of(value)
                    ));
                    hold(signals);
                    return format!("bestmove {best}");
                }
            }
            send("info string the position is not in the database: searching");
        }
    }
    let Ok(mut engine) = go.engine.lock() else {
        return "bestmove resign".to_string();
    };
    let show_multipv = go.options.multipv > 1;
    let mut report = |info: &search::Info<Move>| {
        send(&info_line_with(info, show_multipv, |m| m.to_string()));
    };
    let result = if go.among.is_empty() {
        engine.search(&go.game, &go.limits, signals, &mut report)
    } else {
        engine.search_among(&go.game, &go.among, &go.limits, signals, &mut report)
    };
    match result.best_move {
        None => "bestmove resign".to_string(),
        Some(_) if result.score <= -go.options.resign_value => "bestmove resign".to_string(),
        Some(best) => match result.ponder_move.filter(|_| go.options.ponder) {
            Some(p) => format!("bestmove {best} ponder {p}"),
            None => format!("bestmove {best}"),
        },
    }
}
