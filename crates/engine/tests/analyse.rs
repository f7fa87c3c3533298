//! `kyobo analyse` on a game decided by one blunder: the bishop left where a pawn
//! takes it (▲４四角?? on move 3) must be the move marked `??`, and the record
//! written back carries the judgement as the move's comment.

use std::process::Command;

#[test]
fn the_blunder_is_marked() {
    let dir = std::env::temp_dir().join(format!("kyobo-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let game = dir.join("blunder.usi");
    std::fs::write(&game, "position startpos moves 7g7f 3c3d 8h4d 4c4d 2g2f 8c8d 2f2e 8d8e\n")
        .expect("written");
    let out = dir.join("blunder.kifu");
    let run = Command::new(env!("CARGO_BIN_EXE_kyobo"))
        .args(["analyse", "--depth", "4", "--japanese", "--out"])
        .arg(&out)
        .arg(&game)
        .output()
        .expect("kyobo runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let blunders: Vec<&str> = stdout.lines().filter(|l| l.contains(" ?? ")).collect();
    assert!(!blunders.is_empty(), "{stdout}");
    assert!(blunders[0].starts_with("move 3 ▲４四角 ??"), "{stdout}");
    assert!(stdout.contains("Black (▲): accuracy") && stdout.contains("blunders 1"), "{stdout}");
    let (_, record) = records::read_file(&out).expect("the annotated record");
    assert_eq!(record.moves.len(), 8);
    let third = record.moves[2].comments.join(" ");
    assert!(third.contains("??") && third.contains("best"), "{third}");
    assert!(record.moves.iter().all(|m| m.comments.iter().any(|c| c.starts_with("kyobo "))));
}
