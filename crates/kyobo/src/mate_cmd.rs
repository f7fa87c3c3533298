//! `kyobo mate --sfen SFEN | --file FILE [--movetime MS] [--hash MB] [--json]`.

use indicatif::{ProgressBar, ProgressStyle};
use mate::problem::{parse_line, Problem};
use mate::{verify_mate, Limits, MateResult, Report, Solver};
use shogi::Position;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Positions the `--certify` check may expand.
const CERTIFY_BUDGET: u64 = 20_000_000;

/// The longest `--movetime`: a year, in milliseconds.
const MAX_MS: u64 = 365 * 24 * 3600 * 1000;

#[derive(clap::Args)]
pub struct MateArgs {
    /// Solve one position (the attacker to move, or the defender when it is in
    /// check): an SFEN (a leading `sfen ` is allowed) or `startpos`.
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    sfen: Option<String>,
    /// Solve every position of FILE: one a line, `SFEN`, `SFEN moves <expected mate>`
    /// or `NAME<TAB>LENGTH<TAB>SFEN`; `#` starts a comment line. A line that is no
    /// problem is reported and counted as bad, and the others are solved.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Milliseconds per position (default: no limit); up to a year.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    movetime: Option<u64>,
    /// The old limit in seconds: refused with the `--movetime` that replaces it,
    /// so that a script written for seconds does not run with milliseconds.
    #[arg(long, hide = true, allow_hyphen_values = true)]
    time_limit: Option<String>,
    /// Search nodes per position (default: no limit).
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB (0: the smallest, 1 MiB, as for analyse
    /// and bench).
    #[arg(long, default_value_t = 256)]
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

/// The error for the old `--time-limit S`, naming the `--movetime` that means
/// the same.
fn time_limit_moved(text: &str) -> String {
    let fix = match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s * 1000.0 <= MAX_MS as f64 => {
            format!("--movetime {}", (s * 1000.0).round().max(1.0))
        }
        _ => "--movetime MS".to_string(),
    };
    format!("--time-limit {text}: times are given in milliseconds now; use {fix}")
}

/// A problem ready to solve: the line read and its position.
struct Loaded {
    problem: Problem,
    pos: Position,
}

/// A line of `--file` that is no problem: its number, its text and why.
struct BadLine {
    line: usize,
    text: String,
    why: String,
}

/// One problem, or why not; the position may be `startpos` or carry `sfen `.
fn load(line_no: usize, line: &str) -> Option<Result<Loaded, String>> {
    let problem = match parse_line(line_no, line)? {
        Ok(p) => p,
        // The reader names the line itself; the caller names it with the file.
        Err(e) => {
            let prefix = format!("line {line_no}: ");
            return Some(Err(e.strip_prefix(&prefix).unwrap_or(&e).to_string()));
        }
    };
    Some(match Position::from_position_text(&problem.sfen) {
        Ok(pos) => Ok(Loaded { problem, pos }),
        Err(e) => Err(format!("bad SFEN: {e}")),
    })
}

/// Every problem of a file's text, and the lines that are none.
fn load_all(text: &str) -> (Vec<Loaded>, Vec<BadLine>) {
    let (mut loaded, mut bad) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        match load(i + 1, line) {
            None => {}
            Some(Ok(l)) => loaded.push(l),
            Some(Err(why)) => bad.push(BadLine { line: i + 1, text: line.trim().into(), why }),
        }
    }
    (loaded, bad)
}

/// `FILE:LINE: why: 'text'`, the way a bad line is reported.
fn bad_line_text(path: &Path, b: &BadLine) -> String {
    format!("{}:{}: {}: '{}'", path.display(), b.line, b.why, b.text)
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
    pos: Position,
    report: Report,
    verdict: Verdict,
    note: String,
}

pub fn run(args: &MateArgs) -> Result<(), String> {
    if let Some(text) = &args.time_limit {
        return Err(time_limit_moved(text));
    }
    let (problems, bad) = match (&args.sfen, &args.file) {
        (Some(sfen), _) => match load(1, sfen) {
            Some(Ok(l)) => (vec![l], Vec::new()),
            Some(Err(why)) => return Err(format!("--sfen '{}': {why}", sfen.trim())),
            None => return Err(format!("--sfen '{sfen}': no position")),
        },
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            load_all(&text)
        }
        (None, None) => return Err("give --sfen or --file".into()),
    };
    // Reported before the search starts: the run may be long, and a bad line
    // is best fixed while the rest is being solved.
    if let Some(path) = &args.file {
        for b in &bad {
            eprintln!("error: {}", bad_line_text(path, b));
        }
    }
    let limits = Limits {
        time: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
        shortest: !args.first,
        futile_rule: !args.count_futile,
        ..Limits::default()
    };
    // 0 is the smallest table, as the search's `--hash` reads it: one that
    // still holds a mating line.
    let hash = usize::try_from(args.hash.max(1)).unwrap_or(usize::MAX);
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
    for Loaded { problem, pos } in problems {
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
        let o = Outcome { problem, pos, report, verdict, note };
        if args.verbose && !args.json {
            let line = problem_line(&o, args.japanese);
            // A hidden bar (output not a terminal) would swallow the line.
            if bar.is_hidden() {
                crate::print_line(&line);
            } else {
                bar.println(line);
            }
        }
        bar.inc(1);
        outcomes.push(o);
        let wrong = outcomes.iter().filter(|o| o.verdict == Verdict::Wrong).count();
        bar.set_message(format!("wrong {wrong}"));
    }
    bar.finish_and_clear();
    let total = start.elapsed();
    if args.json {
        crate::print_line(&json(&outcomes, &bad, total, &solver));
    } else if args.sfen.is_some() {
        let o = &outcomes[0];
        crate::print_line(&single_answer(o, args.japanese));
    } else {
        crate::print_line(&summary(&outcomes, bad.len(), total, &solver, args.japanese));
    }
    match (&args.file, bad.as_slice()) {
        (Some(path), [one]) => Err(format!(
            "{}:{} is not a problem (reported above): fix the line or make it a comment with #",
            path.display(),
            one.line
        )),
        (Some(path), [_, _, ..]) => {
            let lines: Vec<String> = bad.iter().map(|b| b.line.to_string()).collect();
            Err(format!(
                "{}: {} lines are not problems (lines {}, reported above): fix them or make \
                 them comments with #",
                path.display(),
                bad.len(),
                lines.join(", ")
            ))
        }
        _ => Ok(()),
    }
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

/// The mating line from `pos` in USI, or in Japanese notation when `japanese`.
fn pv_text(report: &Report, pos: &Position, japanese: bool) -> String {
    let MateResult::Mate(pv) = &report.result else {
        return String::new();
    };
    if japanese {
        records::japanese_line(pos, pv, None)
    } else {
        pv.iter().map(|m| m.to_usi()).collect::<Vec<_>>().join(" ")
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

fn problem_line(o: &Outcome, japanese: bool) -> String {
    let Outcome { problem, pos, report, verdict, note } = o;
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
        pv_text(report, pos, japanese),
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
        s += &format!("pv {}\n", pv_text(r, &o.pos, japanese));
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

/// The `--file` summary: the wrong answers, then each count. `problems` counts
/// the `bad` lines too, so that the counts below it add up to it.
fn summary(
    outcomes: &[Outcome],
    bad: usize,
    total: Duration,
    solver: &Solver,
    japanese: bool,
) -> String {
    let solved = count(outcomes, Verdict::Shortest) + count(outcomes, Verdict::Solved);
    let nodes: u64 = outcomes.iter().map(|o| o.report.nodes).sum();
    let mut s = String::new();
    for o in outcomes.iter().filter(|o| o.verdict == Verdict::Wrong) {
        s += &format!("wrong: {}\n", problem_line(o, japanese));
    }
    s += &format!(
        "problems {}\nsolved {solved}\nshortest {}\nwrong {}\nnomate {}\nunsolved {}\n\
         bad {bad}\nnodes {nodes}\ntime {:.3} s\ntable {} MiB",
        outcomes.len() + bad,
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

fn json(outcomes: &[Outcome], bad: &[BadLine], total: Duration, solver: &Solver) -> String {
    let items: Vec<String> = outcomes
        .iter()
        .map(|o| {
            let r = &o.report;
            let (len, pv) = match &r.result {
                MateResult::Mate(pv) => {
                    (pv.len().to_string(), json_string(&pv_text(r, &o.pos, false)))
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
    let bad_items: Vec<String> = bad
        .iter()
        .map(|b| {
            format!(
                "{{\"line\":{},\"text\":{},\"error\":{}}}",
                b.line,
                json_string(&b.text),
                json_string(&b.why)
            )
        })
        .collect();
    let solved = count(outcomes, Verdict::Shortest) + count(outcomes, Verdict::Solved);
    format!(
        "{{\"summary\":{{\"problems\":{},\"solved\":{solved},\"shortest\":{},\"wrong\":{},\
         \"nomate\":{},\"unsolved\":{},\"bad\":{},\"seconds\":{:.6},\"table_bytes\":{}}},\
         \"problems\":[{}],\"bad_lines\":[{}]}}",
        outcomes.len() + bad.len(),
        count(outcomes, Verdict::Shortest),
        count(outcomes, Verdict::Wrong),
        count(outcomes, Verdict::NoMate),
        count(outcomes, Verdict::Unsolved),
        bad.len(),
        total.as_secs_f64(),
        solver.table_bytes(),
        items.join(","),
        bad_items.join(",")
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
    fn the_old_time_limit_names_the_movetime_that_replaces_it() {
        assert!(time_limit_moved("2.5").ends_with("use --movetime 2500"));
        for bad in ["-1", "0", "NaN", "inf", "1e300", "soon", ""] {
            assert!(time_limit_moved(bad).ends_with("use --movetime MS"), "{bad}");
        }
    }

    #[test]
    fn bad_lines_are_kept_apart_with_their_number_and_why() {
        let text = "# comment\nstartpos\nsfen 9/9 b - 1\nname\tlong\t4k4/9/9/9/9/9/9/9/9 b G 1\n\
                    4k4/9/4P4/9/9/9/9/9/9 b G 1\n";
        let (loaded, bad) = load_all(text);
        assert_eq!(loaded.len(), 2);
        assert_eq!(loaded[0].pos, Position::startpos());
        let lines: Vec<usize> = bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 4]);
        assert!(bad[0].why.starts_with("bad SFEN: "), "{}", bad[0].why);
        assert_eq!(bad[1].why, "bad length 'long'");
    }

    #[test]
    fn a_line_shorter_than_the_proven_bound_is_flagged() {
        let pv = vec![shogi::Move::drop(PieceKind::Gold, Square::new(4, 1)); 3];
        assert!(bound_note(&report(&[9, 5], false), &pv).contains("within 5 plies"));
        assert_eq!(bound_note(&report(&[9, 3], false), &pv), "");
        assert_eq!(bound_note(&report(&[9, 5], true), &pv), "");
    }
}
