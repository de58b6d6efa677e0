//! The rule study's estimators: differences between rule and control
//! editions, pooled and by regime, adjusted by band; difference in
//! differences for series that changed their rules; and the bootstrap that
//! resamples whole editions.

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
/// the same format, years and mean ratings close.
fn matches(rule: &Edition, control: &Edition) -> bool {
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
    RegimeEstimate {
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

/// A resample, with replacement, of the same number of editions.
pub(super) fn resample<'a>(editions: &[&'a Edition], rng: &mut Rng) -> Vec<&'a Edition> {
    (0..editions.len())
        .map(|_| editions[rng.below(editions.len() as u64) as usize])
        .collect()
}

/// The 2.5 % and 97.5 % points of bootstrap replicates; `None` when
/// fewer than half the replicates gave a value.
pub(crate) fn percentile_interval(mut values: Vec<f64>) -> Option<(f64, f64)> {
    if values.len() < BOOTSTRAP_REPLICATES / 2 {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    Some((at(0.025), at(0.975)))
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

/// The fewest editions in each of the four groups for a difference in
/// differences to get an interval: the fewest at which the wild cluster
/// bootstrap's coverage was simulated (`wild.rs`, 4 to 30 editions). With
/// fewer, a percentile bootstrap of two or three editions is far too
/// narrow (Cameron, Gelbach and Miller 2008): the estimate is shown, the
/// interval withheld, and the page says why.
pub const MIN_DID_EDITIONS: usize = 4;

pub(super) fn did_effect(
    groups: [&[&Edition]; 4],
    m: Measure,
    how: Estimator,
    rng: &mut Rng,
) -> Option<Effect> {
    did_effect_with(groups, m, how, rng, MIN_DID_EDITIONS)
}

/// [`did_effect`] with an interval from `min_editions` editions a group
/// on: the pre-trend placebo, a diagnostic, keeps its interval from two,
/// since an interval too narrow flags a trend too often, never too rarely.
pub(super) fn did_effect_with(
    groups: [&[&Edition]; 4],
    m: Measure,
    how: Estimator,
    rng: &mut Rng,
    min_editions: usize,
) -> Option<Effect> {
    let estimate = did(groups, m, how)?;
    let interval = groups
        .iter()
        .all(|g| g.len() >= min_editions.max(2))
        .then(|| {
            let replicates: Vec<f64> = (0..BOOTSTRAP_REPLICATES)
                .filter_map(|_| {
                    let r = groups.map(|g| resample(g, rng));
                    did([&r[0], &r[1], &r[2], &r[3]], m, how)
                })
                .collect();
            percentile_interval(replicates)
        });
    Some(Effect {
        estimate,
        interval: interval.flatten(),
    })
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
        let controls_in = |years: &[i16]| -> Vec<&Edition> {
            editions
                .iter()
                .filter(|e| &e.series != name && !e.regime.restricts() && years.contains(&e.year))
                .collect()
        };
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
                    .filter_map(|m| Some((m, did_effect_with(placebo, m, Estimator::Raw, rng, 2)?)))
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
