//! `kyobo bench`: fixed positions searched to a fixed depth on one thread. The total
//! node count is a signature of the search: it changes only when search or
//! evaluation changes. `--threads N` runs Lazy SMP instead, for its time-to-depth
//! speed-up (the node count is then not deterministic).

use eval::nnue::Network;
use search::engine::Signals;
use search::{Engine, Limits};
use shogi::Position;
use shogi_game::ShogiGame;
use std::sync::Arc;
use std::time::Instant;

/// Opening, middle game, a sharp attack (the "Matsuri" perft position), endgames.
const POSITIONS: [&str; 8] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL b - 11",
    "lr5nl/3g1kg2/2n1pps1p/p1ps2p2/1p5P1/P1PSP1P1P/1PS2P3/2GK1G3/LN5RL b Bbnp 41",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "ln5nl/2r2gk2/p2pppsp1/2p3p1p/1p5P1/2P1P1P1P/PPS2PS2/2G2K3/LN5RL b BGSbgnp 45",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "4k4/9/4P4/9/9/9/9/9/4K4 b 2GS2r2b2g3s4n4l17p 1",
    "6snl/5kg2/4pp1p1/6p1p/9/4P1P1P/5PS2/5KG2/7NL b RBGSNLPrbgsnl8p 80",
];

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(1..=127))]
    depth: i32,
    /// Transposition table size in MB (cleared before each position).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Search threads (Lazy SMP); more than one makes the node count vary.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// The search algorithm (PVS or ABC); for ABC the depth is the threshold.
    #[arg(long, default_value = "PVS")]
    algo: String,
    /// An algorithm option as NAME=VALUE (ABC_Width=8); may be repeated.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Search each position this many milliseconds instead of to a depth, and
    /// print the depth (threshold) it completed: a comparison of algorithms at
    /// equal time (not a signature).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Print each position's best move in Japanese notation (`▲７六歩`) instead
    /// of USI.
    #[arg(long)]
    japanese: bool,
    /// Evaluate with this NNUE network (an `nn.bin` file) instead of the
    /// handcrafted evaluation.
    #[arg(long, value_name = "FILE")]
    eval_file: Option<std::path::PathBuf>,
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    shogi::attacks::init();
    let mut engine = Engine::new(1, usize::from(args.threads));
    engine.set_algorithm(&args.algo).map_err(|e| format!("--algo: {e}"))?;
    for option in &args.options {
        let (name, value) = crate::parse_algorithm_option(option)?;
        engine.set_algorithm_option(name, value).map_err(|e| format!("--option: {e}"))?;
    }
    engine.try_set_hash_mb(args.hash).map_err(|e| format!("--hash {}: {e}", args.hash))?;
    let network = match &args.eval_file {
        Some(path) => Some(Arc::new(
            Network::read(path).map_err(|e| format!("--eval-file {}: {e}", path.display()))?,
        )),
        None => None,
    };
    let mut counters: Vec<(&'static str, u64)> = Vec::new();
    let start = Instant::now();
    let mut total = 0u64;
    let mut depths = 0i64;
    let limits = match args.movetime {
        Some(ms) => Limits {
            movetime: Some(std::time::Duration::from_millis(ms)),
            multipv: 1,
            ..Limits::default()
        },
        None => Limits::depth(args.depth),
    };
    for (i, sfen) in POSITIONS.iter().enumerate() {
        let pos =
            Position::from_sfen(sfen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.clear();
        let signals = Signals::new();
        let mut game = ShogiGame::new(pos.clone());
        if network.is_some() && !game.set_network(network.clone()) {
            return Err(format!("bench position {}: not for the network", i + 1));
        }
        let result = engine.search(&game, &limits, &signals, &mut |_| {});
        let best = match result.best_move {
            None => "resign".to_string(),
            Some(m) if args.japanese => records::japanese(&pos, m, None),
            Some(m) => m.to_usi(),
        };
        // The score as USI writes it: `cp N`, or `mate N` in plies.
        let score = match search::value::Score::from_value(result.score) {
            search::value::Score::Cp(cp) => format!("cp {cp}"),
            search::value::Score::Mate(n) => format!("mate {n}"),
        };
        crate::print_line(&format!(
            "position {:>2}: nodes {:>10} depth {:>3} bestmove {best} score {score}",
            i + 1,
            result.nodes,
            result.depth,
        ));
        depths += i64::from(result.depth);
        total += result.nodes;
        for (name, n) in result.counters {
            match counters.iter_mut().find(|c| c.0 == name) {
                Some(c) => c.1 += n,
                None => counters.push((name, n)),
            }
        }
    }
    for (name, n) in counters {
        crate::print_line(&format!("{name} {n}"));
    }
    let secs = start.elapsed().as_secs_f64();
    crate::print_line(&format!("nodes {total}"));
    crate::print_line(&format!("mean depth {:.2}", depths as f64 / POSITIONS.len() as f64));
    crate::print_line(&format!("time {:.3} s", secs));
    crate::print_line(&format!("nps {:.0}", total as f64 / secs.max(1e-9)));
    Ok(())
}
