//! Helpers shared by the lab's commands.

/// The value after `name` on the command line, or `default` when it is missing or
/// does not parse.
pub fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Reads self-play data (`SFEN<TAB>result[<TAB>score...]` per line, result and search
/// scores from Black's side) and splits it into training and validation samples made
/// by `sample` (position, result, the score in column `score_column` if the line has
/// one: 0-based, 2 is the engine's own, 3 GPS Shogi's from `tools/gps_label.py`) and
/// all the line's fields.
/// Blocks of 500 lines (about ten games) go together, every tenth block held out, so
/// that a game rarely straddles the split (`crate::tuning::is_validation_line`, by the
/// line's number in the file); unreadable lines are skipped.
pub fn load_split<T>(
    path: &str,
    score_column: usize,
    mut sample: impl FnMut(shogi::Position, f64, Option<f64>, &[&str]) -> T,
) -> (Vec<T>, Vec<T>) {
    let text = std::fs::read_to_string(path).expect("data file");
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(sfen), Some(result)) = (fields.first(), fields.get(1)) else { continue };
        let (Ok(pos), Ok(y)) = (shogi::Position::from_sfen(sfen), result.trim().parse::<f64>())
        else {
            continue;
        };
        let score = fields.get(score_column).and_then(|s| s.trim().parse::<f64>().ok());
        let item = sample(pos, y, score, &fields);
        if crate::tuning::is_validation_line(n) {
            valid.push(item);
        } else {
            train.push(item);
        }
    }
    (train, valid)
}

// Shared with `tune_danger.rs`, which fits its scale the same way.
pub use crate::tuning::golden_section;
