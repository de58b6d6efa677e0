//! Text quoted in a message: short, on one line, and printable; and text
//! from untrusted places (tags, file names) made safe for a terminal.

use std::borrow::Cow;
use std::io::{self, Write};

/// `text` with every control character but line feed and tab written as
/// `\u001b` (C0, DEL and the C1 range U+0080–U+009F): a tag or a file name
/// cannot move the cursor, set the window title, reach the clipboard (OSC
/// 52) or start a C1 sequence on the user's terminal. The escape is also
/// valid inside a JSON string.
///
/// ```
/// use remis_core::excerpt::terminal_safe;
/// assert_eq!(terminal_safe("Carlsen"), "Carlsen");
/// assert_eq!(terminal_safe("evil\u{1b}]52;c;...\u{7}"), "evil\\u001b]52;c;...\\u0007");
/// ```
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_for_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_for_terminal(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn unsafe_for_terminal(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// A writer that passes text through [`terminal_safe`]: what the reading
/// commands print goes through it, whatever the table's cells hold. In a
/// piece that is not UTF-8, the ASCII control bytes are escaped.
pub struct TerminalSafe<W: Write>(pub W);

impl<W: Write> Write for TerminalSafe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Formatted text arrives in whole characters: a piece is a `&str`.
        match std::str::from_utf8(buf) {
            Ok(text) => self.0.write_all(terminal_safe(text).as_bytes())?,
            Err(_) => {
                for &b in buf {
                    if b < 0x20 && b != b'\n' && b != b'\t' || b == 0x7f {
                        write!(self.0, "\\u{b:04x}")?;
                    } else {
                        self.0.write_all(&[b])?;
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

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

    #[test]
    fn terminal_escapes_are_shown_not_sent() {
        // OSC 52 (clipboard), CSI, a C1 CSI, a carriage return, BEL.
        let hostile = "a\u{1b}]52;c;aGk=\u{7}b\u{1b}[2Jc\u{9b}31md\re";
        let safe = terminal_safe(hostile);
        assert!(!safe.chars().any(|c| c.is_control()), "{safe}");
        assert_eq!(
            safe,
            "a\\u001b]52;c;aGk=\\u0007b\\u001b[2Jc\\u009b31md\\u000de"
        );
        assert_eq!(terminal_safe("line\n\tok"), "line\n\tok");
        let mut out = TerminalSafe(Vec::new());
        write!(out, "{hostile}").unwrap();
        assert_eq!(String::from_utf8(out.0).unwrap(), safe);
    }
}
