//! The format audit: per label (kind of play × speed), the games by the
//! evidence that decided them and the largest event series, so that a
//! reader can check the labels the figures are split by.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::format::{csv_download, escape, thousands};
use crate::analysis::format_audit::{FormatAudit, Label, SERIES_KEPT};
use crate::analysis::table::{LeadFormat, Play};

/// Series listed per label on the page (the CSV has all kept).
const SERIES_SHOWN: usize = 4;

/// A label's games, and its games by what decided play and speed.
type LabelEvidence<'a> = (u64, BTreeMap<&'a str, u64>, BTreeMap<&'a str, u64>);

pub fn format_audit_section(h: &mut String, audit: &FormatAudit) {
    if audit.evidence.is_empty() {
        return;
    }
    let mut by_label: BTreeMap<&Label, LabelEvidence> = BTreeMap::new();
    for ((label, play_by, speed_by), &n) in &audit.evidence {
        let entry = by_label.entry(label).or_default();
        entry.0 += n;
        *entry.1.entry(play_by.as_str()).or_insert(0) += n;
        *entry.2.entry(speed_by.as_str()).or_insert(0) += n;
    }
    let mut labels: Vec<_> = by_label.into_iter().collect();
    labels.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(b.0)));
    let _ = write!(
        h,
        "<section id=\"format-audit\">\n<h2>How each game's format was decided</h2>\n<p class=\"caption\">\
         Every game's kind of play and speed are decided at classify time from the strongest evidence in its tags and \
         kept in the table (<code>play</code>, <code>play_by</code>, <code>speed</code>, <code>speed_by</code>): \
         play from a <code>Site</code> naming a platform, then the event's name (known series), then a <code>Site</code> \
         naming a place, then the date (before 1992); speed from <code>TimeControl</code>, then the event's name, \
         then a knock-out event's round (games 3 and later of a match: tie-breaks), else unknown online and \
         classical by presumption (<code>presumed</code>) otherwise. Per label, the used games by the evidence that decided them, and the largest event series \
         (event names without their dates; the {SERIES_KEPT} largest of each label are kept per table).</p>\n\
         <div class=\"wide\"><table><tr><th class=\"l\">Label</th><th>Games</th><th class=\"l\">Play decided by</th>\
         <th class=\"l\">Speed decided by</th><th class=\"l\">Largest series</th></tr>"
    );
    let words = |m: &BTreeMap<&str, u64>| {
        let mut v: Vec<(&str, u64)> = m.iter().map(|(k, n)| (*k, *n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        v.iter()
            .map(|(k, n)| format!("{} {}", escape(k), thousands(*n)))
            .collect::<Vec<_>>()
            .join("; ")
    };
    for (label, (games, play_by, speed_by)) in &labels {
        let series = largest(audit, label);
        let listed: Vec<String> = series
            .iter()
            .take(SERIES_SHOWN)
            .map(|(s, n)| format!("{} ({})", escape(s), thousands(*n)))
            .collect();
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}, {}</td><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>",
            label.0.as_str(),
            escape(&label.1),
            thousands(*games),
            words(play_by),
            words(speed_by),
            listed.join("; ")
        );
    }
    h.push_str("</table></div>\n");
    let mut rows = Vec::new();
    for ((label, play_by, speed_by), n) in &audit.evidence {
        rows.push(vec![
            label.0.as_str().to_string(),
            label.1.clone(),
            "evidence".to_string(),
            format!("{play_by} / {speed_by}"),
            n.to_string(),
        ]);
    }
    for (label, _) in &labels {
        for (s, n) in largest(audit, label) {
            rows.push(vec![
                label.0.as_str().to_string(),
                label.1.clone(),
                "series".to_string(),
                s.to_string(),
                n.to_string(),
            ]);
        }
    }
    // The CSV lists the evidence behind each label and every series in
    // full (the page shows the largest): another table than the page's.
    h.push_str(&csv_download(
        "format-audit.csv",
        &["play", "speed", "kind", "what", "games"],
        &rows,
    ));
    h.push_str("</section>\n");
}

/// How many of the lead games (over-the-board classical) are classical by
/// evidence (a time control, an event's name) and how many by presumption
/// (`speed_by` `presumed`: nothing in their tags said otherwise), in a
/// sentence for the band × year table (issue 47). `None` when the lead
/// figures are of another format or no game is presumed.
pub fn presumption_note(audit: &FormatAudit, lead: &LeadFormat) -> Option<String> {
    let classical = remis_table::schema::TimeClass::Classical.as_str();
    if lead.play != Some(Play::OverTheBoard) || lead.speed.as_deref() != Some(classical) {
        return None;
    }
    let (mut evidence, mut presumed) = (0u64, 0u64);
    for (((play, speed), _, speed_by), &n) in &audit.evidence {
        if *play == Play::OverTheBoard && speed == classical {
            if speed_by == PRESUMED {
                presumed += n;
            } else {
                evidence += n;
            }
        }
    }
    let all = evidence + presumed;
    (presumed > 0).then(|| {
        format!(
            "Of these {} over-the-board classical games, {} are classical by evidence (a time control or the \
             event's name) and {} ({:.1}%) by presumption: nothing in their tags said otherwise \
             (the table's <code>speed_by</code> is <code>presumed</code>, so that a notebook can leave them \
             out).",
            thousands(all),
            thousands(evidence),
            thousands(presumed),
            100.0 * presumed as f64 / all as f64
        )
    })
}

/// The `speed_by` of a game classical for want of other evidence.
const PRESUMED: &str = "presumed";

/// A label's series, largest first (ties by name).
fn largest<'a>(audit: &'a FormatAudit, label: &Label) -> Vec<(&'a str, u64)> {
    let mut v: Vec<(&str, u64)> = audit
        .series
        .get(label)
        .map(|m| m.iter().map(|(s, n)| (s.as_str(), *n)).collect())
        .unwrap_or_default();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::table::Play;

    #[test]
    fn each_label_lists_its_evidence_and_largest_series() {
        let blitz = (Play::Online, "blitz".to_string());
        let classical = (Play::OverTheBoard, "classical".to_string());
        let audit = FormatAudit {
            evidence: [
                (
                    (blitz.clone(), "site platform".into(), "event name".into()),
                    900,
                ),
                (
                    (blitz.clone(), "event name".into(), "event name".into()),
                    100,
                ),
                (
                    (classical.clone(), "site venue".into(), "default".into()),
                    50,
                ),
            ]
            .into(),
            series: [
                (
                    blitz.clone(),
                    [
                        ("titled tuesday".to_string(), 990),
                        ("pro league".into(), 10),
                    ]
                    .into(),
                ),
                (classical, [("tata steel".to_string(), 50)].into()),
            ]
            .into(),
        };
        let mut h = String::new();
        format_audit_section(&mut h, &audit);
        let online = h.find("online, blitz").expect("the online label");
        let otb = h
            .find("over the board, classical")
            .expect("the classical label");
        assert!(online < otb, "largest label first");
        assert!(h.contains("site platform 900; event name 100"));
        assert!(h.contains("titled tuesday (990); pro league (10)"));
        assert!(h.contains("site venue 50"));
    }

    #[test]
    fn the_lead_games_presumed_classical_are_counted_apart() {
        let classical = (Play::OverTheBoard, "classical".to_string());
        let evidence =
            |speed_by: &str, n| ((classical.clone(), "site venue".into(), speed_by.into()), n);
        let audit = FormatAudit {
            evidence: [
                evidence("presumed", 750),
                evidence("event name", 200),
                evidence("time control", 50),
                (
                    (
                        (Play::Online, "unknown".into()),
                        "site platform".into(),
                        "nothing".into(),
                    ),
                    9,
                ),
            ]
            .into(),
            ..FormatAudit::default()
        };
        let lead = LeadFormat {
            play: Some(Play::OverTheBoard),
            speed: Some("classical".into()),
        };
        let note = presumption_note(&audit, &lead).expect("a note");
        assert!(note.contains("Of these 1\u{202f}000 over-the-board classical games, 250 are classical by evidence"), "{note}");
        assert!(note.contains("750 (75.0%) by presumption"), "{note}");
        // Of another lead format, or with nothing presumed, nothing to say.
        let blitz = LeadFormat {
            play: Some(Play::Online),
            speed: Some("blitz".into()),
        };
        assert_eq!(presumption_note(&audit, &blitz), None);
        assert_eq!(presumption_note(&FormatAudit::default(), &lead), None);
    }
}
