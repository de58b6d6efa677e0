//! Each game's play and speed against a labelled list of real event
//! series and sites (issue 29): `tests/data/event-series-format.tsv`, 185
//! rows from the PGN Mentor collection — every series of 500 or more
//! games among them — each with its true format and a public source.
//!
//! For an event row, every example name is decided as a game without a
//! TimeControl tag, in the first and the last year the series was seen:
//! beside a venue's `Site` its play must be the label, and with no `Site`
//! an over-the-board series must not read as online. Its speed must be the
//! label unless the label is `mixed` (a name that covers several speeds).
//! The list's convention for simultaneous exhibitions is `classical` and
//! for blindfold events `rapid` (the rate they were played at); remis
//! keeps them apart as `simul` and `blindfold`, and the test accepts that.
//! A `tiebreak` label (tie-break games at rapid, blitz or armageddon rates,
//! which one the tags do not say) takes `tiebreak`, `rapid` or `blitz`.
//! A row of some games of a series only (a knock-out match's games 1–2, or
//! 3 and later: issue 47) gives their commonest `Round` tags, and each
//! example is decided with each of them.
//! For a site row, every example is decided as a game of no known event.
//! No online game is classical for want of evidence: with nothing to say
//! its speed, an online game's speed is `unknown` (issue 47).

use remis_core::replay::TimeClass;
use remis_table::format::{EventKind, EventPatterns, Play, Speed, SpeedEvidence};

struct Row {
    kind: String,
    examples: Vec<String>,
    /// `Round` tags to decide each example with; `[None]`: any round.
    rounds: Vec<Option<String>>,
    years: (i16, i16),
    play: Play,
    speed: Option<String>,
}

fn rows() -> Vec<Row> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/event-series-format.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (kind, examples, years, play, speed, rounds) = (
        at("kind"),
        at("examples"),
        at("years"),
        at("play"),
        at("time_class"),
        at("rounds"),
    );
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let (first, last) = cells[years].split_once('-').unwrap();
            Row {
                kind: cells[kind].to_string(),
                examples: cells[examples].split(" | ").map(str::to_string).collect(),
                rounds: match cells.get(rounds).copied().unwrap_or("") {
                    "" => vec![None],
                    some => some.split(" | ").map(|r| Some(r.to_string())).collect(),
                },
                years: (first.parse().unwrap(), last.parse().unwrap()),
                play: match cells[play] {
                    "online" => Play::Online,
                    "over-the-board" => Play::OverTheBoard,
                    other => panic!("play {other}"),
                },
                speed: (cells[speed] != "mixed").then(|| cells[speed].to_string()),
            }
        })
        .collect()
}

fn speed_matches(decided: Speed, label: &str) -> bool {
    match decided {
        Speed::Kind(EventKind::Simul) => label == "classical",
        Speed::Kind(EventKind::Blindfold) => label == "rapid",
        Speed::Class(TimeClass::Rapid | TimeClass::Blitz) if label == "tiebreak" => true,
        Speed::Kind(EventKind::Rapid | EventKind::Blitz) if label == "tiebreak" => true,
        other => other.as_str() == label,
    }
}

#[test]
fn play_and_speed_agree_with_the_labelled_series() {
    let patterns = EventPatterns::default();
    let rows = rows();
    assert!(rows.len() >= 150, "{} rows", rows.len());
    // Issue 47: tie-breaks by name and by round, and rapid events by name.
    let tiebreaks = rows
        .iter()
        .filter(|r| r.speed.as_deref() == Some("tiebreak"));
    assert!(tiebreaks.filter(|r| r.rounds[0].is_some()).count() >= 3);
    let mut wrong = Vec::new();
    let mut checked = 0;
    for row in &rows {
        for (example, round) in row
            .examples
            .iter()
            .flat_map(|e| row.rounds.iter().map(move |r| (e, r.as_deref())))
        {
            for year in [row.years.0, row.years.1] {
                checked += 1;
                let decide = |site: Option<&str>, event: Option<&str>| {
                    patterns.decide(None::<TimeClass>, site, event, round, Some(year))
                };
                let (with_venue, without_site) = if row.kind == "event" {
                    (
                        decide(Some("Somewhere"), Some(example)),
                        decide(None, Some(example)),
                    )
                } else {
                    let f = decide(Some(example), None);
                    (f, f)
                };
                let play = with_venue.play.map(|(p, _)| p);
                if play != Some(row.play) {
                    wrong.push(format!(
                        "{example} {round:?} ({year}): play {play:?}, label {:?}",
                        row.play
                    ));
                }
                let bare = without_site.play.map(|(p, _)| p);
                if row.play == Play::OverTheBoard && bare == Some(Play::Online) {
                    wrong.push(format!("{example} ({year}): online without a site"));
                }
                if let Some(label) = &row.speed
                    && !speed_matches(with_venue.speed, label)
                {
                    wrong.push(format!(
                        "{example} {round:?} ({year}): speed {}, label {label}",
                        with_venue.speed.as_str()
                    ));
                }
                if row.play == Play::Online
                    && with_venue.speed == Speed::Class(TimeClass::Classical)
                    && with_venue.speed_by == SpeedEvidence::Presumed
                {
                    wrong.push(format!(
                        "{example} ({year}): online, classical by presumption"
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} decisions differ from the labels:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
