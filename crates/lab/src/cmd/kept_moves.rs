//! How often ABC's forward pruning keeps the move a stronger player chose.
//!
//! Reads lines `SFEN<TAB>USI_MOVE` (`tools/pgn_moves.py` writes them from a
//! refereed game record: the positions where one player was to move, with the
//! move it played) and, for each, the moves an interior node of ABC's tree keeps
//! there (`search::abc::kept_moves`: the best `ABC_Width` by key, the tactical
//! moves after them, and whatever the options add). A move pruned there is never
//! searched at that node, whatever the threshold. Prints the share of the played
//! moves kept, by kind (capture or promotion, check, drop, other), and the mean
//! number of moves kept (with `--show N`, the first N positions whose move was
//! pruned):
//!
//! ```text
//! python3 tools/pgn_moves.py data/matches/abc-asp-fairy-0-25.pgn --player Fairy-Stockfish > /tmp/fairy-moves.txt
//! cargo run --release -p lab -- kept-moves --data /tmp/fairy-moves.txt [--option ABC_Width=16]…
//! ```

use search::abc::{kept_moves, AbcOptions};
use shogi::{Move, Position};
use shogi_game::ShogiGame;
use std::io::Write;

/// Kept and seen, for one kind of move.
#[derive(Default)]
struct Share {
    kept: usize,
    seen: usize,
}

impl Share {
    fn add(&mut self, kept: bool) {
        self.seen += 1;
        self.kept += usize::from(kept);
    }

    fn text(&self) -> String {
        let percent = 100.0 * self.kept as f64 / self.seen.max(1) as f64;
        format!("{}/{} ({percent:.1} %)", self.kept, self.seen)
    }
}

fn kind(pos: &Position, m: Move) -> usize {
    if m.is_capture() || m.is_promotion() {
        0
    } else if pos.gives_check(m) {
        1
    } else if m.is_drop() {
        2
    } else {
        3
    }
}

pub fn main(args: Vec<String>) -> Result<(), String> {
    shogi::attacks::init();
    let mut data = None;
    let mut show = 0;
    let mut options = AbcOptions::default();
    let mut args = args.into_iter().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--data" => data = Some(value),
            "--show" => show = value.parse().map_err(|e| format!("--show {value}: {e}"))?,
            "--option" => options.set_text(&value)?,
            _ => return Err(format!("unknown argument {arg}")),
        }
    }
    let data = data.ok_or("--data FILE is needed")?;
    let text = std::fs::read_to_string(&data).map_err(|e| format!("{data}: {e}"))?;

    // Written with errors returned, so that output cut short (a pipe into `head`)
    // ends the program quietly instead of panicking.
    let mut out = std::io::stdout().lock();
    let write_error = |e: std::io::Error| e.to_string();
    let mut shares: [Share; 4] = Default::default();
    let mut all = Share::default();
    let mut kept_total = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (sfen, played) = line.split_once('\t').ok_or(format!("not SFEN<TAB>MOVE: {line}"))?;
        let pos = Position::from_sfen(sfen).map_err(|e| format!("{sfen}: {e:?}"))?;
        let m = pos.parse_usi_move(played.trim()).map_err(|e| format!("{played}: {e:?}"))?;
        if pos.in_check() {
            continue; // every move is kept in check
        }
        let kept = kept_moves(&ShogiGame::new(pos.clone()), options);
        kept_total += kept.len();
        let found = kept.iter().any(|&(k, _)| k == m);
        shares[kind(&pos, m)].add(found);
        if !found && show > 0 {
            show -= 1;
            let last = kept.last().map_or(0, |k| k.1);
            let first = kept.first().map_or(0, |k| k.1);
            writeln!(out, "pruned: {sfen} {played}, {} kept, keys {first} .. {last}", kept.len())
                .map_err(write_error)?;
        }
        all.add(found);
    }
    writeln!(
        out,
        "positions {}, moves kept per node {:.1}",
        all.seen,
        kept_total as f64 / all.seen.max(1) as f64
    )
    .map_err(write_error)?;
    writeln!(out, "played move kept: {}", all.text()).map_err(write_error)?;
    for (name, share) in
        ["capture or promotion", "check", "drop", "other quiet"].iter().zip(&shares)
    {
        writeln!(out, "  {name}: {}", share.text()).map_err(write_error)?;
    }
    Ok(())
}
