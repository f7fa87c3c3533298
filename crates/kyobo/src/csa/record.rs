//! Each game saved as a CSA record file (version 2.2): names, event, start and
//! end times, the clock, the starting position as the server sent it, every move
//! with its time, our evaluation comments, the end of game and the result.

use super::summary::GameSummary;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// One move of the record: CSA text, the time charged, and a comment line (ours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub csa: String,
    pub time: Option<u64>,
    pub comment: Option<String>,
}

/// What the record's last lines say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordEnd {
    /// `%TORYO`, `%TIME_UP`, `%SENNICHITE`, … (none when the game was cut off).
    pub special: Option<String>,
    /// The result lines as the server sent them (`#RESIGN #WIN`), or why there
    /// were none.
    pub result: String,
}

/// `YYYY/MM/DD HH:MM:SS` (UTC) of a moment.
pub fn format_time(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02}", rest / 3600, rest / 60 % 60, rest % 60)
}

/// The Gregorian date of a day counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The record's text.
pub fn render(
    summary: &GameSummary,
    moves: &[RecordMove],
    start: SystemTime,
    end: SystemTime,
    last: &RecordEnd,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "V2.2");
    let _ = writeln!(s, "N+{}", summary.names[0]);
    let _ = writeln!(s, "N-{}", summary.names[1]);
    let _ = writeln!(s, "$EVENT:{}", summary.game_id);
    let _ = writeln!(s, "$START_TIME:{}", format_time(start));
    let _ = writeln!(s, "$END_TIME:{}", format_time(end));
    for (sign, rule) in ["+", "-"].iter().zip(summary.time.iter()) {
        let _ = writeln!(s, "'Time{sign}:{}", rule.describe());
    }
    if let Some(n) = summary.max_moves {
        let _ = writeln!(s, "'Max_Moves:{n}");
    }
    if summary.position_lines.is_empty() {
        let _ = writeln!(s, "PI");
        let _ = writeln!(s, "+");
    } else {
        for line in &summary.position_lines {
            let _ = writeln!(s, "{line}");
        }
        if !summary.position_lines.iter().any(|l| l == "+" || l == "-") {
            let _ = writeln!(s, "{}", super::notation::sign(summary.initial.side_to_move()));
        }
    }
    for m in moves {
        let _ = writeln!(s, "{}", m.csa);
        if let Some(t) = m.time {
            let _ = writeln!(s, "T{t}");
        }
        if let Some(c) = &m.comment {
            let _ = writeln!(s, "'{c}");
        }
    }
    if let Some(special) = &last.special {
        let _ = writeln!(s, "{special}");
    }
    let _ = writeln!(s, "'{}", last.result);
    s
}

/// The file a game's record goes to in `dir`: the game id with anything but
/// letters, digits, `-`, `_`, `+` and `.` replaced, and `.csa`; a number is added
/// when such a file exists.
pub fn path_for(dir: &Path, game_id: &str) -> PathBuf {
    let mut stem: String = game_id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "-_+.".contains(c) { c } else { '_' })
        .collect();
    if stem.is_empty() || stem.starts_with('.') {
        stem = format!("game{stem}");
    }
    let mut path = dir.join(format!("{stem}.csa"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-{n}.csa"));
        n += 1;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_gregorian() {
        assert_eq!(format_time(UNIX_EPOCH), "1970/01/01 00:00:00");
        assert_eq!(
            format_time(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000/02/29 00:00:00"
        );
        assert_eq!(
            format_time(UNIX_EPOCH + Duration::from_secs(1_796_227_199)),
            "2026/12/02 15:59:59"
        );
    }

    #[test]
    fn file_names_are_safe() {
        // Only names are made: nothing is written.
        let dir = std::path::Path::new("records");
        let p = path_for(dir, "wdoor+floodgate-300-10F+a+b+2026/../x");
        assert_eq!(
            p.file_name().unwrap().to_str().unwrap(),
            "wdoor+floodgate-300-10F+a+b+2026_.._x.csa"
        );
        assert_eq!(path_for(dir, "").file_name().unwrap().to_str().unwrap(), "game.csa");
    }
}
