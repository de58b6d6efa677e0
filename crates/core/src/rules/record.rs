//! What the game record says: the result tag and the Termination tag.

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
    /// Reads a Termination tag by its structure. chess.com writes
    /// "`<player>` won by resignation", "`<player>` won on time",
    /// "`<player>` won - game abandoned" and "Game drawn by `<reason>`": the
    /// reason is read
    /// only from the words after the player's name (matched against the
    /// White and Black tags), so a name such as "timeout_king" or
    /// "DrawByRepetition" is never taken for a reason. Other tags (lichess
    /// `Time forfeit`, cutechess `adjudication`, …) are read whole.
    pub fn parse(tag: Option<&str>, white: Option<&str>, black: Option<&str>) -> Termination {
        let Some(tag) = tag.map(str::trim) else {
            return Termination::Normal;
        };
        if let Some(reason) = strip_prefix_ignore_case(tag, "game drawn by ") {
            return Termination::drawn_by(&reason.to_ascii_lowercase());
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
            return Termination::won_by(&reason.trim().to_ascii_lowercase());
        }
        Termination::whole(&tag.to_ascii_lowercase())
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
        assert_eq!(Termination::parse2(None), Normal);
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
