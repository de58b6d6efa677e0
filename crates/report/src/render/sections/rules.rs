//! The rule study (rules against short draws) and the scoring systems.

use super::*;

/// What the rule study's estimates mean, in words (report and `remis sofia`).
pub const RULE_STUDY_MEANING: &str = "Event editions played under a rule against draws (no draw offers, \
no draw offers before move N, 3-1-0 scoring, armageddon after a draw), from the sourced catalogue, against \
editions without one; the filters above apply to both, and rapid, blitz, blindfold and simul events are left \
out by name. Each estimate is a difference in the share of games (in percentage points): rule minus control. \
The primary estimate comes from a model (a linear probability model with fixed effects for the series, the year \
and both players' ratings; the draw rate its primary outcome, the other measures secondary with Holm's \
adjustment); beside it, the same model with a fixed effect for every pair of players; the stratified estimates are its checks. \
“Raw” compares all games; “adjusted” compares games of the same cell of both players' ratings (mean and \
gap; Mantel–Haenszel weights) against control editions matched on kind of event, format, years and mean rating, so that stronger \
fields under the rule do not pass for an effect of it; “within pairs” compares the same two players under \
both rules. For a series that changed its rules, the difference in differences is its change between editions \
with and without the rule, minus the controls' change over the same years, with a placebo before the change. \
Intervals are 95%: a restricted wild cluster bootstrap by event edition (the null imposed, the test \
inverted), because games of one edition are not independent; they are missing where a group has a single \
edition, and wherever the smallest group has fewer editions than a coverage simulation at these data's own \
counts supports (the minimum is stated; the primary model's from a simulation of its own design). A series whose pre-trend placebo fails is flagged, and editions whose games contradict their \
coding (agreed draws where the rule allows none) are listed.";

/// What the rule study cannot show, in words.
pub const RULE_STUDY_LIMITS: &str = "These are comparisons of events that chose their rules, not an \
experiment: organisers who adopt anti-draw rules also invite fighting players, change time controls or \
scoring at the same time, and the controls are whatever comparable events the catalogue lists. A before/after \
change within a series can coincide with other changes (the 2008 Olympiad also moved to match points). The \
data may be a player collection rather than complete events: then only the games of profiled players are \
present (see the coverage of each edition), which favours strong boards in team and Swiss events.";

pub(super) fn effect_cell(e: Option<&crate::analysis::rule_study::Effect>) -> String {
    crate::render::text::effect_parts(e).map_or_else(
        || "–".into(),
        |(estimate, interval)| format!("{estimate} <small>{interval}</small>"),
    )
}

/// Games and shares by regime, with the draw types among draws.
/// How the draws of each regime happened, and what "agreed" counts under
/// it: under a rule that forbids offers it cannot be an agreement.
pub fn rule_study_draw_types(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    use remis_table::schema::DrawType;
    let kinds: Vec<DrawType> = DrawType::ALL
        .into_iter()
        .filter(|&k| {
            study
                .regimes
                .iter()
                .any(|(_, g)| g.draw_type_share(k).successes > 0)
        })
        .collect();
    if kinds.is_empty() {
        return;
    }
    h.push_str("<h3>Draw types under each regime</h3>");
    // The page gives each type's share of the regime's draws, the CSV the
    // counts behind them.
    let headings: Vec<String> = kinds.iter().map(|k| escape(k.label())).collect();
    let mut columns = vec![Col::Both("Regime", "regime"), Col::Both("Draws", "draws")];
    columns.extend(
        kinds
            .iter()
            .zip(&headings)
            .map(|(k, heading)| Col::Both(heading, k.as_str())),
    );
    columns.push(Col::Page("What “agreed” counts here"));
    let labels = [0, kinds.len() + 2];
    let mut table = PageTable::with_layout(
        "draw-types-by-regime.csv",
        &columns,
        Layout {
            id: Some("draw-types-by-regime"),
            labels: &labels,
            wide: true,
            thead: true,
        },
    );
    for (regime, g) in &study.regimes {
        let mut page = vec![escape(regime.label()), thousands(g.draws)];
        let mut row = vec![regime.label().to_string(), g.draws.to_string()];
        for &k in &kinds {
            let p = g.draw_type_share(k);
            page.push(pct(p.rate()));
            row.push(p.successes.to_string());
        }
        page.push(escape(regime.agreed_means()));
        table.row(&page, row);
    }
    table.finish(h);
}

pub fn rule_study_regimes(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    use crate::analysis::rule_study::Measure;
    use remis_table::schema::DrawType;
    let limits = study.short_limits;
    h.push_str("<div class=\"wide\"><table><tr><th class=\"l\">Regime</th><th>Games</th>");
    for m in Measure::all() {
        let _ = write!(h, "<th>{}</th>", escape(&m.label(limits)));
    }
    h.push_str(
        "<th>Draw rate, interval clustered by player</th><th>Mean length of draws</th><th>Draws by agreement</th><th>Draws by repetition</th></tr>",
    );
    let rule = study.rule_games();
    let rows = study
        .regimes
        .iter()
        .map(|(r, g)| {
            let clustered = study.by_player.get(r).copied().flatten();
            (r.label().to_string(), g, clustered)
        })
        .chain(std::iter::once((
            "All rule editions".to_string(),
            &rule,
            study.rule_by_player,
        )));
    for (label, g, clustered) in rows {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td>",
            escape(&label),
            thousands(g.games)
        );
        for m in Measure::all() {
            let p = g.share(m);
            let _ = write!(
                h,
                "<td>{} <small>({})</small></td>",
                pct(p.rate()),
                interval(&p)
            );
        }
        let mean = g.mean_draw_moves().map_or("–".into(), |(m, lo, hi)| {
            format!("{m:.1} <small>({lo:.1}–{hi:.1})</small>")
        });
        let repetition = {
            let three = g.draw_type_share(DrawType::ThreefoldRepetition);
            let five = g.draw_type_share(DrawType::FivefoldRepetition);
            Proportion::new(three.successes + five.successes, three.n)
        };
        let clustered = clustered.map_or("–".into(), |(lo, hi)| range_percent(lo, hi));
        let _ = write!(
            h,
            "<td>{clustered}</td><td>{mean}</td><td>{}</td><td>{}</td></tr>",
            pct(g.draw_type_share(DrawType::Agreed).rate()),
            pct(repetition.rate())
        );
    }
    h.push_str("</table></div>\n<p class=\"caption\">Shares of all games with 95% Wilson intervals (games taken as independent), and the draw rate's 95% interval clustered by player (games of one player may be correlated; “–” with fewer than 30 players; see Methods); the draw types are shares of the draws. Sofia rules should move draws from agreement to repetition.</p>\n");
}

/// A clustered estimate as a table cell.
pub(super) fn stratified_cell(e: Option<&crate::analysis::rule_study::wild::Stratified>) -> String {
    crate::render::text::stratified_parts(e).map_or_else(
        || "–".into(),
        |(estimate, interval)| format!("{estimate} <small>{interval}</small>"),
    )
}

/// Every rule pooled and each regime apart: raw, adjusted against matched
/// controls, and within pairs of players.
pub fn rule_study_effects(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    if study.estimates.is_empty() {
        return;
    }
    h.push_str("<h3>Rule editions against control editions</h3><div class=\"wide\"><table id=\"rule-effects\"><tr>\
        <th class=\"l\">Rules</th><th class=\"l\">Share of games</th><th>Raw difference (points)</th>\
        <th>Adjusted: matched controls, both players' ratings</th><th>Within pairs of players</th></tr>");
    for e in &study.estimates {
        let name = e.regime.map_or("Every rule, pooled", |r| r.label());
        let _ = write!(
            h,
            "<tr class=\"regime\"><td class=\"note\" colspan=\"5\"><strong>{}</strong> <small>{}</small></td></tr>",
            escape(name),
            escape(&crate::render::text::regime_basis(e))
        );
        for m in &e.measures {
            let pairs = m.within_pair.map_or(String::new(), |w| {
                format!(" <small>[{} pairs]</small>", thousands(w.strata as u64))
            });
            let _ = write!(
                h,
                "<tr><td></td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}{pairs}</td></tr>",
                escape(&m.measure.label(study.short_limits)),
                stratified_cell(m.raw.as_ref()),
                stratified_cell(m.adjusted.as_ref()),
                stratified_cell(m.within_pair.as_ref()),
            );
        }
    }
    let _ = write!(
        h,
        "</table></div>\n<p class=\"caption\">Each rule regime apart and all rules pooled: a federation asking about \
        Sofia rules reads the Sofia rows. <em>Raw</em>: every rule edition against every control edition. \
        <em>Adjusted</em>: against the control editions of the same kind of event (round robin, Swiss, team, match, \
        knock-out; see the editions) and format (play and speed, by most games) within {} years \
        and {:.0} points of mean rating of a rule edition \
        (rule editions with none are left out), comparing games in the same cell of both players' ratings: the mean \
        rating's hundred and the gap (under 50, 50–99, 100–199, 200–399, 400 or more; unrated games a cell of their \
        own), with Mantel–Haenszel weights. <em>Within pairs</em>: the same two players under the rule and in control \
        editions within {} years, as in Parinduri, Lee and Tiong (2019); the number of pairs is given. Intervals: 95% \
        restricted wild cluster bootstrap by event edition ({} replicates, the null imposed, Webb weights, the test \
        inverted by bisection, seed {}; MacKinnon and Webb 2017); none where a side has a single edition. {}</p>\n",
        crate::analysis::rule_study::MATCH_YEARS,
        crate::analysis::rule_study::MATCH_RATING,
        crate::analysis::rule_study::MATCH_YEARS,
        crate::analysis::rule_study::wild::WILD_REPLICATES,
        crate::analysis::rule_study::SEED,
        escape(&crate::render::text::calibration(&study.calibration)),
    );
}

/// Published figures on events these tables hold, beside ours.
pub fn rule_study_published(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    if study.published.is_empty() {
        return;
    }
    h.push_str("<h3>Published figures beside ours</h3><table id=\"rule-published\"><tr><th class=\"l\">Source</th>\
        <th class=\"l\">Published</th><th class=\"l\">These tables</th><th class=\"l\">What each counts</th></tr>");
    for c in &study.published {
        let _ = write!(
            h,
            "<tr><td class=\"note\"><a href=\"{}\">{}</a><br><small>“{}”</small></td><td class=\"note\">{}</td>\
             <td class=\"note\">{}</td><td class=\"note\"><small>{}</small></td></tr>",
            escape(c.url),
            escape(c.source),
            escape(c.quote),
            escape(c.published),
            escape(&c.ours),
            escape(&c.note)
        );
    }
    h.push_str("</table>\n");
}

/// Every series that changed its rules: difference in differences, the
/// two changes it is made of, and a placebo before the change.
pub fn rule_study_changes(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    use crate::analysis::rule_study::Measure;
    use crate::render::studies::{change, points};
    if study.changes.is_empty() {
        h.push_str("<p class=\"caption\">No series in these tables has editions both with and without a rule, \
            so there is no before/after (difference-in-differences) estimate.</p>\n");
        return;
    }
    h.push_str("<h3>Series that changed their rules: difference in differences</h3>\
        <div class=\"wide\"><table id=\"rule-changes\"><tr><th class=\"l\">Series</th><th class=\"l\">Rule</th>\
        <th class=\"l\">With the rule</th><th class=\"l\">Without</th><th>Editions (rule / without / controls)</th>\
        <th class=\"l\">Share of games</th><th>Own change</th><th>Controls' change</th><th>Raw (points)</th>\
        <th>Adjusted (rating cells)</th><th>Pre-trend placebo</th></tr>");
    let years = |y: &[i16]| {
        y.iter()
            .map(|y| y.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for c in &study.changes {
        for (i, (m, raw, adjusted)) in c.effects.iter().enumerate() {
            let lead = if i == 0 {
                format!(
                    "<td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"note\">{}</td><td class=\"note\">{}</td><td>{} / {} / {}+{}</td>",
                    escape(&c.series),
                    escape(&c.rules_label()),
                    years(&c.after_years),
                    years(&c.before_years),
                    c.editions[0],
                    c.editions[1],
                    c.editions[2],
                    c.editions[3]
                )
            } else {
                "<td></td><td></td><td></td><td></td><td></td>".into()
            };
            let fails = c.placebo_fails(*m);
            let placebo = c
                .pre_trend
                .iter()
                .find(|(pm, _)| pm == m)
                .map_or("–".into(), |(_, e)| effect_cell(Some(e)));
            let placebo = if fails {
                format!(
                    "{placebo} <strong class=\"placebo-fails\">fails: a trend before the change</strong>"
                )
            } else {
                placebo
            };
            let _ = write!(
                h,
                "<tr>{lead}<td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{placebo}</td></tr>",
                escape(&m.label(study.short_limits)),
                points(change(&c.after, &c.before, *m)),
                points(change(&c.control_after, &c.control_before, *m)),
                effect_cell(Some(raw)),
                effect_cell(adjusted.as_ref())
            );
        }
    }
    let _ = write!(
        h,
        "</table></div>\n<p class=\"caption\">The difference in differences is the series' own change \
        (editions with the rule minus without) less the controls' change over the same years; adjusted, each change \
        is taken within cells of both players' ratings. Intervals: 95% restricted wild cluster bootstrap over the \
        editions of the four groups, as above, given only where the smallest group has at least {min} editions (the \
        coverage simulation's minimum at these data's counts); with fewer, the estimate stands alone and says why. \
        The pre-trend placebo splits the editions \
        without the rule into an earlier and a later half and asks the same question of them: where its interval \
        excludes zero the placebo <strong>fails</strong> (the series' rates were already moving: a trend, or \
        regression to the mean after unusual editions), and that series' difference in differences is no evidence \
        of the rule. {failed} of the {series} series fail it on some measure. A placebo, a check rather than an \
        estimate, keeps its interval from two editions a group.</p>\n",
        min = study
            .calibration
            .minimum
            .map_or("–".to_string(), |m| m.to_string()),
        failed = study
            .changes
            .iter()
            .filter(|c| c.effects.iter().any(|(m, _, _)| c.placebo_fails(*m)))
            .count(),
        series = study.changes.len(),
    );
    // Series that disagree in sign on the draw rate: the two changes say
    // whether the series or its controls make the difference.
    let draws: Vec<(&crate::analysis::rule_study::SeriesChange, f64)> = study
        .changes
        .iter()
        .filter_map(|c| {
            let (_, raw, _) = c.effects.iter().find(|(m, _, _)| *m == Measure::Draws)?;
            Some((c, raw.estimate))
        })
        .collect();
    if draws.iter().any(|(_, d)| *d > 0.0) && draws.iter().any(|(_, d)| *d < 0.0) {
        h.push_str(
            "<p class=\"caption\" id=\"sign-flips\"><strong>Why the series disagree.</strong> ",
        );
        let explain = |(c, d): &(&crate::analysis::rule_study::SeriesChange, f64)| {
            format!(
                "{} {:+.1} (its own draw rate {} over {} games with the rule and {} without; the {} control editions' {})",
                c.series,
                d * 100.0,
                points(change(&c.after, &c.before, Measure::Draws)),
                thousands(c.after.games),
                thousands(c.before.games),
                c.editions[2] + c.editions[3],
                points(change(&c.control_after, &c.control_before, Measure::Draws)),
            )
        };
        let up: Vec<String> = draws
            .iter()
            .filter(|(_, d)| *d > 0.0)
            .map(explain)
            .collect();
        let down: Vec<String> = draws
            .iter()
            .filter(|(_, d)| *d < 0.0)
            .map(explain)
            .collect();
        let _ = writeln!(
            h,
            "The draw rate's difference in differences is positive for {} and negative for {}. Each is the \
             series' own change less its controls' change in the same years, so a sign can come from the \
             controls (their years differ by series) as much as from the series; with one or two editions a side \
             a single tournament's field decides it.</p>",
            escape(&up.join("; ")),
            escape(&down.join("; "))
        );
    }
}

/// How much of each edition the data hold.
pub fn rule_study_editions(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    let _ = write!(
        h,
        "<details><summary>Editions and how much of each the data hold ({})</summary><div class=\"wide\"><table>\
         <tr><th class=\"l\">Series</th><th>Year</th><th class=\"l\">Regime</th><th class=\"l\">Kind</th><th>Games</th><th>Draw rate</th>\
         <th>Rounds seen</th><th>Last round</th><th>Players seen</th><th>Games if complete</th><th>Share present</th>\
         <th>Agreed within {} moves</th></tr>",
        study.editions.len(),
        study.short_limits[0]
    );
    for e in &study.editions {
        // Summed over its tournaments (a Grand Prix year's legs), each
        // complete at half its players times its last round. A tournament
        // holding more games than that (a play-off, a repeat the dedup
        // missed) has no share to read: never shown as 100 %.
        let expected = e.expected_games();
        let share = if e.total.games > expected {
            "more games than complete: play-offs or repeats".to_string()
        } else {
            pct(Proportion::new(e.total.games, expected).rate())
        };
        let series = if e.tournaments.len() > 1 {
            format!(
                "{} <small>({} tournaments: {})</small>",
                escape(&e.series),
                e.tournaments.len(),
                escape(
                    &e.tournaments
                        .iter()
                        .map(|t| format!(
                            "{} {} of {}",
                            t.names.join(" / "),
                            t.games,
                            t.expected_games()
                        ))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            )
        } else {
            escape(&e.series)
        };
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            series,
            e.year,
            if e.inferred {
                format!("{} (inferred)", escape(e.regime.as_str()))
            } else {
                escape(e.regime.as_str())
            },
            if e.kind_stated {
                format!("{} (catalogue)", e.event_type.label())
            } else {
                e.event_type.label().to_string()
            },
            thousands(e.total.games),
            pct(e.total.draw_rate().rate()),
            e.rounds_seen,
            e.last_round,
            e.players,
            thousands(expected),
            share,
            match e.contradicts_coding() {
                Some(n) => format!("{} <strong>contradicts its coding</strong>", thousands(n)),
                None => thousands(e.total.short_agreed[0]),
            }
        );
    }
    h.push_str("</table></div><p class=\"caption\">“(inferred)”: the catalogue's source shows only that no rule \
        against draws applied (early draws were offered, or a rule came later “for the first time”), not a statement \
        of the rules. “Kind”: round robin, Swiss, team, match or knock-out, from the catalogue where it says \
        “(catalogue)”, else from the games (two players: a match; no more players than rounds + 1: a round robin; most \
        games between players who met more than once: a knock-out; else Swiss); controls are matched to rule editions \
        of the same kind. “Games if complete” is half the players seen times the last round: \
        the size of a round robin of those players; for Swiss and team events, where the data hold only some \
        players, it understates the event. An edition that pools several tournaments under one series and year (a \
        Grand Prix's legs, an Olympiad's sections: event names whose rounds overlap) is counted tournament by \
        tournament, each listed with its games of its games if complete; one holding more games than complete (a \
        play-off, a repeat) says so instead of a share.</p></details>\n");
}

/// The catalogue checked against the games: editions coded with a rule
/// against early offers whose games hold agreed short draws.
pub fn rule_study_catalogue_check(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    let flagged: Vec<(&crate::analysis::rule_study::Edition, u64)> = study
        .editions
        .iter()
        .filter_map(|e| Some((e, e.contradicts_coding()?)))
        .collect();
    let coded = study
        .editions
        .iter()
        .filter(|e| e.regime.restricts_offers())
        .count();
    let limit = study.short_limits[0];
    if flagged.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"catalogue-check\"><strong>The catalogue against the games:</strong> none of \
             the {coded} editions coded with a rule against early draw offers holds agreed draws within {limit} moves \
             beyond a slip of the record (at least {} and 5% of its games).</p>",
            crate::analysis::rule_study::CONTRADICTION_MIN_GAMES
        );
        return;
    }
    let list = flagged
        .iter()
        .map(|(e, n)| {
            format!(
                "{} {} ({}: {} agreed draws within {limit} moves of {} games)",
                escape(&e.series),
                e.year,
                escape(e.regime.label()),
                thousands(*n),
                thousands(e.total.games)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let _ = writeln!(
        h,
        "<p class=\"caption flagged\" id=\"catalogue-check\"><strong>The catalogue against the games: {} of the \
         {coded} editions coded with a rule against early draw offers contradict it</strong> — their games hold agreed \
         draws within {limit} moves, too many to be slips of the record: {list}. Their coding (or their games' \
         recording) needs checking against a source; the estimates below count them as coded.</p>",
        flagged.len()
    );
}

/// The primary estimate: each regime's effect from the model, the draw
/// rate primary, the other measures secondary with Holm's adjustment.
pub fn rule_study_primary(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    use crate::analysis::rule_study::{Measure, model};
    let Some(m) = &study.model else {
        return;
    };
    h.push_str(
        "<h3>The primary estimate: the rule effect from a model</h3><div class=\"wide\"><table id=\"rule-model\">\
         <tr><th class=\"l\">Rules</th><th class=\"l\">Measure</th><th>Effect (points)</th><th>p</th>\
         <th>p, Holm-adjusted</th><th>Editions identifying it</th></tr>",
    );
    for r in &m.rows {
        let primary = r.measure == Measure::Draws;
        let _ = write!(
            h,
            "<tr{}><td class=\"l\">{}</td><td class=\"l\">{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if primary { " class=\"primary\"" } else { "" },
            if primary {
                escape(r.regime.label())
            } else {
                String::new()
            },
            escape(&r.measure.label(study.short_limits)),
            if primary {
                " <strong>(primary)</strong>"
            } else {
                " (secondary)"
            },
            effect_cell(Some(&r.effect)),
            escape(&crate::render::text::p_value(r.p_value)),
            if primary {
                "–".into()
            } else {
                escape(&crate::render::text::p_value(r.holm_p_value))
            },
            m.identifying.get(&r.regime).copied().unwrap_or(0),
        );
    }
    for r in &m.not_identified {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td class=\"note\" colspan=\"5\">not identified: no series played both with and without it</td></tr>",
            escape(r.label())
        );
    }
    let _ = writeln!(
        h,
        "</table></div>\n<p class=\"caption\">The study's primary estimate, in percentage points: a {} Fitted to {} \
         editions of {} series in {} years ({} groups of games, {} parameters). With series fixed effects a regime's effect \
         is identified by the series that played both with and without it (their rule editions are counted); series \
         always under one regime anchor only the year and rating effects. Series whose pre-trend placebo fails are in it. {}</p>",
        escape(model::SPECIFICATION),
        m.editions,
        m.series,
        m.years,
        m.groups,
        m.parameters,
        match &study.model_coverage {
            Some(c) => match c.minimum {
                Some(m) => format!(
                    "Intervals and p-values are shown from {m} identifying editions of a regime: the minimum set by the \
                     model's own coverage simulation (below), not the checks' (the raw designs')."
                ),
                None => "No interval or p-value is shown: the model's own coverage simulation (below) held at no count \
                         from which every larger count held."
                    .into(),
            },
            None => "Intervals and p-values are withheld: no regime has two identifying editions or more, so the \
                     model's own coverage simulation had nothing to simulate."
                .into(),
        }
    );
    if let Some(c) = &study.model_coverage {
        rule_study_model_coverage(h, c);
    }
}

/// The model's own coverage simulation as a table: by count of
/// identifying editions, pooled and by regime.
fn rule_study_model_coverage(
    h: &mut String,
    c: &crate::analysis::rule_study::model_coverage::ModelCoverage,
) {
    use crate::analysis::rule_study::model_coverage as sim;
    let pct = |t: &sim::Tally| {
        format!(
            "{:.1}%{}",
            t.coverage() * 100.0,
            if t.unbounded > 0 {
                format!(
                    " <small>({:.0}% unbounded)</small>",
                    t.unbounded_share() * 100.0
                )
            } else {
                String::new()
            }
        )
    };
    let _ = write!(
        h,
        "<div class=\"wide\"><table id=\"rule-model-coverage\"><tr><th>Identifying editions</th><th>Data sets</th>\
         <th>Coverage of the model's 95% intervals</th><th>Range it must fall in</th><th class=\"l\">Holds</th>\
         <th class=\"l\">By regime: no effect / {:+.0} points</th></tr>",
        sim::EFFECTS[1] * 100.0
    );
    for (k, t) in &c.by_count {
        let (lo, hi) = t.range();
        let regimes: Vec<String> = c
            .cells
            .iter()
            .filter(|x| x.treated == *k)
            .map(|x| {
                format!(
                    "{}{}: {} / {}",
                    escape(x.regime.as_str()),
                    if x.treated == x.of {
                        " (its own count)"
                    } else {
                        ""
                    },
                    pct(&x.by_effect[0]),
                    pct(&x.by_effect[1])
                )
            })
            .collect();
        let _ = write!(
            h,
            "<tr><td>{k}</td><td>{}</td><td>{}</td><td>{:.1}–{:.1}%</td><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>",
            t.data_sets,
            pct(t),
            lo * 100.0,
            hi * 100.0,
            if t.holds() { "yes" } else { "no" },
            regimes.join("; "),
        );
    }
    let _ = writeln!(
        h,
        "</table></div>\n<p class=\"caption\">The primary model's own coverage simulation: how often its interval \
         for the draw rate held the planted effect, by the number of editions identifying the regime; {}. At the data's own \
         designs (each regime at its own count, its real editions under the rule) it covered {:.1}% of {} data sets. \
         Intervals are shown from {}.</p>",
        escape(&crate::render::text::model_coverage_design(c)),
        c.at_own_counts().coverage() * 100.0,
        c.at_own_counts().data_sets,
        c.minimum
            .map_or("no count".into(), |m| format!("{m} identifying editions")),
    );
}

/// The model with pair effects beside the primary estimate: its draw
/// rate and secondary measures, its specification and why it stays beside.
pub fn rule_study_pair_model(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    use crate::analysis::rule_study::{Measure, pair_model};
    use crate::render::studies;
    let Some(m) = &study.pair_model else {
        return;
    };
    h.push_str(
        "<h3>Beside it: the same model with pair effects</h3><div class=\"wide\"><table id=\"rule-pair-model\">\
         <tr><th class=\"l\">Rules</th><th class=\"l\">Measure</th><th>Effect (points)</th>\
         <th>Primary model</th><th>Same pairings, no pair effects</th><th>p</th><th>p, Holm-adjusted</th>\
         <th>Editions identifying it</th><th>Pairs met under it and without (games)</th></tr>",
    );
    for r in &m.rows {
        let primary = r.measure == Measure::Draws;
        let theirs = study.model.as_ref().and_then(|p| {
            p.rows
                .iter()
                .find(|q| q.regime == r.regime && q.measure == r.measure)
        });
        let (pairs, games) = m.spanning_pairs.get(&r.regime).copied().unwrap_or((0, 0));
        let _ = write!(
            h,
            "<tr{}><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if primary { " class=\"primary\"" } else { "" },
            if primary {
                escape(r.regime.label())
            } else {
                String::new()
            },
            escape(&r.measure.label(study.short_limits)),
            effect_cell(Some(&r.effect)),
            effect_cell(theirs.map(|q| &q.effect)),
            if primary {
                escape(&studies::points(
                    m.without_pair_effects.get(&r.regime).copied(),
                ))
            } else {
                "–".into()
            },
            escape(&crate::render::text::p_value(r.p_value)),
            if primary {
                "–".into()
            } else {
                escape(&crate::render::text::p_value(r.holm_p_value))
            },
            m.identifying.get(&r.regime).copied().unwrap_or(0),
            if primary {
                format!("{pairs} ({games})")
            } else {
                String::new()
            },
        );
    }
    for r in &m.not_identified {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td class=\"note\" colspan=\"8\">not identified: no pair met both with and without it</td></tr>",
            escape(r.label())
        );
    }
    let _ = writeln!(
        h,
        "</table></div>\n<p class=\"caption\">A {} It was {}. {} Here: {}. Intervals and p-values are withheld below the \
         raw designs' coverage simulation's minimum, as for the checks (the primary model's own simulation is of its \
         design, not this one's).</p>",
        escape(pair_model::SPECIFICATION),
        escape(&studies::pair_model_basis(m)),
        escape(pair_model::VERDICT),
        escape(&studies::pair_model_departures(m, study.model.as_ref())),
    );
}

pub fn rule_study_section(
    h: &mut String,
    study: &crate::analysis::rule_study::RuleStudy,
) -> anyhow::Result<()> {
    h.push_str("<section id=\"rules\">\n<h2>Rules against short draws</h2>\n");
    let _ = writeln!(
        h,
        "<p class=\"caption\">{}</p>",
        escape(super::RULE_STUDY_MEANING)
    );
    rule_study_catalogue_check(h, study);
    super::rule_study_regimes(h, study);
    super::rule_study_draw_types(h, study);
    let svg = charts::rule_study(study)?;
    if !svg.is_empty() {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
    rule_study_primary(h, study);
    rule_study_pair_model(h, study);
    super::rule_study_effects(h, study);
    super::rule_study_published(h, study);
    super::rule_study_changes(h, study);
    super::rule_study_editions(h, study);
    let _ = writeln!(
        h,
        "<p class=\"caption\"><strong>What this cannot show.</strong> {}</p>",
        escape(super::RULE_STUDY_LIMITS)
    );
    h.push_str("</section>\n");
    Ok(())
}

pub fn scoring_section(h: &mut String, study: &crate::analysis::scoring::ScoringStudy) {
    let draws: u64 = study.plus_remise_draws.values().sum();
    h.push_str(
        "<section id=\"scoring\">\n<h2>Scoring systems</h2>\n<p class=\"caption\">Every used game scored \
         under classical 1-½-0, “football” 3-1-0, children’s 3-2-1 and plus-remise, where no game is drawn: \
         the side with more material in the final position wins (queen 9, rook 5, bishop 3, knight 3, pawn 1, \
         bishop pair 1; if equal, pawns count double; if still equal, Black wins). Standings are per Event \
         tag and year, over the games in these tables only.</p>\n",
    );
    let _ = write!(
        h,
        "<table><tr><th class=\"l\">Plus-remise decides a draw</th><th>Draws</th><th>Share</th></tr>"
    );
    for ((winner, rule), n) in &study.plus_remise_draws {
        let side = match winner.as_str() {
            "white" => "White",
            "black" => "Black",
            other => other,
        };
        let _ = write!(
            h,
            "<tr><td class=\"l\">{} wins: {}</td><td>{}</td><td>{}</td></tr>",
            escape(side),
            crate::analysis::scoring::rule_name(*rule),
            thousands(*n),
            pct(Proportion::new(*n, draws).rate())
        );
    }
    let _ = write!(
        h,
        "</table>\n<table id=\"scoring-changes\"><tr><th class=\"l\">Against classical scoring ({} events)</th><th>Events with another winner</th>\
         <th>Of the {} events of three players or more</th><th>Share of those</th><th>Of the {} events with unequal games</th><th>Places moved</th></tr>",
        thousands(study.events),
        thousands(study.events - study.matches),
        thousands(study.unequal_games),
    );
    let multi = study.events - study.matches;
    for (system, change) in &study.changes {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(system.label()),
            thousands(change.different_winner),
            thousands(change.different_winner_multi),
            pct(Proportion::new(change.different_winner_multi, multi).rate()),
            thousands(change.different_winner_unequal),
            thousands(change.places_moved)
        );
    }
    h.push_str("</table>\n");
    let _ = writeln!(
        h,
        "<p class=\"caption\" id=\"scoring-arithmetic\">What cannot change, by arithmetic, not evidence: {} of \
         the ranked events are two-player matches, whose winner has more wins under classical scoring, 3-1-0 and \
         3-2-1 alike (only plus-remise, which decides draws, can change a match); the share above is of the {} \
         events of three players or more. 3-2-1 gives each game 1 + 2 × its classical points, so a player's total \
         is her games plus twice her classical points: where every player played the same number of games it \
         ranks exactly as classical scoring does, and it can differ only in the {} events with unequal games \
         (withdrawals, forfeits, an odd number of players).</p>",
        thousands(study.matches),
        thousands(multi),
        thousands(study.unequal_games),
    );
    if study.incomplete_events > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"incomplete-events\">Not ranked: {} events whose games are not all in these \
             tables (a player's collection holds the profiled player's games and a game or two of each opponent; an \
             arena has players of every number of games). Standings are compared only for events in which every \
             player's number of games is within one of the most.</p>",
            thousands(study.incomplete_events)
        );
    }
    let _ = writeln!(
        h,
        "<p class=\"caption\" id=\"crosstables\">Ranked: {} events whose games are a complete crosstable: {} round \
         robins (every pair of players met, each pair equally often; a match is the round robin of two) and {} Swiss \
         events with every round's pairings (rounds numbered from 1 in the <code>Round</code> tag, each with half \
         the players' number of games, no player twice in a round, no pair twice).</p>",
        thousands(study.events),
        thousands(study.round_robins),
        thousands(study.swiss)
    );
    if study.unpaired_events > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"unpaired-events\">Not ranked: {} events whose players have about the same \
             number of games but whose pairings are neither a complete round robin nor every round of a Swiss event \
             (a pair or a board missing, rounds not numbered).</p>",
            thousands(study.unpaired_events)
        );
    }
    if study.small_events > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"small-events\">Not ranked: {} events too small for a crosstable (fewer than {} \
             games, or a player with one game): ranking the two players of a single game says nothing about a \
             scoring system.</p>",
            thousands(study.small_events),
            crate::analysis::scoring::CROSSTABLE_MIN_GAMES
        );
    }
    if study.events == 0 {
        h.push_str("<p class=\"caption\"><em>No event in these tables looks complete: the comparison of standings is not shown.</em></p>\n");
    }
    if study.large_events > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"large-events\">Not ranked: {} events of more than {} games ({} games in all), \
             such as lichess's “Rated Blitz game”, which are pools of unrelated games rather than events, and \
             whose standings would grow with the data.</p>",
            thousands(study.large_events),
            thousands(crate::analysis::scoring::STANDINGS_MAX_GAMES),
            thousands(study.large_event_games)
        );
    }
    if study.left_out_events > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"bounded-events\">Not ranked: {} events ({} games), those with the most \
             players, left out to keep the standings within {} player entries in memory (arena tournaments \
             and pools pass that bound; a complete crosstable of that size is rare).</p>",
            thousands(study.left_out_events),
            thousands(study.left_out_games),
            thousands(crate::analysis::scoring::STANDINGS_KEPT as u64)
        );
    }
    if study.changes.values().any(|c| !c.examples.is_empty()) {
        h.push_str(
            "<h3>Events whose winner changes</h3>\n<table><tr><th class=\"l\">System</th>\
             <th class=\"l\">Event</th><th class=\"l\">Classical winner</th>\
             <th class=\"l\">Winner under the system</th></tr>",
        );
        for (system, change) in &study.changes {
            for example in change.examples.iter().take(3) {
                let _ = write!(
                    h,
                    "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td>\
                     <td class=\"l\">{}</td></tr>",
                    escape(system.label()),
                    escape(&example.event_label()),
                    escape(&crate::render::text::winners(&example.classical)),
                    escape(&crate::render::text::winners(&example.other)),
                );
            }
        }
        h.push_str("</table>\n");
    }
    h.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::rule_study::{GroupStats, RuleStudy};
    use crate::study::events::Regime;
    use remis_table::schema::DrawType;

    #[test]
    fn the_primary_estimate_is_a_table_with_its_p_values_escaped() {
        use crate::analysis::rule_study::{Effect, Measure, model};
        let row = |measure, p| model::ModelRow {
            regime: Regime::Sofia,
            measure,
            effect: Effect {
                estimate: -0.058,
                interval: Some((-0.099, -0.008)),
                withheld: None,
                smallest_group: 24,
            },
            p_value: Some(p),
            holm_p_value: (measure != Measure::Draws).then_some(p),
        };
        let study = RuleStudy {
            model: Some(model::ModelEstimates {
                rows: vec![row(Measure::Draws, 0.03), row(Measure::Agreed, 0.0)],
                ..Default::default()
            }),
            ..RuleStudy::default()
        };
        let mut h = String::new();
        rule_study_primary(&mut h, &study);
        assert!(h.contains("id=\"rule-model\""), "{h}");
        assert!(h.contains("(primary)") && h.contains("(secondary)"), "{h}");
        // No replicate beyond the statistic: "< 0.005", escaped.
        assert!(h.contains("&lt; 0.005"), "{h}");
        assert!(h.contains("-5.8"), "{h}");
    }

    #[test]
    fn the_pair_model_stands_beside_the_primary_and_says_where_it_departs() {
        use crate::analysis::rule_study::{Effect, Measure, model, pair_model};
        let row = |estimate, interval| model::ModelRow {
            regime: Regime::Sofia,
            measure: Measure::Draws,
            effect: Effect {
                estimate,
                interval,
                withheld: None,
                smallest_group: 24,
            },
            p_value: Some(0.1),
            holm_p_value: None,
        };
        let mut study = RuleStudy {
            model: Some(model::ModelEstimates {
                rows: vec![row(-0.058, Some((-0.099, -0.008)))],
                ..Default::default()
            }),
            pair_model: Some(pair_model::PairModel {
                rows: vec![row(-0.049, Some((-0.115, 0.012)))],
                identifying: [(Regime::Sofia, 34)].into(),
                spanning_pairs: [(Regime::Sofia, (310, 1450))].into(),
                without_pair_effects: [(Regime::Sofia, -0.056)].into(),
                pairs: 2357,
                ..Default::default()
            }),
            ..RuleStudy::default()
        };
        let mut h = String::new();
        rule_study_pair_model(&mut h, &study);
        assert!(h.contains("id=\"rule-pair-model\""), "{h}");
        // Its estimate, the primary's beside it, the same pairings'.
        assert!(
            h.contains("-4.9") && h.contains("-5.8") && h.contains("-5.6"),
            "{h}"
        );
        assert!(h.contains("310 (1450)") && h.contains("2357 pair"), "{h}");
        assert!(h.contains("stays beside the primary"), "{h}");
        assert!(h.contains("every draw-rate estimate lies within"), "{h}");
        // Outside the primary's interval, it says so.
        study.pair_model.as_mut().unwrap().rows = vec![row(-0.12, None)];
        let mut h = String::new();
        rule_study_pair_model(&mut h, &study);
        assert!(h.contains("-12.0 lies outside the primary"), "{h}");
    }

    fn draws(agreed: u64, repeated: u64) -> GroupStats {
        let mut g = GroupStats::default();
        g.games = 100;
        g.draws = agreed + repeated;
        g.agreed = agreed;
        let at = |k: DrawType| DrawType::ALL.iter().position(|&d| d == k).unwrap();
        g.draw_types[at(DrawType::Agreed)] = agreed;
        g.draw_types[at(DrawType::ThreefoldRepetition)] = repeated;
        g
    }

    #[test]
    fn under_sofia_rules_agreed_is_said_not_to_be_an_agreement() {
        let study = RuleStudy {
            regimes: [
                (Regime::None, draws(40, 10)),
                (Regime::Sofia, draws(20, 30)),
            ]
            .into(),
            ..RuleStudy::default()
        };
        let mut h = String::new();
        rule_study_draw_types(&mut h, &study);
        let sofia = &h[h.find(Regime::Sofia.label()).unwrap()..];
        let sofia = &sofia[..sofia.find("</tr>").unwrap()];
        assert!(
            sofia.contains("40.0%"),
            "agreed share of Sofia's draws: {sofia}"
        );
        assert!(sofia.contains("60.0%"), "repetitions: {sofia}");
        assert!(sofia.contains("not an agreement"));
        let none = &h[h.find(Regime::None.label()).unwrap()..];
        assert!(!none[..none.find("</tr>").unwrap()].contains("not an agreement"));
    }

    #[test]
    fn an_edition_holding_more_games_than_complete_is_never_shown_as_complete() {
        // Issue 49: FIDE Grand Prix 2008, 271 games of several legs under
        // one name, showed "if complete 91, 100.0 % present". Its legs are
        // now tournaments apart (rule_study::tests); an edition whose
        // tournaments are not known, or a tournament with a play-off,
        // still holds more games than complete, and says so.
        let pooled = crate::analysis::rule_study::Edition {
            series: "FIDE Grand Prix".into(),
            year: 2008,
            regime: Regime::Sofia,
            three_one_zero: false,
            format: "over-the-board classical".into(),
            total: {
                let mut total = GroupStats::default();
                total.games = 271;
                total
            },
            by_cell: Default::default(),
            pairs: Default::default(),
            rounds_seen: 13,
            last_round: 13,
            players: 14,
            inferred: false,
            event_type: crate::study::events::EventType::RoundRobin,
            kind_stated: false,
            tournaments: Vec::new(),
            last_round_cells: Default::default(),
        };
        assert_eq!(pooled.expected_games(), 91);
        let study = RuleStudy {
            editions: vec![pooled],
            ..RuleStudy::default()
        };
        let mut h = String::new();
        rule_study_editions(&mut h, &study);
        let row = &h[h.find("FIDE Grand Prix").unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(!row.contains("100.0%"), "{row}");
        assert!(row.contains("more games than complete"), "{row}");
    }
}
