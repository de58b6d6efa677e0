//! Text quoted in a message: short, on one line, and printable; and text
//! from untrusted places (tags, file names, Parquet cells) made safe for a
//! terminal.
//!
//! Two layers. A *value* shown on a terminal — a file name, a path, a tag,
//! a table cell, a message that must stay on its line — goes through
//! [`shown`] (or [`Shown`], or the [`say!`](crate::say) macro for a whole
//! line on standard error): every control character is escaped, line
//! feed, carriage return and tab included, so a value can neither start a
//! line of its own nor send an escape sequence. A whole *output* (a
//! table, a trail) goes through the [`TerminalSafe`] writer, which keeps
//! the line feeds and tabs of the layout and escapes the rest: defence in
//! depth for a value a render forgot.
//!
//! The escape is `\u` and four hex digits (`\u000a` for a line feed,
//! `\u001b` for ESC): the same in every output, valid inside a JSON string
//! and inside bash's `$'…'`.

use std::borrow::Cow;
use std::fmt;
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

/// A value shown on a terminal (a name, a path, a cell, a tag): `value`
/// with every control character written as `\u` and four hex digits —
/// line feed (`\u000a`), carriage return (`\u000d`) and tab (`\u0009`)
/// included, with C0, DEL and C1 — so that it stays on its line and
/// moves no cursor. Printable text, backslashes included, is kept as it
/// is.
///
/// ```
/// use remis_core::excerpt::shown;
/// assert_eq!(shown("Carlsen"), "Carlsen");
/// assert_eq!(shown("a\nFORGED\u{1b}[31m"), "a\\u000aFORGED\\u001b[31m");
/// ```
pub fn shown(value: &str) -> Cow<'_, str> {
    if !value.chars().any(char::is_control) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`shown`] of anything that displays: `Shown(path.display())`,
/// `Shown(&error)`, `Shown(name)` in a `format!`.
pub struct Shown<T: fmt::Display>(pub T);

impl<T: fmt::Display> fmt::Display for Shown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        f.pad(&shown(&text))
    }
}

/// A path shown on a terminal: its [`Path::display`](std::path::Path::display)
/// (bytes that are not UTF-8 as U+FFFD) through [`shown`].
pub fn shown_path(path: &std::path::Path) -> String {
    shown(&path.display().to_string()).into_owned()
}

/// One message on standard error, on a line of its own: `eprintln!` with
/// the whole formatted message through [`shown`], so that whatever names
/// it holds, it is one line and sends no escape sequence. Every message
/// remis prints on standard error goes through it.
///
/// ```
/// remis_core::say!("remis: {} rows -> {}", 3, "out\nFORGED");
/// ```
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        #[allow(clippy::disallowed_macros)]
        {
            ::std::eprintln!("{}", $crate::excerpt::shown(&::std::format!($($arg)*)));
        }
    }};
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

    #[test]
    fn a_value_shown_stays_on_its_line() {
        let hostile = "in\nFORGED line\r\tx\u{1b}[31m\u{9b}1m\u{7f}";
        let safe = shown(hostile);
        assert!(!safe.chars().any(char::is_control), "{safe}");
        assert_eq!(
            safe,
            "in\\u000aFORGED line\\u000d\\u0009x\\u001b[31m\\u009b1m\\u007f"
        );
        // Printable text is borrowed as it is, backslashes included.
        assert!(matches!(shown("a\\u000a é"), Cow::Borrowed(_)));
        // Escaping again changes nothing: a value may pass twice.
        assert_eq!(shown(&safe), safe);
        assert_eq!(terminal_safe(&safe), safe);
        assert_eq!(format!("[{:<10}]", Shown("a\nb")), "[a\\u000ab  ]");
        assert_eq!(
            shown_path(std::path::Path::new("dir/x\ny.pgn")),
            "dir/x\\u000ay.pgn"
        );
    }
}
