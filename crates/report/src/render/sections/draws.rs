//! The draw-rate sections: the headline, draw rate by year and by band, how
//! the draws happened, how long drawn games lasted, band × year.

use super::*;

pub(super) fn band_table(h: &mut String, stats: &DrawStats, scheme: &BandScheme) {
    let mut table = PageTable::with_layout(
        "draw-rate-by-band.csv",
        &rate_columns(&[
            Col::Both("Band", "band"),
            Col::Both("Games", "games"),
            Col::Both("Draws", "draws"),
        ]),
        Layout::wide(),
    );
    for (band, p) in &stats.by_band {
        let small = if p.n < MIN_CELL_GAMES {
            " class=\"small\""
        } else {
            ""
        };
        let mut row = vec![scheme.label(*band)];
        row.extend(share_cells(p));
        table.row_markup(
            "",
            &format!(
                "<td class=\"l\">{}</td><td>{}</td><td>{}</td><td{small}>{}</td><td{small}>{}</td>",
                escape(&scheme.label(*band)),
                thousands(p.n),
                thousands(p.successes),
                pct(p.rate()),
                interval(p)
            ),
            row,
        );
    }
    table.finish(h);
    h.push_str("</section>\n");
}

pub(super) fn draw_type_table(h: &mut String, stats: &DrawStats, scheme: &BandScheme) {
    let kinds: Vec<DrawType> = DrawType::ALL
        .into_iter()
        .filter(|k| stats.draw_types.get(k).copied().unwrap_or(0) > 0)
        .collect();
    h.push_str("<div class=\"wide\"><table><tr><th class=\"l\">Band</th><th>Draws</th>");
    for k in &kinds {
        let _ = write!(
            h,
            "<th><span class=\"swatch\" style=\"background:{}\"></span>{}</th>",
            hex(draw_type_color(*k)),
            escape(k.label())
        );
    }
    h.push_str("</tr>");
    let mut rows: Vec<(String, &std::collections::BTreeMap<DrawType, u64>)> = stats
        .draw_types_by_band
        .iter()
        .map(|(b, m)| (scheme.label(*b), m))
        .collect();
    rows.push(("All bands".into(), &stats.draw_types));
    let mut csv = Vec::new();
    for (label, mix) in &rows {
        for k in &kinds {
            csv.push(vec![
                label.clone(),
                k.as_str().to_string(),
                mix.get(k).copied().unwrap_or(0).to_string(),
                mix.values().sum::<u64>().to_string(),
            ]);
        }
    }
    for (label, mix) in rows {
        let total: u64 = mix.values().sum();
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td>",
            escape(&label),
            thousands(total)
        );
        for k in &kinds {
            let n = mix.get(k).copied().unwrap_or(0);
            let p = Proportion::new(n, total);
            let _ = write!(h, "<td title=\"{} of {}\">{}</td>", n, total, pct(p.rate()));
        }
        h.push_str("</tr>");
    }
    h.push_str("</table></div>\n<p class=\"caption\">Shares of each band's draws.</p>\n");
    // The CSV is the long form of this table (a row per band and draw
    // type, with counts), not its copy: written apart from the page's.
    h.push_str(&csv_download(
        "draw-types-by-band.csv",
        &["band", "draw_type", "draws_of_type", "draws"],
        &csv,
    ));
    h.push_str("</section>\n");
}

pub fn heatmap(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    bins: YearBins,
    format: &str,
    note: Option<&str>,
) {
    let years = stats.years();
    let bands: Vec<Band> = stats.by_band.keys().copied().collect();
    let mut csv = Vec::new();
    for &band in &bands {
        for y in &years {
            if let Some(p) = stats.by_band_year.get(&(band, *y)) {
                let mut row = vec![scheme.label(band), bins.label(*y)];
                row.extend(share_cells(p));
                csv.push(row);
            }
        }
    }
    let _ = write!(
        h,
        "<section id=\"table\">\n<h2>Band × year{}</h2>\n<p class=\"caption\">Draw rate in each cell, with the number of games; \
         the colour deepens with the draw rate. Cells with fewer than {MIN_CELL_GAMES} games are greyed and marked “*”: \
         their rates say little.{}</p>\n<div class=\"wide screen-only\">",
        escape(format),
        note.map(|n| format!(" {n}")).unwrap_or_default()
    );
    let table = |h: &mut String, years: &[i16], total: bool| {
        heat_table(h, stats, scheme, bins, &bands, years, total)
    };
    table(h, &years, true);
    h.push_str("</div>\n");
    // On paper, the year columns in parts a page wide, each with the bands.
    h.push_str("<div class=\"print-only\">");
    let parts: Vec<&[i16]> = years.chunks(PRINTED_YEAR_COLUMNS).collect();
    for (i, part) in parts.iter().enumerate() {
        table(h, part, i + 1 == parts.len());
    }
    if parts.is_empty() {
        table(h, &[], true);
    }
    h.push_str("</div>\n");
    if !stats.no_year.is_empty() {
        let n: u64 = stats.no_year.values().map(|p| p.n).sum();
        let _ = writeln!(
            h,
            "<p class=\"caption\">{} games without a year are counted in the “All” column only.</p>",
            thousands(n)
        );
    }
    // The long form of the band × year tables (a row per cell, with its
    // counts and interval): one CSV for the screen's table and the
    // printed parts.
    h.push_str(&csv_download(
        "draw-rate-by-band-and-year.csv",
        &share_header(&["band", "years"]),
        &csv,
    ));
    h.push_str("</section>\n");
}

/// Year columns in one printed part of a wide table.
pub const PRINTED_YEAR_COLUMNS: usize = 10;

/// One band × year table: a row a band, a column a year of `years`, and
/// the band's "All" column when `total`.
pub(super) fn heat_table(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    bins: YearBins,
    bands: &[Band],
    years: &[i16],
    total: bool,
) {
    h.push_str("<table><thead><tr><th class=\"l\">Band</th>");
    for y in years {
        let _ = write!(h, "<th>{}</th>", bins.label(*y));
    }
    if total {
        h.push_str("<th class=\"total\">All</th>");
    }
    h.push_str("</tr></thead>");
    for &band in bands {
        let _ = write!(
            h,
            "<tr><th class=\"l\">{}</th>",
            escape(&scheme.label(band))
        );
        for y in years {
            match stats.by_band_year.get(&(band, *y)) {
                None => h.push_str("<td></td>"),
                Some(p) if p.n < MIN_CELL_GAMES => {
                    let _ = write!(
                        h,
                        "<td class=\"small\" title=\"{} games\">{}*<br>n={}</td>",
                        p.n,
                        pct(p.rate()),
                        p.n
                    );
                }
                Some(p) => heat_cell(h, p),
            }
        }
        if total {
            let all = stats.by_band[&band];
            let _ = write!(
                h,
                "<td class=\"total\"><strong>{}</strong><br>n={}</td>",
                pct(all.rate()),
                all.n
            );
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
}

/// A heatmap cell: the rate over its count, coloured by the rate, with the
/// interval as a tooltip.
pub(super) fn heat_cell(h: &mut String, p: &Proportion) {
    let rate = p.rate().unwrap_or(0.0);
    let color = if rate > 0.45 { "#fff" } else { "inherit" };
    let _ = write!(
        h,
        "<td style=\"background:{};color:{color}\" title=\"95% interval {}\">{}<br>n={}</td>",
        hex(heat(rate)),
        interval(p),
        pct(p.rate()),
        p.n
    );
}

/// The headline: the lead population's games, decisive, drawn, the draw
/// rate (the figures "How to cite" quotes), whose games they are, the
/// filters.
pub fn headline(h: &mut String, info: &PageInfo<'_>, report: &crate::analysis::Report) {
    let aggregate = &report.aggregate;
    let stats = &aggregate.stats;
    let overall = stats.overall();
    let decisive = stats.games - stats.draws;
    // The interval clustered by player is of the lead population when the
    // summary keeps its players apart (else of every game used): shown
    // here only then.
    let clustered = match report.players.by_player {
        Some((lo, hi)) if report.players_of_lead => {
            format!("<br>clustered by player {}", range_percent(lo, hi))
        }
        _ => String::new(),
    };
    let _ = write!(
        h,
        "<section id=\"headline\">\n<h2>Headline</h2>\n<div class=\"headline\">\
         <div>Games counted<b>{}</b></div><div>Decisive<b>{}</b></div><div>Drawn<b>{}</b></div>\
         <div>Draw rate<b>{}</b>95% interval {}{clustered}</div></div>\n",
        thousands(stats.games),
        thousands(decisive),
        thousands(stats.draws),
        pct(overall.rate()),
        interval(&overall),
    );
    let _ = writeln!(
        h,
        "<p id=\"population\"><strong>Whose games:</strong> {}. Every figure on this page counts these \
         games unless the line under a section's heading says otherwise (a section that compares kinds of \
         play or time classes, or counts every game used, says so there).</p>",
        escape(&aggregate.population.statement())
    );
    let _ = write!(h, "<p><strong>Filters:</strong> ");
    let mut filters: Vec<String> = info.filters.to_vec();
    filters.extend(info.year_bins.describe());
    h.push_str(&escape(&filters.join("; ")));
    h.push_str(". Intervals are 95% Wilson score intervals (games taken as independent; see Methods); the draw rate's second interval is clustered by player (see Players). Games that were invalid, unfinished or of an unsupported variant are not counted in any rate (see Coverage).</p>\n");
    play_headline(h, &report.format);
    if !aggregate.lead_is_all {
        let all = &aggregate.all;
        let _ = writeln!(
            h,
            "<p id=\"lead-format\"><strong>The figures are of {} only:</strong> {} of the {} \
             games used ({}), so that no figure mixes kinds of play or time classes. Of every game used: \
             {} drawn ({}); the table above and “Online and over the board” compare the formats; \
             <code>--play all</code> mixes them everywhere.</p>",
            escape(&aggregate.lead.label()),
            thousands(stats.games),
            thousands(all.games),
            pct((all.games > 0).then(|| stats.games as f64 / all.games as f64)),
            thousands(all.draws),
            pct(all.overall().rate()),
        );
    }
    h.push_str("</section>\n");
}

/// The draw rate by year, one line per band.
pub fn by_year(
    h: &mut String,
    info: &PageInfo<'_>,
    binned: &DrawStats,
    scheme: &BandScheme,
    format: &str,
) -> anyhow::Result<()> {
    let bins = info.year_bins;
    let years_svg = charts::rate_by_year(binned, scheme, info.chart_bands, &|y| bins.bin(y))?;
    section(
        h,
        "by-year",
        &format!("Draw rate by year{format}"),
        &format!(
            "One line per rating band (bands with at least 30 games; at most the eight largest), in \
         colours ordered from the lowest band to the highest. A game's band is {basis} (--elo-basis, \
         --max-gap). Shaded areas are 95% intervals; a year \
         is drawn only where its band has at least 30 games. The vertical axis runs from 0 to just \
         above the highest interval, fit to the data. Games in no band (unrated, players further apart, \
         a rating implausible for its system and year) are not on this axis: \
         see the band table. The band × year table below gives every number with its n. The chart and \
         the tables after it are of one format (named in the title: over-the-board classical games \
         where the data hold any), so that online blitz never floods a year of classical chess; \
         “Online and over the board” has every format, and --play all mixes them here.",
            basis = info.band_basis
        ),
        &years_svg,
    );
    if !years_svg.is_empty() {
        h.push_str(
            "<p class=\"caption\">The chart's numbers, every band and year with its n and interval: \
             the <a href=\"#table\">band × year table</a> and its CSV.</p>\n",
        );
    }
    standardised_by_year(h, binned, scheme, bins)?;
    h.push_str("</section>\n");

    Ok(())
}

/// The draw rate by year of every band pooled, beside the same rate
/// standardised to one band mix: a chart, and a table with its CSV.
pub(super) fn standardised_by_year(
    h: &mut String,
    binned: &DrawStats,
    scheme: &BandScheme,
    bins: YearBins,
) -> anyhow::Result<()> {
    let standardised = Standardised::of(binned);
    if standardised.by_year.is_empty() {
        return Ok(());
    }
    let svg = charts::rate_standardised(binned, &standardised, &|y| bins.bin(y))?;
    let mix: Vec<String> = standardised
        .weights
        .iter()
        .map(|(band, w)| format!("{} {}", scheme.label(*band), pct(Some(*w))))
        .collect();
    let _ = write!(
        h,
        "<h3 id=\"by-year-standardised\">Pooled and standardised for rating</h3>\n<p class=\"caption\">The pooled \
         rate of a year is its draws over its games, every game counted, whatever its band: when the mix of \
         rating levels shifts from year to year, so does the pooled rate, with no change in any band. The \
         standardised rate holds the mix fixed (direct standardisation): each rated band's draw rate that year, \
         weighted by the band's share of the rated games of all years here (the standard: {}). A band enters a \
         year only with at least {MIN_CELL_GAMES} games in it; a year is standardised over the bands present, \
         their weights scaled to sum to one, and the table says what share of the standard they hold. Years \
         whose bands hold less than {:.0}% of it are marked “*” and left out of the chart. Games in no band \
         (unrated, players apart, an implausible rating) count in the pooled rate only. The interval is a \
         normal one on the variance of the weighted sum (see Methods).</p>\n",
        escape(&mix.join(", ")),
        MIN_STANDARD_COVERAGE * 100.0
    );
    if svg.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"caption\"><em>No chart: in no year do bands with at least {MIN_CELL_GAMES} games hold \
             {:.0}% of the standard. The table gives every year's rates, marked.</em></p>",
            MIN_STANDARD_COVERAGE * 100.0
        );
    } else {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
    let mut table = PageTable::with_layout(
        "draw-rate-by-year-standardised.csv",
        &[
            Col::Both("Years", "years"),
            Col::Both("Games", "games"),
            Col::Csv("draws"),
            Col::Both("Pooled draw rate", "pooled_draw_rate"),
            Col::Page("95% interval"),
            Col::Csv("pooled_ci95_low"),
            Col::Csv("pooled_ci95_high"),
            Col::Both("Rated games in the bands present", "standardised_games"),
            Col::Both("Bands", "bands"),
            Col::Both("Share of the standard", "standard_share"),
            Col::Both("Standardised draw rate", "standardised_draw_rate"),
            Col::Page("95% interval"),
            Col::Csv("standardised_ci95_low"),
            Col::Csv("standardised_ci95_high"),
            Col::Csv("charted"),
        ],
        Layout::wide(),
    );
    for (&year, p) in &binned.by_year {
        let label = bins.label(year);
        let mut csv = share_cells(p);
        csv.remove(0);
        let mut row = vec![label.clone(), p.n.to_string()];
        row.extend(csv);
        let pooled_small = if p.n < MIN_CELL_GAMES {
            " class=\"small\""
        } else {
            ""
        };
        let mut cells = format!(
            "<td class=\"l\">{}</td><td>{}</td><td{pooled_small}>{}</td><td{pooled_small}>{}</td>",
            escape(&label),
            thousands(p.n),
            pct(p.rate()),
            interval(p)
        );
        match standardised.by_year.get(&year) {
            Some(s) => {
                let (small, mark) = if s.charted() {
                    ("", "")
                } else {
                    (" class=\"small\"", "*")
                };
                let _ = write!(
                    cells,
                    "<td>{}</td><td>{}</td><td{small}>{}</td><td{small}>{}{mark}</td><td{small}>{}</td>",
                    thousands(s.games),
                    s.bands,
                    pct(Some(s.coverage)),
                    pct(Some(s.rate)),
                    range_percent(s.low, s.high)
                );
                row.extend([
                    s.games.to_string(),
                    s.bands.to_string(),
                    format!("{:.4}", s.coverage),
                    format!("{:.4}", s.rate),
                    format!("{:.4}", s.low),
                    format!("{:.4}", s.high),
                    s.charted().to_string(),
                ]);
            }
            None => {
                cells.push_str("<td>0</td><td>0</td><td class=\"small\">0.0%</td><td class=\"small\">–</td><td class=\"small\">–</td>");
                row.extend(["0", "0", "0.0000", "", "", "", "false"].map(String::from));
            }
        }
        table.row_markup("", &cells, row);
    }
    table.finish_with(
        h,
        "<p class=\"caption\">“*”: the bands present that year hold less of the standard than the chart \
         asks; “–”: no band has enough games that year.</p>\n",
    );
    Ok(())
}

/// The draw rate by band, all years.
pub fn by_band(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    basis: &str,
    axis: &str,
    format: &str,
) -> anyhow::Result<()> {
    let band_svg = charts::rate_by_band(stats, scheme, axis)?;
    section(
        h,
        "by-band",
        &format!("Draw rate by rating band, all years{format}"),
        &format!(
            "Each bar is the share of drawn games in a band, with its 95% interval and the number of games; \
         the vertical axis is fit to the data from 0. A game's band is {basis} (--elo-basis, --max-gap). \
         Games in no band (unrated, players further apart, a rating implausible for its system and year) \
         are listed in the table, not charted."
        ),
        &band_svg,
    );
    band_table(h, stats, scheme);

    Ok(())
}

/// How the draws happened, by band.
pub fn draw_types(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    format: &str,
) -> anyhow::Result<()> {
    let mix_svg = charts::draw_mix_by_band(stats, scheme)?;
    section(
        h,
        "draw-types",
        &format!("How the draws happened{format}"),
        "Draw types as decided from the final position and the record, following the FIDE Laws \
         (art. 5.2, 6.9, 9.2, 9.3, 9.6): agreed draws, repetitions, the 50- and 75-move rules, stalemate, \
         insufficient material, and timeouts against a side that cannot mate.",
        &mix_svg,
    );
    draw_type_table(h, stats, scheme);

    Ok(())
}

/// How long drawn games lasted, and all games beside them.
pub fn lengths(
    h: &mut String,
    info: &PageInfo<'_>,
    report: &crate::analysis::Report,
) -> anyhow::Result<()> {
    let stats = &report.aggregate.stats;
    let length_svg = charts::draw_length(stats, info.short_draws)?;
    let [first, second] = info.short_draws;
    let (short20, agreed20) = stats.short_draws(first);
    let (short30, agreed30) = stats.short_draws(second);
    section(
        h,
        "length",
        "How long drawn games lasted",
        "The number of moves played in drawn games. Short agreed draws are what rules such as the \
         “Sofia rules” (no draw offers) and minimum-move rules aim at.",
        &length_svg,
    );
    if !length_svg.is_empty() {
        draw_length_table(h, stats);
    }
    // The lead population's games, and the drawn ones among them: one
    // population in one chart, the drawn games' lengths' above.
    let lengths = report.format.lengths.of(&report.aggregate.lead);
    let all_lengths = charts::game_lengths(&lengths, stats)?;
    if !all_lengths.is_empty() {
        let _ = writeln!(
            h,
            "<figure>{all_lengths}</figure>\n<p class=\"caption\">The length of every game counted, and of the drawn \
             ones among them: where the draws sit in the whole distribution.</p>"
        );
        game_length_table(h, &lengths, stats);
    }
    let _ = write!(
        h,
        "<table><tr><th class=\"l\">Draws</th><th>≤ {first} moves</th><th>95% interval</th><th>≤ {second} moves</th><th>95% interval</th><th>n</th></tr>\
         <tr><td class=\"l\">All draws</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\
         <tr><td class=\"l\">Agreed draws</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr></table>\n\
         <p class=\"caption\">Mean length of drawn games: {} moves.</p>\n</section>\n",
        pct(short20.rate()),
        interval(&short20),
        pct(short30.rate()),
        interval(&short30),
        thousands(short20.n),
        pct(agreed20.rate()),
        interval(&agreed20),
        pct(agreed30.rate()),
        interval(&agreed30),
        thousands(agreed20.n),
        stats
            .mean_draw_moves()
            .map_or("–".into(), |m| format!("{m:.1}")),
    );

    Ok(())
}

/// The numbers of the histogram of drawn games' lengths: agreed draws and
/// all others in each bin of moves.
pub(super) fn draw_length_table(h: &mut String, stats: &DrawStats) {
    let agreed = charts::length_bins(&stats.agreed_moves);
    let other = charts::length_bins(&stats.other_draw_moves);
    let mut table = PageTable::with_layout(
        "drawn-games-by-length.csv",
        &[
            Col::Both("Moves", "moves"),
            Col::Both("Agreed draws", "agreed_draws"),
            Col::Both("Other draws", "other_draws"),
        ],
        Layout::wide(),
    );
    for (i, (a, o)) in agreed.iter().zip(&other).enumerate() {
        let label = charts::length_bin_label(i);
        table.row(
            &[escape(&label), thousands(*a), thousands(*o)],
            vec![label, a.to_string(), o.to_string()],
        );
    }
    h.push_str("<details><summary>The chart's numbers: drawn games by length</summary>\n");
    table.finish_with(h, "</details>\n");
}

/// The numbers of the histogram of every game's length: the games used
/// and the drawn games in each bin of moves, each as a share of all games.
pub(super) fn game_length_table(
    h: &mut String,
    lengths: &std::collections::BTreeMap<u32, u64>,
    stats: &DrawStats,
) {
    let all = charts::length_bins(lengths);
    let drawn = charts::length_bins(stats.agreed_moves.iter().chain(&stats.other_draw_moves));
    let total: u64 = all.iter().sum();
    let mut table = PageTable::with_layout(
        "games-by-length.csv",
        &[
            Col::Both("Moves", "moves"),
            Col::Both("Games", "games"),
            Col::Page("Share of all games"),
            Col::Both("Drawn games", "drawn_games"),
            Col::Page("Drawn, share of all games"),
            Col::Csv("all_games"),
        ],
        Layout::wide(),
    );
    for (i, (a, d)) in all.iter().zip(&drawn).enumerate() {
        let label = charts::length_bin_label(i);
        table.row(
            &[
                escape(&label),
                thousands(*a),
                pct(Proportion::new(*a, total).rate()),
                thousands(*d),
                pct(Proportion::new(*d, total).rate()),
            ],
            vec![label, a.to_string(), d.to_string(), total.to_string()],
        );
    }
    h.push_str("<details><summary>The chart's numbers: the games counted by length</summary>\n");
    table.finish_with(h, "</details>\n");
}

/// What kind of sample the lead population is, and what that does to its
/// band rates; for a collection of players' files, the share of each
/// band's games with a player the file is named after.
pub fn sample_note(h: &mut String, report: &crate::analysis::Report, scheme: &BandScheme) {
    use crate::analysis::collection::Kind;
    let Some((kind, counts)) = &report.sample else {
        return;
    };
    let (games, named) = counts
        .0
        .values()
        .fold((0u64, 0u64), |(g, n), c| (g + c[0], n + c[1]));
    let what = match kind {
        Kind::PlayersFiles => format!(
            "<strong>What this sample is: a collection of players' files.</strong> {} of its {} games ({}) \
             have a player the file they came from is named after. Such a collection holds every game of the \
             players someone chose to collect (who mostly became strong) and, of everyone else, only the games \
             against them: a band's games are largely those players' games, and its draw rate is theirs more \
             than the band's. Compare its band rates with whole events' (a magazine's issues, an event \
             database) with care; the table below gives each band's share.",
            thousands(named),
            thousands(games),
            pct(Some(named as f64 / games.max(1) as f64))
        ),
        Kind::PlatformExport => "<strong>What this sample is: a platform's export</strong> (online games, \
             named by no player's file). Its players are whoever played there: the band rates are that \
             platform's players', at its rating scale."
            .to_string(),
        Kind::Events => format!(
            "<strong>What this sample is: games of whole events</strong> (tournament issues or an event \
             database): {} of its {} games have a player the file they came from is named after. The band \
             rates are those of the events collected, of every player in them.",
            thousands(named),
            thousands(games)
        ),
    };
    let _ = writeln!(h, "<p class=\"caption\" id=\"sample-kind\">{what}</p>");
    if *kind != Kind::PlayersFiles {
        return;
    }
    let _ = write!(
        h,
        "<div class=\"wide\"><table id=\"sample-share\"><tr><th class=\"l\">Band</th><th>Games</th>\
         <th>With a collected player</th><th>Share</th></tr>"
    );
    let mut rows = Vec::new();
    for (band, [n, with]) in &counts.0 {
        let share = Proportion::new(*with, *n).rate();
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&scheme.label(*band)),
            thousands(*n),
            thousands(*with),
            pct(share)
        );
        rows.push(vec![
            scheme.label(*band),
            n.to_string(),
            with.to_string(),
            share.map_or(String::new(), |s| format!("{s:.6}")),
        ]);
    }
    h.push_str("</table></div>\n");
    h.push_str(&csv_download(
        "sample-share-by-band.csv",
        &["band", "games", "with_collected_player", "share"],
        &rows,
    ));
}

/// The lead band table with and without the games classical only by
/// presumption (issue 47): each band's draw rate over all lead games and
/// over those whose speed rests on evidence (a time control, an event's
/// name). Only for over-the-board classical lead figures, where the
/// presumption is made.
pub fn sensitivity(h: &mut String, report: &crate::analysis::Report, scheme: &BandScheme) {
    let lead = &report.aggregate.lead;
    let classical = remis_table::schema::TimeClass::Classical.as_str();
    if lead.play != Some(crate::analysis::table::Play::OverTheBoard)
        || lead.speed.as_deref() != Some(classical)
    {
        return;
    }
    let all = &report.aggregate.stats.by_band;
    let evidence = &report.evidence_bands.0;
    let with_evidence: u64 = evidence.values().map(|p| p.n).sum();
    let games: u64 = all.values().map(|p| p.n).sum();
    if with_evidence == games {
        return;
    }
    if with_evidence == 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"sensitivity\"><strong>Sensitivity to the presumption:</strong> none of the \
             {} lead games is classical by evidence (no time control, no event name says so): every figure of \
             the lead population rests on the presumption that a game over the board is classical unless its \
             tags say otherwise. No table without the presumed games can be made.</p>",
            thousands(games)
        );
        return;
    }
    let _ = write!(
        h,
        "<p class=\"caption\" id=\"sensitivity\"><strong>Sensitivity to the presumption:</strong> the band table \
         with and without the {} lead games classical only by presumption ({} of {} are classical by evidence).</p>\
         <div class=\"wide\"><table id=\"sensitivity-table\"><tr><th class=\"l\">Band</th><th>Games</th>\
         <th>Draw rate</th><th>By evidence: games</th><th>Draw rate</th><th>Difference (points)</th></tr>",
        thousands(games - with_evidence),
        thousands(with_evidence),
        thousands(games)
    );
    let mut rows = Vec::new();
    let empty = Proportion::new(0, 0);
    for (band, p) in all {
        let e = evidence.get(band).unwrap_or(&empty);
        let difference = match (p.rate(), e.rate()) {
            (Some(a), Some(b)) if e.n >= MIN_CELL_GAMES => Some(100.0 * (b - a)),
            _ => None,
        };
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&scheme.label(*band)),
            thousands(p.n),
            pct(p.rate()),
            thousands(e.n),
            pct(e.rate()),
            difference.map_or("–".to_string(), |d| format!("{d:+.1}"))
        );
        rows.push(vec![
            scheme.label(*band),
            p.n.to_string(),
            p.rate().map_or(String::new(), |r| format!("{r:.6}")),
            e.n.to_string(),
            e.rate().map_or(String::new(), |r| format!("{r:.6}")),
        ]);
    }
    h.push_str("</table></div>\n");
    h.push_str(&csv_download(
        "sensitivity-presumed-classical.csv",
        &[
            "band",
            "games",
            "draw_rate",
            "evidence_games",
            "evidence_draw_rate",
        ],
        &rows,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::table::CubeRow;

    fn stats(years: std::ops::Range<i16>, bands: &[Band]) -> DrawStats {
        let rows: Vec<CubeRow> = years
            .flat_map(|year| {
                bands.iter().map(move |&band| CubeRow {
                    band,
                    year: Some(year),
                    is_draw: false,
                    draw_type: None,
                    moves: None,
                    games: 40,
                })
            })
            .collect();
        DrawStats::from_cube(&rows)
    }

    #[test]
    fn the_standardised_rate_is_charted_and_tabled_beside_the_pooled_one() {
        // Two bands drawing 30% and 60% each year; the mix moves from the
        // lower band (2000: 300 and 100 games) to the higher (2001: 100
        // and 300). Pooled: 37.5% and 52.5%; standardised to the mix of
        // both years (half and half): 45.0% both years. 2002: the lower
        // band alone (half the standard): marked, not charted.
        let cell = |band, year, draws, games| {
            [
                CubeRow {
                    band: Band::Rated(band),
                    year: Some(year),
                    is_draw: true,
                    draw_type: Some("agreed".into()),
                    moves: Some(30),
                    games: draws,
                },
                CubeRow {
                    band: Band::Rated(band),
                    year: Some(year),
                    is_draw: false,
                    draw_type: None,
                    moves: None,
                    games: games - draws,
                },
            ]
        };
        let rows: Vec<CubeRow> = [
            cell(20, 2000, 90, 300),
            cell(25, 2000, 60, 100),
            cell(20, 2001, 30, 100),
            cell(25, 2001, 180, 300),
        ]
        .into_iter()
        .flatten()
        .collect();
        let s = DrawStats::from_cube(&rows);
        let mut h = String::new();
        standardised_by_year(&mut h, &s, &BandScheme::width(100), YearBins::NONE).unwrap();
        assert!(
            h.contains("the standard: 2000–2099 50.0%, 2500–2599 50.0%"),
            "{h}"
        );
        assert!(h.contains("id=\"chart-year-standardised-title\""));
        for (year, pooled) in [(2000, "37.5%"), (2001, "52.5%")] {
            assert!(
                h.contains(&format!(
                    "<td class=\"l\">{year}</td><td>400</td><td>{pooled}</td>"
                )),
                "{year}"
            );
            let row = &h[h.find(&format!("<td class=\"l\">{year}</td>")).unwrap()..];
            let row = &row[..row.find("</tr>").unwrap()];
            assert!(
                row.contains("<td>400</td><td>2</td><td>100.0%</td><td>45.0%</td>"),
                "{row}"
            );
        }
        let csv = &h[h
            .find("download=\"draw-rate-by-year-standardised.csv\"")
            .unwrap()..];
        assert!(csv.contains(
            "years%2Cgames%2Cdraws%2Cpooled_draw_rate%2Cpooled_ci95_low%2Cpooled_ci95_high%2C\
             standardised_games%2Cbands%2Cstandard_share%2Cstandardised_draw_rate%2C\
             standardised_ci95_low%2Cstandardised_ci95_high%2Ccharted%0A"
        ));
        assert!(csv.contains("%0A2001%2C400%2C210%2C0.5250%2C"));
        assert!(csv.contains("%2C400%2C2%2C1.0000%2C0.4500%2C"));
        // A year whose bands hold half the standard: in the table, marked.
        let rows: Vec<CubeRow> = rows.into_iter().chain(cell(20, 2002, 10, 50)).collect();
        let mut h = String::new();
        let s = DrawStats::from_cube(&rows);
        standardised_by_year(&mut h, &s, &BandScheme::width(100), YearBins::NONE).unwrap();
        let row = &h[h.find("<td class=\"l\">2002</td>").unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(row.contains("20.0%*"), "{row}");
        assert!(h.contains("%2Cfalse%0A"));
    }

    #[test]
    fn band_by_year_prints_in_parts_each_with_the_band_labels() {
        let bands = [Band::Rated(24), Band::Rated(25), Band::Unrated];
        let s = stats(1990..2015, &bands);
        let scheme = BandScheme::width(100);
        let mut h = String::new();
        heatmap(&mut h, &s, &scheme, YearBins::NONE, "", None);
        let print = &h[h.find("class=\"print-only\"").unwrap()..];
        let print = &print[..print.find("</div>").unwrap()];
        // 25 years: parts of 10, 10 and 5 years.
        assert_eq!(print.matches("<table>").count(), 3);
        for band in bands {
            assert_eq!(print.matches(&scheme.label(band)).count(), 3, "{band:?}");
        }
        for year in 1990..2015 {
            assert_eq!(print.matches(&format!("<th>{year}</th>")).count(), 1);
        }
        // The bands' totals once, in the last part.
        assert_eq!(print.matches("class=\"total\">All").count(), 1);
        assert!(print.rfind("All").unwrap() > print.find("<th>2010</th>").unwrap());
        // On screen, one table with every year.
        let screen = &h[h.find("screen-only").unwrap()..h.find("print-only").unwrap()];
        assert_eq!(screen.matches("<table>").count(), 1);
    }
}
