//! The rule study's queries over a table's rows and the counts read from
//! them: event editions with their dates, and per edition and band the games,
//! draws, agreed and short draws. The same counts are made in Rust from a
//! batch's used rows ([`counts_used`]); the queries are the reference the
//! summary's tests hold them to (issue 50).

use super::*;
use crate::analysis::table::names;

/// The queries' columns beside the shared ones ([`names`]): the draws
/// within each short-draw limit, the agreed draws within each, and the sum
/// of the draws' moves and of their squares.
const SHORT: [&str; 2] = ["short0", "short1"];
const SHORT_AGREED: [&str; 2] = ["short_agreed0", "short_agreed1"];
const MOVES_SUM: &str = "moves_sum";
const MOVES_SQ: &str = "moves_sq";

/// The column of the count of the `i`th of `DrawType::ALL`.
fn draw_type_column(i: usize) -> String {
    format!("type{i}")
}

pub(super) fn event_key(df: &DataFrame, i: usize) -> Result<Option<EventKey>> {
    let event = df.column(Column::Event.name())?.str()?.get(i);
    let site = df.column(Column::Site.name())?.str()?.get(i);
    let year = df.column(Column::Year.name())?.i16()?.get(i);
    Ok(event
        .zip(year)
        .map(|(e, y)| (e.to_string(), site.map(str::to_string), y)))
}

pub(super) fn dated_events(used: LazyFrame) -> LazyFrame {
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
        .agg([len().alias(names::N)])
}

/// The events of `names` (the result of [`names_query`]) that the
/// catalogue names, as a one-column frame to join on; `None` when it names
/// none of them.
pub(crate) fn catalogue_events(
    names: &DataFrame,
    catalogue: &EventCatalogue,
) -> Result<Option<DataFrame>> {
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
    Ok(Some(DataFrame::new(
        named.len(),
        vec![polars::prelude::Column::new(
            Column::Event.name().into(),
            named,
        )],
    )?))
}

/// The queries over the games of the events the catalogue names (from
/// the result of [`names_query`]): by group (rating cell), by round, by
/// pairing, by format. `None` when the catalogue names none of them.
pub fn queries(
    used: LazyFrame,
    names: &DataFrame,
    catalogue: &EventCatalogue,
    short_limits: [u32; 2],
) -> Result<Option<[LazyFrame; 4]>> {
    let Some(named) = catalogue_events(names, catalogue)? else {
        return Ok(None);
    };
    let used = dated_events(used).join(
        named.lazy(),
        [Column::Event.col()],
        [Column::Event.col()],
        JoinArgs::new(JoinType::Semi),
    );
    let draw = col(IS_DRAW);
    let count = |e: Expr| e.cast(DataType::UInt64).sum();
    let moves = || Column::Moves.col().cast(DataType::UInt64);
    // Games and the measures' counts, as every query here counts them
    // (the order of `PairingStats`).
    let measure_counts = || {
        vec![
            len().cast(DataType::UInt64).alias(names::GAMES),
            count(col(IS_DRAW)).alias(names::DRAWS),
            count(
                Column::DrawType
                    .col()
                    .eq(lit(Ending::Agreed.as_str()))
                    .fill_null(lit(false)),
            )
            .alias(names::AGREED),
            count(col(IS_DRAW).and(Column::Moves.col().lt_eq(lit(short_limits[0]))))
                .alias(SHORT[0]),
            count(col(IS_DRAW).and(Column::Moves.col().lt_eq(lit(short_limits[1]))))
                .alias(SHORT[1]),
        ]
    };
    let mut aggs = measure_counts();
    let agreed = || {
        Column::DrawType
            .col()
            .eq(lit(Ending::Agreed.as_str()))
            .fill_null(lit(false))
    };
    for (limit, name) in short_limits.iter().zip(SHORT_AGREED) {
        aggs.push(count(agreed().and(Column::Moves.col().lt_eq(lit(*limit)))).alias(name));
    }
    aggs.extend([
        when(draw.clone())
            .then(moves())
            .otherwise(lit(0u64))
            .sum()
            .alias(MOVES_SUM),
        when(draw)
            .then(moves() * moves())
            .otherwise(lit(0u64))
            .sum()
            .alias(MOVES_SQ),
    ]);
    for (i, kind) in DrawType::ALL.iter().enumerate() {
        aggs.push(
            count(
                Column::DrawType
                    .col()
                    .eq(lit(kind.as_str()))
                    .fill_null(lit(false)),
            )
            .alias(draw_type_column(i)),
        );
    }
    // Both players' ratings, for the adjustment: the mean and the gap as
    // one cell code (see [`RatingCell`]), for rated games whose ratings
    // are plausible (`basis_elo` is set exactly then).
    let w = Column::WhiteElo.col().cast(DataType::Int32);
    let b = Column::BlackElo.col().cast(DataType::Int32);
    let rated = col(BASIS_ELO).is_not_null();
    let mean = (w.clone() + b.clone()) / lit(2);
    let gap = when(w.clone().gt_eq(b.clone()))
        .then(w.clone() - b.clone())
        .otherwise(b - w);
    let gap_bin = RatingCell::GAP_EDGES.iter().enumerate().rev().fold(
        lit(RatingCell::GAP_EDGES.len() as i32),
        |otherwise, (i, &edge)| {
            when(gap.clone().lt(lit(edge)))
                .then(lit(i as i32))
                .otherwise(otherwise)
        },
    );
    let cell = when(rated.clone())
        .then(mean.clone() / lit(100) * lit(RatingCell::GAP_BINS) + gap_bin)
        .otherwise(lit(-1))
        .alias(CELL);
    aggs.push(count(rated.clone()).alias(names::RATED));
    aggs.push(
        when(rated)
            .then(mean.cast(DataType::UInt64))
            .otherwise(lit(0u64))
            .sum()
            .alias(names::RATING_SUM),
    );
    let keys = || vec![Column::Event.col(), Column::Site.col(), Column::Year.col()];
    let mut group_keys = keys();
    group_keys.push(cell.clone());
    // Who met whom: games and the measures' counts by pairing, for the
    // players seen, the intervals clustered by player and the
    // within-pair estimate.
    let mut pairing_keys = keys();
    pairing_keys.extend([Column::White.col(), Column::Black.col()]);
    let pairing_counts = measure_counts();
    // By round and rating cell, with the measures' counts: the games of an
    // edition's last round, for the model (the last round draws its own way).
    let mut round_keys = keys();
    round_keys.push(Column::Round.col());
    round_keys.push(cell.clone());
    // Where and how fast each edition was played, for matching controls
    // of the same format.
    let mut format_keys = keys();
    format_keys.extend([col(crate::analysis::table::PLAY), Column::Speed.col()]);
    Ok(Some([
        used.clone().group_by(group_keys).agg(aggs),
        used.clone().group_by(round_keys).agg(measure_counts()),
        used.clone().group_by(pairing_keys).agg(pairing_counts),
        used.group_by(format_keys)
            .agg([len().cast(DataType::UInt64).alias(names::N)]),
    ]))
}

/// The counts from the frames of [`queries`].
pub fn counts_from(frames: [&DataFrame; 4]) -> Result<RuleStudyCounts> {
    let [df, rounds, pairings, formats] = frames;
    let mut out = RuleStudyCounts::default();
    let u = |name: &str| -> Result<Vec<u64>> {
        Ok(df
            .column(name)?
            .u64()?
            .iter()
            .map(|v| v.unwrap_or(0))
            .collect())
    };
    let (games, draws, agreed, short0, short1, sums, squares, rated, rating_sum) = (
        u(names::GAMES)?,
        u(names::DRAWS)?,
        u(names::AGREED)?,
        u(SHORT[0])?,
        u(SHORT[1])?,
        u(MOVES_SUM)?,
        u(MOVES_SQ)?,
        u(names::RATED)?,
        u(names::RATING_SUM)?,
    );
    let short_agreed = [u(SHORT_AGREED[0])?, u(SHORT_AGREED[1])?];
    let types: Vec<Vec<u64>> = (0..DrawType::ALL.len())
        .map(|i| u(&draw_type_column(i)))
        .collect::<Result<_>>()?;
    let cells = df.column(CELL)?.i32()?;
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
            rated: rated[i],
            rating_sum: rating_sum[i],
            short_agreed: [short_agreed[0][i], short_agreed[1][i]],
        };
        out.groups
            .entry((event, site, year, RatingCell::from_code(cells.get(i))))
            .or_default()
            .absorb(stats);
    }
    let round = rounds.column(Column::Round.name())?.str()?;
    let round_cells = rounds.column(CELL)?.i32()?;
    let of_rounds = |name: &str| -> Result<Vec<u64>> {
        Ok(rounds
            .column(name)?
            .u64()?
            .iter()
            .map(|v| v.unwrap_or(0))
            .collect())
    };
    let round_counts = [
        of_rounds(names::GAMES)?,
        of_rounds(names::DRAWS)?,
        of_rounds(names::AGREED)?,
        of_rounds(SHORT[0])?,
        of_rounds(SHORT[1])?,
    ];
    for i in 0..rounds.height() {
        let number = round
            .get(i)
            .and_then(|r| r.split('.').next())
            .and_then(|r| r.trim().parse::<u32>().ok());
        if let (Some(k), Some(n)) = (event_key(rounds, i)?, number) {
            out.rounds.entry(k.clone()).or_default().insert(n);
            out.by_round
                .entry((k, n, RatingCell::from_code(round_cells.get(i))))
                .or_default()
                .absorb(round_counts.each_ref().map(|c| c[i]));
        }
    }
    let white = pairings.column(Column::White.name())?.str()?;
    let black = pairings.column(Column::Black.name())?.str()?;
    let of = |name: &str| -> Result<Vec<u64>> {
        Ok(pairings
            .column(name)?
            .u64()?
            .iter()
            .map(|v| v.unwrap_or(0))
            .collect())
    };
    let counts = [
        of(names::GAMES)?,
        of(names::DRAWS)?,
        of(names::AGREED)?,
        of(SHORT[0])?,
        of(SHORT[1])?,
    ];
    for i in 0..pairings.height() {
        let Some(k) = event_key(pairings, i)? else {
            continue;
        };
        let names = (
            white.get(i).unwrap_or("?").to_string(),
            black.get(i).unwrap_or("?").to_string(),
        );
        out.pairings
            .entry((k, names.0, names.1))
            .or_default()
            .absorb(counts.each_ref().map(|c| c[i]));
    }
    let play = formats.column(crate::analysis::table::PLAY)?.str()?;
    let speed = formats.column(Column::Speed.name())?.str()?;
    let n = formats.column(names::N)?.u64()?;
    for i in 0..formats.height() {
        let Some(k) = event_key(formats, i)? else {
            continue;
        };
        let format = format!(
            "{} {}",
            play.get(i).unwrap_or("?"),
            speed.get(i).unwrap_or("?")
        );
        *out.formats.entry((k, format)).or_insert(0) += n.get(i).unwrap_or(0);
    }
    Ok(out)
}

/// The event names of the dated used rows that the catalogue names
/// ([`catalogue_events`] of [`names_query`]), borrowed from the batch,
/// each name matched once.
pub(crate) fn catalogue_names<'a>(
    used: &'a DataFrame,
    catalogue: &EventCatalogue,
) -> Result<PlHashSet<&'a str>> {
    let event = used.column(Column::Event.name())?.str()?;
    let year = used.column(Column::Year.name())?.i16()?;
    let mut matched: PlHashMap<&str, bool> = PlHashMap::new();
    for (event, year) in event.iter().zip(year.iter()) {
        if let (Some(event), Some(_)) = (event, year) {
            matched
                .entry(event)
                .or_insert_with(|| catalogue.names_event(event));
        }
    }
    Ok(matched
        .into_iter()
        .filter_map(|(event, named)| named.then_some(event))
        .collect())
}

/// [`counts_from`] the [`queries`], counted in Rust from a batch's used
/// rows (a frame of `table::prepare_frame`'s columns) read once: the
/// dated games of the events in `named` ([`catalogue_names`]), grouped
/// by the queries' keys as they are in the columns, then read into the
/// counts as [`counts_from`] reads the queries' groups.
pub(crate) fn counts_used(
    used: &DataFrame,
    named: &PlHashSet<&str>,
    short_limits: [u32; 2],
) -> Result<RuleStudyCounts> {
    let mut out = RuleStudyCounts::default();
    if named.is_empty() {
        return Ok(out);
    }
    let column = |name: &str| used.column(name);
    let event = column(Column::Event.name())?.str()?;
    let site = column(Column::Site.name())?.str()?;
    let year = column(Column::Year.name())?.i16()?;
    let round = column(Column::Round.name())?.str()?;
    let white = column(Column::White.name())?.str()?;
    let black = column(Column::Black.name())?.str()?;
    let is_draw = column(IS_DRAW)?.bool()?;
    let draw_type = column(Column::DrawType.name())?.str()?;
    let moves = column(Column::Moves.name())?.u32()?;
    let white_elo = column(Column::WhiteElo.name())?.u16()?;
    let black_elo = column(Column::BlackElo.name())?.u16()?;
    let basis = column(BASIS_ELO)?.i32()?;
    let play = column(crate::analysis::table::PLAY)?.str()?;
    let speed = column(Column::Speed.name())?.str()?;
    let mut site = site.iter();
    let mut round = round.iter();
    let mut white = white.iter();
    let mut black = black.iter();
    let mut is_draw = is_draw.iter();
    let mut draw_type = draw_type.iter();
    let mut moves = moves.iter();
    let mut white_elo = white_elo.iter();
    let mut black_elo = black_elo.iter();
    let mut basis = basis.iter();
    let mut play = play.iter();
    let mut speed = speed.iter();

    // Each edition (event, site, year) looked up once a row, by its
    // number in the four groupings.
    type Key<'a> = (&'a str, Option<&'a str>, i16);
    type Names<'a> = (Option<&'a str>, Option<&'a str>);
    let mut editions: PlHashMap<Key, u32> = PlHashMap::new();
    let mut groups: PlHashMap<(u32, RatingCell), GroupStats> = PlHashMap::new();
    let mut by_round: PlHashMap<(u32, Option<&str>, RatingCell), PairingStats> = PlHashMap::new();
    let mut pairings: PlHashMap<(u32, Names), PairingStats> = PlHashMap::new();
    let mut formats: PlHashMap<(u32, Names), u64> = PlHashMap::new();
    let agreed_type = Ending::Agreed.as_str();
    for (event, year) in event.iter().zip(year.iter()) {
        let site = site.next().flatten();
        let round = round.next().flatten();
        let names = (white.next().flatten(), black.next().flatten());
        let is_draw = is_draw.next().flatten();
        let draw_type = draw_type.next().flatten();
        let moves = moves.next().flatten();
        let elos = (white_elo.next().flatten(), black_elo.next().flatten());
        let rated = basis.next().flatten().is_some();
        let format = (play.next().flatten(), speed.next().flatten());
        let (Some(event), Some(year)) = (event, year) else {
            continue;
        };
        if !named.contains(event) {
            continue;
        }
        let next = editions.len() as u32;
        let key = *editions.entry((event, site, year)).or_insert(next);
        // As the queries' sums count them: a null is no game of the count.
        let drawn = is_draw == Some(true);
        let agreed = draw_type == Some(agreed_type);
        let within = |limit: u32| moves.is_some_and(|m| m <= limit);
        let short = short_limits.map(|limit| drawn && within(limit));
        let short_agreed = short_limits.map(|limit| agreed && within(limit));
        let drawn_moves = if drawn { moves.map(u64::from) } else { None };
        let (cell, mean) = match elos {
            (Some(w), Some(b)) if rated => {
                (RatingCell::of(w, b), (u64::from(w) + u64::from(b)) / 2)
            }
            _ => (RatingCell::Unrated, 0),
        };
        let mut draw_types = [0u64; DrawType::ALL.len()];
        for (count, kind) in draw_types.iter_mut().zip(DrawType::ALL) {
            *count = u64::from(draw_type == Some(kind.as_str()));
        }
        let measures: PairingStats = [
            1,
            u64::from(drawn),
            u64::from(agreed),
            u64::from(short[0]),
            u64::from(short[1]),
        ];
        groups.entry((key, cell)).or_default().add(&GroupStats {
            games: 1,
            draws: measures[1],
            agreed: measures[2],
            short: [measures[3], measures[4]],
            draw_moves_sum: drawn_moves.unwrap_or(0),
            draw_moves_squares: drawn_moves.map_or(0, |m| m * m),
            draw_types,
            rated: u64::from(rated),
            rating_sum: mean,
            short_agreed: short_agreed.map(u64::from),
        });
        by_round
            .entry((key, round, cell))
            .or_default()
            .absorb(measures);
        pairings.entry((key, names)).or_default().absorb(measures);
        *formats.entry((key, format)).or_insert(0) += 1;
    }

    let mut keys: Vec<EventKey> = vec![Default::default(); editions.len()];
    for ((event, site, year), at) in editions {
        keys[at as usize] = (event.to_string(), site.map(str::to_string), year);
    }
    let owned = |at: u32| keys[at as usize].clone();
    for ((key, cell), stats) in groups {
        let (event, site, year) = owned(key);
        out.groups
            .entry((event, site, year, cell))
            .or_default()
            .absorb(stats);
    }
    for ((key, round, cell), stats) in by_round {
        if let Some(n) = round.and_then(crate::analysis::crosstable::round_number) {
            let key = owned(key);
            out.rounds.entry(key.clone()).or_default().insert(n);
            out.by_round
                .entry((key, n, cell))
                .or_default()
                .absorb(stats);
        }
    }
    for ((key, (white, black)), stats) in pairings {
        let names = (
            white.unwrap_or("?").to_string(),
            black.unwrap_or("?").to_string(),
        );
        out.pairings
            .entry((owned(key), names.0, names.1))
            .or_default()
            .absorb(stats);
    }
    for ((key, (play, speed)), n) in formats {
        let format = format!("{} {}", play.unwrap_or("?"), speed.unwrap_or("?"));
        *out.formats.entry((owned(key), format)).or_insert(0) += n;
    }
    Ok(out)
}
