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

fn event_key(df: &DataFrame, i: usize) -> Result<Option<EventKey>> {
    let event = df.column(Column::Event.name())?.str()?.get(i);
    let site = df.column(Column::Site.name())?.str()?.get(i);
    let year = df.column(Column::Year.name())?.i16()?.get(i);
    Ok(event
        .zip(year)
        .map(|(e, y)| (e.to_string(), site.map(str::to_string), y)))
}

fn dated_events(used: LazyFrame) -> LazyFrame {
    used.filter(
        Column::Event
            .col()
            .is_not_null()
            .and(Column::Year.col().is_not_null()),
    )
}

/// The distinct event names of the used rows: the catalogue's patterns
/// run on them in Rust, once per name.
pub fn names_query(used: LazyFrame) -> LazyFrame {
    dated_events(used)
        .group_by([Column::Event.col()])
        .agg([len().alias("n")])
}

/// The queries over the games of the events the catalogue names (from
/// the result of [`names_query`]): by group, rounds, players with White,
/// players with Black. `None` when the catalogue names none of them.
pub fn queries(
    used: LazyFrame,
    names: &DataFrame,
    catalogue: &EventCatalogue,
    short_limits: [u32; 2],
) -> Result<Option<[LazyFrame; 4]>> {
    let named: Vec<&str> = names
        .column(Column::Event.name())?
        .str()?
        .iter()
        .flatten()
        .filter(|name| catalogue.names_event(name))
        .collect();
    if named.is_empty() {
        return Ok(None);
    }
    let named = DataFrame::new(
        named.len(),
        vec![polars::prelude::Column::new(
            Column::Event.name().into(),
            named,
        )],
    )?;
    let used = dated_events(used).join(
        named.lazy(),
        [Column::Event.col()],
        [Column::Event.col()],
        JoinArgs::new(JoinType::Semi),
    );
    let draw = col(IS_DRAW);
    let count = |e: Expr| e.cast(DataType::UInt64).sum();
    let moves = || Column::Moves.col().cast(DataType::UInt64);
    let mut aggs = vec![
        len().cast(DataType::UInt64).alias("games"),
        count(draw.clone()).alias("draws"),
        count(
            Column::DrawType
                .col()
                .eq(lit(Ending::Agreed.as_str()))
                .fill_null(lit(false)),
        )
        .alias("agreed"),
        count(
            draw.clone()
                .and(Column::Moves.col().lt_eq(lit(short_limits[0]))),
        )
        .alias("short0"),
        count(
            draw.clone()
                .and(Column::Moves.col().lt_eq(lit(short_limits[1]))),
        )
        .alias("short1"),
        when(draw.clone())
            .then(moves())
            .otherwise(lit(0u64))
            .sum()
            .alias("moves_sum"),
        when(draw)
            .then(moves() * moves())
            .otherwise(lit(0u64))
            .sum()
            .alias("moves_sq"),
    ];
    for (i, kind) in DrawType::ALL.iter().enumerate() {
        aggs.push(
            count(
                Column::DrawType
                    .col()
                    .eq(lit(kind.as_str()))
                    .fill_null(lit(false)),
            )
            .alias(format!("type{i}")),
        );
    }
    let keys = || vec![Column::Event.col(), Column::Site.col(), Column::Year.col()];
    let by = |extra: Expr, aggs: Vec<Expr>| {
        let mut k = keys();
        k.push(extra);
        used.clone().group_by(k).agg(aggs)
    };
    // Each player's games and draws, for intervals clustered by player.
    let player_counts = || {
        vec![
            len().cast(DataType::UInt64).alias("games"),
            count(col(IS_DRAW)).alias("draws"),
        ]
    };
    let mut group_keys = keys();
    group_keys.push(col(BAND));
    Ok(Some([
        used.clone().group_by(group_keys).agg(aggs),
        by(Column::Round.col(), vec![len().alias("n")]),
        by(Column::White.col(), player_counts()),
        by(Column::Black.col(), player_counts()),
    ]))
}

/// The counts from the frames of [`queries`].
pub fn counts_from(frames: [&DataFrame; 4]) -> Result<RuleStudyCounts> {
    let [df, rounds, whites, blacks] = frames;
    let mut out = RuleStudyCounts::default();
    let u = |name: &str| -> Result<Vec<u64>> {
        Ok(df
            .column(name)?
            .u64()?
            .iter()
            .map(|v| v.unwrap_or(0))
            .collect())
    };
    let (games, draws, agreed, short0, short1, sums, squares) = (
        u("games")?,
        u("draws")?,
        u("agreed")?,
        u("short0")?,
        u("short1")?,
        u("moves_sum")?,
        u("moves_sq")?,
    );
    let types: Vec<Vec<u64>> = (0..DrawType::ALL.len())
        .map(|i| u(&format!("type{i}")))
        .collect::<Result<_>>()?;
    let bands = df.column(BAND)?.i32()?;
    for i in 0..df.height() {
        let Some((event, site, year)) = event_key(df, i)? else {
            continue;
        };
        let mut draw_types = [0u64; DrawType::ALL.len()];
        for (k, t) in types.iter().enumerate() {
            draw_types[k] = t[i];
        }
        let stats = GroupStats {
            games: games[i],
            draws: draws[i],
            agreed: agreed[i],
            short: [short0[i], short1[i]],
            draw_moves_sum: sums[i],
            draw_moves_squares: squares[i],
            draw_types,
        };
        out.groups
            .entry((event, site, year, band_of_row(bands.get(i))))
            .or_default()
            .absorb(stats);
    }
    let round = rounds.column(Column::Round.name())?.str()?;
    for i in 0..rounds.height() {
        let number = round
            .get(i)
            .and_then(|r| r.split('.').next())
            .and_then(|r| r.trim().parse::<u32>().ok());
        if let (Some(k), Some(n)) = (event_key(rounds, i)?, number) {
            out.rounds.entry(k).or_default().insert(n);
        }
    }
    for (side, (seen, player)) in [(whites, Column::White), (blacks, Column::Black)]
        .into_iter()
        .enumerate()
    {
        let names = seen.column(player.name())?.str()?;
        let games = seen.column("games")?.u64()?;
        let draws = seen.column("draws")?.u64()?;
        for i in 0..seen.height() {
            if let (Some(k), Some(name)) = (event_key(seen, i)?, names.get(i)) {
                out.players.entry(k.clone()).or_default()[side].insert(name.to_string());
                out.player_games
                    .entry(k)
                    .or_default()
                    .entry(name.to_string())
                    .or_default()
                    .absorb(Proportion::new(
                        draws.get(i).unwrap_or(0),
                        games.get(i).unwrap_or(0),
                    ));
            }
        }
    }
    Ok(out)
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

/// Each rule regime's editions against the controls, raw and adjusted.
type RegimeEffects = BTreeMap<Regime, Vec<(Measure, Option<Effect>, Option<Effect>)>>;

fn effects_by_regime(rule: &[&Edition], control: &[&Edition], rng: &mut Rng) -> RegimeEffects {
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
enum Estimator {
    Raw,
    MantelHaenszel,
}

fn pooled(editions: &[&Edition]) -> GroupStats {
    let mut g = GroupStats::default();
    for e in editions {
        g.add(&e.total);
    }
    g
}

fn by_band(editions: &[&Edition]) -> BTreeMap<Band, GroupStats> {
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
fn difference(
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
fn resample<'a>(editions: &[&'a Edition], rng: &mut Rng) -> Vec<&'a Edition> {
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

fn effect(
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
fn did(groups: [&[&Edition]; 4], m: Measure, how: Estimator) -> Option<f64> {
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

fn did_effect(
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
fn series_changes(editions: &[Edition], rng: &mut Rng) -> Vec<SeriesChange> {
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
