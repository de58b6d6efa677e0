//! Events and the rules they were played under ("Sofia rules", 3-1-0
//! scoring), read from a TOML file such as `data/events.toml`.

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

/// One entry of the events file (fields documented at its head).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    series: String,
    event: String,
    site: Option<String>,
    years: [i16; 2],
    #[serde(default)]
    no_draw_offers: bool,
    min_moves_before_draw: Option<u16>,
    scoring: Option<String>,
    #[serde(default)]
    arbiter_only: bool,
    #[serde(default)]
    armageddon: bool,
    regime: Option<String>,
    confidence: Option<String>,
    #[serde(default)]
    control: bool,
    /// The kind of event, where its games cannot show it (a team event's
    /// games look like a Swiss event's): "round_robin", "swiss", "team",
    /// "match" or "knock_out".
    kind: Option<String>,
    /// Where the rule is documented: required, a public reference.
    source: String,
}

/// The kind of event an edition is: controls are matched to rule editions
/// of the same kind, since a closed round robin of invited players and an
/// open Swiss or a team event draw differently for reasons of their own.
#[derive(
    Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd, serde::Serialize, serde::Deserialize,
)]
pub enum EventType {
    RoundRobin,
    Swiss,
    Team,
    Match,
    KnockOut,
}

impl EventType {
    pub const ALL: [EventType; 5] = [
        EventType::RoundRobin,
        EventType::Swiss,
        EventType::Team,
        EventType::Match,
        EventType::KnockOut,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            EventType::RoundRobin => "round_robin",
            EventType::Swiss => "swiss",
            EventType::Team => "team",
            EventType::Match => "match",
            EventType::KnockOut => "knock_out",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            EventType::RoundRobin => "round robin",
            EventType::Swiss => "Swiss",
            EventType::Team => "team",
            EventType::Match => "match",
            EventType::KnockOut => "knock-out",
        }
    }

    /// An edition's kind from its games, where the catalogue does not
    /// state it: two players are a match; no more players than the rounds
    /// plus one, a round robin (a double round robin holds half as many);
    /// more, with most games between players who met more than once (the
    /// mini-matches of a knock-out, its rounds numbered "1.1", "1.2"), a
    /// knock-out; else a Swiss event.
    pub fn from_games(players: u32, last_round: u32, games: u64, repeated_pair_games: u64) -> Self {
        if players <= 2 {
            EventType::Match
        } else if players <= last_round + 1 {
            EventType::RoundRobin
        } else if repeated_pair_games * 2 > games {
            EventType::KnockOut
        } else {
            EventType::Swiss
        }
    }
}

#[derive(Debug, Deserialize)]
struct EventsFile {
    event: Vec<Entry>,
}

/// The kind of rule an edition was played under.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd, serde::Serialize)]
pub enum Regime {
    /// No rule against draws: a control.
    None,
    /// "Sofia rules": no draw offers at all; draws only by the Laws or
    /// through the arbiter.
    Sofia,
    /// No draw offers before a move number.
    MinMoves,
    /// Scoring that pays less for a draw (3-1-0) with no rule on offers.
    Scoring,
    /// A drawn game is followed by an armageddon game.
    Armageddon,
}

impl Regime {
    pub const ALL: [Regime; 5] = [
        Regime::None,
        Regime::Sofia,
        Regime::MinMoves,
        Regime::Scoring,
        Regime::Armageddon,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Regime::None => "none",
            Regime::Sofia => "sofia",
            Regime::MinMoves => "min_moves",
            Regime::Scoring => "scoring",
            Regime::Armageddon => "armageddon",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Regime::None => "No rule against draws (controls)",
            Regime::Sofia => "No draw offers (Sofia rules)",
            Regime::MinMoves => "No draw offers before move N",
            Regime::Scoring => "3-1-0 scoring only",
            Regime::Armageddon => "Armageddon after a draw",
        }
    }

    /// What a draw recorded with no rule visible in the moves and no other
    /// cause in the record (`draw_type` "agreed") is under this regime.
    pub const fn agreed_means(self) -> &'static str {
        match self {
            Regime::Sofia => {
                "not an agreement: no offer is allowed, so a draw with nothing in the record is one the arbiter \
                 approved, or a repetition claimed in a way the record does not show (a claim with a written, \
                 unplayed move; a repetition the moves recorded do not complete)"
            }
            Regime::MinMoves => {
                "an agreement after the move limit, or before it a draw the arbiter approved or a claim the \
                 record does not show"
            }
            Regime::None | Regime::Scoring | Regime::Armageddon => {
                "mostly an agreement (offer and acceptance); also claims the record does not show"
            }
        }
    }

    /// Under some rule or incentive against draws.
    pub fn restricts(self) -> bool {
        self != Regime::None
    }

    /// Whether the rule is against draw offers (none at all, or none
    /// before a move): under it an early agreed draw contradicts the rule.
    pub fn restricts_offers(self) -> bool {
        matches!(self, Regime::Sofia | Regime::MinMoves)
    }
}

/// The rules an edition of an event was played under.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRules {
    pub series: String,
    pub regime: Regime,
    pub no_draw_offers: bool,
    pub min_moves_before_draw: Option<u16>,
    pub arbiter_only: bool,
    pub armageddon: bool,
    pub scoring: String,
    /// The source says the rule held ("confirmed") or it is inferred.
    pub confirmed: bool,
    /// The kind of event, when the catalogue states it.
    pub kind: Option<EventType>,
    pub source: String,
}

impl EventRules {
    /// A comparison edition without rules against draws.
    pub fn control(&self) -> bool {
        self.regime == Regime::None
    }
}

pub struct EventCatalogue {
    entries: Vec<(Regex, Option<Regex>, [i16; 2], EventRules)>,
    /// A hash of the TOML text it was read from.
    source_hash: u64,
}

fn case_insensitive(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(pattern)
        .case_insensitive(true)
        .build()
        .map_err(|e| format!("{pattern}: {e}"))
}

/// `data/events.toml` as shipped, built into the binary.
pub const BUILT_IN_TOML: &str = include_str!("../../../../data/events.toml");

impl EventCatalogue {
    /// The catalogue built into remis (`data/events.toml`).
    pub fn built_in() -> EventCatalogue {
        EventCatalogue::from_toml(BUILT_IN_TOML).expect("the built-in event catalogue parses")
    }

    pub fn from_toml(text: &str) -> Result<EventCatalogue, String> {
        let file: EventsFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let entries = file
            .event
            .into_iter()
            .map(|e| {
                let restricts = e.no_draw_offers
                    || e.min_moves_before_draw.is_some()
                    || e.armageddon
                    || e.scoring.as_deref().is_some_and(|s| s != "1-1/2-0");
                if e.control && restricts {
                    return Err(format!(
                        "{}: a control event cannot restrict draws",
                        e.series
                    ));
                }
                let derived = if e.armageddon {
                    Regime::Armageddon
                } else if e.no_draw_offers {
                    Regime::Sofia
                } else if e.min_moves_before_draw.is_some() {
                    Regime::MinMoves
                } else if restricts {
                    Regime::Scoring
                } else {
                    Regime::None
                };
                let regime = match e.regime.as_deref() {
                    None => derived,
                    Some(name) => Regime::ALL
                        .into_iter()
                        .find(|r| r.as_str() == name)
                        .ok_or_else(|| format!("{}: unknown regime \"{name}\"", e.series))?,
                };
                if regime != derived {
                    return Err(format!(
                        "{} {:?}: regime \"{}\" does not match its rule fields ({})",
                        e.series,
                        e.years,
                        regime.as_str(),
                        derived.as_str()
                    ));
                }
                let kind = match e.kind.as_deref() {
                    None => None,
                    Some(name) => Some(
                        EventType::ALL
                            .into_iter()
                            .find(|k| k.as_str() == name)
                            .ok_or_else(|| format!("{}: unknown kind \"{name}\"", e.series))?,
                    ),
                };
                if e.source.trim().is_empty() {
                    return Err(format!("{} {:?}: no source", e.series, e.years));
                }
                Ok((
                    case_insensitive(&e.event)?,
                    e.site.as_deref().map(case_insensitive).transpose()?,
                    e.years,
                    EventRules {
                        series: e.series,
                        regime,
                        no_draw_offers: e.no_draw_offers,
                        min_moves_before_draw: e.min_moves_before_draw,
                        arbiter_only: e.arbiter_only,
                        armageddon: e.armageddon,
                        scoring: e.scoring.unwrap_or_else(|| "1-1/2-0".into()),
                        confirmed: e.confidence.as_deref() != Some("inferred"),
                        kind,
                        source: e.source,
                    },
                ))
            })
            .collect::<Result<_, String>>()?;
        Ok(EventCatalogue {
            entries,
            source_hash: remis_core::fnv::fnv1a(text.as_bytes()),
        })
    }

    /// Identifies the catalogue file: equal texts, equal hashes.
    pub fn source_hash(&self) -> u64 {
        self.source_hash
    }

    /// Whether some entry's event pattern matches this event name (at some
    /// site and year): only such events can enter a rule study.
    pub fn names_event(&self, event: &str) -> bool {
        self.entries.iter().any(|(name, ..)| name.is_match(event))
    }

    /// The rules of the first entry matching a game's event, site and year.
    pub fn rules(&self, event: &str, site: Option<&str>, year: Option<i16>) -> Option<&EventRules> {
        let year = year?;
        self.entries
            .iter()
            .find(|(ev, st, [from, to], _)| {
                (*from..=*to).contains(&year)
                    && ev.is_match(event)
                    && st
                        .as_ref()
                        .is_none_or(|re| site.is_some_and(|s| re.is_match(s)))
            })
            .map(|(_, _, _, rules)| rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_catalogue_matches_inconsistent_names() {
        let c = EventCatalogue::built_in();
        let mtel = c
            .rules("4th M-Tel Masters", Some("Sofia BUL"), Some(2008))
            .unwrap();
        assert_eq!(mtel.regime, Regime::Sofia);
        assert!(!mtel.source.contains("shared") && mtel.source.contains("http"));
        assert_eq!(
            c.rules("Mtel Masters", Some("Sofia BUL"), Some(2005))
                .unwrap()
                .series,
            "M-Tel Masters"
        );
        assert!(
            c.rules("MTel Masters", Some("Sofia BUL"), Some(2004))
                .is_none()
        );
        // A blindfold side event is not the classical event.
        assert!(
            c.rules("Mtel - Blindfold", Some("Sofia BUL"), Some(2007))
                .is_none()
        );
        assert!(
            c.rules("Corus A", Some("Wijk aan Zee NED"), Some(2007))
                .unwrap()
                .control()
        );
        assert!(
            c.rules("Corus B", Some("Wijk aan Zee NED"), Some(2007))
                .is_none()
        );
        assert!(c.rules("Open", None, Some(2007)).is_none());
    }

    #[test]
    fn every_entry_has_a_public_source_and_a_consistent_regime() {
        // from_toml refuses a regime that contradicts the rule fields and an
        // empty source; no entry may cite a file of this project.
        let text = BUILT_IN_TOML;
        let file: EventsFile = toml::from_str(text).unwrap();
        assert!(file.event.len() >= 12);
        for e in &file.event {
            assert!(
                !e.source.contains("../")
                    && !e.source.contains("shared/")
                    && !e.source.contains(".pgn"),
                "{}: cites a local file",
                e.series
            );
        }
        EventCatalogue::from_toml(text).unwrap();
        let bad = "[[event]]\nseries='x'\nevent='x'\nyears=[1,2]\ncontrol=true\nno_draw_offers=true\nsource='s'";
        assert!(EventCatalogue::from_toml(bad).is_err());
        let contradictory =
            "[[event]]\nseries='x'\nevent='x'\nyears=[1,2]\nregime='sofia'\nsource='s'";
        assert!(EventCatalogue::from_toml(contradictory).is_err());
    }

    #[test]
    fn a_series_that_changed_its_rules_is_in_the_catalogue() {
        let c = EventCatalogue::built_in();
        let olympiad = |year| {
            c.rules("38th Olympiad", Some("Dresden GER"), Some(year))
                .or_else(|| c.rules("Olympiad", None, Some(year)))
                .map(|r| (r.series.clone(), r.regime))
        };
        // Some series must have both kinds of editions.
        let mut series_regimes: std::collections::BTreeMap<String, Vec<Regime>> =
            std::collections::BTreeMap::new();
        for (_, _, _, r) in &c.entries {
            series_regimes
                .entry(r.series.clone())
                .or_default()
                .push(r.regime);
        }
        let changed = series_regimes
            .values()
            .filter(|rs| rs.contains(&Regime::None) && rs.iter().any(|r| r.restricts()))
            .count();
        assert!(changed >= 3, "{changed} series with a before and an after");
        let _ = olympiad(2008);
    }
}
