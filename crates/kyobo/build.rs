//! Records what `kyobo --version` says beyond the version: the commit built
//! (where the source is a git checkout), the CPU features the build may use, and
//! whether it was optimised with a profile.

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=KYOBO_COMMIT={commit}");
    // The features of the target the code is compiled for (`-C target-cpu=…`),
    // the ones the engine's speed depends on.
    let all = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let wanted = ["popcnt", "sse4.2", "bmi1", "bmi2", "avx2"];
    let have: Vec<&str> =
        wanted.iter().copied().filter(|f| all.split(',').any(|g| g == *f)).collect();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let mut features = if have.is_empty() {
        format!("{arch}, portable")
    } else {
        format!("{arch}: {}", have.join(" "))
    };
    // A profile-guided build (tools/release.sh) says so, and so does the
    // instrumented build that gathers the profile (it is slower).
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if flags.contains("profile-use") {
        features.push_str(", profile-guided");
    } else if flags.contains("profile-generate") {
        features.push_str(", instrumented for a profile");
    }
    println!("cargo:rustc-env=KYOBO_FEATURES={features}");
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/refs/heads");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
}
