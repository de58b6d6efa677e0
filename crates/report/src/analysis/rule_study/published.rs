//! Published figures on events the tables hold, beside the same figure
//! computed by the study, with what each counts: a reader can see whether
//! remis reproduces the literature and, where it does not, why.
//!
//! Only figures whose source was read are here, with the sentence quoted.
//! Two are known: Milener's draw rate of the M-Tel Masters under Sofia
//! rules, and Parinduri, Lee and Tiong's effect of 3-1-0 scoring within
//! pairs of players. Others (the Bilbao 2015 and London 2014 draw counts
//! quoted in the press) are tournament counts the editions table already
//! shows.

use super::*;
use crate::study::Proportion;

/// One published figure and ours.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub source: &'static str,
    pub url: &'static str,
    /// The source's sentence, quoted.
    pub quote: &'static str,
    /// The figure, in the source's terms.
    pub published: &'static str,
    /// The same figure from these tables, in the same terms.
    pub ours: String,
    /// What each counts, and whether they agree.
    pub note: String,
}

const MILENER: (&str, &str, &str) = (
    "Gene Milener, “A new angle on understanding the draw problem”, ChessBase, 8 April 2008",
    "https://en.chessbase.com/post/a-new-angle-on-understanding-the-draw-problem",
    "the popular Sofia rule of banning draw offers has resulted in a draw rate of 56% (see M-Tel tournaments 2005-2007)",
);

const PARINDURI: (&str, &str, &str) = (
    "Rasyad A. Parinduri, Yoong Hon Lee and Kung Ming Tiong, “The effects of bigger rewards in individual \
     tournaments on efforts and risk taking: evidence from chess”, Oxford Economic Papers 71(4), 2019, 979–995",
    "https://doi.org/10.1093/oep/gpy052",
    "We find the Bilbao rule makes games 33% more decisive, mostly to white players' advantage, who win 50% \
     more games. […] We observe the same pairs of chess players playing under both rules, a research design \
     that fits fixed-effect models.",
);

/// The comparisons whose events are in these editions.
pub fn comparisons(editions: &[Edition], rng: &mut Rng) -> Vec<Comparison> {
    let mut out = Vec::new();
    let mtel: Vec<&Edition> = editions
        .iter()
        .filter(|e| e.series == "M-Tel Masters" && (2005..=2007).contains(&e.year))
        .collect();
    if !mtel.is_empty() {
        let g = pooled(&mtel);
        let p = Proportion::new(g.draws, g.games);
        let (rate, (lo, hi)) = (p.rate().unwrap_or(0.0), p.wilson95().unwrap_or((0.0, 1.0)));
        let years: Vec<String> = mtel.iter().map(|e| e.year.to_string()).collect();
        // Three double round robins of six players: 30 games a year.
        let complete = 30 * mtel.len() as u64;
        out.push(Comparison {
            source: MILENER.0,
            url: MILENER.1,
            quote: MILENER.2,
            published: "56% draws, M-Tel Masters 2005–2007",
            ours: format!(
                "{:.1}% draws ({} of {} games; 95% interval {:.1}–{:.1}%), M-Tel Masters {}",
                rate * 100.0,
                g.draws,
                g.games,
                lo * 100.0,
                hi * 100.0,
                years.join(", ")
            ),
            note: format!(
                "Milener counts every game of the three double round robins (six players, ten rounds: {complete} \
                 games for these years); these tables hold {} of them after the filters. {} The figure is a \
                 tournament count without a comparison group: it does not say what the rule changed.",
                g.games,
                if (lo..=hi).contains(&0.56) {
                    "56% is inside our interval: the two agree."
                } else {
                    "56% is outside our interval: the games held here differ from the events' (see the editions table)."
                }
            ),
        });
    }
    let bilbao: Vec<&Edition> = editions.iter().filter(|e| e.three_one_zero).collect();
    let control: Vec<&Edition> = editions
        .iter()
        .filter(|e| {
            !e.regime.restricts()
                && bilbao
                    .iter()
                    .any(|b| (b.year - e.year).abs() <= estimate::MATCH_YEARS)
        })
        .collect();
    let within = wild::stratified(
        &estimate::cells(&bilbao, &control, Measure::Draws, estimate::Strata::Pairs),
        rng,
    );
    if let Some(w) = within {
        let decisive = 1.0 - w.control_share;
        // Fewer draws are more decisive games: the draw-rate difference,
        // negated, over the control pairs' decisive share.
        let relative = |d: f64| -d / decisive * 100.0;
        let interval = w.effect.interval.map_or("no interval".into(), |(lo, hi)| {
            format!(
                "95% interval {:+.0}% to {:+.0}%",
                relative(hi),
                relative(lo)
            )
        });
        let series: BTreeSet<&str> = bilbao.iter().map(|e| e.series.as_str()).collect();
        out.push(Comparison {
            source: PARINDURI.0,
            url: PARINDURI.1,
            quote: PARINDURI.2,
            published: "+33% decisive games under 3-1-0 (“Bilbao rule”), pair fixed effects",
            ours: format!(
                "{:+.0}% decisive games ({interval}), within {} pairs of players who met in the {} editions with \
                 3-1-0 scoring ({}) and in control editions of the same years (± {} years); decisive share of those \
                 pairs under the controls {:.1}%",
                relative(w.effect.estimate),
                w.strata,
                bilbao.len(),
                series.into_iter().collect::<Vec<_>>().join(", "),
                estimate::MATCH_YEARS,
                decisive * 100.0
            ),
            note: format!(
                "Both compare the same two players under both scorings. {} The paper's sample, years and \
                 controls are its own (its tables were not read here), its effect is a regression coefficient over \
                 its whole sample, and the 3-1-0 editions here also forbid draw offers where their catalogue entry \
                 says so: agreement in sign and size is what can be checked, not the digits.",
                match w.effect.interval {
                    Some((lo, hi)) if (relative(hi)..=relative(lo)).contains(&33.0) => {
                        "+33% is inside our interval: the two agree.".to_string()
                    }
                    Some(_) => "+33% is outside our interval: with these pairs and years the effect is smaller.".into(),
                    None => "Too few editions here for an interval.".into(),
                }
            ),
        });
    }
    out
}
