//! Problem files: one position a line, in any of these forms (blank lines and lines
//! starting with `#` are skipped):
//! - `SFEN`
//! - `SFEN moves M1 M2 ...` (the expected mate; its length is the expected length)
//! - `NAME<TAB>LENGTH<TAB>SFEN`, where LENGTH is a number of plies or `?`
//!
//! An SFEN may be prefixed by `sfen `.

/// One problem: a position and what is expected of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line number in its file.
    pub line: usize,
    pub name: Option<String>,
    pub sfen: String,
    /// The expected mate in USI moves, if the file gives one.
    pub expected_pv: Option<Vec<String>>,
    /// The expected mate length in plies, if known.
    pub expected_len: Option<usize>,
}

/// Parses one line; `None` for blank lines and comments.
pub fn parse_line(line_no: usize, line: &str) -> Option<Result<Problem, String>> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = text.split('\t').collect();
    if fields.len() == 3 {
        let expected_len = match fields[1].trim() {
            "?" => None,
            n => match n.parse::<usize>() {
                Ok(n) => Some(n),
                Err(_) => return Some(Err(format!("line {line_no}: bad length '{n}'"))),
            },
        };
        return Some(Ok(Problem {
            line: line_no,
            name: Some(fields[0].trim().to_string()),
            sfen: strip_sfen_word(fields[2].trim()).to_string(),
            expected_pv: None,
            expected_len,
        }));
    }
    let text = strip_sfen_word(text);
    let (sfen, pv) = match text.split_once(" moves") {
        Some((s, rest)) => {
            let pv: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
            (s.trim(), Some(pv))
        }
        None => (text, None),
    };
    Some(Ok(Problem {
        line: line_no,
        name: None,
        sfen: sfen.to_string(),
        expected_len: pv.as_ref().map(Vec::len),
        expected_pv: pv,
    }))
}

/// Parses a whole file's text; errors name their line.
pub fn parse_problems(text: &str) -> Result<Vec<Problem>, String> {
    text.lines().enumerate().filter_map(|(i, l)| parse_line(i + 1, l)).collect()
}

fn strip_sfen_word(s: &str) -> &str {
    s.strip_prefix("sfen ").unwrap_or(s).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms() {
        let text = "# comment\n\n4k4/9/4P4/9/9/9/9/9/9 b G 1 moves G*5b\n\
                    name\t3\tsfen 4k4/9/9/9/9/9/9/9/9 b 2G 1\n9/9/9/9/9/9/9/9/9 b - 1\n";
        let ps = parse_problems(text).unwrap();
        assert_eq!(ps.len(), 3);
        assert_eq!(ps[0].line, 3);
        assert_eq!(ps[0].sfen, "4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_eq!(ps[0].expected_pv, Some(vec!["G*5b".to_string()]));
        assert_eq!(ps[0].expected_len, Some(1));
        assert_eq!(ps[1].name.as_deref(), Some("name"));
        assert_eq!(ps[1].expected_len, Some(3));
        assert_eq!(ps[1].sfen, "4k4/9/9/9/9/9/9/9/9 b 2G 1");
        assert_eq!(ps[2].expected_len, None);
        assert!(parse_problems("x\tlong\tsfen").is_err());
    }
}
