//! The subcommands' output on a pipe whose reader goes away early.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn a_closed_pipe_ends_kyobo_mate_quietly() {
    let Some(file) =
        testdata::shared_file("a_closed_pipe_ends_kyobo_mate_quietly", "tsume/tsume_3ply.txt")
    else {
        return;
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_kyobo"))
        .arg("mate")
        .arg("--file")
        .arg(&file)
        .arg("--verbose")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kyobo mate starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).expect("a first line");
    assert!(first.contains("mate 3"), "{first}");
    // The reader is dropped here, like `| head -1`.
    let out = child.wait_with_output().expect("kyobo mate ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}", out.status);
}
