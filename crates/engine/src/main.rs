//! The `kyobo` command: subcommands around the Kyobo library.

mod mate_cmd;
mod perft_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "kyobo", version, about = "Kyobo (共謀): a shogi engine and library")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree to a depth (move generator check).
    Perft(perft_cmd::PerftArgs),
    /// Solve checkmate (tsume) problems: the shortest mate, verified.
    Mate(mate_cmd::MateArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft_cmd::run(&args),
        Command::Mate(args) => mate_cmd::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
