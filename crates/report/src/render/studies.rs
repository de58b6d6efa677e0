//! The rule study (`remis sofia`) and the scoring study (`remis scoring`)
//! for the terminal and as JSON documents for notebooks and scripts; the
//! report's sections render the same studies as HTML.

use std::io::Write;

use remis_core::excerpt::Shown;
use remis_core::rules::DrawType;

use crate::analysis::rule_study::{self, Measure, inference};
use crate::analysis::scoring;
use crate::render::format::percent;
use crate::render::text;
use crate::study::Proportion;
use crate::study::events::Regime;

fn effect_json(e: Option<&rule_study::Effect>) -> serde_json::Value {
    match e {
        None => serde_json::Value::Null,
        Some(e) => serde_json::json!({
            "estimate": e.estimate,
            "ci95_low": e.interval.map(|i| i.0),
            "ci95_high": e.interval.map(|i| i.1),
            "smallest_group_editions": e.smallest_group,
            "interval_withheld": e.withheld.map(|w| w.reason()),
        }),
    }
}

/// A JSON object by regime, each keyed by the regime's name.
fn by_regime<'a>(
    entries: impl IntoIterator<Item = (&'a Regime, serde_json::Value)>,
) -> serde_json::Map<String, serde_json::Value> {
    entries
        .into_iter()
        .map(|(r, v)| (r.as_str().to_string(), v))
        .collect()
}

/// A model's estimates (the primary model's and the pair-effects
/// model's alike).
fn model_rows_json(rows: &[rule_study::model::ModelRow], limits: [u32; 2]) -> serde_json::Value {
    rows.iter()
        .map(|r| {
            serde_json::json!({
                "regime": r.regime.as_str(), "measure": r.measure.label(limits),
                "primary": r.measure == Measure::Draws,
                "effect": effect_json(Some(&r.effect)),
                "p_value": r.p_value, "holm_p_value": r.holm_p_value,
            })
        })
        .collect()
}

fn stratified_json(s: Option<&rule_study::wild::Stratified>) -> serde_json::Value {
    match s {
        None => serde_json::Value::Null,
        Some(s) => serde_json::json!({
            "estimate": s.effect.estimate,
            "ci95_low": s.effect.interval.map(|i| i.0),
            "ci95_high": s.effect.interval.map(|i| i.1),
            "interval_withheld": s.effect.withheld.map(|w| w.reason()),
            "editions_rule": s.clusters[0],
            "editions_control": s.clusters[1],
            "strata": s.strata,
            "games_rule": s.games[0],
            "games_control": s.games[1],
        }),
    }
}

/// One regime's estimates (or every rule's, pooled) as JSON.
fn estimate_json(e: &rule_study::RegimeEstimate, limits: [u32; 2]) -> serde_json::Value {
    serde_json::json!({
        "regime": e.regime.map_or("pooled", |r| r.as_str()),
        "rule_editions": e.rule_editions,
        "rule_editions_unmatched": e.unmatched,
        "matched_controls": e.matched_controls,
        "all_controls": e.all_controls,
        "mean_rating": {"rule": e.mean_rating[0], "matched_controls": e.mean_rating[1], "all_controls": e.mean_rating[2]},
        "years": e.years,
        "rule_editions_by_event_type": e.rule_types.iter().map(|(t, n)| (t.as_str().to_string(), serde_json::json!(n))).collect::<serde_json::Map<_, _>>(),
        "matched_controls_by_event_type": e.control_types.iter().map(|(t, n)| (t.as_str().to_string(), serde_json::json!(n))).collect::<serde_json::Map<_, _>>(),
        "matched_control_games_same_event_type_share": e.same_type_share,
        "matched_control_games_same_event_type_share_format_only": e.same_type_share_format_only,
        "measures": e.measures.iter().map(|m| serde_json::json!({
            "measure": m.measure.label(limits),
            "raw": stratified_json(m.raw.as_ref()),
            "adjusted": stratified_json(m.adjusted.as_ref()),
            "within_pair": stratified_json(m.within_pair.as_ref()),
        })).collect::<Vec<_>>(),
    })
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

/// A difference of shares in signed percentage points ("+1.2"), "–"
/// without one.
pub fn points(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{:+.1}", v * 100.0))
}

/// A group's change in a measure's share between two groups of
/// editions (`after` minus `before`), when both have games.
pub fn change(
    after: &rule_study::GroupStats,
    before: &rule_study::GroupStats,
    m: Measure,
) -> Option<f64> {
    Some(after.share(m).rate()? - before.share(m).rate()?)
}

/// The rule study as one JSON document.
pub fn rule_study_json(study: &rule_study::RuleStudy) -> serde_json::Value {
    let limits = study.short_limits;
    serde_json::json!({
        "short_draw_limits": limits,
        "regimes": by_regime(study.regimes.iter().map(|(r, g)| (r, group_json(g, limits)))),
        "draw_rate_ci95_by_player": by_regime(study.by_player.iter().map(|(r, ci)| (r, serde_json::json!(ci)))),
        "rule_editions_draw_rate_ci95_by_player": study.rule_by_player,
        "match_window": {"years": rule_study::MATCH_YEARS, "mean_rating": rule_study::MATCH_RATING},
        "interval": {"method": "restricted wild cluster bootstrap (null imposed), Webb weights, equal-tailed test inverted by bisection; clusters: event editions",
                     "replicates": rule_study::wild::WILD_REPLICATES, "seed": rule_study::SEED,
                     "min_editions": study.calibration.minimum,
                     "min_editions_means": "the fewest editions in the smallest group of a comparison from which its interval is shown: every design of the data with at least that many held its coverage in the simulation",
                     "coverage_simulation": {
                         "data_sets": inference::coverage::DATA_SETS,
                         "replicates": inference::coverage::SIMULATION_REPLICATES,
                         "tolerance": inference::coverage::TOLERANCE,
                         "planted": {"base_rate": inference::coverage::BASE_RATE, "edition_shift_uniform_within": inference::coverage::EDITION_SHIFT, "effect": inference::coverage::PLANTED_EFFECT},
                         "designs": study.calibration.designs.iter().map(|(k, c)| serde_json::json!({
                             "smallest_group_editions": k, "coverage": c.coverage, "unbounded": c.unbounded, "holds": c.holds(),
                         })).collect::<Vec<_>>(),
                     }},
        "primary": study.model.as_ref().map(|m| serde_json::json!({
            "specification": rule_study::model::SPECIFICATION,
            "primary_outcome": Measure::Draws.label(limits),
            "multiple_comparisons": "Holm over the three secondary measures within each regime; the primary outcome unadjusted",
            "editions": m.editions, "groups": m.groups, "parameters": m.parameters,
            "series": m.series, "years": m.years, "replicates": rule_study::model::MODEL_REPLICATES,
            "last_round_draw_rate_coefficient": m.last_round,
            "interval": model_interval_json(study),
            "identifying_editions": by_regime(m.identifying.iter().map(|(r, n)| (r, serde_json::json!(n)))),
            "not_identified": m.not_identified.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
            "effects": model_rows_json(&m.rows, limits),
        })),
        "pair_effects": study.pair_model.as_ref().map(|m| serde_json::json!({
            "specification": rule_study::pair_model::SPECIFICATION,
            "role": rule_study::pair_model::VERDICT,
            "departures_from_primary": pair_model_departures(m, study.model.as_ref()),
            "primary_outcome": Measure::Draws.label(limits),
            "editions": m.editions, "pairings": m.pairings, "games": m.games, "pairs": m.pairs,
            "series": m.series, "years": m.years,
            "fixed_effects": {"pair": m.pairs, "series": m.series, "year": m.years},
            "tolerance": rule_study::pair_model::TOLERANCE,
            "variance_factor_for_pair_effects": m.absorbed_factor,
            "sweeps": m.demeaned.map(|d| d.iterations), "converged": m.demeaned.map(|d| d.converged),
            "singletons_dropped": {"pairings": m.singletons, "games": m.singleton_games},
            "unnamed_games_left_out": m.unnamed_games,
            "replicates": rule_study::model::MODEL_REPLICATES,
            "identifying_editions": by_regime(m.identifying.iter().map(|(r, n)| (r, serde_json::json!(n)))),
            "pairs_met_under_and_without": by_regime(m.spanning_pairs.iter().map(|(r, (n, g))| (r, serde_json::json!({"pairs": n, "games": g})))),
            "not_identified": m.not_identified.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
            "draw_rate_without_pair_effects": by_regime(m.without_pair_effects.iter().map(|(r, b)| (r, serde_json::json!(b)))),
            "effects": model_rows_json(&m.rows, limits),
        })),
        "estimates": study.estimates.iter().map(|e| estimate_json(e, limits)).collect::<Vec<_>>(),
        "published": study.published.iter().map(|c| serde_json::json!({
            "source": c.source, "url": c.url, "quote": c.quote,
            "published": c.published, "ours": c.ours, "note": c.note,
        })).collect::<Vec<_>>(),
        "changes": study.changes.iter().map(|c| serde_json::json!({
            "series": c.series, "regimes": c.regimes.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
            "after_years": c.after_years, "before_years": c.before_years, "editions": c.editions,
            "after": group_json(&c.after, limits), "before": group_json(&c.before, limits),
            "control_after": group_json(&c.control_after, limits), "control_before": group_json(&c.control_before, limits),
            "effects": c.effects.iter().map(|(m, raw, adj)| serde_json::json!({
                "measure": m.label(limits), "raw": effect_json(Some(raw)), "adjusted": effect_json(adj.as_ref()),
                "pre_trend_fails": c.placebo_fails(*m),
                "own_change": change(&c.after, &c.before, *m),
                "controls_change": change(&c.control_after, &c.control_before, *m),
            })).collect::<Vec<_>>(),
            "pre_trend_years": {"earlier": c.pre_trend_years.0, "later": c.pre_trend_years.1},
            "pre_trend": c.pre_trend.iter().map(|(m, e)| serde_json::json!({
                "measure": m.label(limits), "raw": effect_json(Some(e)), "fails": c.placebo_fails(*m),
            })).collect::<Vec<_>>(),
            "interval_min_editions": study.calibration.minimum,
        })).collect::<Vec<_>>(),
        "editions": study.editions.iter().map(|e| serde_json::json!({
            "series": e.series, "year": e.year, "regime": e.regime.as_str(), "format": e.format,
            "games": e.total.games, "draws": e.total.draws, "agreed": e.total.agreed,
            "rounds_seen": e.rounds_seen, "last_round": e.last_round, "players": e.players,
            "inferred": e.inferred,
            "event_type": e.event_type.as_str(),
            "event_type_from": if e.kind_stated { "catalogue" } else { "games" },
            "expected_games": e.expected_games(),
            "pools_events": e.tournaments.len() > 1,
            "more_games_than_complete": e.total.games > e.expected_games(),
            "tournaments": e.tournaments.iter().map(|t| serde_json::json!({
                "names": t.names, "games": t.games, "players": t.players,
                "last_round": t.last_round, "expected_games": t.expected_games(),
            })).collect::<Vec<_>>(),
            "agreed_within_short_limits": e.total.short_agreed,
            "contradicts_coding": e.contradicts_coding().is_some(),
        })).collect::<Vec<_>>(),
        "fast_games_left_out": study.fast_games_left_out,
    })
}

/// How the primary model's intervals are made and from how many
/// identifying editions they are shown: its own coverage simulation.
fn model_interval_json(study: &rule_study::RuleStudy) -> serde_json::Value {
    use rule_study::model_coverage as sim;
    let tally = |t: &sim::Tally| {
        serde_json::json!({
            "data_sets": t.data_sets, "coverage": t.coverage(), "unbounded": t.unbounded_share(),
        })
    };
    serde_json::json!({
        "method": "restricted wild cluster bootstrap by edition (null imposed), Webb weights, equal-tailed test inverted by bisection",
        "replicates": rule_study::model::MODEL_REPLICATES,
        "min_editions": study.model_coverage.as_ref().and_then(|c| c.minimum),
        "min_editions_means": "the fewest identifying editions of a regime (rule editions in series that also played without it) from which the model's intervals and p-values are shown, from the model's own coverage simulation",
        "coverage_simulation": study.model_coverage.as_ref().map(|c| serde_json::json!({
            "design": "the model's own: its editions, groups of games and fixed effects as fitted; each group's draw rate the fit's without the regimes' terms, each edition shifted by a normal shock, the treated editions by the planted effect, binomial draws; counts below the data's own by keeping a random few of the identifying editions under the rule and coding the rest without it",
            "between_edition_sd": c.between_edition_sd,
            "between_edition_sd_from": "method of moments on the fit's draw-rate residuals: the sum over editions of each edition's squared mean residual against its expectation under an edition shock and binomial draws, with the fit's shrinkage of the residuals from its hat matrix",
            "planted_effects": sim::EFFECTS,
            "data_sets_per_regime_count_and_effect": sim::DATA_SETS,
            "replicates": sim::REPLICATES,
            "subsample_redrawn_every": sim::SUBSAMPLE_EVERY,
            "seed": sim::SEED,
            "rule": sim::rule(),
            "by_count": c.by_count.iter().map(|(k, t)| {
                let (lo, hi) = t.range();
                serde_json::json!({
                    "identifying_editions": k, "data_sets": t.data_sets, "coverage": t.coverage(),
                    "unbounded": t.unbounded_share(), "range": [lo, hi], "holds": t.holds(),
                })
            }).collect::<Vec<_>>(),
            "at_own_counts": tally(&c.at_own_counts()),
            "by_regime": c.cells.iter().map(|x| serde_json::json!({
                "regime": x.regime.as_str(), "identifying_editions": x.treated, "data_own": x.treated == x.of,
                "by_effect": sim::EFFECTS.iter().zip(&x.by_effect).map(|(e, t)| {
                    let mut v = tally(t);
                    v["effect"] = serde_json::json!(e);
                    v
                }).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })),
    })
}

/// The model with pair effects, beside the primary estimate, for the
/// terminal.
fn write_pair_model(
    out: &mut dyn Write,
    m: &rule_study::pair_model::PairModel,
    primary: Option<&rule_study::model::ModelEstimates>,
    limits: [u32; 2],
) -> std::io::Result<()> {
    writeln!(
        out,
        "\nBESIDE IT, WITH PAIR EFFECTS, percentage points: {}",
        rule_study::pair_model::SPECIFICATION
    )?;
    writeln!(out, "  {}", pair_model_basis(m))?;
    model_rows(
        out,
        &m.rows,
        &m.not_identified,
        limits,
        |_| "",
        "no pair met both with and without it",
    )?;
    writeln!(out, "  {}", pair_model_verdict(m, primary))?;
    Ok(())
}

/// A model's estimates a line each (the regime, the measure, the effect,
/// `tag` of the measure, the p-value and Holm's), then the regimes it
/// cannot identify and why.
fn model_rows(
    out: &mut dyn Write,
    rows: &[rule_study::model::ModelRow],
    not_identified: &[crate::study::events::Regime],
    limits: [u32; 2],
    tag: impl Fn(Measure) -> &'static str,
    why_not: &str,
) -> std::io::Result<()> {
    let p = text::p_value;
    for r in rows {
        writeln!(
            out,
            "  {:<40} {:<18} {:<44} {}p {}{}",
            r.regime.label(),
            r.measure.label(limits),
            text::effect(Some(&r.effect)),
            tag(r.measure),
            p(r.p_value),
            r.holm_p_value
                .map_or(String::new(), |h| format!(", Holm {}", p(Some(h)))),
        )?;
    }
    for r in not_identified {
        writeln!(out, "  {:<40} not identified: {why_not}", r.label())?;
    }
    Ok(())
}

/// What the pair-effects model was fitted to, in words: its effects, how
/// many, the demeaning's tolerance and sweeps, the singletons dropped and
/// the editions identifying each regime.
pub fn pair_model_basis(m: &rule_study::pair_model::PairModel) -> String {
    let sweeps = m.demeaned.map_or("not run".to_string(), |d| {
        format!(
            "{} sweeps{}",
            d.iterations,
            if d.converged { "" } else { ", NOT converged" }
        )
    });
    format!(
        "fitted to {} games in {} pairings of {} pairs in {} editions of {} series in {} years \
         ({} pair, {} series and {} year effects absorbed; tolerance {:e}, {}; variance factor {:.3}); dropped as singletons: \
         {} pairings ({} games), pairs that met in one edition only; left out: {} games with a side unnamed; \
         identified by the rule editions holding a pair that also met without that rule: {}; \
         pairs that met both under a rule and without it (their games): {}",
        m.games,
        m.pairings,
        m.pairs,
        m.editions,
        m.series,
        m.years,
        m.pairs,
        m.series,
        m.years,
        rule_study::pair_model::TOLERANCE,
        sweeps,
        m.absorbed_factor,
        m.singletons,
        m.singleton_games,
        m.unnamed_games,
        m.identifying
            .iter()
            .map(|(r, n)| format!("{} {n}", r.as_str()))
            .collect::<Vec<_>>()
            .join(", "),
        if m.spanning_pairs.is_empty() {
            "none".to_string()
        } else {
            m.spanning_pairs
                .iter()
                .map(|(r, (n, g))| format!("{} {n} ({g})", r.as_str()))
                .collect::<Vec<_>>()
                .join(", ")
        }
    )
}

/// Why the pair-effects model stays beside the primary estimate, with
/// its figures: the games it keeps, the editions identifying each regime,
/// and how far the draw rate's coefficient moves from the primary's when
/// only the pairings are kept (series and year effects alone) and when the
/// pair effects are added.
pub fn pair_model_verdict(
    m: &rule_study::pair_model::PairModel,
    primary: Option<&rule_study::model::ModelEstimates>,
) -> String {
    let moves = m
        .rows
        .iter()
        .filter(|r| r.measure == Measure::Draws)
        .map(|r| {
            let primary = primary
                .and_then(|p| {
                    p.rows
                        .iter()
                        .find(|q| q.regime == r.regime && q.measure == Measure::Draws)
                })
                .map(|q| q.effect.estimate);
            format!(
                "{} {} (primary {}, same pairings without pair effects {})",
                r.regime.as_str(),
                points(Some(r.effect.estimate)),
                points(primary),
                points(m.without_pair_effects.get(&r.regime).copied()),
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "{}{} Here: {}.",
        if moves.is_empty() {
            String::new()
        } else {
            format!("draw rate: {moves}. ")
        },
        rule_study::pair_model::VERDICT,
        pair_model_departures(m, primary)
    )
}

/// Where the pair-effects model departs from the primary estimate: draw
/// rates outside the primary's interval, regimes only it identifies.
pub fn pair_model_departures(
    m: &rule_study::pair_model::PairModel,
    primary: Option<&rule_study::model::ModelEstimates>,
) -> String {
    let mut out = Vec::new();
    for r in m.rows.iter().filter(|r| r.measure == Measure::Draws) {
        let theirs = primary.and_then(|p| {
            p.rows
                .iter()
                .find(|q| q.regime == r.regime && q.measure == Measure::Draws)
        });
        match theirs {
            None => out.push(format!(
                "{} identified only with pair effects",
                r.regime.as_str()
            )),
            Some(q) => {
                if let Some((lo, hi)) = q.effect.interval
                    && (r.effect.estimate < lo || r.effect.estimate > hi)
                {
                    out.push(format!(
                        "{}'s {} lies outside the primary's interval",
                        r.regime.as_str(),
                        points(Some(r.effect.estimate))
                    ));
                }
            }
        }
    }
    if out.is_empty() {
        "every draw-rate estimate lies within the primary's interval (where it has one) and no regime is identified only with pair effects".into()
    } else {
        out.join("; ")
    }
}

/// The rule study for the terminal; `filters` describes the filters in
/// force, for the message when no event of the catalogue is there.
pub fn write_rule_study(
    out: &mut dyn Write,
    study: &rule_study::RuleStudy,
    filters: &[String],
) -> std::io::Result<()> {
    if study.is_empty() {
        writeln!(
            out,
            "no games of the catalogue's events in these tables ({})",
            Shown(filters.join(", "))
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
        return Ok(());
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
    if let Some(model) = &study.model {
        writeln!(
            out,
            "\nPRIMARY ESTIMATE, rule minus no rule, percentage points: {}",
            rule_study::model::SPECIFICATION
        )?;
        writeln!(
            out,
            "  fitted to {} editions of {} series in {} years ({} groups of games, {} parameters)",
            model.editions, model.series, model.years, model.groups, model.parameters
        )?;
        if let Some(l) = model.last_round {
            writeln!(
                out,
                "  last round against the other rounds, draw rate: {} points (a point estimate)",
                points(Some(l))
            )?;
        }
        model_rows(
            out,
            &model.rows,
            &model.not_identified,
            limits,
            |measure| {
                if measure == Measure::Draws {
                    "primary   "
                } else {
                    "secondary "
                }
            },
            "no series played both with and without it",
        )?;
        writeln!(
            out,
            "  identified by the rule editions of series that also played without the rule: {}",
            model
                .identifying
                .iter()
                .map(|(r, n)| format!("{} {n}", r.as_str()))
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    if let Some(c) = &study.model_coverage {
        writeln!(out, "  {}", text::model_coverage(c))?;
    }
    if let Some(pairs) = &study.pair_model {
        write_pair_model(out, pairs, study.model.as_ref(), limits)?;
    }
    writeln!(
        out,
        "\nchecks: rule minus control, stratified, percentage points (95% restricted wild cluster bootstrap intervals, clusters: event editions):"
    )?;
    writeln!(out, "{}", text::calibration(&study.calibration))?;
    for e in &study.estimates {
        let name = e.regime.map_or("Every rule, pooled", |r| r.label());
        writeln!(out, "{name}: {}", text::regime_basis(e))?;
        for m in &e.measures {
            writeln!(
                out,
                "  {:<18} raw {:<30} adjusted {:<30} within pairs {}",
                m.measure.label(limits),
                text::stratified(m.raw.as_ref()),
                text::stratified(m.adjusted.as_ref()),
                text::stratified(m.within_pair.as_ref()),
            )?;
        }
    }
    for c in &study.published {
        writeln!(
            out,
            "\npublished: {} ({})\n  \"{}\"\n  published {}\n  here      {}\n  {}",
            Shown(&c.source),
            Shown(&c.url),
            Shown(&c.quote),
            Shown(&c.published),
            Shown(&c.ours),
            Shown(&c.note)
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
            Shown(&c.series),
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
                "  difference in differences, {:<18} raw {:<28} adjusted {:<28} (own change {}, controls' {}){}",
                m.label(limits),
                text::effect(Some(raw)),
                text::effect(adjusted.as_ref()),
                points(change(&c.after, &c.before, *m)),
                points(change(&c.control_after, &c.control_before, *m)),
                if c.placebo_fails(*m) {
                    "  PLACEBO FAILS: a trend before the change; no evidence of the rule"
                } else {
                    ""
                },
            )?;
        }
        for (m, e) in &c.pre_trend {
            writeln!(
                out,
                "  pre-trend placebo ({} against {}), {:<18} {}",
                years(&c.pre_trend_years.1),
                years(&c.pre_trend_years.0),
                m.label(limits),
                text::effect(Some(e)),
            )?;
        }
    }
    // The catalogue against the games.
    for e in &study.editions {
        if let Some(n) = e.contradicts_coding() {
            writeln!(
                out,
                "\nCATALOGUE CONTRADICTED: {} {} is coded {}, but {} of its {} games are draws agreed within {} moves",
                Shown(&e.series),
                e.year,
                e.regime.label(),
                n,
                e.total.games,
                study.short_limits[0]
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
        crate::render::sections::RULE_STUDY_MEANING
    )?;
    writeln!(
        out,
        "\nWhat it cannot show: {}",
        crate::render::sections::RULE_STUDY_LIMITS
    )?;
    Ok(())
}

/// A share with its 95% Wilson interval, in percent.
pub fn cell(p: Proportion) -> String {
    match (p.rate(), p.wilson95()) {
        (Some(r), Some((lo, hi))) => {
            format!("{} ({:.1}–{:.1})", percent(r), lo * 100.0, hi * 100.0)
        }
        _ => "–".into(),
    }
}

/// The scoring study as one JSON document.
pub fn scoring_json(study: &scoring::ScoringStudy) -> serde_json::Value {
    serde_json::json!({
        "events": study.events,
        "round_robins": study.round_robins,
        "swiss": study.swiss,
        "matches": study.matches,
        "multi_player_events": study.events - study.matches,
        "unequal_games_events": study.unequal_games,
        "unpaired_events_left_out": study.unpaired_events,
        "large_events_left_out": study.large_events,
        "incomplete_events_left_out": study.incomplete_events,
        "small_events_left_out": study.small_events,
        "crosstable_min_games": scoring::CROSSTABLE_MIN_GAMES,
        "large_event_games_left_out": study.large_event_games,
        "standings_max_games": scoring::STANDINGS_MAX_GAMES,
        "bounded_events_left_out": study.left_out_events,
        "bounded_event_games_left_out": study.left_out_games,
        "standings_kept": scoring::STANDINGS_KEPT,
        "plus_remise_draws": study.plus_remise_draws.iter().map(|((winner, rule), n)| {
            serde_json::json!({"winner": winner, "rule": rule,
                               "rule_name": scoring::rule_name(*rule), "games": n})
        }).collect::<Vec<_>>(),
        "changes": study.changes.iter().map(|(system, c)| {
            serde_json::json!({
                "system": system.label(),
                "different_winner": c.different_winner,
                "different_winner_multi_player": c.different_winner_multi,
                "different_winner_unequal_games": c.different_winner_unequal,
                "places_moved": c.places_moved,
                "examples": c.examples.iter().map(|e| {
                    serde_json::json!({"event": e.event, "year": e.year,
                                       "label": e.event_label(),
                                       "classical": e.classical, "other": e.other})
                }).collect::<Vec<_>>(),
            })
        }).collect::<Vec<_>>(),
    })
}

/// The scoring study for the terminal.
pub fn write_scoring(out: &mut dyn Write, study: &scoring::ScoringStudy) -> std::io::Result<()> {
    let draws: u64 = study.plus_remise_draws.values().sum();
    writeln!(out, "plus-remise: {draws} drawn games decided by material")?;
    for ((winner, rule), n) in &study.plus_remise_draws {
        writeln!(
            out,
            "  {winner} wins, {}: {n} ({})",
            scoring::rule_name(*rule),
            percent(*n as f64 / draws.max(1) as f64)
        )?;
    }
    writeln!(
        out,
        "event standings ({} events, by Event tag and year), against classical scoring:",
        study.events
    )?;
    if study.incomplete_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events whose games are not all here (player collections, arenas)",
            study.incomplete_events
        )?;
    }
    writeln!(
        out,
        "  ranked: {} complete round robins (matches among them) and {} Swiss events with every round's pairings",
        study.round_robins, study.swiss
    )?;
    writeln!(
        out,
        "    of the ranked: {} two-player matches (3-1-0 and 3-2-1 rank a match as classical scoring: more wins decide all three), {} of three players or more; {} with players of unequal games (3-2-1 = 1 + 2 x classical points a game: with equal games it ranks as classical, by arithmetic)",
        study.matches,
        study.events - study.matches,
        study.unequal_games
    )?;
    if study.unpaired_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events whose pairings are neither a complete round robin nor every round of a Swiss event",
            study.unpaired_events
        )?;
    }
    if study.small_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events too small for a crosstable (fewer than {} games, or a player with one)",
            study.small_events,
            scoring::CROSSTABLE_MIN_GAMES
        )?;
    }
    if study.large_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events of more than {} games ({} games), pools rather than events",
            study.large_events,
            scoring::STANDINGS_MAX_GAMES,
            study.large_event_games
        )?;
    }
    if study.left_out_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events ({} games) with the most players, left out to keep the standings within {} player entries",
            study.left_out_events,
            study.left_out_games,
            scoring::STANDINGS_KEPT
        )?;
    }
    for (system, change) in &study.changes {
        writeln!(
            out,
            "  {:<12} different winner in {} events ({} of the {} multi-player events; {} of the {} with unequal games); places moved in all: {}",
            system.label(),
            change.different_winner,
            change.different_winner_multi,
            study.events - study.matches,
            change.different_winner_unequal,
            study.unequal_games,
            change.places_moved
        )?;
        for e in &change.examples {
            writeln!(
                out,
                "      e.g. {}: {} -> {}",
                Shown(e.event_label()),
                Shown(text::winners(&e.classical)),
                Shown(text::winners(&e.other))
            )?;
        }
    }
    Ok(())
}
