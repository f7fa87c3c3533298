//! `kyobo dobutsu`: Dobutsu shogi solved.
//!
//! - `kyobo dobutsu solve [--out FILE] [--threads N] [--sfen SFEN]`: the exact
//!   value of every position reachable from the start (or from SFEN), by
//!   retrograde analysis, with a progress bar; prints the counts of won, drawn
//!   and lost positions, the start's value and its moves', the longest win and
//!   the time, and writes the database (195 MiB from the start).
//! - `kyobo dobutsu best SFEN [--db FILE]`: every legal move with its exact
//!   value (win or loss in so many plies, or draw), best first; for a position
//!   the database does not hold, it says so and searches instead.
//! - `kyobo dobutsu play [--db FILE] [--first] [--sfen SFEN]`: a game against
//!   the engine in the terminal. With the database the engine plays perfectly
//!   (the fastest win, the longest loss); without, it searches (PVS) about a
//!   second a move.
//!
//! The database is `dobutsu.db` in the current directory unless `--out` /
//! `--db` say otherwise (see `dobutsu::solve` for its format).

use dobutsu::solve::{self, BestError, Database, DbError, Progress, Value};
use dobutsu::{Color, Dobutsu, End, Move, Position};
use indicatif::{ProgressBar, ProgressStyle};
use search::engine::Signals;
use search::{Engine, Limits};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// Where the database is by default: `dobutsu.db` in the current directory.
pub const DEFAULT_DB: &str = "dobutsu.db";

#[derive(clap::Args)]
pub struct DobutsuArgs {
    #[command(subcommand)]
    command: DobutsuCommand,
}

#[derive(clap::Subcommand)]
enum DobutsuCommand {
    /// Solve every position reachable from the start (retrograde analysis) and
    /// write the database.
    Solve(SolveArgs),
    /// Every legal move of a position with its exact value.
    Best(BestArgs),
    /// Play a game against the engine in the terminal.
    Play(PlayArgs),
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Where to write the database.
    #[arg(long, default_value = DEFAULT_DB)]
    out: PathBuf,
    /// Worker threads (default: one per processor).
    #[arg(long)]
    threads: Option<usize>,
    /// Solve what is reachable from this position instead of the start.
    #[arg(long)]
    sfen: Option<String>,
}

#[derive(clap::Args)]
struct BestArgs {
    /// The position (SFEN, e.g. `gle/1c1/1C1/ELG b - 1`; `startpos` too).
    #[arg(long)]
    sfen: String,
    /// The database.
    #[arg(long, default_value = DEFAULT_DB)]
    db: PathBuf,
}

#[derive(clap::Args)]
struct PlayArgs {
    /// The database; where the default file is missing the engine searches
    /// instead, but a file named here must be there.
    #[arg(long, default_value = DEFAULT_DB)]
    db: PathBuf,
    /// You move first (Sente); otherwise the engine opens and you play Gote.
    #[arg(long)]
    first: bool,
    /// Start from this position instead of the start.
    #[arg(long)]
    sfen: Option<String>,
    /// The engine's thinking time a move without a database, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
}

pub fn run(args: &DobutsuArgs) -> Result<(), String> {
    match &args.command {
        DobutsuCommand::Solve(a) => run_solve(a),
        DobutsuCommand::Best(a) => run_best(a),
        DobutsuCommand::Play(a) => {
            let stdin = std::io::stdin();
            let mut out = std::io::stdout();
            play(a, &mut stdin.lock(), &mut out)
        }
    }
}

/// A game from `startpos` or an SFEN (its move number kept).
fn parse_game(text: &str) -> Result<Dobutsu, String> {
    Dobutsu::from_position_text(text).map_err(|e| format!("bad SFEN '{}': {e}", text.trim()))
}

fn parse_sfen(text: &str) -> Result<Position, String> {
    parse_game(text).map(|game| game.position())
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn run_solve(args: &SolveArgs) -> Result<(), String> {
    let root = match &args.sfen {
        Some(s) => parse_sfen(s)?,
        None => Position::startpos(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let bar = ProgressBar::new(0);
    let phase = AtomicU8::new(u8::MAX);
    let style = |template: &str| ProgressStyle::with_template(template).ok();
    let styles = [
        style("{spinner} {elapsed_precise} reachable positions: {msg}"),
        style("{bar:40} {pos}/{len} {elapsed_precise} first values"),
        style("{bar:40} {pos}/{len} {elapsed_precise} {msg}"),
    ];
    let progress = |p: Progress| {
        let which = match p {
            Progress::Enumerate { .. } => 0,
            Progress::Initialise { .. } => 1,
            Progress::Retrograde { .. } => 2,
        };
        if phase.swap(which, Ordering::Relaxed) != which {
            if let Some(style) = &styles[usize::from(which)] {
                bar.set_style(style.clone());
            }
        }
        match p {
            Progress::Enumerate { pass, found, expanded } => {
                bar.set_message(format!(
                    "pass {pass}, {} found, {} expanded",
                    thousands(found),
                    thousands(expanded)
                ));
                bar.tick();
            }
            Progress::Initialise { done, total } => {
                bar.set_length(total);
                bar.set_position(done);
            }
            Progress::Retrograde { distance, found, of, resolved, total } => {
                bar.set_length(total);
                bar.set_position(resolved);
                bar.set_message(format!("distance {distance}: {found}/{of}"));
            }
        }
    };
    let started = Instant::now();
    let solution = solve::solve(root, threads, &progress).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let s = &solution.stats;
    let db = &solution.database;
    let line = crate::print_line;
    let from = if args.sfen.is_some() { "the root" } else { "the start" };
    line(&format!(
        "positions reachable from {from}: {} (side to move normalised, mirror images as one)",
        thousands(s.reachable)
    ));
    line(&format!("  with mirror images apart: {}", thousands(s.mirrors_apart)));
    line(&format!(
        "  the game over in {} (won {}, lost {}); stored: {}",
        thousands(s.over_won + s.over_lost),
        thousands(s.over_won),
        thousands(s.over_lost),
        thousands(db.stored())
    ));
    line(&format!(
        "won {}  drawn {}  lost {}  (for the side to move)",
        thousands(s.wins),
        thousands(s.draws),
        thousands(s.losses)
    ));
    line(&format!(
        "longest win {} plies, longest loss {} plies",
        s.longest_win(),
        s.longest_loss()
    ));
    line(&format!("{from}: {}", s.root));
    if let Ok(moves) = db.best(root) {
        for (m, v) in moves {
            line(&format!("  {:<8} {:<7} {v}", m.to_string(), m.long_notation()));
        }
    }
    let solved = started.elapsed();
    line(&format!(
        "time: {:.1} s on {threads} threads (reachable set {:.1} s, retrograde {:.1} s)",
        solved.as_secs_f64(),
        s.enumerate_time.as_secs_f64(),
        s.retrograde_time.as_secs_f64()
    ));
    let written = Instant::now();
    db.save(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let size = std::fs::metadata(&args.out).map_or(0, |m| m.len());
    line(&format!(
        "database written to {} ({:.0} MiB) in {:.1} s",
        args.out.display(),
        size as f64 / (1u64 << 20) as f64,
        written.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Loads the database at `path`, with a message saying how to make one.
fn load(path: &Path) -> Result<Database, String> {
    Database::load(path).map_err(|e| match e {
        DbError::Missing(_) => {
            format!("{e} (`kyobo dobutsu solve --out {}` writes it)", path.display())
        }
        e => format!("{}: {e}", path.display()),
    })
}

/// What the side to move has at the end of the game, in words.
fn describe_end(pos: Position, end: End) -> String {
    let us = pos.side_to_move();
    match end {
        End::CanCaptureLion => format!("{us} can capture {}'s lion: {us} wins", us.flip()),
        End::LionCaptured => format!("{us}'s lion has been captured: {} wins", us.flip()),
        End::TryAgainst => format!(
            "{}'s lion stands on {us}'s back rank and cannot be captured: {} wins (try)",
            us.flip(),
            us.flip()
        ),
        End::TrySurvived => format!("{us}'s lion survived on the far rank: {us} wins (try)"),
    }
}

/// A search's view of a move: the value of the position after it, for the
/// mover (a mate score as a [`Value`], else centi-chicks).
fn searched_moves(pos: Position, depth: i32) -> Vec<(Move, String, i32)> {
    let mut engine: Engine<Dobutsu> = Engine::new(16, 1);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<(Move, String, i32)> = moves
        .into_iter()
        .map(|m| {
            let child = pos.after(m);
            let (text, key) = match child.end() {
                Some(e) if e.mover_wins() => ("loss in 2".to_string(), -1_000_000 + 2),
                Some(_) => ("win in 1".to_string(), 1_000_000 - 1),
                None => {
                    let r = engine.search(
                        &Dobutsu::new(child),
                        &Limits::depth(depth),
                        &Signals::new(),
                        &mut |_| {},
                    );
                    match Value::from_search(r.score) {
                        Some(v) => (v.before().to_string(), v.before().goodness() as i32),
                        None => (format!("about {:+} (searched)", -r.score), -r.score),
                    }
                }
            };
            (m, text, key)
        })
        .collect();
    out.sort_by_key(|&(_, _, key)| std::cmp::Reverse(key));
    out
}

fn run_best(args: &BestArgs) -> Result<(), String> {
    let game = parse_game(&args.sfen)?;
    let pos = game.position();
    let line = crate::print_line;
    if let Some(end) = pos.end() {
        line(&format!("the game is over: {}", describe_end(pos, end)));
        return Ok(());
    }
    let db = load(&args.db)?;
    match db.best(pos) {
        Ok(moves) => {
            let value = db.value(pos).expect("a position best() answers is in the database");
            line(&format!("{} ({} to move): {value}", game.to_sfen(), pos.side_to_move()));
            for (m, v) in moves {
                line(&format!("{:<8} {:<7} {v}", m.to_string(), m.long_notation()));
            }
        }
        Err(BestError::NotReachable) => {
            line(&format!(
                "{} is not reachable from the database's root (or has other pieces): \
                 no exact values; a search to depth 9 says",
                game.to_sfen()
            ));
            for (m, text, _) in searched_moves(pos, 9) {
                line(&format!("{:<8} {:<7} {text}", m.to_string(), m.long_notation()));
            }
        }
        Err(BestError::GameOver(end)) => line(&format!("the game is over: {end:?}")),
    }
    Ok(())
}

/// The engine's player: the database's perfect play, else a search.
struct Opponent {
    db: Option<Database>,
    engine: Engine<Dobutsu>,
    movetime: Duration,
}

impl Opponent {
    /// The engine's move in `game` (not over) and what it thinks of it.
    fn choose(&mut self, game: &Dobutsu) -> (Move, String) {
        let pos = game.position();
        if let Some(db) = &self.db {
            if let Ok(moves) = db.best(pos) {
                if let Some(&(m, v)) = moves.first() {
                    return (m, format!("{v}, perfect play"));
                }
            }
        }
        let limits = Limits { movetime: Some(self.movetime), multipv: 1, ..Limits::default() };
        let r = self.engine.search(game, &limits, &Signals::new(), &mut |_| {});
        let m = r.best_move.expect("a position not over has a move");
        (m, score_text(r.score, r.depth))
    }

    /// What the engine thinks of `game` for the side to move.
    fn evaluate(&mut self, game: &Dobutsu) -> String {
        let pos = game.position();
        if let Some(v) = self.db.as_ref().and_then(|db| db.value(pos)) {
            return format!("{v} for {} (exact, from the database)", pos.side_to_move());
        }
        let limits = Limits { movetime: Some(self.movetime), multipv: 1, ..Limits::default() };
        let r = self.engine.search(game, &limits, &Signals::new(), &mut |_| {});
        format!("{} for {}", score_text(r.score, r.depth), pos.side_to_move())
    }
}

fn score_text(score: i32, depth: i32) -> String {
    match Value::from_search(score) {
        Some(v) => format!("{v} (search, depth {depth})"),
        None => format!("{:+.2} chicks (search, depth {depth})", f64::from(score) / 100.0),
    }
}

const HELP: &str = "moves: b3b2 (from, to), b2b1+ (a chick's promotion), C*b2 (a drop), \
or Cb3xb2, Lb4-a3, G*b3\ncommands: undo (take back your last move and the engine's), \
eval (the engine's view), moves (your legal moves), board, help, quit";

/// A typed move: USI style, or long notation (`Cb3xb2`).
fn parse_move(pos: Position, text: &str) -> Result<Move, String> {
    match pos.parse_move(text) {
        Ok(m) => Ok(m),
        Err(e) => {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves
                .into_iter()
                .find(|m| m.long_notation().eq_ignore_ascii_case(text))
                .ok_or_else(|| format!("{e}; type `help` for the notation"))
        }
    }
}

/// The game: the person plays one side, the engine the other, reading lines
/// from `input` and writing to `out`. A bad start position or database is an
/// error before the game, for the caller to report (on stderr, exit 1).
fn play(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), String> {
    let start = match &args.sfen {
        Some(s) => parse_game(s)?,
        None => Dobutsu::default(),
    };
    let db = match Database::load(&args.db) {
        Ok(db) => Some(db),
        Err(DbError::Missing(_)) if args.db == Path::new(DEFAULT_DB) => None,
        Err(e) => return Err(format!("{}: {e}", args.db.display())),
    };
    play_game(args, start, db, input, out).map_err(|e| e.to_string())
}

/// [`play`] once the start and the database are settled.
fn play_game(
    args: &PlayArgs,
    start: Dobutsu,
    db: Option<Database>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match &db {
        Some(_) => writeln!(
            out,
            "database {}: the engine plays perfectly (the fastest win, the longest loss)",
            args.db.display()
        )?,
        None => writeln!(
            out,
            "no database ({}): the engine searches (PVS) about {:.1} s a move",
            args.db.display(),
            args.movetime as f64 / 1000.0
        )?,
    }
    let mut opponent =
        Opponent { db, engine: Engine::new(16, 1), movetime: Duration::from_millis(args.movetime) };
    let to_move = start.position().side_to_move();
    let human = if args.first { to_move } else { to_move.flip() };
    writeln!(
        out,
        "you play {human}{}; type `help` for help",
        if human == Color::Sente { " (uppercase, moving up)" } else { " (lowercase, moving down)" }
    )?;
    let mut game = start;
    let mut played: Vec<Move> = Vec::new();
    let mut show = true;
    // Whether the end of the game has been announced.
    let mut announced = false;
    loop {
        let pos = game.position();
        if show {
            writeln!(out, "\n{}", game.board_text())?;
            show = false;
        }
        let over = match pos.end() {
            Some(end) => Some(describe_end(pos, end)),
            None if game.history().iter().filter(|&&p| p == pos).count() >= 2 => {
                Some("the same position for the third time: sennichite, a draw".to_string())
            }
            None => None,
        };
        if let Some(why) = &over {
            if !announced {
                writeln!(out, "{why}\ngame over: `undo` takes your last move back, `quit` ends")?;
                announced = true;
            }
        } else if pos.side_to_move() != human {
            let (m, why) = opponent.choose(&game);
            writeln!(out, "engine plays {m} ({}): {why}", m.long_notation())?;
            game.play(m);
            played.push(m);
            show = true;
            continue;
        }
        write!(out, "{}> ", if over.is_some() { "game over" } else { "your move" })?;
        out.flush()?;
        let mut text = String::new();
        if input.read_line(&mut text)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        let text = text.trim();
        match text {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" => show = true,
            "eval" => match &over {
                Some(why) => writeln!(out, "{why}")?,
                None => writeln!(out, "{}", opponent.evaluate(&game))?,
            },
            "moves" => {
                let mut moves = Vec::new();
                if over.is_none() {
                    pos.legal_moves(&mut moves);
                }
                let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                writeln!(
                    out,
                    "{}",
                    if names.is_empty() { "none".to_string() } else { names.join(" ") }
                )?;
            }
            "undo" => {
                // Back to the person's turn before their last move (the
                // engine's reply, if it made one, goes too).
                if game.history().iter().any(|p| p.side_to_move() == human) {
                    while let Some(m) = played.pop() {
                        game.undo(m);
                        if game.position().side_to_move() == human {
                            break;
                        }
                    }
                    announced = false;
                    show = true;
                } else {
                    writeln!(out, "nothing to take back")?;
                }
            }
            _ if over.is_some() => {
                writeln!(out, "the game is over: `undo` takes your last move back, `quit` ends")?
            }
            _ => match parse_move(pos, text) {
                Ok(m) => {
                    game.play(m);
                    played.push(m);
                    show = true;
                }
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_play(args: &PlayArgs, input: &str) -> String {
        let mut out = Vec::new();
        play(args, &mut input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn args(sfen: Option<&str>, first: bool) -> PlayArgs {
        PlayArgs {
            db: PathBuf::from("/nonexistent/dobutsu.db"),
            first,
            sfen: sfen.map(str::to_string),
            movetime: 50,
        }
    }

    #[test]
    fn a_missing_database_given_by_name_is_an_error() {
        let mut out = Vec::new();
        let e = play(&args(None, true), &mut "quit\n".as_bytes(), &mut out).unwrap_err();
        assert!(e.starts_with("/nonexistent/dobutsu.db: no database"), "{e}");
        assert!(out.is_empty(), "nothing of a game is printed");
    }

    #[test]
    fn bad_input_is_answered_and_the_game_goes_on() {
        let mut a = args(None, true);
        a.db = PathBuf::from(DEFAULT_DB);
        if Path::new(DEFAULT_DB).exists() {
            return; // a real database here: the engine would play perfectly
        }
        let text = run_play(&a, "help\nz9z9\nb3b3\nb2b1\nmoves\nundo\nCb3xb2\nundo\nquit\n");
        assert!(text.contains("no database"), "{text}");
        assert!(text.contains("commands: undo"), "{text}");
        assert!(text.contains("'z9z9' is not a move"), "{text}");
        assert!(text.contains("nothing to take back"), "{text}");
        assert!(text.contains("b3b2 b4a3 b4c3 c4c3"), "{text}");
        assert!(text.contains("engine plays"), "{text}");
        // After the undo the start position is drawn again.
        assert_eq!(text.matches("sfen gle/1c1/1C1/ELG b - 1").count(), 2, "{text}");
    }

    #[test]
    fn the_game_ends_with_a_capture_or_a_try() {
        let mut a = args(Some("l2/1G1/1L1/3 w - 1"), true);
        a.db = PathBuf::from(DEFAULT_DB);
        // Every move of Gote's lion loses it: a2 and b1 to the giraffe, b2
        // (the giraffe taken) to the lion.
        let text = run_play(&a, "a1a2\n");
        assert!(text.contains("Sente can capture Gote's lion: Sente wins"), "{text}");
        // The engine makes a try that cannot be answered.
        let mut a = args(Some("3/L2/2l/3 b - 1"), false);
        a.db = PathBuf::from(DEFAULT_DB);
        let text = run_play(&a, "");
        assert!(text.contains("engine plays a2"), "{text}");
        assert!(text.contains("(try)"), "{text}");
    }

    #[test]
    fn a_move_is_taken_back_after_the_game_ends() {
        let mut a = args(Some("1l1/3/1L1/3 b - 1"), true);
        a.db = PathBuf::from(DEFAULT_DB);
        // b3b2 puts the lion next to Gote's: Gote can capture it.
        let text = run_play(&a, "b3b2\nb3b2\neval\nundo\nboard\nb3a3\nquit\n");
        assert!(text.contains("Gote can capture Sente's lion: Gote wins"), "{text}");
        assert!(text.contains("game over> "), "{text}");
        assert!(text.contains("the game is over: `undo` takes your last move back"), "{text}");
        // Drawn at the start, after the undo and on `board`.
        assert_eq!(text.matches("sfen 1l1/3/1L1/3 b - 1\n").count(), 3, "{text}");
        // One move made: the move number counts it.
        assert!(text.contains("sfen 1l1/3/L2/3 w - 2"), "{text}");
        assert!(text.contains("engine plays"), "{text}");
    }

    #[test]
    fn the_evaluation_is_shown_on_request() {
        let mut a = args(None, true);
        a.db = PathBuf::from(DEFAULT_DB);
        if Path::new(DEFAULT_DB).exists() {
            return;
        }
        let text = run_play(&a, "eval\nquit\n");
        assert!(text.contains("for Sente"), "{text}");
        assert!(text.contains("(search, depth"), "{text}");
    }

    #[test]
    fn with_a_database_the_engine_plays_perfectly_and_evaluates_exactly() {
        let root = Position::from_sfen("1l1/1c1/1C1/1L1 b - 1").unwrap();
        let db = solve::solve(root, 2, &|_| {}).unwrap().database;
        let dir = testdata::ScratchDir::new("dobutsu-play");
        let path = dir.join("small.db");
        db.save(&path).unwrap();
        let mut a = args(Some("1l1/1c1/1C1/1L1 b - 1"), false);
        a.db = path.clone();
        let text = run_play(&a, "eval\nquit\n");
        assert!(text.contains("the engine plays perfectly"), "{text}");
        let (best, value) = db.best(root).unwrap()[0];
        assert!(text.contains(&format!("engine plays {best}")), "{text}");
        assert!(text.contains(&format!("{value}, perfect play")), "{text}");
        let after = db.value(root.after(best)).unwrap();
        assert!(text.contains(&format!("{after} for Gote (exact, from the database)")), "{text}");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(246_803_167), "246,803,167");
        assert_eq!(thousands(78), "78");
        assert_eq!(thousands(1000), "1,000");
    }
}
