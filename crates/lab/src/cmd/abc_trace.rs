//! Prints ABC's trace of one shogi position: the last iteration, node by node.
//!
//! ```text
//! cargo run --release -p lab -- abc-trace SFEN THRESHOLD [NAME=VALUE]…
//! ```

use search::abc::{traced, AbcOptions};
use shogi::Position;
use shogi_game::ShogiGame;

pub fn main(args: Vec<String>) -> Result<(), String> {
    let args: Vec<String> = args.into_iter().skip(1).collect();
    let [sfen, threshold, rest @ ..] = args.as_slice() else {
        return Err("usage: abc_trace SFEN THRESHOLD [NAME=VALUE]…".into());
    };
    let pos = Position::from_sfen(sfen).map_err(|e| format!("{sfen}: {e:?}"))?;
    let threshold: i32 = threshold.parse().map_err(|e| format!("{threshold}: {e}"))?;
    let mut options = AbcOptions::default();
    for option in rest {
        options.set_text(option)?;
    }
    let found = traced(&ShogiGame::new(pos), threshold, options);
    for line in &found.trace {
        println!("{line}");
    }
    let pv: Vec<String> = found.pv.iter().map(|m| m.to_string()).collect();
    println!("value {} pv {}", found.value, pv.join(" "));
    Ok(())
}
