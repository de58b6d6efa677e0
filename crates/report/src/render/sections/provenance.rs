//! Methods, how to cite, provenance and the footer.

use super::*;

/// How to read the numbers; `audit` gives how many verdicts rest on a
/// presumption of the search's filter.
pub fn methods_section(h: &mut String, audit: &crate::analysis::audit::Audit) {
    h.push_str(
        "<section id=\"methods\">\n<h2>Methods</h2>\n\
         <p><strong>Endings.</strong> Every game is replayed move by move (shakmaty). A game ends at the first of: \
         checkmate, stalemate, a dead position (insufficient material, or no mate possible by any series of legal \
         moves, found by search: art. 5.2.2), fivefold repetition or the 75-move rule (9.6). A flag fall loses only \
         when the opponent could still mate (6.9, by search). A draw's <em>type</em> is the rule that ended it; a \
         draw recorded with no such rule in the moves and no other cause in the record (claim, timeout) is \
         <em>agreed</em>: “agreed” means no other cause was recorded or found, not that an offer was seen.</p>\n",
    );
    presumptions_paragraph(h, audit);
    h.push_str(
        "<p><strong>Whose games.</strong> Every figure counts one population, stated under its section's heading: \
         the lead population (one kind of play and one time class: over-the-board classical games where the data \
         hold any, else the format with the most games; its count is the headline's and the one How to cite \
         quotes), every game used (players, scoring, clocks, the audit: counts not kept apart by format), or every \
         game used compared by format (time control, online and over the board, coverage). \
         <code>--play all</code> makes every figure count every game used.</p>\n\
         <p><strong>What sample it is.</strong> A game whose White or Black has the surname its source file is \
         named after (<code>Tal.pgn</code>: “Tal, Mikhail”) is a collected player's game. Where at least half of the \
         lead population's games are, the table is a collection of players' files: it holds every game of the \
         collected players and of the others only their games against them, so a band's rate is mostly the \
         collected players' (who mostly became strong), and the page gives each band's share of their games; \
         otherwise it is a platform's export (online) or games of whole events.</p>\n\
         <p><strong>Rates.</strong> A rate is drawn games over used games, as recorded (<code>result</code>); games \
         whose record the Laws contradict are counted as recorded and listed under “Results the Laws contradict”. \
         A game's band is by default the players' mean rating, for games whose rating gap is at most 200 (so that a band \
         holds games between players of its strength, not mismatches: in a collection of one player's games the \
         lower-rated player's band would measure the gap); <code>--elo-basis min|average|both</code> and \
         <code>--max-gap</code> choose another definition, and the charts say which is in force. A rating is left out \
         of the bands when it is implausible for its system and year (an Elo before 1960 or outside 100–2900; a \
         platform's rating outside its range): such games are counted in the band table as “implausible rating”. \
         The rating system is the table's <code>ratings</code> column: a platform's own export carries its Glicko \
         ratings, a compiler's record of an online game (TWIC, pgnmentor) FIDE's.</p>\n\
         <p><strong>Intervals.</strong> 95% Wilson score intervals for proportions; for White's score, the Wilson \
         interval on the score as a share of the points (a little wide when games are drawn, never of zero \
         width). Cells with fewer than 30 games are greyed or left out of charts.</p>\n\
         <p><strong>Standardised for rating.</strong> The draw rate by year is also given standardised to one \
         band mix (direct standardisation): a year's rate is Σ w<sub>b</sub> p<sub>b</sub>, p<sub>b</sub> the draw \
         rate of rated band b that year and w<sub>b</sub> the band's share of the rated games of all years (the \
         standard, listed beside the chart). A band enters a year only with at least 30 games in it; the year is \
         standardised over the bands present, their weights scaled to sum to one, and the share of the standard \
         they hold is given; a year whose bands hold less than 80% of it is marked and not charted, since its rate \
         stands for another mix. The interval is rate ± 1.96 √V with V = Σ w<sub>b</sub>² q<sub>b</sub>(1 − \
         q<sub>b</sub>)/(n<sub>b</sub> + 4), q<sub>b</sub> = (x<sub>b</sub> + 2)/(n<sub>b</sub> + 4) (the \
         variance of a weighted sum of independent binomial proportions, each with the Agresti–Coull adjustment \
         so that a band with no draws, or only draws, is not taken as certain), cut at 0 and 100%. Bins of years \
         are standardised as one year is, and drawn as steps as wide as their years.</p>\n\
         <p><strong>Expected draws.</strong> A logistic regression of the draw on both players' ratings, fitted by \
         maximum likelihood (iteratively reweighted least squares, Newton's method) to the lead population's rated \
         games grouped in cells (50-point bins of the mean rating and of the gap, by year; a cell's covariates are \
         its games' mean rating and mean gap): logit P(draw) = β<sub>0</sub> + β<sub>1</sub>m + Σ \
         γ<sub>k</sub>(m − k)<sub>+</sub> + δ<sub>1</sub>g + δ<sub>2</sub>g² (+ a term per format when formats \
         are mixed), m the mean rating less 2000 and g the gap, per 100 points, knots k at the 5th, 27.5th, 50th, \
         72.5th and 95th percentiles of the games' mean rating (a knot is dropped when a piece of the spline \
         would hold fewer than 20 draws or 20 other results, whose slope would be noise or infinite). Logistic because it is smooth in the rating (a sparse \
         cell borrows strength from its neighbours) and keeps probabilities inside (0, 1). The year is left out \
         on purpose, so that the excess draws by year (observed − Σ n p) are what the ratings do not explain. \
         Standard errors from the inverse Fisher information; the excess's interval is normal, on Σ n p(1 − p) \
         (the observed draws' binomial variance under the model) plus gᵀVg (the expected draws' variance from \
         the coefficients, delta method, g = Σ n p(1 − p) x).</p>\n\
         <p><strong>Independence.</strong> The intervals treat games as independent. They are not: a player's \
         games share the player (a lichess export is a few accounts' games; a master database is one file per \
         player), and an event's games share the event. The intervals are therefore too narrow for claims about \
         players or events in general. Two kinds of interval allow for it. The draw rate's interval clustered by \
         player is a cluster-robust interval for games in pairs (Fafchamps and Gubert 2007; Cameron and Miller \
         2014): any two games that share a player, whatever the colours, may be correlated; it is never narrower \
         than the independent-games interval (see Players). The rule study's differences against controls and its \
         differences in differences have restricted wild cluster bootstrap intervals by event edition (the null \
         imposed, Webb weights, the test inverted; MacKinnon and Webb 2017, Cameron, Gelbach and Miller 2008), shown \
         only from the number of editions at which a coverage simulation at the data's own edition counts held its \
         level; its primary model's intervals likewise, from a simulation of the model's own design (see Rules \
         against draws).</p>\n\
         <p><strong>Online and over the board, and the time class.</strong> Decided for each game at \
         classification from the strongest evidence in its tags, and kept in the table with the tag that decided \
         it: play from the <code>Site</code> tag's platform, then the event's name (series known to be played over \
         the board or online; <code>data/event_patterns.toml</code>), then a <code>Site</code> naming a place, then \
         the date (no online play before 1992), else unknown; the time class from <code>TimeControl</code>, then \
         the event's name, then a knock-out event's round (games 3 and later of a match are tie-breaks), else \
         unknown online and classical by presumption over the board. The section Played and time class shows the games by each. Chess960 \
         and correspondence games are left out of every rate unless asked for, and counted under Coverage.</p>\n</section>\n",
    );
}

/// The Methods paragraph on presumptions: what the search's filter leaves
/// unsearched, how many verdicts of these data rest on it, and that
/// `--exact` leaves none (docs/rules.md, "Where remis searches").
fn presumptions_paragraph(h: &mut String, audit: &crate::analysis::audit::Audit) {
    let presumed = audit.presumed_alive + audit.presumed_mateable;
    h.push_str(
        "<p id=\"methods-presumptions\"><strong>Presumptions.</strong> The full search runs where a filter says it \
         can matter; a final position or flag fall it leaves unsearched (a side keeps a queen, rook or pawn in a \
         position without frozen pawns or forced lines) is presumed alive, or the opponent presumed able to mate. \
         A presumption lets a recorded result stand and never overturns one. ",
    );
    if presumed == 0 {
        h.push_str("No verdict in these data rests on one.");
    } else {
        let _ = write!(
            h,
            "Of the games used here, {} verdicts rest on one: {} final positions presumed alive and {} flag falls \
             presumed mateable (see Audit).",
            thousands(presumed),
            thousands(audit.presumed_alive),
            thousands(audit.presumed_mateable)
        );
    }
    h.push_str(
        " <code>remis classify --exact</code> (the full search on every final position and flag fall, at the \
         solver's own budget) leaves none, at about four times the time.</p>\n",
    );
}

/// A citation block for the page.
pub fn cite_section(h: &mut String, info: &PageInfo<'_>, stats: &DrawStats) {
    let year = info.generated.get(..4).unwrap_or("");
    let _ = write!(
        h,
        "<section id=\"cite\">\n<h2>How to cite</h2>\n<pre class=\"cite\">{title}. Draw report of {games} games, \
         made with {tool} on {date}. Inputs and their SHA-256 checksums: see Provenance.\n\n\
         @misc{{remis-report-{year},\n  title = {{{title}}},\n  note = {{Draw report of {games} games, made with {tool}}},\n  \
         year = {{{year}}},\n}}</pre>\n</section>\n",
        title = escape(info.title),
        games = thousands(stats.games),
        tool = escape(info.generated_by),
        date = escape(info.generated),
    );
}

/// Where the numbers came from: the program, the command, the inputs.
pub fn provenance_section(h: &mut String, info: &PageInfo<'_>) {
    let _ = write!(
        h,
        "<section id=\"provenance\">\n<h2>Provenance</h2>\n<p>Made by {} on {} (UTC) with the command \
         <code>{}</code>.</p>\n<p class=\"muted\" id=\"counts-from\">Counts {}.</p>\n",
        escape(info.generated_by),
        escape(info.generated),
        escape(info.command),
        escape(info.counts_from),
    );
    let s = &info.settings;
    let _ = writeln!(
        h,
        "<p class=\"muted\" id=\"settings\">Settings: event patterns <code>{:016x}</code>, catalogue <code>{}</code>, \
         player aliases <code>{:016x}</code> (FNV-1a checksums of their texts); rule-study bootstrap seed {}.</p>",
        s.patterns,
        s.catalogue
            .map_or("none (no --events)".to_string(), |c| format!("{c:016x}")),
        s.aliases,
        s.seed
    );
    let _ = write!(
        h,
        "<details><summary>Input tables ({})</summary><table><tr><th class=\"l\">Table</th><th>Bytes</th>\
         <th class=\"l\">SHA-256</th></tr>",
        info.inputs.len()
    );
    for input in info.inputs {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td class=\"l\"><code>{}</code></td></tr>",
            escape(&input.name),
            thousands(input.bytes),
            escape(
                input
                    .sha256
                    .as_deref()
                    .unwrap_or("not computed (--no-checksums)")
            )
        );
        let _ = write!(
            h,
            "<tr><td class=\"l made-by\" colspan=\"3\">{}</td></tr>",
            origin(input.made_by.as_ref())
        );
        if let Some(o) = &input.made_by {
            sources(h, &o.sources);
        }
    }
    h.push_str("</table></details>\n</section>\n");
}

/// Sources listed per input table; the rest are counted.
const SOURCES_LISTED: usize = 1000;

/// How a table was made, in words.
fn origin(made_by: Option<&TableOrigin>) -> String {
    let Some(o) = made_by else {
        return "Made by: not recorded (a table without a remis manifest).".to_string();
    };
    let mut out = format!("Made by remis {}", escape(&o.remis));
    match &o.run {
        Some((commit, command)) => {
            if !commit.is_empty() {
                let _ = write!(out, " (commit {})", escape(commit));
            }
            let _ = write!(out, " with <code>{}</code>", escape(command));
        }
        None => out.push_str(" (its command not recorded)"),
    }
    let _ = write!(out, ", from {} source(s):", o.sources.len());
    out
}

/// A table's sources, a row each under the table's row: path, bytes and
/// the SHA-256 computed while they were read.
fn sources(h: &mut String, sources: &[Source]) {
    for source in sources.iter().take(SOURCES_LISTED) {
        let _ = write!(
            h,
            "<tr class=\"source\"><td class=\"l\">↳ {}</td><td>{}</td><td class=\"l\"><code>{}</code></td></tr>",
            escape(&source.path),
            source.bytes.map_or("—".to_string(), thousands),
            escape(source.sha256.as_deref().unwrap_or("not recorded"))
        );
    }
    if sources.len() > SOURCES_LISTED {
        let _ = write!(
            h,
            "<tr class=\"source\"><td class=\"l\" colspan=\"3\">↳ and {} more</td></tr>",
            thousands((sources.len() - SOURCES_LISTED) as u64)
        );
    }
}

/// The page's footer.
pub fn footer(h: &mut String, info: &PageInfo<'_>) {
    let _ = write!(
        h,
        "<footer>Made by {} — remis replays every game with shakmaty and classifies it by the FIDE Laws of Chess. \
         This page needs no network and no scripts.</footer>\n</body>\n</html>\n",
        escape(info.generated_by)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_count_the_presumed_verdicts_and_name_exact() {
        let methods = |presumed_alive, presumed_mateable| {
            let audit = crate::analysis::audit::Audit {
                presumed_alive,
                presumed_mateable,
                ..Default::default()
            };
            let mut h = String::new();
            methods_section(&mut h, &audit);
            h
        };
        let h = methods(12_345, 67);
        let p = &h[h
            .find("id=\"methods-presumptions\"")
            .expect("the paragraph")..];
        let p = &p[..p.find("</p>").expect("closed")];
        let rest = format!(
            "{} verdicts rest on one: {} final positions presumed alive and 67 flag falls",
            thousands(12_412),
            thousands(12_345)
        );
        assert!(p.contains(&rest), "{p}");
        assert!(p.contains("<code>remis classify --exact</code>"), "{p}");
        // Inside Methods, before the next paragraph and the section's end.
        assert!(h.find("<h2>Methods</h2>") < h.find("methods-presumptions"));
        assert!(h.find("methods-presumptions") < h.find("<strong>Whose games.</strong>"));
        let none = methods(0, 0);
        assert!(
            none.contains("No verdict in these data rests on one."),
            "{none}"
        );
        assert!(!none.contains("verdicts rest on one:"), "{none}");
    }

    #[test]
    fn provenance_lists_every_input_with_its_checksum() {
        let inputs = [
            InputInfo {
                name: "a/games.parquet".into(),
                bytes: 1234,
                sha256: Some("ab".repeat(32)),
                made_by: Some(TableOrigin {
                    remis: "0.1.0".into(),
                    run: Some(("abc123".into(), "remis classify x.pgn --dedup".into())),
                    sources: vec![Source {
                        path: "/data/x.pgn".into(),
                        bytes: Some(99),
                        sha256: Some("cd".repeat(32)),
                    }],
                }),
            },
            InputInfo {
                name: "b <x>.parquet".into(),
                bytes: 5,
                sha256: None,
                made_by: None,
            },
        ];
        let info = PageInfo {
            title: "t",
            inputs: &inputs,
            filters: &[],
            generated_by: "remis test",
            command: "remis report a b",
            generated: "2026-11-25 12:00",
            counts_from: "from the rows",
            year_bins: YearBins::NONE,
            short_draws: [20, 30],
            chart_bands: 8,
            band_basis: "",
            band_axis: "",
            settings: Settings {
                patterns: 0xfeed,
                catalogue: None,
                aliases: 1,
                seed: 2005,
            },
        };
        let mut h = String::new();
        provenance_section(&mut h, &info);
        assert!(h.contains(&"ab".repeat(32)));
        assert!(h.contains("<td>1\u{202f}234</td>"), "{h}");
        assert!(h.contains("b &lt;x&gt;.parquet"), "names are escaped");
        assert!(h.contains("not computed"));
        assert!(h.contains("<code>remis report a b</code>"));
        assert!(h.contains("commit abc123"));
        assert!(h.contains("<code>remis classify x.pgn --dedup</code>"));
        assert!(
            h.contains(&format!(
                "↳ /data/x.pgn</td><td>99</td><td class=\"l\"><code>{}</code>",
                "cd".repeat(32)
            )),
            "{h}"
        );
        assert!(h.contains("not recorded"));
        assert!(h.contains("seed 2005"));
        assert!(h.contains("000000000000feed"));
    }
}
