//! One game, from `START` to its result, as a state machine: each event (the
//! engine's line, its end, the server's line, a deadline while the engine
//! thinks) moves our turn on ([`Turn`]) or ends the game ([`Step`]); then the
//! record is written and the tally kept.

use super::{say, Client, ClientError, GameOutcome, GameResult};
use crate::csa::clock::GameClock;
use crate::csa::link::Event;
use crate::csa::record::{self, RecordEnd, RecordMove};
use crate::csa::summary::{split_move_line, GameSummary};
use crate::csa::usi_process::{parse_bestmove, BestMove, SearchInfo};
use records::csa::{csa_move_to_move, move_to_csa, sign};
use shogi::{legal_moves, Color, Declaration, EnteringKingRule, Move, Position};
use std::time::{Duration, Instant, SystemTime};

/// A USI move (`7g7f`) as a legal move of `pos`, or `None`.
fn legal_usi_move(pos: &Position, text: &str) -> Option<Move> {
    let m = pos.parse_usi_move(text).ok()?;
    shogi::legal_moves(pos).contains(m).then_some(m)
}

/// Where our side of a game stands.
enum Turn {
    /// Nothing under way: the opponent's move is awaited (or ours is to start).
    Idle,
    /// The engine is thinking on our move.
    Thinking(Thinking),
    /// Our move is sent, until the server echoes it.
    Sent(SentMove),
}

/// What an event did to the game.
enum Step {
    /// The game goes on.
    Go,
    /// The game is over, with this result.
    End(GameResult),
}

/// A game being played.
struct Play {
    /// The game's number in the run.
    number: u32,
    me: Color,
    game: Game,
    turn: Turn,
    /// When our clock started on the current move.
    turn_start: Instant,
    /// The server's special move (`%TORYO`, …), and the result's reasons.
    special: Option<String>,
    reasons: Vec<String>,
}

impl Play {
    /// When the engine's time runs out: `stop` at first, then a fallback move;
    /// no deadline when it is not thinking.
    fn deadline(&self) -> Instant {
        match &self.turn {
            Turn::Thinking(t) if !t.stop_sent => t.stop_at,
            Turn::Thinking(t) => t.fallback_at,
            _ => Instant::now() + Duration::from_secs(3600),
        }
    }
}

/// A move we sent, until the server echoes it with its time.
struct SentMove {
    csa: String,
    measured_ms: u64,
    comment: Option<String>,
}

/// The engine thinking on our move.
struct Thinking {
    info: SearchInfo,
    stop_at: Instant,
    fallback_at: Instant,
    stop_sent: bool,
}

impl Client {
    // ---- the game ------------------------------------------------------------

    /// Plays a game from `START` to its result; `Err` only for a record that cannot
    /// be written. A state machine: each event (the engine's line, its end, the
    /// server's line, a deadline while the engine thinks) moves our turn on (see
    /// [`Turn`]) or ends the game.
    pub(super) fn play(
        &mut self,
        number: u32,
        summary: &GameSummary,
    ) -> Result<GameOutcome, ClientError> {
        let me = summary.my_color;
        let start_time = SystemTime::now();
        say(&format!(
            "game {number}/{}: {} — {} (+) vs {} (-), we play {}, {}{}",
            self.s.games,
            summary.game_id,
            summary.names[0],
            summary.names[1],
            sign(me),
            summary.time[me.index()].describe(),
            if summary.moves.is_empty() {
                String::new()
            } else {
                format!(", from move {}", summary.moves.len() + 1)
            }
        ));
        let mut play = Play {
            number,
            me,
            game: Game::new(summary),
            turn: Turn::Idle,
            turn_start: Instant::now(),
            special: None,
            reasons: Vec::new(),
        };
        let result = loop {
            self.begin_turn(&mut play);
            let Some(event) = self.next_event(play.deadline()) else {
                self.on_deadline(&mut play);
                continue;
            };
            let step = match event {
                Event::Engine { line, .. } => self.on_engine_line(&mut play, &line),
                Event::EngineGone { .. } => self.on_engine_gone(&mut play),
                Event::ServerClosed { reason, .. } => {
                    say(&format!("connection lost during the game: {reason}"));
                    Step::End(GameResult::Disconnected)
                }
                Event::Server { line, .. } => self.on_server_line(&mut play, summary, &line),
            };
            if let Step::End(result) = step {
                break result;
            }
        };
        self.finish_game(play, summary, start_time, result)
    }

    /// Our move to make and nothing under way: the engine starts thinking (or,
    /// without an engine or a legal move, we resign).
    fn begin_turn(&mut self, play: &mut Play) {
        let ours = play.game.pos.side_to_move() == play.me;
        if !matches!(play.turn, Turn::Idle) || play.game.desync || !ours {
            return;
        }
        play.turn = match self.start_thinking(&play.game, play.turn_start) {
            Ok(thinking) => Turn::Thinking(thinking),
            Err(line) => {
                self.send_server(&line);
                Turn::Sent(SentMove { csa: line, measured_ms: 0, comment: None })
            }
        };
    }

    /// A deadline passed while the engine thinks: first `stop`, then a move of
    /// our own choosing.
    fn on_deadline(&mut self, play: &mut Play) {
        let Turn::Thinking(thinking) = &mut play.turn else { return };
        if !thinking.stop_sent {
            thinking.stop_sent = true;
            self.transcript.note("engine late: stop");
            self.engine_send("stop");
            return;
        }
        let info = thinking.info.clone();
        self.stale_bestmoves += 1;
        self.transcript.note("engine too late: playing a fallback move");
        play.turn = Turn::Sent(self.send_fallback(&play.game, &info, play.turn_start));
    }

    /// An engine line: what it reports while thinking, and its `bestmove`.
    fn on_engine_line(&mut self, play: &mut Play, line: &str) -> Step {
        if line.starts_with("bestmove") && self.stale_bestmoves > 0 {
            self.stale_bestmoves -= 1;
            return Step::Go;
        }
        let Turn::Thinking(thinking) = &mut play.turn else { return Step::Go };
        thinking.info.update(line);
        if let Some(best) = parse_bestmove(line) {
            let info = thinking.info.clone();
            play.turn = Turn::Sent(self.answer(&play.game, best, &info, play.turn_start));
        }
        Step::Go
    }

    /// The engine is gone: a move it was thinking on is resigned.
    fn on_engine_gone(&mut self, play: &mut Play) -> Step {
        self.engine = None;
        say("the engine has stopped");
        if matches!(play.turn, Turn::Thinking(_)) {
            self.send_server("%TORYO");
            play.turn =
                Turn::Sent(SentMove { csa: "%TORYO".to_string(), measured_ms: 0, comment: None });
        }
        Step::Go
    }

    /// A server line: a move (ours echoed, or the opponent's), a special move, a
    /// result, or a notice.
    fn on_server_line(&mut self, play: &mut Play, summary: &GameSummary, line: &str) -> Step {
        let line = line.trim_end();
        if line.is_empty() {
            return Step::Go;
        }
        if line.starts_with('+') || line.starts_with('-') {
            self.on_move(play, summary, line);
            return Step::Go;
        }
        if line.starts_with('%') {
            play.special = Some(line.to_string());
            return Step::Go;
        }
        let result = match line {
            "#WIN" => GameResult::Win,
            "#LOSE" => GameResult::Lose,
            "#DRAW" => GameResult::Draw,
            "#CENSORED" => GameResult::Censored,
            "#CHUDAN" => {
                play.reasons.push(line.to_string());
                GameResult::Interrupted
            }
            l if is_reason(l) => {
                play.reasons.push(line.to_string());
                return Step::Go;
            }
            _ => {
                self.transcript.note(&format!("ignored: {line}"));
                return Step::Go;
            }
        };
        Step::End(result)
    }

    /// A move line from the server, with the time it charged: the game follows
    /// it, ours matched against what we sent (its comment and measured time).
    fn on_move(&mut self, play: &mut Play, summary: &GameSummary, line: &str) {
        let (text, time) = split_move_line(line);
        let mover = if line.starts_with('+') { Color::Black } else { Color::White };
        let ours = mover == play.me;
        let mut comment = None;
        let mut measured = None;
        if ours {
            match std::mem::replace(&mut play.turn, Turn::Idle) {
                Turn::Sent(s) if s.csa == text => {
                    comment = s.comment;
                    measured = Some(s.measured_ms);
                }
                Turn::Sent(s) => {
                    self.transcript.note(&format!("server reports {text} for our {}", s.csa));
                }
                other => {
                    play.turn = other;
                    self.transcript.note(&format!("server reports {text}, which we did not send"));
                }
            }
        }
        match play.game.apply(text, time, comment) {
            Ok(()) => {
                let t = time.unwrap_or(0);
                if ours {
                    if let Some(ms) = measured {
                        self.margin.observe(&summary.time[play.me.index()], ms, t);
                    }
                } else {
                    play.turn_start = Instant::now();
                }
                self.print_move(play.number, &play.game, text, time, ours);
            }
            Err(e) => {
                say(&format!("cannot follow the game: {e}; waiting for the result"));
                self.transcript.note(&format!("desync: {e}"));
                play.game.desync = true;
            }
        }
    }

    /// The game is over: the engine told, the record written, the tally kept.
    fn finish_game(
        &mut self,
        play: Play,
        summary: &GameSummary,
        start_time: SystemTime,
        result: GameResult,
    ) -> Result<GameOutcome, ClientError> {
        let Play { number, me, game, turn, special, reasons, .. } = play;
        if matches!(turn, Turn::Thinking(_)) {
            self.engine_send("stop");
            self.stale_bestmoves += 1;
        }
        self.engine_send(&format!("gameover {}", result.gameover()));
        let end_time = SystemTime::now();
        let last = RecordEnd {
            special: record_special(special.as_deref(), &reasons, result),
            result: format!(
                "result: {} for {} ({}){}",
                result.word(),
                self.s.id,
                sign(me),
                if reasons.is_empty() { String::new() } else { format!(" {}", reasons.join(" ")) }
            ),
        };
        std::fs::create_dir_all(&self.s.records_dir).map_err(|e| {
            ClientError::File(format!("cannot make {}: {e}", self.s.records_dir.display()))
        })?;
        let path = record::path_for(&self.s.records_dir, &summary.game_id);
        let text = record::render(summary, &game.record, start_time, end_time, &last);
        std::fs::write(&path, text)
            .map_err(|e| ClientError::File(format!("cannot write {}: {e}", path.display())))?;
        self.tally.games += 1;
        match result {
            GameResult::Win => self.tally.wins += 1,
            GameResult::Lose => self.tally.losses += 1,
            GameResult::Draw => self.tally.draws += 1,
            _ => self.tally.other += 1,
        }
        say(&format!(
            "game {number}/{} over: {} {} after {} moves; time left + {:.0} s, - {:.0} s; record {}",
            self.s.games,
            result.word(),
            reasons.join(" "),
            game.record.len(),
            game.clock.remaining_ms(Color::Black) as f64 / 1000.0,
            game.clock.remaining_ms(Color::White) as f64 / 1000.0,
            path.display()
        ));
        Ok(GameOutcome { result })
    }

    fn print_move(&self, number: u32, game: &Game, text: &str, time: Option<u64>, ours: bool) {
        let t = time.map_or("T?".to_string(), |t| format!("T{t}"));
        let eval = match (ours, game.record.last().and_then(|m| m.comment.as_ref())) {
            (true, Some(c)) => {
                format!("  {}", c.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            }
            _ => String::new(),
        };
        say(&format!(
            "[{number}] {:3} {text} {t:<5} clock + {:.1} s  - {:.1} s{}{eval}",
            game.record.len(),
            game.clock.remaining_ms(Color::Black) as f64 / 1000.0,
            game.clock.remaining_ms(Color::White) as f64 / 1000.0,
            if ours {
                format!("  margin {:.2} s", self.margin.total_ms() as f64 / 1000.0)
            } else {
                String::new()
            },
        ));
    }

    /// Sends `position` and `go` for our move; the line to send instead when the
    /// engine cannot be asked (`%TORYO`).
    fn start_thinking(&mut self, game: &Game, turn_start: Instant) -> Result<Thinking, String> {
        if self.engine.is_none() || legal_moves(&game.pos).is_empty() {
            return Err("%TORYO".to_string());
        }
        let me = game.pos.side_to_move();
        let margin = self.margin.total_ms();
        let position = game.usi_position();
        let (go, allowance) = if game.clock.is_timed(me) {
            let (b, w, byo, mut binc, mut winc) = game.clock.go_times(me, margin);
            if !self.s.usi_increment {
                (binc, winc) = (0, 0);
            }
            let mut go = format!("go btime {b} wtime {w}");
            if byo > 0 || (binc == 0 && winc == 0) {
                go.push_str(&format!(" byoyomi {byo}"));
            }
            if binc > 0 || winc > 0 {
                go.push_str(&format!(" binc {binc} winc {winc}"));
            }
            (go, game.clock.allowance_ms(me))
        } else {
            let ms = self.s.untimed_move_ms;
            (format!("go btime 0 wtime 0 byoyomi {ms}"), ms + margin)
        };
        self.engine_send(&position);
        self.engine_send(&go);
        let allowance = Duration::from_millis(allowance);
        let m = Duration::from_millis(margin);
        Ok(Thinking {
            info: SearchInfo::default(),
            stop_at: turn_start + allowance.saturating_sub(m / 2),
            fallback_at: turn_start + allowance.saturating_sub(m / 4),
            stop_sent: false,
        })
    }

    /// Sends the engine's answer: the move, `%TORYO` or `%KACHI`. A move that is
    /// not legal, or a declaration that does not win, is replaced by a legal move.
    fn answer(
        &mut self,
        game: &Game,
        best: BestMove,
        info: &SearchInfo,
        turn_start: Instant,
    ) -> SentMove {
        let measured_ms = turn_start.elapsed().as_millis() as u64;
        match best {
            BestMove::Resign => {
                self.send_server("%TORYO");
                SentMove { csa: "%TORYO".to_string(), measured_ms, comment: None }
            }
            BestMove::Win => {
                let wins = [EnteringKingRule::Point27, EnteringKingRule::Point24]
                    .iter()
                    .any(|&r| game.pos.declaration(r) == Some(Declaration::Win));
                if wins {
                    self.send_server("%KACHI");
                    SentMove { csa: "%KACHI".to_string(), measured_ms, comment: None }
                } else {
                    say("the engine declared a win that the position does not give; playing a move instead");
                    self.send_fallback(game, info, turn_start)
                }
            }
            BestMove::Move(usi) => match legal_usi_move(&game.pos, &usi) {
                Some(m) => self.send_move(game, m, info, measured_ms),
                None => {
                    say(&format!("the engine's move {usi} is not legal here; playing another"));
                    self.send_fallback(game, info, turn_start)
                }
            },
        }
    }

    /// A legal move when the engine's answer cannot be used: the first move of its
    /// last line if legal, else the first legal move, else `%TORYO`.
    fn send_fallback(&mut self, game: &Game, info: &SearchInfo, turn_start: Instant) -> SentMove {
        let measured_ms = turn_start.elapsed().as_millis() as u64;
        let from_pv = info.pv.first().and_then(|u| legal_usi_move(&game.pos, u));
        match from_pv.or_else(|| legal_moves(&game.pos).iter().next().copied()) {
            Some(m) => self.send_move(game, m, &SearchInfo::default(), measured_ms),
            None => {
                self.send_server("%TORYO");
                SentMove { csa: "%TORYO".to_string(), measured_ms, comment: None }
            }
        }
    }

    fn send_move(&mut self, game: &Game, m: Move, info: &SearchInfo, measured_ms: u64) -> SentMove {
        let csa = move_to_csa(&game.pos, m);
        let comment = if self.s.eval_comment { eval_comment(&game.pos, m, info) } else { None };
        match &comment {
            Some(c) => self.send_server(&format!("{csa},'{c}")),
            None => self.send_server(&csa),
        };
        SentMove { csa, measured_ms, comment }
    }
}

/// Floodgate's evaluation comment for our move `m` in `pos`: `* <score> <pv>`,
/// the score in centipawns from Black's side, the line after `m` in CSA
/// notation (as far as it is legal). `None` when the engine gave no score.
pub fn eval_comment(pos: &Position, m: Move, info: &SearchInfo) -> Option<String> {
    let score = info.score?;
    let black_score = if pos.side_to_move() == Color::Black { score } else { -score };
    let mut text = format!("* {black_score}");
    if info.pv.first().map(String::as_str) == Some(m.to_usi().as_str()) {
        let mut p = pos.clone();
        p.do_move(m);
        for usi in info.pv.iter().skip(1) {
            let Some(next) = legal_usi_move(&p, usi) else { break };
            text.push(' ');
            text.push_str(&move_to_csa(&p, next));
            p.do_move(next);
        }
    }
    Some(text)
}

/// A result line's reason (`#RESIGN`, `#TIME_UP`, …): `#` and capitals; `##[…]`
/// lines are the server's chat and notices.
fn is_reason(line: &str) -> bool {
    line.strip_prefix('#')
        .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
}

/// The special move closing the record: what the server sent (`%TORYO`,
/// `%KACHI`) or what the reason line names.
fn record_special(special: Option<&str>, reasons: &[String], result: GameResult) -> Option<String> {
    if let Some(s) = special {
        return Some(s.to_string());
    }
    let named = reasons.iter().find_map(|r| match r.as_str() {
        "#RESIGN" => Some("%TORYO"),
        "#TIME_UP" => Some("%TIME_UP"),
        "#SENNICHITE" => Some("%SENNICHITE"),
        "#OUTE_SENNICHITE" => Some("%OUTE_SENNICHITE"),
        "#ILLEGAL_MOVE" => Some("%ILLEGAL_MOVE"),
        "#JISHOGI" => Some("%KACHI"),
        "#MAX_MOVES" => Some("%MAX_MOVES"),
        "#CHUDAN" => Some("%CHUDAN"),
        _ => None,
    });
    match (named, result) {
        (Some(s), _) => Some(s.to_string()),
        (None, GameResult::Disconnected) => Some("%CHUDAN".to_string()),
        _ => None,
    }
}

/// The game as it stands: the position, the moves with their times, the clock.
struct Game {
    initial_sfen: String,
    usi_moves: Vec<String>,
    pos: Position,
    clock: GameClock,
    record: Vec<RecordMove>,
    /// A server move we could not read: we no longer know the position, so we
    /// send nothing until the result.
    desync: bool,
}

impl Game {
    fn new(summary: &GameSummary) -> Game {
        let mut game = Game {
            initial_sfen: summary.initial.to_sfen(),
            usi_moves: Vec::new(),
            pos: summary.initial.clone(),
            clock: GameClock::new(summary.time),
            record: Vec::new(),
            desync: false,
        };
        for m in &summary.moves {
            let mover = game.pos.side_to_move();
            if let Some(t) = m.time {
                game.clock.charge(mover, t);
            }
            game.usi_moves.push(m.mv.to_usi());
            game.pos.do_move(m.mv);
            game.record.push(RecordMove { mv: m.mv, time: m.time, comment: None });
        }
        game
    }

    /// Plays a move the server reported.
    fn apply(
        &mut self,
        text: &str,
        time: Option<u64>,
        comment: Option<String>,
    ) -> Result<(), String> {
        if self.desync {
            return Err("lost track of the position earlier".to_string());
        }
        let m = csa_move_to_move(&self.pos, text).map_err(|e| e.to_string())?;
        let mover = self.pos.side_to_move();
        self.clock.charge(mover, time.unwrap_or(0));
        self.usi_moves.push(m.to_usi());
        self.pos.do_move(m);
        self.record.push(RecordMove { mv: m, time, comment });
        Ok(())
    }

    fn usi_position(&self) -> String {
        if self.usi_moves.is_empty() {
            format!("position sfen {}", self.initial_sfen)
        } else {
            format!("position sfen {} moves {}", self.initial_sfen, self.usi_moves.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_comments_are_from_blacks_side_with_the_line_after_the_move() {
        shogi::attacks::init();
        let mut pos = Position::startpos();
        let m = legal_usi_move(&pos, "7g7f").unwrap();
        let info = SearchInfo {
            depth: Some(5),
            score: Some(30),
            pv: vec!["7g7f".into(), "3c3d".into(), "2g2f".into(), "xx".into()],
        };
        assert_eq!(eval_comment(&pos, m, &info).as_deref(), Some("* 30 -3334FU +2726FU"));
        pos.do_move(m);
        let reply = legal_usi_move(&pos, "3c3d").unwrap();
        let info = SearchInfo { depth: Some(5), score: Some(-50), pv: vec!["8c8d".into()] };
        assert_eq!(eval_comment(&pos, reply, &info).as_deref(), Some("* 50"));
        assert_eq!(eval_comment(&pos, reply, &SearchInfo::default()), None);
    }

    #[test]
    fn reasons_are_told_from_notices() {
        assert!(is_reason("#RESIGN") && is_reason("#OUTE_SENNICHITE"));
        assert!(!is_reason("##[MONITOR] x") && !is_reason("#") && !is_reason("#win"));
    }

    #[test]
    fn the_record_ends_with_the_special_move() {
        assert_eq!(record_special(Some("%TORYO"), &[], GameResult::Win).as_deref(), Some("%TORYO"));
        assert_eq!(
            record_special(None, &["#TIME_UP".into()], GameResult::Lose).as_deref(),
            Some("%TIME_UP")
        );
        assert_eq!(
            record_special(None, &["#MAX_MOVES".into()], GameResult::Censored).as_deref(),
            Some("%MAX_MOVES")
        );
        assert_eq!(record_special(None, &[], GameResult::Disconnected).as_deref(), Some("%CHUDAN"));
        assert_eq!(record_special(None, &[], GameResult::Draw), None);
    }
}
