//! Criterion benchmarks of the hot paths of the rules core: legal move generation,
//! the staged generators and make/unmake, on a few fixed positions.
//!
//! Run: `cargo bench -p shogi --bench movegen`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use shogi::movegen::{
    generate_captures, generate_checks, generate_drops, generate_evasions, generate_legal,
    generate_quiets, MoveList,
};
use shogi::Position;

/// (name, SFEN): an opening, a middle game with hands, the "matsuri" position,
/// the 593-move position and a position in check.
const POSITIONS: &[(&str, &str)] = &[
    ("startpos", shogi::STARTPOS),
    ("middlegame", "ln1g3nl/1r1sg1k2/p1ppppsp1/1p4p1p/9/2P1P1P2/PPSP1P1PP/2G2S1R1/LN2KG1NL b Bb 1"),
    ("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"),
    ("max_moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"),
    ("in_check", "lnsgkgsnl/7b1/pppp1pppp/9/9/4r4/PPPP1PPPP/1B5R1/LNSGKGSNL b Pp 1"),
];

fn positions() -> Vec<(&'static str, Position)> {
    POSITIONS
        .iter()
        .map(|(name, sfen)| (*name, Position::from_sfen(sfen).expect("benchmark SFEN is valid")))
        .collect()
}

fn bench_legal(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_legal");
    for (name, pos) in positions() {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                generate_legal(black_box(&pos), &mut list);
                list.len()
            })
        });
    }
    group.finish();
}

fn bench_stages(c: &mut Criterion) {
    let mut group = c.benchmark_group("stages");
    for (name, pos) in positions() {
        if pos.in_check() {
            group.bench_function(format!("{name}/evasions"), |b| {
                b.iter(|| {
                    let mut list = MoveList::new();
                    generate_evasions(black_box(&pos), &mut list);
                    list.len()
                })
            });
            continue;
        }
        group.bench_function(format!("{name}/captures+quiets+drops"), |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                generate_captures(black_box(&pos), &mut list);
                generate_quiets(black_box(&pos), &mut list);
                generate_drops(black_box(&pos), &mut list);
                list.len()
            })
        });
        group.bench_function(format!("{name}/checks"), |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                generate_checks(black_box(&pos), &mut list);
                list.len()
            })
        });
    }
    group.finish();
}

fn bench_make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake_all_moves");
    for (name, pos) in positions() {
        let moves = shogi::legal_moves(&pos);
        let mut pos = pos.clone();
        group.bench_function(name, |b| {
            b.iter(|| {
                for &m in moves.iter() {
                    pos.do_move(m);
                    black_box(pos.key());
                    pos.undo_move(m);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_legal, bench_stages, bench_make_unmake);
criterion_main!(benches);
