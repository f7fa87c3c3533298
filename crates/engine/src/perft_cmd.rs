//! `kyobo perft <depth> [--sfen SFEN] [--divide]`.

use shogi::perft::{perft, perft_divide};
use shogi::Position;
use std::time::Instant;

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// The position (default: the start position). `startpos` is accepted too.
    #[arg(long)]
    sfen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: &PerftArgs) -> Result<(), String> {
    let mut pos = match args.sfen.as_deref() {
        None | Some("startpos") => Position::startpos(),
        Some(s) => {
            let s = s.strip_prefix("sfen ").unwrap_or(s);
            Position::from_sfen(s).map_err(|e| format!("bad SFEN: {e}"))?
        }
    };
    shogi::attacks::init();
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = perft_divide(&mut pos, args.depth);
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    println!("nodes {nodes}");
    println!("time {:.3} s", secs);
    println!("nps {:.0}", nps);
    Ok(())
}
