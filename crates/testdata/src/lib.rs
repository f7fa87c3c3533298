//! The reference data of `../shared/data` (problem sets, openings) is not part of
//! the repository: a clone on its own runs every test but those that read it. A
//! test asks [`shared_file`] for its file and returns early when there is none,
//! after a one-line notice on the terminal naming what it skipped.
//!
//! - `KYOBO_SHARED_DATA`: the data folder, when it is not `../shared/data` beside
//!   the repository.
//! - `KYOBO_REQUIRE_SHARED_DATA=1` (set by `.ci/run`): a missing file fails the
//!   test instead, so that CI cannot pass with the data tests skipped.
//!
//! It also gives tests a [`ScratchDir`]: a folder of their own that is removed
//! when the test ends, passed or failed.

use std::io::Write;
use std::path::PathBuf;

/// The environment variable naming the data folder.
pub const DATA_VAR: &str = "KYOBO_SHARED_DATA";
/// The environment variable that turns a skip into a failure.
pub const REQUIRE_VAR: &str = "KYOBO_REQUIRE_SHARED_DATA";

/// The data folder: `$KYOBO_SHARED_DATA`, else `../shared/data` beside the
/// repository (which need not exist).
pub fn data_dir() -> PathBuf {
    match std::env::var_os(DATA_VAR) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    }
}

/// Whether a missing data file must fail the test (`KYOBO_REQUIRE_SHARED_DATA=1`).
pub fn required() -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|v| v == "1")
}

/// The path of `relative` (such as `tsume/tsume_3ply.txt`) in the data folder, or
/// `None` after the notice `skipped <test>: needs …` when it is not there.
///
/// # Panics
/// When the file is missing and [`required`] is set.
pub fn shared_file(test: &str, relative: &str) -> Option<PathBuf> {
    file_in(&data_dir(), required(), test, relative)
}

/// [`shared_file`] in the folder `dir`, `required` or not.
fn file_in(dir: &std::path::Path, required: bool, test: &str, relative: &str) -> Option<PathBuf> {
    let path = dir.join(relative);
    if path.is_file() {
        return Some(path);
    }
    if required {
        panic!("{test}: {} is missing and {REQUIRE_VAR}=1", path.display());
    }
    // Straight to the terminal: the test harness captures `eprintln!`, not this.
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "skipped {test}: needs ../shared/data/{relative}, not found");
    None
}

/// The text of [`shared_file`], or `None` (after the notice) when it is missing.
///
/// # Panics
/// When the file exists but cannot be read, or is missing and required.
pub fn shared_text(test: &str, relative: &str) -> Option<String> {
    let path = shared_file(test, relative)?;
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// A folder of one test's own under the system's temporary folder, removed with
/// everything in it when dropped (at the end of the test, also when it panics).
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// A new empty folder whose name holds `name`, the process id and a count, so
    /// that tests running at the same time never share one.
    ///
    /// # Panics
    /// When the folder cannot be made.
    pub fn new(name: &str) -> ScratchDir {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("kyobo-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        ScratchDir { path }
    }

    /// The folder.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// `file` inside the folder.
    pub fn join(&self, file: impl AsRef<std::path::Path>) -> PathBuf {
        self.path.join(file)
    }
}

impl std::ops::Deref for ScratchDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_none_unless_required() {
        if required() {
            return; // CI sets the variable for the whole run.
        }
        assert!(shared_file("this test", "no/such/file.txt").is_none());
        assert!(shared_text("this test", "no/such/file.txt").is_none());
    }

    #[test]
    fn a_file_is_found_skipped_or_required() {
        let dir = ScratchDir::new("testdata-required");
        std::fs::write(dir.join("here.txt"), "x").unwrap();
        for required in [false, true] {
            assert_eq!(file_in(&dir, required, "t", "here.txt"), Some(dir.join("here.txt")));
        }
        assert_eq!(file_in(&dir, false, "t", "gone.txt"), None);
        let missing = std::panic::catch_unwind(|| file_in(&dir, true, "t", "gone.txt"));
        let message = missing.expect_err("a required file that is missing panics");
        let message = message.downcast_ref::<String>().expect("a formatted message");
        assert!(message.contains("gone.txt") && message.contains(REQUIRE_VAR), "{message}");
    }

    #[test]
    fn the_folder_is_beside_the_repository_by_default() {
        if std::env::var_os(DATA_VAR).is_none() {
            assert!(data_dir().ends_with("shared/data"));
        }
    }

    #[test]
    fn a_scratch_dir_is_its_own_and_gone_after_the_test() {
        let (kept, other);
        {
            let a = ScratchDir::new("scratch-test");
            let b = ScratchDir::new("scratch-test");
            assert_ne!(a.path(), b.path());
            std::fs::create_dir_all(a.join("x/y")).unwrap();
            std::fs::write(a.join("x/y/z.txt"), "z").unwrap();
            kept = a.path().to_path_buf();
            other = b.path().to_path_buf();
            assert!(kept.join("x/y/z.txt").is_file());
        }
        assert!(!kept.exists() && !other.exists());
        // Also when the test panics: the folder goes as the stack unwinds.
        let path = std::panic::catch_unwind(|| {
            let dir = ScratchDir::new("scratch-panic");
            std::fs::write(dir.join("f"), "f").unwrap();
            let path = dir.path().to_path_buf();
            std::panic::panic_any(path);
        })
        .expect_err("panicked");
        let path = path.downcast::<PathBuf>().expect("the folder's path");
        assert!(!path.exists());
    }
}
