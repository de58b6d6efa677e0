//! `remis sofia TABLE...`: events under rules against short draws ("Sofia
//! rules") against comparable events without them, in the terminal.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::Result;

use super::filters::{FilterArgs, SourceArgs};
use remis_core::rules::DrawType;
use remis_report::analysis::rule_study::{self, Measure};
use remis_report::render::format::percent;
use remis_report::render::text::{self, StudyFormat};
use remis_report::study::Proportion;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: super::filters::TablesArg,
    /// Events and their rules (TOML, like data/events.toml); default: the
    /// catalogue built into remis.
    #[arg(long)]
    events: Option<PathBuf>,
    /// How to print: text for the terminal, or one JSON document for
    /// notebooks and scripts.
    #[arg(long, value_enum, default_value_t = StudyFormat::Table)]
    format: StudyFormat,
    #[command(flatten)]
    filters: FilterArgs,
    #[command(flatten)]
    source: SourceArgs,
}

fn effect_json(e: Option<&rule_study::Effect>) -> serde_json::Value {
    match e {
        None => serde_json::Value::Null,
        Some(e) => serde_json::json!({
            "estimate": e.estimate,
            "ci95_low": e.interval.map(|i| i.0),
            "ci95_high": e.interval.map(|i| i.1),
        }),
    }
}

fn group_json(g: &rule_study::GroupStats, limits: [u32; 2]) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("games".into(), g.games.into());
    for measure in Measure::all() {
        let p = g.share(measure);
        m.insert(
            measure.label(limits),
            serde_json::json!({"count": p.successes, "share": p.rate()}),
        );
    }
    m.insert(
        "mean_draw_moves".into(),
        g.mean_draw_moves().map(|t| t.0).into(),
    );
    for kind in DrawType::ALL {
        m.insert(
            format!("draws_{}", kind.as_str()),
            g.draw_type_share(kind).successes.into(),
        );
    }
    serde_json::Value::Object(m)
}

fn study_json(study: &rule_study::RuleStudy) -> serde_json::Value {
    let limits = study.short_limits;
    serde_json::json!({
        "short_draw_limits": limits,
        "regimes": study.regimes.iter().map(|(r, g)| (r.as_str().to_string(), group_json(g, limits))).collect::<serde_json::Map<_, _>>(),
        "draw_rate_ci95_by_player": study.by_player.iter().map(|(r, ci)| (r.as_str().to_string(), serde_json::json!(ci))).collect::<serde_json::Map<_, _>>(),
        "rule_editions_draw_rate_ci95_by_player": study.rule_by_player,
        "effects": study.effects.iter().map(|(m, raw, adj)| serde_json::json!({
            "measure": m.label(limits), "raw": effect_json(raw.as_ref()), "adjusted": effect_json(adj.as_ref())
        })).collect::<Vec<_>>(),
        "changes": study.changes.iter().map(|c| serde_json::json!({
            "series": c.series, "regimes": c.regimes.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
            "after_years": c.after_years, "before_years": c.before_years, "editions": c.editions,
            "after": group_json(&c.after, limits), "before": group_json(&c.before, limits),
            "control_after": group_json(&c.control_after, limits), "control_before": group_json(&c.control_before, limits),
            "effects": c.effects.iter().map(|(m, raw, adj)| serde_json::json!({
                "measure": m.label(limits), "raw": effect_json(Some(raw)), "adjusted": effect_json(adj.as_ref())
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "editions": study.editions.iter().map(|e| serde_json::json!({
            "series": e.series, "year": e.year, "regime": e.regime.as_str(),
            "games": e.total.games, "draws": e.total.draws, "agreed": e.total.agreed,
            "rounds_seen": e.rounds_seen, "last_round": e.last_round, "players": e.players,
            "inferred": e.inferred,
            "expected_games": e.expected_games(),
        })).collect::<Vec<_>>(),
        "fast_games_left_out": study.fast_games_left_out,
    })
}

pub fn run(args: Args) -> Result<ExitCode> {
    let settings = args.filters.settings(args.events.as_ref())?;
    let loaded = super::filters::load(&args.tables.tables, &settings, &args.source)?;
    let study = rule_study::rule_study(
        &loaded.summary.rule_study,
        &settings.catalogue,
        &settings.patterns,
        settings.filters.short_draws,
    );
    let mut out = remis_core::excerpt::TerminalSafe(std::io::stdout().lock());
    if args.format == StudyFormat::Json {
        serde_json::to_writer_pretty(&mut out, &study_json(&study))?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if study.is_empty() {
        writeln!(
            out,
            "no games of the catalogue's events in these tables ({})",
            settings.filters.describe().join(", ")
        )?;
        writeln!(
            out,
            "\nThe study compares elite over-the-board events played under rules against short\n\
             draws (M-Tel Masters Sofia 2005-09, Bilbao, Nanjing, the London Chess Classic) with\n\
             comparable events without them (Corus/Tata Steel, Linares, Dortmund, Tal Memorial,\n\
             Biel). It needs those events' games: classify a collection that holds them, such as\n\
             the players' files of pgnmentor.com or The Week in Chess issues of those years, e.g.\n\
             \n    remis classify players/ --dedup --out masters && remis sofia masters --dedup\n\
             \n`remis sofia --events FILE` takes your own catalogue (data/events.toml is the format).\n\
             `make sofia-demo` shows the output on generated games with a made-up catalogue."
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let limits = study.short_limits;
    write!(out, "{:<40} {:>7}", "regime", "games")?;
    for m in Measure::all() {
        write!(out, "  {:<24}", m.label(limits))?;
    }
    writeln!(out, "  mean draw length")?;
    let rule = study.rule_games();
    for (label, g) in study
        .regimes
        .iter()
        .map(|(r, g)| (r.label(), g))
        .chain(std::iter::once(("All rule editions", &rule)))
    {
        write!(out, "{label:<40} {:>7}", g.games)?;
        for m in Measure::all() {
            write!(out, "  {:<24}", cell(g.share(m)))?;
        }
        let mean = g.mean_draw_moves().map_or("–".into(), |(m, lo, hi)| {
            format!("{m:.1} ({lo:.1}–{hi:.1})")
        });
        writeln!(out, "  {mean}")?;
    }
    writeln!(
        out,
        "\nrule minus control, percentage points (95% bootstrap interval over editions):"
    )?;
    for (m, raw, adjusted) in &study.effects {
        writeln!(
            out,
            "  {:<24} raw {:<28} strength-adjusted {}",
            m.label(limits),
            text::effect(raw.as_ref()),
            text::effect(adjusted.as_ref())
        )?;
    }
    if study.changes.is_empty() {
        writeln!(
            out,
            "\nno series in these tables has editions with and without a rule: no difference in differences"
        )?;
    }
    for c in &study.changes {
        let years = |y: &[i16]| {
            y.iter()
                .map(|y| y.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        writeln!(
            out,
            "\n{} ({}): with the rule {}, without {}; editions {} / {} / controls {} and {}",
            c.series,
            c.rules_label(),
            years(&c.after_years),
            years(&c.before_years),
            c.editions[0],
            c.editions[1],
            c.editions[2],
            c.editions[3]
        )?;
        for (m, raw, adjusted) in &c.effects {
            writeln!(
                out,
                "  difference in differences, {:<24} raw {:<28} strength-adjusted {}",
                m.label(limits),
                text::effect(Some(raw)),
                text::effect(adjusted.as_ref())
            )?;
        }
    }
    if study.fast_games_left_out > 0 {
        writeln!(
            out,
            "\n{} games of these events left out: rapid, blitz, blindfold or simul by name",
            study.fast_games_left_out
        )?;
    }
    writeln!(
        out,
        "\nWhat this means: {}",
        remis_report::render::sections::RULE_STUDY_MEANING
    )?;
    writeln!(
        out,
        "\nWhat it cannot show: {}",
        remis_report::render::sections::RULE_STUDY_LIMITS
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn cell(p: Proportion) -> String {
    match (p.rate(), p.wilson95()) {
        (Some(r), Some((lo, hi))) => {
            format!("{} ({:.1}–{:.1})", percent(r), lo * 100.0, hi * 100.0)
        }
        _ => "–".into(),
    }
}
