//! The `kyobo` command: subcommands around the Kyobo library.

mod analyse_cmd;
mod bench_cmd;
mod book_cmd;
mod convert_cmd;
mod cpu;
mod csa;
mod dobutsu_cmd;
mod mate_cmd;
mod perft_cmd;
mod serve;
mod shape_cmd;
mod tree_cmd;
mod usi;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// `kyobo --version`: the version, the commit and the CPU features built for.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("KYOBO_COMMIT"),
    "; built for ",
    env!("KYOBO_FEATURES"),
    ")"
);

#[derive(Parser)]
#[command(name = "kyobo", version = VERSION, about = "Kyobo (共謀): a shogi engine and library")]
struct Cli {
    /// Without a subcommand, `kyobo` speaks USI (GUIs launch the bare binary).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree to a depth (move generator check).
    Perft(perft_cmd::PerftArgs),
    /// Solve checkmate (tsume) problems: the shortest mate, verified.
    Mate(mate_cmd::MateArgs),
    /// Speak the USI protocol on stdin/stdout (also the default).
    Usi,
    /// Search fixed positions to a fixed depth: node signature and speed.
    Bench(bench_cmd::BenchArgs),
    /// Minimax, alpha-beta, negamax or ABC on a tree or a position, traced.
    Tree(tree_cmd::TreeArgs),
    /// The bad-shape checks (悪形チェック): a position's ugly moves and why, or how
    /// often each check fires on the moves of a file of games.
    Shape(shape_cmd::ShapeArgs),
    /// Convert a game record between CSA, KIF, KI2, USI and JKF (format by
    /// extension or content), or print its moves (`--japanese`: ▲７六歩 …).
    Convert(convert_cmd::ConvertArgs),
    /// Analyse a game record: every position searched, each move judged by the
    /// winning chances it loses (?! ? ??), the record written back annotated.
    Analyse(analyse_cmd::AnalyseArgs),
    /// Play on a CSA server (floodgate): log in, play N games with a USI engine,
    /// save their records. See docs/csa.md.
    Csa(csa::CsaArgs),
    /// Opening books (YaneuraOu's text format): build one from game records, give
    /// its moves Kyobo's search values, sort it, look a position up.
    Book(book_cmd::BookArgs),
    /// Dobutsu shogi (どうぶつしょうぎ): solve it (retrograde analysis), every
    /// move's exact value, or a game against the engine in the terminal.
    Dobutsu(dobutsu_cmd::DobutsuArgs),
    /// A page to play shogi and Dobutsu shogi and review records in the
    /// browser, on http://127.0.0.1:8088/ (this machine only by default).
    Serve(serve::ServeArgs),
}

/// Prints one line on stdout. A reader that has gone away (`kyobo mate ... | head`)
/// ends the command quietly instead of with a panic.
pub fn print_line(line: &str) {
    use std::io::Write;
    if writeln!(std::io::stdout(), "{line}").is_err() {
        std::process::exit(0);
    }
}

/// `NAME=VALUE` of `--option` (an algorithm's option, such as `ABC_Width=8`).
pub fn parse_algorithm_option(text: &str) -> Result<(&str, i64), String> {
    text.split_once('=')
        .and_then(|(name, value)| Some((name.trim(), value.trim().parse::<i64>().ok()?)))
        .ok_or_else(|| format!("--option {text}: expected NAME=NUMBER"))
}

fn main() -> ExitCode {
    if let Some(why) = cpu::unsupported() {
        eprintln!("error: {why}");
        return ExitCode::FAILURE;
    }
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Usi) => usi::run(),
        Some(Command::Perft(args)) => perft_cmd::run(&args),
        Some(Command::Mate(args)) => mate_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args),
        Some(Command::Tree(args)) => tree_cmd::run(&args),
        Some(Command::Shape(args)) => shape_cmd::run(&args),
        Some(Command::Convert(args)) => convert_cmd::run(&args),
        Some(Command::Analyse(args)) => analyse_cmd::run(&args),
        Some(Command::Csa(args)) => csa::run(&args),
        Some(Command::Dobutsu(args)) => dobutsu_cmd::run(&args),
        Some(Command::Book(args)) => book_cmd::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
