//! `kyobo perft <depth> [--sfen SFEN] [--divide]`.

use shogi::perft::{perft, perft_divide};
use shogi::Position;
use std::io::Write;
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
    /// With --divide: the root moves in Japanese notation (`▲７六歩`) instead of USI.
    #[arg(long, requires = "divide")]
    japanese: bool,
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
    let mut report = String::new();
    let nodes = if args.divide {
        let root = pos.clone();
        let rows = perft_divide(&mut pos, args.depth);
        for &(m, n) in &rows {
            let m = if args.japanese { records::japanese(&root, m, None) } else { m.to_usi() };
            report.push_str(&format!("{m}: {n}\n"));
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    report.push_str(&format!("nodes {nodes}\ntime {secs:.3} s\nnps {nps:.0}\n"));
    // A closed pipe (e.g. `| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    Ok(())
}
