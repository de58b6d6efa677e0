//! Which rating system a game's `WhiteElo` and `BlackElo` are on, decided
//! at classify time from the evidence in its tags and written to the table
//! with that evidence (columns `ratings`, `ratings_by`).
//!
//! A platform's own export (lichess, chess.com) carries the platform's
//! ratings, and says so by tags only an export writes: `UTCDate`, or a
//! `Site` that is the game's address. A database compiler who records an
//! online game (TWIC, pgnmentor: `Site "chess.com INT"`, no `UTCDate`)
//! enters the players' FIDE ratings, as for any other game: in the
//! pgnmentor collection the ratings of Titled Tuesday games equal the same
//! players' over-the-board ratings of the year (median difference 0). So
//! the `Site` alone does not make a rating Glicko.
//!
//! A rating is *plausible* for its system and year when the system existed
//! then and the rating lies in the system's range ([`plausible`]); the
//! report leaves the others out of its bands and counts them.

use remis_core::replay::Platform;

use crate::format::SiteSays;

/// A rating system.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Ratings {
    /// FIDE (or national) Elo.
    Elo,
    /// lichess.org's Glicko-2.
    Lichess,
    /// chess.com's Glicko.
    ChessCom,
    /// Another platform's own scale (chess24, playchess, ICC, FICS, ...).
    OtherPlatform,
}

impl Ratings {
    pub const ALL: [Ratings; 4] = [
        Ratings::Elo,
        Ratings::Lichess,
        Ratings::ChessCom,
        Ratings::OtherPlatform,
    ];

    /// The `ratings` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Ratings::Elo => "elo",
            Ratings::Lichess => "lichess",
            Ratings::ChessCom => "chess.com",
            Ratings::OtherPlatform => "other platform",
        }
    }

    pub fn from_name(name: &str) -> Option<Ratings> {
        Ratings::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// The first year the system rated anyone: FIDE adopted Elo's system
    /// in 1970 (its first list is of 1971); national Elo lists (USCF's
    /// from 1960) are older, so Elo counts from 1960. Ratings recorded for
    /// older games are later estimates, on no list.
    pub const fn first_year(self) -> i16 {
        match self {
            Ratings::Elo => 1960,
            Ratings::Lichess => 2010,
            Ratings::ChessCom => 2007,
            Ratings::OtherPlatform => 1992,
        }
    }

    /// The range a rating of the system can take: Elo's highest ever is
    /// 2882 (FIDE, 2014); the platforms' floors are 400 (lichess) and 100
    /// (chess.com), and no one has reached 3500 on either.
    pub const fn range(self) -> (u16, u16) {
        match self {
            Ratings::Elo => (100, 2900),
            Ratings::Lichess => (400, 3500),
            Ratings::ChessCom | Ratings::OtherPlatform => (100, 3500),
        }
    }
}

/// What decided a game's rating system.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum RatingsEvidence {
    /// The `Site` names a platform and the record is the platform's own
    /// export (`UTCDate`, or the game's address).
    PlatformExport,
    /// The `Site` names a platform, but the record is a compiler's (no
    /// export tags): the compiler's ratings are FIDE's.
    CompiledRecord,
    /// No platform named: over the board, or nothing said.
    NoPlatform,
}

impl RatingsEvidence {
    /// The `ratings_by` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            RatingsEvidence::PlatformExport => "platform export",
            RatingsEvidence::CompiledRecord => "compiled record",
            RatingsEvidence::NoPlatform => "no platform",
        }
    }
}

/// The rating system of a game with ratings: its `Site` and whether the
/// record carries a platform export's tags (see [`is_export`]).
///
/// ```
/// use remis_table::format::SiteSays;
/// use remis_table::ratings::{Ratings, Tags, decide, is_export};
///
/// // TWIC's record of a Titled Tuesday game: FIDE ratings.
/// let twic = Tags { site: Some("chess.com INT"), ..Tags::default() };
/// assert_eq!(decide(SiteSays::of(twic.site), is_export(&twic)).0, Ratings::Elo);
/// // lichess's own export: lichess ratings.
/// let lichess = Tags { site: Some("https://lichess.org/abcd1234"), ..Tags::default() };
/// assert_eq!(decide(SiteSays::of(lichess.site), is_export(&lichess)).0, Ratings::Lichess);
/// ```
pub fn decide(site: SiteSays, export: bool) -> (Ratings, RatingsEvidence) {
    match site.platform() {
        None => (Ratings::Elo, RatingsEvidence::NoPlatform),
        Some(_) if !export => (Ratings::Elo, RatingsEvidence::CompiledRecord),
        Some(Platform::Lichess) => (Ratings::Lichess, RatingsEvidence::PlatformExport),
        Some(Platform::ChessCom) => (Ratings::ChessCom, RatingsEvidence::PlatformExport),
        Some(_) => (Ratings::OtherPlatform, RatingsEvidence::PlatformExport),
    }
}

/// The tags that tell a platform's export from a compiler's record.
#[derive(Copy, Clone, Debug, Default)]
pub struct Tags<'a> {
    pub site: Option<&'a str>,
    pub utc_date: Option<&'a str>,
    pub time_control: Option<&'a str>,
    pub termination: Option<&'a str>,
}

/// Whether a record is a platform's own export: it has a `UTCDate` tag, a
/// `Site` that is an address (`https://lichess.org/abcd1234`), or the
/// `TimeControl` and `Termination` tags the platforms write and compilers
/// of master databases do not (none of pgnmentor's 61,515 records of online
/// games has either).
pub fn is_export(tags: &Tags) -> bool {
    // A date of question marks is no date.
    let said = |t: Option<&str>| t.is_some_and(|d| d.bytes().any(|b| b.is_ascii_alphanumeric()));
    tags.utc_date
        .is_some_and(|d| d.bytes().any(|b| b.is_ascii_digit()))
        || tags.site.is_some_and(|s| s.contains("://"))
        || said(tags.time_control) && said(tags.termination)
}

/// Whether a rating is plausible for its system in its year: the system
/// existed (a game without a year is given the benefit of the doubt) and
/// the rating lies in the system's range.
pub fn plausible(ratings: Ratings, rating: u16, year: Option<i16>) -> bool {
    let (lo, hi) = ratings.range();
    year.is_none_or(|y| y >= ratings.first_year()) && (lo..=hi).contains(&rating)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(s: &str) -> SiteSays {
        SiteSays::of(Some(s))
    }

    #[test]
    fn a_compilers_record_of_an_online_game_carries_elo() {
        // TWIC and pgnmentor: "Titled Tuesday", Site "chess.com INT".
        let tags = Tags {
            site: Some("chess.com INT"),
            ..Tags::default()
        };
        assert_eq!(
            decide(site("chess.com INT"), is_export(&tags)),
            (Ratings::Elo, RatingsEvidence::CompiledRecord)
        );
    }

    #[test]
    fn a_platforms_export_carries_the_platforms_ratings() {
        let lichess = "https://lichess.org/abcd1234";
        let url = Tags {
            site: Some(lichess),
            ..Tags::default()
        };
        assert_eq!(
            decide(site(lichess), is_export(&url)),
            (Ratings::Lichess, RatingsEvidence::PlatformExport)
        );
        let dated = Tags {
            site: Some("Chess.com"),
            utc_date: Some("2024.01.02"),
            ..Tags::default()
        };
        assert_eq!(
            decide(site("Chess.com"), is_export(&dated)),
            (Ratings::ChessCom, RatingsEvidence::PlatformExport)
        );
        assert_eq!(
            decide(site("chess24.com"), true),
            (Ratings::OtherPlatform, RatingsEvidence::PlatformExport)
        );
    }

    #[test]
    fn an_older_chess_com_export_without_utc_date_is_still_an_export() {
        // chess.com's exports of 2014-2015 (../shared/data/misc/chesscom-sample):
        // no UTCDate, but the platform's TimeControl and Termination.
        let tags = Tags {
            site: Some("Chess.com"),
            time_control: Some("900+10"),
            termination: Some("egor_tensin won by resignation"),
            ..Tags::default()
        };
        assert_eq!(
            decide(site("Chess.com"), is_export(&tags)),
            (Ratings::ChessCom, RatingsEvidence::PlatformExport)
        );
    }

    #[test]
    fn a_venue_or_no_site_is_elo() {
        assert_eq!(decide(site("Wijk aan Zee NED"), false).0, Ratings::Elo);
        assert_eq!(decide(SiteSays::of(None), true).0, Ratings::Elo);
        let undated = Tags {
            site: Some("Moscow"),
            utc_date: Some("????.??.??"),
            ..Tags::default()
        };
        assert!(!is_export(&undated));
        // A time control alone (a broadcast's) is no export.
        let timed = Tags {
            time_control: Some("40/7200:3600"),
            ..Tags::default()
        };
        assert!(!is_export(&timed));
    }

    #[test]
    fn plausibility_needs_the_system_to_exist_and_the_rating_in_range() {
        assert!(plausible(Ratings::Elo, 2785, Some(1990)));
        assert!(
            !plausible(Ratings::Elo, 2560, Some(1955)),
            "no Elo list yet"
        );
        assert!(
            !plausible(Ratings::Elo, 3100, Some(2020)),
            "above anyone's Elo"
        );
        assert!(!plausible(Ratings::Elo, 0, Some(2020)), "0 is no rating");
        assert!(plausible(Ratings::Elo, 2560, None));
        assert!(plausible(Ratings::Lichess, 3200, Some(2023)));
        assert!(!plausible(Ratings::Lichess, 150, Some(2023)));
        assert!(!plausible(Ratings::Lichess, 1500, Some(2005)));
    }
}
