//! Replays PGN games with shakmaty: the pgn-reader [`Visitor`] that turns
//! each game into a [`GameRecord`], with the rules of [`crate::rules`]
//! applied to its final position.

mod platform;
mod san;
mod text;
mod time_control;

pub use platform::Platform;
pub use text::{Field, GameText};
pub use time_control::TimeClass;

use std::ops::ControlFlow;

use pgn_reader::{KnownOutcome, Outcome, RawTag, SanPlus, Visitor};
use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, Position,
    fen::Fen,
    san::{San, SanError},
};

use crate::excerpt::first_line_excerpt;
use crate::fnv;
use crate::input::{
    Chunk, GameSpan, Limits, TagTable,
    pgn::{self, SyntaxError},
};
use crate::rules::{
    self, Arbiter, BoardFacts, Deadness, Ending, Event, GameResult, MAX_WORDING_BYTES, Mate,
    Mismatch, SearchOptions, Termination, Wording,
};

/// The rules a game is played under, from its `Variant` tag.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Variant {
    Standard,
    Chess960,
    /// Any other variant (atomic, crazyhouse, …): kept as a row, not replayed.
    Unsupported,
}

impl Variant {
    /// The variants that are replayed, by their `variant` column value.
    pub const REPLAYED: [Variant; 2] = [Variant::Standard, Variant::Chess960];

    /// The `variant` column value; `None` for an unsupported variant, whose
    /// column holds the tag as written.
    #[inline]
    pub const fn name(self) -> Option<&'static str> {
        match self {
            Variant::Standard => Some("standard"),
            Variant::Chess960 => Some("chess960"),
            Variant::Unsupported => None,
        }
    }

    pub fn from_tag(tag: &str) -> Variant {
        let t = tag.trim().to_ascii_lowercase();
        match t.as_str() {
            "" | "standard" | "chess" | "normal" | "from position" | "fromposition" => {
                Variant::Standard
            }
            "chess960"
            | "chess 960"
            | "960"
            | "fischerandom"
            | "fischer random"
            | "fischerrandom"
            | "chess960 (fischer random)" => Variant::Chess960,
            _ => Variant::Unsupported,
        }
    }
}

/// One game of the input, replayed and classified.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub text: GameText,
    pub white_elo: Option<u16>,
    pub black_elo: Option<u16>,
    /// The Result tag, or the movetext's result token when the tag is
    /// missing or unreadable; `None` when neither says anything.
    pub result: Option<GameResult>,
    pub variant: Variant,
    pub plies: u32,
    /// How the game ended under the Laws.
    pub ending: Ending,
    /// Why the recorded result contradicts the Laws, if it does.
    pub mismatch: Option<Mismatch>,
    /// The result the Laws give (the recorded one unless it contradicts
    /// them); `None` when unfinished or not replayed.
    pub law_result: Option<GameResult>,
    /// The final position's facts; `None` when the game was not replayed to
    /// its end (invalid, unsupported variant).
    pub board: Option<BoardFacts>,
    /// The first event that ended the game by itself (mate, stalemate, dead
    /// position, fivefold repetition, 75 moves) and the ply after which it
    /// happened; 0 is the start position.
    pub first_event: Option<(u32, Event)>,
    /// Is the final position dead (5.2.2)? `None` when not replayed or
    /// when it is mate or stalemate.
    pub dead: Option<Deadness>,
    /// After a flag fall: could the flagged player's opponent mate (6.9)?
    pub flag_opponent: Option<Mate>,
    /// Each side's clock in seconds after its last move, from the last
    /// `[%clk h:mm:ss]` comment of that side (white, black).
    pub clocks: [Option<f32>; 2],
    /// A hash of the moves played (and of the start position when set up),
    /// for finding the same game twice.
    pub movetext_hash: u64,
}

impl GameRecord {
    fn new() -> GameRecord {
        GameRecord {
            text: GameText::with_capacity(256),
            white_elo: None,
            black_elo: None,
            result: None,
            variant: Variant::Standard,
            plies: 0,
            ending: Ending::Invalid,
            mismatch: None,
            law_result: None,
            board: None,
            first_event: None,
            dead: None,
            flag_opponent: None,
            clocks: [None, None],
            movetext_hash: fnv::OFFSET,
        }
    }

    /// The year of the game: from `Date`, else `UTCDate`, else `EventDate`.
    #[inline]
    pub fn year(&self) -> Option<i16> {
        [Field::Date, Field::UtcDate, Field::EventDate]
            .into_iter()
            .find_map(|f| self.text.get(f).and_then(parse_year))
    }

    #[inline]
    pub fn error(&self) -> Option<&str> {
        self.text.get(Field::Error)
    }

    /// The recorded result contradicts the Laws.
    pub fn result_mismatch(&self) -> bool {
        self.mismatch.is_some()
    }
}

/// The time on a `[%clk h:mm:ss]` or `[%clk h:mm:ss.f]` comment, in
/// seconds.
fn clock_seconds(comment: &[u8]) -> Option<f32> {
    let at = memchr::memmem::find(comment, b"[%clk")?;
    let rest = comment[at + 5..].trim_ascii_start();
    let end = rest.iter().position(|&b| b == b']')?;
    let text = std::str::from_utf8(&rest[..end]).ok()?.trim();
    // Every part a number that is neither negative nor NaN nor infinite:
    // `[%clk -1:00:00]` is no clock.
    let mut seconds = 0.0f32;
    for part in text.split(':') {
        let value = part
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)?;
        seconds = seconds * 60.0 + value;
    }
    seconds.is_finite().then_some(seconds)
}

fn parse_year(date: &str) -> Option<i16> {
    let digits = date.as_bytes().get(..4)?;
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let year: i16 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    (year > 0).then_some(year)
}

/// An Elo tag: a positive number below 4000; "0", "-", "?" or text are null.
fn parse_elo(value: &[u8]) -> Option<u16> {
    let value = value.trim_ascii();
    if value.is_empty() || value.len() > 4 || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let elo = value
        .iter()
        .fold(0u16, |n, &d| n * 10 + u16::from(d - b'0'));
    (1..4000).contains(&elo).then_some(elo)
}

/// Which code turns SAN into moves. Both give the same move or the same
/// error for every SAN (tested, and compared on every corpus); remis's own
/// avoids building a move list for the common moves.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SanResolver {
    #[default]
    Remis,
    Shakmaty,
}

/// What the comment kept since the last move says about how the game
/// ended, read once (at the result token, or at the end of a movetext
/// without one): the buffer is emptied; `None` when there is none or it is
/// no wording.
fn closing_wording(closing: &mut Vec<u8>, text: &GameText) -> Option<Wording> {
    if closing.is_empty() {
        return None;
    }
    let wording = Wording::read(closing, text.get(Field::White), text.get(Field::Black));
    closing.clear();
    wording
}

/// Encodes a move compactly for the movetext hash.
fn move_code(m: shakmaty::Move) -> u64 {
    let promotion = m.promotion().map_or(0, |r| r as u64);
    (u64::from(m.from().map_or(64, |s| s as u8)) << 10) | ((m.to() as u64) << 4) | promotion
}

/// The pgn-reader visitor: reads a game's text, feeds its moves to the
/// [`Arbiter`] and fills the record. One per worker thread; its buffers
/// are reused from game to game.
pub struct GameReplayer {
    limits: Limits,
    resolver: SanResolver,
    /// The game being read broke a framing cap: only its tags are read.
    cut: Option<crate::input::Cap>,
    record: GameRecord,
    /// The rule state of the game: positions, history, 9.6 events.
    arbiter: Arbiter,
    movetext_result: Option<GameResult>,
    /// Where the text of the game being read starts in memory, and where
    /// each side's last comment lies in it (white, black): clocks are read
    /// from those two comments only, once the game is done.
    text_base: usize,
    last_comments: [Option<(usize, usize)>; 2],
    /// The last comment since the last move, when short enough to be a
    /// wording of how the game ended; empty when there is none (a buffer
    /// reused from game to game).
    closing: Vec<u8>,
    /// What the comment just before the result token says, read there.
    closing_comment: Option<Wording>,
}

impl Default for GameReplayer {
    fn default() -> Self {
        GameReplayer::new()
    }
}

/// Text without tags that is not PGN either: skipped, and reported.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct NotPgn {
    pub at: crate::input::Place,
    pub excerpt: String,
}

impl GameReplayer {
    pub fn new() -> GameReplayer {
        GameReplayer::with_limits(Limits::default())
    }

    pub fn with_limits(limits: Limits) -> GameReplayer {
        GameReplayer::with_options(limits, SearchOptions::default())
    }

    pub fn with_options(limits: Limits, search: SearchOptions) -> GameReplayer {
        GameReplayer {
            limits,
            resolver: SanResolver::default(),
            text_base: 0,
            last_comments: [None, None],
            closing: Vec::with_capacity(MAX_WORDING_BYTES),
            closing_comment: None,
            cut: None,
            record: GameRecord::new(),
            arbiter: Arbiter::new(search),
            movetext_result: None,
        }
    }

    /// Which code turns the moves' SAN into moves.
    pub fn with_resolver(mut self, resolver: SanResolver) -> GameReplayer {
        self.resolver = resolver;
        self
    }

    /// Replays every game of a text held in memory: frames it as the
    /// reader does a stream, then replays each game. Text that is not PGN
    /// is left out.
    ///
    /// ```
    /// use remis_core::replay::GameReplayer;
    /// use remis_core::rules::{DrawType, Ending};
    ///
    /// let pgn = b"[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
    ///     1. f3 e5 2. g4 Qh4# 0-1\n\n\
    ///     [Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n";
    /// let games = GameReplayer::new().replay_all(pgn);
    /// assert_eq!(games.len(), 2);
    /// assert_eq!(games[0].ending, Ending::Checkmate);
    /// assert_eq!(games[0].plies, 4);
    /// // A draw with no rule in the moves and nothing else recorded.
    /// assert_eq!(DrawType::of(games[1].ending), DrawType::Agreed);
    /// ```
    pub fn replay_all(&mut self, pgn: &[u8]) -> Vec<GameRecord> {
        let mut framer = crate::input::Framer::new(self.limits);
        let mut text = Vec::with_capacity(pgn.len());
        std::io::Read::read_to_end(&mut crate::input::NormalizedText::new(pgn), &mut text)
            .expect("reading from memory cannot fail");
        framer.feed(&text);
        framer.finish();
        let (data, spans) = framer.take();
        let mut records = Vec::with_capacity(spans.len());
        self.replay_spans(&data, &spans, None, &mut records);
        records
    }

    /// Replays the games of a chunk, in order, into `records`; returns the
    /// stretches of text that were not PGN.
    pub fn replay_chunk(&mut self, chunk: &Chunk, records: &mut Vec<GameRecord>) -> Vec<NotPgn> {
        self.replay_spans(&chunk.data, &chunk.games, chunk.tags.as_ref(), records)
    }

    /// Replays the `game`-th game of a chunk alone; `None` when its text
    /// is not PGN. [`GameReplayer::played`] then holds its moves.
    pub fn replay_one(&mut self, chunk: &Chunk, game: usize) -> Option<GameRecord> {
        let mut records = Vec::with_capacity(1);
        self.replay_spans_from(
            &chunk.data,
            &chunk.games[game..=game],
            game,
            chunk.tags.as_ref(),
            &mut records,
        );
        records.pop()
    }

    /// The last game replayed: its start position and the moves played
    /// (up to the first illegal one).
    pub fn played(&self) -> (&Chess, &[shakmaty::Move]) {
        self.arbiter.played()
    }

    fn replay_spans(
        &mut self,
        data: &[u8],
        spans: &[GameSpan],
        tags: Option<&TagTable>,
        records: &mut Vec<GameRecord>,
    ) -> Vec<NotPgn> {
        self.replay_spans_from(data, spans, 0, tags, records)
    }

    /// As [`Self::replay_spans`], for spans that start at game `first` of
    /// their chunk (whose tags, for columnar input, are row `first + i`).
    fn replay_spans_from(
        &mut self,
        data: &[u8],
        spans: &[GameSpan],
        first: usize,
        tags: Option<&TagTable>,
        records: &mut Vec<GameRecord>,
    ) -> Vec<NotPgn> {
        let mut not_pgn = Vec::new();
        for (i, span) in spans.iter().enumerate() {
            let i = first + i;
            let text = &data[span.start..span.end];
            self.cut = span.cut;
            self.text_base = text.as_ptr() as usize;
            self.last_comments = [None, None];
            let limits = self.limits;
            let read = match tags {
                Some(table) => pgn::read_movetext(text, span.at, table.tags(i), &limits, self),
                None => pgn::read_game(text, span.at, span.headerless, &limits, self),
            };
            match read {
                pgn::Read::Game(mut record) => {
                    for (clock, comment) in record.clocks.iter_mut().zip(self.last_comments) {
                        *clock = comment.and_then(|(at, len)| clock_seconds(&text[at..at + len]));
                    }
                    records.push(record);
                }
                pgn::Read::Broken(error) => records.push(self.abandon(&error)),
                pgn::Read::NotPgn => not_pgn.push(NotPgn {
                    at: span.at,
                    excerpt: first_line_excerpt(text),
                }),
            }
        }
        not_pgn
    }

    /// Ends the game in progress when its text could not be read.
    fn abandon(&mut self, error: &SyntaxError) -> GameRecord {
        self.record.text.set_display(Field::Error, error);
        self.finish_invalid()
    }

    /// Hands out the game in progress and starts a fresh record.
    fn take_record(&mut self) -> GameRecord {
        std::mem::replace(&mut self.record, GameRecord::new())
    }

    fn finish_invalid(&mut self) -> GameRecord {
        let mut record = self.take_record();
        record.ending = Ending::Invalid;
        record
    }

    fn fail(&mut self, error: std::fmt::Arguments<'_>) -> GameRecord {
        self.record.text.set_display(Field::Error, error);
        self.finish_invalid()
    }

    fn set_up(&mut self) -> Result<(), String> {
        let mode = match self.record.variant {
            Variant::Chess960 => CastlingMode::Chess960,
            _ => CastlingMode::Standard,
        };
        let start = match self.record.text.get(Field::StartFen) {
            None => Chess::default(),
            Some(fen) => {
                let fen = Fen::from_ascii(fen.trim().as_bytes())
                    .map_err(|e| format!("invalid FEN \"{fen}\": {e}"))?;
                // A standard game may still carry Shredder- or X-FEN castling.
                // Custom start positions may hold more material than a
                // game could reach (lichess "From Position"): still legal.
                let set_up = |mode| match fen.clone().into_position::<Chess>(mode) {
                    Ok(pos) => Ok(pos),
                    Err(e) => e.ignore_too_much_material().map_err(|e| e.to_string()),
                };
                match set_up(mode) {
                    Ok(pos) => pos,
                    Err(e) => match set_up(CastlingMode::Chess960) {
                        Ok(pos) if mode == CastlingMode::Standard => pos,
                        _ => return Err(format!("impossible FEN position: {e}")),
                    },
                }
            }
        };
        if self.record.text.get(Field::StartFen).is_some() {
            let hash = rules::position_hash(&start);
            self.record.movetext_hash = fnv::mix(self.record.movetext_hash, hash);
        }
        self.arbiter.start(start);
        Ok(())
    }

    fn finish(&mut self) -> GameRecord {
        let mut record = self.take_record();
        if record.result.is_none() {
            record.result = self.movetext_result;
        }
        let Wording {
            mut termination,
            mut flagged,
        } = Wording::of_tag(
            record.text.get(Field::Termination),
            record.text.get(Field::White),
            record.text.get(Field::Black),
        );
        // A movetext without a result token may still end in the comment.
        if self.movetext_result.is_none() {
            self.closing_comment = closing_wording(&mut self.closing, &record.text);
        }
        if let Some(said) = self.closing_comment.take() {
            // The tag, when it gives a reason, is believed first; the
            // comment may still say whose flag fell.
            if matches!(termination, Termination::Normal | Termination::Unterminated) {
                termination = said.termination;
                flagged = said.flagged;
            } else if termination.is_flag_fall() && said.termination.is_flag_fall() {
                flagged = flagged.or(said.flagged);
            }
        }
        let result = record.result.unwrap_or(GameResult::Unknown);
        let ruling = self.arbiter.rule(result, termination, flagged);
        record.ending = ruling.verdict.ending;
        record.mismatch = ruling.verdict.mismatch;
        record.law_result = ruling.verdict.law_result;
        record.first_event = ruling.first_event;
        record.dead = ruling.dead;
        record.flag_opponent = ruling.flag_opponent;
        record.board = Some(ruling.board);
        let fen = Fen::from_position(self.arbiter.position(), EnPassantMode::Legal);
        record
            .text
            .set_with(Field::FinalFen, |buf| fen.append_to_string(buf));
        record
    }
}

impl Visitor for GameReplayer {
    type Tags = ();
    type Movetext = ();
    type Output = GameRecord;

    fn begin_tags(&mut self) -> ControlFlow<GameRecord> {
        self.movetext_result = None;
        self.closing.clear();
        self.closing_comment = None;
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<GameRecord> {
        match name {
            b"WhiteElo" => self.record.white_elo = parse_elo(value.as_bytes()),
            b"BlackElo" => self.record.black_elo = parse_elo(value.as_bytes()),
            b"Result" => self.record.result = GameResult::parse(value.as_bytes()),
            _ => {
                if let Some(field) = Field::from_tag(name) {
                    self.record.text.set_bytes(field, &value.decode());
                    if field == Field::Variant {
                        let tag = self.record.text.get(Field::Variant).unwrap_or_default();
                        self.record.variant = Variant::from_tag(tag);
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<GameRecord, ()> {
        if let Some(cap) = self.cut.take() {
            return ControlFlow::Break(self.fail(format_args!("{cap}")));
        }
        if self.record.variant == Variant::Unsupported {
            let mut record = self.take_record();
            record.ending = Ending::UnsupportedVariant;
            return ControlFlow::Break(record);
        }
        match self.set_up() {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(self.fail(format_args!("{e}"))),
        }
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<GameRecord> {
        let pos = self.arbiter.position();
        let m = match self.resolver {
            SanResolver::Remis => san::resolve(pos, san_plus.san),
            SanResolver::Shakmaty => san_plus.san.to_move(pos),
        };
        let m = match m {
            Ok(m) => m,
            Err(e) => {
                let number = pos.fullmoves();
                let dots = if pos.turn() == Color::White {
                    "."
                } else {
                    "..."
                };
                let why = match (san_plus.san, e) {
                    (San::Null, _) => "a null move cannot be replayed",
                    (_, SanError::AmbiguousSan) => "ambiguous, several legal moves match",
                    (_, SanError::IllegalSan) => "no legal move matches",
                };
                return ControlFlow::Break(
                    self.fail(format_args!("move {number}{dots} {san_plus}: {why}")),
                );
            }
        };
        if self.record.plies >= self.limits.max_plies {
            let limit = self.limits.max_plies;
            return ControlFlow::Break(
                self.fail(format_args!("game longer than {limit} plies (--max-plies)")),
            );
        }
        self.arbiter.play(m);
        self.closing.clear();
        let record = &mut self.record;
        record.plies += 1;
        record.movetext_hash = fnv::mix(record.movetext_hash, move_code(m));
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        _: &mut (),
        comment: pgn_reader::RawComment<'_>,
    ) -> ControlFlow<GameRecord> {
        // A comment after a move belongs to the side that made it.
        if self.record.plies > 0 {
            let side = usize::from(self.arbiter.position().turn() == Color::White);
            let at = (comment.0.as_ptr() as usize).wrapping_sub(self.text_base);
            self.last_comments[side] = Some((at, comment.0.len()));
        }
        // Kept only while no move follows; read at the result token.
        let body = comment.0.trim_ascii();
        self.closing.clear();
        if body.len() <= MAX_WORDING_BYTES && body.first().is_some_and(u8::is_ascii_alphanumeric) {
            self.closing.extend_from_slice(body);
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _: &mut (), outcome: Outcome) -> ControlFlow<GameRecord> {
        self.movetext_result = Some(match outcome {
            Outcome::Known(KnownOutcome::Decisive { winner }) => GameResult::Win(winner),
            Outcome::Known(KnownOutcome::Draw) => GameResult::Draw,
            Outcome::Unknown => GameResult::Unknown,
        });
        self.closing_comment = closing_wording(&mut self.closing, &self.record.text);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) -> GameRecord {
        self.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_h_mm_ss_with_tenths() {
        assert_eq!(clock_seconds(b" [%clk 0:03:00] "), Some(180.0));
        assert_eq!(clock_seconds(b"[%eval 0.3] [%clk 1:00:05.5]"), Some(3605.5));
        assert_eq!(clock_seconds(b"good move"), None);
        // Not a time: negative, NaN or infinite parts (issue 19).
        for text in [
            &b"[%clk -1:00:00]"[..],
            b"[%clk 0:-1:00]",
            b"[%clk NaN]",
            b"[%clk inf]",
            b"[%clk 0:00:NaN]",
        ] {
            assert_eq!(
                clock_seconds(text),
                None,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        let pgn = b"[Event \"a\"]\n\n1. e4 { [%clk 0:01:00] } e5 { [%clk 0:00:59] } 2. Nf3 { [%clk 0:00:58] } { ! } 1/2-1/2\n";
        let games = GameReplayer::new().replay_all(pgn);
        // White's last comment has no clock; Black's is the one after e5.
        assert_eq!(games[0].clocks, [None, Some(59.0)]);
        let pgn = b"[Event \"a\"]\n\n1. e4 { [%clk 0:01:00] } e5 { [%clk 0:00:59] } 2. Nf3 { [%clk 0:00:58] } 1/2-1/2\n";
        assert_eq!(
            GameReplayer::new().replay_all(pgn)[0].clocks,
            [Some(58.0), Some(59.0)]
        );
    }

    #[test]
    fn only_the_comment_closing_the_movetext_is_read() {
        let endings = |pgn: &[u8]| -> Vec<Ending> {
            GameReplayer::new()
                .replay_all(pgn)
                .iter()
                .map(|g| g.ending)
                .collect()
        };
        let game = |movetext: &str| format!("[Result \"0-1\"]\n\n{movetext}\n\n");
        let pgn = [
            // The last comment before the result token decides.
            game("1. e4 e5 2. Nf3 {White forfeits on time} {Black resigns?} 0-1"),
            game("1. e4 e5 2. Nf3 {Black resigns?} {White forfeits on time} 0-1"),
            // A comment after the result token is not read.
            game("1. e4 e5 2. Nf3 0-1 {White forfeits on time}"),
            // Nor one a move follows.
            game("1. e4 {White forfeits on time} e5 2. Nf3 0-1"),
            // Without a result token, the comment ending the movetext is.
            game("1. e4 e5 2. Nf3 {White forfeits on time}"),
            // A game without moves.
            game("{White forfeits by disconnection} 0-1"),
            // Nothing carries over to the next game.
            game("1. e4 e5 2. Nf3 0-1"),
        ]
        .concat();
        use Ending::*;
        assert_eq!(
            endings(pgn.as_bytes()),
            [
                Resignation,
                TimeForfeit,
                Resignation,
                Resignation,
                TimeForfeit,
                Abandoned,
                Resignation
            ]
        );
    }

    #[test]
    fn elo_and_year() {
        assert_eq!(parse_elo(b"2650"), Some(2650));
        assert_eq!(parse_elo(b" 2650 "), Some(2650));
        assert_eq!(parse_elo(b"0"), None);
        assert_eq!(parse_elo(b"-"), None);
        assert_eq!(parse_elo(b"?"), None);
        assert_eq!(parse_elo(b"99999"), None);
        assert_eq!(parse_year("1999.??.??"), Some(1999));
        assert_eq!(parse_year("????.??.??"), None);
    }

    #[test]
    fn illegal_move_names_the_move_and_next_game_parses() {
        let pgn = b"[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Event \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let games = GameReplayer::new().replay_all(pgn);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].ending, Ending::Invalid);
        let err = games[0].error().unwrap();
        assert!(err.contains("2. Ke3"), "{err}");
        assert_eq!(games[0].text.get(Field::Event), Some("a"));
        assert_eq!(games[1].ending, Ending::Checkmate);
        assert_eq!(games[1].plies, 4);
    }
}
