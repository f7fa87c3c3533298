//! Reviewing a record on the page: any format `kyobo convert` reads, stepped
//! through move by move, and analysed as `kyobo analyse` does (one analysis at
//! a time, its progress sent as events).

use super::events::Events;
use super::ApiError;
use crate::analyse_cmd::{judge_moves, judgement_text, mark, win_chance, Judgement};
use records::Record;
use search::{Engine, Limits};
use serde_json::{json, Value};
use shogi::{Color, Position};
use shogi_game::ShogiGame;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The analysis depths the page offers.
pub const DEPTHS: [i32; 4] = [8, 10, 12, 14];

/// The record open for review.
struct Opened {
    id: u64,
    name: String,
    record: Record,
    analysis: Option<Value>,
}

/// The review: one record open at a time, and its analysis.
pub struct Review {
    opened: Mutex<Option<Opened>>,
    analysing: AtomicBool,
    hash_mb: usize,
    events: Arc<Events>,
}

impl Review {
    pub fn new(hash_mb: usize, events: Arc<Events>) -> Review {
        Review { opened: Mutex::new(None), analysing: AtomicBool::new(false), hash_mb, events }
    }

    /// Opens a record from a file's bytes (`name` gives the format by its
    /// extension, else the content does).
    ///
    /// # Errors
    /// A record that cannot be read, with the reader's reason.
    pub fn open(&self, bytes: &[u8], name: &str) -> Result<Value, ApiError> {
        let (_, record) = records::read_bytes(bytes, Some(name))
            .map_err(|e| ApiError::bad(format!("{name}: {e}")))?;
        self.open_record(record, name.to_string())
    }

    /// Opens a record already read (a game just played).
    ///
    /// # Errors
    /// A review whose state was lost.
    pub fn open_record(&self, record: Record, name: String) -> Result<Value, ApiError> {
        let mut opened = self.lock()?;
        let id = opened.as_ref().map_or(1, |o| o.id + 1);
        *opened = Some(Opened { id, name, record, analysis: None });
        Ok(describe(opened.as_ref()))
    }

    /// The record open, its positions and its analysis (`{"review": null}`
    /// before one is opened).
    pub fn state(&self) -> Result<Value, ApiError> {
        Ok(describe(self.lock()?.as_ref()))
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Option<Opened>>, ApiError> {
        self.opened.lock().map_err(|_| ApiError::internal("the review's state is lost"))
    }

    /// Starts analysing the open record at `depth`; progress and the result
    /// come as events.
    ///
    /// # Errors
    /// No record open, one analysis already running, or a depth not offered.
    pub fn analyse(self: &Arc<Review>, depth: i32) -> Result<Value, ApiError> {
        if !DEPTHS.contains(&depth) {
            return Err(ApiError::bad(format!("depth {depth} is not offered (8, 10, 12, 14)")));
        }
        let (id, record) = {
            let opened = self.lock()?;
            let o = opened.as_ref().ok_or_else(|| ApiError::bad("open a record first"))?;
            (o.id, o.record.clone())
        };
        if record.moves.is_empty() {
            return Err(ApiError::bad("the record has no moves to analyse"));
        }
        if self.analysing.swap(true, Ordering::SeqCst) {
            return Err(ApiError::conflict("an analysis is running: wait for it to finish"));
        }
        let mut engine: Engine<ShogiGame> = Engine::new(1, 1);
        if let Err(e) = engine.try_set_hash_mb(self.hash_mb) {
            self.analysing.store(false, Ordering::SeqCst);
            return Err(ApiError::internal(format!("hash {} MiB: {e}", self.hash_mb)));
        }
        let total = record.moves.len();
        let review = Arc::clone(self);
        std::thread::spawn(move || review.run_analysis(id, &record, depth, &mut engine));
        Ok(json!({ "analysing": id, "total": total }))
    }

    fn run_analysis(&self, id: u64, record: &Record, depth: i32, engine: &mut Engine<ShogiGame>) {
        let moves = record.main_line();
        let total = moves.len();
        let limits = Limits::depth(depth);
        let events = &self.events;
        let judgements =
            judge_moves(engine, &record.start_position(), &moves, &limits, &mut |done| {
                events.send(&json!({
                    "type": "analysis-progress", "review": id, "done": done, "total": total,
                }));
            });
        let analysis = analysis_json(&judgements, depth);
        if let Ok(mut opened) = self.opened.lock() {
            if let Some(o) = opened.as_mut().filter(|o| o.id == id) {
                o.analysis = Some(analysis.clone());
            }
        }
        self.analysing.store(false, Ordering::SeqCst);
        self.events.send(&json!({ "type": "analysis", "review": id, "analysis": analysis }));
    }
}

/// The page's view of an open record: every position (as SFEN, after each
/// move), each move in Japanese notation, and the analysis when there is one.
fn describe(opened: Option<&Opened>) -> Value {
    let Some(o) = opened else { return json!({ "review": null }) };
    let mut pos: Position = o.record.start_position();
    let start = pos.to_sfen();
    let mut prev = None;
    let plies: Vec<Value> = o
        .record
        .moves
        .iter()
        .map(|rm| {
            let text = records::japanese(&pos, rm.mv, prev);
            pos.do_move(rm.mv);
            prev = Some(rm.mv);
            json!({ "usi": rm.mv.to_usi(), "text": text, "sfen": pos.to_sfen() })
        })
        .collect();
    let headers: Vec<Value> =
        o.record.headers.iter().map(|(k, v)| json!([k.kif_name(), v])).collect();
    json!({ "review": {
        "id": o.id,
        "name": o.name,
        "start": start,
        "headers": headers,
        "plies": plies,
        "ending": o.record.ending.as_ref().map(|e| format!("{:?}", e.reason)),
        "analysis": o.analysis,
    }})
}

/// The analysis as the page shows it: for each move, Black's winning chances
/// after it, its mark and the judgement in words.
fn analysis_json(judgements: &[(Position, Judgement)], depth: i32) -> Value {
    let moves: Vec<Value> = judgements
        .iter()
        .map(|(pos, j)| {
            let mover_chance = win_chance(j.played);
            let black = if j.mover == Color::Black { mover_chance } else { 1.0 - mover_chance };
            json!({
                "black_chance": black,
                "mark": mark(j.loss),
                "loss": j.loss,
                "text": judgement_text(j, pos, true),
            })
        })
        .collect();
    json!({ "depth": depth, "moves": moves })
}
