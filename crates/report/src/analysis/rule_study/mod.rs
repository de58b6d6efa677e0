//! Rule studies: events played under rules against short draws ("Sofia
//! rules", no draw offers before move N, 3-1-0 scoring, armageddon) against
//! comparable events without them, from a sourced catalogue
//! (`data/events.toml`).
//!
//! Three estimates, each a difference in shares of games, with 95%
//! intervals from a bootstrap over event editions (games of one edition
//! share players, conditions and rules, so they are not independent):
//!
//! - **raw**: rule editions against control editions;
//! - **strength-adjusted**: the Mantel–Haenszel risk difference over rating
//!   bands, comparing rule and control games of the same band;
//! - **difference in differences**, for every series that changed its rules:
//!   its change between editions with and without the rule, minus the
//!   controls' change over the same years; raw and strength-adjusted.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use polars::prelude::*;

use super::merge::{Merge, pairs};
use super::table::{BAND, IS_DRAW, band_of_row};
use crate::study::events::{EventCatalogue, Regime};
use crate::study::{Band, EventPatterns, Proportion};
use remis_core::rng::Rng;
use remis_table::schema::Column;
use remis_table::schema::{DrawType, Ending};

mod counts;
pub use counts::*;

mod estimate;
use estimate::*;

/// Counts over a group of games.
#[derive(Copy, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GroupStats {
    pub games: u64,
    pub draws: u64,
    pub agreed: u64,
    /// Draws within each of the two short-draw limits.
    pub short: [u64; 2],
    /// The moves of drawn games, summed and summed as squares (whole
    /// numbers: exact in any order).
    draw_moves_sum: u64,
    draw_moves_squares: u64,
    /// Draws by draw type, in `DrawType::ALL` order.
    pub draw_types: [u64; DrawType::ALL.len()],
}

impl Merge for GroupStats {
    fn absorb(&mut self, o: GroupStats) {
        self.add(&o);
    }
}

impl GroupStats {
    fn add(&mut self, o: &GroupStats) {
        self.games += o.games;
        self.draws += o.draws;
        self.agreed += o.agreed;
        for (a, b) in self.short.iter_mut().zip(o.short) {
            *a += b;
        }
        self.draw_moves_sum += o.draw_moves_sum;
        self.draw_moves_squares += o.draw_moves_squares;
        for (a, b) in self.draw_types.iter_mut().zip(o.draw_types) {
            *a += b;
        }
    }

    pub fn draw_rate(&self) -> Proportion {
        Proportion::new(self.draws, self.games)
    }

    /// The share of one measure, of all games.
    pub fn share(&self, measure: Measure) -> Proportion {
        let k = match measure {
            Measure::Draws => self.draws,
            Measure::Agreed => self.agreed,
            Measure::ShortDraws(i) => self.short[i],
        };
        Proportion::new(k, self.games)
    }

    /// A draw type's share of the drawn games.
    pub fn draw_type_share(&self, kind: DrawType) -> Proportion {
        let i = DrawType::ALL.iter().position(|&k| k == kind).unwrap_or(0);
        Proportion::new(self.draw_types[i], self.draws)
    }

    /// Mean length of drawn games with a normal 95% interval.
    pub fn mean_draw_moves(&self) -> Option<(f64, f64, f64)> {
        let n = self.draws as f64;
        if self.draws < 2 {
            return None;
        }
        let mean = self.draw_moves_sum as f64 / n;
        let variance = (self.draw_moves_squares as f64 - n * mean * mean) / (n - 1.0);
        let half = 1.96 * (variance.max(0.0) / n).sqrt();
        Some((mean, mean - half, mean + half))
    }
}

/// What an estimate compares: a share of all games.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, serde::Serialize)]
pub enum Measure {
    Draws,
    Agreed,
    /// Draws within the first or second short-draw limit.
    ShortDraws(usize),
}

impl Measure {
    pub fn all() -> [Measure; 4] {
        [
            Measure::Draws,
            Measure::Agreed,
            Measure::ShortDraws(0),
            Measure::ShortDraws(1),
        ]
    }

    pub fn label(self, limits: [u32; 2]) -> String {
        match self {
            Measure::Draws => "Draw rate".into(),
            Measure::Agreed => "Agreed draws".into(),
            Measure::ShortDraws(i) => format!("Draws ≤ {} moves", limits[i]),
        }
    }
}

/// One edition of an event (a series in one year) under one regime.
#[derive(Clone, Debug, PartialEq)]
pub struct Edition {
    pub series: String,
    pub year: i16,
    pub regime: Regime,
    pub total: GroupStats,
    pub by_band: BTreeMap<Band, GroupStats>,
    /// Distinct `Round` values and players seen, and the highest round
    /// number: for judging how much of the event the data hold.
    pub rounds_seen: u32,
    pub last_round: u32,
    pub players: u32,
    /// The catalogue infers this edition's regime (a control whose source
    /// shows only that no rule applied) rather than stating it.
    pub inferred: bool,
}

impl Edition {
    /// The games a complete event would have if every player seen met in
    /// every round up to the last: half the players times the rounds. Right
    /// for round robins; for Swiss and team events the data hold only some
    /// players, so this is a lower bound of the event's size.
    pub fn expected_games(&self) -> u64 {
        u64::from(self.players / 2) * u64::from(self.last_round)
    }
}

/// A difference of shares with a 95% bootstrap interval (percentile, over
/// editions). The interval is missing when a group has a single edition.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Effect {
    pub estimate: f64,
    pub interval: Option<(f64, f64)>,
}

/// A series that changed its rules.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesChange {
    pub series: String,
    /// The rules of its editions with a rule (one or more regimes).
    pub regimes: Vec<Regime>,
    pub before_years: Vec<i16>,
    pub after_years: Vec<i16>,
    pub before: GroupStats,
    pub after: GroupStats,
    pub control_before: GroupStats,
    pub control_after: GroupStats,
    /// Editions in each group: after, before, control after, control before.
    pub editions: [usize; 4],
    /// By measure: the raw and the strength-adjusted difference in
    /// differences.
    pub effects: Vec<(Measure, Effect, Option<Effect>)>,
}

impl SeriesChange {
    /// Its editions' rules, as one label: "No draw offers (Sofia rules);
    /// 3-1-0 scoring only".
    pub fn rules_label(&self) -> String {
        self.regimes
            .iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

#[derive(Clone, Debug, Default)]
pub struct RuleStudy {
    pub editions: Vec<Edition>,
    /// Games by regime.
    pub regimes: BTreeMap<Regime, GroupStats>,
    /// Rule editions (any rule) against control editions, by measure: raw
    /// and Mantel–Haenszel over rating bands.
    pub effects: Vec<(Measure, Option<Effect>, Option<Effect>)>,
    /// The same, one rule regime at a time against the same controls
    /// (Sofia rules apart from move limits and scoring).
    pub effects_by_regime: RegimeEffects,
    pub changes: Vec<SeriesChange>,
    /// Games of matching events left out because the event name says rapid,
    /// blitz, blindfold or simul.
    pub fast_games_left_out: u64,
    /// The short-draw limits the measures use.
    pub short_limits: [u32; 2],
    /// The draw rate's 95 % interval of each regime clustered by player
    /// (`None` with too few players), and of all rule editions together.
    pub by_player: BTreeMap<Regime, Option<(f64, f64)>>,
    pub rule_by_player: Option<(f64, f64)>,
}

impl RuleStudy {
    /// No game of the catalogue's events is in the tables.
    pub fn is_empty(&self) -> bool {
        self.editions.is_empty()
    }

    /// All games under some rule.
    pub fn rule_games(&self) -> GroupStats {
        let mut g = GroupStats::default();
        for (regime, s) in &self.regimes {
            if regime.restricts() {
                g.add(s);
            }
        }
        g
    }
}

/// Bootstrap replicates for every interval; seeded, so a study always
/// gives the same numbers.
pub const BOOTSTRAP_REPLICATES: usize = 1000;
pub const SEED: u64 = 2005; // the year of the first Sofia rules

/// An event, site and year.
type EventKey = (String, Option<String>, i16);

/// What the rule study counts: the used games of every event the
/// catalogue names, by event, site, year and band, and the rounds and
/// players seen in each. Which rules apply is decided when the study is
/// made, from the names.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RuleStudyCounts {
    #[serde(with = "pairs")]
    pub groups: BTreeMap<(String, Option<String>, i16, Band), GroupStats>,
    /// Round numbers (the part of the `Round` tag before any dot: "3.1"
    /// is board 1 of round 3).
    #[serde(with = "pairs")]
    pub rounds: BTreeMap<EventKey, BTreeSet<u32>>,
    /// Players seen with White and with Black.
    #[serde(with = "pairs")]
    pub players: BTreeMap<EventKey, [BTreeSet<String>; 2]>,
    /// Each player's games and draws (both colours), for intervals
    /// resampled by player.
    #[serde(with = "pairs")]
    pub player_games: BTreeMap<EventKey, BTreeMap<String, Proportion>>,
}

impl Merge for RuleStudyCounts {
    fn absorb(&mut self, other: RuleStudyCounts) {
        self.groups.absorb(other.groups);
        self.rounds.absorb(other.rounds);
        self.players.absorb(other.players);
        self.player_games.absorb(other.player_games);
    }
}

/// The study from its counts.
pub fn rule_study(
    counts: &RuleStudyCounts,
    catalogue: &EventCatalogue,
    patterns: &EventPatterns,
    short_limits: [u32; 2],
) -> RuleStudy {
    let mut study = RuleStudy {
        short_limits,
        ..RuleStudy::default()
    };
    let mut editions: BTreeMap<(String, i16, Regime), Edition> = BTreeMap::new();
    // The event spellings of each regime, for its players.
    let mut regime_events: BTreeMap<Regime, BTreeSet<EventKey>> = BTreeMap::new();
    let mut rounds: BTreeMap<(String, i16, Regime), BTreeSet<u32>> = BTreeMap::new();
    for ((event, site, year, band), stats) in &counts.groups {
        let Some(rules) = catalogue.rules(event, site.as_deref(), Some(*year)) else {
            continue;
        };
        if patterns.kind(event, Some(*year)).is_some() {
            study.fast_games_left_out += stats.games;
            continue;
        }
        let key = (rules.series.clone(), *year, rules.regime);
        let edition = editions.entry(key.clone()).or_insert_with(|| Edition {
            series: rules.series.clone(),
            year: *year,
            regime: rules.regime,
            total: GroupStats::default(),
            by_band: BTreeMap::new(),
            rounds_seen: 0,
            last_round: 0,
            players: 0,
            inferred: false,
        });
        edition.inferred |= !rules.confirmed;
        edition.total.add(stats);
        edition.by_band.entry(*band).or_default().add(stats);
        // Spellings of one edition share its games: the most players any
        // spelling shows, and the rounds all of them show.
        let event_key = (event.clone(), site.clone(), *year);
        regime_events
            .entry(rules.regime)
            .or_default()
            .insert(event_key.clone());
        if let Some([white, black]) = counts.players.get(&event_key) {
            edition.players = edition.players.max(white.len().max(black.len()) as u32);
        }
        if let Some(seen) = counts.rounds.get(&event_key) {
            rounds.entry(key).or_default().extend(seen);
        }
    }
    for (key, edition) in &mut editions {
        if let Some(seen) = rounds.get(key) {
            edition.rounds_seen = seen.len() as u32;
            edition.last_round = seen.last().copied().unwrap_or(0);
        }
    }
    study.editions = editions.into_values().collect();
    for e in &study.editions {
        study.regimes.entry(e.regime).or_default().add(&e.total);
    }
    let rule: Vec<&Edition> = study
        .editions
        .iter()
        .filter(|e| e.regime.restricts())
        .collect();
    let control: Vec<&Edition> = study
        .editions
        .iter()
        .filter(|e| !e.regime.restricts())
        .collect();
    let mut rng = Rng::new(SEED);
    study.effects = Measure::all()
        .into_iter()
        .map(|m| {
            (
                m,
                effect(&rule, &control, m, Estimator::Raw, &mut rng),
                effect(&rule, &control, m, Estimator::MantelHaenszel, &mut rng),
            )
        })
        .collect();
    study.changes = series_changes(&study.editions, &mut rng);
    // After the pooled estimates and the series, so that their bootstrap
    // draws stay what they were.
    study.effects_by_regime = effects_by_regime(&rule, &control, &mut rng);
    let players_of = |regimes: &mut dyn Iterator<Item = &Regime>| {
        let mut by_name: BTreeMap<&str, Proportion> = BTreeMap::new();
        for regime in regimes {
            for key in regime_events.get(regime).into_iter().flatten() {
                for (name, p) in counts.player_games.get(key).into_iter().flatten() {
                    by_name.entry(name).or_default().absorb(*p);
                }
            }
        }
        by_name.into_values().collect::<Vec<_>>()
    };
    for (regime, games) in &study.regimes {
        let players = players_of(&mut std::iter::once(regime));
        let overall = Proportion::new(games.draws, games.games);
        study
            .by_player
            .insert(*regime, super::players::clustered(&players, overall).0);
    }
    let rule_players = players_of(&mut study.regimes.keys().filter(|r| r.restricts()));
    let rule = study.rule_games();
    study.rule_by_player =
        super::players::clustered(&rule_players, Proportion::new(rule.draws, rule.games)).0;
    study
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edition(series: &str, year: i16, regime: Regime, bands: &[(u16, u64, u64)]) -> Edition {
        let mut by_band = BTreeMap::new();
        let mut total = GroupStats::default();
        for &(band, games, draws) in bands {
            let g = GroupStats {
                games,
                draws,
                ..GroupStats::default()
            };
            total.add(&g);
            by_band.insert(Band::Rated(band), g);
        }
        Edition {
            series: series.into(),
            year,
            regime,
            total,
            by_band,
            rounds_seen: 0,
            last_round: 0,
            players: 0,
            inferred: false,
        }
    }

    #[test]
    fn mantel_haenszel_removes_a_difference_made_by_strength() {
        // Same draw rate within each band (40% in band 0, 60% in band 1),
        // but the rule events are mostly strong: the raw difference is
        // large, the adjusted one zero.
        let rule = edition("R", 2010, Regime::Sofia, &[(0, 10, 4), (1, 90, 54)]);
        let control = edition("C", 2010, Regime::None, &[(0, 90, 36), (1, 10, 6)]);
        let (t, c) = (vec![&rule], vec![&control]);
        let raw = difference(&t, &c, Measure::Draws, Estimator::Raw).unwrap();
        assert!((raw - (0.58 - 0.42)).abs() < 1e-12);
        let mh = difference(&t, &c, Measure::Draws, Estimator::MantelHaenszel).unwrap();
        assert!(mh.abs() < 1e-12);
    }

    #[test]
    fn each_regime_is_estimated_against_the_controls_on_its_own() {
        // Sofia editions draw 30%, move-limit editions 50%, controls 40%:
        // pooled the rules look like the controls; apart they do not.
        let sofia = edition("A", 2010, Regime::Sofia, &[(0, 100, 30)]);
        let limit = edition("B", 2010, Regime::MinMoves, &[(0, 100, 50)]);
        let control = edition("C", 2010, Regime::None, &[(0, 200, 80)]);
        let by = effects_by_regime(&[&sofia, &limit], &[&control], &mut Rng::new(1));
        let raw = |r: Regime| {
            by[&r]
                .iter()
                .find(|(m, _, _)| *m == Measure::Draws)
                .and_then(|(_, raw, _)| *raw)
                .unwrap()
                .estimate
        };
        assert!(
            (raw(Regime::Sofia) + 0.10).abs() < 1e-9,
            "{}",
            raw(Regime::Sofia)
        );
        assert!(
            (raw(Regime::MinMoves) - 0.10).abs() < 1e-9,
            "{}",
            raw(Regime::MinMoves)
        );
        assert_eq!(by.len(), 2);
    }

    #[test]
    fn difference_in_differences_by_hand() {
        let after = edition("S", 2012, Regime::MinMoves, &[(0, 100, 40)]);
        let before = edition("S", 2010, Regime::None, &[(0, 100, 50)]);
        let control_after = edition("C", 2012, Regime::None, &[(0, 100, 55)]);
        let control_before = edition("C", 2010, Regime::None, &[(0, 100, 50)]);
        let groups: [&[&Edition]; 4] =
            [&[&after], &[&before], &[&control_after], &[&control_before]];
        let d = did(groups, Measure::Draws, Estimator::Raw).unwrap();
        assert!((d - (-0.10 - 0.05)).abs() < 1e-12);
        let changes = series_changes(
            &[after, before, control_after, control_before],
            &mut Rng::new(1),
        );
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].series, "S");
        // One edition per group: no interval.
        assert!(changes[0].effects[0].1.interval.is_none());
    }

    #[test]
    fn mean_draw_length_interval() {
        let g = GroupStats {
            games: 3,
            draws: 3,
            draw_moves_sum: 60,
            draw_moves_squares: 10 * 10 + 20 * 20 + 30 * 30,
            ..GroupStats::default()
        };
        let (mean, lo, hi) = g.mean_draw_moves().unwrap();
        assert_eq!(mean, 20.0);
        assert!((hi - mean - 1.96 * (100.0f64 / 3.0).sqrt()).abs() < 1e-9);
        assert!((mean - lo - (hi - mean)).abs() < 1e-9);
    }
}
