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
