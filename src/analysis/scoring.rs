//! Alternative scoring: every used game's points under classical 1-½-0,
//! "football" 3-1-0, children's 3-2-1 and plus-remise, and the event
//! standings each system gives.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::table::USED;
use crate::rules::GameResult;
use crate::schema::Column;

/// A scoring system.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum System {
    Classical,
    Football,
    Children,
    PlusRemise,
}

impl System {
    pub const ALL: [System; 4] = [
        System::Classical,
        System::Football,
        System::Children,
        System::PlusRemise,
    ];

    pub fn label(self) -> &'static str {
        match self {
            System::Classical => "classical 1-½-0",
            System::Football => "3-1-0",
            System::Children => "3-2-1",
            System::PlusRemise => "plus-remise",
        }
    }

    fn column(self) -> &'static str {
        match self {
            System::Classical => "classical",
            System::Football => "football",
            System::Children => "children",
            System::PlusRemise => "plus_remise",
        }
    }

    /// (win, draw, loss) points; plus-remise has no draws.
    fn points(self) -> (f64, f64, f64) {
        match self {
            System::Classical => (1.0, 0.5, 0.0),
            System::Football => (3.0, 1.0, 0.0),
            System::Children => (3.0, 2.0, 1.0),
            System::PlusRemise => (1.0, 0.0, 0.0),
        }
    }

    /// Points of the side `color` ("white"/"black") under this system.
    fn expr(self, color: &str) -> Expr {
        let (win, draw, loss) = self.points();
        let won = if color == "white" { "1-0" } else { "0-1" };
        let drawn = Column::Result.col().eq(lit(GameResult::Draw.as_str()));
        let base = when(Column::Result.col().eq(lit(won)))
            .then(lit(win))
            .when(drawn.clone())
            .then(lit(draw))
            .otherwise(lit(loss));
        match self {
            System::PlusRemise => when(drawn.and(Column::PlusRemiseWinner.col().eq(lit(color))))
                .then(lit(win))
                .otherwise(base),
            _ => base,
        }
    }
}

/// How a system changes an event's standings against classical scoring.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// Events whose set of first-placed players differs.
    pub different_winner: u64,
    /// Sum over all players of |rank − classical rank|.
    pub places_moved: u64,
    /// A few events with a different winner.
    pub examples: Vec<WinnerChange>,
}

/// One event whose first place differs from classical scoring's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WinnerChange {
    pub event: String,
    pub year: Option<i16>,
    /// The players sharing first place, sorted: more than one is a tie.
    pub classical: Vec<String>,
    pub other: Vec<String>,
}

/// Plus-remise's three rules (docs/columns.md, `plus_remise_rule`) named.
pub fn rule_name(rule: u8) -> &'static str {
    match rule {
        1 => "more material",
        2 => "equal material, more when pawns count double",
        3 => "material equal either way",
        _ => "unknown rule",
    }
}

impl WinnerChange {
    /// The event's name, with its year unless the name already holds it.
    pub fn event_label(&self) -> String {
        match self.year {
            Some(year) if !self.event.contains(&year.to_string()) => {
                format!("{} {year}", self.event)
            }
            _ => self.event.clone(),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct ScoringStudy {
    pub events: u64,
    pub changes: BTreeMap<System, Changes>,
    /// Drawn games by plus-remise winner ("white"/"black") and rule (1-3).
    pub plus_remise_draws: BTreeMap<(String, u8), u64>,
}

pub fn scoring_study(prepared: LazyFrame) -> Result<ScoringStudy> {
    let used = prepared.filter(
        col("reason")
            .eq(lit(USED))
            .and(Column::Event.col().is_not_null()),
    );
    let side = |color: &str| {
        let mut columns = vec![
            Column::Event.col(),
            Column::Year.col(),
            col(color).fill_null(lit("?")).alias("player"),
        ];
        columns.extend(System::ALL.map(|s| s.expr(color).alias(s.column())));
        used.clone().select(columns)
    };
    let standings = concat([side("white"), side("black")], UnionArgs::default())?
        .group_by([Column::Event.col(), Column::Year.col(), col("player")])
        .agg(System::ALL.map(|s| col(s.column()).sum()))
        .collect()?;
    let mut study = ScoringStudy::default();
    let events = standings.column("event")?.str()?;
    let years = standings.column("year")?.i16()?;
    let players = standings.column("player")?.str()?;
    let scores: Vec<Vec<f64>> = System::ALL
        .iter()
        .map(|s| -> Result<Vec<f64>> {
            Ok(standings
                .column(s.column())?
                .f64()?
                .iter()
                .map(|v| v.unwrap_or(0.0))
                .collect())
        })
        .collect::<Result<_>>()?;
    let mut tables: BTreeMap<(String, Option<i16>), Vec<usize>> = BTreeMap::new();
    for i in 0..standings.height() {
        let key = (events.get(i).unwrap_or_default().to_string(), years.get(i));
        tables.entry(key).or_default().push(i);
    }
    study.events = tables.len() as u64;
    for ((event, year), rows) in &tables {
        let rank = |k: usize| -> Vec<usize> {
            rows.iter()
                .map(|&i| {
                    1 + rows
                        .iter()
                        .filter(|&&j| scores[k][j] > scores[k][i])
                        .count()
                })
                .collect()
        };
        let classical = rank(0);
        let winners = |ranks: &[usize]| -> Vec<&str> {
            let mut w: Vec<&str> = rows
                .iter()
                .zip(ranks)
                .filter(|(_, r)| **r == 1)
                .map(|(&i, _)| players.get(i).unwrap_or("?"))
                .collect();
            w.sort_unstable();
            w
        };
        for (k, system) in System::ALL.iter().enumerate().skip(1) {
            let ranks = rank(k);
            let change = study.changes.entry(*system).or_default();
            change.places_moved += ranks
                .iter()
                .zip(&classical)
                .map(|(a, b)| a.abs_diff(*b) as u64)
                .sum::<u64>();
            let (before, after) = (winners(&classical), winners(&ranks));
            if before != after {
                change.different_winner += 1;
                if change.examples.len() < 5 {
                    let names = |w: Vec<&str>| w.into_iter().map(String::from).collect();
                    change.examples.push(WinnerChange {
                        event: event.clone(),
                        year: *year,
                        classical: names(before),
                        other: names(after),
                    });
                }
            }
        }
    }
    let mix = used
        .filter(
            Column::Result
                .col()
                .eq(lit(GameResult::Draw.as_str()))
                .and(Column::PlusRemiseWinner.col().is_not_null()),
        )
        .group_by([Column::PlusRemiseWinner.col(), Column::PlusRemiseRule.col()])
        .agg([len().cast(DataType::UInt64).alias("n")])
        .collect()?;
    let (w, r, n) = (
        mix.column("plus_remise_winner")?.str()?,
        mix.column("plus_remise_rule")?.u8()?,
        mix.column("n")?.u64()?,
    );
    for i in 0..mix.height() {
        study.plus_remise_draws.insert(
            (w.get(i).unwrap_or("?").to_string(), r.get(i).unwrap_or(0)),
            n.get(i).unwrap_or(0),
        );
    }
    Ok(study)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plus_remise_breaks_a_tie_the_other_systems_keep() {
        // A beats B, C beats D, A-C and B-D drawn; plus-remise gives A-C to
        // A (White) and B-D to D (Black). Classical: A 1½, C 1½ share first.
        let df = df! {
            "reason" => [USED; 4],
            "event" => ["Test"; 4],
            "year" => [2000i16; 4],
            "white" => ["A", "C", "A", "B"],
            "black" => ["B", "D", "C", "D"],
            "result" => ["1-0", "1-0", "1/2-1/2", "1/2-1/2"],
            "plus_remise_winner" => [None, None, Some("white"), Some("black")],
            "plus_remise_rule" => [None, None, Some(1u8), Some(3u8)],
        }
        .unwrap();
        let study = scoring_study(df.lazy()).unwrap();
        assert_eq!(study.events, 1);
        assert_eq!(study.changes[&System::Football].different_winner, 0);
        assert_eq!(study.changes[&System::Children].different_winner, 0);
        let plus = &study.changes[&System::PlusRemise];
        assert_eq!(plus.different_winner, 1);
        assert_eq!(plus.examples[0].classical, ["A", "C"]);
        assert_eq!(plus.examples[0].other, ["A"]);
        assert_eq!(plus.examples[0].event_label(), "Test 2000");
        // Classical ranks A1 C1 B3 D3; plus-remise A 2, C 1, D 1, B 0:
        // ranks A1 C2 D2 B4, so C, D and B move one place each.
        assert_eq!(plus.places_moved, 3);
        assert_eq!(study.plus_remise_draws[&("white".to_string(), 1)], 1);
        assert_eq!(study.plus_remise_draws[&("black".to_string(), 3)], 1);
    }
}
