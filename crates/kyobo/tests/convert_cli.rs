//! `kyobo convert` and the record readers as a user meets them.
//!
//! Each test writes its records into a scratch folder, runs the binary on them and
//! reads what it says: an error goes to stderr and names the file once, with the
//! line, the text quoted and the likely fix; the exit status is non-zero.

use std::path::Path;
use std::process::{Command, Output};
use testdata::ScratchDir;

/// Runs `kyobo convert ARGS` in `dir`, so that file names are as a user types them.
fn convert(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kyobo"))
        .arg("convert")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("kyobo runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The converted text; the command must have succeeded.
fn converted(out: &Output) -> String {
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(out));
    stdout(out)
}

/// The error message of a failed run: one `error:` line on stderr, nothing on
/// stdout, a non-zero status, and `file` named once (as `file:`; the advice may
/// name another file).
fn failure(out: &Output, file: &str) -> String {
    let err = stderr(out);
    assert!(!out.status.success(), "it should fail; stdout: {}", stdout(out));
    assert!(out.stdout.is_empty(), "nothing converted: {}", stdout(out));
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "{err}");
    assert_eq!(err.matches(&format!("{file}:")).count(), 1, "{file} named once: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn an_empty_file_is_an_error_naming_it() {
    let dir = ScratchDir::new("convert-empty");
    for ext in ["kif", "kifu", "ki2", "ki2u", "csa", "usi", "jkf", "txt"] {
        for (i, text) in ["", " \n\n\t\r\n", "\u{feff}\n"].iter().enumerate() {
            let file = format!("empty{i}.{ext}");
            std::fs::write(dir.join(&file), text).expect("written");
            let err = failure(&convert(&dir, &[&file]), &file);
            assert!(err.contains("empty"), "{file}: {err}");
            assert!(!err.contains("line 1"), "an empty file has no bad line: {err}");
        }
    }
    let stdin = Command::new(env!("CARGO_BIN_EXE_kyobo"))
        .args(["convert", "-"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("kyobo runs");
    let err = failure(&stdin, "standard input");
    assert!(err.contains("empty"), "{err}");
}

#[test]
fn a_start_position_without_moves_still_reads() {
    let dir = ScratchDir::new("convert-start-only");
    let handicap = "position sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\n";
    for (file, text, usi) in [
        ("even.kifu", "手合割：平手\n", "position startpos\n"),
        ("bishop.kifu", "手合割：角落ち\n", handicap),
        ("head.kifu", "先手：A\n後手：B\n手数----指手---------消費時間--\n", "position startpos\n"),
        ("names.ki2u", "先手：A\n後手：B\n", "position startpos\n"),
        ("even.csa", "V2.2\nPI\n+\n", "position startpos\n"),
        ("bishop.csa", "PI22KA\n-\n", handicap),
        ("even.usi", "position startpos\n", "position startpos\n"),
        ("even.jkf", "{\"header\":{},\"moves\":[{}]}", "position startpos\n"),
    ] {
        std::fs::write(dir.join(file), text).expect("written");
        assert_eq!(converted(&convert(&dir, &[file])), usi, "{file}");
    }
}

#[test]
fn a_csa_file_of_two_games_warns_and_converts_the_first() {
    let dir = ScratchDir::new("convert-two-games");
    let two = "V2.2\nN+A\nPI\n+\n+7776FU\n%TORYO\n/\nN+B\nPI\n+\n+2726FU\n-8384FU\n";
    std::fs::write(dir.join("two.csa"), two).expect("written");
    let out = convert(&dir, &["two.csa"]);
    assert_eq!(converted(&out), "position startpos moves 7g7f\n");
    assert_eq!(stderr(&out), "warning: two.csa holds 2 records; converting the first\n");
    // One game, or one ended by a `/`, warns of nothing.
    std::fs::write(dir.join("one.csa"), "PI\n+\n+7776FU\n/\n").expect("written");
    let out = convert(&dir, &["one.csa"]);
    assert_eq!(converted(&out), "position startpos moves 7g7f\n");
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_bad_second_usi_line_is_named_by_its_number() {
    let dir = ScratchDir::new("convert-usi-line");
    std::fs::write(dir.join("game.usi"), "position startpos moves 7g7f\n3c3d\n").expect("written");
    let err = failure(&convert(&dir, &["game.usi"]), "game.usi");
    assert!(err.contains("game.usi: line 2: cannot read '3c3d'"), "{err}");
    let text = "# from a log\n\nposition startpos moves 7g7f 3c3d\n2g2e\n";
    std::fs::write(dir.join("log.usi"), text).expect("written");
    let err = failure(&convert(&dir, &["log.usi"]), "log.usi");
    assert!(err.contains("log.usi: line 4: cannot read '2g2e'"), "{err}");
}

#[test]
fn jkf_errors_say_what_is_wrong() {
    let dir = ScratchDir::new("convert-jkf");
    let head = "{\"header\":{},\"moves\":[{},\n\
        {\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},\n\
        {\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}},\n";
    // Bishop takes bishop, the record saying it took a gold.
    let capture = format!(
        "{head}{{\"move\":{{\"color\":0,\"from\":{{\"x\":8,\"y\":8}},\"to\":{{\"x\":2,\"y\":2}},\
         \"piece\":\"KA\",\"promote\":false,\"capture\":\"KI\"}}}}]}}"
    );
    std::fs::write(dir.join("capture.jkf"), capture).expect("written");
    let err = failure(&convert(&dir, &["capture.jkf"]), "capture.jkf");
    assert!(err.contains("line 4") && err.contains("'8822KA'"), "{err}");
    assert!(err.contains("capture says KI but the destination holds KA"), "{err}");
    assert!(!err.contains("origin"), "the bishop is on its origin: {err}");

    let no_piece = format!(
        "{head}{{\"move\":{{\"color\":0,\"from\":{{\"x\":2,\"y\":7}},\"to\":{{\"x\":2,\"y\":6}}}}}}]}}"
    );
    std::fs::write(dir.join("piece.jkf"), no_piece).expect("written");
    let err = failure(&convert(&dir, &["piece.jkf"]), "piece.jkf");
    assert!(err.contains("line 4") && err.contains("move 3 has no 'piece' field"), "{err}");
}

#[test]
fn a_ki2_summary_without_a_result_ends_the_moves() {
    let dir = ScratchDir::new("convert-ki2-summary");
    for (i, end) in ["まで2手", "まで2手で"].iter().enumerate() {
        let file = format!("game{i}.ki2u");
        std::fs::write(dir.join(&file), format!("先手：A\n▲７六歩 △３四歩\n{end}\n"))
            .expect("written");
        let usi = converted(&convert(&dir, &[&file]));
        assert_eq!(usi, "position startpos moves 7g7f 3c3d\n", "{end}");
        // Written back, the record has no ending to summarise.
        let ki2 = converted(&convert(&dir, &[&file, "-", "--to", "ki2"]));
        assert!(ki2.ends_with("△３四歩\n") && !ki2.contains("まで"), "{ki2}");
    }
}

#[test]
fn formats_are_named_in_any_case() {
    let dir = ScratchDir::new("convert-case");
    std::fs::write(dir.join("game.txt"), "PI\n+\n+7776FU\n-3334FU\n").expect("written");
    let kif = converted(&convert(&dir, &["game.txt", "--to", "KIF", "--from", "CSA"]));
    assert!(kif.contains("   1 ７六歩(77)"), "{kif}");
    let ki2 = converted(&convert(&dir, &["game.txt", "--to", "Ki2"]));
    assert!(ki2.contains("▲７六歩"), "{ki2}");
    let usi = converted(&convert(&dir, &["game.txt", "--to=USI", "--from=csa"]));
    assert_eq!(usi, "position startpos moves 7g7f 3c3d\n");
    converted(&convert(&dir, &["game.txt", "OUT.JKF", "--to", "Jkf"]));
    let jkf = std::fs::read_to_string(dir.join("OUT.JKF")).expect("OUT.JKF written");
    assert!(jkf.contains("\"piece\":\"FU\""), "{jkf}");
    let out = convert(&dir, &["game.txt", "--to", "KIFF"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("'KIFF'") && stderr(&out).contains("kif"), "{}", stderr(&out));
}

#[test]
fn a_csa_record_saved_as_kif_suggests_from_csa() {
    let dir = ScratchDir::new("convert-csa-as-kif");
    let csa = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    std::fs::write(dir.join("game.kif"), csa).expect("written");
    let err = failure(&convert(&dir, &["game.kif"]), "game.kif");
    assert!(err.contains("game.kif: line 1: cannot read 'V2.2'"), "{err}");
    assert!(err.contains("looks like CSA: try --from csa"), "{err}");
    let usi = converted(&convert(&dir, &["game.kif", "--from", "csa"]));
    assert_eq!(usi, "position startpos moves 7g7f 3c3d\n");
    // A KIF saved as .ki2: the same advice, for KIF.
    let kif = "手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    std::fs::write(dir.join("game.ki2"), kif).expect("written");
    let err = failure(&convert(&dir, &["game.ki2"]), "game.ki2");
    assert!(err.contains("try --from kif"), "{err}");
    // An illegal move in a record of the right format gets no such advice.
    std::fs::write(dir.join("bad.csa"), "PI\n+\n+7775FU\n").expect("written");
    let err = failure(&convert(&dir, &["bad.csa"]), "bad.csa");
    assert!(err.contains("line 3: illegal move '+7775FU'"), "{err}");
    assert!(!err.contains("--from"), "{err}");
}

#[test]
fn text_shift_jis_cannot_hold_suggests_utf8() {
    let dir = ScratchDir::new("convert-sjis");
    // 𠮷 (U+20BB7) has no Shift_JIS code.
    let kif =
        "手合割：平手\n先手：𠮷田\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    std::fs::write(dir.join("game.kifu"), kif).expect("written");
    for (out, instead) in [("out.kif", "out.kifu"), ("out.ki2", "out.ki2u")] {
        let err = failure(&convert(&dir, &["game.kifu", out]), out);
        assert!(err.contains(&format!("{out}: line 2: '先手：𠮷田' holds '𠮷'")), "{err}");
        assert!(err.contains(&format!("write {instead} instead")), "{err}");
        assert!(!dir.join(out).exists(), "{out} is not written");
        converted(&convert(&dir, &["game.kifu", instead]));
        let written = std::fs::read_to_string(dir.join(instead)).expect("UTF-8");
        assert!(written.contains("𠮷田"), "{written}");
    }
}
