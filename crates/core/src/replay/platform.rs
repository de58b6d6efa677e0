//! Where a game was played, as far as its `Site` tag tells: an online
//! platform, or nothing said (an over-the-board place, or no tag).

/// An online platform named by a `Site` tag. Patterns (case-insensitive,
/// tried in this order; documented in `docs/columns.md`, column
/// `platform`):
///
/// - `lichess.org` or `lichess` → lichess;
/// - `chess.com` (not as the end of a longer name) → chess.com;
/// - `chess24` → chess24;
/// - `playchess`, `chessbase` (the playchess.com server) → playchess;
/// - `chessclub.com`, `ICC` as a word → ICC;
/// - `freechess.org`, `FICS` as a word → FICS;
/// - `INT` as the last word (FIDE's code for the internet, as in
///   "Titled Tuesday chess.com INT"), `internet` or `online` anywhere →
///   another online site.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Platform {
    Lichess,
    ChessCom,
    Chess24,
    Playchess,
    Icc,
    Fics,
    OtherOnline,
}

impl Platform {
    pub const ALL: [Platform; 7] = [
        Platform::Lichess,
        Platform::ChessCom,
        Platform::Chess24,
        Platform::Playchess,
        Platform::Icc,
        Platform::Fics,
        Platform::OtherOnline,
    ];

    /// The `platform` column value.
    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            Platform::Lichess => "lichess",
            Platform::ChessCom => "chess.com",
            Platform::Chess24 => "chess24",
            Platform::Playchess => "playchess",
            Platform::Icc => "icc",
            Platform::Fics => "fics",
            Platform::OtherOnline => "online",
        }
    }

    pub fn from_name(name: &str) -> Option<Platform> {
        Platform::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// The platform a `Site` tag names; `None` when it names none (an
    /// over-the-board venue, `?`, or nothing).
    ///
    /// ```
    /// use remis_core::replay::Platform;
    /// assert_eq!(Platform::from_site("chess.com INT"), Some(Platform::ChessCom));
    /// assert_eq!(Platform::from_site("https://lichess.org/abcd1234"), Some(Platform::Lichess));
    /// assert_eq!(Platform::from_site("Wijk aan Zee NED"), None);
    /// ```
    pub fn from_site(site: &str) -> Option<Platform> {
        // Every lichess game's tag ("https://lichess.org/…"): what the
        // lowercased text below says first of it, without the copy.
        if site.contains("lichess") {
            return Some(Platform::Lichess);
        }
        let lower = site.to_ascii_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '.')
            .filter(|w| !w.is_empty())
            .collect();
        let has_word = |w: &str| words.iter().any(|x| x.trim_matches('.') == w);
        // "chess.com" as a name of its own, not the end of playchess.com.
        let chess_com = lower.match_indices("chess.com").any(|(at, _)| {
            !lower[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric())
        });
        if lower.contains("lichess") {
            Some(Platform::Lichess)
        } else if chess_com {
            Some(Platform::ChessCom)
        } else if lower.contains("chess24") {
            Some(Platform::Chess24)
        } else if lower.contains("playchess") || lower.contains("chessbase") {
            Some(Platform::Playchess)
        } else if lower.contains("chessclub.com") || has_word("icc") {
            Some(Platform::Icc)
        } else if lower.contains("freechess.org") || has_word("fics") {
            Some(Platform::Fics)
        } else if words.last().is_some_and(|w| w.trim_matches('.') == "int")
            || lower.contains("internet")
            || lower.contains("online")
        {
            Some(Platform::OtherOnline)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_as_databases_write_them() {
        let p = Platform::from_site;
        assert_eq!(p("https://lichess.org/abcdEFGH"), Some(Platform::Lichess));
        assert_eq!(p("lichess.org INT"), Some(Platform::Lichess));
        assert_eq!(p("Chess.com"), Some(Platform::ChessCom));
        assert_eq!(p("chess.com INT"), Some(Platform::ChessCom));
        assert_eq!(
            p("https://www.chess.com/game/live/123"),
            Some(Platform::ChessCom)
        );
        assert_eq!(p("chess24.com INT"), Some(Platform::Chess24));
        assert_eq!(p("Playchess.com INT"), Some(Platform::Playchess));
        assert_eq!(p("ICC INT"), Some(Platform::Icc));
        assert_eq!(p("Titled Arena INT"), Some(Platform::OtherOnline));
        assert_eq!(p("Internet"), Some(Platform::OtherOnline));
        // Over-the-board venues, including ones that contain the letters.
        assert_eq!(p("Wijk aan Zee NED"), None);
        assert_eq!(p("Interlaken SUI"), None);
        assert_eq!(p("Mainz GER"), None);
        assert_eq!(p("Saint Louis USA"), None);
        assert_eq!(p("?"), None);
        for platform in Platform::ALL {
            assert_eq!(Platform::from_name(platform.as_str()), Some(platform));
        }
    }
}
