//! Each game saved as a CSA record file (V2.2, written by the `records` crate's
//! CSA writer): names, event, start and end times, the clock and the move limit
//! (as comments), the starting position, every move with its time and our
//! evaluation comment, the end of game and the result.

use super::summary::GameSummary;
use records::csa::{parse_special, write_csa, CsaVersion};
use records::{Ending, HeaderKey, Record, Start};
use shogi::Move;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One move of the game: the move, the time charged, and a comment (ours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub mv: Move,
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

/// The game as a record.
pub fn record_of(
    summary: &GameSummary,
    moves: &[RecordMove],
    start: SystemTime,
    end: SystemTime,
    last: &RecordEnd,
) -> Record {
    let mut record = Record {
        headers: vec![
            (HeaderKey::BlackName, summary.names[0].clone()),
            (HeaderKey::WhiteName, summary.names[1].clone()),
            (HeaderKey::Event, summary.game_id.clone()),
            (HeaderKey::StartTime, format_time(start)),
            (HeaderKey::EndTime, format_time(end)),
        ],
        start: Start::from_position(&summary.initial),
        ..Record::default()
    };
    for (sign, rule) in ["+", "-"].iter().zip(summary.time.iter()) {
        record.comments.push(format!("Time{sign}:{}", rule.describe()));
    }
    if let Some(n) = summary.max_moves {
        record.comments.push(format!("Max_Moves:{n}"));
    }
    for m in moves {
        let mut played = records::RecordMove::new(m.mv);
        played.time = m.time.map(Duration::from_secs);
        played.comments.extend(m.comment.clone());
        record.moves.push(played);
    }
    // The end of game (a special move the format does not know stays a
    // comment), then the result.
    let reason = last.special.as_deref().and_then(parse_special);
    let mut closing: Vec<String> = last
        .special
        .iter()
        .filter(|_| reason.is_none())
        .cloned()
        .chain(std::iter::once(last.result.clone()))
        .collect();
    match reason {
        Some(reason) => {
            let mut ending = Ending::new(reason);
            ending.comments.append(&mut closing);
            record.ending = Some(ending);
        }
        None => match record.moves.last_mut() {
            Some(m) => m.comments.append(&mut closing),
            None => record.comments.append(&mut closing),
        },
    }
    record
}

/// The record's text.
pub fn render(
    summary: &GameSummary,
    moves: &[RecordMove],
    start: SystemTime,
    end: SystemTime,
    last: &RecordEnd,
) -> String {
    write_csa(&record_of(summary, moves, start, end, last), CsaVersion::V22)
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
