//! A build for newer CPUs (`-C target-cpu=x86-64-v3`: AVX2, BMI2) started on a
//! CPU without what it was built for would stop with an illegal instruction
//! somewhere in a search; `kyobo` checks first and says which build to use.

/// The features this build was compiled to use that the CPU must have, by the
/// names `is_x86_feature_detected!` takes.
#[cfg(target_arch = "x86_64")]
const BUILT_FOR: &[(&str, bool)] = &[
    ("popcnt", cfg!(target_feature = "popcnt")),
    ("bmi1", cfg!(target_feature = "bmi1")),
    ("bmi2", cfg!(target_feature = "bmi2")),
    ("avx2", cfg!(target_feature = "avx2")),
];

/// The features `built_for` marks as used that `detected` says the CPU lacks.
fn missing<'a>(built_for: &[(&'a str, bool)], detected: impl Fn(&str) -> bool) -> Vec<&'a str> {
    built_for
        .iter()
        .filter(|(name, used)| *used && !detected(name))
        .map(|(name, _)| *name)
        .collect()
}

/// Why this binary cannot run on this CPU, or `None` where it can.
pub fn unsupported() -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let lacking = missing(BUILT_FOR, |name| match name {
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            "bmi1" => std::arch::is_x86_feature_detected!("bmi1"),
            "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            _ => true,
        });
        if !lacking.is_empty() {
            return Some(format!(
                "this kyobo was built for CPUs with {}, which this CPU lacks: \
                 use the portable build (x86-64)",
                lacking.join(", ")
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_features_built_for_and_missing_are_named() {
        let built = [("popcnt", true), ("bmi2", true), ("avx2", true), ("bmi1", false)];
        assert!(missing(&built, |_| true).is_empty());
        assert_eq!(missing(&built, |f| f == "popcnt"), ["bmi2", "avx2"]);
        assert!(
            missing(&[("avx2", false)], |_| false).is_empty(),
            "a portable build runs anywhere"
        );
        // This machine runs the tests: the build it made runs here.
        assert_eq!(unsupported(), None);
    }
}
