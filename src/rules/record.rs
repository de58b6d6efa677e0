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
    pub fn parse(tag: Option<&str>) -> Termination {
        let Some(tag) = tag else {
            return Termination::Normal;
        };
        let t = tag.to_ascii_lowercase();
        let has = |s: &str| t.contains(s);
        if has("vs insufficient material") || has("versus insufficient material") {
            Termination::TimeoutVsInsufficientMaterial
        } else if has("drawn by repetition") || has("by repetition") {
            Termination::DrawnBy(TerminationDraw::Repetition)
        } else if has("50-move") || has("50 move") || has("fifty") {
            Termination::DrawnBy(TerminationDraw::FiftyMoves)
        } else if has("by agreement") || has("mutual agreement") {
            Termination::DrawnBy(TerminationDraw::Agreement)
        } else if has("drawn by stalemate") {
            Termination::DrawnBy(TerminationDraw::Stalemate)
        } else if has("drawn by insufficient material") {
            Termination::DrawnBy(TerminationDraw::InsufficientMaterial)
        } else if has("time forfeit") || has("on time") || has("timeout") || t == "time" {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termination_wordings() {
        use Termination::*;
        assert_eq!(Termination::parse(Some("Time forfeit")), TimeForfeit);
        assert_eq!(Termination::parse(Some("Carlsen won on time")), TimeForfeit);
        assert_eq!(
            Termination::parse(Some("Game drawn by timeout vs insufficient material")),
            TimeoutVsInsufficientMaterial
        );
        assert_eq!(
            Termination::parse(Some("Game drawn by repetition")),
            DrawnBy(TerminationDraw::Repetition)
        );
        assert_eq!(
            Termination::parse(Some("Game drawn by 50-move rule")),
            DrawnBy(TerminationDraw::FiftyMoves)
        );
        assert_eq!(Termination::parse(Some("Abandoned")), Abandoned);
        assert_eq!(
            Termination::parse(Some("Rules infraction")),
            RulesInfraction
        );
        assert_eq!(
            Termination::parse(Some("White wins by adjudication")),
            Adjudication
        );
        assert_eq!(Termination::parse(Some("Normal")), Normal);
        assert_eq!(Termination::parse(None), Normal);
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
