//! What the game record says: the result tag, the Termination tag and the
//! sentence of the comment closing the movetext.

use shakmaty::Color;

use super::Ending;

/// The result as tagged (`1-0`, `0-1`, `1/2-1/2`, `*`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum GameResult {
    Win(Color),
    Draw,
    Unknown,
}

impl GameResult {
    /// Parses a Result tag value or movetext result token.
    pub fn parse(text: &[u8]) -> Option<GameResult> {
        match text.trim_ascii() {
            b"1-0" => Some(GameResult::Win(Color::White)),
            b"0-1" => Some(GameResult::Win(Color::Black)),
            b"1/2-1/2" | b"1/2" | b"\xc2\xbd-\xc2\xbd" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

/// A draw that a chess.com-style Termination tag names directly
/// ("Game drawn by repetition").
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum TerminationDraw {
    Repetition,
    FiftyMoves,
    Agreement,
    Stalemate,
    InsufficientMaterial,
}

impl TerminationDraw {
    /// The draw a lower-case Termination reason names, in the order both
    /// chess.com's "Game drawn by …" and whole-tag reasons are read.
    fn named_in(reason: &str) -> Option<TerminationDraw> {
        let has = |s: &str| reason.contains(s);
        if has("repetition") {
            Some(TerminationDraw::Repetition)
        } else if has("50-move") || has("50 move") || has("fifty") {
            Some(TerminationDraw::FiftyMoves)
        } else if has("agreement") {
            Some(TerminationDraw::Agreement)
        } else if has("stalemate") {
            Some(TerminationDraw::Stalemate)
        } else if has("insufficient material") {
            Some(TerminationDraw::InsufficientMaterial)
        } else {
            None
        }
    }

    pub fn ending(self) -> Ending {
        match self {
            TerminationDraw::Repetition => Ending::ThreefoldRepetition,
            TerminationDraw::FiftyMoves => Ending::FiftyMoves,
            TerminationDraw::Agreement => Ending::Agreed,
            TerminationDraw::Stalemate => Ending::Stalemate,
            TerminationDraw::InsufficientMaterial => Ending::InsufficientMaterial,
        }
    }
}

/// The Termination tag, as far as it changes the classification. Lichess
/// writes `Normal`, `Time forfeit`, `Abandoned`, `Rules infraction`,
/// `Unterminated`; chess.com writes sentences such as "X won on time" or
/// "Game drawn by timeout vs insufficient material"; engine tournaments
/// write "adjudication".
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Termination {
    Normal,
    TimeForfeit,
    TimeoutVsInsufficientMaterial,
    Abandoned,
    RulesInfraction,
    Adjudication,
    Unterminated,
    DrawnBy(TerminationDraw),
}

impl Termination {
    /// A flag fall (6.9), whether or not the record calls it a draw.
    #[inline]
    pub fn is_flag_fall(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial
        )
    }

    /// Reads a Termination tag by its structure. chess.com writes
    /// "`<player>` won by resignation", "`<player>` won on time",
    /// "`<player>` won - game abandoned" and "Game drawn by `<reason>`": the
    /// reason is read
    /// only from the words after the player's name (matched against the
    /// White and Black tags), so a name such as "timeout_king" or
    /// "DrawByRepetition" is never taken for a reason. Other tags (lichess
    /// `Time forfeit`, cutechess `adjudication`, …) are read whole.
    pub fn parse(tag: Option<&str>, white: Option<&str>, black: Option<&str>) -> Termination {
        Wording::of_tag(tag, white, black).termination
    }

    /// As [`Termination::parse`], with the side whose flag fell when the
    /// tag names it ("Black ran out of time and White has no material to
    /// mate").
    fn parse_tag(tag: Option<&str>, white: Option<&str>, black: Option<&str>) -> Wording {
        let plain = |termination| Wording {
            termination,
            flagged: None,
        };
        let Some(tag) = tag.map(str::trim) else {
            return plain(Termination::Normal);
        };
        if let Some(reason) = strip_prefix_ignore_case(tag, "game drawn by ") {
            return plain(Termination::drawn_by(&reason.to_ascii_lowercase()));
        }
        let player_won = [white, black]
            .into_iter()
            .flatten()
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .find_map(|name| {
                tag.strip_prefix(name)
                    .and_then(|rest| strip_prefix_ignore_case(rest, " won"))
            })
            // Without matching player tags, the last " won " is the verb.
            .or_else(|| {
                let lower = tag.to_ascii_lowercase();
                lower.rfind(" won ").map(|i| &tag[i + " won".len()..])
            });
        if let Some(reason) = player_won {
            return plain(Termination::won_by(&reason.trim().to_ascii_lowercase()));
        }
        // A server's sentence ("White forfeits on time", "Black ran out of
        // time and …"), else the reason words alone.
        Wording::read(tag.as_bytes(), white, black)
            .unwrap_or_else(|| plain(Termination::whole(&tag.to_ascii_lowercase())))
    }

    /// The reason of a chess.com "Game drawn by …" tag.
    fn drawn_by(reason: &str) -> Termination {
        let has = |s: &str| reason.contains(s);
        if has("insufficient material") && (has("timeout") || has("time")) {
            Termination::TimeoutVsInsufficientMaterial
        } else if let Some(draw) = TerminationDraw::named_in(reason) {
            Termination::DrawnBy(draw)
        } else if has("timeout") || has("time") {
            Termination::TimeForfeit
        } else if has("abandon") {
            Termination::Abandoned
        } else if has("adjudicat") {
            // FICS "Game drawn by adjudication".
            Termination::Adjudication
        } else {
            Termination::Normal
        }
    }

    /// The reason of a chess.com "<player> won …" tag.
    fn won_by(reason: &str) -> Termination {
        if reason.starts_with("on time") || reason.contains("timeout") {
            Termination::TimeForfeit
        } else if reason.contains("abandon") {
            Termination::Abandoned
        } else if reason.contains("adjudicat") {
            Termination::Adjudication
        } else {
            // "by resignation", "by checkmate", anything else.
            Termination::Normal
        }
    }

    /// A tag that is only a reason: lichess, cutechess, PGN standard words.
    fn whole(t: &str) -> Termination {
        let has = |s: &str| t.contains(s);
        if has("vs insufficient material") || has("versus insufficient material") {
            Termination::TimeoutVsInsufficientMaterial
        } else if let Some(draw) = TerminationDraw::named_in(t) {
            Termination::DrawnBy(draw)
        } else if has("time forfeit") || has("timeout") || has("on time") || t == "time" {
            Termination::TimeForfeit
        } else if has("abandon") {
            Termination::Abandoned
        } else if has("rules infraction") {
            Termination::RulesInfraction
        } else if has("adjudicat") {
            Termination::Adjudication
        } else if has("unterminated") {
            Termination::Unterminated
        } else {
            Termination::Normal
        }
    }
}

/// The longest closing comment read as a wording, in bytes once trimmed.
/// Server wordings are short ("Black ran out of time and White has no
/// material to mate" is the longest, 55); a longer comment is prose.
pub const MAX_WORDING_BYTES: usize = 120;

/// A server's sentence saying how the game ended, in the `Termination`
/// tag or in the comment closing the movetext. Servers that write no
/// `Termination` tag write the reason in that comment instead: FICS and ICC
/// `{White forfeits on time} 0-1`, lichess's annotated export
/// `{ Black wins on time. } 0-1`, ChessBase and Playchess `{Lost on time}`.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Wording {
    pub termination: Termination,
    /// The side whose flag fell, when the wording names it ("Black ran out
    /// of time …", "White wins on time").
    pub flagged: Option<Color>,
}

/// Words that make a comment a flag fall (lower case).
const TIME_PHRASES: [&str; 15] = [
    "on time",
    "out of time",
    "by time",
    "time forfeit",
    "timeout",
    "time out",
    "timed out",
    "flag fell",
    "flag has fallen",
    "flagged",
    "time expired",
    "exceeded the time",
    "overstepped the time",
    "time limit",
    "zeitüberschreitung",
];

/// How a subjectless wording may begin (lower case): anything else, such
/// as an annotator's remark, is not read.
const WORDING_HEADS: [&str; 36] = [
    "game ",
    "draw",
    "drawn",
    "time",
    "lost",
    "loss",
    "lose",
    "flag",
    "neither",
    "both",
    "stalemate",
    "checkmate",
    "mate",
    "resign",
    "abandon",
    "forfeit",
    "adjudicat",
    "cheat",
    "the game",
    "on time",
    "out of time",
    "zeit",
    "illegal",
    "insufficient",
    "repetition",
    "threefold",
    "fifty",
    "50",
    "agreed",
    "agreement",
    "mutual",
    "disconnect",
    "won ",
    "wins ",
    "rules infraction",
    "player ",
];

impl Wording {
    /// Reads a `Termination` tag ([`Termination::parse`]), keeping the side
    /// whose flag fell when the tag names it.
    pub fn of_tag(tag: Option<&str>, white: Option<&str>, black: Option<&str>) -> Wording {
        Termination::parse_tag(tag, white, black)
    }

    /// Reads a sentence (the comment that closes the movetext, the last one
    /// before the result token, or a `Termination` tag), `None` when it is
    /// no wording of how the game ended.
    /// The subject may be "White", "Black" or a player's name (the `White`
    /// and `Black` tags), so that "Black wins on time" and "Hikaru won on
    /// time" both say whose flag fell, and a name such as "timeout_king" is
    /// never taken for a reason. Case, a final full stop and surrounding
    /// spaces do not matter. No allocation: the comment is lowered into a
    /// buffer on the stack.
    pub fn read(comment: &[u8], white: Option<&str>, black: Option<&str>) -> Option<Self> {
        let text = comment.trim_ascii();
        if text.is_empty() || text.len() > MAX_WORDING_BYTES || !text[0].is_ascii_alphanumeric() {
            return None;
        }
        let mut buf = [0u8; MAX_WORDING_BYTES];
        let lower = &mut buf[..text.len()];
        lower.copy_from_slice(text);
        lower.make_ascii_lowercase();
        let lower = std::str::from_utf8(lower).ok()?;
        let lower = lower.trim_end_matches(['.', '!', ' ']);
        let lower = lower.strip_prefix("unregistered player ").unwrap_or(lower);
        let (side, predicate) = match subject(lower, white, black) {
            Some((side, rest)) => (Some(side), rest),
            None if WORDING_HEADS.iter().any(|h| lower.starts_with(h)) => (None, lower),
            None => return None,
        };
        let termination = reason(predicate)?;
        // "White wins on time": the subject is the winner, the other flagged.
        let won = [
            "wins",
            "won",
            "win ",
            "is the winner",
            "declared the winner",
        ]
        .iter()
        .any(|w| predicate.starts_with(w));
        let flagged = match termination {
            Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial => {
                side.map(|s| if won { !s } else { s })
            }
            _ => None,
        };
        Some(Wording {
            termination,
            flagged,
        })
    }
}

/// The side a wording starts with, and the words after it: "white",
/// "black" (also "white's"), or the name in the `White` or `Black` tag.
fn subject<'a>(
    lower: &'a str,
    white: Option<&str>,
    black: Option<&str>,
) -> Option<(Color, &'a str)> {
    let after = |name: &str| -> Option<&'a str> {
        let name = name.trim();
        if name.is_empty() {
            return None;
        }
        let head = lower.get(..name.len())?;
        if !head.eq_ignore_ascii_case(name) {
            return None;
        }
        let rest = &lower[name.len()..];
        rest.strip_prefix("'s ")
            .or_else(|| rest.strip_prefix("\u{2019}s "))
            .or_else(|| rest.strip_prefix(' '))
            .map(str::trim_start)
    };
    // Player names first: a player called "White Knight" is a name.
    [(Color::White, white), (Color::Black, black)]
        .into_iter()
        .filter_map(|(side, name)| Some((side, name?)))
        .find_map(|(side, name)| after(name).map(|rest| (side, rest)))
        .or_else(|| {
            [(Color::White, "white"), (Color::Black, "black")]
                .into_iter()
                .find_map(|(side, word)| after(word).map(|rest| (side, rest)))
        })
}

/// The reason a lower-case wording (without its subject) gives, in this
/// order: a flag fall against insufficient material, a flag fall, a
/// default (disconnection, abandonment, forfeit without a clock), an
/// adjudication, a rules infraction, a named draw; resignation, mate and
/// bare "wins"/"draw" are recognised as `Normal`.
fn reason(p: &str) -> Option<Termination> {
    let has = |s: &str| p.contains(s);
    let time = TIME_PHRASES.iter().any(|t| has(t)) || p == "time" || p == "zeit";
    let no_mating_material = has("no material to mate")
        || has("insufficient material")
        || has("no mating material")
        || has("not enough material")
        || has("cannot mate")
        || has("can't mate")
        || has("cannot checkmate");
    Some(
        if has("both players ran out of time") || has("both flags") {
            // Guidelines III.3.1: both flags fell, neither first. No side is
            // asked under 6.9; the draw has no ending of its own here.
            Termination::Normal
        } else if time && no_mating_material {
            Termination::TimeoutVsInsufficientMaterial
        } else if time {
            Termination::TimeForfeit
        } else if has("disconnect")
            || has("abandon")
            || has("left the game")
            || has("forfeit")
            || has("by default")
            || has("no show")
            || has("did not show")
            || has("wasn't ready")
        {
            Termination::Abandoned
        } else if has("adjudicat") {
            Termination::Adjudication
        } else if has("cheat") || has("illegal move") || has("rules infraction") || has("fair play")
        {
            Termination::RulesInfraction
        } else if let Some(draw) = TerminationDraw::named_in(p) {
            Termination::DrawnBy(draw)
        } else if has("mating material") {
            // "Neither player has mating material".
            Termination::DrawnBy(TerminationDraw::InsufficientMaterial)
        } else if has("agreed") || has("draw accepted") || has("mutual") {
            Termination::DrawnBy(TerminationDraw::Agreement)
        } else if has("resign")
            || has("mate")
            || has("wins")
            || has("won")
            || has("draw")
            || p == "win"
        {
            Termination::Normal
        } else {
            return None;
        },
    )
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_names_are_never_read_as_reasons() {
        use Termination::*;
        let parse = |tag, white, black| Termination::parse(Some(tag), Some(white), Some(black));
        assert_eq!(
            parse(
                "timeout_king won by resignation",
                "timeout_king",
                "DrawByRepetition"
            ),
            Normal
        );
        assert_eq!(
            parse(
                "DrawByRepetition won on time",
                "timeout_king",
                "DrawByRepetition"
            ),
            TimeForfeit
        );
        assert_eq!(
            parse("OnTime won - game abandoned", "OnTime", "x"),
            Abandoned
        );
        assert_eq!(
            parse("Game drawn by agreement", "timeout_king", "time"),
            DrawnBy(TerminationDraw::Agreement)
        );
        // Without player tags, the last " won " is the verb.
        assert_eq!(
            Termination::parse(Some("I won on time won by checkmate"), None, None),
            Normal
        );
    }

    impl Termination {
        fn parse2(tag: Option<&str>) -> Termination {
            Termination::parse(tag, None, None)
        }
    }

    #[test]
    fn termination_wordings() {
        use Termination::*;
        assert_eq!(Termination::parse2(Some("Time forfeit")), TimeForfeit);
        assert_eq!(
            Termination::parse2(Some("Carlsen won on time")),
            TimeForfeit
        );
        assert_eq!(
            Termination::parse2(Some("Game drawn by timeout vs insufficient material")),
            TimeoutVsInsufficientMaterial
        );
        assert_eq!(
            Termination::parse2(Some("Game drawn by repetition")),
            DrawnBy(TerminationDraw::Repetition)
        );
        assert_eq!(
            Termination::parse2(Some("Game drawn by 50-move rule")),
            DrawnBy(TerminationDraw::FiftyMoves)
        );
        assert_eq!(Termination::parse2(Some("Abandoned")), Abandoned);
        assert_eq!(
            Termination::parse2(Some("Rules infraction")),
            RulesInfraction
        );
        assert_eq!(
            Termination::parse2(Some("White wins by adjudication")),
            Adjudication
        );
        assert_eq!(Termination::parse2(Some("Normal")), Normal);
        // FICS and ICC sentences in the tag read as in a closing comment.
        assert_eq!(
            Termination::parse2(Some("White forfeits on time")),
            TimeForfeit
        );
        assert_eq!(Termination::parse2(Some("Black's flag fell")), TimeForfeit);
        assert_eq!(
            Termination::parse2(Some("Game drawn by adjudication")),
            Adjudication
        );
        assert_eq!(
            Termination::parse2(Some("White forfeits by disconnection")),
            Abandoned
        );
        assert_eq!(
            Termination::parse2(Some("Neither player has mating material")),
            DrawnBy(TerminationDraw::InsufficientMaterial)
        );
        assert_eq!(
            Termination::parse2(Some("Draw by time and insufficient material")),
            TimeoutVsInsufficientMaterial
        );
        assert_eq!(
            Termination::parse2(Some("Game drawn because both players ran out of time")),
            Normal
        );
        assert_eq!(
            Wording::of_tag(
                Some("Black ran out of time and White has no material to mate"),
                None,
                None
            ),
            Wording {
                termination: TimeoutVsInsufficientMaterial,
                flagged: Some(Color::Black)
            }
        );
        // The lichess and cutechess reason words are unchanged.
        for (tag, expected) in [
            ("Time forfeit", TimeForfeit),
            ("time forfeit", TimeForfeit),
            ("Abandoned", Abandoned),
            ("Rules infraction", RulesInfraction),
            ("Unterminated", Unterminated),
            ("adjudication", Adjudication),
            ("death", Normal),
            ("emergency", Normal),
            ("Time", TimeForfeit),
        ] {
            assert_eq!(Termination::parse2(Some(tag)), expected, "{tag}");
        }
        assert_eq!(Termination::parse2(None), Normal);
    }

    /// A wording's reason and flagged side, as the tests spell them.
    type Said = Option<(Termination, Option<Color>)>;

    fn said(comment: &str) -> Said {
        Wording::read(comment.as_bytes(), Some("Hikaru"), Some("timeout_king"))
            .map(|c| (c.termination, c.flagged))
    }

    #[test]
    fn closing_comments_of_the_servers() {
        use Color::{Black, White};
        use Termination::*;
        use TerminationDraw as D;
        let cases: &[(&str, Said)] = &[
            // FICS (games database) and ICC.
            ("White forfeits on time", Some((TimeForfeit, Some(White)))),
            ("Black forfeits on time.", Some((TimeForfeit, Some(Black)))),
            (
                "Black ran out of time and White has no material to mate",
                Some((TimeoutVsInsufficientMaterial, Some(Black))),
            ),
            (
                "White ran out of time and Black has no material to mate",
                Some((TimeoutVsInsufficientMaterial, Some(White))),
            ),
            (
                "Game drawn because both players ran out of time",
                Some((Normal, None)),
            ),
            ("White forfeits by disconnection", Some((Abandoned, None))),
            ("Black disconnected and forfeits", Some((Abandoned, None))),
            (
                "Black got disconnected and forfeits",
                Some((Abandoned, None)),
            ),
            (
                "Unregistered player White disconnected and forfeits",
                Some((Abandoned, None)),
            ),
            ("White resigns", Some((Normal, None))),
            ("Black checkmated", Some((Normal, None))),
            ("Black stalemated", Some((DrawnBy(D::Stalemate), None))),
            (
                "Game drawn by mutual agreement",
                Some((DrawnBy(D::Agreement), None)),
            ),
            (
                "Game drawn by repetition",
                Some((DrawnBy(D::Repetition), None)),
            ),
            (
                "Game drawn by the 50 move rule",
                Some((DrawnBy(D::FiftyMoves), None)),
            ),
            (
                "Game drawn by stalemate",
                Some((DrawnBy(D::Stalemate), None)),
            ),
            (
                "Neither player has mating material",
                Some((DrawnBy(D::InsufficientMaterial), None)),
            ),
            (
                "Game drawn because neither player has mating material",
                Some((DrawnBy(D::InsufficientMaterial), None)),
            ),
            ("White wins by adjudication", Some((Adjudication, None))),
            ("Game drawn by adjudication", Some((Adjudication, None))),
            (
                "White declared the winner by adjudication",
                Some((Adjudication, None)),
            ),
            ("White's flag fell", Some((TimeForfeit, Some(White)))),
            // lichess (annotated export).
            ("Black wins on time.", Some((TimeForfeit, Some(White)))),
            ("White wins on time.", Some((TimeForfeit, Some(Black)))),
            (
                "Draw by time and insufficient material.",
                Some((TimeoutVsInsufficientMaterial, None)),
            ),
            ("White left the game.", Some((Abandoned, None))),
            ("Black wins by forfeit.", Some((Abandoned, None))),
            ("Cheat detected.", Some((RulesInfraction, None))),
            ("Black resigns.", Some((Normal, None))),
            ("White wins by checkmate.", Some((Normal, None))),
            ("Draw by stalemate.", Some((DrawnBy(D::Stalemate), None))),
            ("The game is a draw.", Some((Normal, None))),
            // chess.com sentences, with player names as subjects.
            ("Hikaru won on time", Some((TimeForfeit, Some(Black)))),
            ("timeout_king won by resignation", Some((Normal, None))),
            ("Hikaru won - game abandoned", Some((Abandoned, None))),
            (
                "Game drawn by timeout vs insufficient material",
                Some((TimeoutVsInsufficientMaterial, None)),
            ),
            // Playchess / ChessBase / MyChess.
            ("Time", Some((TimeForfeit, None))),
            ("time", Some((TimeForfeit, None))),
            ("Lost on time", Some((TimeForfeit, None))),
            ("White lost on time", Some((TimeForfeit, Some(White)))),
            ("Black loses on time", Some((TimeForfeit, Some(Black)))),
            ("Black wins on time", Some((TimeForfeit, Some(White)))),
            (
                "White exceeded the time limit",
                Some((TimeForfeit, Some(White))),
            ),
            ("Time forfeit", Some((TimeForfeit, None))),
            ("resigned", Some((Normal, None))),
            ("draw accepted", Some((DrawnBy(D::Agreement), None))),
            // Not wordings: annotators' remarks, clocks, evaluations.
            ("Time trouble", None),
            ("White was in time trouble", None),
            ("A good time to resign", None),
            ("[%clk 0:00:00]", None),
            ("+0.35/20 1.2s", None),
            ("Kasparov's idea; he won on time", None),
            ("", None),
        ];
        for (comment, expected) in cases {
            assert_eq!(said(comment), *expected, "{comment:?}");
        }
        // A comment longer than any wording is prose, never read.
        let long = format!("White forfeits on time {}", "and so on ".repeat(20));
        assert_eq!(said(&long), None);
        // Surrounding spaces and case do not matter.
        assert_eq!(
            said("  BLACK FORFEITS ON TIME  "),
            Some((TimeForfeit, Some(Black)))
        );
    }

    #[test]
    fn results() {
        assert_eq!(
            GameResult::parse(b"1-0"),
            Some(GameResult::Win(Color::White))
        );
        assert_eq!(GameResult::parse(b" 1/2-1/2 "), Some(GameResult::Draw));
        assert_eq!(GameResult::parse(b"*"), Some(GameResult::Unknown));
        assert_eq!(GameResult::parse(b"?"), None);
    }
}
