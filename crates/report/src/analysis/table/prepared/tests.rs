use super::*;

/// A batch of hand-made rows, each built to test one branch of the
/// reasons and bands, compared with the lazy query's under `filters`.
fn same_as_query(rows: &DataFrame, filters: &Filters) {
    let (differ, _) = prepared_differences(rows, filters).unwrap();
    assert!(differ.is_empty(), "{differ:?} differ under {filters:?}");
}

#[test]
fn every_branch_of_prepare_is_derived_alike() {
    let n = 12;
    let white: Vec<Option<u16>> = vec![
        Some(2500),
        Some(2500),
        None,
        Some(2801),
        Some(900),
        Some(2300),
        Some(1500),
        Some(3500),
        Some(2000),
        Some(2450),
        Some(2450),
        Some(1800),
    ];
    let black: Vec<Option<u16>> = vec![
        Some(2499),
        Some(2100),
        Some(2000),
        None,
        Some(950),
        Some(2399),
        Some(1620),
        Some(2000),
        Some(2000),
        Some(2451),
        Some(2449),
        Some(1700),
    ];
    let year: Vec<Option<i16>> = vec![
        Some(2000),
        Some(1965),
        None,
        Some(2020),
        Some(1950),
        None,
        Some(2015),
        Some(2016),
        Some(1990),
        Some(2001),
        Some(2002),
        Some(2010),
    ];
    let ratings = [
        Some("elo"),
        Some("elo"),
        None,
        Some("lichess"),
        Some("chess.com"),
        Some("other platform"),
        Some("lichess"),
        Some("elo"),
        None,
        Some("elo"),
        Some("elo"),
        Some("lichess"),
    ];
    let event = [
        Some("Open A"),
        Some("Rated Blitz game"),
        None,
        Some("Arena"),
        Some("Open A"),
        Some(""),
        Some("ch-URS"),
        Some("Open A"),
        None,
        Some("Blitz ch"),
        Some("Open B"),
        Some("Arena"),
    ];
    let speed = [
        Some("classical"),
        Some("blitz"),
        None,
        Some("correspondence"),
        Some("rapid"),
        Some("classical"),
        Some("bullet"),
        Some("classical"),
        Some("classical"),
        Some("blitz"),
        Some("classical"),
        Some("unknown"),
    ];
    let result = [
        Some("1/2-1/2"),
        Some("1-0"),
        None,
        Some("0-1"),
        Some("1/2-1/2"),
        Some("1-0"),
        Some("1/2-1/2"),
        Some("0-1"),
        Some("1/2-1/2"),
        Some("1/2-1/2"),
        Some("1-0"),
        Some("1/2-1/2"),
    ];
    let play = [
        Some("over-the-board"),
        Some("online"),
        None,
        Some("online"),
        Some("over-the-board"),
        Some("other"),
        Some("online"),
        Some("over-the-board"),
        Some("over-the-board"),
        Some("online"),
        Some("over-the-board"),
        Some("online"),
    ];
    let ending = [
        Some("agreement"),
        Some("checkmate"),
        Some("unfinished"),
        Some("invalid"),
        Some("unsupported_variant"),
        None,
        Some("agreement"),
        Some("resignation"),
        Some("agreement"),
        Some("agreement"),
        Some("resignation"),
        Some("agreement"),
    ];
    let duplicate = [
        Some(false),
        Some(true),
        None,
        Some(false),
        Some(false),
        Some(true),
        None,
        Some(false),
        Some(false),
        Some(false),
        Some(false),
        Some(false),
    ];
    let variant = [
        Some("standard"),
        Some("chess960"),
        None,
        Some("standard"),
        Some("standard"),
        Some("standard"),
        Some("chess960"),
        Some("standard"),
        None,
        Some("standard"),
        Some("standard"),
        Some("standard"),
    ];
    let white_title = [
        None,
        Some("BOT"),
        None,
        Some("GM"),
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    ];
    let black_title = [
        None,
        None,
        None,
        Some("BOT"),
        None,
        None,
        Some("BOT"),
        None,
        None,
        None,
        None,
        None,
    ];
    let rows = df!(
        Column::WhiteElo.name() => white,
        Column::BlackElo.name() => black,
        Column::Year.name() => year,
        Column::Ratings.name() => ratings,
        Column::Event.name() => event,
        Column::Speed.name() => speed,
        Column::Result.name() => result,
        Column::Play.name() => play,
        Column::Ending.name() => ending,
        Column::Duplicate.name() => duplicate,
        Column::Variant.name() => variant,
        Column::WhiteTitle.name() => white_title,
        Column::BlackTitle.name() => black_title,
    )
    .unwrap();
    assert_eq!(rows.height(), n);
    let default = Filters::default;
    let re = |s: &str| Some(Regex::new(s).unwrap());
    for filters in [
        default(),
        Filters {
            min_elo: Some(2000),
            basis: EloBasis::Average,
            dedup: true,
            no_bots: true,
            ..default()
        },
        Filters {
            basis: EloBasis::Min,
            min_elo: Some(1000),
            years: Some((1960, 2015)),
            time_class: Some("classical".into()),
            ..default()
        },
        Filters {
            basis: EloBasis::Both,
            bands: BandScheme::width(50),
            event: re("Open|Arena"),
            exclude_event: re("B$"),
            variant: Some("standard".into()),
            play: Some(Play::Online),
            ..default()
        },
        Filters {
            exclude_event: re("Arena"),
            max_gap: 0,
            play: Some(Play::Unknown),
            ..default()
        },
    ] {
        same_as_query(&rows, &filters);
    }
}
