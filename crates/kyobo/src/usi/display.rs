//! Text for people typing at the engine: the board (`d`), the legal moves
//! (`moves`), the evaluation (`eval`) and the commands (`help`), each line sent
//! as an `info string` so that a GUI reading the same pipe is not confused.

use eval::king_safety::DangerWeights;
use eval::nnue::{Network, NnueStack};
use shogi::{legal_moves, Color, Position, Square};
use std::sync::Arc;

/// The board as files 9 to 1 across and ranks a to i down, Black's pieces in
/// upper case and White's in lower case (`+` for promoted), then the side to
/// move, both hands and the SFEN.
pub fn board(pos: &Position) -> Vec<String> {
    let mut lines = vec!["   9  8  7  6  5  4  3  2  1".to_string()];
    for rank in 0..9u8 {
        let mut row = String::from(" ");
        for file in (0..9u8).rev() {
            let piece = pos.piece_on(Square::new(file, rank));
            let text = if piece.is_empty() { ".".to_string() } else { piece.to_sfen() };
            row.push_str(&format!("{text:>3}"));
        }
        row.push_str(&format!("  {}", (b'a' + rank) as char));
        lines.push(row);
    }
    let hand = |color| {
        let h = pos.hand(color).to_string();
        if h.is_empty() {
            "-".to_string()
        } else {
            h
        }
    };
    let side = match pos.side_to_move() {
        Color::Black => "Black (sente)",
        Color::White => "White (gote)",
    };
    lines.push(format!("side to move: {side}{}", if pos.in_check() { ", in check" } else { "" }));
    lines.push(format!("Black's hand: {}", hand(Color::Black)));
    lines.push(format!("White's hand: {}", hand(Color::White)));
    lines.push(format!("sfen {}", pos.to_sfen()));
    lines
}

/// The legal moves in USI notation, with their count first.
pub fn moves(pos: &Position) -> Vec<String> {
    let list: Vec<String> = legal_moves(pos).iter().map(|m| m.to_usi()).collect();
    let mut lines = vec![format!("{} legal moves", list.len())];
    for chunk in list.chunks(12) {
        lines.push(chunk.join(" "));
    }
    lines
}

/// The legal moves that are bad shape, each with the check that calls it so.
pub fn shape(pos: &Position) -> Vec<String> {
    let bad = shogi_game::bad_shape::bad_moves(pos);
    let mut lines = vec![format!(
        "{} of {} legal moves are bad shape",
        bad.len(),
        shogi::legal_moves(pos).len()
    )];
    lines.extend(bad.iter().map(|(m, c)| format!("{} {}: {}", m.to_usi(), c.name, c.reason)));
    lines
}

/// The static evaluation with the king-danger weights `danger` (a tuning build's
/// scales), its main terms and the phase; first the network's value, as the
/// search sees it (its output divided by `FV_SCALE`), when a network evaluates.
pub fn evaluation(
    pos: &Position,
    danger: &DangerWeights,
    network: Option<(&Arc<Network>, i32)>,
) -> Vec<String> {
    let b = eval::evaluate::breakdown_with(pos, danger);
    let mut lines = Vec::new();
    if let Some((network, fv_scale)) = network {
        let value = NnueStack::new(network.clone(), pos).map(|mut stack| {
            stack.set_output_scale(fv_scale);
            stack.evaluate(pos)
        });
        lines.push(match value {
            Some(v) => format!("nnue value {v} (side to move's view)"),
            None => "nnue value none (not the standard set of pieces)".to_string(),
        });
        lines.push("handcrafted evaluation:".to_string());
    }
    for (name, value) in &b.terms {
        lines.push(format!("{name:<36}{value:>7}"));
    }
    lines.push(format!("{:<36}{:>7}", "total (side to move's view)", b.total));
    lines.push(format!("phase {} of 64 (0: opening, 64: end)", b.phase));
    lines
}

/// What the engine understands.
pub fn help() -> Vec<String> {
    [
        "USI: usi, isready, setoption name N [value V], usinewgame,",
        "  position (startpos | sfen SFEN) [moves M...], go [ponder] [btime T] [wtime T]",
        "  [byoyomi T] [binc T] [winc T] [movetime T] [depth D] [nodes N] [infinite],",
        "  go mate (T | infinite), stop, ponderhit, gameover (win|lose|draw), quit",
        "For people: d (the board), moves (the legal moves), eval (the evaluation),",
        "  shape (the moves the bad-shape check calls ugly), help",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_drawn() {
        let lines = board(&Position::startpos());
        assert_eq!(lines[1], "   l  n  s  g  k  g  s  n  l  a");
        assert_eq!(lines[2], "   .  r  .  .  .  .  .  b  .  b");
        assert_eq!(lines[9], "   L  N  S  G  K  G  S  N  L  i");
        assert_eq!(lines[10], "side to move: Black (sente)");
        assert_eq!(lines[11], "Black's hand: -");
        assert!(lines[13].starts_with("sfen lnsgkgsnl/1r5b1/"));
        assert_eq!(moves(&Position::startpos())[0], "30 legal moves");
    }

    #[test]
    fn hands_and_promoted_pieces() {
        let pos = Position::from_sfen("4k4/9/4+P4/9/9/9/9/9/4K4 w G2Pr 1").unwrap();
        let lines = board(&pos);
        assert_eq!(lines[3], "   .  .  .  . +P  .  .  .  .  c");
        assert_eq!(lines[10], "side to move: White (gote)");
        assert_eq!(lines[11], "Black's hand: G2P");
        assert_eq!(lines[12], "White's hand: R");
    }

    #[test]
    fn the_evaluation_shows_the_danger_weights_it_is_given() {
        use eval::king_safety::DANGER;
        // White's king has a dragon beside it and Black two golds in hand.
        let pos = Position::from_sfen("4k4/9/5+R3/9/9/9/9/9/4K4 w 2G 1").unwrap();
        let safety = |lines: &[String]| {
            let line = lines.iter().find(|l| l.starts_with("king safety")).expect("a safety line");
            line.rsplit(' ').next().and_then(|v| v.parse::<i32>().ok()).expect("a value")
        };
        let compiled_in = evaluation(&pos, &DANGER, None);
        let no_penalty = evaluation(&pos, &DangerWeights { cap: 0, ..DANGER }, None);
        assert!(safety(&no_penalty) > safety(&compiled_in), "{no_penalty:?} {compiled_in:?}");
    }
}
