//! Text encodings of record files: UTF-8 and Shift_JIS (Windows-31J, as Japanese
//! Windows software writes it), told apart by a BOM, a CSA `'CSA encoding=` line,
//! or by whether the bytes are valid UTF-8.

use crate::error::{ErrorKind, ReadError};

/// The encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 (a BOM is accepted on reading, never written).
    Utf8,
    /// Shift_JIS as Windows writes it (code page 932).
    ShiftJis,
}

/// Decodes a record file's bytes.
///
/// A UTF-8 BOM means UTF-8; a first line `'CSA encoding=UTF-8` or
/// `'CSA encoding=SHIFT_JIS` means what it says. Otherwise the bytes are UTF-8
/// when they are valid UTF-8 (Shift_JIS Japanese text practically never is) and
/// Shift_JIS when not. A file's extension (`.kif` Shift_JIS, `.kifu` UTF-8) is
/// not needed: text valid in both is ASCII, which reads the same in both.
///
/// # Errors
/// `ErrorKind::Encoding` with the first line that decodes in neither (or not in
/// the declared encoding).
pub fn decode(bytes: &[u8]) -> Result<(String, TextEncoding), ReadError> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return match std::str::from_utf8(rest) {
            Ok(s) => Ok((s.to_string(), TextEncoding::Utf8)),
            Err(e) => Err(bad_utf8(rest, e.valid_up_to())),
        };
    }
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let first_line = String::from_utf8_lossy(first_line);
    let declared =
        first_line.trim_end().strip_prefix("'CSA encoding=").map(str::to_ascii_uppercase);
    match declared.as_deref() {
        Some("UTF-8") => {
            return std::str::from_utf8(bytes)
                .map(|s| (s.to_string(), TextEncoding::Utf8))
                .map_err(|e| bad_utf8(bytes, e.valid_up_to()));
        }
        Some("SHIFT_JIS") => return decode_shift_jis(bytes).map(|s| (s, TextEncoding::ShiftJis)),
        _ => {}
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok((s.to_string(), TextEncoding::Utf8)),
        Err(_) => decode_shift_jis(bytes).map(|s| (s, TextEncoding::ShiftJis)),
    }
}

fn bad_utf8(bytes: &[u8], valid_up_to: usize) -> ReadError {
    let line = 1 + bytes[..valid_up_to].iter().filter(|&&b| b == b'\n').count();
    ReadError::new(line, ErrorKind::Encoding("invalid UTF-8".to_string()))
}

fn decode_shift_jis(bytes: &[u8]) -> Result<String, ReadError> {
    let (text, _, had_errors) = encoding_rs::SHIFT_JIS.decode(bytes);
    if !had_errors {
        return Ok(text.into_owned());
    }
    // Find the line: 0x0A is never the second byte of a Shift_JIS character.
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let (_, _, bad) = encoding_rs::SHIFT_JIS.decode(line);
        if bad {
            return Err(ReadError::new(
                i + 1,
                ErrorKind::Encoding("neither UTF-8 nor Shift_JIS".to_string()),
            ));
        }
    }
    Err(ReadError::new(1, ErrorKind::Encoding("neither UTF-8 nor Shift_JIS".to_string())))
}

/// Encodes text for a file.
///
/// # Errors
/// The first character that Shift_JIS cannot represent.
pub fn encode(text: &str, encoding: TextEncoding) -> Result<Vec<u8>, char> {
    match encoding {
        TextEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
        TextEncoding::ShiftJis => {
            let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
            if !had_errors {
                return Ok(bytes.into_owned());
            }
            let mut buf = [0u8; 4];
            let bad = text
                .chars()
                .find(|c| encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2)
                .unwrap_or('\u{fffd}');
            Err(bad)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_jis_and_utf8_are_told_apart() {
        let text = "先手：羽生\n後手：谷川\n";
        let sjis = encode(text, TextEncoding::ShiftJis).unwrap();
        assert_ne!(sjis, text.as_bytes());
        assert_eq!(decode(&sjis).unwrap(), (text.to_string(), TextEncoding::ShiftJis));
        assert_eq!(decode(text.as_bytes()).unwrap(), (text.to_string(), TextEncoding::Utf8));
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(text.as_bytes());
        assert_eq!(decode(&bom).unwrap().0, text);
    }

    #[test]
    fn bad_bytes_name_their_line() {
        let bytes = b"line one\nline two\n\x82\xff\xff\n";
        let err = decode(bytes).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(matches!(err.kind, ErrorKind::Encoding(_)));
        let declared = b"'CSA encoding=UTF-8\nV3.0\n\x82\xa0\n";
        assert_eq!(decode(declared).unwrap_err().line, 3);
    }

    #[test]
    fn unmappable_characters_are_named() {
        assert_eq!(encode("先手😀", TextEncoding::ShiftJis), Err('😀'));
    }
}
