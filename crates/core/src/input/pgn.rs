//! Reading one framed game (see `frame.rs`): its tags and its
//! movetext, strictly, into a pgn-reader [`Visitor`].
//!
//! pgn-reader's own reader skips what it cannot read (an unknown token, a
//! move followed by junk) and lets an unterminated comment run on into the
//! following games. Here every byte of a game is accounted for: a token that
//! is not PGN, an unterminated comment or variation, a malformed tag line
//! or an over-long comment is a [`SyntaxError`] naming its line, and the
//! caller turns the game into an invalid row. The visitor sees the same
//! calls as with pgn-reader's reader, so the replay code does not change.

use std::ops::ControlFlow;

use pgn_reader::{KnownOutcome, Nag, Outcome, RawComment, RawTag, SanPlus, Visitor};
use shakmaty::{
    CastlingSide, Color,
    san::{San, Suffix},
};

use super::Place;
use super::limits::Limits;
use super::tag_line::{TagPair, is_space, tag_pairs, trim_line};
use crate::excerpt::excerpt;

/// Why a game could not be read.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum SyntaxError {
    #[error("{at}: unterminated comment: the {{ opened here is not closed before the game ends")]
    UnterminatedComment { at: Place },
    #[error("{at}: unterminated variation: the ( opened here is not closed before the game ends")]
    UnterminatedVariation { at: Place },
    #[error("{at}: ) without a matching (")]
    UnmatchedParenthesis { at: Place },
    #[error("{at}: unknown token \"{token}\"")]
    UnknownToken { at: Place, token: String },
    #[error("{at}: malformed tag line \"{text}\"")]
    MalformedTag { at: Place, text: String },
    #[error("{at}: comment longer than {limit} bytes (--max-comment-bytes)")]
    CommentTooLong { at: Place, limit: usize },
    #[error("{at}: token longer than {MAX_TOKEN_BYTES} bytes")]
    TokenTooLong { at: Place },
}

/// The PGN standard's limit on a token (section 7).
pub const MAX_TOKEN_BYTES: usize = 255;

/// What reading a game gave.
pub enum Read<O> {
    Game(O),
    /// The game could not be read; the visitor is left mid-game.
    Broken(SyntaxError),
    /// Text without tags whose first token is not PGN either: not a game.
    NotPgn,
}

fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | 0x0b
            | 0x0c
            | 0x00
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

/// Reads the game in `text`, whose first line is at `first` in its
/// source, into `visitor`. `headerless` says the framer found no tag
/// section: then the text is only a game if its first token is PGN.
pub fn read_game<V: Visitor>(
    text: &[u8],
    first: Place,
    headerless: bool,
    limits: &Limits,
    visitor: &mut V,
) -> Read<V::Output> {
    let mut game = Game {
        text,
        pos: 0,
        first,
        limits,
    };
    if headerless && !game.starts_like_movetext() {
        return Read::NotPgn;
    }
    match game.read(visitor) {
        Ok(output) => Read::Game(output),
        Err(e) => Read::Broken(e),
    }
}

/// Whether the text of a framed span is a game (a row of the table) or
/// text that is not PGN: the same test [`read_game`] makes before reading,
/// without reading the game. Counting games this way costs framing only.
pub fn is_game(text: &[u8], headerless: bool) -> bool {
    let limits = Limits::default();
    let game = Game {
        text,
        pos: 0,
        first: Place::line(1),
        limits: &limits,
    };
    !headerless || game.starts_like_movetext()
}

/// Reads a game whose tags come from elsewhere (Parquet columns, as
/// (name, value in PGN's escaped form)) and whose `text` is only its
/// movetext: whatever the text holds, it is this one game.
pub fn read_movetext<'t, V: Visitor>(
    text: &[u8],
    first: Place,
    tags: impl Iterator<Item = (&'t [u8], &'t [u8])>,
    limits: &Limits,
    visitor: &mut V,
) -> Read<V::Output> {
    let mut game = Game {
        text,
        pos: 0,
        first,
        limits,
    };
    match game.read_with(visitor, Some(tags)) {
        Ok(output) => Read::Game(output),
        Err(e) => Read::Broken(e),
    }
}

struct Game<'a> {
    text: &'a [u8],
    pos: usize,
    first: Place,
    limits: &'a Limits,
}

type Step<O> = Result<ControlFlow<O>, SyntaxError>;

/// Ends reading with the visitor's output when a callback breaks.
macro_rules! visit {
    ($call:expr) => {
        if let ControlFlow::Break(output) = $call {
            return Ok(ControlFlow::Break(output));
        }
    };
}

impl<'a> Game<'a> {
    fn line_at(&self, pos: usize) -> Place {
        self.first
            .down(memchr::memchr_iter(b'\n', &self.text[..pos]).count() as u64)
    }

    fn read<V: Visitor>(&mut self, visitor: &mut V) -> Result<V::Output, SyntaxError> {
        self.read_with(visitor, None::<std::iter::Empty<(&[u8], &[u8])>>)
    }

    /// Reads the game; its tags are `given`, or else the text's tag lines.
    fn read_with<'t, V: Visitor>(
        &mut self,
        visitor: &mut V,
        given: Option<impl Iterator<Item = (&'t [u8], &'t [u8])>>,
    ) -> Result<V::Output, SyntaxError> {
        let mut tags = match visitor.begin_tags() {
            ControlFlow::Continue(tags) => tags,
            ControlFlow::Break(output) => return Ok(output),
        };
        match given {
            Some(given) => {
                for (name, value) in given {
                    if let ControlFlow::Break(output) = visitor.tag(&mut tags, name, RawTag(value))
                    {
                        return Ok(output);
                    }
                }
            }
            None => {
                if let ControlFlow::Break(output) = self.read_tags(visitor, &mut tags)? {
                    return Ok(output);
                }
            }
        }
        let mut movetext = match visitor.begin_movetext(tags) {
            ControlFlow::Continue(movetext) => movetext,
            ControlFlow::Break(output) => return Ok(output),
        };
        if let ControlFlow::Break(output) = self.read_movetext(visitor, &mut movetext)? {
            return Ok(output);
        }
        Ok(visitor.end_game(movetext))
    }

    /// Reads the tag lines at the start of the game, up to its first line
    /// of movetext.
    fn read_tags<V: Visitor>(&mut self, visitor: &mut V, tags: &mut V::Tags) -> Step<V::Output> {
        let mut pairs = Vec::new();
        loop {
            let rest = &self.text[self.pos..];
            let line_len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            let raw = &rest[..line_len];
            let line = trim_line(raw);
            match line.first() {
                None if line_len == rest.len() => return Ok(ControlFlow::Continue(())),
                None | Some(b'%') => {}
                Some(b'[') => {
                    let line_start = self.pos;
                    let mut visit_tag =
                        |name: &[u8], value: &[u8]| visitor.tag(tags, name, RawTag(value));
                    match read_tag_line(line, &mut pairs, &mut visit_tag) {
                        Ok(ControlFlow::Continue(())) => {}
                        Ok(ControlFlow::Break(output)) => return Ok(ControlFlow::Break(output)),
                        // A line that only looks like a tag is movetext (and
                        // fails there); one that tries to be a tag is named.
                        Err(()) if !line.get(1).is_some_and(u8::is_ascii_alphabetic) => {
                            return Ok(ControlFlow::Continue(()));
                        }
                        Err(()) => {
                            return Err(SyntaxError::MalformedTag {
                                at: self.line_at(line_start),
                                text: excerpt(line),
                            });
                        }
                    }
                }
                Some(_) => return Ok(ControlFlow::Continue(())),
            }
            self.pos = (self.pos + line_len + 1).min(self.text.len());
        }
    }

    /// Whether the first token of the text is PGN movetext: a comment, a
    /// move number, a move or a result.
    fn starts_like_movetext(&self) -> bool {
        let mut pos = 0;
        let text = self.text;
        while pos < text.len() {
            match text[pos] {
                b'%' if pos == 0 || text[pos - 1] == b'\n' => {
                    pos += memchr::memchr(b'\n', &text[pos..]).unwrap_or(text.len() - pos);
                }
                b if is_space(b) => pos += 1,
                b'{' | b';' | b'*' | b'0'..=b'9' => return true,
                _ => {
                    let end = text[pos..]
                        .iter()
                        .position(|&b| is_token_end(b))
                        .map_or(text.len(), |n| pos + n);
                    return SanPlus::from_ascii(&text[pos..end]).is_ok();
                }
            }
        }
        false
    }

    fn read_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> Step<V::Output> {
        let text = self.text;
        // Depth of variations being skipped, and where the outermost began.
        let mut depth = 0usize;
        let mut variation_start = 0;
        let mut at_line_start = self.pos == 0 || text[self.pos - 1] == b'\n';
        while self.pos < text.len() {
            let byte = text[self.pos];
            if byte == b'\n' {
                at_line_start = true;
                self.pos += 1;
                continue;
            }
            let line_start = std::mem::take(&mut at_line_start);
            match byte {
                // NUL bytes are padding some tools leave behind.
                b if is_space(b) => self.pos += 1,
                b'%' if line_start => self.skip_line(),
                b';' => self.skip_line(),
                b'{' => {
                    let open = self.pos;
                    let body = &text[open + 1..];
                    let Some(close) = memchr::memchr(b'}', body) else {
                        return Err(SyntaxError::UnterminatedComment {
                            at: self.line_at(open),
                        });
                    };
                    if close > self.limits.max_comment_bytes {
                        return Err(SyntaxError::CommentTooLong {
                            at: self.line_at(open),
                            limit: self.limits.max_comment_bytes,
                        });
                    }
                    self.pos = open + close + 2;
                    if depth == 0 {
                        visit!(visitor.comment(movetext, RawComment(&body[..close])));
                    }
                }
                b'(' => {
                    if depth == 0 {
                        variation_start = self.pos;
                    }
                    depth += 1;
                    self.pos += 1;
                }
                b')' => {
                    if depth == 0 {
                        return Err(SyntaxError::UnmatchedParenthesis {
                            at: self.line_at(self.pos),
                        });
                    }
                    depth -= 1;
                    self.pos += 1;
                }
                _ => {
                    let start = self.pos;
                    let token = self.token()?;
                    if depth == 0 {
                        match token {
                            Token::San(san) => visit!(visitor.san(movetext, san)),
                            Token::Nag(nag) => visit!(visitor.nag(movetext, nag)),
                            Token::Outcome(outcome) => visit!(visitor.outcome(movetext, outcome)),
                            Token::MoveNumber => {}
                        }
                    }
                    debug_assert!(self.pos > start);
                }
            }
        }
        if depth > 0 {
            return Err(SyntaxError::UnterminatedVariation {
                at: self.line_at(variation_start),
            });
        }
        Ok(ControlFlow::Continue(()))
    }

    fn skip_line(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    }

    /// An unknown token starting at `start`, shown up to `end` or, if
    /// longer, up to the next space.
    fn unknown(&self, start: usize, end: usize) -> SyntaxError {
        let word_end = self.text[start..]
            .iter()
            .position(|b| b.is_ascii_whitespace() || matches!(b, b'{' | b'(' | b')'))
            .map_or(self.text.len(), |n| start + n);
        SyntaxError::UnknownToken {
            at: self.line_at(start),
            token: excerpt(&self.text[start..end.max(word_end)]),
        }
    }

    /// Reads one token at `pos` (not whitespace, a comment or a
    /// parenthesis). Tokens of skipped variations are read the same way,
    /// so that nothing in a game goes unchecked.
    fn token(&mut self) -> Result<Token, SyntaxError> {
        let text = self.text;
        let start = self.pos;
        let rest = &text[start..];
        // Results and castling written with zeros, before move numbers.
        // Checked only for a leading digit or '½' (0xC2 0xBD): the table is
        // walked by reference for the few tokens that can match, not for
        // every move.
        let candidates: &[(&[u8], Token)] = match rest[0] {
            b'0' | b'1' | 0xc2 => &RESULTS,
            _ => &[],
        };
        for (spelling, token) in candidates {
            if rest.starts_with(spelling)
                && rest.get(spelling.len()).is_none_or(|&b| is_token_end(b))
            {
                self.pos += spelling.len();
                return Ok(token.clone());
            }
        }
        match rest[0] {
            b'*' => {
                self.pos += 1;
                Ok(Token::Outcome(Outcome::Unknown))
            }
            b'$' => {
                let digits = rest[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                let end = 1 + digits;
                self.pos += end;
                let value = std::str::from_utf8(&rest[1..end])
                    .ok()
                    .and_then(|d| d.parse::<u8>().ok());
                match value {
                    Some(nag) if rest.get(end).is_none_or(|&b| is_token_end(b)) => {
                        Ok(Token::Nag(Nag(nag)))
                    }
                    _ => {
                        let end = self.token_end(start + 1);
                        Err(self.unknown(start, end))
                    }
                }
            }
            b'!' | b'?' => {
                let marks = rest.iter().take_while(|&&b| b == b'!' || b == b'?').count();
                let nag = match &rest[..marks] {
                    b"!" => Nag::GOOD_MOVE,
                    b"?" => Nag::MISTAKE,
                    b"!!" => Nag::BRILLIANT_MOVE,
                    b"??" => Nag::BLUNDER,
                    b"!?" => Nag::SPECULATIVE_MOVE,
                    b"?!" => Nag::DUBIOUS_MOVE,
                    _ => return Err(self.unknown(start, start + marks)),
                };
                self.pos += marks;
                Ok(Token::Nag(nag))
            }
            b'0'..=b'9' => {
                // A move number: digits, then dots (or the ellipsis sign).
                let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                let mut end = digits;
                loop {
                    if rest.get(end) == Some(&b'.') {
                        end += 1;
                    } else if rest[end..].starts_with("…".as_bytes()) {
                        end += "…".len();
                    } else {
                        break;
                    }
                }
                if rest
                    .get(end)
                    .is_some_and(|&b| !is_token_end(b) && !b.is_ascii_alphabetic())
                {
                    let end = self.token_end(start + end);
                    return Err(self.unknown(start, end));
                }
                self.pos += end;
                Ok(Token::MoveNumber)
            }
            _ if rest.starts_with("…".as_bytes()) => {
                self.pos += "…".len();
                Ok(Token::MoveNumber)
            }
            b'.' => {
                let dots = rest.iter().take_while(|&&b| b == b'.').count();
                self.pos += dots;
                Ok(Token::MoveNumber)
            }
            _ => {
                let end = self.token_end(start);
                if end - start > MAX_TOKEN_BYTES {
                    return Err(SyntaxError::TokenTooLong {
                        at: self.line_at(start),
                    });
                }
                let mut word = &text[start..end];
                self.pos = end;
                // "exd6 e.p." or "exd6e.p.": the en-passant mark is noise.
                if word == b"e" && text[end..].starts_with(b".p.") {
                    self.pos = end + 3;
                    return Ok(Token::MoveNumber);
                }
                if word.len() > 1 && word.ends_with(b"e") && text[end..].starts_with(b".p.") {
                    word = &word[..word.len() - 1];
                    self.pos = end + 3;
                }
                let san = if word == b"Z0" {
                    // ChessBase writes a null move as Z0.
                    Ok(SanPlus {
                        san: San::Null,
                        suffix: None,
                    })
                } else {
                    SanPlus::from_ascii(word)
                };
                match san {
                    Ok(san) => Ok(Token::San(san)),
                    Err(_) => Err(self.unknown(start, end)),
                }
            }
        }
    }

    fn token_end(&self, from: usize) -> usize {
        self.text[from..]
            .iter()
            .position(|&b| is_token_end(b))
            .map_or(self.text.len(), |n| from + n)
    }
}

#[derive(Clone)]
enum Token {
    San(SanPlus),
    Nag(Nag),
    Outcome(Outcome),
    /// A move number, or anything else that carries no move.
    MoveNumber,
}

const fn castle(side: CastlingSide, suffix: Option<Suffix>) -> Token {
    Token::San(SanPlus {
        san: San::Castle(side),
        suffix,
    })
}

const WHITE_WINS: Token = Token::Outcome(Outcome::Known(KnownOutcome::Decisive {
    winner: Color::White,
}));
const BLACK_WINS: Token = Token::Outcome(Outcome::Known(KnownOutcome::Decisive {
    winner: Color::Black,
}));
const DRAW: Token = Token::Outcome(Outcome::Known(KnownOutcome::Draw));

/// Tokens that start with a digit (or ½) but are no move number, longest
/// first where one is a prefix of another.
const RESULTS: [(&[u8], Token); 12] = [
    (b"1/2-1/2", DRAW),
    ("1/2–1/2".as_bytes(), DRAW),
    ("½-½".as_bytes(), DRAW),
    (b"1/2", DRAW),
    (b"1-0", WHITE_WINS),
    (b"0-1", BLACK_WINS),
    (
        b"0-0-0+",
        castle(CastlingSide::QueenSide, Some(Suffix::Check)),
    ),
    (
        b"0-0-0#",
        castle(CastlingSide::QueenSide, Some(Suffix::Checkmate)),
    ),
    (b"0-0-0", castle(CastlingSide::QueenSide, None)),
    (b"0-0+", castle(CastlingSide::KingSide, Some(Suffix::Check))),
    (
        b"0-0#",
        castle(CastlingSide::KingSide, Some(Suffix::Checkmate)),
    ),
    (b"0-0", castle(CastlingSide::KingSide, None)),
];

/// Reads the tag pairs of one line: `[Name "value"]`, possibly several.
/// A value holding unescaped quotes (`[Event "The "Big" Open"]`, a common
/// export fault) is read up to the last quote of a line with a single tag.
fn read_tag_line<O>(
    line: &[u8],
    pairs: &mut Vec<TagPair>,
    mut visit: impl FnMut(&[u8], &[u8]) -> ControlFlow<O>,
) -> Result<ControlFlow<O>, ()> {
    if !tag_pairs(line, pairs) {
        return Err(());
    }
    for (name, value) in pairs.iter() {
        if let ControlFlow::Break(output) = visit(&line[name.clone()], &line[value.clone()]) {
            return Ok(ControlFlow::Break(output));
        }
    }
    Ok(ControlFlow::Continue(()))
}
