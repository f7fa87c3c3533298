//! The dedicated check generator against the plain definition — "the legal moves
//! after which the opponent is in check" — on check-rich positions: random playouts
//! that prefer checks and captures, starting from the pawn-drop-mate fixtures (kings
//! under attack, full hands) and a few classic positions.

use shogi::movegen::{generate_checks, MoveList};
use shogi::{legal_moves, Move, Position};

const UCHIFUZUME_FIXTURE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/fixtures/uchifuzume.tsv");

const CLASSICS: &[&str] = &[
    shogi::STARTPOS,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    // A tsume position: the attacker has no king.
    "7nl/5Psk1/5Sgp1/8p/9/9/9/9/9 b RBGSrb2gs3n3l15p 1",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().map(|m| m.to_usi()).collect();
    v.sort();
    v
}

/// Compares the generator with the oracle; returns the number of checks seen.
fn compare(pos: &mut Position) -> usize {
    let mut list = MoveList::new();
    generate_checks(pos, &mut list);
    let generated = sorted(list.iter().copied());
    let legal = legal_moves(pos);
    let mut oracle = Vec::new();
    for &m in legal.iter() {
        pos.do_move(m);
        if pos.in_check() {
            oracle.push(m);
        }
        pos.undo_move(m);
    }
    let oracle = sorted(oracle);
    assert_eq!(generated, oracle, "checks differ in {}", pos.to_sfen());
    generated.len()
}

#[test]
fn checks_match_the_oracle_on_check_rich_playouts() {
    let text = std::fs::read_to_string(UCHIFUZUME_FIXTURE).expect("fixture present");
    let mut starts: Vec<String> = CLASSICS.iter().map(|s| s.to_string()).collect();
    starts.extend(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split('\t').next().map(str::to_string)),
    );
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut positions, mut checks) = (0usize, 0usize);
    for sfen in &starts {
        for _ in 0..8 {
            let mut pos = Position::from_sfen(sfen).expect("valid start");
            for _ in 0..40 {
                checks += compare(&mut pos);
                positions += 1;
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                // Prefer checks (half the time), then captures, then anything.
                let mut list = MoveList::new();
                generate_checks(&pos, &mut list);
                let captures: Vec<Move> =
                    legal.iter().copied().filter(|m| m.is_capture()).collect();
                let r = rng.next();
                let m = if !list.is_empty() && r.is_multiple_of(2) {
                    list[(r / 2) as usize % list.len()]
                } else if !captures.is_empty() && r.is_multiple_of(3) {
                    captures[(r / 3) as usize % captures.len()]
                } else {
                    legal[(r / 7) as usize % legal.len()]
                };
                pos.do_move(m);
            }
        }
    }
    eprintln!("{positions} positions, {checks} checking moves compared");
    assert!(positions > 20_000 && checks > 100_000, "too little coverage: {positions}/{checks}");
}
