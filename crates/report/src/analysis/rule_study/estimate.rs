//! The rule study's estimators: differences between rule and control
//! editions, pooled and by regime, adjusted by band; difference in
//! differences for series that changed their rules; each with its interval
//! from the restricted wild cluster bootstrap ([`inference`]).

use super::*;

/// Control editions match a rule edition when their years are at most
/// this far apart ...
pub const MATCH_YEARS: i16 = 2;
/// ... and their mean ratings (the mean of both players' ratings, over
/// rated games) at most this far.
pub const MATCH_RATING: f64 = 100.0;

/// One rule regime (or every rule pooled) against the controls.
#[derive(Clone, Debug, PartialEq)]
pub struct RegimeEstimate {
    /// `None`: every rule pooled.
    pub regime: Option<Regime>,
    pub rule_editions: usize,
    /// Rule editions with no control edition within the window: left out
    /// of the adjusted estimate.
    pub unmatched: usize,
    /// Control editions within the window of some rule edition, and all.
    pub matched_controls: usize,
    pub all_controls: usize,
    /// Mean rating of the rule editions' games, of the matched controls'
    /// and of all controls'.
    pub mean_rating: [Option<f64>; 3],
    /// Years of the rule editions: first and last.
    pub years: Option<(i16, i16)>,
    pub measures: Vec<MeasureEstimate>,
    /// Rule editions and matched control editions by kind of event.
    pub rule_types: BTreeMap<EventType, usize>,
    pub control_types: BTreeMap<EventType, usize>,
    /// The share of the matched controls' games from editions of the same
    /// kind as a rule edition they match: with the kind matched (1 by
    /// construction, computed), and with format, years and rating alone.
    pub same_type_share: Option<f64>,
    pub same_type_share_format_only: Option<f64>,
}

/// The three estimates of one measure, rule minus control.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MeasureEstimate {
    pub measure: Measure,
    /// All rule editions against all controls, unadjusted.
    pub raw: Option<wild::Stratified>,
    /// Against the matched controls, within cells of both players'
    /// ratings (mean and gap).
    pub adjusted: Option<wild::Stratified>,
    /// Within pairs of players who met both under the rule and in control
    /// editions of the same years (± [`MATCH_YEARS`]).
    pub within_pair: Option<wild::Stratified>,
}

/// Whether a control edition is within the window of a rule edition:
/// the same kind of event (round robin, Swiss, team, match, knock-out),
/// the same format, years and mean ratings close.
fn matches(rule: &Edition, control: &Edition) -> bool {
    rule.event_type == control.event_type && matches_format(rule, control)
}

/// The window without the kind of event: what the matching was before
/// event types, kept to say how far it mixed kinds.
fn matches_format(rule: &Edition, control: &Edition) -> bool {
    rule.format == control.format
        && (rule.year - control.year).abs() <= MATCH_YEARS
        && match (rule.total.mean_rating(), control.total.mean_rating()) {
            (Some(a), Some(b)) => (a - b).abs() <= MATCH_RATING,
            _ => false,
        }
}

/// Every rule pooled, then each regime, against the controls: raw,
/// adjusted and within pairs, with wild cluster bootstrap intervals.
pub(super) fn estimates(editions: &[Edition], rng: &mut Rng) -> Vec<RegimeEstimate> {
    let control: Vec<&Edition> = editions.iter().filter(|e| !e.regime.restricts()).collect();
    let regimes: BTreeSet<Regime> = editions
        .iter()
        .filter(|e| e.regime.restricts())
        .map(|e| e.regime)
        .collect();
    std::iter::once(None)
        .chain(regimes.into_iter().map(Some))
        .filter_map(|regime| {
            let rule: Vec<&Edition> = editions
                .iter()
                .filter(|e| e.regime.restricts() && regime.is_none_or(|r| e.regime == r))
                .collect();
            (!rule.is_empty() && !control.is_empty())
                .then(|| regime_estimate(regime, &rule, &control, rng))
        })
        .collect()
}

fn regime_estimate(
    regime: Option<Regime>,
    rule: &[&Edition],
    control: &[&Edition],
    rng: &mut Rng,
) -> RegimeEstimate {
    let matched_rule: Vec<&Edition> = rule
        .iter()
        .copied()
        .filter(|r| control.iter().any(|c| matches(r, c)))
        .collect();
    let matched_control: Vec<&Edition> = control
        .iter()
        .copied()
        .filter(|c| rule.iter().any(|r| matches(r, c)))
        .collect();
    let near_years: Vec<&Edition> = control
        .iter()
        .copied()
        .filter(|c| rule.iter().any(|r| (r.year - c.year).abs() <= MATCH_YEARS))
        .collect();
    let measures = Measure::all()
        .into_iter()
        .map(|m| MeasureEstimate {
            measure: m,
            raw: wild::stratified(&cells(rule, control, m, Strata::None), rng),
            adjusted: wild::stratified(
                &cells(&matched_rule, &matched_control, m, Strata::Ratings),
                rng,
            ),
            within_pair: wild::stratified(&cells(rule, &near_years, m, Strata::Pairs), rng),
        })
        .collect();
    let years = rule.iter().map(|e| e.year);
    let by_type = |eds: &[&Edition]| -> BTreeMap<EventType, usize> {
        let mut m = BTreeMap::new();
        for e in eds {
            *m.entry(e.event_type).or_insert(0) += 1;
        }
        m
    };
    // The share of matched control games of the kind of a rule edition
    // they match, under a matching rule.
    let same_type_share = |window: fn(&Edition, &Edition) -> bool| -> Option<f64> {
        let (mut same, mut all) = (0u64, 0u64);
        for c in control {
            let matched: Vec<&&Edition> = rule.iter().filter(|r| window(r, c)).collect();
            if matched.is_empty() {
                continue;
            }
            all += c.total.games;
            if matched.iter().any(|r| r.event_type == c.event_type) {
                same += c.total.games;
            }
        }
        (all > 0).then(|| same as f64 / all as f64)
    };
    RegimeEstimate {
        rule_types: by_type(rule),
        control_types: by_type(&matched_control),
        same_type_share: same_type_share(matches),
        same_type_share_format_only: same_type_share(matches_format),
        regime,
        rule_editions: rule.len(),
        unmatched: rule.len() - matched_rule.len(),
        matched_controls: matched_control.len(),
        all_controls: control.len(),
        mean_rating: [
            pooled(rule).mean_rating(),
            pooled(&matched_control).mean_rating(),
            pooled(control).mean_rating(),
        ],
        years: years.clone().min().zip(years.max()),
        measures,
    }
}

#[derive(Copy, Clone)]
pub(super) enum Strata {
    None,
    Ratings,
    Pairs,
}

/// The games of rule and control editions as the wild bootstrap's cells:
/// one cluster per edition, strata by `strata`.
pub(super) fn cells(
    rule: &[&Edition],
    control: &[&Edition],
    m: Measure,
    strata: Strata,
) -> Vec<wild::Cell> {
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut stratum = |key: String| {
        let next = index.len();
        *index.entry(key).or_insert(next)
    };
    let mut out = Vec::new();
    let sides = [(rule, true), (control, false)];
    for (cluster, (edition, treated)) in sides
        .iter()
        .flat_map(|(editions, treated)| editions.iter().map(move |e| (*e, *treated)))
        .enumerate()
    {
        let mut push = |stratum: usize, games: u64, hits: u64| {
            out.push(wild::Cell {
                cluster,
                stratum,
                treated,
                games,
                hits,
            })
        };
        match strata {
            Strata::None => push(0, edition.total.games, edition.total.share(m).successes),
            Strata::Ratings => {
                for (cell, g) in &edition.by_cell {
                    push(stratum(format!("{cell:?}")), g.games, g.share(m).successes);
                }
            }
            Strata::Pairs => {
                for ((a, b), p) in &edition.pairs {
                    push(stratum(format!("{a}\u{1f}{b}")), p[0], p[m.pairing_index()]);
                }
            }
        }
    }
    out
}

#[derive(Copy, Clone)]
pub(super) enum Estimator {
    Raw,
    MantelHaenszel,
}

pub(super) fn pooled(editions: &[&Edition]) -> GroupStats {
    let mut g = GroupStats::default();
    for e in editions {
        g.add(&e.total);
    }
    g
}

pub(super) fn by_cell(editions: &[&Edition]) -> BTreeMap<RatingCell, GroupStats> {
    let mut m: BTreeMap<RatingCell, GroupStats> = BTreeMap::new();
    for e in editions {
        for (b, s) in &e.by_cell {
            m.entry(*b).or_default().add(s);
        }
    }
    m
}

/// Treated minus control share of a measure: pooled, or the
/// Mantel–Haenszel risk difference over rating cells (weights
/// n1·n0 / (n1 + n0); bands missing on either side are left out).
pub(super) fn difference(
    treated: &[&Edition],
    control: &[&Edition],
    m: Measure,
    how: Estimator,
) -> Option<f64> {
    match how {
        Estimator::Raw => {
            let a = pooled(treated).share(m).rate()?;
            let b = pooled(control).share(m).rate()?;
            Some(a - b)
        }
        Estimator::MantelHaenszel => {
            let t = by_cell(treated);
            let c = by_cell(control);
            let (mut num, mut den) = (0.0, 0.0);
            for (band, ts) in &t {
                let Some(cs) = c.get(band) else { continue };
                let (n1, n0) = (ts.games as f64, cs.games as f64);
                if n1 == 0.0 || n0 == 0.0 {
                    continue;
                }
                let (p1, p0) = (ts.share(m).rate()?, cs.share(m).rate()?);
                let w = n1 * n0 / (n1 + n0);
                num += w * (p1 - p0);
                den += w;
            }
            (den > 0.0).then(|| num / den)
        }
    }
}

/// Difference in differences: (after − before) − (control after − control
/// before), each "−" raw or Mantel–Haenszel.
pub(super) fn did(groups: [&[&Edition]; 4], m: Measure, how: Estimator) -> Option<f64> {
    let [after, before, control_after, control_before] = groups;
    match how {
        Estimator::Raw => {
            let r = |g: &[&Edition]| pooled(g).share(m).rate();
            Some((r(after)? - r(before)?) - (r(control_after)? - r(control_before)?))
        }
        Estimator::MantelHaenszel => Some(
            difference(after, control_after, m, how)? - difference(before, control_before, m, how)?,
        ),
    }
}

/// A difference in differences with its interval from the restricted
/// wild cluster bootstrap over the editions of the four groups
/// ([`inference`]); `None` without an estimate. Whether the interval is
/// shown at its edition counts is decided once the coverage simulation has
/// run ([`Effect::withhold_below`]).
pub(super) fn did_effect(
    groups: [&[&Edition]; 4],
    m: Measure,
    how: Estimator,
    rng: &mut Rng,
) -> Option<Effect> {
    let estimate = did(groups, m, how)?;
    let (units, coefficient) = did_linear(groups, m, how);
    let linear = inference::Linear {
        units: &units,
        coefficient: &coefficient,
    };
    let group_of = |cell: usize| cell % 4;
    let smallest_group = linear.smallest_group(group_of);
    let (interval, withheld) =
        match inference::interval(&linear, group_of, wild::WILD_REPLICATES, rng) {
            Some(Ok(i)) => (Some(i), None),
            Some(Err(w)) => (None, Some(w)),
            None => (None, Some(inference::Withheld::OneEdition)),
        };
    Some(Effect {
        estimate,
        interval,
        withheld,
        smallest_group,
    })
}

/// A difference in differences as a linear combination of cell shares:
/// cell `4 s + g` holds the games of group g (after, before, control
/// after, control before) in stratum s. Raw: one stratum, coefficients +1,
/// −1, −1, +1. Mantel–Haenszel: per rating cell, each period's weight
/// n₁n₀ / (n₁ + n₀) over the period's total, with the same signs.
pub(super) fn did_linear(
    groups: [&[&Edition]; 4],
    m: Measure,
    how: Estimator,
) -> (Vec<inference::Unit>, Vec<f64>) {
    let mut strata: BTreeMap<RatingCell, usize> = BTreeMap::new();
    if let Estimator::MantelHaenszel = how {
        for e in groups.iter().flat_map(|g| g.iter()) {
            for cell in e.by_cell.keys() {
                let next = strata.len();
                strata.entry(*cell).or_insert(next);
            }
        }
    }
    let mut units = Vec::new();
    let mut games = vec![0u64; 4 * strata.len().max(1)];
    for (cluster, (g, e)) in groups
        .iter()
        .enumerate()
        .flat_map(|(g, eds)| eds.iter().map(move |e| (g, *e)))
        .enumerate()
    {
        let mut push = |stratum: usize, s: &GroupStats| {
            let cell = 4 * stratum + g;
            games[cell] += s.games;
            units.push(inference::Unit {
                cluster,
                cell,
                games: s.games,
                hits: s.share(m).successes,
            });
        };
        match how {
            Estimator::Raw => push(0, &e.total),
            Estimator::MantelHaenszel => {
                for (cell, s) in &e.by_cell {
                    push(strata[cell], s);
                }
            }
        }
    }
    let sign = [1.0, -1.0, -1.0, 1.0];
    let mut coefficient = vec![0.0; games.len()];
    match how {
        Estimator::Raw => coefficient.copy_from_slice(&sign),
        Estimator::MantelHaenszel => {
            // Period "after" pairs groups 0 and 2, "before" 1 and 3.
            for (treated, control) in [(0, 2), (1, 3)] {
                let weight = |s: usize| {
                    let (n1, n0) = (games[4 * s + treated] as f64, games[4 * s + control] as f64);
                    if n1 > 0.0 && n0 > 0.0 {
                        n1 * n0 / (n1 + n0)
                    } else {
                        0.0
                    }
                };
                let total: f64 = (0..strata.len()).map(weight).sum();
                if total > 0.0 {
                    for s in 0..strata.len() {
                        let w = weight(s) / total;
                        coefficient[4 * s + treated] = sign[treated] * w;
                        coefficient[4 * s + control] = sign[control] * w;
                    }
                }
            }
        }
    }
    (units, coefficient)
}

/// The control editions of a difference in differences: editions without
/// a rule of other series, in the given years.
fn controls_in<'a>(editions: &'a [Edition], series: &str, years: &[i16]) -> Vec<&'a Edition> {
    editions
        .iter()
        .filter(|e| e.series != series && !e.regime.restricts() && years.contains(&e.year))
        .collect()
}

impl SeriesChange {
    /// Its four groups of editions: with the rule, without, and the
    /// controls of the years of each.
    pub fn groups<'a>(&self, editions: &'a [Edition]) -> [Vec<&'a Edition>; 4] {
        let own = |rule: bool| -> Vec<&Edition> {
            editions
                .iter()
                .filter(|e| e.series == self.series && e.regime.restricts() == rule)
                .collect()
        };
        [
            own(true),
            own(false),
            controls_in(editions, &self.series, &self.after_years),
            controls_in(editions, &self.series, &self.before_years),
        ]
    }
}

/// Every series with editions both with and without a rule, against the
/// control editions of other series in the same years.
pub(super) fn series_changes(editions: &[Edition], rng: &mut Rng) -> Vec<SeriesChange> {
    let series: BTreeSet<&String> = editions.iter().map(|e| &e.series).collect();
    let mut out = Vec::new();
    for name in series {
        let of = |rule: bool| -> Vec<&Edition> {
            editions
                .iter()
                .filter(|e| &e.series == name && e.regime.restricts() == rule)
                .collect()
        };
        let (after, before) = (of(true), of(false));
        if after.is_empty() || before.is_empty() {
            continue;
        }
        let years = |g: &[&Edition]| -> Vec<i16> {
            let mut y: Vec<i16> = g.iter().map(|e| e.year).collect();
            y.dedup();
            y
        };
        let (after_years, before_years) = (years(&after), years(&before));
        let controls_in = |years: &[i16]| controls_in(editions, name, years);
        let (control_after, control_before) =
            (controls_in(&after_years), controls_in(&before_years));
        if control_after.is_empty() || control_before.is_empty() {
            continue;
        }
        let groups: [&[&Edition]; 4] = [&after, &before, &control_after, &control_before];
        let (pre_trend, pre_trend_years) = {
            let split = before_years.get(before_years.len() / 2).copied();
            let half = |late: bool| -> Vec<&Edition> {
                before
                    .iter()
                    .copied()
                    .filter(|e| split.is_some_and(|s| (e.year >= s) == late))
                    .collect()
            };
            let (early, late) = (half(false), half(true));
            let (early_years, late_years) = (years(&early), years(&late));
            let (control_early, control_late) =
                (controls_in(&early_years), controls_in(&late_years));
            let placebo: [&[&Edition]; 4] = [&late, &early, &control_late, &control_early];
            let effects = if placebo.iter().all(|g| !g.is_empty()) {
                Measure::all()
                    .into_iter()
                    .filter_map(|m| Some((m, did_effect(placebo, m, Estimator::Raw, rng)?)))
                    .collect()
            } else {
                Vec::new()
            };
            (effects, (early_years, late_years))
        };
        let effects = Measure::all()
            .into_iter()
            .filter_map(|m| {
                let raw = did_effect(groups, m, Estimator::Raw, rng)?;
                Some((
                    m,
                    raw,
                    did_effect(groups, m, Estimator::MantelHaenszel, rng),
                ))
            })
            .collect();
        out.push(SeriesChange {
            series: name.clone(),
            regimes: {
                let mut r: Vec<Regime> = after.iter().map(|e| e.regime).collect();
                r.sort();
                r.dedup();
                r
            },
            before: pooled(&before),
            after: pooled(&after),
            control_before: pooled(&control_before),
            control_after: pooled(&control_after),
            editions: [
                after.len(),
                before.len(),
                control_after.len(),
                control_before.len(),
            ],
            effects,
            before_years,
            after_years,
            pre_trend,
            pre_trend_years,
        });
    }
    out
}
