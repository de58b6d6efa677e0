//! What each of the summary's queries costs on one batch of a real table
//! (issue 50): run by hand on a release build,
//! `REMIS_COST_TABLE=games.parquet cargo test --release -p remis-report
//! query_costs -- --ignored --nocapture`, and written into
//! docs/performance.md's journal.

use std::time::{Duration, Instant};

use super::*;

/// The process's CPU time so far, all threads (user and system, from
/// `/proc/self/stat`, in clock ticks of 10 ms).
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = after_name
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // utime and stime are the 14th and 15th fields, 12th and 13th after
    // the name.
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

thread_local! {
    /// The mean CPU time (all threads) of the last [`median`]'s calls.
    static LAST_CPU: std::cell::Cell<Duration> = const { std::cell::Cell::new(Duration::ZERO) };
}

/// The median wall time of `runs` calls of `f` (their mean CPU time in
/// [`LAST_CPU`]).
fn median(runs: usize, mut f: impl FnMut() -> Result<()>) -> Result<Duration> {
    let mut times = Vec::with_capacity(runs);
    let cpu = process_cpu();
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed());
    }
    LAST_CPU.set((process_cpu() - cpu) / runs as u32);
    times.sort();
    Ok(times[runs / 2])
}

#[test]
#[ignore = "a measurement on a real table, by hand (REMIS_COST_TABLE)"]
fn query_costs() -> Result<()> {
    let Ok(path) = std::env::var("REMIS_COST_TABLE") else {
        anyhow::bail!("REMIS_COST_TABLE names no table");
    };
    let runs = 5;
    let settings = crate::analysis::Settings::default();
    let config = settings.config();
    let filters = config.filters;
    let rows = remis_table::writer::ROW_GROUP_ROWS;
    let open = table::scan_one(std::path::Path::new(&path))?;
    let batch = table::collect(open.lf.clone().slice(rows as i64, rows as u32))?
        .select(READ.map(Column::name))?;
    remis_core::say!("batch: {} rows of {path}", batch.height());

    let whole = median(runs, || {
        let mut builder = SummaryBuilder::new(&config);
        builder.add(batch.clone().lazy())
    })?;
    let whole_cpu = LAST_CPU.get();
    // The master games' batch counted in Rust, as by the queries.
    let mut in_rust = SummaryBuilder::new(&config);
    in_rust.add(batch.clone().lazy())?;
    let mut by_queries = SummaryBuilder::new(&config).with_queries();
    by_queries.add(batch.clone().lazy())?;
    anyhow::ensure!(in_rust.finish()? == by_queries.finish()?);
    let whole_by_queries = median(runs, || {
        let mut builder = SummaryBuilder::new(&config).with_queries();
        builder.add(batch.clone().lazy())
    })?;
    let whole_by_queries_cpu = LAST_CPU.get();
    let trivial = median(runs, || {
        table::collect(batch.clone().lazy().select([len()]))?;
        Ok(())
    })?;
    let prepare = median(runs, || {
        table::collect(table::prepare(batch.clone().lazy(), filters)?)?;
        Ok(())
    })?;
    let in_rust = median(runs, || {
        table::prepare_frame(&batch, filters)?;
        Ok(())
    })?;
    let prepared = table::collect(table::prepare(batch.clone().lazy(), filters)?)?
        .sort([table::ROW], Default::default())?;
    // The master games' rows prepared in Rust, row by row as polars does.
    let ours = table::prepare_frame(&batch, filters)?;
    for column in prepared.columns() {
        anyhow::ensure!(
            ours.column(column.name())?.equals_missing(column),
            "{} differs",
            column.name()
        );
    }
    let used = || table::used(prepared.clone().lazy());
    let names = table::collect(rule_study::names_query(used()))?;
    let event_games = table::collect(scoring::event_games_query(used()))?;
    let players = table::collect(players::query(used()))?;

    type Query<'q> = Box<dyn Fn() -> Result<Vec<LazyFrame>> + 'q>;
    let one = |q: LazyFrame| -> Result<Vec<LazyFrame>> { Ok(vec![q]) };
    let queries: Vec<(&str, Query)> = vec![
        (
            "coverage",
            Box::new(|| one(table::coverage_query(prepared.clone().lazy()))),
        ),
        (
            "marks",
            Box::new(|| one(table::marks_query(batch.clone().lazy()))),
        ),
        ("cube", Box::new(|| one(table::cube_query(used())))),
        ("outcomes", Box::new(|| one(outcomes::counts_query(used())))),
        (
            "rating gap",
            Box::new(|| one(games::rating_gap_query(used(), &filters.bands))),
        ),
        (
            "openings (ECO)",
            Box::new(|| one(games::opening_query(used(), Column::Eco))),
        ),
        (
            "openings (name)",
            Box::new(|| one(games::opening_query(used(), Column::Opening))),
        ),
        (
            "time classes",
            Box::new(|| one(games::time_classes_query(used()))),
        ),
        ("clocks", Box::new(|| one(games::clocks_query(used())))),
        ("play", Box::new(|| one(games::play_query(used())))),
        (
            "format audit",
            Box::new(|| one(format_audit::query(used()))),
        ),
        (
            "draw types by class",
            Box::new(|| one(games::draw_types_by_class_query(used()))),
        ),
        ("lengths", Box::new(|| one(games::lengths_query(used())))),
        (
            "audit counts",
            Box::new(|| one(audit::counts_query(used()))),
        ),
        (
            "audit examples",
            Box::new(|| Ok(audit::example_queries(used()))),
        ),
        (
            "event games",
            Box::new(|| one(scoring::event_games_query(used()))),
        ),
        (
            "pairing rows",
            Box::new(|| one(scoring::pairing_rows_query(used()))),
        ),
        (
            "plus-remise",
            Box::new(|| one(scoring::plus_remise_query(used()))),
        ),
        (
            "event names",
            Box::new(|| one(rule_study::names_query(used()))),
        ),
        ("players", Box::new(|| one(players::query(used())))),
        ("collection", Box::new(|| one(collection::query(used())))),
        (
            "evidence",
            Box::new(|| one(collection::evidence_query(used()))),
        ),
        (
            "expected-draw cells",
            Box::new(|| one(expected::cells::cells_query(used()))),
        ),
        (
            "expected-draw players",
            Box::new(|| one(expected::cells::players_query(used()))),
        ),
        (
            "standings",
            Box::new(|| one(scoring::standings_query(used(), &event_games))),
        ),
        (
            "expected-draw series",
            Box::new(|| {
                Ok(
                    expected::cells::series_query(used(), &names, config.catalogue)?
                        .into_iter()
                        .collect(),
                )
            }),
        ),
        (
            "rule study",
            Box::new(|| {
                Ok(
                    rule_study::queries(used(), &names, config.catalogue, filters.short_draws)?
                        .map(Vec::from)
                        .unwrap_or_default(),
                )
            }),
        ),
    ];
    let mut table_rows = vec![
        ("the whole batch, as `add` runs it".to_string(), whole),
        (
            "the whole batch, by the queries only (`with_queries`)".to_string(),
            whole_by_queries,
        ),
        ("a trivial query (`select len`)".to_string(), trivial),
        ("prepare (collected)".to_string(), prepare),
        (
            "prepare in Rust (`table::prepare_frame`)".to_string(),
            in_rust,
        ),
    ];
    let used_rows = table::collect(used())?;
    let counted = median(runs, || {
        counters::count(&used_rows, &filters.bands)?;
        Ok(())
    })?;
    remis_core::say!(
        "counted in Rust: CPU {:.1} ms",
        LAST_CPU.get().as_secs_f64() * 1e3
    );
    table_rows.push((
        "cube, outcomes, gap, time classes, clocks, format: counted in Rust".to_string(),
        counted,
    ));
    let tallied = median(runs, || {
        counters::tally(&used_rows)?;
        Ok(())
    })?;
    table_rows.push((
        "openings, format audit, audit, plus-remise, collection, evidence: counted in Rust"
            .to_string(),
        tallied,
    ));
    let tallied_by_queries = median(runs, || {
        let mut batch = table::Batch::default();
        let tickets = counters::TallyTickets::add(&mut batch, &used());
        tickets.read(&batch.run()?)?;
        Ok(())
    })?;
    table_rows.push((
        "the same by their queries, run together and read".to_string(),
        tallied_by_queries,
    ));
    type Counter = fn(&DataFrame) -> Result<()>;
    let counters: [(&str, Counter); 6] = [
        ("openings", |u| games::openings_used(u).map(drop)),
        ("format audit", |u| format_audit::count_used(u).map(drop)),
        ("audit", |u| audit::count_used(u).map(drop)),
        ("plus-remise", |u| scoring::plus_remise_used(u).map(drop)),
        ("collection", |u| collection::count_used(u).map(drop)),
        ("evidence", |u| collection::evidence_used(u).map(drop)),
    ];
    for (name, count) in counters {
        let took = median(runs, || count(&used_rows))?;
        table_rows.push((format!("{name}: counted in Rust"), took));
    }
    // The counts by event (the second batch of queries before): in
    // Rust, all together as `add_rows` counts them and each apart.
    let builder = SummaryBuilder::new(&config);
    let by_event = median(runs, || builder.events_in_rust(&used_rows).map(drop))?;
    let by_event_cpu = LAST_CPU.get();
    table_rows.push((
        "standings, pairings, expected-draw cells and series, rule study: counted in Rust"
            .to_string(),
        by_event,
    ));
    let by_event_queries = median(runs, || {
        let mut first = table::Batch::default();
        let tickets = events::FirstTickets::add(&mut first, &used());
        let first = first.run()?;
        builder
            .events_by_queries(&used(), &first, tickets)
            .map(drop)
    })?;
    remis_core::say!(
        "counts by event, CPU all threads: in Rust {:.1} ms, by their queries {:.1} ms",
        by_event_cpu.as_secs_f64() * 1e3,
        LAST_CPU.get().as_secs_f64() * 1e3
    );
    table_rows.push((
        "the same by their queries (two batches), run and read".to_string(),
        by_event_queries,
    ));
    let named = rule_study::catalogue_names(&used_rows, config.catalogue)?;
    let apart = [
        (
            "event games, standings, pairings",
            median(runs, || standings::count(&used_rows).map(drop))?,
        ),
        (
            "expected-draw cells and series",
            median(runs, || {
                expected::cells::counts_used(&used_rows, &named, config.catalogue).map(drop)
            })?,
        ),
        (
            "players and their cells, numbered",
            median(runs, || {
                let mut numbered = numbered::Numbered::default();
                let sides = numbered.numbering.sides_of(&used_rows, config.aliases)?;
                numbered.add_players(&used_rows, &sides)?;
                numbered.add_cells(&used_rows, &sides)
            })?,
        ),
        (
            "rule study",
            median(runs, || {
                rule_study::counts_used(&used_rows, &named, filters.short_draws).map(drop)
            })?,
        ),
    ];
    for (name, took) in apart {
        table_rows.push((format!("{name}: counted in Rust"), took));
    }
    let mut sum = Duration::ZERO;
    for (name, query) in &queries {
        let took = median(runs, || {
            let mut batch = table::Batch::default();
            for q in query()? {
                batch.add(q);
            }
            batch.run()?;
            Ok(())
        })?;
        sum += took;
        table_rows.push((format!("{name} (on the prepared rows)"), took));
    }
    let players_from = median(runs, || {
        let aliases = remis_table::players::Aliases::default();
        players::counts_from(&players, &aliases)?;
        players::counts_from(&players::classical(&players)?, &aliases)?;
        Ok(())
    })?;
    table_rows.push(("players: counts_from, in Rust".to_string(), players_from));
    table_rows.push(("sum of the queries".to_string(), sum));
    remis_core::say!(
        "CPU, all threads: whole {:.1} ms, by the queries only {:.1} ms",
        whole_cpu.as_secs_f64() * 1e3,
        whole_by_queries_cpu.as_secs_f64() * 1e3
    );
    for (name, took) in table_rows {
        remis_core::say!("| {name} | {:.1} |", took.as_secs_f64() * 1e3);
    }
    Ok(())
}

#[test]
#[ignore = "a comparison on a real table, by hand (REMIS_COST_TABLE)"]
fn the_whole_table_counted_in_rust_equals_its_queries() -> Result<()> {
    // The whole table, in `classify`'s row groups and in batches of
    // `BATCH_ROWS`, its pairings kept whole and (past 50,000 games)
    // judged batch by batch, counted in Rust and by the queries: equal,
    // field for field (what the tests hold on the fixtures, on a real
    // table).
    let Ok(path) = std::env::var("REMIS_COST_TABLE") else {
        anyhow::bail!("REMIS_COST_TABLE names no table");
    };
    let path = std::path::Path::new(&path);
    let settings = crate::analysis::Settings::default();
    let config = settings.config();
    let row_groups = remis_table::writer::ROW_GROUP_ROWS;
    for (rows, kept) in [
        (row_groups, PAIRINGS_KEPT),
        (BATCH_ROWS, PAIRINGS_KEPT),
        (row_groups, 50_000),
    ] {
        let builder = || SummaryBuilder::new(&config).with_pairings_kept(kept);
        let start = Instant::now();
        let in_rust = crate::analysis::summarize_with(path, builder(), rows)?;
        let in_rust_took = start.elapsed();
        let start = Instant::now();
        let by_queries = crate::analysis::summarize_with(path, builder().with_queries(), rows)?;
        remis_core::say!(
            "batches of {rows}, {kept} pairings kept: {} rows, in Rust {:.2} s, by the queries {:.2} s",
            in_rust.rows(),
            in_rust_took.as_secs_f64(),
            start.elapsed().as_secs_f64()
        );
        anyhow::ensure!(in_rust.scoring == by_queries.scoring, "the scoring differs");
        anyhow::ensure!(in_rust.expected == by_queries.expected, "the cells differ");
        anyhow::ensure!(
            in_rust.rule_study == by_queries.rule_study,
            "the rule study differs"
        );
        anyhow::ensure!(in_rust == by_queries, "the summaries differ");
    }
    Ok(())
}
