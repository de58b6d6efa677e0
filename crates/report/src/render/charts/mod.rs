//! Charts as inline SVG, drawn with plotters. Every chart gets a title and
//! a text description for screen readers; colours are fixed per draw type
//! and per band so a reader can follow them from chart to chart.

use anyhow::{Result, anyhow};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::palette::{CATEGORY_COLORS, draw_type_color, ordered_color};
use crate::analysis::draws::{DrawStats, MIN_CELL_GAMES, Standardised};
use crate::analysis::games::FormatCounts;
use crate::study::{Band, BandScheme, Proportion};
use remis_table::schema::DrawType;
use std::collections::BTreeMap;

mod figures;
pub use figures::*;

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing a chart: {e:?}")
}

/// The top of a share axis fit to the data: a round value just above the
/// largest, never below 4%. The axis always starts at 0, the baseline.
pub fn fit_top(largest: f64) -> f64 {
    let step = if largest < 0.1 {
        0.02
    } else if largest < 0.5 {
        0.05
    } else {
        0.1
    };
    (((largest / step).floor() + 1.0) * step).clamp(0.04, 1.0)
}

/// Adds a title and description to plotters' `<svg>` for accessibility.
fn accessible(svg: String, id: &str, title: &str, desc: &str) -> String {
    let head =
        format!("<svg role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" class=\"chart\" ");
    let body = svg.replacen("<svg ", &head, 1);
    match body.find('>') {
        Some(end) => format!(
            "{}<title id=\"{id}-title\">{}</title><desc id=\"{id}-desc\">{}</desc>{}",
            &body[..=end],
            super::format::escape(title),
            super::format::escape(desc),
            &body[end + 1..]
        ),
        None => body,
    }
}

fn percent(v: &f64) -> String {
    format!("{:.0}%", v * 100.0)
}

const FONT: &str = "sans-serif";

/// The axes and grid of a chart of numbers against numbers.
type Mesh<'a, 'b, DB> = plotters::chart::MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB>;

/// The page's look for a chart's axes and grid: the label sizes and the
/// light grey lines every chart shares.
fn house_style<'m, 'a, 'b, DB: DrawingBackend>(
    mesh: &'m mut Mesh<'a, 'b, DB>,
) -> &'m mut Mesh<'a, 'b, DB> {
    mesh.label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .light_line_style(RGBColor(0xf2, 0xf2, 0xf2))
        .bold_line_style(RGBColor(0xdd, 0xdd, 0xdd))
}

/// A chart of years (as numbers, ticks at round years) against a share from
/// 0 to `top`, with room right of the plot for [`legend_outside`].
fn year_chart<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    years: std::ops::Range<f64>,
    top: f64,
) -> Result<ShareChart<'a, 'b>> {
    numeric_chart(
        area,
        years,
        top,
        ("Year", "Draw rate"),
        12,
        LEGEND_ROOM,
        false,
    )
}

/// A chart of a number (whole values on the axis) against a share from 0 to
/// `top`, its axes drawn; `right` pixels right of the plot; vertical grid
/// lines when `x_mesh`.
fn numeric_chart<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    x: std::ops::Range<f64>,
    top: f64,
    (x_desc, y_desc): (&str, &str),
    x_labels: usize,
    right: u32,
    x_mesh: bool,
) -> Result<ShareChart<'a, 'b>> {
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .margin_right(right)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(x, 0f64..top)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    house_style(&mut mesh);
    if !x_mesh {
        mesh.disable_x_mesh();
    }
    mesh.x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(x_labels)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&percent)
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// A visible baseline at 0 across a category chart.
fn baseline<'a, 'b: 'a>(chart: &mut ShareChart<'a, 'b>, n: usize) -> Result<()> {
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
            BLACK.stroke_width(1),
        )))
        .map_err(err)?;
    Ok(())
}

type ShareChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart with one column per label (at x = 0, 1, …) and a share from 0
/// to `top` on the y axis, its axes drawn.
fn category_chart<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    labels: &[String],
    top: f64,
    x_desc: &str,
    y_desc: &str,
) -> Result<ShareChart<'a, 'b>> {
    category_chart_with(area, labels, top, x_desc, y_desc, 16)
}

/// Room right of the plot for a legend outside the data.
pub(crate) const LEGEND_ROOM: u32 = 260;

/// A [`category_chart`] with `right` pixels right of the plot
/// ([`LEGEND_ROOM`] for [`legend_outside`]).
fn category_chart_with<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    labels: &[String],
    top: f64,
    x_desc: &str,
    y_desc: &str,
    right: u32,
) -> Result<ShareChart<'a, 'b>> {
    let n = labels.len();
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .margin_right(right)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..top)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    house_style(&mut mesh)
        .disable_x_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 0.01 && i >= 0.0 && (i as usize) < labels.len() {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        })
        .y_label_formatter(&percent)
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// How a legend entry's sample is drawn.
#[derive(Copy, Clone)]
pub(crate) enum Sample {
    Solid,
    /// Two strokes with a gap: dashed data.
    Dashed,
    /// A short stroke: a prediction.
    Short,
}

/// Draws a legend right of the plot, in the room a [`category_chart_with`]
/// leaves (`x` from the root's left): never over the data. Drawn on the
/// root area, which does not clip it as the plotting area would.
fn legend_outside(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    x: i32,
    entries: &[(String, RGBColor, Sample)],
) -> Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    let row = 18;
    let (top, left) = (20, x + 8);
    let height = row * entries.len() as i32 + 10;
    root.draw(&Rectangle::new(
        [
            (left - 6, top - 6),
            (left + LEGEND_ROOM as i32 - 30, top + height - 6),
        ],
        RGBColor(0xbb, 0xbb, 0xbb).stroke_width(1),
    ))
    .map_err(err)?;
    for (i, (label, color, sample)) in entries.iter().enumerate() {
        let y = top + row * i as i32 + 6;
        let strokes: &[(i32, i32)] = match sample {
            Sample::Solid => &[(0, 18)],
            Sample::Dashed => &[(0, 7), (11, 18)],
            Sample::Short => &[(0, 6)],
        };
        for &(a, b) in strokes {
            root.draw(&PathElement::new(
                vec![(left + a, y), (left + b, y)],
                color.stroke_width(3),
            ))
            .map_err(err)?;
        }
        root.draw(&Text::new(
            label.clone(),
            (left + 24, y - 7),
            (FONT, 13).into_font().color(&BLACK),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// Draws the legend of the series labelled so far, top right.
fn legend_box<'a, 'b: 'a>(chart: &mut ShareChart<'a, 'b>) -> Result<()> {
    legend_at(chart, SeriesLabelPosition::UpperRight)
}

/// Draws the legend at `position`: top left for charts by rating band,
/// whose values mostly rise to the right.
fn legend_at<'a, 'b: 'a>(
    chart: &mut ShareChart<'a, 'b>,
    position: SeriesLabelPosition,
) -> Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(0xbb, 0xbb, 0xbb))
        .label_font((FONT, 13))
        .draw()
        .map_err(err)?;
    Ok(())
}

/// A legend entry with a colour swatch, for series drawn as rectangles.
fn swatch<'a, 'b: 'a>(
    chart: &mut ShareChart<'a, 'b>,
    label: String,
    color: RGBColor,
) -> Result<()> {
    chart
        .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
        .map_err(err)?
        .label(label)
        .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled()));
    Ok(())
}

/// A rate to plot, with its 95% interval: `None` for fewer than 30 games,
/// which are not charted.
pub fn rate_point(p: Option<&Proportion>) -> Option<(f64, f64, f64)> {
    let p = p?;
    if p.n < MIN_CELL_GAMES {
        return None;
    }
    let (lo, hi) = p.wilson95()?;
    Some((p.rate()?, lo, hi))
}

/// One line of a [`lines_by_category`] chart: a value (with its 95%
/// interval) per category, `None` where there are too few games.
pub struct Line {
    pub label: String,
    pub points: Vec<Option<(f64, f64, f64)>>,
    /// Drawn dashed and without intervals (a prediction, not data).
    pub dashed: bool,
    /// Data drawn with a dashed stroke (online series beside over-the-board
    /// ones): told apart by style, not colour alone.
    pub dash: bool,
    /// The line's colour, when the chart's order does not decide it.
    pub color: Option<RGBColor>,
}

/// Lines over categories (bands), with whiskers for the intervals; a line
/// is broken where a value is missing, never drawn across the gap.
pub fn lines_by_category(
    id: &str,
    title: &str,
    desc: &str,
    labels: &[String],
    lines: &[Line],
    axes: (&str, &str),
    ordered: bool,
) -> Result<String> {
    let (x_desc, y_desc) = axes;
    if labels.is_empty() || lines.iter().all(|l| l.points.iter().all(Option::is_none)) {
        return Ok(String::new());
    }
    let top = lines
        .iter()
        .flat_map(|l| l.points.iter().flatten().map(|p| p.2))
        .fold(0.0f64, f64::max);
    let top = fit_top(top);
    let width = (160 + 72 * labels.len() as u32).clamp(560, 1700) + LEGEND_ROOM;
    let mut svg = String::new();
    let mut legend = Vec::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = category_chart_with(&root, labels, top, x_desc, y_desc, LEGEND_ROOM)?;
        baseline(&mut chart, labels.len())?;
        let solid = lines.iter().filter(|l| !l.dashed).count();
        for (i, line) in lines.iter().enumerate() {
            let color = if let Some(color) = line.color {
                color
            } else if ordered && !line.dashed {
                ordered_color(i, solid)
            } else if line.dashed {
                RGBColor(0x55, 0x55, 0x55)
            } else {
                CATEGORY_COLORS[i % CATEGORY_COLORS.len()]
            };
            let style = color.stroke_width(2);
            // Runs of consecutive categories with a value.
            let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
            let mut current = Vec::new();
            for (x, p) in line.points.iter().enumerate() {
                match p {
                    Some((v, _, _)) => current.push((x as f64, *v)),
                    None if !current.is_empty() => runs.push(std::mem::take(&mut current)),
                    None => {}
                }
            }
            if !current.is_empty() {
                runs.push(current);
            }
            legend.push((
                line.label.clone(),
                color,
                if line.dash {
                    Sample::Dashed
                } else if line.dashed {
                    Sample::Short
                } else {
                    Sample::Solid
                },
            ));
            for run in runs {
                if line.dashed || line.dash {
                    chart.draw_series(DashedLineSeries::new(run.clone(), 6, 4, style))
                } else {
                    chart.draw_series(LineSeries::new(run.clone(), style))
                }
                .map_err(err)?;
                chart
                    .draw_series(
                        run.iter()
                            .map(|&(x, v)| Circle::new((x, v), 3, color.filled())),
                    )
                    .map_err(err)?;
            }
            if !line.dashed {
                for (x, p) in line.points.iter().enumerate() {
                    if let Some((_, lo, hi)) = p {
                        let x = x as f64 + 0.04 * i as f64;
                        chart
                            .draw_series(std::iter::once(PathElement::new(
                                vec![(x, *lo), (x, *hi)],
                                color.mix(0.6).stroke_width(1),
                            )))
                            .map_err(err)?;
                    }
                }
            }
        }
        legend_outside(&root, (width - LEGEND_ROOM) as i32, &legend)?;
        root.present().map_err(err)?;
    }
    Ok(accessible(svg, id, title, desc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::table::CubeRow;

    fn row(year: i16, is_draw: bool, moves: u32, games: u64) -> CubeRow {
        CubeRow {
            band: Band::Rated(25),
            year: Some(year),
            is_draw,
            draw_type: is_draw.then(|| "agreed".to_string()),
            moves: Some(moves),
            games,
        }
    }

    #[test]
    fn year_bins_are_steps_as_wide_as_their_years() {
        // Decades before 2000, single years after: the 1970s and the 1980s
        // are steps ten times as wide as the room between 2010 and 2011,
        // and no line joins a decade to a single year.
        let bin = |y: i16| if y < 2000 { y - y.rem_euclid(10) } else { y };
        let rows: Vec<CubeRow> = [1970, 1980, 2010, 2011]
            .into_iter()
            .flat_map(|y| [row(y, true, 30, 40), row(y, false, 40, 60)])
            .collect();
        let stats = DrawStats::from_cube(&rows);
        let svg = rate_by_year(&stats, &BandScheme::width(100), 6, &bin).unwrap();
        let circles: Vec<f64> = svg
            .split("<circle")
            .skip(1)
            .map(|c| {
                let cx = c.split("cx=\"").nth(1).unwrap();
                cx[..cx.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        // Points for the single years only.
        assert_eq!(circles.len(), 2, "{circles:?}");
        let year = (circles[1] - circles[0]).abs();
        // The band's lines (stroke width 2): the two steps, and the line
        // from 2010 to 2011; none spans a decade and a single year.
        let lines = band_lines(&svg);
        assert_eq!(lines.len(), 3, "{lines:?}");
        let steps: Vec<&Vec<(f64, f64)>> = lines
            .iter()
            .filter(|l| l.len() == 2 && l[0].1 == l[1].1 && (l[1].0 - l[0].0) > 2.0 * year)
            .collect();
        assert_eq!(steps.len(), 2, "{lines:?}");
        for step in steps {
            let ratio = (step[1].0 - step[0].0) / year;
            assert!((ratio - 10.0).abs() < 0.5, "{step:?}: {ratio} years wide");
        }
    }

    /// The points of the bands' lines of a chart (stroke width 2; axes and
    /// ticks are width 1, the legend's width 3).
    fn band_lines(svg: &str) -> Vec<Vec<(f64, f64)>> {
        svg.split("<polyline")
            .skip(1)
            .filter(|p| p.contains("stroke-width=\"2\""))
            .map(|p| {
                let list = p.split("points=\"").nth(1).unwrap();
                list[..list.find('"').unwrap()]
                    .split_whitespace()
                    .map(|xy| {
                        let (x, y) = xy.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_missing_year_breaks_the_line() {
        // 2000, 2001 and 2003 have games; 2002 has none.
        let rows: Vec<CubeRow> = [2000, 2001, 2003]
            .into_iter()
            .flat_map(|y| [row(y, true, 30, 40), row(y, false, 40, 60)])
            .collect();
        let stats = DrawStats::from_cube(&rows);
        let svg = rate_by_year(&stats, &BandScheme::width(100), 6, &|y| y).unwrap();
        // The band's line (stroke width 2; axes and ticks are width 1, the
        // legend's width 3) is drawn as 2000–2001, then 2003 alone: no
        // polyline holds all three years.
        let points: Vec<usize> = band_lines(&svg).iter().map(Vec::len).collect();
        assert!(points.contains(&2), "{points:?}");
        assert!(points.iter().all(|&n| n <= 2), "{points:?}");
    }

    #[test]
    fn the_histogram_ends_at_the_data_or_the_short_draw_limits() {
        // Counts in thousands: every y label but 0 is above 200.
        let rows = vec![row(2000, true, 12, 5000), row(2000, true, 18, 5000)];
        let stats = DrawStats::from_cube(&rows);
        let svg = draw_length(&stats, [20, 30]).unwrap();
        // The last axis label is 35 at most: bins up to the 30-move limit.
        let labels: Vec<u32> = svg
            .split("<text")
            .filter_map(|t| t.split('>').nth(1)?.split('<').next()?.trim().parse().ok())
            .collect();
        let last = labels.iter().copied().filter(|&x| x <= 200).max().unwrap();
        assert!(last <= 35, "{labels:?}");
        assert!(svg.contains("Dashed lines mark 20 and 30 moves"));
        let svg = draw_length(&stats, [10, 15]).unwrap();
        assert!(svg.contains("Dashed lines mark 10 and 15 moves"));
    }
}
