//! Maps a `serde_json` error position back to the JSON field path it lies in, so that errors
//! found while deserializing (unknown fields, wrong types, missing fields) name the field as
//! `master.tolerance` or `connections[2]` and not only a line and column.

/// One open container while scanning.
enum Frame {
    /// An object; `key` is the key of the member being read, if one was read since `{` or `,`.
    Object { key: Option<String>, expect_key: bool },
    /// An array; `index` is the position of the element being read, `started` whether that
    /// element has begun.
    Array { index: usize, started: bool },
}

/// Byte offset just past the last byte consumed at `serde_json`'s `line` (1-based) and `column`
/// (bytes consumed on that line), clamped to the text.
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    (start + column).min(text.len())
}

/// The field path (`a.b[3].c`) of the innermost value being read after consuming `text[..end]`.
///
/// The text is scanned as JSON tokens; it need not be complete or even valid past the point of
/// interest.
pub(crate) fn path_at(text: &str, end: usize) -> String {
    let bytes = &text.as_bytes()[..end.min(text.len())];
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if let Some(Frame::Array { started, .. }) = stack.last_mut()
            && c != b']'
            && c != b','
        {
            *started = true;
        }
        match c {
            b'{' => stack.push(Frame::Object { key: None, expect_key: true }),
            b'[' => stack.push(Frame::Array { index: 0, started: false }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, expect_key }) => {
                    *key = None;
                    *expect_key = true;
                }
                Some(Frame::Array { index, started }) => {
                    *index += 1;
                    *started = false;
                }
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = false;
                }
            }
            b'"' => {
                let (s, next) = read_string(bytes, i + 1);
                if let Some(Frame::Object { key, expect_key: true }) = stack.last_mut() {
                    *key = Some(s);
                }
                i = next;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Array { index, started: true } => path.push_str(&format!("[{index}]")),
            _ => {}
        }
    }
    path
}

/// Reads a JSON string whose opening quote is just before `start`; returns its (lightly
/// unescaped) text and the offset after the closing quote (or the end of `bytes`).
fn read_string(bytes: &[u8], start: usize) -> (String, usize) {
    let mut out = Vec::new();
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (String::from_utf8_lossy(&out).into_owned(), i + 1),
            b'\\' if i + 1 < bytes.len() => {
                out.push(match bytes[i + 1] {
                    b'n' => b'\n',
                    b't' => b'\t',
                    other => other,
                });
                i += 2;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, marker: &str) -> String {
        path_at(text, text.find(marker).unwrap() + marker.len())
    }

    #[test]
    fn paths_of_keys_values_and_elements() {
        let text = r#"{"master": {"algorithm": "x", "tolerence": 1}, "connections": ["a -> b", {"from": 3}]}"#;
        assert_eq!(at(text, r#""master""#), "master");
        assert_eq!(at(text, r#"{"master": {"#), "master");
        assert_eq!(at(text, r#""x""#), "master.algorithm");
        assert_eq!(at(text, r#""tolerence""#), "master.tolerence");
        assert_eq!(at(text, r#""connections": ["#), "connections");
        assert_eq!(at(text, r#""a -> b""#), "connections[0]");
        assert_eq!(at(text, r#""from": 3"#), "connections[1].from");
        assert_eq!(at(text, r#""from": 3}"#), "connections[1]");
        assert_eq!(path_at(text, text.len()), "");
    }

    #[test]
    fn escaped_quotes_in_keys_and_values() {
        let text = r#"{"a\"b": {"c": "x\"}y", "d": 1}}"#;
        assert_eq!(at(text, r#""d": 1"#), "a\"b.d");
    }

    #[test]
    fn line_and_column_to_offset() {
        let text = "ab\ncde\nf";
        assert_eq!(offset_of(text, 1, 2), 2);
        assert_eq!(offset_of(text, 2, 0), 3);
        assert_eq!(offset_of(text, 2, 3), 6);
        assert_eq!(offset_of(text, 3, 1), 8);
        assert_eq!(offset_of(text, 9, 1), 8);
    }
}
