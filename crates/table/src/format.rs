//! How each game was played — online or over the board, and at what speed
//! — decided once, at classify time, from the strongest evidence in its
//! tags, and written to the table with the evidence that decided it
//! (columns `play`, `play_by`, `speed`, `speed_by`), so that the report,
//! `remis stats` and notebooks agree and a reader can audit any game.
//!
//! The evidence, strongest first:
//! - **speed**: the `TimeControl` tag (`-`, no clock, is correspondence);
//!   then the event's name (patterns of `data/event_patterns.toml`, each
//!   optionally bounded by years, so that a play-off before 1996 stays
//!   classical; whole-word tie-break tokens such as `TB` say `tiebreak`);
//!   then the round of a knock-out event: its game 3 or later (`1.3`,
//!   `4.5`) is a tie-break (`tiebreak`: rapid, blitz or armageddon, which
//!   one the tags do not say); then, for an online game, nothing:
//!   `unknown`; otherwise classical, *presumed* (`speed_by` `presumed`:
//!   nothing said otherwise, kept apart from the classical games some
//!   evidence decided).
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
    /// A tie-break or play-off game, played at a quicker rate than the
    /// event's own (rapid, blitz or armageddon: which one, the tags do not
    /// say).
    Tiebreak,
}

impl EventKind {
    pub const ALL: [EventKind; 6] = [
        EventKind::Rapid,
        EventKind::Blitz,
        EventKind::Bullet,
        EventKind::Blindfold,
        EventKind::Simul,
        EventKind::Tiebreak,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            EventKind::Rapid => "rapid",
            EventKind::Blitz => "blitz",
            EventKind::Bullet => "bullet",
            EventKind::Blindfold => "blindfold",
            EventKind::Simul => "simul",
            EventKind::Tiebreak => "tiebreak",
        }
    }
}

/// Where a game was played, from the strongest evidence in its tags (the
/// table's `play` and `play_by` columns): the one play of remis, from the
/// classifier's decision to the report's groups and the `--play` filter.
/// The classifier decides `OverTheBoard` or `Online` with the evidence
/// that said so; `Unknown` is what the table's null `play` reads as.
#[derive(
    Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd, serde::Serialize, serde::Deserialize,
)]
pub enum Play {
    OverTheBoard,
    Online,
    /// Nothing in the tags says (no Site, no known event, after 1992).
    Unknown,
}

impl Play {
    pub const ALL: [Play; 3] = [Play::OverTheBoard, Play::Online, Play::Unknown];

    /// Its name in prose and in the report's groups.
    pub const fn as_str(self) -> &'static str {
        match self {
            Play::OverTheBoard => "over the board",
            Play::Online => "online",
            Play::Unknown => "unknown",
        }
    }

    /// The `play` column value (null for `Unknown`), which is also its
    /// name on the command line (`--play`).
    pub const fn column_value(self) -> Option<&'static str> {
        match self {
            Play::OverTheBoard => Some("over-the-board"),
            Play::Online => Some("online"),
            Play::Unknown => None,
        }
    }

    /// The play a `play` column value reads as: null, or a value the
    /// classifier does not write, is `Unknown`.
    pub fn from_column(value: Option<&str>) -> Play {
        match value {
            Some(v) if Some(v) == Play::Online.column_value() => Play::Online,
            Some(v) if Some(v) == Play::OverTheBoard.column_value() => Play::OverTheBoard,
            _ => Play::Unknown,
        }
    }

    /// The play of its name in prose ([`Play::as_str`]).
    pub fn from_name(name: &str) -> Option<Play> {
        Play::ALL.into_iter().find(|p| p.as_str() == name)
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
    /// The round of a knock-out event: game 3 or later of a match.
    Round,
    /// Nothing said otherwise, over the board (or not known to be online):
    /// classical, presumed.
    Presumed,
    /// Nothing said, online: the speed is unknown.
    Nothing,
}

impl SpeedEvidence {
    /// The `speed_by` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            SpeedEvidence::TimeControl => "time control",
            SpeedEvidence::EventName => "event name",
            SpeedEvidence::Round => "round",
            SpeedEvidence::Presumed => "presumed",
            SpeedEvidence::Nothing => "nothing",
        }
    }
}

/// A game's speed: a time class, an event kind its name says, or unknown.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Speed {
    Class(TimeClass),
    Kind(EventKind),
    /// Nothing says (an online game without a time control).
    Unknown,
}

impl Speed {
    /// The `speed` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Speed::Class(c) => c.as_str(),
            Speed::Kind(k) => k.as_str(),
            Speed::Unknown => "unknown",
        }
    }
}

/// The time class a `TimeControl` tag gives a game's speed: as
/// [`TimeClass::from_time_control`], and `-` (no clock: PGN's mark for
/// correspondence and other untimed play; lichess writes it on its
/// correspondence games) correspondence.
///
/// ```
/// use remis_core::replay::TimeClass;
/// use remis_table::format::speed_class;
/// assert_eq!(speed_class("-"), Some(TimeClass::Correspondence));
/// assert_eq!(speed_class("180+2"), Some(TimeClass::Blitz));
/// assert_eq!(speed_class("?"), None);
/// ```
pub fn speed_class(time_control: &str) -> Option<TimeClass> {
    match time_control.trim() {
        "-" => Some(TimeClass::Correspondence),
        tag => TimeClass::from_time_control(tag),
    }
}

/// Whether a `Round` tag names game 3 or later of a match (`1.3`, `4.5`):
/// in a knock-out event, a tie-break game (its matches have two classical
/// games). Only for knock-out events: in a team event `1.3` is round 1,
/// board 3, and in a Swiss round 1, table 3.
pub fn is_tiebreak_round(round: &str) -> bool {
    let mut parts = round.trim().split('.');
    let (Some(major), Some(game), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    number(major) && number(game) && game.parse::<u32>().is_ok_and(|g| g >= 3)
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
    /// Names it matches that it is not meant for (the regex crate has no
    /// look-around): a knock-out pattern's team events.
    unless: Option<Regex>,
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
        in_years
            && self.regex.is_match(event)
            && !self.unless.as_ref().is_some_and(|u| u.is_match(event))
    }
}

impl std::fmt::Debug for EventPatterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EventPatterns({:016x})", self.source_hash)
    }
}

/// The event-name rules (`data/event_patterns.toml`).
pub struct EventPatterns {
    /// Speeds: an event kind, or (kind `classical`) the classical class of
    /// a series whose name is known to be played slowly although nothing
    /// else would say so (an online league at a long time control).
    patterns: Vec<Pattern<Speed>>,
    online: Vec<Pattern<()>>,
    over_the_board: Vec<Pattern<()>>,
    /// Knock-out events: matches of two classical games, then tie-breaks
    /// under the same name (rounds `N.3` and later).
    knockout: Vec<Pattern<()>>,
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

    /// The patterns of the file `path` (`--event-patterns`), or the
    /// built-in ones.
    pub fn load(path: Option<&std::path::Path>) -> anyhow::Result<Arc<EventPatterns>> {
        let Some(path) = path else {
            return Ok(EventPatterns::built_in());
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::Error::new(e).context(format!("reading {}", path.display())))?;
        let patterns = EventPatterns::from_toml(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(Arc::new(patterns))
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
    #[serde(default)]
    knockout: Vec<PlayEntry>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayEntry {
    regex: String,
    unless: Option<String>,
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
                let what = match p.kind.as_str() {
                    "classical" => Speed::Class(TimeClass::Classical),
                    kind => EventKind::ALL
                        .into_iter()
                        .find(|k| k.as_str() == kind)
                        .map(Speed::Kind)
                        .ok_or_else(|| format!("unknown kind \"{kind}\""))?,
                };
                Ok(Pattern {
                    what,
                    regex: compile(&p.regex)?,
                    unless: None,
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
                        unless: e.unless.as_deref().map(compile).transpose()?,
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
            knockout: plays(file.knockout)?,
            source_hash: remis_core::fnv::fnv1a(text.as_bytes()),
        })
    }

    /// Identifies the pattern file: equal texts, equal hashes.
    pub fn source_hash(&self) -> u64 {
        self.source_hash
    }

    /// What an event's name says of its speed in `year`: the first
    /// pattern that matches.
    pub fn speed(&self, event: &str, year: Option<i16>) -> Option<Speed> {
        self.patterns
            .iter()
            .find(|p| p.matches(event, year))
            .map(|p| p.what)
    }

    /// What an event's name says of its kind in `year` (none when it says
    /// classical).
    pub fn kind(&self, event: &str, year: Option<i16>) -> Option<EventKind> {
        match self.speed(event, year)? {
            Speed::Kind(kind) => Some(kind),
            _ => None,
        }
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

    /// Whether an event's name is of a knock-out event in `year`, whose
    /// rounds `N.3` and later are tie-breaks.
    pub fn is_knockout(&self, event: &str, year: Option<i16>) -> bool {
        self.knockout.iter().any(|p| p.matches(event, year))
    }

    /// What an event's name says, at once.
    fn says(&self, event: &str, year: Option<i16>) -> EventSays {
        EventSays {
            speed: self.speed(event, year),
            play: self.play(event, year),
            knockout: self.is_knockout(event, year),
        }
    }

    /// The decision for one game's tags.
    ///
    /// ```
    /// use remis_table::format::{EventPatterns, Play, PlayEvidence};
    ///
    /// let patterns = EventPatterns::built_in();
    /// // "Int" is international: the venue decides.
    /// let gausdal = patterns.decide(None, Some("Gausdal NOR"), Some("Gausdal Int"), None, Some(1995));
    /// assert_eq!(gausdal.play, Some((Play::OverTheBoard, PlayEvidence::SiteVenue)));
    /// assert_eq!(gausdal.speed_by.as_str(), "presumed");
    /// let titled = patterns.decide(None, None, Some("Titled Tue 4th Jan Early"), None, Some(2022));
    /// assert_eq!(titled.play, Some((Play::Online, PlayEvidence::EventName)));
    /// assert_eq!(titled.speed.as_str(), "blitz");
    /// // Game 3 of a World Cup match is a tie-break.
    /// let cup = patterns.decide(None, Some("Baku AZE"), Some("FIDE World Cup 2023"), Some("4.3"), Some(2023));
    /// assert_eq!((cup.speed.as_str(), cup.speed_by.as_str()), ("tiebreak", "round"));
    /// ```
    pub fn decide(
        &self,
        time_control: Option<TimeClass>,
        site: Option<&str>,
        event: Option<&str>,
        round: Option<&str>,
        year: Option<i16>,
    ) -> Format {
        let said = known(event).map(|e| self.says(e, year));
        decide_given(
            time_control,
            SiteSays::of(site),
            said.unwrap_or_default(),
            round,
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
    said: EventSays,
    round: Option<&str>,
    year: Option<i16>,
) -> Format {
    let play = if site.platform().is_some() {
        Some((Play::Online, PlayEvidence::SitePlatform))
    } else if let Some(play) = said.play {
        Some((play, PlayEvidence::EventName))
    } else if site == SiteSays::Venue {
        Some((Play::OverTheBoard, PlayEvidence::SiteVenue))
    } else if year.is_some_and(|y| y < FIRST_ONLINE_YEAR) {
        Some((Play::OverTheBoard, PlayEvidence::Date))
    } else {
        None
    };
    let (speed, speed_by) = if let Some(class) = time_control {
        (Speed::Class(class), SpeedEvidence::TimeControl)
    } else if let Some(speed) = said.speed {
        (speed, SpeedEvidence::EventName)
    } else if said.knockout && known(round).is_some_and(is_tiebreak_round) {
        (Speed::Kind(EventKind::Tiebreak), SpeedEvidence::Round)
    } else if matches!(play, Some((Play::Online, _))) {
        (Speed::Unknown, SpeedEvidence::Nothing)
    } else {
        (Speed::Class(TimeClass::Classical), SpeedEvidence::Presumed)
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

/// What an event's name says of its kind, its play, and whether it is a
/// knock-out event.
#[derive(Copy, Clone, Debug, Default)]
struct EventSays {
    speed: Option<Speed>,
    play: Option<Play>,
    knockout: bool,
}

/// The decisions of one table builder (one chunk of at most 4,096 games),
/// remembered by event name and year: an event's games share their name,
/// and the patterns run once for it in each chunk.
pub struct FormatDecider {
    patterns: Arc<EventPatterns>,
    /// By the name's FNV-1a hash and the year: no allocation per game (two
    /// names of 4,096 share a hash with odds of about 1 in 10^12).
    by_event: HashMap<(u64, Option<i16>), EventSays>,
    /// The last `Site` tag read and what it said: an event's games come
    /// one after another, most with one site.
    last_site: Option<(String, SiteSays)>,
}

/// Event names remembered at once; past it, the memory starts afresh.
const REMEMBERED: usize = 4096;

impl FormatDecider {
    pub fn new(patterns: Arc<EventPatterns>) -> FormatDecider {
        FormatDecider {
            patterns,
            by_event: HashMap::new(),
            last_site: None,
        }
    }

    /// [`SiteSays::of`] the tag, read again only when it differs from the
    /// last one.
    pub fn site(&mut self, site: Option<&str>) -> SiteSays {
        let Some(site) = site else {
            return SiteSays::Nothing;
        };
        if let Some((last, says)) = &self.last_site
            && last == site
        {
            return *says;
        }
        let says = SiteSays::of(Some(site));
        let (text, said) = self.last_site.get_or_insert_with(|| (String::new(), says));
        text.clear();
        text.push_str(site);
        *said = says;
        says
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
        round: Option<&str>,
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
                        let said = self.patterns.says(name, year);
                        self.by_event.insert(key, said);
                        said
                    }
                }
            }
        };
        decide_given(time_control, site, said, round, year)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decider_reads_a_site_as_the_tag_says_whatever_came_before() {
        let mut decider = FormatDecider::new(EventPatterns::built_in());
        let sites = [
            Some("Wijk aan Zee NED"),
            Some("Wijk aan Zee NED"),
            Some("https://lichess.org/abcd1234"),
            None,
            Some("?"),
            Some("chess.com INT"),
            Some("chess.com INT"),
            Some("Wijk aan Zee NED"),
            Some(" "),
        ];
        for site in sites {
            assert_eq!(decider.site(site), SiteSays::of(site), "{site:?}");
        }
    }

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
            p.decide(tc.and_then(speed_class), site, event, None, year)
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
        assert_eq!(f.speed, Speed::Kind(EventKind::Tiebreak));
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
            (None, Some("Khanty-Mansiysk RUS"), Some("WCC"), Some(2005)),
            (None, Some("chess.com INT"), Some("Casual"), Some(2021)),
        ];
        for _ in 0..2 {
            for (tc, site, event, year) in cases {
                for round in [None, Some("1.1"), Some("2.3")] {
                    assert_eq!(
                        decider.decide(tc, SiteSays::of(site), event, round, year),
                        patterns.decide(tc, site, event, round, year),
                        "{event:?}"
                    );
                }
            }
        }
    }

    /// Decides a game over the board (a venue's `Site`) with no time
    /// control: the speed and its evidence.
    fn otb(event: &str, round: Option<&str>, year: i16) -> (&'static str, &'static str) {
        let f = EventPatterns::built_in().decide(
            None,
            Some("Somewhere"),
            Some(event),
            round,
            Some(year),
        );
        (f.speed.as_str(), f.speed_by.as_str())
    }

    #[test]
    fn games_three_and_later_of_a_knock_out_match_are_tie_breaks() {
        for (event, year) in [
            ("FIDE World Cup 2013", 2013),
            ("World Cup", 2009),
            ("WCC", 2005),
            ("FIDE WCh KO", 2004),
            ("FIDE-Wch k.o.", 1997),
            ("WCh Women 2018", 2018),
            ("ch-GBR KO 2018", 2018),
        ] {
            for round in ["1.3", "4.4", "2.9", "7.12"] {
                assert_eq!(
                    otb(event, Some(round), year),
                    ("tiebreak", "round"),
                    "{event} {round}"
                );
            }
            for round in ["1.1", "4.2", "7"] {
                assert_eq!(
                    otb(event, Some(round), year),
                    ("classical", "presumed"),
                    "{event} {round}"
                );
            }
        }
        // Not knock-outs: a team event's "1.3" is board 3, a Swiss's table 3.
        for (event, year) in [
            ("41st Olympiad Open 2014", 2014),
            ("Bundesliga 2019-20", 2020),
            ("World Cities Team KO", 2012),
            ("3rd China Mind Team KO", 2015),
            ("Aeroflot Open A 2016", 2016),
            ("FIDE Grand Swiss 2023", 2023),
            // The GMA World Cup of 1988-89 was a series of round robins.
            ("World Cup", 1988),
            // Finals of six and eight classical games, filed apart.
            ("FIDE-Wch k.o. f", 1998),
            ("FIDE WCh KO Final", 2002),
        ] {
            assert_eq!(
                otb(event, Some("1.3"), year),
                ("classical", "presumed"),
                "{event}"
            );
        }
        // Rounds that are not game 3 or later of a match.
        for round in ["3", "1.2", "1.1.4", "a.3", ".3", "1.", "?"] {
            assert!(!is_tiebreak_round(round), "{round}");
        }
        assert!(is_tiebreak_round(" 10.3 "));
        // What the name says comes first: a rapid knock-out's games stay rapid.
        assert_eq!(
            otb("Corsica Masters KO", Some("1.3"), 2004),
            ("rapid", "event name")
        );
    }

    #[test]
    fn tie_break_and_rapid_tokens_are_whole_words() {
        for (event, year) in [
            ("Gibraltar Masters TB 2018", 2018),
            ("Tata Steel Masters TB", 2024),
            ("8th ch-Euro T/B", 2007),
            ("Bundesliga TB1 2017-18", 2018),
            ("Sinquefield Cup Tiebreak", 2019),
            ("Norway Chess tie-break", 2016),
            ("Candidates Play-off", 2018),
        ] {
            assert_eq!(
                otb(event, None, year),
                ("tiebreak", "event name"),
                "{event}"
            );
        }
        for (event, year) in [
            ("Corsica rap op", 1997),
            ("Varna rap m", 1995),
            ("Karpov Trophy 2019", 2019),
            ("Trophee CCAS KO", 2009),
            ("Cap d'Agde-B", 1998),
            ("Eurotel Trophy", 2002),
            ("14th Corsica KO", 2010),
        ] {
            assert_eq!(otb(event, None, year), ("rapid", "event name"), "{event}");
        }
        assert_eq!(otb("ch-USA TB Armageddon 2014", None, 2014).0, "blitz");
        // Words that only contain a token.
        for (event, year) in [
            ("Rapport-Laznicka m 2014", 2014),
            ("Wei Yi - Rapport Match", 2016),
            ("Stubborn Open", 2010),
            ("TBilisi GP", 2015),
            // A historic play-off was played at the classical rate.
            ("USA-ch playoff", 1981),
        ] {
            assert_eq!(otb(event, None, year), ("classical", "presumed"), "{event}");
        }
    }

    #[test]
    fn online_games_without_a_time_control_have_no_speed() {
        let p = EventPatterns::built_in();
        let f = p.decide(
            None,
            Some("chess.com INT"),
            Some("Casual Game"),
            None,
            Some(2021),
        );
        assert_eq!(f.play, Some((Play::Online, PlayEvidence::SitePlatform)));
        assert_eq!(
            (f.speed, f.speed_by),
            (Speed::Unknown, SpeedEvidence::Nothing)
        );
        assert_eq!(f.speed.as_str(), "unknown");
        let f = p.decide(None, None, Some("European Online Cup"), None, Some(2021));
        assert_eq!(f.speed, Speed::Unknown);
        // An online league the name says was slow is classical by evidence.
        let f = p.decide(None, Some("ICC INT"), Some("USCL 2009"), None, Some(2009));
        assert_eq!(
            (f.speed.as_str(), f.speed_by.as_str()),
            ("classical", "event name")
        );
        let f = p.decide(
            None,
            Some("ICC INT"),
            Some("USCL Final Blitz T/B 2009"),
            None,
            Some(2009),
        );
        assert_eq!(f.speed.as_str(), "blitz");
        let f = p.decide(
            None,
            Some("ICC INT"),
            Some("US Chess League KO TB 2014"),
            None,
            Some(2014),
        );
        assert_eq!(f.speed.as_str(), "tiebreak");
        // An online series the name times stays timed.
        let f = p.decide(
            None,
            Some("chess.com INT"),
            Some("Titled Tue 4th Jan"),
            None,
            Some(2022),
        );
        assert_eq!(f.speed, Speed::Kind(EventKind::Blitz));
        // So does one with a time control.
        let f = p.decide(
            speed_class("180+0"),
            Some("lichess.org"),
            Some("Rated Blitz game"),
            None,
            Some(2022),
        );
        assert_eq!(f.speed, Speed::Class(TimeClass::Blitz));
    }

    #[test]
    fn no_clock_is_correspondence() {
        let p = EventPatterns::built_in();
        for (tc, site, event) in [
            (
                "-",
                "https://lichess.org/abcdefgh",
                "Rated Correspondence game",
            ),
            (" - ", "lichess.org", "Casual Correspondence game"),
            ("1/86400", "Chess.com", "Let's Play!"),
        ] {
            let f = p.decide(speed_class(tc), Some(site), Some(event), None, Some(2020));
            assert_eq!(f.speed, Speed::Class(TimeClass::Correspondence), "{tc}");
            assert_eq!(f.speed_by, SpeedEvidence::TimeControl);
        }
        assert_eq!(speed_class("?"), None);
        assert_eq!(speed_class(""), None);
    }

    #[test]
    fn over_the_board_games_nothing_describes_are_presumed_classical() {
        let p = EventPatterns::built_in();
        for (site, event, year) in [
            (Some("Linares ESP"), Some("Linares"), Some(1994)),
            (None, Some("Hastings 7475"), Some(1974)),
            (Some("Wijk aan Zee NED"), None, Some(2001)),
            // Play unknown (no site, no known event, 1992 or later): not
            // online either, presumed too.
            (None, Some("Some Open"), Some(2005)),
        ] {
            let f = p.decide(None, site, event, None, year);
            assert_eq!(f.speed, Speed::Class(TimeClass::Classical), "{event:?}");
            assert_eq!(f.speed_by, SpeedEvidence::Presumed, "{event:?}");
            assert_eq!(f.speed_by.as_str(), "presumed");
        }
        // Evidence of classical play is no presumption.
        let f = p.decide(
            speed_class("5400+30"),
            Some("Linares ESP"),
            Some("Linares"),
            None,
            Some(2010),
        );
        assert_eq!(f.speed_by, SpeedEvidence::TimeControl);
    }

    #[test]
    fn a_knock_out_pattern_is_refused_with_a_bad_exception() {
        assert!(
            EventPatterns::from_toml("pattern = []\n[[knockout]]\nregex = 'KO'\nunless = '('")
                .is_err()
        );
        let p =
            EventPatterns::from_toml("pattern = []\n[[knockout]]\nregex = 'KO'\nunless = 'Team'")
                .unwrap();
        assert!(p.is_knockout("Rapid KO", None));
        assert!(!p.is_knockout("Team KO", None));
    }
}
