//! `kyobo mate --sfen SFEN | --file FILE [--time-limit S] [--hash MB] [--json]`.

use indicatif::{ProgressBar, ProgressStyle};
use mate::problem::{parse_problems, Problem};
use mate::{verify_mate, Limits, MateResult, Report, Solver};
use shogi::Position;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Positions the `--certify` check may expand.
const CERTIFY_BUDGET: u64 = 20_000_000;

#[derive(clap::Args)]
pub struct MateArgs {
    /// Solve one position (the attacker to move, or the defender when it is in check).
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    sfen: Option<String>,
    /// Solve every position of FILE: one a line, `SFEN`, `SFEN moves <expected mate>`
    /// or `NAME<TAB>LENGTH<TAB>SFEN`; `#` starts a comment line.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Seconds per position (default: no limit); up to a year.
    #[arg(long, value_parser = parse_seconds)]
    time_limit: Option<f64>,
    /// Search nodes per position (default: no limit).
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB (at least 1: the line is read out of it).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    hash: u64,
    /// Stop at the first mate proven instead of looking for the shortest.
    #[arg(long)]
    first: bool,
    /// Count futile interpositions like any other reply.
    #[arg(long)]
    count_futile: bool,
    /// After `nomate`, build the independent certificate (a closed set of positions
    /// from which the defender never has to leave; see `mate::certify`).
    #[arg(long)]
    certify: bool,
    /// Print one line per problem (with --file).
    #[arg(long)]
    verbose: bool,
    /// Machine-readable output (one JSON object).
    #[arg(long)]
    json: bool,
    /// Print mating lines in Japanese notation (`▲２二金 △同　玉 …`) instead of
    /// USI moves (JSON keeps USI).
    #[arg(long)]
    japanese: bool,
}

/// The longest `--time-limit`: a year.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A `--time-limit`: a finite number of seconds, more than zero, at most a year.
fn parse_seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text.trim().parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !s.is_finite() || s <= 0.0 || s > MAX_SECONDS {
        return Err(format!("{text} seconds: give more than 0 and at most {MAX_SECONDS}"));
    }
    Ok(s)
}

/// How one problem came out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// A verified mate of the expected length (or proven shortest where none is given).
    Shortest,
    /// A verified mate, not known to be of the expected length.
    Solved,
    /// A mate of another length than expected, a line that does not verify, or
    /// `nomate` where a mate was expected.
    Wrong,
    /// Proven without mate, and none was expected.
    NoMate,
    /// Stopped by a limit.
    Unsolved,
}

impl Verdict {
    fn name(self) -> &'static str {
        match self {
            Verdict::Shortest => "shortest",
            Verdict::Solved => "solved",
            Verdict::Wrong => "wrong",
            Verdict::NoMate => "nomate",
            Verdict::Unsolved => "unsolved",
        }
    }
}

struct Outcome {
    problem: Problem,
    report: Report,
    verdict: Verdict,
    note: String,
}

pub fn run(args: &MateArgs) -> Result<(), String> {
    let problems = match (&args.sfen, &args.file) {
        (Some(sfen), _) => parse_problems(sfen)?,
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse_problems(&text)?
        }
        (None, None) => return Err("give --sfen or --file".into()),
    };
    let limits = Limits {
        time: args.time_limit.map(Duration::from_secs_f64),
        nodes: args.nodes,
        shortest: !args.first,
        futile_rule: !args.count_futile,
        ..Limits::default()
    };
    let hash = usize::try_from(args.hash).unwrap_or(usize::MAX);
    let mut solver = Solver::try_new(hash)
        .ok_or_else(|| format!("--hash {}: cannot allocate a table of that size", args.hash))?;
    let bar = if args.file.is_some() && !args.json {
        let bar = ProgressBar::new(problems.len() as u64);
        let style = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
            .map_err(|e| e.to_string())?;
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let mut outcomes = Vec::with_capacity(problems.len());
    for problem in problems {
        let pos = Position::from_sfen(&problem.sfen)
            .map_err(|e| format!("line {}: bad SFEN: {e}", problem.line))?;
        let report = solver.solve(&pos, &limits);
        let (verdict, mut note) = judge(&pos, &problem, &report, &limits);
        if args.certify && report.result == MateResult::NoMate {
            let c = match solver.certify_nomate(&pos, CERTIFY_BUDGET) {
                Some(n) => format!("certified: closed set of {n} positions"),
                None => "not certified (the certificate did not close)".to_string(),
            };
            note = if note.is_empty() { c } else { format!("{note}; {c}") };
        }
        if let Some(d) = defender_note(&pos, &report) {
            note = if note.is_empty() { d.to_string() } else { format!("{d}; {note}") };
        }
        if args.verbose && !args.json {
            let line = problem_line(&problem, &report, verdict, &note, args.japanese);
            // A hidden bar (output not a terminal) would swallow the line.
            if bar.is_hidden() {
                crate::print_line(&line);
            } else {
                bar.println(line);
            }
        }
        bar.inc(1);
        outcomes.push(Outcome { problem, report, verdict, note });
        let wrong = outcomes.iter().filter(|o| o.verdict == Verdict::Wrong).count();
        bar.set_message(format!("wrong {wrong}"));
    }
    bar.finish_and_clear();
    let total = start.elapsed();
    if args.json {
        crate::print_line(&json(&outcomes, total, &solver));
    } else if args.sfen.is_some() {
        let o = &outcomes[0];
        crate::print_line(&single_answer(o, args.japanese));
    } else {
        crate::print_line(&summary(&outcomes, total, &solver, args.japanese));
    }
    Ok(())
}

fn judge(pos: &Position, problem: &Problem, report: &Report, limits: &Limits) -> (Verdict, String) {
    match &report.result {
        MateResult::Mate(pv) => {
            if let Err(e) = verify_mate(pos, pv, limits.futile_rule) {
                return (Verdict::Wrong, format!("does not verify: {e}"));
            }
            match problem.expected_len {
                Some(n) if n == pv.len() => (Verdict::Shortest, String::new()),
                Some(n) => (
                    Verdict::Wrong,
                    format!("length {} where {n} is expected{}", pv.len(), bound_note(report, pv)),
                ),
                None if report.shortest_proven => (Verdict::Shortest, String::new()),
                None => (Verdict::Solved, format!("not proven shortest{}", bound_note(report, pv))),
            }
        }
        MateResult::NoMate => match problem.expected_len {
            Some(n) => (Verdict::Wrong, format!("nomate where a mate in {n} is expected")),
            None => (Verdict::NoMate, String::new()),
        },
        MateResult::Timeout => (Verdict::Unsolved, String::new()),
        MateResult::Invalid(e) => (Verdict::Wrong, format!("not a mating problem: {e}")),
    }
}

/// When a search stopped before its line was exact, the line read out of the table
/// (the defender answering by the longest proof stored, an upper bound) can be
/// shorter than the mate proven: then some defence in it is not the best one, and
/// the length proven is the one to trust.
fn bound_note(report: &Report, pv: &[shogi::Move]) -> String {
    match report.proven_longer_than(pv.len()) {
        Some(proven) => format!(
            "; mate proven within {proven} plies, this line is shorter: \
             some defence in it is not the longest"
        ),
        None => String::new(),
    }
}

/// The mating line in USI, or in Japanese notation when `japanese` and the
/// problem's SFEN reads.
fn pv_text(report: &Report, problem: &Problem, japanese: bool) -> String {
    let MateResult::Mate(pv) = &report.result else {
        return String::new();
    };
    match Position::from_sfen(&problem.sfen) {
        Ok(pos) if japanese => records::japanese_line(&pos, pv, None),
        _ => pv.iter().map(|m| m.to_usi()).collect::<Vec<_>>().join(" "),
    }
}

fn answer_word(report: &Report) -> String {
    match &report.result {
        MateResult::Mate(pv) => format!("mate {}", pv.len()),
        MateResult::NoMate => "nomate".into(),
        MateResult::Timeout => "timeout".into(),
        MateResult::Invalid(_) => "invalid".into(),
    }
}

/// A note for a problem whose side to move is the defender.
fn defender_note(pos: &Position, report: &Report) -> Option<&'static str> {
    (report.attacker.is_some_and(|a| a != pos.side_to_move())).then_some("defender to move")
}

fn problem_line(
    problem: &Problem,
    report: &Report,
    verdict: Verdict,
    note: &str,
    japanese: bool,
) -> String {
    let name = problem.name.clone().unwrap_or_else(|| format!("line {}", problem.line));
    let first = match report.first_mate() {
        Some((len, t)) => format!(" (first mate {len} at {:.3} s)", t.as_secs_f64()),
        None => String::new(),
    };
    let first = if report.lengths.len() > 1 {
        format!("{first} (lengths {})", lengths_text(report))
    } else {
        first
    };
    format!(
        "{name}: {} ({}) {:.3} s{first} {} nodes {}{}",
        answer_word(report),
        verdict.name(),
        report.elapsed.as_secs_f64(),
        report.nodes,
        pv_text(report, problem, japanese),
        if note.is_empty() { String::new() } else { format!("  [{note}]") }
    )
}

/// The mate lengths proven over time: `1585@71.1s 1561@90.2s ...`.
fn lengths_text(report: &Report) -> String {
    let items: Vec<String> =
        report.lengths.iter().map(|(len, t)| format!("{len}@{:.1}s", t.as_secs_f64())).collect();
    items.join(" ")
}

fn single_answer(o: &Outcome, japanese: bool) -> String {
    let r = &o.report;
    let mut s = format!("{}\n", answer_word(r));
    if let MateResult::Mate(_) = r.result {
        s += &format!("pv {}\n", pv_text(r, &o.problem, japanese));
        s += &format!("shortest {}\n", if r.shortest_proven { "proven" } else { "not proven" });
        if let Some((len, t)) = r.first_mate() {
            s += &format!("first mate {len} after {:.3} s\n", t.as_secs_f64());
        }
        if r.lengths.len() > 1 {
            s += &format!("lengths {}\n", lengths_text(r));
        }
    }
    if !o.note.is_empty() {
        s += &format!("note {}\n", o.note);
    }
    s += &format!(
        "nodes {}\ntime {:.3} s\nhashfull {}",
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.hashfull
    );
    s
}

fn count(outcomes: &[Outcome], v: Verdict) -> usize {
    outcomes.iter().filter(|o| o.verdict == v).count()
}

fn summary(outcomes: &[Outcome], total: Duration, solver: &Solver, japanese: bool) -> String {
    let solved = count(outcomes, Verdict::Shortest) + count(outcomes, Verdict::Solved);
    let nodes: u64 = outcomes.iter().map(|o| o.report.nodes).sum();
    let mut s = String::new();
    for o in outcomes.iter().filter(|o| o.verdict == Verdict::Wrong) {
        s += &format!(
            "wrong: {}\n",
            problem_line(&o.problem, &o.report, o.verdict, &o.note, japanese)
        );
    }
    s += &format!(
        "problems {}\nsolved {solved}\nshortest {}\nwrong {}\nnomate {}\nunsolved {}\n\
         nodes {nodes}\ntime {:.3} s\ntable {} MiB",
        outcomes.len(),
        count(outcomes, Verdict::Shortest),
        count(outcomes, Verdict::Wrong),
        count(outcomes, Verdict::NoMate),
        count(outcomes, Verdict::Unsolved),
        total.as_secs_f64(),
        solver.table_bytes() >> 20,
    );
    s
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            c if (c as u32) < 0x20 => out += &format!("\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json(outcomes: &[Outcome], total: Duration, solver: &Solver) -> String {
    let items: Vec<String> = outcomes
        .iter()
        .map(|o| {
            let r = &o.report;
            let (len, pv) = match &r.result {
                MateResult::Mate(pv) => {
                    (pv.len().to_string(), json_string(&pv_text(r, &o.problem, false)))
                }
                _ => ("null".into(), "null".into()),
            };
            format!(
                "{{\"line\":{},\"name\":{},\"sfen\":{},\"result\":{},\"verdict\":{},\
                 \"length\":{len},\"expected_length\":{},\"pv\":{pv},\"shortest_proven\":{},\
                 \"nodes\":{},\"seconds\":{:.6},\"note\":{}}}",
                o.problem.line,
                o.problem.name.as_deref().map_or("null".into(), json_string),
                json_string(&o.problem.sfen),
                json_string(&answer_word(r)),
                json_string(o.verdict.name()),
                o.problem.expected_len.map_or("null".into(), |n| n.to_string()),
                r.shortest_proven,
                r.nodes,
                r.elapsed.as_secs_f64(),
                json_string(&o.note),
            )
        })
        .collect();
    let solved = count(outcomes, Verdict::Shortest) + count(outcomes, Verdict::Solved);
    format!(
        "{{\"summary\":{{\"problems\":{},\"solved\":{solved},\"shortest\":{},\"wrong\":{},\
         \"nomate\":{},\"unsolved\":{},\"seconds\":{:.6},\"table_bytes\":{}}},\"problems\":[{}]}}",
        outcomes.len(),
        count(outcomes, Verdict::Shortest),
        count(outcomes, Verdict::Wrong),
        count(outcomes, Verdict::NoMate),
        count(outcomes, Verdict::Unsolved),
        total.as_secs_f64(),
        solver.table_bytes(),
        items.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::{PieceKind, Square};
    use std::time::Duration;

    fn report(lengths: &[usize], shortest_proven: bool) -> Report {
        Report {
            result: MateResult::Timeout,
            shortest_proven,
            lengths: lengths.iter().map(|&l| (l, Duration::ZERO)).collect(),
            nodes: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            attacker: None,
        }
    }

    #[test]
    fn time_limits_must_be_finite_positive_and_at_most_a_year() {
        assert_eq!(parse_seconds("2.5"), Ok(2.5));
        for bad in ["-1", "0", "NaN", "inf", "1e300", "soon", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_line_shorter_than_the_proven_bound_is_flagged() {
        let pv = vec![shogi::Move::drop(PieceKind::Gold, Square::new(4, 1)); 3];
        assert!(bound_note(&report(&[9, 5], false), &pv).contains("within 5 plies"));
        assert_eq!(bound_note(&report(&[9, 3], false), &pv), "");
        assert_eq!(bound_note(&report(&[9, 5], true), &pv), "");
    }
}
