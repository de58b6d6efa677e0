//! Text quoted in a message: short, on one line, and printable.

/// At most 40 characters of `bytes`, with `…` when there was more; control
/// characters shown as U+FFFD so that a message stays on its line.
pub fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut chars = text.chars();
    let head: String = chars
        .by_ref()
        .take(40)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// The [`excerpt`] of the first line of `text` that is not blank.
pub fn first_line_excerpt(text: &[u8]) -> String {
    let line = text
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    excerpt(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_printable_one_line() {
        assert_eq!(excerpt(b"e4"), "e4");
        assert_eq!(excerpt(&[b'x'; 41]), format!("{}…", "x".repeat(40)));
        assert_eq!(excerpt(b"a\x01b"), "a\u{fffd}b");
        assert_eq!(first_line_excerpt(b"\n  \n  junk here \nmore"), "junk here");
    }
}
