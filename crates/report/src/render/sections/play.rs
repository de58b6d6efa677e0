//! Openings, time classes, clocks, and online against over the board.

use super::*;

pub(super) fn opening_table(h: &mut String, title: &str, groups: &[games::OpeningGroup]) {
    if groups.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<h3>{}</h3><table><tr><th class=\"l\">Opening</th><th>Games</th><th>Draw rate</th><th>95% interval</th>\
         <th class=\"l\">Most common draw types</th></tr>",
        escape(title)
    );
    for g in groups {
        let mut kinds: Vec<(&String, &u64)> =
            g.draw_types.iter().filter(|(_, n)| **n > 0).collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1));
        let kinds: Vec<String> = kinds
            .iter()
            .take(3)
            .map(|(k, n)| format!("{} {}", k.replace('_', " "), n))
            .collect();
        let class = if g.draws.n < MIN_CELL_GAMES {
            " class=\"small\""
        } else {
            ""
        };
        let _ = write!(
            h,
            "<tr{class}><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            escape(&g.name),
            thousands(g.draws.n),
            pct(g.draws.rate()),
            interval(&g.draws),
            escape(&kinds.join(", "))
        );
    }
    h.push_str("</table>\n");
}

/// Draw rate and draw types of the largest opening groups.
pub fn openings(h: &mut String, o: &Openings) {
    if o.by_eco.is_empty() && o.by_name.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<section id=\"openings\">\n<h2>Draws by opening</h2>\n<p class=\"caption\">The largest groups of games by \
         ECO code and, where the games carry an <code>Opening</code> tag (lichess), by opening name: draw rate \
         with its 95% interval, and the draw types most often seen. Groups with fewer than {MIN_CELL_GAMES} games \
         are greyed.</p>\n"
    );
    opening_table(h, "By ECO code", &o.by_eco);
    opening_table(h, "By opening name", &o.by_name);
    h.push_str("</section>\n");
}

/// Draw rate by band for each time class: small multiples as lines.
pub fn time_classes(
    h: &mut String,
    t: &TimeClasses,
    format: &FormatCounts,
    scheme: &BandScheme,
) -> anyhow::Result<()> {
    if t.by_class.len() < 2 {
        return Ok(());
    }
    let bands: Vec<Band> = {
        let mut b: Vec<Band> = t
            .by_class_band
            .iter()
            .filter(|((_, band), p)| p.n >= MIN_CELL_GAMES && band.is_rated())
            .map(|((_, band), _)| *band)
            .collect();
        b.sort();
        b.dedup();
        b
    };
    let labels: Vec<String> = bands
        .iter()
        .map(|&b| charts::short_label(scheme, b))
        .collect();
    let mut classes: Vec<String> = t.by_class.keys().cloned().collect();
    charts::class_order(&mut classes);
    let lines: Vec<Line> = classes
        .iter()
        .map(|class| Line {
            label: format!("{class} (n={})", t.by_class[class].n),
            points: bands
                .iter()
                .map(|b| charts::rate_point(t.by_class_band.get(&(class.clone(), *b))))
                .collect(),
            dashed: false,
            dash: false,
            color: None,
        })
        .collect();
    let svg = charts::lines_by_category(
        "chart-time-class",
        "Draw rate by rating band for each time class",
        "Line chart: one line per time class (bullet, blitz, rapid, classical), draw rate by rating band \
         with 95 percent intervals; bands with fewer than 30 games of a class are left out of its line.",
        &labels,
        &lines,
        ("Rating band", "Draw rate"),
        false,
    )?;
    let _ = write!(
        h,
        "<section id=\"time-classes\">\n<h2>Draws by time control</h2>\n<p class=\"caption\">The time class comes from \
         the <code>TimeControl</code> tag (lichess's limits on base + 40 × increment), else from the event's name. \
         One line per class.</p>\n<figure>{svg}</figure>\n"
    );
    let mut table = PageTable::new(
        "draw-rate-by-time-class.csv",
        &share_columns(&[Col::Both("Time class", "time_class")]),
    );
    for class in &classes {
        let p = &t.by_class[class];
        let mut row = vec![class.clone()];
        row.extend(share_cells(p));
        table.row(
            &[escape(class), thousands(p.n), pct(p.rate()), interval(p)],
            row,
        );
    }
    table.finish(h);
    // The chart's numbers: each class's rate in each band.
    let mut by_band = PageTable::with_layout(
        "draw-rate-by-time-class-and-band.csv",
        &share_columns(&[
            Col::Both("Time class", "time_class"),
            Col::Both("Band", "band"),
        ]),
        Layout {
            labels: &[0, 1],
            wide: true,
            ..Layout::default()
        },
    );
    for class in &classes {
        let mut cells: Vec<(&Band, &Proportion)> = t
            .by_class_band
            .iter()
            .filter(|((c, _), _)| c == class)
            .map(|((_, b), p)| (b, p))
            .collect();
        cells.sort_by_key(|(b, _)| **b);
        for (band, p) in cells {
            let label = scheme.label(*band);
            let small = if p.n < MIN_CELL_GAMES {
                " class=\"small\""
            } else {
                ""
            };
            let mut row = vec![class.clone(), label.clone()];
            row.extend(share_cells(p));
            by_band.row_markup(
                small,
                &format!(
                    "<td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    escape(class),
                    escape(&label),
                    thousands(p.n),
                    pct(p.rate()),
                    interval(p)
                ),
                row,
            );
        }
    }
    h.push_str("<details><summary>The chart's numbers: each time class by band</summary>\n");
    by_band.finish_with(h, "</details>\n");
    let mix = charts::draw_mix_by_class(format)?;
    if !mix.is_empty() {
        let _ = writeln!(
            h,
            "<figure>{mix}</figure>\n<p class=\"caption\">How the draws of each time class happened: \
             faster play draws more by repetition and on time against a lone king, slower play by agreement.</p>"
        );
        draw_types_by_class_table(h, format);
    }
    h.push_str("</section>\n");
    Ok(())
}

/// The draws of each time class by draw type: the numbers of the chart of
/// how each class's draws happened (a row per class and draw type).
pub(super) fn draw_types_by_class_table(h: &mut String, format: &FormatCounts) {
    let mixes = format.draw_mixes_by_class();
    let mut classes: Vec<String> = mixes.keys().cloned().collect();
    charts::class_order(&mut classes);
    let mut table = PageTable::with_layout(
        "draw-types-by-time-class.csv",
        &[
            Col::Both("Time class", "time_class"),
            Col::Both("Draw type", "draw_type"),
            Col::Both("Draws of the type", "draws_of_type"),
            Col::Both("Draws of the class", "draws"),
            Col::Page("Share"),
        ],
        Layout {
            labels: &[0, 1],
            wide: true,
            ..Layout::default()
        },
    );
    for class in &classes {
        let mix = &mixes[class];
        let total: u64 = mix.values().sum();
        for kind in DrawType::ALL {
            let Some(&n) = mix.get(&kind) else { continue };
            table.row(
                &[
                    escape(class),
                    escape(kind.label()),
                    thousands(n),
                    thousands(total),
                    pct(Proportion::new(n, total).rate()),
                ],
                vec![
                    class.clone(),
                    kind.as_str().to_string(),
                    n.to_string(),
                    total.to_string(),
                ],
            );
        }
    }
    h.push_str(
        "<details><summary>The chart's numbers: each time class's draws by type</summary>\n",
    );
    table.finish_with(h, "</details>\n");
}

/// What the clocks showed when a draw was agreed or a flag fell.
pub fn clocks(h: &mut String, c: &Clocks) {
    let agreed: u64 = c.agreed_lower_clock.values().sum();
    let flags: u64 = c.flag_winner_clock.values().sum();
    if agreed + flags == 0 {
        return;
    }
    let _ = write!(
        h,
        "<section id=\"clocks\">\n<h2>Clocks at the end</h2>\n<p class=\"caption\">From the <code>[%clk]</code> \
         comments (lichess, chess.com): for agreed draws the lower of the two clocks after each side's last move; \
         for games lost on time the winner's clock. {} agreed draws and {} losses on time had no clock.</p>\n\
         <table><tr><th class=\"l\">Clock</th><th>Agreed draws</th><th>Share</th><th>Won on time</th><th>Share</th></tr>",
        thousands(c.agreed_without_clock),
        thousands(c.flag_without_clock)
    );
    for bin in 0..=games::CLOCK_EDGES.len() {
        let a = c.agreed_lower_clock.get(&bin).copied().unwrap_or(0);
        let f = c.flag_winner_clock.get(&bin).copied().unwrap_or(0);
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&clock_label(bin)),
            thousands(a),
            pct(Proportion::new(a, agreed).rate()),
            thousands(f),
            pct(Proportion::new(f, flags).rate())
        );
    }
    h.push_str("</table>\n</section>\n");
}

/// The headline split by where and how fast the games were played.
pub(super) fn play_headline(h: &mut String, format: &crate::analysis::games::FormatCounts) {
    let mut cells: std::collections::BTreeMap<(crate::analysis::table::Play, String), Proportion> =
        std::collections::BTreeMap::new();
    for ((play, class, _), p) in &format.by_play {
        let cell = cells
            .entry((*play, class.clone()))
            .or_insert(Proportion::new(0, 0));
        cell.n += p.n;
        cell.successes += p.successes;
    }
    if cells.is_empty() {
        return;
    }
    let mut table = PageTable::with_layout(
        "draw-rate-by-play-and-time-class.csv",
        &share_columns(&[
            Col::Both("Played", "played"),
            Col::Both("Time class", "time_class"),
        ]),
        Layout {
            id: Some("by-play"),
            labels: &[0, 1],
            ..Layout::default()
        },
    );
    for play in crate::analysis::table::Play::ALL {
        let mut classes: Vec<String> = cells
            .keys()
            .filter(|(p, _)| *p == play)
            .map(|(_, c)| c.clone())
            .collect();
        charts::class_order(&mut classes);
        for class in classes {
            let p = cells[&(play, class.clone())];
            let small = if p.n < MIN_CELL_GAMES {
                " class=\"small\""
            } else {
                ""
            };
            let mut row = vec![play.as_str().to_string(), class.clone()];
            row.extend(share_cells(&p));
            table.row_markup(
                small,
                &format!(
                    "<td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    play.as_str(),
                    escape(&class),
                    thousands(p.n),
                    pct(p.rate()),
                    interval(&p)
                ),
                row,
            );
        }
    }
    table.finish_with(
        h,
        "<p class=\"caption\">Decided for each game when it was classified, from the strongest \
        evidence in its tags, and kept in the table (columns <code>play</code>, <code>play_by</code>, <code>speed</code>, \
        <code>speed_by</code>). Played: online when the <code>Site</code> tag names an online platform; else as the \
        event's name says (a series known to be played over the board or online, in all its spellings: Titled Tue, PRO \
        League, …; <code>data/event_patterns.toml</code>); else over the board when <code>Site</code> names a place, \
        or before 1992; otherwise unknown. \"Int\" in an event's name is international, never the internet. Time \
        class: from <code>TimeControl</code> (<code>-</code>, no clock: correspondence), else from the event's name \
        (a play-off or tie-break, <code>TB</code>, is a tie-break from 1996 only), else in a knock-out event from the \
        round (game 3 or later of a match, <code>4.3</code>: a tie-break); else unknown online, and classical by \
        presumption otherwise (<code>speed_by</code> <code>presumed</code>).</p>\n",
    );
}

/// Draw rate by year for online and over-the-board play, per time class.
pub fn play_section(
    h: &mut String,
    format: &crate::analysis::games::FormatCounts,
    bins: YearBins,
) -> anyhow::Result<()> {
    use crate::analysis::table::Play;
    let mut series: std::collections::BTreeMap<
        (Play, String),
        std::collections::BTreeMap<i16, Proportion>,
    > = std::collections::BTreeMap::new();
    for ((play, class, year), p) in &format.by_play {
        let Some(year) = year else { continue };
        let cell = series
            .entry((*play, class.clone()))
            .or_default()
            .entry(bins.bin(*year))
            .or_insert(Proportion::new(0, 0));
        cell.n += p.n;
        cell.successes += p.successes;
    }
    series.retain(|_, by_year| by_year.values().any(|p| p.n >= MIN_CELL_GAMES));
    let plays: std::collections::BTreeSet<Play> = series.keys().map(|(p, _)| *p).collect();
    if series.len() < 2 && plays.len() < 2 {
        return Ok(());
    }
    let lines: Vec<charts::YearSeries> = series
        .iter()
        .map(|((play, class), by_year)| charts::YearSeries {
            label: format!("{}, {class}", play.as_str()),
            points: by_year
                .iter()
                .filter_map(|(&y, p)| charts::rate_point(Some(p)).map(|point| (y, point)))
                .collect(),
            // Online apart from over the board by line style, not colour alone.
            dash: *play == Play::Online,
            // Where the tags do not say how it was played: grey.
            color: if *play == Play::Unknown {
                plotters::style::RGBColor(0x99, 0x99, 0x99)
            } else {
                speed_color(class)
            },
        })
        .collect();
    let svg = charts::year_series(
        &lines,
        &|y| bins.bin(y),
        (
            "chart-play",
            "Draw rate by year, online and over the board, by time class",
            "Line chart: one line per kind of play and time class, draw rate by year from 0 to {top} \
             with shaded 95 percent intervals; a bin of years is a step as wide as its years; years \
             with fewer than 30 games of a line are left out of it. The table below gives every number.",
        ),
    )?;
    let _ = write!(
        h,
        "<section id=\"play\">\n<h2>Online and over the board</h2>\n<p class=\"caption\">Online games and games \
         over the board are different populations: a collection that mixes them (master databases now carry \
         Titled Tuesday and PRO League games) shows a false trend when the mix changes. One line per kind of play \
         and time class; the headline table splits the totals the same way.</p>\n<figure>{svg}</figure>\n"
    );
    let mut table = PageTable::with_layout(
        "draw-rate-by-year-play-and-time-class.csv",
        &share_columns(&[
            Col::Both("Played", "played"),
            Col::Both("Time class", "time_class"),
            Col::Both("Years", "years"),
        ]),
        Layout {
            labels: &[0, 1, 2],
            wide: true,
            ..Layout::default()
        },
    );
    for ((play, class), by_year) in &series {
        for (&year, p) in by_year {
            let label = bins.label(year);
            let small = if p.n < MIN_CELL_GAMES {
                " class=\"small\""
            } else {
                ""
            };
            let mut row = vec![play.as_str().to_string(), class.clone(), label.clone()];
            row.extend(share_cells(p));
            table.row_markup(
                small,
                &format!(
                    "<td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    play.as_str(),
                    escape(class),
                    escape(&label),
                    thousands(p.n),
                    pct(p.rate()),
                    interval(p)
                ),
                row,
            );
        }
    }
    h.push_str("<details><summary>The chart's numbers: every line and year</summary>\n");
    table.finish_with(h, "</details>\n");
    h.push_str("</section>\n");
    Ok(())
}

/// A speed's colour in the play chart, the same online and over the board
/// (whose lines differ by style): one colour per speed, in a fixed order.
pub(super) fn speed_color(speed: &str) -> plotters::style::RGBColor {
    const ORDER: [&str; 8] = [
        "classical",
        "rapid",
        "blitz",
        "bullet",
        "blindfold",
        "simul",
        "correspondence",
        "unknown",
    ];
    // Eight colours for nine speeds: a tie-break shares correspondence's,
    // whose games are left out unless asked for, and then alone.
    let speed = if speed == "tiebreak" {
        "correspondence"
    } else {
        speed
    };
    let i = ORDER
        .iter()
        .position(|s| *s == speed)
        .unwrap_or(ORDER.len());
    crate::render::palette::CATEGORY_COLORS[i % crate::render::palette::CATEGORY_COLORS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::games::TimeClasses;

    #[test]
    fn each_time_class_is_a_row_of_the_page_and_of_the_csv() {
        let mut t = TimeClasses::default();
        for (class, n, draws) in [("blitz", 200, 50), ("classical", 100, 60)] {
            t.by_class.insert(class.into(), Proportion::new(draws, n));
            t.by_class_band
                .insert((class.into(), Band::Rated(20)), Proportion::new(draws, n));
        }
        let render = |t: &TimeClasses| {
            let mut h = String::new();
            time_classes(&mut h, t, &FormatCounts::default(), &BandScheme::width(100)).unwrap();
            h
        };
        let h = render(&t);
        assert!(h.contains(
            "<tr><th class=\"l\">Time class</th><th>Games</th><th>Draw rate</th><th>95% interval</th></tr>"
        ));
        for (class, n, rate) in [("blitz", 200, "25.0%"), ("classical", 100, "60.0%")] {
            assert!(
                h.contains(&format!(
                    "<tr><td class=\"l\">{class}</td><td>{n}</td><td>{rate}</td>"
                )),
                "{class}"
            );
        }
        let csv = &h[h.find("download=\"draw-rate-by-time-class.csv\"").unwrap()..];
        assert!(csv.contains("time_class%2Cgames%2Cdraws%2Cdraw_rate%2Cci95_low%2Cci95_high%0A"));
        assert!(csv.contains("%0Aclassical%2C100%2C60%2C0.6000%2C"));
        // One class alone is not a comparison: no section.
        t.by_class.remove("blitz");
        assert!(render(&t).is_empty());
    }
}
