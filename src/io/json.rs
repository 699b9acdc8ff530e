//! The JSON of safetensors headers, read and written: objects, arrays,
//! strings and non-negative integers, nothing else (a header holds nothing
//! else). Ours rather than serde_json's, whose `PartialEq` impls between
//! numbers and JSON values would reach the type inference of every program
//! that uses this crate.

/// A JSON value of a safetensors header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Json {
    /// An object, its members in order (keys unique).
    Object(Vec<(String, Json)>),
    /// An array.
    Array(Vec<Json>),
    /// A string.
    String(String),
    /// A non-negative integer.
    Integer(u64),
}

/// How deep objects and arrays may nest (a header needs 3).
const MAX_DEPTH: usize = 16;

/// Parses `text` (one value, whitespace around it allowed); the problem in
/// words, with its byte position, when it is not one.
pub(crate) fn parse(text: &[u8]) -> Result<Json, String> {
    let mut p = Parser { text, at: 0 };
    let value = p.value(0)?;
    p.skip_space();
    if p.at != text.len() {
        return Err(p.error("unexpected text after the value"));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_space();
        if self.peek() != Some(byte) {
            return Err(self.error(&format!("expected '{}'", byte as char)));
        }
        self.at += 1;
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b'0'..=b'9') => self.integer(),
            Some(_) => {
                Err(self.error("expected an object, an array, a string or a non-negative integer"))
            }
            None => Err(self.error("unexpected end")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut members: Vec<(String, Json)> = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key"));
            }
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(self.error(&format!("duplicate key \"{key}\"")));
            }
            self.expect(b':')?;
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn integer(&mut self) -> Result<Json, String> {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        if let Some(b'.' | b'e' | b'E') = self.peek() {
            return Err(self.error("a number with a fraction or an exponent"));
        }
        let digits = &self.text[start..self.at];
        if digits.len() > 1 && digits[0] == b'0' {
            return Err(self.error("a number with a leading zero"));
        }
        digits
            .iter()
            .try_fold(0u64, |n, &d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            })
            .map(Json::Integer)
            .ok_or_else(|| self.error("a number past 2^64"))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.error("a short \\u escape"))?;
        let text = std::str::from_utf8(digits).map_err(|_| self.error("a bad \\u escape"))?;
        let value = u32::from_str_radix(text, 16).map_err(|_| self.error("a bad \\u escape"))?;
        self.at += 4;
        Ok(value)
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("an unterminated string"));
            };
            self.at += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return Err(self.error("an unterminated string"));
                    };
                    self.at += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(self.error("a bad escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return Err(self.error("a control character in a string")),
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.error("a string that is not UTF-8"))
    }

    /// The character of a `\uXXXX` escape (two for a surrogate pair).
    fn unicode_escape(&mut self) -> Result<char, String> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if self.text.get(self.at..self.at + 2) != Some(b"\\u") {
                return Err(self.error("a lone surrogate"));
            }
            self.at += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("a lone surrogate"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("a lone surrogate"))
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
    fn headers_parse_and_bad_json_is_refused_with_its_position() {
        let v = parse(br#" {"a": {"dtype":"F32","shape":[2, 3],"data_offsets":[0,24]}, "__metadata__": {"k": "v\u00e9\ud83d\ude00\n"}}   "#).unwrap();
        let Json::Object(m) = v else {
            panic!("an object")
        };
        assert_eq!(m[0].0, "a");
        assert_eq!(
            m[1].1,
            Json::Object(vec![("k".into(), Json::String("vé😀\n".into()))])
        );
        for (bad, why) in [
            (&b"{\"a\":1,\"a\":2}"[..], "duplicate key \"a\" at byte 10"),
            (
                b"{\"a\":-1}",
                "expected an object, an array, a string or a non-negative integer at byte 5",
            ),
            (
                b"{\"a\":1.5}",
                "a number with a fraction or an exponent at byte 6",
            ),
            (
                b"{\"a\":18446744073709551616}",
                "a number past 2^64 at byte 25",
            ),
            (b"{\"a\":01}", "a number with a leading zero at byte 7"),
            (
                b"{\"a\":true}",
                "expected an object, an array, a string or a non-negative integer at byte 5",
            ),
            (b"{\"a\":\"\\ud800\"}", "a lone surrogate at byte 12"),
            (b"{\"a\":\"x", "an unterminated string at byte 7"),
            (
                b"{\"a\":[1,]}",
                "expected an object, an array, a string or a non-negative integer at byte 8",
            ),
            (b"{} x", "unexpected text after the value at byte 3"),
            (b"", "unexpected end at byte 0"),
        ] {
            assert_eq!(
                parse(bad).unwrap_err(),
                why,
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        let deep = format!("{}{}", "[".repeat(40), "]".repeat(40));
        assert_eq!(
            parse(deep.as_bytes()).unwrap_err(),
            "nesting too deep at byte 17"
        );
    }

    #[test]
    fn quoted_strings_read_back() {
        for s in ["plain", "q\"uote\\", "tab\tnew\nline\u{1}", "ünï😀"] {
            assert_eq!(parse(quote(s).as_bytes()).unwrap(), Json::String(s.into()));
        }
    }
}
