//! Rating bands: which band a game falls in, by its players' Elo.

/// How a game's rating is taken from its two players.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum EloBasis {
    /// The mean of both players' ratings, for games whose rating gap is at
    /// most the maximum gap (`--max-gap`); games further apart are in no
    /// band. The default: a band then holds games between players of its
    /// strength, not mismatches.
    Close,
    /// The lower-rated player's rating ("games between players rated
    /// 2500+"); in a collection of one player's games this measures
    /// mismatches.
    Min,
    /// The mean of both players' ratings, whatever the gap.
    Average,
    /// Both players in the same band; games across bands are in no band.
    Both,
}

/// Band edges: band 0 is below `edges[0]`, band i is `[edges[i-1], edges[i])`,
/// the last band is `edges[last]` and above.
#[derive(Clone, Debug, PartialEq)]
pub struct BandScheme {
    edges: Vec<u16>,
}

/// A rating band, or the band of games without both ratings.
#[derive(
    Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd, serde::Serialize, serde::Deserialize,
)]
pub enum Band {
    Rated(u16),
    /// Without both ratings.
    Unrated,
    /// Both rated, but too far apart for the basis (`EloBasis::Close`,
    /// `EloBasis::Both`).
    Apart,
    /// A rating implausible for its system and year.
    Implausible,
}

impl Band {
    /// A band of ratings (not one of the games outside every band).
    pub fn is_rated(self) -> bool {
        matches!(self, Band::Rated(_))
    }
}

impl BandScheme {
    /// Bands of `width` Elo from `width` up to 3000 (and one above).
    pub fn width(width: u16) -> BandScheme {
        let width = width.max(1);
        BandScheme {
            edges: (1..)
                .map(|k| k * width)
                .take_while(|&e| e <= 3000)
                .collect(),
        }
    }

    /// Explicit edges, sorted and without duplicates.
    pub fn edges(mut edges: Vec<u16>) -> BandScheme {
        edges.sort_unstable();
        edges.dedup();
        BandScheme { edges }
    }

    pub fn edge_list(&self) -> &[u16] {
        &self.edges
    }

    /// The band index of a rating.
    pub fn index(&self, elo: u16) -> u16 {
        self.edges.partition_point(|&e| e <= elo) as u16
    }

    /// "2500–2599", "< 1000", "≥ 3000".
    ///
    /// ```
    /// use remis_report::study::{Band, BandScheme};
    /// let bands = BandScheme::width(100);
    /// assert_eq!(bands.label(Band::Rated(bands.index(2550))), "2500–2599");
    /// assert_eq!(bands.label(Band::Rated(bands.index(3100))), "≥ 3000");
    /// assert_eq!(bands.label(Band::Apart), "players apart");
    /// ```
    pub fn label(&self, band: Band) -> String {
        let i = match band {
            Band::Rated(i) => i,
            Band::Unrated => return "unrated".to_string(),
            Band::Apart => return "players apart".to_string(),
            Band::Implausible => return "implausible rating".to_string(),
        };
        let i = i as usize;
        match (i.checked_sub(1).map(|j| self.edges[j]), self.edges.get(i)) {
            (None, Some(hi)) => format!("< {hi}"),
            (Some(lo), Some(hi)) => format!("{lo}–{}", hi - 1),
            (Some(lo), None) => format!("≥ {lo}"),
            (None, None) => "all".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_bands() {
        let s = BandScheme::width(100);
        assert_eq!(s.index(2499), 24);
        assert_eq!(s.index(2500), 25);
        assert_eq!(s.label(Band::Rated(25)), "2500–2599");
        assert_eq!(s.label(Band::Rated(0)), "< 100");
        assert_eq!(s.label(Band::Rated(s.index(3100))), "≥ 3000");
        assert_eq!(s.label(Band::Unrated), "unrated");
    }

    #[test]
    fn explicit_edges() {
        let s = BandScheme::edges(vec![2500, 2100, 2300]);
        assert_eq!(s.index(2000), 0);
        assert_eq!(s.label(Band::Rated(s.index(2250))), "2100–2299");
        assert_eq!(s.label(Band::Rated(s.index(2700))), "≥ 2500");
    }
}
