//! Wins, draws and losses with White's score against FIDE's expectation, and
//! the draw rate by rating and rating gap.

use super::*;

pub(super) fn score(c: &OutcomeCounts) -> String {
    c.white_score().map_or("–".into(), |(s, lo, hi)| {
        format!("{:.3} ({:.3}–{:.3})", s, lo, hi)
    })
}

pub(super) fn expected(c: &OutcomeCounts) -> String {
    c.expected_white_score()
        .map_or("–".into(), |e| format!("{e:.3}"))
}

/// Win / draw / loss and White's score by band, observed and expected.
pub fn outcomes(
    h: &mut String,
    o: &Outcomes,
    scheme: &BandScheme,
    bins: YearBins,
    systems: &BTreeMap<RatingSystem, u64>,
) -> anyhow::Result<()> {
    let bands: Vec<Band> = o
        .by_band
        .iter()
        .filter(|(b, c)| c.games() >= MIN_CELL_GAMES && b.is_rated())
        .map(|(&b, _)| b)
        .collect();
    let glicko = systems.keys().any(|s| *s != RatingSystem::Elo);
    let labels: Vec<String> = bands
        .iter()
        .map(|&b| charts::short_label(scheme, b))
        .collect();
    let observed = Line {
        label: "White's score (observed)".into(),
        points: bands.iter().map(|b| o.by_band[b].white_score()).collect(),
        dashed: false,
        dash: false,
        color: None,
    };
    let predicted = Line {
        label: "Expected from ratings (FIDE 8.1(b))".into(),
        points: bands
            .iter()
            .map(|b| o.by_band[b].expected_white_score().map(|e| (e, e, e)))
            .collect(),
        dashed: true,
        dash: false,
        color: None,
    };
    let svg = charts::lines_by_category(
        "chart-score",
        "White's score by rating band, observed and expected",
        "Line chart: White's mean score per game in each rating band (a win 1, a draw one half), \
         with 95 percent intervals, and the score expected from the players' rating difference \
         by FIDE's table 8.1(b), dashed.",
        &labels,
        &[observed, predicted],
        ("Rating band", "White's score"),
        false,
    )?;
    let _ = write!(
        h,
        "<section id=\"outcomes\">\n<h2>Wins, draws and losses</h2>\n<p class=\"caption\">White's wins, draws and \
         Black's wins in each band; White's score (a win 1, a draw ½) with a 95% interval, next to the score the \
         rating difference predicts by the FIDE rating regulations' table 8.1(b) (differences over 400 count as \
         400), averaged over the band's rated games. Bands with fewer than {MIN_CELL_GAMES} games are left out of \
         the chart and greyed in the table.{}</p>\n<figure>{svg}</figure>\n",
        if glicko {
            " Table 8.1(b) is FIDE's table for Elo ratings; for these online Glicko ratings the expected score is \
             indicative only (Glicko-2 predicts with its own formula, which needs the rating deviations)."
        } else {
            " Table 8.1(b) applies to Elo ratings, as these are."
        }
    );
    let mut table = PageTable::new(
        "outcomes-by-band.csv",
        &[
            Col::Both("Band", "band"),
            Col::Both("Games", "games"),
            Col::Both("White wins", "white_wins"),
            Col::Both("Draws", "draws"),
            Col::Both("Black wins", "black_wins"),
            Col::Both("White's score (95%)", "white_score"),
            Col::Csv("ci95_low"),
            Col::Csv("ci95_high"),
            Col::Both("Expected", "expected_score"),
        ],
    );
    let rows = o
        .by_band
        .iter()
        .map(|(&b, c)| (scheme.label(b), c))
        .chain(std::iter::once(("All".to_string(), &o.overall)));
    for (label, c) in rows {
        let (s, lo, hi) = c.white_score().map_or(
            (String::new(), String::new(), String::new()),
            |(s, l, h)| (format!("{s:.4}"), format!("{l:.4}"), format!("{h:.4}")),
        );
        let small = if c.games() < MIN_CELL_GAMES {
            " class=\"small\""
        } else {
            ""
        };
        table.row_markup(
            small,
            &format!(
                "<td class=\"l\">{}</td><td>{}</td>{}{}{}<td>{}</td><td>{}</td>",
                escape(&label),
                thousands(c.games()),
                share_cell(&c.white_win_share()),
                share_cell(&c.draw_share()),
                share_cell(&c.black_win_share()),
                score(c),
                expected(c)
            ),
            vec![
                label.clone(),
                c.games().to_string(),
                c.white_wins.to_string(),
                c.draws.to_string(),
                c.black_wins.to_string(),
                s,
                lo,
                hi,
                c.expected_white_score()
                    .map_or(String::new(), |e| format!("{e:.4}")),
            ],
        );
    }
    table.finish(h);
    // By band and year, as a compact table of White's score, with the years
    // binned as in band × year (never more than 40 columns).
    let mut binned: BTreeMap<(Band, i16), OutcomeCounts> = BTreeMap::new();
    for (&(band, year), c) in &o.by_band_year {
        binned.entry((band, bins.bin(year))).or_default().absorb(*c);
    }
    let years: Vec<i16> = {
        let mut y: Vec<i16> = binned.keys().map(|&(_, y)| y).collect();
        y.sort_unstable();
        y.dedup();
        y
    };
    if years.len() > 1 {
        let table = |h: &mut String, years: &[i16]| {
            h.push_str("<table><thead><tr><th class=\"l\">Band</th>");
            for y in years {
                let _ = write!(h, "<th>{}</th>", bins.label(*y));
            }
            h.push_str("</tr></thead>");
            for &band in o.by_band.keys() {
                let _ = write!(
                    h,
                    "<tr><th class=\"l\">{}</th>",
                    escape(&scheme.label(band))
                );
                for y in years {
                    match binned.get(&(band, *y)) {
                        Some(c) if c.games() > 0 => {
                            let (s, lo, hi) = c.white_score().unwrap_or((0.0, 0.0, 0.0));
                            let class = if c.games() < MIN_CELL_GAMES {
                                " class=\"small\""
                            } else {
                                ""
                            };
                            let _ = write!(
                                h,
                                "<td{class} title=\"95% interval {lo:.3}–{hi:.3}; expected {}\">{s:.2}<br>n={}</td>",
                                expected(c),
                                c.games()
                            );
                        }
                        _ => h.push_str("<td></td>"),
                    }
                }
                h.push_str("</tr>");
            }
            h.push_str("</table>");
        };
        h.push_str(
            "<details id=\"score-by-year\"><summary>White's score by band and year</summary><div class=\"wide screen-only\">",
        );
        table(h, &years);
        h.push_str("</div><div class=\"print-only\">");
        for part in years.chunks(PRINTED_YEAR_COLUMNS) {
            table(h, part);
        }
        h.push_str("</div></details>\n");
    }
    h.push_str("</section>\n");
    Ok(())
}

/// Draw rate by mean rating × rating gap, as a heat table.
pub fn rating_gap(h: &mut String, gap: &RatingGap, scheme: &BandScheme) {
    let bins = games::GAP_EDGES.len() + 1;
    let bands: Vec<Band> = {
        let mut b: Vec<Band> = gap.cells.keys().map(|&(band, _)| band).collect();
        b.sort();
        b.dedup();
        b
    };
    let sampled: u64 = gap.systems.values().sum();
    let systems: Vec<String> = gap
        .systems
        .iter()
        .map(|(s, n)| {
            format!(
                "{} ({}%)",
                s.label(),
                (100 * n).checked_div(sampled).unwrap_or(0)
            )
        })
        .collect();
    let lichess = gap.systems.contains_key(&RatingSystem::LichessGlicko2)
        || gap.systems.contains_key(&RatingSystem::ChessComGlicko);
    let _ = write!(
        h,
        "<section id=\"rating-gap\">\n<h2>Draw rate by rating and rating gap</h2>\n<p class=\"caption\">Rows: the mean \
         rating of the two players; columns: the difference between them. After Jeff Sonas's ChessBase series and \
         chess-db's draw-rate table, which show the draw rate rising with strength and falling with the gap. \
         Ratings: {}.{} Cells with fewer than {MIN_CELL_GAMES} games are greyed.</p>\n<div class=\"wide\"><table>\
         <tr><th class=\"l\">Mean rating</th>",
        escape(&systems.join(", ")),
        if lichess {
            " Online Glicko ratings run on another scale than FIDE Elo; compare shapes, not levels."
        } else {
            ""
        }
    );
    for bin in 0..bins {
        let _ = write!(h, "<th>gap {}</th>", gap_label(bin));
    }
    h.push_str("</tr>\n");
    let mut csv = Vec::new();
    for &band in &bands {
        let _ = write!(
            h,
            "<tr><th class=\"l\">{}</th>",
            escape(&scheme.label(band))
        );
        for bin in 0..bins {
            if let Some(p) = gap.cells.get(&(band, bin)) {
                let mut row = vec![scheme.label(band), gap_label(bin)];
                row.extend(share_cells(p));
                csv.push(row);
            }
            match gap.cells.get(&(band, bin)) {
                None => h.push_str("<td></td>"),
                Some(p) if p.n < MIN_CELL_GAMES => {
                    let _ = write!(h, "<td class=\"small\">{}<br>n={}</td>", pct(p.rate()), p.n);
                }
                Some(p) => heat_cell(h, p),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table></div>\n");
    // The long form of the heat map (a row per cell, with its counts and
    // interval), not a copy of the page's grid.
    h.push_str(&csv_download(
        "draw-rate-by-rating-and-gap.csv",
        &share_header(&["mean_rating", "gap"]),
        &csv,
    ));
    // The same as lines: the largest mean-rating bands across the gap.
    let mut charted: Vec<Band> = bands
        .iter()
        .copied()
        .filter(|b| {
            (0..bins)
                .filter(|bin| {
                    gap.cells
                        .get(&(*b, *bin))
                        .is_some_and(|p| p.n >= MIN_CELL_GAMES)
                })
                .count()
                >= 2
        })
        .collect();
    let size = |b: &Band| -> u64 {
        (0..bins)
            .filter_map(|bin| gap.cells.get(&(*b, bin)))
            .map(|p| p.n)
            .sum()
    };
    charted.sort_by_key(|b| std::cmp::Reverse(size(b)));
    charted.truncate(6);
    charted.sort();
    let labels: Vec<String> = (0..bins).map(gap_label).collect();
    let lines: Vec<Line> = charted
        .iter()
        .map(|band| Line {
            label: format!("mean {}", scheme.label(*band)),
            points: (0..bins)
                .map(|bin| charts::rate_point(gap.cells.get(&(*band, bin))))
                .collect(),
            dashed: false,
            dash: false,
            color: None,
        })
        .collect();
    if let Ok(svg) = charts::lines_by_category(
        "chart-gap",
        "Draw rate by rating gap, for the largest mean-rating bands",
        "Line chart: draw rate against the rating difference of the players, one line per band of \
         their mean rating (ordered colours, low to high), with 95 percent intervals.",
        &labels,
        &lines,
        ("Rating gap |White − Black|", "Draw rate"),
        true,
    ) && !svg.is_empty()
    {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
    h.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(white_wins: u64, draws: u64, black_wins: u64) -> OutcomeCounts {
        OutcomeCounts {
            white_wins,
            draws,
            black_wins,
            ..OutcomeCounts::default()
        }
    }

    #[test]
    fn a_band_under_the_minimum_is_greyed_and_all_bands_close_the_table() {
        let mut o = Outcomes::default();
        o.by_band.insert(Band::Rated(25), counts(40, 40, 20));
        o.by_band.insert(Band::Rated(26), counts(2, 1, 0));
        o.overall = counts(42, 41, 20);
        let mut h = String::new();
        outcomes(
            &mut h,
            &o,
            &BandScheme::width(100),
            YearBins::NONE,
            &BTreeMap::new(),
        )
        .unwrap();
        let table = &h[h.find("<th class=\"l\">Band</th>").unwrap()..];
        let (big, small, all) = (
            table.find("<tr><td class=\"l\">2500").unwrap(),
            table
                .find("<tr class=\"small\"><td class=\"l\">2600")
                .unwrap(),
            table
                .find("<tr><td class=\"l\">All</td><td>103</td>")
                .unwrap(),
        );
        assert!(big < small && small < all);
        let csv = &h[h.find("download=\"outcomes-by-band.csv\"").unwrap()..];
        assert!(csv.contains(
            "band%2Cgames%2Cwhite_wins%2Cdraws%2Cblack_wins%2Cwhite_score%2Cci95_low%2Cci95_high%2Cexpected_score%0A"
        ));
        // White's score in the band of 100 games: (40 + 20) / 100.
        assert!(csv.contains("%2C100%2C40%2C40%2C20%2C0.6000%2C"));
    }
}
