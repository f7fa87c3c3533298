//! `kyobo tree`: the textbook searches and ABC search you can watch, on a tree
//! given as data or on a shogi position.

use eval::ShogiGame;
use search::abc::{self, AbcOptions};
use search::textbook::{alphabeta, format_trace, minimax, negamax, NoTrace, TraceEvent};
use search::tree::TreeGame;
use search::value::INFINITE;
use search::{Game, Value};
use shogi::Position;

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
}

pub fn run(args: &TreeArgs) -> Result<(), String> {
    shogi::attacks::init();
    if let Some(sfen) = &args.sfen {
        let pos = Position::from_sfen(sfen).map_err(|e| format!("--sfen: {e}"))?;
        return report(&ShogiGame::new(pos), args.depth.unwrap_or(2), args);
    }
    if let Some(sfen) = &args.dobutsu {
        let game = dobutsu::Dobutsu::from_sfen(sfen).map_err(|e| format!("--dobutsu: {e}"))?;
        return report(&game, args.depth.unwrap_or(4), args);
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
    report(&tree, depth, args)
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
fn print_found<M: std::fmt::Display>(value: Value, pv: &[M]) {
    crate::print_line(&format!("value {}", show(value)));
    let best = pv.first().map_or("none".to_string(), |m| m.to_string());
    crate::print_line(&format!("best {best}"));
    let line: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
    crate::print_line(&format!("pv {}", line.join(" ")));
}

fn report<G: Game>(game: &G, depth: u32, args: &TreeArgs) -> Result<(), String> {
    let (a, b) = match args.window.as_deref() {
        Some([a, b]) if a < b => (*a, *b),
        Some(_) => return Err("--window ALPHA BETA needs ALPHA < BETA".into()),
        None => (-INFINITE, INFINITE),
    };
    let mut events: Vec<TraceEvent<G::Move>> = Vec::new();
    let traced = args.trace;
    let result = match args.algo.to_ascii_lowercase().as_str() {
        "minimax" if traced => minimax(game, depth, &mut events),
        "minimax" => minimax(game, depth, &mut NoTrace),
        "alphabeta" if traced => alphabeta(game, depth, a, b, &mut events),
        "alphabeta" => alphabeta(game, depth, a, b, &mut NoTrace),
        "negamax" if traced => negamax(game, depth, a, b, &mut events),
        "negamax" => negamax(game, depth, a, b, &mut NoTrace),
        "abc" => return report_abc(game, depth, args),
        other => return Err(format!("--algo {other}: minimax, alphabeta, negamax or abc")),
    };
    if traced {
        for line in format_trace(&events, "root").lines() {
            crate::print_line(line);
        }
    }
    print_found(result.value, &result.pv);
    crate::print_line(&format!("nodes {}", result.nodes));
    crate::print_line(&format!("leaves {}", result.leaves));
    Ok(())
}

fn report_abc<G: Game>(game: &G, threshold: u32, args: &TreeArgs) -> Result<(), String> {
    let mut options = AbcOptions::default();
    for option in &args.options {
        let (name, value) = crate::parse_algorithm_option(option)?;
        options.set(name, value)?;
    }
    let threshold = i32::try_from(threshold).unwrap_or(i32::MAX).min(search::value::MAX_PLY);
    let found = abc::traced(game, threshold, options);
    if args.trace {
        for line in &found.trace {
            crate::print_line(line);
        }
    }
    print_found(found.value, &found.pv);
    let c = found.counters;
    crate::print_line(&format!(
        "nodes {} leaves {} key_searches {} early_cuts {}",
        c.nodes, c.leaves, c.key_searches, c.early_cuts
    ));
    Ok(())
}
