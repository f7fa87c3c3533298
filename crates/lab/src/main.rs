//! `kyobo-lab`: the tools that make and test Kyobo's evaluation and search, kept out
//! of the libraries: self-play data, Texel tuning, NNUE training and search
//! experiments. Each subcommand's module says what it reads and writes.
//!
//! ```text
//! cargo run --release -p lab -- COMMAND [ARGS]…
//! ```

mod cmd;
mod trainer;
mod tuning;

use std::process::ExitCode;

/// What runs a subcommand, given the command line from the subcommand's name on.
type Run = fn(Vec<String>) -> Result<(), String>;

/// Every subcommand: its name, one line of help, and what runs it.
const COMMANDS: &[(&str, &str, Run)] = &[
    ("selfplay", "self-play positions with results, for tuning and training", |a| {
        cmd::selfplay::main(a);
        Ok(())
    }),
    ("tune", "Texel tuning of the evaluation's linear weights", |a| {
        cmd::tune::main(a);
        Ok(())
    }),
    ("tune-danger", "tuning of the king-danger weights", |a| {
        cmd::tune_danger::main(a);
        Ok(())
    }),
    ("nnue-teacher", "positions labelled by the handcrafted evaluation", |a| {
        cmd::nnue_teacher::main(a);
        Ok(())
    }),
    ("nnue-train", "train a halfKP network and write nn.bin", |a| {
        cmd::nnue_train::main(a);
        Ok(())
    }),
    ("nnue-siblings", "how a network follows the evaluation among siblings", |a| {
        cmd::nnue_siblings::main(a);
        Ok(())
    }),
    ("nnue-random", "a network of random weights, for reference checks", |a| {
        cmd::nnue_random::main(a);
        Ok(())
    }),
    ("abc-trace", "ABC's trace of one position, node by node", cmd::abc_trace::main),
    ("kept-moves", "how often ABC's pruning keeps a stronger player's move", cmd::kept_moves::main),
];

fn usage() -> String {
    let mut text = String::from("usage: kyobo-lab COMMAND [ARGS]…\n\ncommands:\n");
    for (name, help, _) in COMMANDS {
        text.push_str(&format!("  {name:<14} {help}\n"));
    }
    text
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first().cloned() else {
        eprint!("{}", usage());
        return ExitCode::FAILURE;
    };
    if name == "--help" || name == "-h" || name == "help" {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let Some((_, _, run)) = COMMANDS.iter().find(|(n, _, _)| n.eq_ignore_ascii_case(&name)) else {
        eprint!("kyobo-lab: no command '{name}'\n\n{}", usage());
        return ExitCode::FAILURE;
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kyobo-lab {name}: {e}");
            ExitCode::FAILURE
        }
    }
}
