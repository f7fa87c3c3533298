//! How closely a network follows the handcrafted evaluation where the search
//! uses it most: among the children of one position. On validation positions of
//! a self-play file (`selfplay.rs`; every `--step`th, `--n` of them) it prints
//!
//! - over the children (moves that leave the mover's opponent out of check, each
//!   valued from the parent's side and centred on the parent's mean): the spread
//!   of the handcrafted and the network's values, their correlation, and how often
//!   both put the same child first;
//! - over the positions themselves: each evaluation's correlation with the search's
//!   score in the file, and with each other (also with every value clipped to
//!   ±1500, where the lopsided positions weigh less).
//!
//! For comparison it does the same for the handcrafted evaluation's placement
//! terms alone (material, piece-square and hand, pieces placed by the kings,
//! tempo: what a halfKP network can express feature by feature), leaving out the
//! terms that depend on attacks (king zones, slider mobility, threatened pieces).
//!
//! ```text
//! cargo run --release -p lab -- nnue-siblings --data nnue-data.txt --net nn.bin
//! ```

use super::common::{arg, load_split};
use eval::nnue::stack::evaluate_afresh;
use eval::nnue::Network;
use shogi::movegen::{generate_legal, MoveList};
use shogi::{Color, Position};
use std::sync::Arc;

fn handcrafted(pos: &Position) -> f64 {
    f64::from(eval::evaluate::evaluate(pos, eval::incremental::full(pos)))
}

/// The handcrafted evaluation's placement terms (see the module's comment).
fn placement(pos: &Position) -> f64 {
    let breakdown = eval::evaluate::breakdown(pos);
    let kept = ["material, piece-square and hand", "pieces placed by the kings", "tempo"];
    f64::from(
        breakdown.terms.iter().filter(|(name, _)| kept.contains(name)).map(|t| t.1).sum::<i32>(),
    )
}

fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let (ma, mb) = (mean(a), mean(b));
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

fn spread(v: &[f64]) -> f64 {
    (v.iter().map(|x| x * x).sum::<f64>() / v.len().max(1) as f64).sqrt()
}

pub fn main(args: Vec<String>) {
    let data: String = arg(&args, "--data", "nnue-data.txt".to_string());
    let net: String = arg(&args, "--net", "nn.bin".to_string());
    let n: usize = arg(&args, "--n", 1500);
    let step: usize = arg(&args, "--step", 7);
    shogi::attacks::init();
    let network = Arc::new(Network::read(std::path::Path::new(&net)).expect("the network"));
    let (_, valid) = load_split(&data, 2, |pos, _, score, _| (pos, score));

    // Children, centred per parent; the first-child agreement.
    let (mut hand_children, mut net_children, mut placed_children) =
        (Vec::new(), Vec::new(), Vec::new());
    let (mut same_first, mut placed_same_first, mut parents) = (0usize, 0usize, 0usize);
    // The positions themselves, from the side to move.
    let (mut scores, mut hand_roots, mut net_roots) = (Vec::new(), Vec::new(), Vec::new());
    for (pos, score) in valid.iter().step_by(step.max(1)).take(n) {
        let (Some(score), Some(value)) = (score, evaluate_afresh(&network, pos)) else { continue };
        let sign = if pos.side_to_move() == Color::Black { 1.0 } else { -1.0 };
        scores.push(sign * score);
        hand_roots.push(handcrafted(pos));
        net_roots.push(f64::from(value));

        let mut list = MoveList::new();
        generate_legal(pos, &mut list);
        let (mut hand, mut nnue, mut placed) = (Vec::new(), Vec::new(), Vec::new());
        for &m in list.as_slice() {
            let mut child = pos.clone();
            child.do_move(m);
            let Some(value) =
                (!child.in_check()).then(|| evaluate_afresh(&network, &child)).flatten()
            else {
                continue;
            };
            hand.push(-handcrafted(&child));
            nnue.push(-f64::from(value));
            placed.push(-placement(&child));
        }
        if hand.len() < 2 {
            continue;
        }
        let first = |v: &[f64]| (0..v.len()).max_by(|&a, &b| v[a].total_cmp(&v[b]));
        parents += 1;
        same_first += usize::from(first(&hand) == first(&nnue));
        placed_same_first += usize::from(first(&hand) == first(&placed));
        for values in [&mut hand, &mut nnue, &mut placed] {
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            values.iter_mut().for_each(|v| *v -= mean);
        }
        hand_children.extend(hand);
        net_children.extend(nnue);
        placed_children.extend(placed);
    }
    println!(
        "children of {parents} positions: spread handcrafted {:.0} network {:.0}, correlation {:.3}, \
         same first child {same_first}/{parents}",
        spread(&hand_children),
        spread(&net_children),
        correlation(&hand_children, &net_children)
    );
    println!(
        "the placement terms alone: spread {:.0}, correlation with the handcrafted values {:.3}, \
         same first child {placed_same_first}/{parents}",
        spread(&placed_children),
        correlation(&hand_children, &placed_children)
    );
    let clip = |v: &[f64]| v.iter().map(|x| x.clamp(-1500.0, 1500.0)).collect::<Vec<f64>>();
    println!(
        "{} positions: correlation with the search's score: handcrafted {:.3}, network {:.3} \
         (clipped to ±1500: {:.3}, {:.3}); handcrafted with network {:.3}",
        scores.len(),
        correlation(&scores, &hand_roots),
        correlation(&scores, &net_roots),
        correlation(&clip(&scores), &clip(&hand_roots)),
        correlation(&clip(&scores), &clip(&net_roots)),
        correlation(&hand_roots, &net_roots)
    );
}
