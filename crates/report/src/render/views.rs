//! The views of `remis stats` as tables (text, CSV, JSON through
//! [`Table`]), one per analysis; the binary only picks one and prints it.

use std::io::Write;

use remis_core::excerpt::shown;

use super::format::csv_field;
use super::text::{Cell, Format, Table};
use crate::analysis::audit::Audit;
use crate::analysis::draws::DrawStats;
use crate::analysis::games;
use crate::analysis::outcomes::{OutcomeCounts, Outcomes};
use crate::study::{BandScheme, Proportion};

fn share(p: &Proportion) -> [Cell; 3] {
    let (lo, hi) = p
        .wilson95()
        .map_or((None, None), |(l, h)| (Some(l), Some(h)));
    [Cell::Share(p.rate()), Cell::Share(lo), Cell::Share(hi)]
}

pub fn draws_table(stats: &DrawStats, scheme: &BandScheme, by_band: bool) -> Table {
    let mut t = Table::new(vec![
        "band",
        "year",
        "games",
        "draws",
        "draw_rate",
        "ci95_low",
        "ci95_high",
    ]);
    let mut row = |band: String, year: Option<i16>, p: &Proportion| {
        let mut cells = vec![
            Cell::Text(band),
            Cell::Text(year.map_or("all".into(), |y| y.to_string())),
            Cell::Count(p.n),
            Cell::Count(p.successes),
        ];
        cells.extend(share(p));
        t.push(cells);
    };
    for (&band, total) in &stats.by_band {
        if !by_band {
            for ((b, y), p) in stats
                .by_band_year
                .range((band, i16::MIN)..=(band, i16::MAX))
            {
                debug_assert_eq!(*b, band);
                row(scheme.label(band), Some(*y), p);
            }
        }
        row(scheme.label(band), None, total);
    }
    row("all".into(), None, &stats.overall());
    t
}

pub fn outcomes_table(o: &Outcomes, scheme: &BandScheme, by_band: bool) -> Table {
    let mut t = Table::new(vec![
        "band",
        "year",
        "games",
        "white_wins",
        "draws",
        "black_wins",
        "white_score",
        "ci95_low",
        "ci95_high",
        "expected_score",
    ]);
    let mut row = |band: String, year: Option<i16>, c: &OutcomeCounts| {
        let (s, lo, hi) = c
            .white_score()
            .map_or((None, None, None), |(s, l, h)| (Some(s), Some(l), Some(h)));
        t.push(vec![
            Cell::Text(band),
            Cell::Text(year.map_or("all".into(), |y| y.to_string())),
            Cell::Count(c.games()),
            Cell::Count(c.white_wins),
            Cell::Count(c.draws),
            Cell::Count(c.black_wins),
            Cell::Number(s),
            Cell::Number(lo),
            Cell::Number(hi),
            Cell::Number(c.expected_white_score()),
        ]);
    };
    for (&band, total) in &o.by_band {
        if !by_band {
            for ((_, y), c) in o.by_band_year.range((band, i16::MIN)..=(band, i16::MAX)) {
                row(scheme.label(band), Some(*y), c);
            }
        }
        row(scheme.label(band), None, total);
    }
    row("all".into(), None, &o.overall);
    t
}

pub fn gap_table(g: &games::RatingGap, scheme: &BandScheme) -> Table {
    let mut t = Table::new(vec![
        "mean_rating",
        "gap",
        "games",
        "draws",
        "draw_rate",
        "ci95_low",
        "ci95_high",
    ]);
    for (&(band, bin), p) in &g.cells {
        let mut cells = vec![
            Cell::Text(scheme.label(band)),
            Cell::Text(games::gap_label(bin)),
            Cell::Count(p.n),
            Cell::Count(p.successes),
        ];
        cells.extend(share(p));
        t.push(cells);
    }
    t
}

pub fn openings_table(o: &games::Openings) -> Table {
    let mut t = Table::new(vec![
        "by",
        "opening",
        "games",
        "draws",
        "draw_rate",
        "ci95_low",
        "ci95_high",
    ]);
    for (by, groups) in [("eco", &o.by_eco), ("name", &o.by_name)] {
        for g in groups {
            let mut cells = vec![
                Cell::Text(by.into()),
                Cell::Text(g.name.clone()),
                Cell::Count(g.draws.n),
                Cell::Count(g.draws.successes),
            ];
            cells.extend(share(&g.draws));
            t.push(cells);
        }
    }
    t
}

pub fn time_classes_table(tc: &games::TimeClasses, scheme: &BandScheme) -> Table {
    let mut t = Table::new(vec![
        "time_class",
        "band",
        "games",
        "draws",
        "draw_rate",
        "ci95_low",
        "ci95_high",
    ]);
    for (class, total) in &tc.by_class {
        for ((c, band), p) in &tc.by_class_band {
            if c == class {
                let mut cells = vec![
                    Cell::Text(class.clone()),
                    Cell::Text(scheme.label(*band)),
                    Cell::Count(p.n),
                    Cell::Count(p.successes),
                ];
                cells.extend(share(p));
                t.push(cells);
            }
        }
        let mut cells = vec![
            Cell::Text(class.clone()),
            Cell::Text("all".into()),
            Cell::Count(total.n),
            Cell::Count(total.successes),
        ];
        cells.extend(share(total));
        t.push(cells);
    }
    t
}

pub fn clocks_table(c: &games::Clocks) -> Table {
    let mut t = Table::new(vec!["games", "clock", "count"]);
    for (what, bins, missing) in [
        (
            "agreed draws (lower clock)",
            &c.agreed_lower_clock,
            c.agreed_without_clock,
        ),
        (
            "won on time (winner's clock)",
            &c.flag_winner_clock,
            c.flag_without_clock,
        ),
    ] {
        for bin in 0..=games::CLOCK_EDGES.len() {
            t.push(vec![
                Cell::Text(what.into()),
                Cell::Text(games::clock_label(bin)),
                Cell::Count(bins.get(&bin).copied().unwrap_or(0)),
            ]);
        }
        t.push(vec![
            Cell::Text(what.into()),
            Cell::Text("no clock".into()),
            Cell::Count(missing),
        ]);
    }
    t
}

/// Players `--view players` lists.
pub const PLAYERS_LISTED: usize = 100;

pub fn players_table(c: &crate::analysis::players::Concentration) -> Table {
    let mut t = Table::new(vec![
        "player",
        "games",
        "draws",
        "draw_rate",
        "ci95_low",
        "ci95_high",
        "spellings",
    ]);
    let spellings: std::collections::BTreeMap<&str, String> = c
        .merges
        .iter()
        .map(|(name, s)| {
            (
                name.as_str(),
                crate::analysis::players::spelling_list(s, " | "),
            )
        })
        .collect();
    for f in &c.top {
        let mut cells = vec![
            Cell::Text(f.name.clone()),
            Cell::Count(f.games.n),
            Cell::Count(f.games.successes),
        ];
        cells.extend(share(&f.games));
        cells.push(Cell::Text(
            spellings.get(f.name.as_str()).cloned().unwrap_or_default(),
        ));
        t.push(cells);
    }
    t
}

/// The results the Laws contradict, as text, CSV or JSON.
/// The audit, with whose games it counts (`population`): a field of the
/// JSON document, a column of the CSV, a line of the text.
pub fn write_audit(
    out: &mut dyn Write,
    audit: &Audit,
    population: &str,
    format: Format,
) -> std::io::Result<()> {
    let past_dead = "moves_after_dead_position";
    match format {
        Format::Json => {
            let mut document = serde_json::to_value(audit)?;
            if let Some(fields) = document.as_object_mut() {
                fields.insert("population".into(), population.into());
            }
            serde_json::to_writer_pretty(&mut *out, &document)?;
            writeln!(out)?;
        }
        Format::Csv => {
            let population = csv_field(population);
            writeln!(out, "contradiction,games,population")?;
            for (mismatch, finding) in &audit.mismatches {
                writeln!(out, "{},{},{population}", mismatch.as_str(), finding.games)?;
            }
            writeln!(
                out,
                "{past_dead},{},{population}",
                audit.past_dead_position.games
            )?;
        }
        Format::Table => {
            writeln!(out, "Counts: {population}")?;
            writeln!(
                out,
                "Results the Laws contradict, of {} games used:",
                audit.games
            )?;
            for (label, finding) in audit.findings() {
                writeln!(out, "{:>9}  {label}", finding.games)?;
                for e in &finding.examples {
                    let text = |v: &Option<String>| {
                        v.as_deref()
                            .map_or_else(|| "?".into(), |v| shown(v).into_owned())
                    };
                    let place = e
                        .site
                        .as_deref()
                        .filter(|s| s.starts_with("http"))
                        .map_or_else(
                            || format!("{} game {}", shown(&e.source), e.game_no),
                            |site| shown(site).into_owned(),
                        );
                    writeln!(
                        out,
                        "           {} – {}, {} {} ({})  {place}\n             why: {}",
                        text(&e.white),
                        text(&e.black),
                        text(&e.event),
                        text(&e.date),
                        text(&e.result),
                        crate::render::explain::command(&e.source, u64::from(e.game_no))
                    )?;
                }
            }
            writeln!(
                out,
                "dead final positions {} ({} by search only), dead before the last move {}, searches that gave up {}",
                audit.dead_final, audit.dead_by_search, audit.dead_mid_game, audit.search_unknown
            )?;
            if audit.presumed_alive + audit.presumed_mateable > 0 {
                writeln!(
                    out,
                    "not searched, presumed: {} final positions alive, {} flag falls with the opponent able to mate",
                    audit.presumed_alive, audit.presumed_mateable
                )?;
            }
        }
    }
    Ok(())
}

/// Under the draws view in the terminal: the rows read and used, the format
/// the table holds, and every reason rows were left out.
pub fn write_draws_coverage(
    out: &mut dyn Write,
    aggregate: &crate::analysis::Aggregate,
) -> std::io::Result<()> {
    let read: u64 = aggregate.coverage.iter().map(|(_, n)| n).sum();
    writeln!(out, "rows read {read}, used {}", aggregate.all.games)?;
    if !aggregate.lead_is_all {
        writeln!(
            out,
            "this table: {} only, {} of the {} games used (--play all mixes every format)",
            aggregate.lead.label(),
            aggregate.stats.games,
            aggregate.all.games
        )?;
    }
    for (reason, n) in &aggregate.coverage {
        if reason != crate::analysis::table::USED {
            writeln!(out, "  left out: {}: {n}", shown(reason))?;
        }
    }
    Ok(())
}

/// The expected-draw model (`analysis::expected`) as one long table: its
/// coefficients and knots, calibration and excess draws by band, by year,
/// by series and by player (`part` says which: the players with the most
/// games, every player kept with `with_cells`, and a row of the game sides
/// of no player kept), and with `with_cells` every cell it was fitted on
/// (mean rating and gap as the cell's means), so that a script can fit it
/// again.
pub fn expected_table(
    model: &Result<crate::analysis::expected::ExpectedDraws, crate::analysis::expected::NotFitted>,
    with_cells: bool,
) -> Table {
    use crate::analysis::expected::{CALIBRATION_BAND, TOP_PLAYERS, Versus, cells, format_label};
    let mut t = Table::new(vec![
        "part",
        "group",
        "format",
        "year",
        "mean_rating",
        "gap",
        "games",
        "draws",
        "expected_draws",
        "observed_rate",
        "observed_ci95_low",
        "observed_ci95_high",
        "expected_rate",
        "excess_draws",
        "excess_rate",
        "excess_ci95_low",
        "excess_ci95_high",
        "estimate",
        "std_error",
    ]);
    let model = match model {
        Ok(model) => model,
        Err(why) => {
            let mut row = vec![Cell::Text("not fitted".into()), Cell::Text(why.to_string())];
            row.resize(t.columns.len(), Cell::Number(None));
            row[2] = Cell::Text(String::new());
            row[3] = Cell::Text(String::new());
            t.push(row);
            return t;
        }
    };
    let text = |s: &str| Cell::Text(s.to_string());
    let none = || Cell::Number(None);
    let compared = |v: &Versus| -> Vec<Cell> {
        let (lo, hi) = v
            .observed()
            .wilson95()
            .map_or((None, None), |(l, h)| (Some(l), Some(h)));
        let (rate, elo, ehi) = v
            .excess_rate()
            .map_or((None, None, None), |(r, l, h)| (Some(r), Some(l), Some(h)));
        vec![
            Cell::Count(v.games),
            Cell::Count(v.draws),
            Cell::Number(Some(v.expected)),
            Cell::Share(v.observed_rate()),
            Cell::Share(lo),
            Cell::Share(hi),
            Cell::Share(v.expected_rate()),
            Cell::Number(Some(v.excess())),
            Cell::Share(rate),
            Cell::Share(elo),
            Cell::Share(ehi),
            none(),
            none(),
        ]
    };
    let blank = || -> Vec<Cell> { (0..11).map(|_| none()).collect() };
    let reference = format_label(&model.specification.reference);
    for c in &model.coefficients {
        let mut row = vec![text("coefficient"), text(&c.term), text(""), text("")];
        row.extend([none(), none()]);
        row.extend(blank());
        row.extend([
            Cell::Number(Some(c.estimate)),
            Cell::Number(Some(c.std_error)),
        ]);
        t.push(row);
    }
    for &k in &model.specification.knots {
        let mut row = vec![text("knot"), text(&format!("{k:.0}")), text(""), text("")];
        row.extend([Cell::Number(Some(k)), none()]);
        row.extend(blank());
        row.extend([none(), none()]);
        t.push(row);
    }
    let mut push = |part: &str, group: String, year: Option<i16>, v: &Versus| {
        let mut row = vec![
            text(part),
            Cell::Text(group),
            text(""),
            Cell::Text(year.map_or(String::new(), |y| y.to_string())),
            none(),
            none(),
        ];
        row.extend(compared(v));
        t.push(row);
    };
    push("all", "every rated game".into(), None, &model.total);
    for (&band, v) in &model.by_band {
        push(
            "band",
            format!("{band}–{}", band + CALIBRATION_BAND - 1),
            None,
            v,
        );
    }
    for (&year, v) in &model.by_year {
        push("year", year.to_string(), Some(year), v);
    }
    if model.undated.games > 0 {
        push("year", "no year".into(), None, &model.undated);
    }
    for (series, v) in &model.by_series {
        push("series", series.clone(), None, v);
    }
    let listed = if with_cells {
        model.by_player.len()
    } else {
        TOP_PLAYERS
    };
    for player in model.by_player.iter().take(listed) {
        push("player", player.name.clone(), None, &player.versus);
    }
    if model.player_sides_outside.games > 0 {
        push(
            "player",
            format!(
                "game sides of no player kept (unnamed, or of the {} players folded past the cap; {} players kept)",
                model.players_folded,
                model.by_player.len()
            ),
            None,
            &model.player_sides_outside,
        );
    }
    if with_cells {
        let width = cells::BIN_WIDTH;
        for c in &model.cells {
            let gap = if c.key.gap_bin >= cells::GAP_CAP {
                format!("gap ≥ {}", c.key.gap_bin)
            } else {
                format!("gap {}–{}", c.key.gap_bin, c.key.gap_bin + width - 1)
            };
            let mut row = vec![
                text("cell"),
                Cell::Text(format!(
                    "mean {}–{}, {gap}",
                    c.key.mean_bin,
                    c.key.mean_bin + width - 1
                )),
                Cell::Text(format_label(&c.format)),
                Cell::Text(c.key.year.map_or(String::new(), |y| y.to_string())),
                Cell::Number(Some(c.counts.mean_rating())),
                Cell::Number(Some(c.counts.mean_gap())),
                Cell::Count(c.counts.games),
                Cell::Count(c.counts.draws),
                Cell::Number(Some(c.probability * c.counts.games as f64)),
            ];
            row.extend((0..10).map(|_| none()));
            t.push(row);
        }
    }
    // The model's rows are of its one format, or of every format it
    // holds (each cell names its own).
    let whole = if model.specification.formats.is_empty() {
        reference
    } else {
        "every format of the population".to_string()
    };
    for row in &mut t.rows {
        if matches!(&row[0], Cell::Text(p) if p != "cell") {
            row[2] = Cell::Text(whole.clone());
        }
    }
    t
}
