//! The fuzz target's inputs replayed as an ordinary test: every file of
//! `fuzz/seeds` (committed) and of `fuzz/corpus/parsers` (what `cargo fuzz`
//! found, where a fuzzing run left it) through `shogi::fuzzing::parsers`.

use std::path::PathBuf;

fn inputs(dir: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(dir);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

#[test]
fn the_fuzz_seeds_and_corpus_run_without_a_panic() {
    let seeds = inputs("fuzz/seeds");
    assert!(seeds.len() >= 40, "fuzz/seeds holds {} files", seeds.len());
    for path in seeds.iter().chain(&inputs("fuzz/corpus/parsers")) {
        let data = std::fs::read(path).expect("a readable input");
        let replayed = std::panic::catch_unwind(|| shogi::fuzzing::parsers(&data));
        assert!(replayed.is_ok(), "{} panics", path.display());
    }
}
