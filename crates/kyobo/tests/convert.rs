//! `kyobo convert`, run as a user runs it: a record written by cshogi (the
//! records crate's fixtures) through every format and back, standard input and
//! output, Japanese notation, and a bad record's error line.

use records::{Format, Record};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use testdata::ScratchDir;

/// A KIF in Shift_JIS written by cshogi's exporter, and the moves cshogi read.
fn fixture() -> (PathBuf, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../records/tests/fixtures/cshogi");
    let expected = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let row = expected.lines().find(|l| l.starts_with("game02.kif\t")).expect("game02.kif's row");
    let moves = row.split('\t').nth(5).expect("the moves column");
    (dir.join("game02.kif"), moves.split_whitespace().map(str::to_string).collect())
}

/// A file's path in a scratch folder of its own, removed with the folder.
fn scratch(name: &str) -> (ScratchDir, PathBuf) {
    let dir = ScratchDir::new("convert");
    let path = dir.join(name);
    (dir, path)
}

fn kyobo(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kyobo"))
        .arg("convert")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kyobo starts");
    let mut input = child.stdin.take().expect("piped stdin");
    // kyobo may stop reading early (a bad record ends the command), which the
    // write sees as a closed pipe: not a failure of the test.
    if let Err(e) = input.write_all(stdin.unwrap_or_default()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "stdin written: {e}");
    }
    drop(input);
    child.wait_with_output().expect("kyobo ends")
}

fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn usi_moves(r: &Record) -> Vec<String> {
    r.main_line().iter().map(|m| m.to_usi()).collect()
}

#[test]
fn a_kif_through_every_format_and_back() {
    let (kif, moves) = fixture();
    assert!(moves.len() > 50);
    let kif = kif.to_str().expect("a UTF-8 path").to_string();
    let mut from = kif.clone();
    let dir = ScratchDir::new("convert-chain");
    for ext in ["csa", "kifu", "ki2", "jkf", "ki2u", "sfen", "kif"] {
        let to = dir.join(format!("game.{ext}"));
        let to = to.to_str().expect("a UTF-8 path");
        ok(&kyobo(&[&from, to], None));
        let (format, record) = records::read_file(Path::new(to)).expect("kyobo's output reads");
        assert_eq!(Some(format), Format::from_extension(ext).map(|(f, _)| f));
        assert_eq!(usi_moves(&record), moves, "{from} -> {to}");
        from = to.to_string();
    }
    // Shift_JIS where the extension says so.
    let bytes = std::fs::read(&from).expect("the last file");
    assert!(std::str::from_utf8(&bytes).is_err(), ".kif is written in Shift_JIS");
}

#[test]
fn standard_output_prints_usi_or_japanese() {
    let (kif, moves) = fixture();
    let kif = kif.to_str().expect("a UTF-8 path");
    let usi = ok(&kyobo(&[kif], None));
    assert_eq!(usi, format!("position startpos moves {}\n", moves.join(" ")));
    let ja = ok(&kyobo(&[kif, "--japanese"], None));
    let words: Vec<&str> = ja.trim_end().split(' ').collect();
    assert_eq!(words.len(), moves.len(), "{ja}");
    assert!(words[0].starts_with('▲') && words[1].starts_with('△'), "{ja}");
    let ki2 = ok(&kyobo(&[kif, "-", "--to", "ki2"], None));
    assert!(ki2.contains(words[0]) && ki2.contains("まで"), "{ki2}");
}

#[test]
fn standard_input_by_content() {
    let csa = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\nT3\n-3334FU\nT5\n+8822UM\n%TORYO\n";
    let out = ok(&kyobo(&["-", "--to", "kif"], Some(csa.as_bytes())));
    assert!(out.contains("先手：A") && out.contains("２二角成(88)"), "{out}");
    let ja = ok(&kyobo(&["-", "--japanese"], Some(csa.as_bytes())));
    assert_eq!(ja, "▲７六歩 △３四歩 ▲２二角成\n");
}

#[test]
fn a_bad_record_names_its_line() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五歩(57)\n";
    let (_dir, path) = scratch("bad.kifu");
    std::fs::write(&path, kif).expect("written");
    let out = kyobo(&[path.to_str().expect("a UTF-8 path")], None);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 5") && stderr.contains("2 moves read"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let unknown = kyobo(&["-"], Some(b"hello\n"));
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("--from"));
    let japanese_to_file = kyobo(&["-", "x.csa", "--japanese"], Some(b"7g7f\n"));
    assert!(!japanese_to_file.status.success());
}
