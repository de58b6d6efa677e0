//! The grammar of a PGN line that framing and lexing share: what counts as
//! white space, and where the tag pairs of a tag line lie. A leaf: the
//! framer and the lexer both read lines by it.

use std::ops::Range;

/// What PGN reading counts as white space, in framing, in tag lines and
/// in movetext alike: the ASCII spaces and line ends, vertical tab, form
/// feed, and NUL (the padding some tools and zero-filled downloads leave).
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | 0x00)
}

/// A line without surrounding white space (see [`is_space`]) and without a
/// byte-order mark.
pub fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    let start = line
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |e| e + 1);
    &line[start..end]
}

/// Where a tag's name and raw value lie in its line.
pub type TagPair = (Range<usize>, Range<usize>);

/// Finds the tag pairs of a line (without surrounding whitespace) into
/// `pairs`; false if it is not a tag line.
pub fn tag_pairs(line: &[u8], pairs: &mut Vec<TagPair>) -> bool {
    pairs.clear();
    if split_tags(line, pairs) {
        return true;
    }
    pairs.clear();
    match lenient_tag(line) {
        Some(pair) => {
            pairs.push(pair);
            true
        }
        None => false,
    }
}

/// The length of the tag name at `line[at..]`.
fn tag_name(line: &[u8], at: usize) -> Option<Range<usize>> {
    let len = line[at..]
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(line.len() - at);
    (len > 0).then_some(at..at + len)
}

fn skip_spaces(line: &[u8], mut at: usize) -> usize {
    while line.get(at).is_some_and(|&b| is_space(b)) {
        at += 1;
    }
    at
}

/// Tag pairs by the standard's escaping rules; false when the line does
/// not follow them.
fn split_tags(line: &[u8], pairs: &mut Vec<TagPair>) -> bool {
    let mut at = 0;
    while at < line.len() {
        if line[at] != b'[' {
            return false;
        }
        let Some(name) = tag_name(line, at + 1) else {
            return false;
        };
        at = skip_spaces(line, name.end);
        if line.get(at) != Some(&b'"') {
            return false;
        }
        let value_start = at + 1;
        let mut i = value_start;
        let close = loop {
            match memchr::memchr2(b'"', b'\\', &line[i.min(line.len())..]) {
                Some(d) if line[i + d] == b'\\' => i += d + 2,
                Some(d) => break i + d,
                None => return false,
            }
        };
        at = skip_spaces(line, close + 1);
        if line.get(at) != Some(&b']') {
            return false;
        }
        pairs.push((name, value_start..close));
        at = skip_spaces(line, at + 1);
    }
    true
}

fn lenient_tag(line: &[u8]) -> Option<TagPair> {
    if line.first() != Some(&b'[') {
        return None;
    }
    let name = tag_name(line, 1)?;
    let open = skip_spaces(line, name.end);
    if line.get(open) != Some(&b'"') {
        return None;
    }
    let body = line.strip_suffix(b"]")?.trim_ascii_end();
    let close = body.len().checked_sub(1)?;
    (close > open && body[close] == b'"').then_some((name, open + 1..close))
}
