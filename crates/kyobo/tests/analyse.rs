//! `kyobo analyse` on games decided by one blunder: the bishop left where a pawn
//! takes it (▲４四角?? on move 3) must be the move marked `??`, and the record
//! written back and the HTML report carry the judgement; in a match game with a
//! rook or bishop left en prise from move 41 on, that move must be the only one
//! marked `??`.

use crate::common;
use std::path::Path;
use std::process::Command;

/// `kyobo analyse ARGS`, which must succeed: what it printed.
fn analysed(args: &[&str]) -> String {
    let (ok, stdout, stderr) = common::kyobo(&[&["analyse"], args].concat());
    assert!(ok, "{stderr}");
    stdout
}

/// A scratch path as the argument it is (the scratch folders are UTF-8).
fn utf8(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

#[test]
fn the_blunder_is_marked() {
    let dir = testdata::ScratchDir::new("analyse");
    let game = dir.join("blunder.usi");
    std::fs::write(&game, "position startpos moves 7g7f 3c3d 8h4d 4c4d 2g2f 8c8d 2f2e 8d8e\n")
        .expect("written");
    let out = dir.join("blunder.kifu");
    let html = dir.join("blunder.html");
    let stdout = analysed(&[
        "--depth",
        "4",
        "--japanese",
        "--out",
        utf8(&out),
        "--html",
        utf8(&html),
        utf8(&game),
    ]);
    let blunders: Vec<&str> = stdout.lines().filter(|l| l.contains(" ?? ")).collect();
    assert!(!blunders.is_empty(), "{stdout}");
    assert!(blunders[0].starts_with("move 3 ▲４四角 ??"), "{stdout}");
    assert!(stdout.contains("Black (▲): accuracy") && stdout.contains("blunders 1"), "{stdout}");
    let (_, record) = records::read_file(&out).expect("the annotated record");
    assert_eq!(record.moves.len(), 8);
    let third = record.moves[2].comments.join(" ");
    assert!(third.contains("??") && third.contains("best"), "{third}");
    assert!(record.moves.iter().all(|m| m.comments.iter().any(|c| c.starts_with("kyobo "))));
    let page = std::fs::read_to_string(&html).expect("the HTML report");
    assert!(page.contains("<svg class=\"board\"") && page.contains("3 ▲４四角??"), "{page}");
}

/// A match game from the records crate's fixtures (Kyobo against GPS Shogi at a
/// second a move), as USI moves.
fn match_game(file: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../records/tests/fixtures/cshogi/expected.tsv");
    let text = std::fs::read_to_string(dir).expect("expected.tsv");
    let row = text.lines().find(|l| l.starts_with(&format!("{file}\t"))).expect("the game's row");
    row.split('\t').nth(5).expect("moves").split_whitespace().map(str::to_string).collect()
}

/// The first move from ply 40 on that leaves a rook or bishop (promoted or not)
/// where the opponent takes it for nothing: not a capture, not a check, the
/// square attacked by the opponent and defended by nobody. Returns the game up
/// to it, the blunder and the capture that answers it.
fn with_a_blunder(moves: &[String]) -> Option<Vec<String>> {
    use shogi::{legal_moves, PieceKind, Position};
    let mut pos = Position::startpos();
    for (ply, usi) in moves.iter().enumerate() {
        if ply >= 40 {
            let me = pos.side_to_move();
            for &m in legal_moves(&pos).iter() {
                let big = matches!(
                    m.kind_after(),
                    PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
                );
                if m.is_drop() || m.is_capture() || !big {
                    continue;
                }
                let mut after = pos.clone();
                after.do_move(m);
                let occ = after.occupied();
                if after.in_check()
                    || !after.is_attacked(me.flip(), m.to(), occ)
                    || after.is_attacked(me, m.to(), occ)
                {
                    continue;
                }
                let Some(take) = legal_moves(&after).iter().copied().find(|r| r.to() == m.to())
                else {
                    continue;
                };
                let mut line: Vec<String> = moves[..ply].to_vec();
                line.push(m.to_usi());
                line.push(take.to_usi());
                return Some(line);
            }
        }
        let m = pos.parse_usi_move(usi).ok()?;
        pos.do_move(m);
    }
    None
}

#[test]
fn a_blunder_put_into_a_match_game_is_marked() {
    let game = match_game("game04.kif");
    let line = with_a_blunder(&game).expect("a piece to leave en prise");
    let blunder_ply = line.len() - 1;
    let dir = testdata::ScratchDir::new("analyse-match");
    let path = dir.join("match.usi");
    std::fs::write(&path, format!("position startpos moves {}\n", line.join(" ")))
        .expect("written");
    let stdout = analysed(&["--depth", "8", utf8(&path)]);
    // The only blunder marked is the one put in (at depth 8, 2.5 s in release).
    let want = format!("move {blunder_ply} {} ?? ", line[blunder_ply - 1]);
    let blunders: Vec<&str> = stdout.lines().filter(|l| l.contains(" ?? ")).collect();
    assert_eq!(blunders.len(), 1, "{want}\n{stdout}");
    assert!(blunders[0].starts_with(&want), "{want}\n{stdout}");
}

/// Every output is checked before the first search: a bad `--out` extension or an
/// `--html` in a folder that does not exist fails at once, saving nothing and
/// searching nothing.
#[test]
fn bad_outputs_are_refused_before_the_analysis() {
    let dir = testdata::ScratchDir::new("analyse-outputs");
    let game = dir.join("game.usi");
    std::fs::write(&game, "position startpos moves 7g7f 3c3d 2g2f 8c8d\n").expect("written");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kyobo"))
            .arg("analyse")
            .args(["--depth", "30"])
            .args(args)
            .arg(&game)
            .output()
            .expect("kyobo runs")
    };
    // Depth 30 on four moves would take minutes: an answer at once shows that
    // nothing was searched.
    let txt = dir.join("x.txt");
    let out = run(&["--out", txt.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("extension 'txt'"), "{err}");
    assert!(!txt.exists());
    let missing = dir.join("no/such/folder/x.html");
    let out = run(&["--html", missing.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--html") && err.contains("x.html"), "{err}");
    assert!(out.stdout.is_empty(), "nothing was analysed");
    // A good path is left as it was found: no file made to find out.
    let kifu = dir.join("x.kifu");
    let out = run(&["--out", kifu.to_str().unwrap(), "--html", missing.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(!kifu.exists(), "the check leaves no file behind");
}

/// The score in `text` after `prefix` (`+24`, `-4014`, `mate 3`, `-mate 2`) as
/// centipawns, a mate counting ±100,000.
fn score_after(text: &str, prefix: &str) -> Option<i64> {
    let at = text.find(prefix)? + prefix.len();
    let word = text[at..].split([' ', ',', ';', '(']).next()?;
    match word {
        w if w.contains("mate") => Some(if w.starts_with('-') { -100_000 } else { 100_000 }),
        w => w.parse().ok(),
    }
}

/// What a person reads: each marked line has its mark once and no stray word;
/// where a better move is named its score is at least the move played's (the two
/// searched together); the HTML report's score column is Black's, like its
/// chances and graph, and it says which font its kanji need.
#[test]
fn the_judgements_read_as_they_should() {
    let dir = testdata::ScratchDir::new("analyse-reading");
    let game = dir.join("game.usi");
    std::fs::write(
        &game,
        "position startpos moves 7g7f 3c3d 8h4d 4c4d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d\n",
    )
    .expect("written");
    let html = dir.join("game.html");
    let stdout = analysed(&["--depth", "5", "--html", utf8(&html), utf8(&game)]);
    let marked: Vec<&str> = stdout.lines().filter(|l| l.starts_with("move ")).collect();
    assert!(!marked.is_empty(), "{stdout}");
    for line in &marked {
        assert!(!line.contains(" kyobo "), "{line}");
        let marks = line.split(' ').filter(|w| matches!(*w, "?!" | "?" | "??")).count();
        assert_eq!(marks, 1, "{line}");
        let words: Vec<&str> = line.split(' ').collect();
        // `move N MOVE MARK SCORE (..%), loses …; best SCORE …`
        let played = score_after(line, &format!("{} {} ", words[2], words[3]));
        if let (Some(played), Some(best)) = (played, score_after(line, "; best ")) {
            assert!(best >= played, "the better move scores lower: {line}");
        }
    }
    let page = std::fs::read_to_string(&html).expect("the HTML report");
    assert!(page.contains("<th>☗ score</th>"), "the score column is Black's");
    assert!(page.contains("Japanese font"), "the page names the font its kanji need");
    // Black's score after 8h4d?? (move 3) and after White's 4c4d (move 4), which
    // takes the bishop, agree in sign: the column does not flip with the mover.
    let cells: Vec<&str> = page.split("<tr class=").skip(1).take(4).collect();
    let score_of = |row: &str| -> i64 {
        let td: Vec<&str> = row.split("<td>").collect();
        let text = td[3].split('<').next().unwrap();
        score_after(&format!(" {text}"), " ").expect("a score")
    };
    let (third, fourth) = (score_of(cells[2]), score_of(cells[3]));
    assert!(third < 0 && fourth < 0, "Black is lost after ▲４四角: {third}, {fourth}");
}
