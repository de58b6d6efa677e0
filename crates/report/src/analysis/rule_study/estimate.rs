//! The rule study's estimators: differences between rule and control
//! editions, pooled and by regime, adjusted by band; difference in
//! differences for series that changed their rules; and the bootstrap that
//! resamples whole editions.

use super::*;

/// Each rule regime's editions against the controls, raw and adjusted.
pub(super) type RegimeEffects = BTreeMap<Regime, Vec<(Measure, Option<Effect>, Option<Effect>)>>;

pub(super) fn effects_by_regime(
    rule: &[&Edition],
    control: &[&Edition],
    rng: &mut Rng,
) -> RegimeEffects {
    let regimes: BTreeSet<Regime> = rule.iter().map(|e| e.regime).collect();
    regimes
        .into_iter()
        .map(|regime| {
            let of_regime: Vec<&Edition> = rule
                .iter()
                .copied()
                .filter(|e| e.regime == regime)
                .collect();
            let effects = Measure::all()
                .into_iter()
                .map(|m| {
                    (
                        m,
                        effect(&of_regime, control, m, Estimator::Raw, rng),
                        effect(&of_regime, control, m, Estimator::MantelHaenszel, rng),
                    )
                })
                .collect();
            (regime, effects)
        })
        .collect()
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

pub(super) fn by_band(editions: &[&Edition]) -> BTreeMap<Band, GroupStats> {
    let mut m: BTreeMap<Band, GroupStats> = BTreeMap::new();
    for e in editions {
        for (b, s) in &e.by_band {
            m.entry(*b).or_default().add(s);
        }
    }
    m
}

/// Treated minus control share of a measure: pooled, or the
/// Mantel–Haenszel risk difference over rating bands (weights
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
            let t = by_band(treated);
            let c = by_band(control);
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

pub(super) fn effect(
    treated: &[&Edition],
    control: &[&Edition],
    m: Measure,
    how: Estimator,
    rng: &mut Rng,
) -> Option<Effect> {
    let estimate = difference(treated, control, m, how)?;
    let interval = (treated.len() >= 2 && control.len() >= 2).then(|| {
        let replicates: Vec<f64> = (0..BOOTSTRAP_REPLICATES)
            .filter_map(|_| difference(&resample(treated, rng), &resample(control, rng), m, how))
            .collect();
        percentile_interval(replicates)
    });
    Some(Effect {
        estimate,
        interval: interval.flatten(),
    })
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

pub(super) fn did_effect(
    groups: [&[&Edition]; 4],
    m: Measure,
    how: Estimator,
    rng: &mut Rng,
) -> Option<Effect> {
    let estimate = did(groups, m, how)?;
    let interval = groups.iter().all(|g| g.len() >= 2).then(|| {
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
        });
    }
    out
}
