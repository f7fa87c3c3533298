//! What the USI session asks of a game: shogi ([`super::shogi_state`]) and
//! Dobutsu shogi ([`super::dobutsu`]) each answer it, so that the session's
//! loop reads the option `Variant` only to choose which game answers.
//!
//! Also what both games share: the search thread with its flags, the split
//! of `USI_Hash` and the clock of `go` and `ponderhit`.

use super::command::{ClockFields, GoParams, Start};
use super::options::Options;
use super::{mate_probe, send};
use search::engine::Signals;
use search::time::Clock;
use shogi::Color;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// One game the option `Variant` chooses: its position, engine and whatever
/// else it keeps between commands. Problems are sent to the GUI as they come
/// (`info string error: …`), except where a method returns them.
pub trait GameVariant {
    /// `isready` with no search running: makes what the first `go` would
    /// otherwise wait for (tables, book, network, database).
    fn prepare(&mut self, options: &mut Options);

    /// `usinewgame` (no search running): the engine forgets what it learnt in
    /// the last game.
    fn new_game(&mut self, options: &mut Options);

    /// `setoption` has set the option `name` (already checked).
    fn option_set(&mut self, _name: &str, _options: &Options) {}

    /// `position`: sets the position as far as it is sound; the problem to
    /// report (a bad SFEN, an illegal move), if any.
    fn set_position(&mut self, start: &Start, moves: &[String]) -> Option<String>;

    /// `go`, the last search finished and the warnings of `params` sent:
    /// answers at once or starts `search` (which sends the answer).
    fn go(&mut self, params: GoParams, options: &mut Options, search: &mut SearchThread);

    /// The side to move, whose clock `ponderhit` gives.
    fn side_to_move(&self) -> Color;

    /// Why there is no position to search: the last `position` had a bad SFEN.
    fn position_error(&self) -> Option<&str>;

    /// `d`: the board as text.
    fn board(&self) -> Vec<String>;

    /// `moves`: the legal moves.
    fn moves(&self) -> Vec<String>;

    /// `eval`: the evaluation of the position.
    fn evaluation(&mut self, options: &Options) -> Vec<String>;

    /// `shape`: the bad-shape checks of the position, or why there are none.
    fn shape(&self) -> Result<Vec<String>, String>;
}

/// How `USI_Hash` MiB are shared: the mate probe's table takes a sixteenth (1 to
/// 16 MiB), the search's table (or `go mate`'s, never both) the rest.
pub fn split_hash(hash_mb: usize) -> (usize, usize) {
    let probe = (hash_mb / 16).clamp(1, mate_probe::PROBE_HASH_MB);
    (hash_mb.saturating_sub(probe).max(1), probe)
}

/// The clock of the side to move from USI fields (`None` if no times were sent).
pub fn clock_for(side: Color, f: &ClockFields) -> Option<Clock> {
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

/// The thread that answers `go`, and the flags through which `stop`,
/// `ponderhit`, `gameover` and `quit` reach it while the session reads on.
pub struct SearchThread {
    /// Stop and ponder for the engine's search.
    pub signals: Arc<Signals>,
    /// Stops a running `go mate`.
    pub mate_stop: Arc<AtomicBool>,
    /// Set by `gameover`: the running search ends without a `bestmove`.
    silence: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
    /// Set by the search thread once it has answered (it ends a moment later).
    answered: Arc<AtomicBool>,
    /// The running search has no limit of its own: it ends on `stop`,
    /// `ponderhit` or the end of input (infinite, ponder, a bare `go`).
    open_ended: bool,
}

impl SearchThread {
    pub fn new() -> SearchThread {
        SearchThread {
            signals: Arc::new(Signals::new()),
            mate_stop: Arc::new(AtomicBool::new(false)),
            silence: Arc::new(AtomicBool::new(false)),
            handle: None,
            answered: Arc::new(AtomicBool::new(false)),
            open_ended: false,
        }
    }

    /// Runs `search` on its own thread: it sends its `info` lines as they come
    /// and returns the answer's lines, sent unless `gameover` or `quit` came
    /// meanwhile. `open_ended`: it ends only when told (see `end_of_input`).
    pub fn start(
        &mut self,
        open_ended: bool,
        search: impl FnOnce() -> Vec<String> + Send + 'static,
    ) {
        self.open_ended = open_ended;
        self.silence.store(false, Ordering::SeqCst);
        let silence = Arc::clone(&self.silence);
        let answered = Arc::clone(&self.answered);
        answered.store(false, Ordering::SeqCst);
        self.handle = Some(std::thread::spawn(move || {
            let answer = search();
            // Before the answer: a GUI that has read it finds the search done.
            answered.store(true, Ordering::SeqCst);
            if !silence.load(Ordering::SeqCst) {
                for line in &answer {
                    send(line);
                }
            }
        }));
    }

    /// Whether a search is running; one that has answered is joined.
    pub fn is_running(&mut self) -> bool {
        match &self.handle {
            Some(handle) if handle.is_finished() || self.answered.load(Ordering::SeqCst) => {
                if let Some(handle) = self.handle.take() {
                    let _ = handle.join();
                }
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Stops the running search (if any) and waits for it; `silent`: no answer.
    pub fn finish(&mut self, silent: bool) {
        if let Some(handle) = self.handle.take() {
            if silent {
                self.silence.store(true, Ordering::SeqCst);
            }
            self.signals.stop();
            self.mate_stop.store(true, Ordering::SeqCst);
            let _ = handle.join();
        }
    }

    /// The input ended (a script piped its commands): lets a search with limits
    /// finish and answer, stops an open-ended one (it answers at once).
    pub fn end_of_input(&mut self) {
        if let Some(handle) = self.handle.take() {
            if self.open_ended {
                self.signals.stop();
                self.mate_stop.store(true, Ordering::SeqCst);
            }
            let _ = handle.join();
        }
    }
}
