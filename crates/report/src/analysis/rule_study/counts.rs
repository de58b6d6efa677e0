//! The rule study's queries over a table's rows and the counts read from
//! them: event editions with their dates, and per edition and band the games,
//! draws, agreed and short draws.

use super::*;

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
        .agg([len().alias("n")])
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
            len().cast(DataType::UInt64).alias("games"),
            count(col(IS_DRAW)).alias("draws"),
            count(
                Column::DrawType
                    .col()
                    .eq(lit(Ending::Agreed.as_str()))
                    .fill_null(lit(false)),
            )
            .alias("agreed"),
            count(col(IS_DRAW).and(Column::Moves.col().lt_eq(lit(short_limits[0]))))
                .alias("short0"),
            count(col(IS_DRAW).and(Column::Moves.col().lt_eq(lit(short_limits[1]))))
                .alias("short1"),
        ]
    };
    let mut aggs = measure_counts();
    let agreed = || {
        Column::DrawType
            .col()
            .eq(lit(Ending::Agreed.as_str()))
            .fill_null(lit(false))
    };
    for (i, limit) in short_limits.iter().enumerate() {
        aggs.push(
            count(agreed().and(Column::Moves.col().lt_eq(lit(*limit))))
                .alias(format!("short_agreed{i}")),
        );
    }
    aggs.extend([
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
    ]);
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
    aggs.push(count(rated.clone()).alias("rated"));
    aggs.push(
        when(rated)
            .then(mean.cast(DataType::UInt64))
            .otherwise(lit(0u64))
            .sum()
            .alias("rating_sum"),
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
            .agg([len().cast(DataType::UInt64).alias("n")]),
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
        u("games")?,
        u("draws")?,
        u("agreed")?,
        u("short0")?,
        u("short1")?,
        u("moves_sum")?,
        u("moves_sq")?,
        u("rated")?,
        u("rating_sum")?,
    );
    let short_agreed = [u("short_agreed0")?, u("short_agreed1")?];
    let types: Vec<Vec<u64>> = (0..DrawType::ALL.len())
        .map(|i| u(&format!("type{i}")))
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
        of_rounds("games")?,
        of_rounds("draws")?,
        of_rounds("agreed")?,
        of_rounds("short0")?,
        of_rounds("short1")?,
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
        of("games")?,
        of("draws")?,
        of("agreed")?,
        of("short0")?,
        of("short1")?,
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
    let n = formats.column("n")?.u64()?;
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
