//! How concentrated the games are on few players, and the identities merged.

use super::*;

/// Players: how concentrated the games are, and the draw rate's interval
/// clustered by player beside the Wilson interval.
pub fn players_section(h: &mut String, report: &crate::analysis::Report) {
    // Of the lead population where the summary keeps its players apart;
    // else of every game used, and the population line under the heading
    // ([`crate::render::html::whose`]) says so.
    let stats = if report.players_of_lead {
        &report.aggregate.stats
    } else {
        &report.aggregate.all
    };
    players_section_of(h, &report.players, stats);
}

fn players_section_of(
    h: &mut String,
    c: &crate::analysis::players::Concentration,
    stats: &DrawStats,
) {
    h.push_str("<section id=\"players\">\n<h2>Players</h2>\n");
    if c.players == 0 {
        h.push_str(
            "<p class=\"caption\">No game names its players: nothing to show.</p>\n</section>\n",
        );
        return;
    }
    let overall = stats.overall();
    let _ = writeln!(
        h,
        "<p class=\"caption\">Games are not independent when the same players recur. {} named players \
         play the {} games counted; half of them have at most {} game{}, {} have one. The most frequent 1% of \
         players hold {} of the game sides (two a game).{}</p>",
        thousands(c.players),
        thousands(c.games),
        c.median_games.unwrap_or(0),
        if c.median_games == Some(1) { "" } else { "s" },
        thousands(c.one_game_players),
        pct(c.top_percent_share),
        if c.unnamed_sides > 0 {
            format!(
                " {} game sides name no player and belong to no one here.",
                thousands(c.unnamed_sides)
            )
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        h,
        "<table id=\"by-player\"><tr><th class=\"l\">Draw rate</th><th>Rate</th><th>95% interval</th><th class=\"l\">Interval treats as independent</th></tr>\
         <tr><td class=\"l\">Wilson</td><td>{rate}</td><td>{}</td><td class=\"l\">games</td></tr>\
         <tr><td class=\"l\">Clustered by player</td><td>{rate}</td><td>{}</td><td class=\"l\">groups of players ({} of them)</td></tr></table>",
        interval(&overall),
        c.by_player.map_or_else(
            || format!(
                "– (fewer than {} groups of players)",
                crate::analysis::players::MIN_CLUSTERS
            ),
            |(lo, hi)| range_percent(lo, hi)
        ),
        thousands(c.clusters as u64),
        rate = pct(overall.rate()),
    );
    // The CSV lists every spelling merged into a player, with its games.
    let mut columns = rate_columns(&[
        Col::Both("Most frequent players", "player"),
        Col::Page("Games"),
        Col::Both("Share of games", "share_of_games"),
        Col::Csv("games"),
        Col::Csv("draws"),
    ]);
    columns.push(Col::Csv("spellings"));
    let mut table = PageTable::with_layout("most-frequent-players.csv", &columns, Layout::wide());
    for p in &c.top {
        let mut row = vec![p.name.clone(), format!("{:.4}", p.share)];
        row.extend(share_cells(&p.games));
        row.push(
            c.merges
                .iter()
                .find(|(name, _)| name == &p.name)
                .map(|(_, s)| crate::analysis::players::spelling_list(s, " | "))
                .unwrap_or_default(),
        );
        table.row_markup(
            "",
            &format!(
                "<td class=\"l\">{}</td><td>{}</td><td>{}</td>{}<td>{}</td>",
                escape(&p.name),
                thousands(p.games.n),
                pct(Some(p.share)),
                share_cell(&p.games),
                interval(&p.games)
            ),
            row,
        );
    }
    let mut notes = String::new();
    if c.merged_players > 0 {
        let _ = write!(
            notes,
            "<details id=\"player-merges\"><summary>One identity per player: {} players are spelled in more \
             than one way</summary><p class=\"caption\">A player is the surname and the first initial, accents \
             folded, hyphens read as spaces, and transliterations read through a built-in table \
             (<code>data/player_aliases.toml</code>: Kortschnoj is Korchnoi); names without a comma (online \
             user names) stay whole. People who share that key are kept apart by their FIDE IDs where the tags \
             carry them; by written-out given names, abbreviations and middle initials that differ (“Adams, \
             Michael” and “Adams, Mark”, “Georgiev,Ki” and “Georgiev,Kr”, “Petrosian, Tigran V” and “Petrosian,TL”; \
             “Sergei” and “Sergey” are one); by mean ratings 400 points or more apart in the same years; and by \
             games twenty years or more apart, unless both periods are rated within 200 points (a player back \
             after decades). A spelling that could be several people goes to the one with at least 90% of their \
             games, and otherwise stays apart. A player is shown by her most frequent spelling that writes the \
             given name out if it has 20 games or a tenth of her most frequent spelling's, else by her most \
             frequent spelling. The merges among the {} most frequent players, each spelling with its \
             games:</p><ul>",
            thousands(c.merged_players),
            crate::analysis::players::MERGES_LISTED
        );
        for (name, spellings) in &c.merges {
            let _ = write!(
                notes,
                "<li>{}: {}</li>",
                escape(name),
                escape(&crate::analysis::players::spelling_list(spellings, " · "))
            );
        }
        notes.push_str("</ul></details>\n");
    }
    if c.folded_players > 0 {
        let _ = writeln!(
            notes,
            "<p class=\"caption\">Bounded: past {} players, the {} with the fewest games are counted \
             together, not by name; the table and the clustered interval still cover every game.</p>",
            thousands(crate::analysis::players::PLAYER_CAP as u64),
            thousands(c.folded_players)
        );
    }
    table.finish_with(h, &notes);
    h.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::players::{Concentration, Frequent};
    use crate::analysis::table::CubeRow;

    #[test]
    fn the_most_frequent_players_table_has_its_csv_after_the_notes() {
        let stats = DrawStats::from_cube(&[CubeRow {
            band: Band::Rated(25),
            year: Some(2000),
            is_draw: true,
            draw_type: None,
            moves: None,
            games: 10,
        }]);
        let c = Concentration {
            games: 10,
            players: 3,
            folded_players: 1,
            top: vec![
                Frequent {
                    name: "Smith, J. <Jr>".into(),
                    games: Proportion::new(4, 8),
                    share: 0.8,
                },
                Frequent {
                    name: "Tal, M.".into(),
                    games: Proportion::new(1, 2),
                    share: 0.2,
                },
            ],
            merges: vec![(
                "Tal, M.".into(),
                vec![
                    (Some("Tal, M.".into()), 1),
                    (Some("Tal, Mikhail".into()), 1),
                ],
            )],
            merged_players: 1,
            median_games: Some(2),
            ..Concentration::default()
        };
        let mut h = String::new();
        players_section_of(&mut h, &c, &stats);
        let table = h
            .find("<th class=\"l\">Most frequent players</th>")
            .unwrap();
        let row = h.find("<td class=\"l\">Smith, J. &lt;Jr&gt;</td><td>8</td><td>80.0%</td>");
        let (merges, folded) = (
            h.find("id=\"player-merges\"").unwrap(),
            h.find("Bounded: past").unwrap(),
        );
        let csv = h.find("download=\"most-frequent-players.csv\"").unwrap();
        assert!(row.is_some_and(|r| table < r && r < merges), "{h}");
        assert!(merges < folded && folded < csv);
        // The CSV: a player's share of games, then her games and draws.
        assert!(h[csv..].contains("player%2Cshare_of_games%2Cgames%2Cdraws%2Cdraw_rate"));
        assert!(h[csv..].contains("%22Tal%2C%20M.%22%2C0.2000%2C2%2C1%2C0.5000"));
        // Every spelling merged, with its games.
        assert!(
            h[csv..].contains("%22Tal%2C%20M.%20%281%29%20%7C%20Tal%2C%20Mikhail%20%281%29%22")
        );
        assert!(h.ends_with("</section>\n"));
    }
}
