//! [`prepare`]'s derived columns made in Rust, one row at a time, for a
//! batch held in memory (the summary's batches): the same values as the
//! lazy query's, without its join and its thirty conditional columns
//! (docs/performance.md, issue 50). `tests` holds the two equal, row by
//! row, on every fixture and on generated games, under several filters.

use std::collections::HashMap;

use super::*;
use remis_table::ratings::Ratings;
use remis_table::schema::TimeClass;

/// One row's derived values, as [`prepare`] derives them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PreparedRow<'a> {
    /// [`BAND`]: the band index, [`BAND_APART`] or [`BAND_IMPLAUSIBLE`];
    /// `None` when a rating is missing.
    pub band: Option<i32>,
    /// [`BASIS_ELO`]: the rating `--min-elo` applies to; `None` when a
    /// rating is missing or implausible.
    pub basis_elo: Option<i32>,
    /// [`REASON`]: why the row is left out, or [`USED`].
    pub reason: &'static str,
    /// [`IS_DRAW`]: `None` when the result is missing.
    pub is_draw: Option<bool>,
    /// [`EFFECTIVE_TIME_CLASS`]: the table's `speed`.
    pub effective_time_class: Option<&'a str>,
    /// [`PLAY`].
    pub play: Play,
    /// [`EVENT_SELECTED`].
    pub event_selected: bool,
}

/// The columns [`prepare`] reads, typed, of one batch.
pub struct PrepareInputs<'a> {
    white_elo: &'a UInt16Chunked,
    black_elo: &'a UInt16Chunked,
    year: &'a Int16Chunked,
    ratings: &'a StringChunked,
    event: &'a StringChunked,
    speed: &'a StringChunked,
    result: &'a StringChunked,
    play: &'a StringChunked,
    ending: &'a StringChunked,
    duplicate: &'a BooleanChunked,
    variant: &'a StringChunked,
    white_title: &'a StringChunked,
    black_title: &'a StringChunked,
}

impl<'a> PrepareInputs<'a> {
    /// The columns of `rows` (of one chunk each, so that a row is found
    /// at once).
    pub fn of(rows: &'a DataFrame) -> Result<PrepareInputs<'a>> {
        let column = |c: Column| rows.column(c.name());
        Ok(PrepareInputs {
            white_elo: column(Column::WhiteElo)?.u16()?,
            black_elo: column(Column::BlackElo)?.u16()?,
            year: column(Column::Year)?.i16()?,
            ratings: column(Column::Ratings)?.str()?,
            event: column(Column::Event)?.str()?,
            speed: column(Column::Speed)?.str()?,
            result: column(Column::Result)?.str()?,
            play: column(Column::Play)?.str()?,
            ending: column(Column::Ending)?.str()?,
            duplicate: column(Column::Duplicate)?.bool()?,
            variant: column(Column::Variant)?.str()?,
            white_title: column(Column::WhiteTitle)?.str()?,
            black_title: column(Column::BlackTitle)?.str()?,
        })
    }
}

/// Derives the rows of a batch under one set of filters; each event name's
/// selection is decided once.
pub struct Preparer<'f, 'a> {
    filters: &'f Filters,
    inputs: PrepareInputs<'a>,
    events: HashMap<&'a str, bool>,
}

impl<'f, 'a> Preparer<'f, 'a> {
    pub fn new(filters: &'f Filters, inputs: PrepareInputs<'a>) -> Self {
        Preparer {
            filters,
            inputs,
            events: HashMap::new(),
        }
    }

    fn event_selected(&mut self, event: Option<&'a str>) -> bool {
        let filters = self.filters;
        match event {
            // An unnamed event joins no name: selected unless a pattern
            // must match.
            None => filters.event.is_none(),
            Some(name) => *self.events.entry(name).or_insert_with(|| {
                let included = filters.event.as_ref().is_none_or(|re| re.is_match(name));
                let excluded = filters
                    .exclude_event
                    .as_ref()
                    .is_some_and(|re| re.is_match(name));
                included && !excluded
            }),
        }
    }

    /// Row `i`'s derived values.
    pub fn row(&mut self, i: usize) -> PreparedRow<'a> {
        let filters = self.filters;
        let input = &self.inputs;
        let (w, b) = (
            input.white_elo.get(i).map(i32::from),
            input.black_elo.get(i).map(i32::from),
        );
        let year = input.year.get(i);
        let system = input
            .ratings
            .get(i)
            .and_then(Ratings::from_name)
            .unwrap_or(Ratings::Elo);
        let plausible = |elo: i32| {
            let (lo, hi) = system.range();
            elo >= i32::from(lo)
                && elo <= i32::from(hi)
                && year.is_none_or(|y| i32::from(y) >= i32::from(system.first_year()))
        };
        let band_of = |elo: i32| {
            filters
                .bands
                .edge_list()
                .iter()
                .filter(|&&e| elo >= i32::from(e))
                .count() as i32
        };
        let (band, basis_elo) = match (w, b) {
            (Some(w), Some(b)) => {
                let (lower, mean, gap) = (w.min(b), (w + b) / 2, (w - b).abs());
                let basis = match filters.basis {
                    EloBasis::Average => mean,
                    _ => lower,
                };
                let band = match filters.basis {
                    EloBasis::Min => band_of(lower),
                    EloBasis::Average => band_of(mean),
                    EloBasis::Close if gap <= i32::from(filters.max_gap) => band_of(mean),
                    EloBasis::Close => BAND_APART,
                    EloBasis::Both if band_of(w) == band_of(b) => band_of(w),
                    EloBasis::Both => BAND_APART,
                };
                if plausible(w) && plausible(b) {
                    (Some(band), Some(basis))
                } else {
                    (Some(BAND_IMPLAUSIBLE), None)
                }
            }
            _ => (None, None),
        };
        let result = input.result.get(i);
        let speed = input.speed.get(i);
        let play = Play::from_column(input.play.get(i));
        let event = input.event.get(i);
        let ending = input.ending.get(i);
        let variant = input.variant.get(i);
        let bot = |title: Option<&str>| title == Some("BOT");
        let (white_title, black_title) = (input.white_title.get(i), input.black_title.get(i));
        let duplicate = input.duplicate.get(i);
        let event_selected = self.event_selected(event);

        // The reasons in `prepare`'s order: the first that holds (a null
        // comparison holds not) names the row.
        let reason = if ending == Some(Ending::Invalid.as_str()) {
            INVALID_GAME
        } else if ending == Some(Ending::UnsupportedVariant.as_str()) {
            UNSUPPORTED_VARIANT
        } else if ending == Some(Ending::Unfinished.as_str()) || result.is_none() {
            UNFINISHED
        } else if filters.dedup && duplicate == Some(true) {
            DUPLICATE
        } else if filters.no_bots && (bot(white_title) || bot(black_title)) {
            BOT_GAME
        } else if match &filters.variant {
            Some(v) => variant.is_some_and(|x| x != v.as_str()),
            None => variant == Some("chess960"),
        } {
            match filters.variant {
                Some(_) => OTHER_VARIANT,
                None => CHESS960_LEFT_OUT,
            }
        } else if filters
            .years
            .is_some_and(|(from, to)| year.is_none_or(|y| y < from || y > to))
        {
            OUTSIDE_THE_YEARS
        } else if (filters.event.is_some() || filters.exclude_event.is_some()) && !event_selected {
            EVENT_NOT_SELECTED
        } else if match &filters.time_class {
            Some(t) => speed.is_some_and(|s| s != t.as_str()),
            None => speed == Some(TimeClass::Correspondence.as_str()),
        } {
            match filters.time_class {
                Some(_) => OTHER_TIME_CLASS,
                None => CORRESPONDENCE_LEFT_OUT,
            }
        } else if filters.play.is_some_and(|p| play != p) {
            OTHER_PLAY
        } else if filters.min_elo.is_some() && band == Some(BAND_IMPLAUSIBLE) {
            IMPLAUSIBLE_RATING
        } else if filters.min_elo.is_some() && basis_elo.is_none() {
            UNRATED
        } else if filters
            .min_elo
            .is_some_and(|m| basis_elo.is_some_and(|e| e < i32::from(m)))
        {
            BELOW_MIN_ELO
        } else {
            USED
        };
        PreparedRow {
            band,
            basis_elo,
            reason,
            is_draw: result.map(|r| r == GameResult::Draw.as_str()),
            effective_time_class: speed,
            play,
            event_selected,
        }
    }
}

/// [`prepare`] of a batch in memory, as a frame: the row number
/// ([`ROW`]) first, then the batch's columns, then the derived ones, in
/// the lazy query's order and types.
pub fn prepare_frame(rows: &DataFrame, filters: &Filters) -> Result<DataFrame> {
    let mut rows = rows.clone();
    rows.rechunk_mut();
    let height = rows.height();
    let mut preparer = Preparer::new(filters, PrepareInputs::of(&rows)?);
    let mut event_selected = Vec::with_capacity(height);
    let mut basis_elo = Vec::with_capacity(height);
    let mut band = Vec::with_capacity(height);
    let mut is_draw = Vec::with_capacity(height);
    let mut play = Vec::with_capacity(height);
    let mut reason = Vec::with_capacity(height);
    for i in 0..height {
        let row = preparer.row(i);
        event_selected.push(row.event_selected);
        basis_elo.push(row.basis_elo);
        band.push(row.band);
        is_draw.push(row.is_draw);
        play.push(row.play.as_str());
        reason.push(row.reason);
    }
    let index: Vec<IdxSize> = (0..height as IdxSize).collect();
    let speed = rows
        .column(Column::Speed.name())?
        .clone()
        .with_name(EFFECTIVE_TIME_CLASS.into());
    let mut derived = vec![
        polars::prelude::Column::new(EVENT_SELECTED.into(), event_selected),
        polars::prelude::Column::new(BASIS_ELO.into(), basis_elo),
        polars::prelude::Column::new(BAND.into(), band),
        speed,
        polars::prelude::Column::new(IS_DRAW.into(), is_draw),
        polars::prelude::Column::new(PLAY.into(), play),
        polars::prelude::Column::new(REASON.into(), reason),
    ];
    // A derived column of a table column's name would take its place, as
    // `with_columns` puts it; none has one (the derived play is
    // `play_or_unknown`, beside the table's `play`), so they all follow.
    let mut columns = Vec::with_capacity(rows.width() + derived.len() + 1);
    columns.push(polars::prelude::Column::new(ROW.into(), index));
    for column in rows.columns() {
        match derived.iter().position(|d| d.name() == column.name()) {
            Some(at) => columns.push(derived.remove(at)),
            None => columns.push(column.clone()),
        }
    }
    columns.extend(derived);
    Ok(DataFrame::new(height, columns)?)
}

/// The columns in which [`prepare_frame`] differs from the lazy
/// [`prepare`] on `rows` under `filters` (name, type or any value; an empty
/// list when the two are one), with the Rust frame: how the tests hold the
/// two ways of preparing a batch equal.
pub fn prepared_differences(
    rows: &DataFrame,
    filters: &Filters,
) -> Result<(Vec<String>, DataFrame)> {
    let by_query =
        collect(prepare(rows.clone().lazy(), filters)?)?.sort([ROW], Default::default())?;
    let in_rust = prepare_frame(rows, filters)?;
    let mut differ = Vec::new();
    if in_rust.get_column_names() != by_query.get_column_names() {
        differ.push("the columns' names or order".to_string());
    }
    for column in by_query.columns() {
        let same = in_rust
            .column(column.name())
            .is_ok_and(|ours| ours.dtype() == column.dtype() && ours.equals_missing(column));
        if !same {
            differ.push(column.name().to_string());
        }
    }
    Ok((differ, in_rust))
}

#[cfg(test)]
mod tests;
