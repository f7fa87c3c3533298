//! A small JSON reader that remembers the line each value starts on (for JKF's
//! error messages), and string escaping for the writer.

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Node>),
    /// Members in the order written (duplicates kept).
    Object(Vec<(String, Node)>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub line: usize,
    pub value: Value,
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self.value {
            Value::Number(n) if n >= 0.0 && n.fract() == 0.0 && n < 1e15 => Some(n as u64),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[(String, Node)]> {
        match &self.value {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
}

/// A syntax error: its line and what was expected.
#[derive(Debug)]
pub(crate) struct JsonError {
    pub line: usize,
    pub message: String,
}

pub(crate) fn parse(text: &str) -> Result<Node, JsonError> {
    let mut p = Parser { chars: text.char_indices().peekable(), line: 1, text };
    p.skip_ws();
    let v = p.value(0)?;
    p.skip_ws();
    if let Some(&(_, c)) = p.chars.peek() {
        return Err(p.error(&format!("unexpected '{c}' after the value")));
    }
    Ok(v)
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> JsonError {
        JsonError { line: self.line, message: message.to_string() }
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next().map(|(_, c)| c);
        if c == Some('\n') {
            self.line += 1;
        }
        c
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r' | '\u{feff}')) {
            self.next();
        }
    }

    fn expect(&mut self, want: char) -> Result<(), JsonError> {
        match self.next() {
            Some(c) if c == want => Ok(()),
            Some(c) => Err(self.error(&format!("expected '{want}', found '{c}'"))),
            None => Err(self.error(&format!("expected '{want}', found the end"))),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, JsonError> {
        if depth > 256 {
            return Err(self.error("nested too deeply"));
        }
        let line = self.line;
        let value = match self.peek() {
            Some('{') => {
                self.next();
                let mut members = Vec::new();
                self.skip_ws();
                if self.peek() == Some('}') {
                    self.next();
                } else {
                    loop {
                        self.skip_ws();
                        if self.peek() != Some('"') {
                            return Err(self.error("expected a member name"));
                        }
                        let key = self.string()?;
                        self.skip_ws();
                        self.expect(':')?;
                        self.skip_ws();
                        let v = self.value(depth + 1)?;
                        members.push((key, v));
                        self.skip_ws();
                        match self.next() {
                            Some(',') => continue,
                            Some('}') => break,
                            _ => return Err(self.error("expected ',' or '}'")),
                        }
                    }
                }
                Value::Object(members)
            }
            Some('[') => {
                self.next();
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(']') {
                    self.next();
                } else {
                    loop {
                        self.skip_ws();
                        items.push(self.value(depth + 1)?);
                        self.skip_ws();
                        match self.next() {
                            Some(',') => continue,
                            Some(']') => break,
                            _ => return Err(self.error("expected ',' or ']'")),
                        }
                    }
                }
                Value::Array(items)
            }
            Some('"') => Value::Str(self.string()?),
            Some('t') => self.word("true", Value::Bool(true))?,
            Some('f') => self.word("false", Value::Bool(false))?,
            Some('n') => self.word("null", Value::Null)?,
            Some(c) if c == '-' || c.is_ascii_digit() => self.number()?,
            Some(c) => return Err(self.error(&format!("unexpected '{c}'"))),
            None => return Err(self.error("unexpected end of text")),
        };
        Ok(Node { line, value })
    }

    fn word(&mut self, word: &str, v: Value) -> Result<Value, JsonError> {
        for want in word.chars() {
            if self.next() != Some(want) {
                return Err(self.error(&format!("expected '{word}'")));
            }
        }
        Ok(v)
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.chars.peek().map_or(self.text.len(), |&(i, _)| i);
        let mut end = start;
        while let Some(&(i, c)) = self.chars.peek() {
            if c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E') {
                end = i + 1;
                self.next();
            } else {
                break;
            }
        }
        self.text[start..end]
            .parse::<f64>()
            .map(Value::Number)
            .map_err(|_| self.error(&format!("bad number '{}'", &self.text[start..end])))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0;
        for _ in 0..4 {
            let d = self
                .next()
                .and_then(|c| c.to_digit(16))
                .ok_or_else(|| self.error("bad \\u escape"))?;
            v = v * 16 + d;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.expect('"')?;
        let mut s = String::new();
        loop {
            match self.next() {
                None => return Err(self.error("unterminated string")),
                Some('"') => return Ok(s),
                Some('\\') => {
                    let c = match self.next() {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.next() != Some('\\') || self.next() != Some('u') {
                                    return Err(self.error("unpaired surrogate"));
                                }
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error("unpaired surrogate"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| self.error("bad \\u escape"))?
                        }
                        _ => return Err(self.error("bad escape")),
                    };
                    s.push(c);
                }
                Some(c) if (c as u32) < 0x20 => {
                    return Err(self.error("control character in a string"));
                }
                Some(c) => s.push(c),
            }
        }
    }
}

/// `s` as a JSON string literal.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_lines() {
        let v =
            parse("{\n \"a\": [1, 2.5, true],\n \"b\": \"x\\u3042\\ud83d\\ude00\\n\"\n}").unwrap();
        assert_eq!(v.line, 1);
        assert_eq!(v.get("a").unwrap().line, 2);
        assert_eq!(v.get("b").unwrap().as_str(), Some("xあ😀\n"));
        assert_eq!(v.get("a").unwrap().as_array().unwrap()[0].as_u64(), Some(1));
        let e = parse("{\n\"a\": 1,\n\"b\" 2}").unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(quote("a\"b\n"), "\"a\\\"b\\n\"");
    }
}
