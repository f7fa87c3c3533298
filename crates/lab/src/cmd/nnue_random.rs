//! Writes a network of random weights in the `nn.bin` format: a test net for
//! comparing Kyobo's NNUE evaluation with another implementation on the same file
//! (`tools/nnue_reference.py`), not for playing.
//!
//!     cargo run --release -p lab -- nnue-random SEED FILE

use eval::nnue::Network;
use std::io::BufWriter;

pub fn main(args: Vec<String>) {
    let args: Vec<String> = args.into_iter().skip(1).collect();
    let (Some(seed), Some(path)) = (args.first().and_then(|s| s.parse::<u64>().ok()), args.get(1))
    else {
        eprintln!("usage: nnue_random SEED FILE");
        std::process::exit(2);
    };
    let result = Network::random(seed).map_err(|e| e.to_string()).and_then(|net| {
        let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
        net.write(&mut BufWriter::new(file)).map_err(|e| e.to_string())
    });
    if let Err(e) = result {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    }
}
