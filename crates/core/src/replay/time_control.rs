//! The time-control class of a game, from its `TimeControl` tag.

/// Classes by the estimated game duration `base + 40 × increment`, with
/// lichess's limits: under 3 minutes bullet, under 8 blitz, under 25 rapid,
/// classical above. A `moves/seconds` control (`40/7200:3600`) counts its
/// first period; `1/86400`-style days per move are correspondence.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum TimeClass {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl TimeClass {
    pub const ALL: [TimeClass; 5] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
        TimeClass::Correspondence,
    ];

    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
            TimeClass::Correspondence => "correspondence",
        }
    }

    pub fn from_name(name: &str) -> Option<TimeClass> {
        TimeClass::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// `None` when the tag is missing, `?` or `-` (no clock) or unreadable.
    ///
    /// ```
    /// use remis_core::replay::TimeClass;
    /// assert_eq!(TimeClass::from_time_control("180+2"), Some(TimeClass::Blitz));
    /// assert_eq!(TimeClass::from_time_control("5400+30"), Some(TimeClass::Classical));
    /// assert_eq!(TimeClass::from_time_control("-"), None);
    /// ```
    pub fn from_time_control(tag: &str) -> Option<TimeClass> {
        let first_period = tag.trim().split(':').next()?;
        let (moves, rest) = match first_period.split_once('/') {
            Some((moves, rest)) => (Some(moves), rest),
            None => (None, first_period),
        };
        // Seconds: a number, neither negative nor NaN nor infinite.
        let seconds = |text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(rest)?, 0.0),
        };
        if moves == Some("1") && base >= 86_400.0 {
            return Some(TimeClass::Correspondence);
        }
        let estimate = base + 40.0 * increment;
        Some(match estimate {
            e if e < 180.0 => TimeClass::Bullet,
            e if e < 480.0 => TimeClass::Blitz,
            e if e < 1500.0 => TimeClass::Rapid,
            _ => TimeClass::Classical,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let c = TimeClass::from_time_control;
        assert_eq!(c("60+0"), Some(TimeClass::Bullet));
        assert_eq!(c("180+2"), Some(TimeClass::Blitz));
        assert_eq!(c("300+0"), Some(TimeClass::Blitz));
        assert_eq!(c("600+5"), Some(TimeClass::Rapid));
        assert_eq!(c("5400+30"), Some(TimeClass::Classical));
        assert_eq!(c("40/7200:3600"), Some(TimeClass::Classical));
        assert_eq!(c("1/259200"), Some(TimeClass::Correspondence));
        assert_eq!(c("-"), None);
        assert_eq!(c("?"), None);
    }

    #[test]
    fn numbers_that_are_not_times_give_no_class() {
        // Rust parses these as numbers; none is a time (issue 19).
        let c = TimeClass::from_time_control;
        for tag in [
            "NaN", "inf+0", "-300+0", "300+-5", "infinity", "40/NaN", "1e999+0",
        ] {
            assert_eq!(c(tag), None, "{tag}");
        }
    }
}
