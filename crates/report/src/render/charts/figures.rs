//! The report's charts, one function each: draw rates by year and band, the
//! mix of draw types, game lengths, the rule study. The builders they share
//! (axes, legends outside the plot, lines) are in the parent module.

use super::*;

/// The bands worth a line or a bar on an ordered axis: rated, with enough
/// games (the unrated games are shown apart, never as a last band).
pub fn chart_bands(stats: &DrawStats, limit: usize) -> Vec<Band> {
    let mut bands: Vec<Band> = stats
        .by_band
        .iter()
        .filter(|(b, p)| p.n >= MIN_CELL_GAMES && b.is_rated())
        .map(|(&b, _)| b)
        .collect();
    if bands.len() > limit {
        let mut by_size = bands.clone();
        by_size.sort_by_key(|b| std::cmp::Reverse(stats.by_band[b].n));
        by_size.truncate(limit);
        bands.retain(|b| by_size.contains(b));
    }
    bands
}

/// A band as charts label it: its range ("2500–2599"), never "2500+",
/// which would read as "2500 and above".
pub(crate) fn short_label(scheme: &BandScheme, band: Band) -> String {
    scheme.label(band)
}

/// Draw rate by year (or year bin), one line per band, with 95% Wilson
/// intervals as shaded bands. Years with fewer than 30 games in a band are
/// left out; the vertical axis is fit to the data from 0. A bin of years is
/// a step as wide as its years ([`year_series`]).
pub fn rate_by_year(
    stats: &DrawStats,
    scheme: &BandScheme,
    max_bands: usize,
    year_bin: &dyn Fn(i16) -> i16,
) -> Result<String> {
    let bands = chart_bands(stats, max_bands);
    let series: Vec<YearSeries> = bands
        .iter()
        .enumerate()
        .map(|(i, &band)| YearSeries {
            label: short_label(scheme, band),
            color: ordered_color(i, bands.len()),
            dash: false,
            points: stats
                .by_band_year
                .iter()
                .filter(|((b, _), _)| *b == band)
                .filter_map(|(&(_, y), p)| rate_point(Some(p)).map(|point| (y, point)))
                .collect(),
        })
        .collect();
    year_series(
        &series,
        year_bin,
        (
            "chart-year",
            "Draw rate by year and rating band",
            "Line chart: one line per rating band (ordered colours, low to high), \
             draw rate on the vertical axis from 0 to {top}, years on the \
             horizontal axis; shaded areas are 95 percent Wilson intervals; a bin \
             of years is a step as wide as its years. The band by year table \
             below gives every number and n.",
        ),
    )
}

/// The draw rate by year of all bands pooled, beside the same rate
/// standardised to one band mix ([`Standardised`]): years (or bins) with
/// fewer than 30 games, or whose bands hold too little of the standard,
/// are left out of their line.
pub fn rate_standardised(
    stats: &DrawStats,
    standardised: &Standardised,
    year_bin: &dyn Fn(i16) -> i16,
) -> Result<String> {
    let series = [
        YearSeries {
            label: "pooled: every game".into(),
            color: RGBColor(0x55, 0x55, 0x55),
            dash: true,
            points: stats
                .by_year
                .iter()
                .filter_map(|(&y, p)| rate_point(Some(p)).map(|point| (y, point)))
                .collect(),
        },
        YearSeries {
            label: "standardised to the band mix".into(),
            color: RGBColor(0x2f, 0x5d, 0x8a),
            dash: false,
            points: standardised
                .by_year
                .iter()
                .filter(|(_, s)| s.charted())
                .map(|(&y, s)| (y, (s.rate, s.low, s.high)))
                .collect(),
        },
    ];
    if series[1].points.is_empty() {
        return Ok(String::new());
    }
    year_series(
        &series,
        year_bin,
        (
            "chart-year-standardised",
            "Draw rate by year, pooled and standardised for rating",
            "Line chart: the draw rate by year of every game (dashed grey) and the \
             same rate standardised to one fixed mix of rating bands (solid blue), \
             from 0 to {top}, with shaded 95 percent intervals; a bin of years is a \
             step as wide as its years. The table below gives every number.",
        ),
    )
}

/// One series of a chart by year: its value with a 95% interval in each
/// year or bin it has one, keyed by the bin's first year.
pub struct YearSeries {
    pub label: String,
    pub color: RGBColor,
    /// Drawn with a dashed stroke (told apart by style, not colour alone).
    pub dash: bool,
    pub points: BTreeMap<i16, (f64, f64, f64)>,
}

/// Series by year on a numeric axis of years: single years are points
/// joined by lines, with their intervals shaded; a bin of several years
/// (`year_bin` maps a year to its bin's first year) is a step as wide as
/// its years, its interval a shaded box, never joined to its neighbours.
/// A year without a value breaks the line. `(id, title, desc)` are the
/// chart's accessible names; `{top}` in `desc` becomes the axis's top.
pub fn year_series(
    series: &[YearSeries],
    year_bin: &dyn Fn(i16) -> i16,
    (id, title, desc): (&str, &str, &str),
) -> Result<String> {
    let starts: Vec<i16> = series
        .iter()
        .flat_map(|s| s.points.keys().copied())
        .collect();
    let (Some(&first), Some(&last)) = (starts.iter().min(), starts.iter().max()) else {
        return Ok(String::new());
    };
    // The bin's last year.
    let end = |start: i16| -> i16 {
        (start..start.saturating_add(30_000))
            .take_while(|&y| year_bin(y) == start)
            .last()
            .unwrap_or(start)
    };
    // Every bin from the first to the last, those without data too: a
    // line breaks at a gap instead of joining across it.
    let bins: Vec<(i16, i16)> = {
        let mut all: Vec<i16> = (first..=end(last)).map(year_bin).collect();
        all.dedup();
        all.into_iter().map(|s| (s, end(s))).collect()
    };
    let top = fit_top(
        series
            .iter()
            .flat_map(|s| s.points.values().map(|p| p.2))
            .fold(0.0, f64::max),
    );
    let mut svg = String::new();
    let mut legend = Vec::new();
    {
        let width = (160 + 52 * bins.len() as u32).clamp(640, 1400) + LEGEND_ROOM;
        let root = SVGBackend::with_string(&mut svg, (width, 440)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (lo, hi) = (
            f64::from(bins[0].0) - 0.5,
            f64::from(bins[bins.len() - 1].1) + 0.5,
        );
        let mut chart = year_chart(&root, lo..hi, top)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(lo, 0.0), (hi, 0.0)],
                BLACK.stroke_width(1),
            )))
            .map_err(err)?;
        for s in series {
            if s.points.is_empty() {
                continue;
            }
            let color = s.color;
            let stroke = color.stroke_width(2);
            // (bin index, year, rate, low, high) of the single years.
            let mut singles: Vec<(usize, f64, f64, f64, f64)> = Vec::new();
            for (k, &(start, last)) in bins.iter().enumerate() {
                let Some(&(r, l, h)) = s.points.get(&start) else {
                    continue;
                };
                if last == start {
                    singles.push((k, f64::from(start), r, l, h));
                    continue;
                }
                // A bin: a step over its years, its interval a box.
                let (x0, x1) = (f64::from(start) - 0.5, f64::from(last) + 0.5);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x0, l), (x1, h)],
                        color.mix(0.12).filled(),
                    )))
                    .map_err(err)?;
                if s.dash {
                    chart.draw_series(DashedLineSeries::new(vec![(x0, r), (x1, r)], 6, 4, stroke))
                } else {
                    chart.draw_series(LineSeries::new(vec![(x0, r), (x1, r)], stroke))
                }
                .map_err(err)?;
            }
            for run in singles.chunk_by(|a, b| b.0 == a.0 + 1) {
                if let [(_, x, _, l, h)] = run {
                    // A year alone: its interval a whisker, no area.
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![(*x, *l), (*x, *h)],
                            color.mix(0.6).stroke_width(1),
                        )))
                        .map_err(err)?;
                }
                let mut outline: Vec<(f64, f64)> = run.iter().map(|p| (p.1, p.4)).collect();
                outline.extend(run.iter().rev().map(|p| (p.1, p.3)));
                chart
                    .draw_series(std::iter::once(Polygon::new(outline, color.mix(0.12))))
                    .map_err(err)?;
                let line: Vec<(f64, f64)> = run.iter().map(|p| (p.1, p.2)).collect();
                if s.dash {
                    chart.draw_series(DashedLineSeries::new(line, 6, 4, stroke))
                } else {
                    chart.draw_series(LineSeries::new(line, stroke))
                }
                .map_err(err)?;
                chart
                    .draw_series(
                        run.iter()
                            .map(|p| Circle::new((p.1, p.2), 3, color.filled())),
                    )
                    .map_err(err)?;
            }
            let sample = if s.dash {
                Sample::Dashed
            } else {
                Sample::Solid
            };
            legend.push((s.label.clone(), color, sample));
        }
        legend_outside(&root, (width - LEGEND_ROOM) as i32, &legend)?;
        root.present().map_err(err)?;
    }
    Ok(accessible(
        svg,
        id,
        title,
        &desc.replace("{top}", &percent(&top)),
    ))
}

/// Draw rate by band with 95% intervals as whiskers and n on each bar.
/// `axis` names the band definition in force ("Rating band (mean rating,
/// gap ≤ 200)"), on the chart itself, so that a copied chart keeps it.
pub fn rate_by_band(stats: &DrawStats, scheme: &BandScheme, axis: &str) -> Result<String> {
    let bands = chart_bands(stats, 40);
    if bands.is_empty() {
        return Ok(String::new());
    }
    let width = (120 + 72 * bands.len() as u32).clamp(520, 1700);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let labels: Vec<String> = bands.iter().map(|&b| short_label(scheme, b)).collect();
        let highest = bands
            .iter()
            .filter_map(|b| stats.by_band[b].wilson95())
            .map(|(_, hi)| hi)
            .fold(0.0, f64::max);
        // Room above the highest whisker for its n.
        let top = fit_top(highest * 1.12);
        let mut chart = category_chart(&root, &labels, top, axis, "Draw rate")?;
        baseline(&mut chart, labels.len())?;
        let bar = RGBColor(0x4e, 0x79, 0xa7);
        for (i, band) in bands.iter().enumerate() {
            let p = stats.by_band[band];
            let (Some(rate), Some((lo, hi))) = (p.rate(), p.wilson95()) else {
                continue;
            };
            let x = i as f64;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.35, 0.0), (x + 0.35, rate)],
                    bar.mix(0.85).filled(),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, lo), (x, hi)],
                    BLACK.stroke_width(1),
                )))
                .map_err(err)?;
            for y in [lo, hi] {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x - 0.12, y), (x + 0.12, y)],
                        BLACK.stroke_width(1),
                    )))
                    .map_err(err)?;
            }
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("n={}", p.n),
                    (x - 0.3, hi + top * 0.045),
                    (FONT, 11).into_font().color(&RGBColor(0x33, 0x33, 0x33)),
                )))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(accessible(
        svg,
        "chart-band",
        "Draw rate by rating band, all years",
        "Bar chart: one bar per rating band with its draw rate, whiskers for \
         the 95 percent Wilson interval and the number of games above each bar.",
    ))
}

/// 100% stacked bars: the draw-type mix of each band with enough draws,
/// and of all bands together.
pub fn draw_mix_by_band(stats: &DrawStats, scheme: &BandScheme) -> Result<String> {
    // A band's mix is drawn only from enough draws: three or four draws at
    // full height would look as sure as thousands.
    let mut columns: Vec<(String, &BTreeMap<DrawType, u64>)> = chart_bands(stats, 40)
        .into_iter()
        .filter_map(|b| {
            let mix = stats.draw_types_by_band.get(&b)?;
            let n: u64 = mix.values().sum();
            (n >= MIN_CELL_GAMES).then(|| (format!("{} (n={n})", short_label(scheme, b)), mix))
        })
        .collect();
    let all: u64 = stats.draw_types.values().sum();
    if all == 0 {
        return Ok(String::new());
    }
    columns.push((format!("all bands (n={all})"), &stats.draw_types));
    stacked_mix(
        &columns,
        "Rating band (draws)",
        (
            "chart-mix",
            "How draws happened, by rating band",
            "Stacked bar chart: for each rating band with at least 30 draws, and for all bands \
             together, the share of its draws that were agreed, by repetition, by the 50- or 75-move \
             rule, by stalemate, by insufficient material or by timeout against insufficient material.",
        ),
    )
}

/// 100% stacked bars of draw types, one bar per column, with a legend of
/// the draw types present.
pub(super) fn stacked_mix(
    columns: &[(String, &BTreeMap<DrawType, u64>)],
    x_desc: &str,
    (id, title, desc): (&str, &str, &str),
) -> Result<String> {
    let kinds: Vec<DrawType> = DrawType::ALL
        .into_iter()
        .filter(|k| {
            columns
                .iter()
                .any(|(_, m)| m.get(k).copied().unwrap_or(0) > 0)
        })
        .collect();
    // Room for a label of a band and its n under each column.
    let width = (300 + 140 * columns.len() as u32).clamp(640, 2200);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(width - 250);
        let labels: Vec<String> = columns.iter().map(|(l, _)| l.clone()).collect();
        let mut chart = category_chart(&plot, &labels, 1.0, x_desc, "Share of draws")?;
        for (i, (_, mix)) in columns.iter().enumerate() {
            let total: u64 = mix.values().sum();
            let mut bottom = 0.0;
            for kind in &kinds {
                let share = mix.get(kind).copied().unwrap_or(0) as f64 / total.max(1) as f64;
                if share <= 0.0 {
                    continue;
                }
                let x = i as f64;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.38, bottom), (x + 0.38, bottom + share)],
                        draw_type_color(*kind).filled(),
                    )))
                    .map_err(err)?;
                bottom += share;
            }
        }
        for (row, kind) in kinds.iter().enumerate() {
            let y = 30 + row as i32 * 24;
            legend
                .draw(&Rectangle::new(
                    [(8, y), (24, y + 14)],
                    draw_type_color(*kind).filled(),
                ))
                .map_err(err)?;
            legend
                .draw(&Text::new(kind.label(), (32, y + 1), (FONT, 13)))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(accessible(svg, id, title, desc))
}

/// Game lengths in bins of [`BIN`] moves; the last bin holds [`LAST`]
/// moves and more.
pub(crate) const BIN: u32 = 5;
pub(crate) const LAST: u32 = 150;

/// Games by length (moves → games) as counts per bin of [`BIN`] moves.
pub(crate) fn length_bins<'a>(
    games_by_moves: impl IntoIterator<Item = (&'a u32, &'a u64)>,
) -> Vec<u64> {
    let mut bins = vec![0u64; (LAST / BIN + 1) as usize];
    for (&m, &n) in games_by_moves {
        bins[(m.saturating_sub(1).min(LAST) / BIN) as usize] += n;
    }
    bins
}

/// The moves a bin of [`length_bins`] holds: "1–5" (the first holds games
/// of no move too: "0–5"), "151 or more" for the last.
pub(crate) fn length_bin_label(i: usize) -> String {
    let i = i as u32;
    if i == 0 {
        format!("0–{BIN}")
    } else if i >= LAST / BIN {
        format!("{} or more", LAST + 1)
    } else {
        format!("{}–{}", i * BIN + 1, (i + 1) * BIN)
    }
}

/// Histogram of the move at which draws happen, agreed draws apart from
/// the rest, with markers at 20 and 30 moves.
pub fn draw_length(stats: &DrawStats, short_draws: [u32; 2]) -> Result<String> {
    let agreed = length_bins(&stats.agreed_moves);
    let other = length_bins(&stats.other_draw_moves);
    let bins = agreed.len();
    let top = agreed
        .iter()
        .zip(&other)
        .map(|(a, o)| a + o)
        .max()
        .unwrap_or(0);
    if top == 0 {
        return Ok(String::new());
    }
    // The axis ends at the last bin with games (and shows the short-draw
    // limits).
    let used_bins = (0..bins)
        .rev()
        .find(|&i| agreed[i] + other[i] > 0)
        .map_or(1, |i| i + 1);
    let limit_bins = short_draws
        .iter()
        .map(|&m| (m.min(LAST) / BIN + 1) as usize);
    let shown_bins = limit_bins.fold(used_bins, usize::max);
    let x_end = f64::from(shown_bins as u32 * BIN);
    let x_desc = if shown_bins == bins {
        "Moves played when the game was drawn (bins of 5; last bin 150+)"
    } else {
        "Moves played when the game was drawn (bins of 5)"
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..x_end, 0f64..top as f64 * 1.1)
            .map_err(err)?;
        let mut mesh = chart.configure_mesh();
        house_style(&mut mesh)
            .disable_x_mesh()
            .x_desc(x_desc)
            .y_desc("Drawn games")
            .x_labels(16)
            .x_label_formatter(&|x| format!("{:.0}", x))
            .y_label_formatter(&|y| format!("{:.0}", y))
            .draw()
            .map_err(err)?;
        let agreed_color = draw_type_color(DrawType::Agreed);
        let other_color = RGBColor(0xf2, 0x8e, 0x2b);
        for i in 0..shown_bins {
            let x0 = (i as u32 * BIN) as f64;
            let (a, o) = (agreed[i] as f64, other[i] as f64);
            chart
                .draw_series([
                    Rectangle::new(
                        [(x0 + 0.3, 0.0), (x0 + BIN as f64 - 0.3, a)],
                        agreed_color.filled(),
                    ),
                    Rectangle::new(
                        [(x0 + 0.3, a), (x0 + BIN as f64 - 0.3, a + o)],
                        other_color.mix(0.9).filled(),
                    ),
                ])
                .map_err(err)?;
        }
        for limit in short_draws.map(f64::from) {
            chart
                .draw_series(DashedLineSeries::new(
                    [(limit, 0.0), (limit, top as f64 * 1.05)],
                    6,
                    4,
                    RGBColor(0x55, 0x55, 0x55).stroke_width(1),
                ))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{limit:.0} moves"),
                    (limit + 1.0, top as f64 * 1.07),
                    (FONT, 12),
                )))
                .map_err(err)?;
        }
        swatch(&mut chart, "Agreed draws".into(), agreed_color)?;
        swatch(
            &mut chart,
            "Other draws (repetition, 50/75 moves, stalemate, material)".into(),
            other_color,
        )?;
        legend_box(&mut chart)?;
        root.present().map_err(err)?;
    }
    let [first, second] = short_draws;
    Ok(accessible(
        svg,
        "chart-length",
        "Length of drawn games",
        &format!(
            "Stacked histogram of the number of moves played in drawn games, in bins \
             of five moves: agreed draws at the bottom, other draws on top. Dashed \
             lines mark {first} and {second} moves."
        ),
    ))
}

/// Rule events against controls: draw rate, agreed draws and short draws,
/// side by side with 95% whiskers.
pub fn rule_study(study: &crate::analysis::rule_study::RuleStudy) -> Result<String> {
    use crate::analysis::rule_study::Measure;
    use crate::study::events::Regime;
    let rule = study.rule_games();
    let control = study
        .regimes
        .get(&Regime::None)
        .copied()
        .unwrap_or_default();
    let arms: Vec<(_, RGBColor, &str)> = [
        (
            rule,
            RGBColor(0xd9, 0x5f, 0x02),
            "Under rules against draws",
        ),
        (
            control,
            RGBColor(0x75, 0x70, 0xb3),
            "Without them (controls)",
        ),
    ]
    .into_iter()
    .filter(|(g, _, _)| g.games > 0)
    .collect();
    if arms.is_empty() {
        return Ok(String::new());
    }
    let measures = Measure::all();
    let labels: Vec<String> = measures
        .iter()
        .map(|m| m.label(study.short_limits))
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = category_chart(
            &root,
            &labels,
            1.0,
            "How the games ended",
            "Share of all games",
        )?;
        let width = 0.8 / arms.len() as f64;
        for (k, (stats, color, label)) in arms.iter().enumerate() {
            let color = *color;
            for (m, measure) in measures.iter().enumerate() {
                let p = stats.share(*measure);
                let (Some(rate), Some((lo, hi))) = (p.rate(), p.wilson95()) else {
                    continue;
                };
                let x0 = m as f64 - 0.4 + k as f64 * width;
                let mid = x0 + width / 2.0;
                chart
                    .draw_series([Rectangle::new(
                        [(x0 + 0.02, 0.0), (x0 + width - 0.02, rate)],
                        color.filled(),
                    )])
                    .map_err(err)?;
                chart
                    .draw_series([PathElement::new(
                        vec![(mid, lo), (mid, hi)],
                        BLACK.stroke_width(1),
                    )])
                    .map_err(err)?;
            }
            swatch(&mut chart, format!("{label} (n={})", stats.games), color)?;
        }
        legend_box(&mut chart)?;
        root.present().map_err(err)?;
    }
    Ok(accessible(
        svg,
        "chart-rules",
        "Events under rules against draws against comparable events",
        "Grouped bar chart: for events under rules against draws and for \
         comparable events without them, the share of games drawn, agreed \
         drawn, and drawn within the two short-draw limits, with 95 percent \
         intervals (games treated as independent; the estimates in the table \
         use intervals over event editions).",
    ))
}
/// The time classes in their natural order, then any other.
pub fn class_order(classes: &mut [String]) {
    let order = [
        "bullet",
        "blitz",
        "rapid",
        "classical",
        "correspondence",
        "blindfold",
        "simul",
        "tiebreak",
        "unknown",
    ];
    classes.sort_by_key(|c| order.iter().position(|o| o == c).unwrap_or(order.len()));
}

/// 100% stacked bars: the draw-type mix of each time class (classes with
/// at least 30 draws).
pub fn draw_mix_by_class(format: &FormatCounts) -> Result<String> {
    let mut mixes = format.draw_mixes_by_class();
    mixes.retain(|_, m| m.values().sum::<u64>() >= MIN_CELL_GAMES);
    if mixes.len() < 2 {
        return Ok(String::new());
    }
    let mut classes: Vec<String> = mixes.keys().cloned().collect();
    class_order(&mut classes);
    let columns: Vec<(String, &BTreeMap<DrawType, u64>)> = classes
        .iter()
        .map(|c| {
            (
                format!("{c} (n={})", mixes[c].values().sum::<u64>()),
                &mixes[c],
            )
        })
        .collect();
    stacked_mix(
        &columns,
        "Time class (draws)",
        (
            "chart-mix-class",
            "How draws happened, by time class",
            "Stacked bar chart: for each time class with at least 30 draws, the \
             share of its draws that were agreed, by repetition, by the 50- or \
             75-move rule, by stalemate, by insufficient material, or by timeout \
             against insufficient material.",
        ),
    )
}

/// Histogram of the length of every game of a population (`lengths`),
/// with the share of each length bin that its drawn games (`stats`, of the
/// same population) hold drawn over it.
pub fn game_lengths(lengths: &BTreeMap<u32, u64>, stats: &DrawStats) -> Result<String> {
    let all = length_bins(lengths);
    let drawn = length_bins(stats.agreed_moves.iter().chain(&stats.other_draw_moves));
    let total: u64 = all.iter().sum();
    if total == 0 {
        return Ok(String::new());
    }
    let top = all
        .iter()
        .map(|&n| n as f64 / total as f64)
        .fold(0.0, f64::max);
    let top = fit_top(top);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = numeric_chart(
            &root,
            0f64..(LAST + BIN) as f64,
            top,
            (
                "Moves played (the last bin: 150 or more)",
                "Share of all games",
            ),
            16,
            16,
            true,
        )?;
        let grey = RGBColor(0xb8, 0xc4, 0xd0);
        let blue = RGBColor(0x4e, 0x79, 0xa7);
        for (i, (&a, &d)) in all.iter().zip(&drawn).enumerate() {
            let x = (i as u32 * BIN) as f64;
            for (n, color) in [(a, grey), (d, blue)] {
                if n > 0 {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [
                                (x + 0.4, 0.0),
                                (x + BIN as f64 - 0.4, n as f64 / total as f64),
                            ],
                            color.filled(),
                        )))
                        .map_err(err)?;
                }
            }
        }
        swatch(&mut chart, format!("all games (n={total})"), grey)?;
        swatch(&mut chart, "drawn games".into(), blue)?;
        legend_box(&mut chart)?;
        root.present().map_err(err)?;
    }
    Ok(accessible(
        svg,
        "chart-all-lengths",
        "How long all games lasted",
        "Histogram: the share of all games used by the number of moves \
         played, in bins of five moves, with the drawn games of each bin \
         drawn over it.",
    ))
}
