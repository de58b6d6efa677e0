//! Events and the rules they were played under ("Sofia rules", 3-1-0
//! scoring), read from a TOML file such as `data/events.toml`.

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

/// One entry of the events file.
#[derive(Debug, Deserialize)]
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
    control: bool,
    #[allow(dead_code)]
    source: Option<String>,
}

#[derive(Debug, Deserialize)]
struct EventsFile {
    event: Vec<Entry>,
}

/// The rules an edition of an event was played under.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRules {
    pub series: String,
    pub no_draw_offers: bool,
    pub min_moves_before_draw: Option<u16>,
    pub scoring: String,
    /// A comparison event without rules against short draws.
    pub control: bool,
}

impl EventRules {
    /// Under a rule against short or agreed draws.
    pub fn restricts_draws(&self) -> bool {
        self.no_draw_offers || self.min_moves_before_draw.is_some()
    }
}

pub struct EventCatalogue {
    entries: Vec<(Regex, Option<Regex>, [i16; 2], EventRules)>,
}

fn case_insensitive(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(pattern)
        .case_insensitive(true)
        .build()
        .map_err(|e| format!("{pattern}: {e}"))
}

/// `data/events.toml` as shipped, built into the binary.
pub const BUILT_IN_TOML: &str = include_str!("../../data/events.toml");

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
                if e.control && (e.no_draw_offers || e.min_moves_before_draw.is_some()) {
                    return Err(format!(
                        "{}: a control event cannot restrict draws",
                        e.series
                    ));
                }
                Ok((
                    case_insensitive(&e.event)?,
                    e.site.as_deref().map(case_insensitive).transpose()?,
                    e.years,
                    EventRules {
                        series: e.series,
                        no_draw_offers: e.no_draw_offers,
                        min_moves_before_draw: e.min_moves_before_draw,
                        scoring: e.scoring.unwrap_or_else(|| "1-1/2-0".into()),
                        control: e.control,
                    },
                ))
            })
            .collect::<Result<_, String>>()?;
        Ok(EventCatalogue { entries })
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
        let c = EventCatalogue::from_toml(include_str!("../../data/events.toml")).unwrap();
        let mtel = c
            .rules("4th M-Tel Masters", Some("Sofia BUL"), Some(2008))
            .unwrap();
        assert!(mtel.no_draw_offers && !mtel.control);
        assert_eq!(
            c.rules("Mtel Masters", None, Some(2005)).unwrap().series,
            "M-Tel Masters"
        );
        assert!(c.rules("MTel Masters", None, Some(2004)).is_none());
        let bilbao = c
            .rules("Grand Slam Final Masters", Some("Bilbao ESP"), Some(2010))
            .unwrap();
        assert_eq!(bilbao.scoring, "3-1-0");
        let sao_paulo = c.rules(
            "4th Final Masters",
            Some("Sao Paulo/Bilbao BRA/ESP"),
            Some(2011),
        );
        assert_eq!(sao_paulo.unwrap().series, "Bilbao Final Masters");
        assert!(
            c.rules("Corus A", Some("Wijk aan Zee NED"), Some(2007))
                .unwrap()
                .control
        );
        assert!(
            c.rules("74th Tata Steel GMA", Some("Wijk aan Zee NED"), Some(2012))
                .unwrap()
                .control
        );
        assert!(
            c.rules("Corus B", Some("Wijk aan Zee NED"), Some(2007))
                .is_none()
        );
        assert!(c.rules("GM", Some("Biel SUI"), Some(2009)).unwrap().control);
        assert!(c.rules("MTO Open", Some("Biel SUI"), Some(2009)).is_none());
        assert!(
            c.rules("WCh", Some("Mexico City MEX"), Some(2007))
                .unwrap()
                .control
        );
        assert!(
            c.rules("World Championship", Some("Sofia"), Some(2007))
                .is_none()
        );
        assert!(c.rules("Open", None, Some(2007)).is_none());
        let bad =
            "[[event]]\nseries='x'\nevent='x'\nyears=[1,2]\ncontrol=true\nno_draw_offers=true";
        assert!(EventCatalogue::from_toml(bad).is_err());
    }
}
