//! The arguments shared by the reading commands: the tables, and the
//! filter flags of `report` and `stats`.

use anyhow::{Context, Result, bail};
use regex::Regex;

use std::path::PathBuf;

use remis_core::excerpt::Shown;
use remis_report::analysis::table::{
    DEFAULT_BAND_WIDTH, DEFAULT_MAX_GAP, DEFAULT_SHORT_DRAWS, Play,
};
use remis_report::analysis::{self, Filters, Loaded, Settings, Source};
use remis_report::study::events::EventCatalogue;
use remis_report::study::{BandScheme, EloBasis, EventPatterns};
use remis_table::players::Aliases;

/// The games tables a reading command reads: the same for every one.
#[derive(clap::Args, Clone, Debug)]
pub struct TablesArg {
    /// Output folders of `remis classify`, `games.parquet` files, dataset
    /// folders of shards, or patterns such as `tables/2024-*.parquet`.
    #[arg(required = true)]
    pub tables: Vec<PathBuf>,
}

#[derive(clap::Args, Clone, Debug)]
pub struct FilterArgs {
    /// Years to include, e.g. 1999-2002 or 2005.
    #[arg(long)]
    years: Option<String>,
    /// Minimum rating of both players (of their mean with --elo-basis
    /// average).
    #[arg(long)]
    min_elo: Option<u16>,
    /// How a game is put in a rating band: `close` (the default), the
    /// players' mean rating for games whose rating gap is at most
    /// --max-gap, so that a band does not measure mismatches; `min`, the
    /// lower-rated player; `average`, the mean whatever the gap; `both`,
    /// both players in the band.
    #[arg(long, value_enum, default_value_t = Filters::default().basis)]
    elo_basis: EloBasis,
    /// The largest rating gap of a game in a band (--elo-basis close).
    #[arg(long, default_value_t = DEFAULT_MAX_GAP)]
    max_gap: u16,
    /// Width of rating bands in Elo points.
    #[arg(long, default_value_t = DEFAULT_BAND_WIDTH, value_parser = clap::value_parser!(u16).range(1..))]
    band_width: u16,
    /// Explicit band edges instead of a width, e.g. 2100,2300,2500.
    #[arg(long, value_delimiter = ',')]
    band_edges: Option<Vec<u16>>,
    /// Only games of this speed (the table's `speed` column: from
    /// TimeControl where present, else from the event's name, else
    /// classical).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(remis_report::analysis::table::time_class_names()))]
    time_class: Option<String>,
    /// Only events whose name matches this regular expression.
    #[arg(long)]
    event: Option<String>,
    /// Leave out events whose name matches this regular expression.
    #[arg(long)]
    exclude_event: Option<String>,
    /// Only this variant.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(
        remis_table::schema::Variant::REPLAYED.map(|v| v.name().unwrap_or_default())
    ))]
    variant: Option<String>,
    /// Leave out later copies of a game (tables made with `classify --dedup`).
    #[arg(long)]
    dedup: bool,
    /// Event-name patterns (TOML, like data/event_patterns.toml) that tell
    /// the rule study which events were fast. Each game's play and speed
    /// are decided by `classify` (and its --event-patterns) and kept in the
    /// table.
    #[arg(long)]
    event_patterns: Option<std::path::PathBuf>,
    /// Leave out games in which either player is a bot (title BOT).
    #[arg(long)]
    no_bots: bool,
    /// More surname aliases for player identities (TOML with an
    /// `[aliases]` table, like data/player_aliases.toml), added to the
    /// built-in ones.
    #[arg(long)]
    player_aliases: Option<std::path::PathBuf>,
    /// Only games played online, only over the board, or only those whose
    /// tags do not say (the table's `play` column, decided by classify from
    /// the Site tag, the event's name and the date).
    /// `all`: no kind of play left out, and the lead figures (the by-year
    /// chart, the band × year table) mix every kind of play and time class;
    /// by default they are of one format (over-the-board classical where
    /// there is any) and every game still counts elsewhere.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(PLAY_NAMES.map(|(name, _)| name)))]
    play: Option<String>,
    /// The two short-draw limits in moves, e.g. 20,30 (Sonas uses < 25).
    #[arg(long, value_delimiter = ',', num_args = 2, default_values_t = DEFAULT_SHORT_DRAWS)]
    short_draw_moves: Vec<u32>,
}

/// `--play`'s values: one kind of play (the table's own name for it), or
/// all of them mixed in the lead figures (`None`).
const PLAY_NAMES: [(&str, Option<Play>); 4] = [
    ("over-the-board", Some(Play::OverTheBoard)),
    ("online", Some(Play::Online)),
    ("unknown", Some(Play::Unknown)),
    ("all", None),
];

/// The play `--play NAME` keeps: `None` for all of them.
fn play_named(name: &str) -> Option<Play> {
    PLAY_NAMES
        .iter()
        .find_map(|&(n, play)| (n == name).then_some(play))
        .flatten()
}

fn parse_years(text: &str) -> Result<(i16, i16)> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let a: i16 = a
        .trim()
        .parse()
        .with_context(|| format!("--years {text}"))?;
    let b: i16 = b
        .trim()
        .parse()
        .with_context(|| format!("--years {text}"))?;
    if a > b {
        bail!("--years {text}: the first year is after the last");
    }
    Ok((a, b))
}

fn regex(flag: &str, text: &Option<String>) -> Result<Option<Regex>> {
    text.as_deref()
        .map(|t| Regex::new(t).with_context(|| format!("{flag} {t}: not a regular expression")))
        .transpose()
}

impl FilterArgs {
    pub fn event_patterns(&self) -> Result<EventPatterns> {
        match &self.event_patterns {
            None => Ok(EventPatterns::default()),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                EventPatterns::from_toml(&text)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
            }
        }
    }

    /// The filters, event patterns and catalogue (`path`, or the one
    /// built into remis) of a command.
    pub fn settings(&self, catalogue_path: Option<&PathBuf>) -> Result<Settings> {
        Ok(Settings {
            filters: self.filters()?,
            patterns: self.event_patterns()?,
            catalogue: catalogue(catalogue_path)?,
            aliases: player_aliases(self.player_aliases.as_deref())?,
        })
    }

    pub fn filters(&self) -> Result<Filters> {
        Ok(Filters {
            years: self.years.as_deref().map(parse_years).transpose()?,
            min_elo: self.min_elo,
            basis: self.elo_basis,
            max_gap: self.max_gap,
            bands: match &self.band_edges {
                Some(edges) => BandScheme::edges(edges.clone()),
                None => BandScheme::width(self.band_width),
            },
            time_class: self.time_class.clone(),
            event: regex("--event", &self.event)?,
            exclude_event: regex("--exclude-event", &self.exclude_event)?,
            variant: self.variant.clone(),
            dedup: self.dedup,
            no_bots: self.no_bots,
            play: self.play.as_deref().and_then(play_named),
            short_draws: [self.short_draw_moves[0], self.short_draw_moves[1]],
            mix_formats: self.play.as_deref() == Some("all"),
        })
    }
}

/// The built-in player aliases, with those in `path` added.
pub fn player_aliases(path: Option<&std::path::Path>) -> Result<Aliases> {
    let Some(path) = path else {
        return Ok(Aliases::default());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Aliases::with_user(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// The catalogue in `path`, or the one built into remis.
pub fn catalogue(path: Option<&PathBuf>) -> Result<EventCatalogue> {
    let Some(path) = path else {
        return Ok(EventCatalogue::built_in());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    EventCatalogue::from_toml(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// How a reading command gets each table's counts.
#[derive(clap::Args, Clone, Debug)]
pub struct SourceArgs {
    /// Where each table's counts come from: its summary file when a current
    /// one exists for these settings, else its rows (auto); always the rows;
    /// or only summary files, reading no rows at all.
    #[arg(long, value_enum, default_value_t = Source::Auto)]
    pub source: Source,
}

/// The merged counts of the tables; summary files that could not be used
/// are named on standard error.
pub fn load(tables: &[PathBuf], settings: &Settings, source: &SourceArgs) -> Result<Loaded> {
    let loaded = analysis::load(tables, &settings.config(), source.source)?;
    for warning in &loaded.warnings {
        remis_core::say!("remis: warning: {}", Shown(warning));
    }
    Ok(loaded)
}
