//! The subcommands that print moves print them in Japanese notation on request.

use std::process::Command;

fn kyobo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kyobo")).args(args).output().expect("kyobo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn kyobo_mate_prints_its_line_in_japanese() {
    // A gold dropped on the king's head, guarded by a pawn; then a line with a
    // capture (同) and a promotion.
    let usi = kyobo(&["mate", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"]);
    assert!(usi.contains("\npv G*5b\n"), "{usi}");
    let ja = kyobo(&["mate", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "--japanese"]);
    assert!(ja.contains("\npv ▲５二金\n"), "{ja}");
    let json = kyobo(&["mate", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "--japanese", "--json"]);
    assert!(json.contains("\"pv\":\"G*5b\""), "JSON keeps USI: {json}");
}
