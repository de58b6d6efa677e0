/// How a game ended. The names (see [`Ending::as_str`]) are the values of the
/// `ending` column.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Ending {
    Checkmate,
    Resignation,
    TimeForfeit,
    Stalemate,
    InsufficientMaterial,
    DeadPosition,
    FivefoldRepetition,
    SeventyFiveMoves,
    ThreefoldRepetition,
    FiftyMoves,
    TimeoutVsInsufficientMaterial,
    Agreed,
    Unfinished,
    Invalid,
    UnsupportedVariant,
    Abandoned,
    RulesInfraction,
    Adjudication,
}

impl Ending {
    pub const ALL: [Ending; 18] = [
        Ending::Checkmate,
        Ending::Resignation,
        Ending::TimeForfeit,
        Ending::Stalemate,
        Ending::InsufficientMaterial,
        Ending::DeadPosition,
        Ending::FivefoldRepetition,
        Ending::SeventyFiveMoves,
        Ending::ThreefoldRepetition,
        Ending::FiftyMoves,
        Ending::TimeoutVsInsufficientMaterial,
        Ending::Agreed,
        Ending::Unfinished,
        Ending::Invalid,
        Ending::UnsupportedVariant,
        Ending::Abandoned,
        Ending::RulesInfraction,
        Ending::Adjudication,
    ];

    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Resignation => "resignation",
            Ending::TimeForfeit => "time_forfeit",
            Ending::Stalemate => "stalemate",
            Ending::InsufficientMaterial => "insufficient_material",
            Ending::DeadPosition => "dead_position",
            Ending::FivefoldRepetition => "fivefold_repetition",
            Ending::SeventyFiveMoves => "seventy_five_moves",
            Ending::ThreefoldRepetition => "threefold_repetition",
            Ending::FiftyMoves => "fifty_moves",
            Ending::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            Ending::Agreed => "agreed",
            Ending::Unfinished => "unfinished",
            Ending::Invalid => "invalid",
            Ending::UnsupportedVariant => "unsupported_variant",
            Ending::Abandoned => "abandoned",
            Ending::RulesInfraction => "rules_infraction",
            Ending::Adjudication => "adjudication",
        }
    }

    pub fn from_name(name: &str) -> Option<Ending> {
        Ending::ALL.into_iter().find(|e| e.as_str() == name)
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rule that drew a game: the report's draw-type mix. A drawn game whose
/// ending is not one of these (an abandoned or adjudicated draw) has no
/// draw type of its own in the charts and is counted as `Other`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum DrawType {
    Agreed,
    ThreefoldRepetition,
    FivefoldRepetition,
    FiftyMoves,
    SeventyFiveMoves,
    Stalemate,
    InsufficientMaterial,
    DeadPosition,
    TimeoutVsInsufficientMaterial,
    Other,
}

impl DrawType {
    pub const ALL: [DrawType; 10] = [
        DrawType::Agreed,
        DrawType::ThreefoldRepetition,
        DrawType::FivefoldRepetition,
        DrawType::FiftyMoves,
        DrawType::SeventyFiveMoves,
        DrawType::Stalemate,
        DrawType::InsufficientMaterial,
        DrawType::DeadPosition,
        DrawType::TimeoutVsInsufficientMaterial,
        DrawType::Other,
    ];

    #[inline]
    pub fn of(ending: Ending) -> DrawType {
        match ending {
            Ending::Agreed => DrawType::Agreed,
            Ending::ThreefoldRepetition => DrawType::ThreefoldRepetition,
            Ending::FivefoldRepetition => DrawType::FivefoldRepetition,
            Ending::FiftyMoves => DrawType::FiftyMoves,
            Ending::SeventyFiveMoves => DrawType::SeventyFiveMoves,
            Ending::Stalemate => DrawType::Stalemate,
            Ending::InsufficientMaterial => DrawType::InsufficientMaterial,
            Ending::DeadPosition => DrawType::DeadPosition,
            Ending::TimeoutVsInsufficientMaterial => DrawType::TimeoutVsInsufficientMaterial,
            _ => DrawType::Other,
        }
    }

    /// The `draw_type` value as stored (equal to the ending's name), or
    /// "other" for draws without a rule of their own.
    #[inline]
    pub fn as_str(self) -> &'static str {
        match self {
            DrawType::Agreed => "agreed",
            DrawType::ThreefoldRepetition => "threefold_repetition",
            DrawType::FivefoldRepetition => "fivefold_repetition",
            DrawType::FiftyMoves => "fifty_moves",
            DrawType::SeventyFiveMoves => "seventy_five_moves",
            DrawType::Stalemate => "stalemate",
            DrawType::InsufficientMaterial => "insufficient_material",
            DrawType::DeadPosition => "dead_position",
            DrawType::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            DrawType::Other => "other",
        }
    }

    /// A label for charts and tables.
    pub fn label(self) -> &'static str {
        match self {
            DrawType::Agreed => "Agreed",
            DrawType::ThreefoldRepetition => "Threefold repetition",
            DrawType::FivefoldRepetition => "Fivefold repetition",
            DrawType::FiftyMoves => "50-move rule",
            DrawType::SeventyFiveMoves => "75-move rule",
            DrawType::Stalemate => "Stalemate",
            DrawType::InsufficientMaterial => "Insufficient material",
            DrawType::DeadPosition => "Dead position (by search)",
            DrawType::TimeoutVsInsufficientMaterial => "Timeout vs insufficient material",
            DrawType::Other => "Other (abandoned, adjudicated)",
        }
    }

    pub fn from_name(name: &str) -> Option<DrawType> {
        DrawType::ALL.into_iter().find(|d| d.as_str() == name)
    }
}
