//! Results the Laws contradict, and the coverage of every row read.

use super::*;

pub fn coverage(h: &mut String, coverage: &[(String, u64)], all: &DrawStats, basis: &str) {
    let total: u64 = coverage.iter().map(|(_, n)| n).sum();
    h.push_str(
        "<section id=\"coverage\">\n<h2>Coverage</h2>\n<p class=\"caption\">Every row of the input tables, and why rows were left out of the rates. \
         Games without both ratings are kept, in the “unrated” band, unless a minimum rating is set; so are games in no band, \
         counted in the second table.</p>\n",
    );
    let mut table = PageTable::new(
        "coverage.csv",
        &[
            Col::Both("Rows", "reason"),
            Col::Both("Games", "rows"),
            Col::Page("Share"),
        ],
    );
    table.page_row(&["Read".into(), thousands(total), "100%".into()]);
    for (reason, n) in coverage {
        let label = if reason == crate::analysis::table::USED {
            "Used in the rates"
        } else {
            reason.as_str()
        };
        table.row(
            &[
                escape(label),
                thousands(*n),
                pct(Proportion::new(*n, total).rate()),
            ],
            vec![reason.clone(), n.to_string()],
        );
    }
    table.finish(h);
    // Games used in the rates but in no rating band, by why.
    let unbanded: Vec<(Band, u64)> = [Band::Unrated, Band::Apart, Band::Implausible]
        .into_iter()
        .map(|b| (b, all.by_band.get(&b).map_or(0, |p| p.n)))
        .collect();
    let used = all.overall().n;
    let _ = writeln!(
        h,
        "<p class=\"caption\" id=\"unbanded\">Used games in no rating band (a game's band is {}): they count in \
         every rate but the bands'.</p>",
        escape(basis)
    );
    let mut table = PageTable::new(
        "unbanded.csv",
        &[
            Col::Both("Used games in no band", "reason"),
            Col::Both("Games", "games"),
            Col::Page("Share of used"),
        ],
    );
    for (band, n) in unbanded {
        let why = match band {
            Band::Unrated => "unrated (a rating missing)",
            Band::Apart => "players further apart than the band definition allows",
            _ => "a rating implausible for its system and year",
        };
        table.row(
            &[
                escape(why),
                thousands(n),
                pct(Proportion::new(n, used).rate()),
            ],
            vec![why.to_string(), n.to_string()],
        );
    }
    table.finish(h);
    h.push_str("</section>\n");
}

/// One example game: players, event, date, result and a link to the game
/// where the `Site` tag is one.
pub(super) fn example_item(
    example: &crate::analysis::audit::Example,
    explained: Option<usize>,
) -> String {
    let text = |v: &Option<String>| escape(v.as_deref().unwrap_or("?"));
    let game = format!(
        "{} – {}, {} {} ({})",
        text(&example.white),
        text(&example.black),
        text(&example.event),
        text(&example.date),
        text(&example.result)
    );
    let link = match example.site.as_deref() {
        Some(site) if site.starts_with("https://") || site.starts_with("http://") => {
            format!(" <a href=\"{}\">{}</a>", escape(site), escape(site))
        }
        _ => format!(
            " <span class=\"muted\">{} game {}</span>",
            escape(&example.source),
            example.game_no
        ),
    };
    let fen = example
        .final_fen
        .as_deref()
        .map(|f| format!(" <code>{}</code>", escape(f)))
        .unwrap_or_default();
    let why = explained.map_or_else(
        || {
            format!(
                " <span class=\"muted\">(<code>{}</code>)</span>",
                escape(&crate::render::explain::command(
                    &example.source,
                    u64::from(example.game_no)
                ))
            )
        },
        |i| format!(" <a class=\"why\" href=\"#explain-{i}\">why: the trail</a>"),
    );
    format!("<li>{game}{link}{fen}{why}</li>")
}

/// The trails of the listed games, each at its anchor (`explain-N`).
fn explanations(h: &mut String, trails: &[remis_core::explain::Trail]) {
    if trails.is_empty() {
        return;
    }
    h.push_str(
        "<section id=\"explanations\">\n<h2>Why: the trails of the listed games</h2>\n<p class=\"caption\">Each \
         game above, replayed again from its source (<code>remis explain</code>): the positions the verdict rests on, \
         with the article of the Laws, and for a flag fall or a dead position what the search proved.</p>\n",
    );
    for (i, trail) in trails.iter().enumerate() {
        let _ = writeln!(
            h,
            "<div class=\"explanation\" id=\"explain-{i}\"><h3>{} – {} <small>({} game {})</small></h3>{}</div>",
            escape(trail.white.as_deref().unwrap_or("?")),
            escape(trail.black.as_deref().unwrap_or("?")),
            escape(&trail.source),
            trail.game_no,
            crate::render::explain::fragment(trail, &format!("explain-{i}-"))
        );
    }
    h.push_str("</section>\n");
}

pub fn audit_section(
    h: &mut String,
    audit: &crate::analysis::audit::Audit,
    trails: &[remis_core::explain::Trail],
) {
    let explained = |e: &crate::analysis::audit::Example| {
        trails
            .iter()
            .position(|t| t.source == e.source && t.game_no == u64::from(e.game_no))
    };
    let _ = write!(
        h,
        "<section id=\"audit\">\n<h2>Results the Laws contradict</h2>\n<p class=\"caption\">Of the {} games used, \
         the recorded results the replay shows to be wrong under the FIDE Laws: a game ends at the first checkmate, \
         stalemate, dead position, fivefold repetition or 75-move draw (5.1.1, 5.2, 9.6), and a flag fall loses only \
         when the opponent could still mate by some series of legal moves (6.9, decided by search). Lichess, for one, \
         awards wins on time without that test.</p>\n\
         <table><tr><th class=\"l\">Contradiction</th><th>Games</th></tr>",
        thousands(audit.games)
    );
    for (mismatch, finding) in &audit.mismatches {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td></tr>",
            escape(mismatch.label()),
            thousands(finding.games)
        );
    }
    let _ = write!(
        h,
        "<tr><td class=\"l\">Moves played after a dead position (5.2.2)</td><td>{}</td></tr></table>\n\
         <p>Dead final positions: {} ({} found only by search); dead before the last move: {}. \
         Searches that gave up (nothing concluded): {}.</p>\n",
        thousands(audit.past_dead_position.games),
        thousands(audit.dead_final),
        thousands(audit.dead_by_search),
        thousands(audit.dead_mid_game),
        thousands(audit.search_unknown)
    );
    if audit.presumed_alive + audit.presumed_mateable > 0 {
        let _ = writeln!(
            h,
            "<p id=\"presumed\">Not searched, presumed: {} final positions taken as alive, and {} flag falls \
             after which the opponent was taken as able to mate, because a side keeps a queen, rook or pawn in a \
             position without frozen pawns or forced lines. A presumption is not a proof: it lets a recorded \
             win on time stand and leaves a draw by agreement as agreed, but it never overturns a record. \
             <code>remis classify --exact</code> (the full search on every final position and flag fall, at the \
             solver's own budget) leaves none: each of them is searched instead.</p>",
            thousands(audit.presumed_alive),
            thousands(audit.presumed_mateable)
        );
    }
    for (label, finding) in audit.findings() {
        if finding.examples.is_empty() {
            continue;
        }
        let _ = write!(
            h,
            "<details><summary>{} — examples</summary><ul class=\"examples\">",
            escape(label)
        );
        for example in &finding.examples {
            h.push_str(&example_item(example, explained(example)));
        }
        h.push_str("</ul></details>\n");
    }
    h.push_str("</section>\n");
    explanations(h, trails);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::table::CubeRow;

    #[test]
    fn presumptions_are_counted_on_the_page_only_when_there_are_some() {
        let page = |presumed_alive, presumed_mateable| {
            let audit = crate::analysis::audit::Audit {
                presumed_alive,
                presumed_mateable,
                ..Default::default()
            };
            let mut h = String::new();
            audit_section(&mut h, &audit, &[]);
            h
        };
        let h = page(12_345, 67);
        let p = &h[h.find("id=\"presumed\"").expect("the paragraph")..];
        let alive = format!("{} final positions taken as alive", thousands(12_345));
        assert!(p.contains(&alive), "{p}");
        assert!(p.contains("67 flag falls"), "{p}");
        // The one word that removes them is named.
        assert!(p.contains("<code>remis classify --exact</code>"), "{p}");
        assert!(p.find("</p>") < p.find("</section>"));
        // A table searched everywhere presumes nothing: no paragraph.
        assert!(!page(0, 0).contains("presumed"));
    }

    #[test]
    fn coverage_counts_the_used_games_in_no_band() {
        let row = |band, games| CubeRow {
            band,
            year: Some(2000),
            is_draw: false,
            draw_type: None,
            moves: None,
            games,
        };
        let all = DrawStats::from_cube(&[
            row(Band::Rated(25), 60),
            row(Band::Unrated, 7),
            row(Band::Apart, 30),
            row(Band::Implausible, 3),
        ]);
        let mut h = String::new();
        coverage(
            &mut h,
            &[("used".to_string(), 100), ("invalid game".to_string(), 2)],
            &all,
            "the mean",
        );
        let unbanded = &h[h.find("id=\"unbanded\"").unwrap()..];
        for (why, n) in [
            ("unrated", "7"),
            ("further apart", "30"),
            ("implausible", "3"),
        ] {
            let at = unbanded.find(why).unwrap_or_else(|| panic!("{why}"));
            let cells = &unbanded[at..];
            assert!(cells.contains(&format!("<td>{n}</td>")), "{why}");
        }
        assert!(h.contains("invalid game"));
    }
}
