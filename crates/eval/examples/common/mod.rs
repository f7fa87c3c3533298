//! Helpers shared by the evaluation tools in `examples/`.

/// The value after `name` on the command line, or `default` when it is missing or
/// does not parse.
pub fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
