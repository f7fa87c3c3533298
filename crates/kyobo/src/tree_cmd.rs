//! `kyobo tree`: the textbook searches and ABC search you can watch, on a tree
//! given as data or on a shogi position.

use search::abc::{self, AbcOptions};
use search::textbook::{alphabeta, format_trace, minimax, negamax, NoTrace, TraceEvent};
use search::tree::TreeGame;
use search::value::INFINITE;
use search::{Game, Value};
use shogi::{Move, Position};
use shogi_game::ShogiGame;
use std::fmt::Display;

#[derive(clap::Args)]
pub struct TreeArgs {
    /// A file holding a tree: named nodes `A(B:3 C(D:1 E:2))` or nested lists of
    /// leaf values `((3 12 8) (2 4 6) (14 5 2))`.
    file: Option<String>,
    /// The tree itself on the command line instead of a file.
    #[arg(long, conflicts_with_all = ["file", "sfen"])]
    tree: Option<String>,
    /// A shogi position (SFEN) instead of a tree.
    #[arg(long, conflicts_with_all = ["file", "dobutsu"])]
    sfen: Option<String>,
    /// A Dobutsu shogi position (`gle/1c1/1C1/ELG b - 1`) instead of a tree.
    #[arg(long, conflicts_with = "file")]
    dobutsu: Option<String>,
    /// minimax, alphabeta (max/min form), negamax, or abc.
    #[arg(long, default_value = "alphabeta")]
    algo: String,
    /// Plies to search (trees: their height by default; shogi positions: 2;
    /// Dobutsu positions: 4); for abc the last threshold.
    #[arg(long)]
    depth: Option<u32>,
    /// The root's window for alphabeta and negamax (default: -inf +inf).
    #[arg(long, num_args = 2, value_names = ["ALPHA", "BETA"], allow_negative_numbers = true)]
    window: Option<Vec<Value>>,
    /// Print every node: its window, its value, and the cuts (abc: the keys and
    /// each side's conspiracy depth against its threshold).
    #[arg(long)]
    trace: bool,
    /// An ABC option as NAME=VALUE (ABC_Delta=2 for small trees); may be repeated.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// With --sfen: moves in Japanese notation (`▲７六歩`) instead of USI, in the
    /// result and the trace.
    #[arg(long, requires = "sfen", conflicts_with_all = ["file", "tree", "dobutsu"])]
    japanese: bool,
}

pub fn run(args: &TreeArgs) -> Result<(), String> {
    shogi::attacks::init();
    if let Some(sfen) = &args.sfen {
        let pos = Position::from_position_text(sfen).map_err(|e| format!("--sfen: {e}"))?;
        let game = ShogiGame::new(pos.clone());
        let depth = args.depth.unwrap_or(2);
        return if args.japanese {
            report(&game, depth, args, &Japanese(pos))
        } else {
            report(&game, depth, args, &AsWritten)
        };
    }
    if let Some(sfen) = &args.dobutsu {
        let game =
            dobutsu::Dobutsu::from_position_text(sfen).map_err(|e| format!("--dobutsu: {e}"))?;
        return report(&game, args.depth.unwrap_or(4), args, &AsWritten);
    }
    let text = match (&args.tree, &args.file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
        (None, None) => {
            return Err("give a tree FILE, --tree TEXT, --sfen SFEN or --dobutsu SFEN".into())
        }
    };
    let tree = TreeGame::parse(text.trim()).map_err(|e| e.to_string())?;
    let depth = args.depth.unwrap_or_else(|| height(&tree));
    report(&tree, depth, args, &AsWritten)
}

/// How the output names moves.
trait MoveNames<M> {
    /// The name of `m`, played after the moves `path` from the root.
    fn name(&self, path: &[M], m: M) -> String;

    /// The names of the moves of `line`, played one after another from the root.
    fn line(&self, line: &[M]) -> Vec<String>
    where
        M: Copy,
    {
        (0..line.len()).map(|i| self.name(&line[..i], line[i])).collect()
    }

    /// ABC's trace (lines made by `search::abc::traced`) as it is printed.
    fn abc_trace(&self, lines: Vec<String>) -> Vec<String> {
        lines
    }
}

/// Moves as the game writes them: a tree's node names, USI for shogi, Dobutsu
/// notation.
struct AsWritten;

impl<M: Display> MoveNames<M> for AsWritten {
    fn name(&self, _path: &[M], m: M) -> String {
        m.to_string()
    }
}

/// Shogi moves in Japanese notation (`▲７六歩`, `△同　歩`) from this root.
struct Japanese(Position);

impl Japanese {
    /// The position after `path`.
    fn after(&self, path: &[Move]) -> Position {
        let mut pos = self.0.clone();
        for &m in path {
            pos.do_move(m);
        }
        pos
    }

    /// `text` (`M KEY, M KEY, …`, ABC's keys) with each move, legal after `path`,
    /// in Japanese notation; as it is where a move does not read.
    fn keys(&self, path: &[Move], text: &str) -> String {
        let pos = self.after(path);
        let keys: Vec<String> = text
            .split(", ")
            .map(|entry| match entry.split_once(' ') {
                Some((m, key)) => match pos.parse_usi_move(m) {
                    Ok(m) => format!("{} {key}", records::japanese(&pos, m, path.last().copied())),
                    Err(_) => entry.to_string(),
                },
                None => entry.to_string(),
            })
            .collect();
        keys.join(", ")
    }
}

impl MoveNames<Move> for Japanese {
    fn name(&self, path: &[Move], m: Move) -> String {
        records::japanese(&self.after(path), m, path.last().copied())
    }

    /// The trace's moves in Japanese notation. ABC writes its trace as text, a
    /// line per event indented two spaces a ply: `iteration …; root keys M KEY, …`
    /// at the root, `M by SIDE, key …` for the node at ply n (indent n), and
    /// `keys M KEY, …` for the moves of the node at ply n (indent n + 1). The path
    /// to each node is followed through those lines; a line that does not read
    /// as expected is printed as it is.
    fn abc_trace(&self, lines: Vec<String>) -> Vec<String> {
        let mut path: Vec<Move> = Vec::new();
        lines
            .into_iter()
            .map(|line| {
                let body = line.trim_start_matches(' ');
                let indent = (line.len() - body.len()) / 2;
                let lead = &line[..line.len() - body.len()];
                if let Some((head, keys)) = body.split_once("; root keys ") {
                    path.clear();
                    return format!("{lead}{head}; root keys {}", self.keys(&[], keys));
                }
                if let Some(keys) = body.strip_prefix("keys ") {
                    if indent >= 1 && path.len() >= indent - 1 {
                        path.truncate(indent - 1);
                        return format!("{lead}keys {}", self.keys(&path, keys));
                    }
                    return line;
                }
                if let Some((m, rest)) = body.split_once(" by ") {
                    if indent >= 1 && path.len() >= indent - 1 {
                        path.truncate(indent - 1);
                        if let Ok(mv) = self.after(&path).parse_usi_move(m) {
                            let name = self.name(&path, mv);
                            path.push(mv);
                            return format!("{lead}{name} by {rest}");
                        }
                    }
                }
                line
            })
            .collect()
    }
}

/// The trace with its moves named by `names`.
fn named<M: Copy>(events: &[TraceEvent<M>], names: &impl MoveNames<M>) -> Vec<TraceEvent<String>> {
    events
        .iter()
        .map(|e| match e {
            TraceEvent::Enter { path, window } => {
                TraceEvent::Enter { path: names.line(path), window: *window }
            }
            TraceEvent::Leave { path, value, leaf } => {
                TraceEvent::Leave { path: names.line(path), value: *value, leaf: *leaf }
            }
            TraceEvent::Cut { path, kind, pruned } => TraceEvent::Cut {
                path: names.line(path),
                kind: *kind,
                pruned: pruned.iter().map(|&m| names.name(path, m)).collect(),
            },
        })
        .collect()
}

/// Plies from the root to the deepest leaf.
fn height(tree: &TreeGame) -> u32 {
    let mut moves = Vec::new();
    tree.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let mut child = tree.clone();
            child.make_move(m);
            1 + height(&child)
        })
        .max()
        .unwrap_or(0)
}

fn show(v: Value) -> String {
    if v >= INFINITE {
        "+inf".into()
    } else if v <= -INFINITE {
        "-inf".into()
    } else {
        v.to_string()
    }
}

/// The root's value, the best move and the line.
fn print_found<M: Copy>(value: Value, pv: &[M], names: &impl MoveNames<M>) {
    crate::print_line(&format!("value {}", show(value)));
    let line = names.line(pv);
    let best = line.first().map_or("none", String::as_str);
    crate::print_line(&format!("best {best}"));
    crate::print_line(&format!("pv {}", line.join(" ")));
}

fn report<G: Game>(
    game: &G,
    depth: u32,
    args: &TreeArgs,
    names: &impl MoveNames<G::Move>,
) -> Result<(), String> {
    let algo = args.algo.to_ascii_lowercase();
    if !args.options.is_empty() && algo != "abc" {
        return Err(format!("--option sets ABC's options: use it with --algo abc, not {algo}"));
    }
    if args.window.is_some() && !matches!(algo.as_str(), "alphabeta" | "negamax") {
        return Err(format!("--window is for --algo alphabeta and negamax, not {algo}"));
    }
    let (a, b) = match args.window.as_deref() {
        Some([a, b]) if a < b => (*a, *b),
        Some(_) => return Err("--window ALPHA BETA needs ALPHA < BETA".into()),
        None => (-INFINITE, INFINITE),
    };
    let mut events: Vec<TraceEvent<G::Move>> = Vec::new();
    let traced = args.trace;
    let result = match algo.as_str() {
        "minimax" if traced => minimax(game, depth, &mut events),
        "minimax" => minimax(game, depth, &mut NoTrace),
        "alphabeta" if traced => alphabeta(game, depth, a, b, &mut events),
        "alphabeta" => alphabeta(game, depth, a, b, &mut NoTrace),
        "negamax" if traced => negamax(game, depth, a, b, &mut events),
        "negamax" => negamax(game, depth, a, b, &mut NoTrace),
        "abc" => return report_abc(game, depth, args, names),
        other => return Err(format!("--algo {other}: minimax, alphabeta, negamax or abc")),
    };
    if traced {
        for line in format_trace(&named(&events, names), "root").lines() {
            crate::print_line(line);
        }
    }
    print_found(result.value, &result.pv, names);
    // Fail-hard: a value at an end of the window only bounds the true one.
    if args.window.is_some() && result.value <= a {
        crate::print_line(&format!("(an upper bound: the value is at most {})", show(a)));
    } else if args.window.is_some() && result.value >= b {
        crate::print_line(&format!("(a lower bound: the value is at least {})", show(b)));
    }
    crate::print_line(&format!("nodes {}", result.nodes));
    crate::print_line(&format!("leaves {}", result.leaves));
    Ok(())
}

fn report_abc<G: Game>(
    game: &G,
    threshold: u32,
    args: &TreeArgs,
    names: &impl MoveNames<G::Move>,
) -> Result<(), String> {
    let mut options = AbcOptions::default();
    for option in &args.options {
        let (name, value) = crate::parse_algorithm_option(option)?;
        options.set(name, value)?;
    }
    let threshold = i32::try_from(threshold).unwrap_or(i32::MAX).min(search::value::MAX_PLY);
    let found = abc::traced(game, threshold, options);
    if args.trace {
        for line in names.abc_trace(found.trace) {
            crate::print_line(&line);
        }
    }
    print_found(found.value, &found.pv, names);
    let c = found.counters;
    // Leaves: lines the conspiracy depth ended, and nodes where the game had.
    crate::print_line(&format!(
        "nodes {} leaves {} key_searches {} early_cuts {}",
        c.nodes,
        c.leaves + c.game_ends,
        c.key_searches,
        c.early_cuts
    ));
    Ok(())
}
