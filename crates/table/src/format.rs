//! How each game was played — online or over the board, and at what speed
//! — decided once, at classify time, from the strongest evidence in its
//! tags, and written to the table with the evidence that decided it
//! (columns `play`, `play_by`, `speed`, `speed_by`), so that the report,
//! `remis stats` and notebooks agree and a reader can audit any game.
//!
//! The evidence, strongest first:
//! - **speed**: the `TimeControl` tag; then the event's name (patterns of
//!   `data/event_patterns.toml`, each optionally bounded by years, so that
//!   a play-off before 1996 stays classical); then classical by default.
//! - **play**: a `Site` that names an online platform (a domain, or FIDE's
//!   `INT`); then the event's name: series known to be over the board
//!   although their names carry an online word (a sponsor: "FIDE Chess.com
//!   Grand Swiss"), then series known to be online, in all their
//!   spellings, some only in given years (2020's events moved online);
//!   then a `Site` naming a venue; then the date (no online play before
//!   1992); otherwise unknown. An event name is read as words in the sense
//!   meant: "Int" in "Gausdal Int" is *international*, and is no evidence
//!   of the internet (only the `Site` tag's `INT` is).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use regex::Regex;
use remis_core::replay::{Platform, TimeClass};

/// A kind of game an event's name can say: a speed, or a way of playing
/// that is not a standard game (blindfold, simultaneous).
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

/// Online or over the board.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Play {
    OverTheBoard,
    Online,
}

impl Play {
    /// The `play` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Play::OverTheBoard => "over-the-board",
            Play::Online => "online",
        }
    }
}

/// Which tag decided a game's play.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum PlayEvidence {
    /// `Site` names an online platform.
    SitePlatform,
    /// The event's name is a known online or over-the-board series.
    EventName,
    /// `Site` names a place (a venue).
    SiteVenue,
    /// The date: before online play existed.
    Date,
}

impl PlayEvidence {
    /// The `play_by` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            PlayEvidence::SitePlatform => "site platform",
            PlayEvidence::EventName => "event name",
            PlayEvidence::SiteVenue => "site venue",
            PlayEvidence::Date => "date",
        }
    }
}

/// Which tag decided a game's speed.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum SpeedEvidence {
    TimeControl,
    EventName,
    /// Nothing said otherwise: classical.
    Default,
}

impl SpeedEvidence {
    /// The `speed_by` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            SpeedEvidence::TimeControl => "time control",
            SpeedEvidence::EventName => "event name",
            SpeedEvidence::Default => "default",
        }
    }
}

/// A game's speed: a time class, or an event kind its name says.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Speed {
    Class(TimeClass),
    Kind(EventKind),
}

impl Speed {
    /// The `speed` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Speed::Class(c) => c.as_str(),
            Speed::Kind(k) => k.as_str(),
        }
    }
}

/// The decision for one game, with its evidence.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Format {
    /// `None`: nothing in the tags says.
    pub play: Option<(Play, PlayEvidence)>,
    pub speed: Speed,
    pub speed_by: SpeedEvidence,
}

/// A pattern over event names, for some years only when bounded.
struct Pattern<T> {
    what: T,
    regex: Regex,
    from: Option<i16>,
    until: Option<i16>,
}

impl<T: Copy> Pattern<T> {
    fn matches(&self, event: &str, year: Option<i16>) -> bool {
        let in_years = match year {
            Some(y) => self.from.is_none_or(|f| y >= f) && self.until.is_none_or(|u| y <= u),
            // A bounded pattern needs a year to apply.
            None => self.from.is_none() && self.until.is_none(),
        };
        in_years && self.regex.is_match(event)
    }
}

impl std::fmt::Debug for EventPatterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EventPatterns({:016x})", self.source_hash)
    }
}

/// The event-name rules (`data/event_patterns.toml`).
pub struct EventPatterns {
    patterns: Vec<Pattern<EventKind>>,
    online: Vec<Pattern<()>>,
    over_the_board: Vec<Pattern<()>>,
    /// A hash of the TOML text they were read from.
    source_hash: u64,
}

/// The patterns built into the binary: `data/event_patterns.toml` as
/// shipped, so that remis works from any folder.
pub const DEFAULT_PATTERNS_TOML: &str = include_str!("../../../data/event_patterns.toml");

static BUILT_IN: LazyLock<Arc<EventPatterns>> = LazyLock::new(|| {
    Arc::new(EventPatterns::from_toml(DEFAULT_PATTERNS_TOML).expect("the built-in patterns parse"))
});

impl EventPatterns {
    /// The built-in patterns, shared.
    pub fn built_in() -> Arc<EventPatterns> {
        Arc::clone(&BUILT_IN)
    }
}

impl Default for EventPatterns {
    fn default() -> Self {
        EventPatterns::from_toml(DEFAULT_PATTERNS_TOML).expect("the built-in event patterns parse")
    }
}

#[derive(serde::Deserialize)]
struct PatternFile {
    pattern: Vec<PatternEntry>,
    #[serde(default)]
    online: Vec<PlayEntry>,
    #[serde(default)]
    over_the_board: Vec<PlayEntry>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayEntry {
    regex: String,
    from: Option<i16>,
    until: Option<i16>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternEntry {
    kind: String,
    regex: String,
    from: Option<i16>,
    until: Option<i16>,
}

fn compile(regex: &str) -> Result<Regex, String> {
    Regex::new(regex).map_err(|e| format!("{regex}: {e}"))
}

impl EventPatterns {
    /// Reads a pattern file (see `data/event_patterns.toml`).
    pub fn from_toml(text: &str) -> Result<EventPatterns, String> {
        let file: PatternFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let patterns = file
            .pattern
            .into_iter()
            .map(|p| {
                let what = EventKind::ALL
                    .into_iter()
                    .find(|k| k.as_str() == p.kind)
                    .ok_or_else(|| format!("unknown kind \"{}\"", p.kind))?;
                Ok(Pattern {
                    what,
                    regex: compile(&p.regex)?,
                    from: p.from,
                    until: p.until,
                })
            })
            .collect::<Result<_, String>>()?;
        let plays = |entries: Vec<PlayEntry>| {
            entries
                .into_iter()
                .map(|e| {
                    Ok(Pattern {
                        what: (),
                        regex: compile(&e.regex)?,
                        from: e.from,
                        until: e.until,
                    })
                })
                .collect::<Result<Vec<_>, String>>()
        };
        Ok(EventPatterns {
            patterns,
            online: plays(file.online)?,
            over_the_board: plays(file.over_the_board)?,
            source_hash: remis_core::fnv::fnv1a(text.as_bytes()),
        })
    }

    /// Identifies the pattern file: equal texts, equal hashes.
    pub fn source_hash(&self) -> u64 {
        self.source_hash
    }

    /// What an event's name says of its kind in `year`.
    pub fn kind(&self, event: &str, year: Option<i16>) -> Option<EventKind> {
        self.patterns
            .iter()
            .find(|p| p.matches(event, year))
            .map(|p| p.what)
    }

    /// What an event's name says of its play in `year`: over the board
    /// first (a sponsor's online name on a venue's event), then online.
    pub fn play(&self, event: &str, year: Option<i16>) -> Option<Play> {
        if self.over_the_board.iter().any(|p| p.matches(event, year)) {
            Some(Play::OverTheBoard)
        } else if self.online.iter().any(|p| p.matches(event, year)) {
            Some(Play::Online)
        } else {
            None
        }
    }

    /// The decision for one game's tags.
    ///
    /// ```
    /// use remis_table::format::{EventPatterns, Play, PlayEvidence};
    ///
    /// let patterns = EventPatterns::built_in();
    /// // "Int" is international: the venue decides.
    /// let gausdal = patterns.decide(None, Some("Gausdal NOR"), Some("Gausdal Int"), Some(1995));
    /// assert_eq!(gausdal.play, Some((Play::OverTheBoard, PlayEvidence::SiteVenue)));
    /// let titled = patterns.decide(None, None, Some("Titled Tue 4th Jan Early"), Some(2022));
    /// assert_eq!(titled.play, Some((Play::Online, PlayEvidence::EventName)));
    /// assert_eq!(titled.speed.as_str(), "blitz");
    /// ```
    pub fn decide(
        &self,
        time_control: Option<TimeClass>,
        site: Option<&str>,
        event: Option<&str>,
        year: Option<i16>,
    ) -> Format {
        let said = known(event).map(|e| (self.kind(e, year), self.play(e, year)));
        decide_given(
            time_control,
            SiteSays::of(site),
            said.unwrap_or_default(),
            year,
        )
    }
}

/// What a game's `Site` tag says of its play.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum SiteSays {
    /// An online platform.
    Platform(Platform),
    /// A place (a venue).
    Venue,
    /// Nothing: no tag, or `?`.
    Nothing,
}

impl SiteSays {
    pub fn of(site: Option<&str>) -> SiteSays {
        match known(site) {
            None => SiteSays::Nothing,
            Some(site) => Platform::from_site(site).map_or(SiteSays::Venue, SiteSays::Platform),
        }
    }

    /// The `platform` column's value.
    pub fn platform(self) -> Option<Platform> {
        match self {
            SiteSays::Platform(p) => Some(p),
            _ => None,
        }
    }
}

/// A tag's text when it says something (not empty, not `?`).
fn known(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|t| !t.is_empty() && *t != "?")
}

/// The decision, given what the event's name said of its kind and play.
fn decide_given(
    time_control: Option<TimeClass>,
    site: SiteSays,
    (kind, event_play): EventSays,
    year: Option<i16>,
) -> Format {
    let (speed, speed_by) = match (time_control, kind) {
        (Some(class), _) => (Speed::Class(class), SpeedEvidence::TimeControl),
        (None, Some(kind)) => (Speed::Kind(kind), SpeedEvidence::EventName),
        (None, None) => (Speed::Class(TimeClass::Classical), SpeedEvidence::Default),
    };
    let play = if site.platform().is_some() {
        Some((Play::Online, PlayEvidence::SitePlatform))
    } else if let Some(play) = event_play {
        Some((play, PlayEvidence::EventName))
    } else if site == SiteSays::Venue {
        Some((Play::OverTheBoard, PlayEvidence::SiteVenue))
    } else if year.is_some_and(|y| y < FIRST_ONLINE_YEAR) {
        Some((Play::OverTheBoard, PlayEvidence::Date))
    } else {
        None
    };
    Format {
        play,
        speed,
        speed_by,
    }
}

/// Before this year no game of a database was played online (the Internet
/// Chess Server opened in 1992).
pub const FIRST_ONLINE_YEAR: i16 = 1992;

/// What an event's name says of its kind and its play.
type EventSays = (Option<EventKind>, Option<Play>);

/// The decisions of one table builder (one chunk of at most 4,096 games),
/// remembered by event name and year: an event's games share their name,
/// and the patterns run once for it in each chunk.
pub struct FormatDecider {
    patterns: Arc<EventPatterns>,
    /// By the name's FNV-1a hash and the year: no allocation per game (two
    /// names of 4,096 share a hash with odds of about 1 in 10^12).
    by_event: HashMap<(u64, Option<i16>), EventSays>,
}

/// Event names remembered at once; past it, the memory starts afresh.
const REMEMBERED: usize = 4096;

impl FormatDecider {
    pub fn new(patterns: Arc<EventPatterns>) -> FormatDecider {
        FormatDecider {
            patterns,
            by_event: HashMap::new(),
        }
    }

    /// The patterns it decides by.
    pub fn patterns(&self) -> &Arc<EventPatterns> {
        &self.patterns
    }

    /// [`EventPatterns::decide`], with the event's patterns remembered and
    /// the `Site` tag read once by the caller (it also fills `platform`).
    pub fn decide(
        &mut self,
        time_control: Option<TimeClass>,
        site: SiteSays,
        event: Option<&str>,
        year: Option<i16>,
    ) -> Format {
        let said = match known(event) {
            None => Default::default(),
            Some(name) => {
                let key = (remis_core::fnv::fnv1a(name.as_bytes()), year);
                match self.by_event.get(&key) {
                    Some(&said) => said,
                    None => {
                        if self.by_event.len() >= REMEMBERED {
                            self.by_event.clear();
                        }
                        let said = (
                            self.patterns.kind(name, year),
                            self.patterns.play(name, year),
                        );
                        self.by_event.insert(key, said);
                        said
                    }
                }
            }
        };
        decide_given(time_control, site, said, year)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_kinds_and_fields_are_refused() {
        assert!(EventPatterns::from_toml("[[pattern]]\nkind = \"fast\"\nregex = \"x\"").is_err());
        assert!(
            EventPatterns::from_toml("[[pattern]]\nkind = \"rapid\"\nregex = \"x\"\nfrom_year = 1")
                .is_err()
        );
    }

    #[test]
    fn the_strongest_evidence_decides() {
        let p = EventPatterns::default();
        let d = |tc: Option<&str>, site: Option<&str>, event: Option<&str>, year: Option<i16>| {
            p.decide(tc.and_then(TimeClass::from_time_control), site, event, year)
        };
        // TimeControl beats the event's name.
        let f = d(Some("600+0"), None, Some("World Blitz"), Some(2019));
        assert_eq!(f.speed, Speed::Class(TimeClass::Rapid));
        assert_eq!(f.speed_by, SpeedEvidence::TimeControl);
        // A platform's Site beats an over-the-board name.
        let f = d(None, Some("chess.com INT"), Some("Grand Swiss"), Some(2021));
        assert_eq!(f.play, Some((Play::Online, PlayEvidence::SitePlatform)));
        // A sponsor's name is no venue's.
        let f = d(
            None,
            Some("Douglas IOM"),
            Some("FIDE Chess.com Grand Swiss"),
            Some(2019),
        );
        assert_eq!(f.play, Some((Play::OverTheBoard, PlayEvidence::EventName)));
        assert_eq!(f.speed, Speed::Class(TimeClass::Classical));
        // "Int" is international.
        for event in ["Gausdal Int", "12th Philadelphia Int"] {
            let f = d(None, Some("Gausdal NOR"), Some(event), Some(1990));
            assert_eq!(
                f.play,
                Some((Play::OverTheBoard, PlayEvidence::SiteVenue)),
                "{event}"
            );
            let f = d(None, None, Some(event), Some(2019));
            assert_eq!(f.play, None, "{event}");
        }
        // Titled Tuesday in its short form.
        let f = d(None, None, Some("Titled Tue 4th Jan Early"), Some(2022));
        assert_eq!(f.play, Some((Play::Online, PlayEvidence::EventName)));
        assert_eq!(f.speed, Speed::Kind(EventKind::Blitz));
        // A historic play-off is classical; a modern one rapid.
        let f = d(None, None, Some("USA-ch playoff"), Some(1946));
        assert_eq!(f.speed, Speed::Class(TimeClass::Classical));
        assert_eq!(f.play, Some((Play::OverTheBoard, PlayEvidence::Date)));
        let f = d(None, None, Some("Candidates playoff"), Some(2018));
        assert_eq!(f.speed, Speed::Kind(EventKind::Rapid));
        // 2020's events moved online for a year.
        let f = d(
            None,
            Some("Saint Louis USA"),
            Some("Saint Louis Rapid 2020"),
            Some(2020),
        );
        assert_eq!(f.play, Some((Play::Online, PlayEvidence::EventName)));
        let f = d(
            None,
            Some("Saint Louis USA"),
            Some("Saint Louis Rapid 2019"),
            Some(2019),
        );
        assert_eq!(f.play, Some((Play::OverTheBoard, PlayEvidence::SiteVenue)));
    }

    #[test]
    fn the_decider_remembers_what_the_patterns_say() {
        let patterns = EventPatterns::built_in();
        let mut decider = FormatDecider::new(Arc::clone(&patterns));
        let cases = [
            (
                None,
                Some("Douglas IOM"),
                Some("FIDE Chess.com Grand Swiss"),
                Some(2019),
            ),
            (None, None, Some("Titled Tue 4th Jan Early"), Some(2022)),
            (
                Some(TimeClass::Blitz),
                Some("lichess.org"),
                Some("Rated Blitz game"),
                Some(2020),
            ),
            (None, Some("?"), Some("?"), None),
            (None, None, None, Some(1950)),
            (
                None,
                Some("Wijk aan Zee NED"),
                Some("Hoogovens Blitz"),
                Some(1998),
            ),
        ];
        for _ in 0..2 {
            for (tc, site, event, year) in cases {
                assert_eq!(
                    decider.decide(tc, SiteSays::of(site), event, year),
                    patterns.decide(tc, site, event, year),
                    "{event:?}"
                );
            }
        }
    }
}
