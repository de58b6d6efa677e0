//! Finding the games in a PGN text, line by line.
//!
//! Games are framed before any movetext is lexed, so that damage inside one
//! game (an unterminated `{` comment, variation or tag string) can never
//! swallow the games after it. The rules, in the order they are tried on
//! each line:
//!
//! - a well-formed tag pair line (`[Name "value"]`, possibly several on
//!   one line, read as the lexer reads them) is a **tag line**. After
//!   movetext it starts a new game. Within a tag section it starts a new
//!   game when it repeats a tag name the section already has (a game with
//!   tags but no movetext, followed by the next game's tags), and otherwise
//!   continues the section (blank lines inside a tag section, as ChessBase
//!   writes them, are allowed);
//! - a line that starts with `[` and a letter but is not a well-formed tag
//!   line stays in the tag section it is in (the lexer reports it), and is
//!   movetext anywhere else;
//! - a blank line or a `%` escape line changes nothing;
//! - any other line is movetext. Before the first tag line of a stream it
//!   starts a game without tags.
//!
//! Every byte is looked at a bounded number of times, so time is linear in
//! the input whatever it holds; a game that outgrows a [`Limits`] cap is
//! kept only up to its tags, and the rest of it is skipped without being
//! stored.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::limits::{Cap, Limits, MAX_TAG_LINE_BYTES};
use super::tag_line::{TagPair, is_space, tag_pairs, trim_line};

/// One game found in a chunk of text.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct GameSpan {
    /// Byte range of the game in the chunk's data.
    pub start: usize,
    pub end: usize,
    /// Where the game starts in its source.
    pub at: super::Place,
    /// The game has no tag section: text before the first tag line of a
    /// source. It is only a game if its movetext reads as one.
    pub headerless: bool,
    /// The game broke a cap; the range holds only its kept tags.
    pub cut: Option<Cap>,
}

#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Section {
    /// Nothing but blank lines yet.
    Start,
    Tags,
    Movetext,
}

#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum LineKind {
    Blank,
    /// A tag line; its names are in `Framer::line_names`.
    Tags,
    /// A line that tries to be a tag line (`[` and a letter) but is not
    /// well-formed: it stays within a tag section, and is movetext
    /// elsewhere. The lexer names it.
    BadTag,
    Movetext,
}

/// Frames games incrementally: feed it text as it arrives, take finished
/// games out whenever enough have gathered.
pub struct Framer {
    limits: Limits,
    /// Finished games, then the kept part of the current game, then the
    /// line being read.
    buf: Vec<u8>,
    spans: Vec<GameSpan>,
    section: Section,
    game_start: usize,
    game_line: u64,
    headerless: bool,
    /// The current game broke a cap; its kept bytes end where its current
    /// line starts, and its further lines are dropped once framed.
    cut: Option<Cap>,
    names: HashSet<u64, BuildHasherDefault<Prehashed>>,
    line_names: Vec<u64>,
    pairs: Vec<TagPair>,
    line_start: usize,
    /// How far the search for the end of the current line has got.
    scanned: usize,
    /// Only the head of the current line is kept (a line of a cut game
    /// longer than [`MAX_TAG_LINE_BYTES`]): it cannot be a tag line.
    line_clipped: bool,
    line_no: u64,
}

/// What feeding one stretch of text left to do.
enum Step {
    Done,
    /// The game being read broke a cap: these bytes, after the line that
    /// broke it, are still to be framed.
    Spill(Vec<u8>),
    /// A game that broke a cap has ended; framing goes on normally after
    /// this many bytes of the stretch.
    Resume(usize),
}

/// The tag names are FNV hashes already: hashing them again (SipHash,
/// the standard set's default) cost about 3% of a lichess run.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys go in; this keeps the hasher total anyway.
        self.0 = crate::fnv::fnv1a(bytes);
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// A tag section keeps at most this many distinct names for spotting a
/// repeated tag; beyond it (only in a section already over its cap) a
/// repeated tag may go unnoticed.
const MAX_NAMES: usize = 1 << 16;

impl Framer {
    pub fn new(limits: Limits) -> Framer {
        Framer {
            limits,
            buf: Vec::new(),
            spans: Vec::new(),
            section: Section::Start,
            game_start: 0,
            game_line: 1,
            headerless: false,
            cut: None,
            names: HashSet::default(),
            line_names: Vec::new(),
            pairs: Vec::new(),
            line_start: 0,
            scanned: 0,
            line_clipped: false,
            line_no: 1,
        }
    }

    /// Bytes of finished games ready to be taken.
    pub fn ready_bytes(&self) -> usize {
        self.spans.last().map_or(0, |s| s.end)
    }

    /// Adds text and frames every line it completes.
    pub fn feed(&mut self, text: &[u8]) {
        let mut spilled = Vec::new();
        let mut from_spill = false;
        let mut offset = 0;
        loop {
            let rest = if from_spill {
                &spilled[offset..]
            } else {
                &text[offset..]
            };
            let step = if self.cut.is_some() {
                self.feed_cut(rest)
            } else {
                self.feed_normal(rest)
            };
            match step {
                Step::Done => return,
                Step::Resume(n) => offset += n,
                Step::Spill(bytes) => {
                    spilled = bytes;
                    from_spill = true;
                    offset = 0;
                }
            }
        }
    }

    /// Ends the text: the last line and the last game are finished.
    pub fn finish(&mut self) {
        if self.line_start < self.buf.len() {
            self.line();
            if self.cut.is_some() {
                self.buf.truncate(self.line_start);
            }
        }
        self.close_game(self.buf.len());
        self.section = Section::Start;
        self.line_start = self.buf.len();
        self.scanned = self.buf.len();
        self.game_start = self.buf.len();
    }

    /// How many finished games are ready to be taken.
    pub fn ready_games(&self) -> usize {
        self.spans.len()
    }

    /// Takes at most `max` finished games (at least one, when any is
    /// ready) and their text; offsets start at 0. The games after them
    /// stay, moved to the front.
    pub fn take_games(&mut self, max: usize) -> (Vec<u8>, Vec<GameSpan>) {
        if self.spans.len() <= max.max(1) {
            return self.take();
        }
        let rest_spans = self.spans.split_off(max.max(1));
        let (data, spans) = self.take_ready(self.ready_bytes());
        let shift = data.len();
        self.spans = rest_spans
            .into_iter()
            .map(|mut span| {
                span.start -= shift;
                span.end -= shift;
                span
            })
            .collect();
        (data, spans)
    }

    /// Takes the finished games and their text; offsets start at 0.
    pub fn take(&mut self) -> (Vec<u8>, Vec<GameSpan>) {
        self.take_ready(self.ready_bytes())
    }

    /// Takes the first `ready` bytes with the spans now in `self.spans`.
    fn take_ready(&mut self, ready: usize) -> (Vec<u8>, Vec<GameSpan>) {
        // The rest starts with the room the text had: grown from the
        // rest's own size, the next chunk's text was copied some ten times
        // on its way to a chunk's size (a sixth of the reading thread's
        // samples, issue 50).
        let mut rest = Vec::with_capacity(self.buf.capacity());
        rest.extend_from_slice(&self.buf[ready..]);
        let mut data = std::mem::replace(&mut self.buf, rest);
        data.truncate(ready);
        self.game_start -= ready;
        self.line_start -= ready;
        self.scanned -= ready;
        (data, std::mem::take(&mut self.spans))
    }

    fn feed_normal(&mut self, text: &[u8]) -> Step {
        self.buf.extend_from_slice(text);
        while let Some(newline) = memchr::memchr(b'\n', &self.buf[self.scanned..]) {
            let end = self.scanned + newline;
            self.scanned = end;
            self.line();
            self.next_line(end + 1);
            if let Some(cap) = self.broken_cap(self.line_start) {
                let spill = self.buf.split_off(self.line_start);
                self.cut_game(cap);
                return Step::Spill(spill);
            }
        }
        self.scanned = self.buf.len();
        if self.section == Section::Start {
            self.bound_start();
        }
        if let Some(cap) = self.broken_cap(self.buf.len()) {
            self.cut_game(cap);
            self.clip_line();
        }
        Step::Done
    }

    /// Before the first game, text that is not yet a game is not kept
    /// without bound: blank lines already read and white space of the line
    /// being read are dropped (a zero-filled first piece of a download is
    /// gigabytes of NUL), and a line that has outgrown any tag line is the
    /// movetext of a game without tags, so that the game caps apply to it.
    fn bound_start(&mut self) {
        if self.spans.is_empty() && self.game_start > 0 && self.game_start <= self.line_start {
            let drop = self.game_start;
            self.buf.drain(..drop);
            self.game_start = 0;
            self.line_start -= drop;
            self.scanned -= drop;
        }
        let pending = &self.buf[self.line_start..];
        if pending.iter().all(|&b| is_space(b)) {
            self.buf.truncate(self.line_start);
            self.scanned = self.line_start;
        } else if pending.len() > self.longest_tag_line() {
            self.start_headerless();
        }
    }

    /// The longest line read as a tag line: any line a tag section can hold
    /// (a longer one breaks the header cap, and its game is cut and names
    /// the cap). A well-formed tag line longer than [`MAX_TAG_LINE_BYTES`]
    /// is still its own game's tag: read as movetext, it made the game
    /// before it invalid and its own game lost the tag in silence.
    fn longest_tag_line(&self) -> usize {
        self.limits.max_header_bytes.max(MAX_TAG_LINE_BYTES)
    }

    /// The line being read starts a game without tags. The game starts at
    /// its first byte that is not white space: leading white space is not
    /// part of it (it would count towards the game's cap however the text
    /// arrived, in one piece or in many).
    fn start_headerless(&mut self) {
        let line = &self.buf[self.line_start..];
        let spaces = line.iter().take_while(|&&b| is_space(b)).count();
        self.game_start = self.line_start + spaces;
        self.section = Section::Movetext;
        self.headerless = true;
    }

    fn feed_cut(&mut self, text: &[u8]) -> Step {
        let mut pos = 0;
        while let Some(newline) = memchr::memchr(b'\n', &text[pos..]) {
            self.keep_line_head(&text[pos..pos + newline]);
            self.scanned = self.buf.len();
            let started = self.line();
            pos += newline + 1;
            if started {
                self.buf.push(b'\n');
                let end = self.buf.len();
                self.next_line(end);
                return Step::Resume(pos);
            }
            self.buf.truncate(self.line_start);
            self.scanned = self.line_start;
            self.line_no += 1;
            self.line_clipped = false;
        }
        self.keep_line_head(&text[pos..]);
        self.scanned = self.buf.len();
        Step::Done
    }

    fn next_line(&mut self, start: usize) {
        self.line_start = start;
        self.scanned = start;
        self.line_no += 1;
        self.line_clipped = false;
    }

    /// Adds text to the line being read in a cut game, keeping its head.
    fn keep_line_head(&mut self, text: &[u8]) {
        let room = (self.line_start + MAX_TAG_LINE_BYTES).saturating_sub(self.buf.len());
        if text.len() > room {
            self.line_clipped = true;
        }
        self.buf.extend_from_slice(&text[..text.len().min(room)]);
    }

    fn clip_line(&mut self) {
        let limit = self.line_start + MAX_TAG_LINE_BYTES;
        if self.buf.len() > limit {
            self.buf.truncate(limit);
            self.line_clipped = true;
        }
        self.scanned = self.buf.len();
    }

    /// Classifies the line `buf[line_start..scanned]` and moves the state
    /// on. Returns whether the line started a new game.
    fn line(&mut self) -> bool {
        let kind = if self.line_clipped {
            // Only the head is kept: a tag's opening still starts a game.
            self.long_tag(self.line_start, self.scanned)
        } else {
            self.classify(self.line_start, self.scanned)
        };
        match (kind, self.section) {
            (LineKind::Blank, Section::Start) => {
                // Leading blank lines belong to no game.
                self.game_start = self.scanned + 1;
                self.game_line = self.line_no + 1;
                false
            }
            (LineKind::Blank, _) => false,
            (LineKind::Tags, Section::Start | Section::Movetext) => {
                self.start_game(Section::Tags);
                true
            }
            (LineKind::Tags, Section::Tags) => {
                if self.line_names.iter().any(|n| self.names.contains(n)) {
                    self.start_game(Section::Tags);
                    true
                } else {
                    if self.names.len() < MAX_NAMES {
                        self.names.extend(self.line_names.iter().copied());
                    }
                    false
                }
            }
            (LineKind::BadTag, Section::Tags) => false,
            (LineKind::Movetext | LineKind::BadTag, Section::Start) => {
                self.start_headerless();
                false
            }
            (LineKind::Movetext | LineKind::BadTag, _) => {
                self.section = Section::Movetext;
                false
            }
        }
    }

    /// Starts a new game at the current line: the game before it ends here.
    fn start_game(&mut self, section: Section) {
        self.close_game(self.line_start);
        self.game_start = self.line_start;
        self.game_line = self.line_no;
        self.section = section;
        self.headerless = false;
        self.names.clear();
        self.names.extend(self.line_names.iter().copied());
    }

    /// Records the current game as ending at `end`, if there is one.
    fn close_game(&mut self, end: usize) {
        if self.section == Section::Start {
            return;
        }
        self.spans.push(GameSpan {
            start: self.game_start,
            end,
            at: super::Place::line(self.game_line),
            headerless: self.headerless,
            cut: self.cut.take(),
        });
    }

    /// The cap the current game breaks when it holds the bytes up to `end`.
    /// The header cap counts complete lines only: a line still being read
    /// may turn out to be movetext.
    fn broken_cap(&self, end: usize) -> Option<Cap> {
        if self.section == Section::Start {
            return None;
        }
        let header = self.line_start.min(end).saturating_sub(self.game_start);
        if self.section == Section::Tags && header > self.limits.max_header_bytes {
            Some(Cap::HeaderBytes(self.limits.max_header_bytes))
        } else if end.saturating_sub(self.game_start) > self.limits.max_game_bytes {
            Some(Cap::GameBytes(self.limits.max_game_bytes))
        } else {
            None
        }
    }

    /// Keeps the current game's complete tag lines within the header cap,
    /// drops the rest of what it holds but the line being read, and skips
    /// the game's further lines until the next game starts.
    fn cut_game(&mut self, cap: Cap) {
        let kept = self.kept_tags_end();
        self.buf.drain(kept..self.line_start);
        self.scanned -= self.line_start - kept;
        self.line_start = kept;
        self.cut = Some(cap);
    }

    /// The end of the current game's leading tag lines, within the header
    /// cap and before the line being read.
    fn kept_tags_end(&self) -> usize {
        let limit = (self.game_start + self.limits.max_header_bytes).min(self.line_start);
        let mut end = self.game_start;
        for line in self.buf[self.game_start..limit].split_inclusive(|&b| b == b'\n') {
            let body = trim_line(line);
            let tag_like = body.is_empty() || body[0] == b'[' || body[0] == b'%';
            if !tag_like || !line.ends_with(b"\n") {
                break;
            }
            end += line.len();
        }
        end
    }

    fn classify(&mut self, start: usize, end: usize) -> LineKind {
        let line = trim_line(&self.buf[start..end]);
        match line.first() {
            None | Some(b'%') => LineKind::Blank,
            Some(b'[')
                if line.len() <= self.longest_tag_line()
                    && tag_names(line, &mut self.pairs, &mut self.line_names) =>
            {
                LineKind::Tags
            }
            Some(b'[') if line.len() > self.longest_tag_line() => self.long_tag(start, end),
            Some(b'[') if line.get(1).is_some_and(u8::is_ascii_alphabetic) => LineKind::BadTag,
            Some(_) => LineKind::Movetext,
        }
    }

    /// A line too long for any tag section that opens like a tag
    /// (`[Name "`) is still a tag line: it starts its own game, whose tag
    /// section then breaks the header cap, so that game is cut and names
    /// the cap, and the game before it is left whole.
    fn long_tag(&mut self, start: usize, end: usize) -> LineKind {
        let line = trim_line(&self.buf[start..end]);
        let Some(rest) = line.strip_prefix(b"[") else {
            return LineKind::Movetext;
        };
        let name = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let opens = name > 0
            && rest[name..].iter().find(|&&b| !is_space(b)) == Some(&b'"')
            && rest[..name].first().is_some_and(u8::is_ascii_alphabetic);
        if !opens {
            return LineKind::Movetext;
        }
        self.line_names.clear();
        self.line_names.push(crate::fnv::fnv1a(&rest[..name]));
        LineKind::Tags
    }
}

/// The hashed names of the tags on a line, if it is a well-formed tag line
/// (by the same rules the lexer reads tags with).
fn tag_names(line: &[u8], pairs: &mut Vec<TagPair>, names: &mut Vec<u64>) -> bool {
    names.clear();
    if !tag_pairs(line, pairs) {
        return false;
    }
    names.extend(
        pairs
            .iter()
            .map(|(name, _)| crate::fnv::fnv1a(&line[name.clone()])),
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `fill` × `bytes` in blocks as the reader does, then a game;
    /// returns the most the framer held at once, and the games.
    fn held(fill: &[u8], bytes: usize) -> (usize, Vec<GameSpan>) {
        let mut framer = Framer::new(Limits::default());
        let block: Vec<u8> = fill.iter().copied().cycle().take(256 << 10).collect();
        let mut most = 0;
        for _ in 0..bytes / block.len() {
            framer.feed(&block);
            most = most.max(framer.buf.len());
        }
        framer.feed(b"\n[Event \"x\"]\n\n1. e4 *\n\n");
        framer.finish();
        let (_, spans) = framer.take();
        (most, spans)
    }

    #[test]
    fn leading_white_space_is_not_part_of_a_tagless_game() {
        // 64 KiB of NUL, then a lone `{` (found by the property test): in
        // one piece or byte by byte, the game is the `{` alone, under a
        // 600-byte cap either way.
        let limits = Limits {
            max_game_bytes: 600,
            ..Limits::default()
        };
        let mut text = vec![0u8; 65_536];
        text.extend_from_slice(b"{\n");
        let frame = |pieces: &mut dyn Iterator<Item = &[u8]>| {
            let mut framer = Framer::new(limits);
            for piece in pieces {
                framer.feed(piece);
            }
            framer.finish();
            let (data, spans) = framer.take();
            spans
                .iter()
                .map(|s| (data[s.start..s.end].to_vec(), s.cut))
                .collect::<Vec<_>>()
        };
        let whole = frame(&mut std::iter::once(&text[..]));
        let bytes = frame(&mut text.chunks(1));
        assert_eq!(whole, bytes);
        assert_eq!(whole, [(b"{\n".to_vec(), None)]);
    }

    #[test]
    fn text_before_the_first_game_is_not_kept_without_bound() {
        // 64 MiB of NUL or spaces on one line, of blank lines, and of junk
        // on one line: the framer holds at most a block and a tag line.
        for fill in [&b"\0"[..], b" ", b"\n", b" \n\0\r\x0b", b"x"] {
            let (most, spans) = held(fill, 64 << 20);
            assert!(
                most <= (256 << 10) + MAX_TAG_LINE_BYTES + (16 << 20),
                "{fill:?}: held {most} bytes"
            );
            if fill != b"x" {
                assert!(most <= 2 * (256 << 10), "{fill:?}: held {most} bytes");
                assert_eq!(spans.len(), 1, "{fill:?}");
                assert_eq!(spans[0].cut, None);
            } else {
                // Junk is a game without tags, capped like any game.
                assert_eq!(spans.len(), 2);
                assert_eq!(spans[0].cut, Some(Cap::GameBytes(16 << 20)));
                assert!(spans[0].headerless);
            }
        }
    }
}
