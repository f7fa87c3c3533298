//! Games on the page: shogi against Kyobo's search (any side, time per move,
//! handicap starts) and Dobutsu shogi against the perfect player (the database
//! when there is one, else a search). One game at a time; the engine thinks on
//! a thread of its own and tells the page what it thinks as it goes.

use super::events::Events;
use super::ApiError;
use crate::analyse_cmd::win_chance;
use dobutsu::solve::{Database, Value as DobutsuValue};
use dobutsu::Dobutsu;
use records::{EndReason, Ending, Format, Handicap, HeaderKey, Record, RecordMove, Start};
use search::engine::Signals;
use search::value::Score;
use search::{Engine, Limits};
use serde_json::{json, Value};
use shogi::position::Repetition;
use shogi::{Color, Position};
use shogi_game::ShogiGame;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// A shogi game ends as a draw at this many plies (as floodgate's 256 moves
/// each).
pub const MAX_PLIES: usize = 512;
/// The times per move the page offers, in milliseconds.
pub const MOVETIMES: [u64; 4] = [300, 1000, 3000, 10_000];

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Shogi,
    Dobutsu,
}

/// How a game ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: String,
    /// How a shogi record writes the ending.
    pub ending: Option<EndReason>,
}

/// The moves so far.
enum Moves {
    Shogi { start: Start, pos: Box<Position>, played: Vec<shogi::Move> },
    Dobutsu { start: String, game: Dobutsu, played: Vec<dobutsu::Move> },
}

/// The game being played.
struct Game {
    id: u64,
    moves: Moves,
    human: Color,
    movetime: Duration,
    over: Option<Outcome>,
    /// Set while the engine thinks, to stop it (take-back, resignation).
    thinking: Option<Arc<Signals>>,
    /// Bumped at every change: an engine's answer found on another turn is
    /// dropped.
    turn: u64,
}

/// What a page asks for when it starts a game.
#[derive(Debug, serde::Deserialize)]
pub struct NewGame {
    /// `shogi` or `dobutsu`.
    pub variant: String,
    /// The person's side: `black` (sente, 下手 in a handicap game) or `white`.
    pub side: String,
    /// Milliseconds a move for the engine.
    pub movetime_ms: u64,
    /// A shogi start by its KIF name (平手, 香落ち, 角落ち, …); absent is 平手.
    #[serde(default)]
    pub handicap: Option<String>,
    /// A start position instead (SFEN; in shogi with both kings).
    #[serde(default)]
    pub sfen: Option<String>,
}

/// The games, their engines and where the engine's thoughts go.
pub struct Play {
    game: Mutex<Option<Game>>,
    shogi: Mutex<Engine<ShogiGame>>,
    dobutsu: Mutex<Engine<Dobutsu>>,
    db: Option<Database>,
    events: Arc<Events>,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn dobutsu_side(c: dobutsu::Color) -> Color {
    match c {
        dobutsu::Color::Sente => Color::Black,
        dobutsu::Color::Gote => Color::White,
    }
}

impl Play {
    /// `hash_mb` for the shogi engine's table; `db` plays Dobutsu perfectly.
    ///
    /// # Errors
    /// A table that cannot be allocated.
    pub fn new(hash_mb: usize, db: Option<Database>, events: Arc<Events>) -> Result<Play, String> {
        let mut shogi: Engine<ShogiGame> = Engine::new(1, 1);
        shogi.try_set_hash_mb(hash_mb).map_err(|e| format!("--hash {hash_mb}: {e}"))?;
        Ok(Play {
            game: Mutex::new(None),
            shogi: Mutex::new(shogi),
            dobutsu: Mutex::new(Engine::new(16, 1)),
            db,
            events,
        })
    }

    fn lock(&self) -> Result<MutexGuard<'_, Option<Game>>, ApiError> {
        self.game.lock().map_err(|_| ApiError::internal("the game's state is lost"))
    }

    /// Starts a game; refused while another is being played.
    ///
    /// # Errors
    /// A game in progress, or a request the page should not have sent.
    pub fn start(self: &Arc<Play>, request: &NewGame) -> Result<Value, ApiError> {
        let variant = match request.variant.as_str() {
            "shogi" => Variant::Shogi,
            "dobutsu" => Variant::Dobutsu,
            other => return Err(ApiError::bad(format!("no game called '{other}'"))),
        };
        let human = match request.side.as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            other => return Err(ApiError::bad(format!("no side called '{other}' (black, white)"))),
        };
        if !MOVETIMES.contains(&request.movetime_ms) {
            return Err(ApiError::bad(format!(
                "{} ms a move is not offered ({})",
                request.movetime_ms,
                MOVETIMES.map(|t| t.to_string()).join(", ")
            )));
        }
        let moves = match variant {
            Variant::Shogi => {
                let start = shogi_start(request)?;
                let pos = Position::from_sfen(start.sfen())
                    .map_err(|e| ApiError::internal(format!("{}: {e}", start.sfen())))?;
                Moves::Shogi { start, pos: Box::new(pos), played: Vec::new() }
            }
            Variant::Dobutsu => {
                let game = match request.sfen.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
                    Some(text) => Dobutsu::from_sfen(text.strip_prefix("sfen ").unwrap_or(text))
                        .map_err(|e| ApiError::bad(format!("SFEN: {e}")))?,
                    None => Dobutsu::default(),
                };
                Moves::Dobutsu { start: game.to_sfen(), game, played: Vec::new() }
            }
        };
        let mut slot = self.lock()?;
        if let Some(g) = slot.as_ref() {
            if g.over.is_none() {
                return Err(ApiError::conflict(
                    "a game is in progress: resign it or finish it before starting another",
                ));
            }
        }
        if variant == Variant::Shogi {
            if let Ok(mut engine) = self.shogi.lock() {
                engine.clear();
            }
        }
        let id = slot.as_ref().map_or(1, |g| g.id + 1);
        let movetime = Duration::from_millis(request.movetime_ms);
        *slot = Some(Game { id, moves, human, movetime, over: None, thinking: None, turn: 0 });
        self.after_change(&mut slot);
        Ok(self.state_of(&slot))
    }

    /// The game as the page draws it (`{"game": null}` before the first).
    pub fn state(&self) -> Result<Value, ApiError> {
        let slot = self.lock()?;
        Ok(self.state_of(&slot))
    }

    fn state_of(&self, slot: &Option<Game>) -> Value {
        let Some(g) = slot else { return json!({ "game": null }) };
        let (variant, sfen, to_move, legal, moves, start) = match &g.moves {
            Moves::Shogi { start, pos, played } => {
                let legal: Vec<String> =
                    shogi::movegen::legal_moves(pos).iter().map(|m| m.to_usi()).collect();
                let mut p = Position::from_sfen(start.sfen()).unwrap_or_else(|_| (**pos).clone());
                let mut prev = None;
                let moves: Vec<Value> = played
                    .iter()
                    .map(|&m| {
                        let text = records::japanese(&p, m, prev);
                        p.do_move(m);
                        prev = Some(m);
                        json!({ "usi": m.to_usi(), "text": text })
                    })
                    .collect();
                let start = start.handicap().map_or("SFEN", Handicap::kif_name);
                ("shogi", pos.to_sfen(), pos.side_to_move(), legal, moves, start)
            }
            Moves::Dobutsu { game, played, .. } => {
                let pos = game.position();
                let mut legal = Vec::new();
                if pos.end().is_none() {
                    pos.legal_moves(&mut legal);
                }
                let legal = legal.iter().map(|m| m.to_string()).collect();
                let moves = played
                    .iter()
                    .map(|m| json!({ "usi": m.to_string(), "text": m.long_notation() }))
                    .collect();
                ("dobutsu", game.to_sfen(), dobutsu_side(pos.side_to_move()), legal, moves, "")
            }
        };
        let yours = g.over.is_none() && g.thinking.is_none() && to_move == g.human;
        json!({ "game": {
            "id": g.id,
            "turn": g.turn,
            "variant": variant,
            "start": start,
            "human": side_name(g.human),
            "to_move": side_name(to_move),
            "sfen": sfen,
            "movetime_ms": g.movetime.as_millis() as u64,
            "thinking": g.thinking.is_some(),
            "legal": if yours { legal } else { Vec::new() },
            "moves": moves,
            "opponent": self.opponent_name(variant),
            "over": g.over.as_ref().map(|o| json!({
                "result": match o.winner {
                    None => "draw",
                    Some(w) if w == g.human => "win",
                    Some(_) => "loss",
                },
                "reason": o.reason,
            })),
        }})
    }

    fn opponent_name(&self, variant: &str) -> &'static str {
        match (variant, &self.db) {
            ("dobutsu", Some(_)) => "the perfect player (database)",
            ("dobutsu", None) => "Kyobo's search (no database)",
            _ => "Kyobo",
        }
    }

    /// The person's move (USI notation); a move that is not legal is refused
    /// with the rule it breaks.
    ///
    /// # Errors
    /// No game, not the person's turn, or an illegal move.
    pub fn human_move(self: &Arc<Play>, text: &str) -> Result<Value, ApiError> {
        let mut slot = self.lock()?;
        let g = slot.as_mut().ok_or_else(|| ApiError::bad("no game: start one first"))?;
        if let Some(o) = &g.over {
            return Err(ApiError::bad(format!("the game is over: {}", o.reason)));
        }
        if g.thinking.is_some() {
            return Err(ApiError::bad("wait for the engine's move"));
        }
        match &mut g.moves {
            Moves::Shogi { pos, played, .. } => {
                if pos.side_to_move() != g.human {
                    return Err(ApiError::bad("it is not your turn"));
                }
                let m = pos.parse_usi_move(text).map_err(|e| ApiError::bad(e.to_string()))?;
                pos.do_move(m);
                played.push(m);
            }
            Moves::Dobutsu { game, played, .. } => {
                if dobutsu_side(game.position().side_to_move()) != g.human {
                    return Err(ApiError::bad("it is not your turn"));
                }
                let m = game.play_usi(text).map_err(|e| ApiError::bad(e.to_string()))?;
                played.push(m);
            }
        }
        self.after_change(&mut slot);
        Ok(self.state_of(&slot))
    }

    /// Takes back the person's last move and the engine's reply (stopping the
    /// engine if it is thinking).
    ///
    /// # Errors
    /// No game, or no move of the person's to take back.
    pub fn undo(self: &Arc<Play>) -> Result<Value, ApiError> {
        let mut slot = self.lock()?;
        let g = slot.as_mut().ok_or_else(|| ApiError::bad("no game: start one first"))?;
        let human = g.human;
        let took_back = match &mut g.moves {
            Moves::Shogi { start, pos, played } => {
                let start_pos = Position::from_sfen(start.sfen())
                    .map_err(|e| ApiError::internal(e.to_string()))?;
                let keep = last_turn_of(human, start_pos.side_to_move(), played.len());
                keep.map(|n| {
                    let mut p = start_pos;
                    for &m in &played[..n] {
                        p.do_move(m);
                    }
                    played.truncate(n);
                    **pos = p;
                })
            }
            Moves::Dobutsu { start, game, played } => {
                let first =
                    if start.split(' ').nth(1) == Some("w") { Color::White } else { Color::Black };
                let keep = last_turn_of(human, first, played.len());
                keep.map(|n| {
                    while played.len() > n {
                        if let Some(m) = played.pop() {
                            game.undo(m);
                        }
                    }
                })
            }
        };
        if took_back.is_none() {
            return Err(ApiError::bad("nothing to take back"));
        }
        if let Some(signals) = g.thinking.take() {
            signals.stop();
        }
        g.over = None;
        self.after_change(&mut slot);
        Ok(self.state_of(&slot))
    }

    /// The person resigns.
    ///
    /// # Errors
    /// No game, or one already over.
    pub fn resign(self: &Arc<Play>) -> Result<Value, ApiError> {
        self.end_by_person(false)
    }

    /// The person declares a win by entering king (入玉宣言), refused where the
    /// rule's conditions do not hold.
    ///
    /// # Errors
    /// No game, a Dobutsu game, or a declaration the rule refuses.
    pub fn declare(self: &Arc<Play>) -> Result<Value, ApiError> {
        self.end_by_person(true)
    }

    fn end_by_person(self: &Arc<Play>, declaring: bool) -> Result<Value, ApiError> {
        let mut slot = self.lock()?;
        let g = slot.as_mut().ok_or_else(|| ApiError::bad("no game: start one first"))?;
        if let Some(o) = &g.over {
            return Err(ApiError::bad(format!("the game is over: {}", o.reason)));
        }
        let engine = g.human.flip();
        g.over = Some(if declaring {
            let Moves::Shogi { pos, .. } = &g.moves else {
                return Err(ApiError::bad("Dobutsu shogi has no declaration"));
            };
            if pos.side_to_move() != g.human || g.thinking.is_some() {
                return Err(ApiError::bad("declare on your own turn"));
            }
            if !ShogiGame::new((**pos).clone()).declaration_wins() {
                return Err(ApiError::bad(
                    "the declaration's conditions do not hold (king in the last three ranks, \
                     not in check, ten pieces there, 28 points for Black or 27 for White; \
                     see the 24-point rule)",
                ));
            }
            Outcome {
                winner: Some(g.human),
                reason: "you declared an entering-king win".into(),
                ending: Some(EndReason::DeclareWin),
            }
        } else {
            Outcome {
                winner: Some(engine),
                reason: "you resigned".into(),
                ending: Some(EndReason::Resign),
            }
        });
        if let Some(signals) = g.thinking.take() {
            signals.stop();
        }
        g.turn += 1;
        let state = self.state_of(&slot);
        self.events.send(&json!({ "type": "state", "state": state }));
        Ok(state)
    }

    /// The game's record: shogi as KIF (Shift_JIS) or CSA; Dobutsu as its
    /// start and moves in Kyobo's notation (`position sfen … moves …`).
    ///
    /// # Errors
    /// No game, or a format the game has no record in.
    pub fn record(&self, format: &str) -> Result<(Vec<u8>, String), ApiError> {
        let slot = self.lock()?;
        let g = slot.as_ref().ok_or_else(|| ApiError::bad("no game: start one first"))?;
        match &g.moves {
            Moves::Shogi { start, played, .. } => {
                let (format, encoding, ext) = match format {
                    "kif" => (Format::Kif, records::TextEncoding::ShiftJis, "kif"),
                    "csa" => (Format::Csa, records::TextEncoding::Utf8, "csa"),
                    other => return Err(ApiError::bad(format!("no record format '{other}'"))),
                };
                let record = shogi_record(g, start.clone(), played);
                let text = records::write(&record, format);
                let bytes = records::encode(&text, encoding).map_err(|c| {
                    ApiError::internal(format!("'{c}' cannot be written in Shift_JIS"))
                })?;
                Ok((bytes, format!("kyobo-game-{}.{ext}", g.id)))
            }
            Moves::Dobutsu { start, played, .. } => {
                if format != "txt" {
                    return Err(ApiError::bad(
                        "a Dobutsu record is Kyobo's text (position sfen … moves …), not KIF or CSA",
                    ));
                }
                let moves: Vec<String> = played.iter().map(|m| m.to_string()).collect();
                let mut text = format!("position sfen {start} moves {}\n", moves.join(" "));
                if let Some(o) = &g.over {
                    text += &format!("# {}\n", o.reason);
                }
                Ok((text.into_bytes(), format!("kyobo-dobutsu-{}.txt", g.id)))
            }
        }
    }

    /// The shogi game on the board as a record, with a name for it.
    ///
    /// # Errors
    /// No game, or a Dobutsu game.
    pub fn shogi_record(&self) -> Result<(Record, String), ApiError> {
        let slot = self.lock()?;
        match slot.as_ref() {
            Some(g @ Game { moves: Moves::Shogi { start, played, .. }, .. }) => {
                Ok((shogi_record(g, start.clone(), played), format!("game {}", g.id)))
            }
            Some(_) => Err(ApiError::bad("only shogi games can be reviewed")),
            None => Err(ApiError::bad("no game: start one first")),
        }
    }

    /// After every change: the game's end if it has come, else the engine's
    /// turn started; the page told either way.
    fn after_change(self: &Arc<Play>, slot: &mut MutexGuard<'_, Option<Game>>) {
        let Some(g) = slot.as_mut() else { return };
        g.turn += 1;
        if g.over.is_none() {
            g.over = match &g.moves {
                Moves::Shogi { pos, played, .. } => shogi_outcome(pos, played.len()),
                Moves::Dobutsu { game, .. } => dobutsu_outcome(game),
            };
        }
        if g.over.is_none() && g.thinking.is_none() && to_move(&g.moves) != g.human {
            let signals = Arc::new(Signals::new());
            g.thinking = Some(signals.clone());
            let play = Arc::clone(self);
            let job = Job { id: g.id, turn: g.turn, movetime: g.movetime };
            match &g.moves {
                Moves::Shogi { pos, .. } => {
                    let pos = (**pos).clone();
                    std::thread::spawn(move || play.think_shogi(job, pos, &signals));
                }
                Moves::Dobutsu { game, .. } => {
                    let game = game.clone();
                    std::thread::spawn(move || play.think_dobutsu(job, game, &signals));
                }
            }
        }
        let state = self.state_of(slot);
        self.events.send(&json!({ "type": "state", "state": state }));
    }

    fn think_shogi(self: Arc<Play>, job: Job, pos: Position, signals: &Signals) {
        let game = ShogiGame::new(pos.clone());
        if game.declaration_wins() {
            return self.engine_answer(job, |moves| match moves {
                Moves::Shogi { pos, .. } => Some(Outcome {
                    winner: Some(pos.side_to_move()),
                    reason: "Kyobo declared an entering-king win".into(),
                    ending: Some(EndReason::DeclareWin),
                }),
                Moves::Dobutsu { .. } => None,
            });
        }
        let limits = Limits { movetime: Some(job.movetime), multipv: 1, ..Limits::default() };
        let mover = pos.side_to_move();
        let events = Arc::clone(&self.events);
        let result = match self.shogi.lock() {
            Ok(mut engine) => engine.search(&game, &limits, signals, &mut |info| {
                if info.multipv != 1 {
                    return;
                }
                let score = Score::from_value(info.score);
                let black = if mover == Color::Black { score } else { negate(score) };
                let pv = records::japanese_line(&pos, &info.pv, None);
                let text = crate::analyse_cmd::score_text(black);
                events.send(&info_event(job.id, info, text, win_chance(black), pv));
            }),
            Err(_) => return,
        };
        let Some(best) = result.best_move else { return };
        self.engine_answer(job, |moves| {
            if let Moves::Shogi { pos, played, .. } = moves {
                pos.do_move(best);
                played.push(best);
            }
            None
        });
    }

    fn think_dobutsu(self: Arc<Play>, job: Job, game: Dobutsu, signals: &Signals) {
        let pos = game.position();
        let mover = dobutsu_side(pos.side_to_move());
        let perfect = self.db.as_ref().and_then(|db| db.best(pos).ok()?.first().copied());
        let best = match perfect {
            Some((m, v)) => {
                let chance = match v {
                    DobutsuValue::Win(_) => 1.0,
                    DobutsuValue::Loss(_) => 0.0,
                    DobutsuValue::Draw => 0.5,
                };
                self.events.send(&json!({
                    "type": "info",
                    "game": job.id,
                    "score": format!("{v} for {} (perfect play)", side_name(mover)),
                    "black_chance": if mover == Color::Black { chance } else { 1.0 - chance },
                    "pv": m.long_notation(),
                }));
                m
            }
            None => {
                let limits =
                    Limits { movetime: Some(job.movetime), multipv: 1, ..Limits::default() };
                let Ok(mut engine) = self.dobutsu.lock() else { return };
                let events = Arc::clone(&self.events);
                let r = engine.search(&game, &limits, signals, &mut |info| {
                    let chance = win_chance(Score::from_value(info.score));
                    let black = if mover == Color::Black { chance } else { 1.0 - chance };
                    let text = format!(
                        "{} for {}",
                        dobutsu_score(info.score, info.depth),
                        side_name(mover)
                    );
                    let pv: Vec<String> = info.pv.iter().map(|m| m.long_notation()).collect();
                    events.send(&info_event(job.id, info, text, black, pv.join(" ")));
                });
                let Some(m) = r.best_move else { return };
                m
            }
        };
        self.engine_answer(job, |moves| {
            if let Moves::Dobutsu { game, played, .. } = moves {
                game.play(best);
                played.push(best);
            }
            None
        });
    }

    /// Plays the engine's answer (`apply` changes the moves, or ends the game
    /// with the outcome it returns) if the game is still on the turn it was
    /// asked on.
    fn engine_answer(
        self: &Arc<Play>,
        job: Job,
        apply: impl FnOnce(&mut Moves) -> Option<Outcome>,
    ) {
        let Ok(mut slot) = self.game.lock() else { return };
        let Some(g) = slot.as_mut() else { return };
        if g.id != job.id || g.turn != job.turn || g.over.is_some() {
            return;
        }
        g.thinking = None;
        if let Some(outcome) = apply(&mut g.moves) {
            g.over = Some(outcome);
        }
        self.after_change(&mut slot);
    }
}

/// An `info` event: an iteration of the engine's search as the page shows it
/// (`score` in words, Black's winning chances, the line in the game's notation).
fn info_event<M>(
    game: u64,
    info: &search::Info<M>,
    score: String,
    black_chance: f64,
    pv: String,
) -> Value {
    json!({
        "type": "info",
        "game": game,
        "depth": info.depth,
        "seldepth": info.seldepth,
        "nodes": info.nodes,
        "nps": info.nps,
        "score": score,
        "black_chance": black_chance,
        "pv": pv,
    })
}

/// A Dobutsu search's score in words: a win or loss in so many plies, else
/// chicks (a chick is 100).
fn dobutsu_score(score: search::value::Value, depth: i32) -> String {
    match DobutsuValue::from_search(score) {
        Some(v) => format!("{v} (search, depth {depth})"),
        None => format!("{:+.2} chicks (search, depth {depth})", f64::from(score) / 100.0),
    }
}

/// What the engine was asked: the game, its turn, the time.
#[derive(Clone, Copy)]
struct Job {
    id: u64,
    turn: u64,
    movetime: Duration,
}

fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    }
}

fn to_move(moves: &Moves) -> Color {
    match moves {
        Moves::Shogi { pos, .. } => pos.side_to_move(),
        Moves::Dobutsu { game, .. } => dobutsu_side(game.position().side_to_move()),
    }
}

/// How many moves to keep so that `human` is to move again having taken back
/// at least one of their own moves: `None` when they have made none.
fn last_turn_of(human: Color, first: Color, played: usize) -> Option<usize> {
    let mover = |ply: usize| if ply.is_multiple_of(2) { first } else { first.flip() };
    (0..played).rev().find(|&ply| mover(ply) == human)
}

/// The end of a shogi game, judged for the side to move: checkmate,
/// sennichite (a draw, or a loss for perpetual check), or the ply limit.
pub fn shogi_outcome(pos: &Position, plies: usize) -> Option<Outcome> {
    let us = pos.side_to_move();
    if shogi::movegen::legal_moves(pos).is_empty() {
        return Some(Outcome {
            winner: Some(us.flip()),
            reason: format!(
                "{} is checkmated",
                if us == Color::Black { "Black (☗)" } else { "White (☖)" }
            ),
            ending: Some(EndReason::Mate),
        });
    }
    match pos.sennichite() {
        Some(Repetition::LossByPerpetualCheck) => {
            return Some(Outcome {
                winner: Some(us.flip()),
                reason:
                    "the same position a fourth time, by perpetual check: the checking side loses"
                        .into(),
                ending: Some(EndReason::IllegalMove),
            })
        }
        Some(Repetition::WinByPerpetualCheck) => {
            return Some(Outcome {
                winner: Some(us),
                reason:
                    "the same position a fourth time, by perpetual check: the checking side loses"
                        .into(),
                ending: Some(EndReason::IllegalAction(us.flip())),
            })
        }
        Some(_) => {
            return Some(Outcome {
                winner: None,
                reason: "the same position a fourth time (sennichite): a draw".into(),
                ending: Some(EndReason::Sennichite),
            })
        }
        None => {}
    }
    (plies >= MAX_PLIES).then(|| Outcome {
        winner: None,
        reason: format!("{MAX_PLIES} plies: a draw"),
        ending: Some(EndReason::MaxMoves),
    })
}

/// The end of a Dobutsu game: a lion caught or a try, or the same position a
/// third time (a draw).
fn dobutsu_outcome(game: &Dobutsu) -> Option<Outcome> {
    let pos = game.position();
    let us = dobutsu_side(pos.side_to_move());
    if let Some(end) = pos.end() {
        let winner = if end.mover_wins() { us } else { us.flip() };
        let how = match end {
            dobutsu::End::CanCaptureLion | dobutsu::End::LionCaptured => "the lion is caught",
            dobutsu::End::TryAgainst | dobutsu::End::TrySurvived => {
                "a lion reached the far rank (try)"
            }
        };
        return Some(Outcome {
            winner: Some(winner),
            reason: format!(
                "{how}: {} wins",
                if winner == Color::Black { "Sente" } else { "Gote" }
            ),
            ending: None,
        });
    }
    (game.history().iter().filter(|&&p| p == pos).count() >= 2).then(|| Outcome {
        winner: None,
        reason: "the same position a third time: a draw".into(),
        ending: None,
    })
}

/// The start a page asked for: a position (SFEN) or a standard start.
fn shogi_start(request: &NewGame) -> Result<Start, ApiError> {
    if let Some(text) = request.sfen.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        let text = text.strip_prefix("sfen ").unwrap_or(text);
        let pos = Position::from_sfen(text).map_err(|e| ApiError::bad(format!("SFEN: {e}")))?;
        if pos.king_square(Color::Black).is_none() || pos.king_square(Color::White).is_none() {
            return Err(ApiError::bad("SFEN: a game needs both kings"));
        }
        let sfen = pos.to_sfen();
        return Ok(match Handicap::ALL.into_iter().find(|h| h.sfen() == sfen) {
            Some(h) => Start::Handicap(h),
            None => Start::Sfen(sfen),
        });
    }
    match request.handicap.as_deref() {
        None | Some("") => Ok(Start::Handicap(Handicap::Even)),
        Some(name) => Handicap::from_kif_name(name)
            .map(Start::Handicap)
            .ok_or_else(|| ApiError::bad(format!("no handicap called '{name}'"))),
    }
}

fn shogi_record(g: &Game, start: Start, played: &[shogi::Move]) -> Record {
    let (black, white) = if g.human == Color::Black { ("You", "Kyobo") } else { ("Kyobo", "You") };
    Record {
        headers: vec![
            (HeaderKey::BlackName, black.to_string()),
            (HeaderKey::WhiteName, white.to_string()),
            (HeaderKey::Event, "kyobo serve".to_string()),
        ],
        start,
        comments: Vec::new(),
        moves: played.iter().map(|&m| RecordMove::new(m)).collect(),
        ending: g.over.as_ref().and_then(|o| o.ending).map(Ending::new),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_take_back_returns_to_the_persons_last_turn() {
        // Black moves first; the person plays Black: plies 0, 2, 4 are theirs.
        assert_eq!(last_turn_of(Color::Black, Color::Black, 0), None);
        assert_eq!(last_turn_of(Color::Black, Color::Black, 1), Some(0));
        assert_eq!(last_turn_of(Color::Black, Color::Black, 2), Some(0));
        assert_eq!(last_turn_of(Color::Black, Color::Black, 4), Some(2));
        // A handicap game: White moves first, the person plays White.
        assert_eq!(last_turn_of(Color::White, Color::White, 3), Some(2));
        // The person plays White after Black's first move only.
        assert_eq!(last_turn_of(Color::White, Color::Black, 1), None);
        assert_eq!(last_turn_of(Color::White, Color::Black, 3), Some(1));
    }

    #[test]
    fn shogi_endings() {
        shogi::attacks::init();
        // Black's gold on 5b, protected by the pawn on 5c: White's king on 5a is mated.
        let mated = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").expect("sfen");
        let o = shogi_outcome(&mated, 10).expect("mate");
        assert_eq!(o.winner, Some(Color::Black));
        assert_eq!(o.ending, Some(EndReason::Mate));
        let start = Position::startpos();
        assert!(shogi_outcome(&start, 0).is_none());
        assert_eq!(shogi_outcome(&start, MAX_PLIES).map(|o| o.winner), Some(None));
        // Kings stepped out and back three times: the start a fourth time.
        let mut pos = Position::startpos();
        for _ in 0..3 {
            for m in ["5i4h", "5a4b", "4h5i", "4b5a"] {
                let mv = pos.parse_usi_move(m).expect("legal");
                pos.do_move(mv);
            }
        }
        let o = shogi_outcome(&pos, 12).expect("sennichite");
        assert_eq!((o.winner, o.ending), (None, Some(EndReason::Sennichite)));
    }

    #[test]
    fn dobutsu_endings() {
        let mut game = Dobutsu::default();
        assert!(dobutsu_outcome(&game).is_none());
        // Sente's chick takes Gote's chick: nothing has ended.
        game.play_usi("b3b2").expect("legal");
        assert!(dobutsu_outcome(&game).is_none());
        // Sente's chick attacks Gote's lion with Sente to move: Sente has won.
        let lion_en_prise = Dobutsu::from_sfen("1l1/1C1/3/1L1 b - 1").expect("sfen");
        let o = dobutsu_outcome(&lion_en_prise).expect("over");
        assert_eq!(o.winner, Some(Color::Black));
    }
}
