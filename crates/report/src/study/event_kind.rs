//! What an event's name says about how it was played, for collections
//! without a TimeControl tag (TWIC, PGN Mentor): rapid, blitz, blindfold,
//! simultaneous. The patterns are deliberately plain so they can be read and
//! argued with; `docs/report.md` lists them.

use regex::Regex;

/// A kind of event that is not a standard classical game.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum EventKind {
    Rapid,
    Blitz,
    Bullet,
    Blindfold,
    Simul,
}

impl EventKind {
    pub const ALL: [EventKind; 5] = [
        EventKind::Rapid,
        EventKind::Blitz,
        EventKind::Bullet,
        EventKind::Blindfold,
        EventKind::Simul,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            EventKind::Rapid => "rapid",
            EventKind::Blitz => "blitz",
            EventKind::Bullet => "bullet",
            EventKind::Blindfold => "blindfold",
            EventKind::Simul => "simul",
        }
    }
}

/// Name patterns, tried in order; the first match decides.
pub struct EventPatterns {
    patterns: Vec<(EventKind, Regex)>,
    /// Names of events played online.
    online: Vec<Regex>,
    /// A hash of the TOML text they were read from.
    source_hash: u64,
}

/// The patterns built into the binary: `data/event_patterns.toml` as
/// shipped, so that remis works from any folder.
pub const DEFAULT_PATTERNS_TOML: &str = include_str!("../../../../data/event_patterns.toml");

impl Default for EventPatterns {
    fn default() -> Self {
        EventPatterns::from_toml(DEFAULT_PATTERNS_TOML).expect("the built-in event patterns parse")
    }
}

#[derive(serde::Deserialize)]
struct PatternFile {
    pattern: Vec<PatternEntry>,
    #[serde(default)]
    online: Vec<OnlineEntry>,
}

#[derive(serde::Deserialize)]
struct OnlineEntry {
    regex: String,
}

#[derive(serde::Deserialize)]
struct PatternEntry {
    kind: String,
    regex: String,
}

impl EventPatterns {
    /// Reads a pattern file (see `data/event_patterns.toml`).
    pub fn from_toml(text: &str) -> Result<EventPatterns, String> {
        let file: PatternFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let patterns = file
            .pattern
            .into_iter()
            .map(|p| {
                let kind = EventKind::ALL
                    .into_iter()
                    .find(|k| k.as_str() == p.kind)
                    .ok_or_else(|| format!("unknown kind \"{}\"", p.kind))?;
                let re = Regex::new(&p.regex).map_err(|e| format!("{}: {e}", p.regex))?;
                Ok((kind, re))
            })
            .collect::<Result<_, String>>()?;
        let online = file
            .online
            .into_iter()
            .map(|o| Regex::new(&o.regex).map_err(|e| format!("{}: {e}", o.regex)))
            .collect::<Result<_, String>>()?;
        Ok(EventPatterns {
            patterns,
            online,
            source_hash: remis_core::fnv::fnv1a(text.as_bytes()),
        })
    }

    /// Identifies the pattern file: equal texts, equal hashes.
    pub fn source_hash(&self) -> u64 {
        self.source_hash
    }

    /// Whether an event's name says it was played online.
    pub fn is_online(&self, event: &str) -> bool {
        self.online.iter().any(|re| re.is_match(event))
    }

    pub fn kind(&self, event: &str) -> Option<EventKind> {
        self.patterns
            .iter()
            .find(|(_, re)| re.is_match(event))
            .map(|&(k, _)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_kinds_are_refused() {
        assert!(EventPatterns::from_toml("[[pattern]]\nkind = \"fast\"\nregex = \"x\"").is_err());
    }

    #[test]
    fn recognises_common_names() {
        let p = EventPatterns::default();
        assert_eq!(p.kind("Amber Blindfold"), Some(EventKind::Blindfold));
        assert_eq!(p.kind("Melody Amber Rapid"), Some(EventKind::Rapid));
        assert_eq!(p.kind("World Blitz Championship"), Some(EventKind::Blitz));
        assert_eq!(p.kind("Kasparov simul"), Some(EventKind::Simul));
        assert_eq!(p.kind("Corus A"), None);
        assert_eq!(p.kind("Linares"), None);
        assert_eq!(p.kind("Dortmund Sparkassen"), None);
        assert_eq!(
            p.kind("Titled Tuesday 2nd Jan Early"),
            Some(EventKind::Blitz)
        );
        assert!(p.is_online("Titled Tuesday 2nd Jan Early"));
        assert!(p.is_online("Chessable Masters Play-In"));
        assert!(p.is_online("PRO League KO Stage"));
        assert!(!p.is_online("Corus A"));
        assert!(!p.is_online("Tata Steel Masters"));
        assert!(!p.is_online("Interzonal"));
        assert!(!p.is_online("Linares"));
    }
}
