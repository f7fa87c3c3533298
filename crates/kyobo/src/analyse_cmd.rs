//! `kyobo analyse RECORD`: every position of a game's main line searched, each
//! move judged by the winning chances it gives away, the record written back
//! with the judgements as comments.
//!
//! # Judging a move
//!
//! Before each move the position is searched (depth or time per position, as
//! asked); when the move played is not the best move, it is searched again alone
//! ([`search::Engine::search_among`]) with the same limits, so that both scores
//! come from searches of the same kind. A score becomes winning chances for the
//! side to move with [`win_chance`]; the move's loss is the best move's chance
//! minus the played move's. Marks by that loss:
//!
//! | loss in winning chances | mark | meaning |
//! | --- | --- | --- |
//! | at least [`DUBIOUS`] (5 points) | `?!` | dubious |
//! | at least [`MISTAKE`] (10 points) | `?` | mistake |
//! | at least [`BLUNDER`] (20 points) | `??` | blunder |
//!
//! A side's accuracy is the share of its moves that lose less than [`DUBIOUS`],
//! shown with the mean loss.
//!
//! Each move's comment in the record written back reads `kyobo +120 (55 %)`: the
//! move's score and winning chances for the side that played it; then the mark
//! and the points lost (`?? loses 51 points`), and, when another move was best,
//! `best +24 ▲７五歩 △１四歩 …`: its score and line (in Japanese notation in KIF
//! and KI2, in USI elsewhere). Each position is searched with the game's moves
//! before it (repetitions count), and with the move order of a fresh search: the
//! histories a game's searches keep from one move to the next are forgotten, so
//! that a judgement does not turn on which positions were judged before it.
//! The searches also judge without correction history ([`JUDGING_OPTIONS`]).

mod report;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use records::{Format, Record};
use search::engine::Signals;
use search::value::Score;
use search::{Engine, Limits, SearchResult};
use shogi::{Color, Move, Position};
use shogi_game::ShogiGame;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Loss in winning chances (0 to 1) from which a move is dubious (`?!`).
pub const DUBIOUS: f64 = 0.05;
/// Loss from which a move is a mistake (`?`).
pub const MISTAKE: f64 = 0.10;
/// Loss from which a move is a blunder (`??`).
pub const BLUNDER: f64 = 0.20;
/// The score (centipawns) at which the side to move wins about 73 % of games:
/// winning chances are `1 / (1 + e^(-cp / SCALE))`.
pub const SCALE: f64 = 600.0;

#[derive(Args)]
pub struct AnalyseArgs {
    /// The record to analyse (any format `kyobo convert` reads).
    record: PathBuf,
    /// Write the record back here with a comment on every move (score, the best
    /// move and its line where it differs, a mark); format by extension.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Search depth per position (the default when no --movetime: 10).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=127))]
    depth: Option<i32>,
    /// Milliseconds per position instead of a depth.
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Best lines searched at each position (MultiPV).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=32))]
    multipv: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Print moves in Japanese notation (`▲７六歩`) instead of USI.
    #[arg(long)]
    japanese: bool,
    /// Write the HTML report here: the evaluation graph, each side's accuracy,
    /// the critical moments as board diagrams, every move's judgement (one
    /// self-contained file).
    #[arg(long)]
    html: Option<PathBuf>,
}

/// The winning chances (0 to 1) of the side whose score this is.
pub fn win_chance(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => 1.0 / (1.0 + (-f64::from(cp) / SCALE).exp()),
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

/// The mark of a loss in winning chances, if any.
pub fn mark(loss: f64) -> Option<&'static str> {
    if loss >= BLUNDER {
        Some("??")
    } else if loss >= MISTAKE {
        Some("?")
    } else if loss >= DUBIOUS {
        Some("?!")
    } else {
        None
    }
}

pub(crate) fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{cp:+}"),
        Score::Mate(n) if n > 0 => format!("mate in {n}"),
        Score::Mate(n) => format!("mated in {}", -n),
    }
}

/// What the analysis says about one move.
pub(crate) struct Judgement {
    pub mover: Color,
    /// The score of the move played, for the side that played it.
    pub played: Score,
    /// The best move, its score and line, when the move played is not it.
    pub better: Option<(Move, Score, Vec<Move>)>,
    /// The winning chances (0 to 1) the move gives away.
    pub loss: f64,
}

fn line_text(pos: &Position, moves: &[Move], japanese: bool) -> String {
    if japanese {
        records::japanese_line(pos, moves, None)
    } else {
        moves.iter().map(|m| m.to_usi()).collect::<Vec<_>>().join(" ")
    }
}

/// The record's comment on a move: `kyobo` (who speaks in the record), the
/// judgement's mark and [`judgement_text`].
fn comment(j: &Judgement, pos: &Position, japanese: bool) -> String {
    match mark(j.loss) {
        Some(m) => format!("kyobo {m} {}", judgement_text(j, pos, japanese)),
        None => format!("kyobo {}", judgement_text(j, pos, japanese)),
    }
}

/// A move's judgement in words: its score (the mover's) and chances, the points
/// it loses, and the best move with its line where another was better.
pub(crate) fn judgement_text(j: &Judgement, pos: &Position, japanese: bool) -> String {
    let mut s = format!("{} ({:.0} %)", score_text(j.played), 100.0 * win_chance(j.played));
    if mark(j.loss).is_some() {
        s += &format!(", loses {:.0} points", 100.0 * j.loss);
    }
    if let Some((_, score, pv)) = &j.better {
        s += &format!("; best {} {}", score_text(*score), line_text(pos, pv, japanese));
    }
    s
}

/// PVS's options as a judgement sets them. Correction history adds to each
/// static value what the search has learnt so far; at an analysis's depths it
/// moved two searches of one position apart by more than a judgement can bear
/// (at depth 8 it marked sound moves of a match game `??`, whether its tables
/// started empty or were kept).
pub(crate) const JUDGING_OPTIONS: [(&str, i64); 1] = [("Tune_CorrectionWeight", 0)];

fn search_position(
    engine: &mut Engine<ShogiGame>,
    pos: &Position,
    limits: &Limits,
    among: Option<&[Move]>,
) -> SearchResult<Move> {
    let game = ShogiGame::new(pos.clone());
    let signals = Signals::new();
    // Every search starts from the move order of a fresh one, whatever was
    // searched before it (the table is kept).
    engine.forget_move_order();
    match among {
        Some(moves) => engine.search_among(&game, moves, limits, &signals, &mut |_| {}),
        None => engine.search(&game, limits, &signals, &mut |_| {}),
    }
}

fn best_line(result: &SearchResult<Move>) -> Vec<Move> {
    let pv = result.root_moves.first().map(|r| r.pv.clone()).unwrap_or_default();
    match (pv.first(), result.best_move) {
        (Some(_), _) => pv,
        (None, Some(m)) => vec![m],
        (None, None) => Vec::new(),
    }
}

/// Judges each of `moves` from `start` (see the module's documentation), calling
/// `progress` with the number judged so far after each. A search stopped
/// through `limits` (a node or time limit) judges with what it found.
pub(crate) fn judge_moves(
    engine: &mut Engine<ShogiGame>,
    start: &Position,
    moves: &[Move],
    limits: &Limits,
    progress: &mut dyn FnMut(usize),
) -> Vec<(Position, Judgement)> {
    for (name, value) in JUDGING_OPTIONS {
        let declared = engine.set_parameter(name, value);
        debug_assert!(declared.is_ok(), "{name}: {declared:?}");
    }
    let mut pos = start.clone();
    let mut judgements = Vec::with_capacity(moves.len());
    for &m in moves {
        let best = search_position(engine, &pos, limits, None);
        let best_score = Score::from_value(best.score);
        let mover = pos.side_to_move();
        let judgement = match best.best_move {
            Some(b) if b != m => {
                let alone = search_position(engine, &pos, limits, Some(&[m]));
                let played = Score::from_value(alone.score);
                // Two searches of one depth can disagree: where the move played,
                // searched alone, scores at least the best move's score, it is
                // judged level with it and no better move is named.
                let loss = (win_chance(best_score) - win_chance(played)).max(0.0);
                let better = (alone.score < best.score).then(|| (b, best_score, best_line(&best)));
                Judgement { mover, played, better, loss }
            }
            _ => Judgement { mover, played: best_score, better: None, loss: 0.0 },
        };
        judgements.push((pos.clone(), judgement));
        pos.do_move(m);
        progress(judgements.len());
    }
    judgements
}

/// Analyses the record's main line; writes the annotated record and prints the
/// marked moves and each side's accuracy.
///
/// # Errors
/// An unreadable record or output file, or a hash table that cannot be allocated.
pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    shogi::attacks::init();
    let (_, mut record) =
        records::read_file(&args.record).map_err(|e| format!("{}: {e}", args.record.display()))?;
    // Every output is checked before the first search: an analysis is minutes
    // of work, not to be lost at the end to a bad path.
    if let Some(out) = &args.out {
        let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("");
        if Format::from_extension(ext).is_none() {
            return Err(format!(
                "--out {}: no record format has the extension '{ext}' \
                 (kif, kifu, ki2, ki2u, csa, jkf, usi, sfen)",
                out.display()
            ));
        }
        check_writable(out, "--out")?;
    }
    if let Some(html) = &args.html {
        check_writable(html, "--html")?;
    }
    let mut engine: Engine<ShogiGame> = Engine::new(1, usize::from(args.threads));
    engine.try_set_hash_mb(args.hash).map_err(|e| format!("--hash {}: {e}", args.hash))?;
    let limits = Limits {
        depth: if args.movetime.is_some() { None } else { Some(args.depth.unwrap_or(10)) },
        movetime: args.movetime.map(Duration::from_millis),
        multipv: usize::try_from(args.multipv).unwrap_or(1),
        ..Limits::default()
    };
    let moves = record.main_line();
    let bar = ProgressBar::new(moves.len() as u64);
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} moves, {eta} left")
        .map_err(|e| e.to_string())?;
    bar.set_style(style);
    let judgements =
        judge_moves(&mut engine, &record.start_position(), &moves, &limits, &mut |_| bar.inc(1));
    bar.finish_and_clear();
    report(&record, &moves, &judgements, args.japanese);
    if let Some(path) = &args.html {
        let settings = format!(
            "Kyobo {}: {}, {} thread(s), MultiPV {}",
            env!("CARGO_PKG_VERSION"),
            match args.movetime {
                Some(ms) => format!("{ms} ms a position"),
                None => format!("depth {}", args.depth.unwrap_or(10)),
            },
            args.threads,
            args.multipv
        );
        let page = report::html(&record, &moves, &judgements, &settings);
        std::fs::write(path, page).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(out) = &args.out {
        let japanese = matches!(
            out.extension().and_then(|e| e.to_str()).and_then(Format::from_extension),
            Some((Format::Kif | Format::Ki2, _))
        );
        for (rm, (pos, j)) in record.moves.iter_mut().zip(&judgements) {
            rm.comments.push(comment(j, pos, japanese));
        }
        write_record(out, &record)?;
    }
    Ok(())
}

/// Whether `path` can be written: its folder exists and the file can be opened
/// for writing (a file made only to find out is removed again).
fn check_writable(path: &Path, flag: &str) -> Result<(), String> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("{flag} {}: cannot be written: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

fn write_record(out: &Path, record: &Record) -> Result<(), String> {
    records::write_file(out, record).map_err(|e| format!("{}: {e}", out.display()))
}

/// Prints the marked moves and each side's accuracy.
fn report(record: &Record, moves: &[Move], judgements: &[(Position, Judgement)], japanese: bool) {
    let first_ply = record.start_position().game_ply();
    for (i, (pos, j)) in judgements.iter().enumerate() {
        let Some(m) = mark(j.loss) else { continue };
        let played = line_text(pos, &moves[i..=i], japanese);
        crate::print_line(&format!(
            "move {} {played} {m} {}",
            first_ply as usize + i,
            judgement_text(j, pos, japanese)
        ));
    }
    for color in [Color::Black, Color::White] {
        let Some(a) = Accuracy::of(judgements.iter().map(|(_, j)| j), color) else {
            continue;
        };
        crate::print_line(&format!(
            "{}: accuracy {:.0} % ({} of {} moves), mean loss {:.1} points, \
             dubious {}, mistakes {}, blunders {}",
            if color == Color::Black { "Black (▲)" } else { "White (△)" },
            a.percent(),
            a.good,
            a.moves,
            100.0 * a.mean_loss,
            a.marks[0],
            a.marks[1],
            a.marks[2]
        ));
    }
}

/// One side's accuracy over the moves judged: the moves, those losing less than
/// [`DUBIOUS`], the mean loss, and the moves marked `?!`, `?` and `??`.
struct Accuracy {
    pub moves: usize,
    pub good: usize,
    pub mean_loss: f64,
    pub marks: [usize; 3],
}

impl Accuracy {
    /// `color`'s accuracy over `judgements`, or `None` where it made no move.
    pub fn of<'a>(
        judgements: impl Iterator<Item = &'a Judgement>,
        color: Color,
    ) -> Option<Accuracy> {
        let own: Vec<&Judgement> = judgements.filter(|j| j.mover == color).collect();
        if own.is_empty() {
            return None;
        }
        let count = |m: &str| own.iter().filter(|j| mark(j.loss) == Some(m)).count();
        Some(Accuracy {
            moves: own.len(),
            good: own.iter().filter(|j| j.loss < DUBIOUS).count(),
            mean_loss: own.iter().map(|j| j.loss).sum::<f64>() / own.len() as f64,
            marks: [count("?!"), count("?"), count("??")],
        })
    }

    /// The share of good moves, in per cent.
    pub fn percent(&self) -> f64 {
        100.0 * self.good as f64 / self.moves as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judging_options_are_declared_and_in_range() {
        let mut engine: Engine<ShogiGame> = Engine::new(1, 1);
        for (name, value) in JUDGING_OPTIONS {
            assert_eq!(engine.set_parameter(name, value), Ok(()), "{name}");
        }
    }

    #[test]
    fn chances_and_marks() {
        assert!((win_chance(Score::Cp(0)) - 0.5).abs() < 1e-12);
        assert!(win_chance(Score::Cp(600)) > 0.73 && win_chance(Score::Cp(600)) < 0.74);
        assert_eq!(win_chance(Score::Mate(3)), 1.0);
        assert_eq!(win_chance(Score::Mate(-2)), 0.0);
        assert_eq!(mark(0.049), None);
        assert_eq!(mark(0.05), Some("?!"));
        assert_eq!(mark(0.15), Some("?"));
        assert_eq!(mark(0.5), Some("??"));
    }
}
