//! The text of one game record (tag values, final FEN, error) in one
//! allocation, addressed by [`Field`].

/// The text fields remis keeps of a game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Field {
    Event,
    Site,
    Date,
    Round,
    White,
    Black,
    WhiteTitle,
    BlackTitle,
    WhiteFideId,
    BlackFideId,
    Eco,
    Opening,
    TimeControl,
    Termination,
    Variant,
    StartFen,
    UtcDate,
    EventDate,
    /// The `Synthetic` tag of generated games.
    Synthetic,
    FinalFen,
    Error,
}

impl Field {
    const COUNT: usize = Field::Error as usize + 1;

    /// The PGN tag that fills this field, by its exact (case-sensitive) name.
    pub fn from_tag(name: &[u8]) -> Option<Field> {
        Some(match name {
            b"Event" => Field::Event,
            b"Site" => Field::Site,
            b"Date" => Field::Date,
            b"Round" => Field::Round,
            b"White" => Field::White,
            b"Black" => Field::Black,
            b"WhiteTitle" => Field::WhiteTitle,
            b"BlackTitle" => Field::BlackTitle,
            b"WhiteFideId" => Field::WhiteFideId,
            b"BlackFideId" => Field::BlackFideId,
            b"ECO" => Field::Eco,
            b"Opening" => Field::Opening,
            b"TimeControl" => Field::TimeControl,
            b"Termination" => Field::Termination,
            b"Variant" => Field::Variant,
            b"FEN" => Field::StartFen,
            b"UTCDate" => Field::UtcDate,
            b"EventDate" => Field::EventDate,
            b"Synthetic" => Field::Synthetic,
            _ => return None,
        })
    }
}

const ABSENT: (u32, u32) = (u32::MAX, 0);

/// All text of a game in one `String`, each field a span of it.
#[derive(Clone, Debug)]
pub struct GameText {
    buf: String,
    spans: [(u32, u32); Field::COUNT],
}

impl Default for GameText {
    fn default() -> Self {
        GameText {
            buf: String::new(),
            spans: [ABSENT; Field::COUNT],
        }
    }
}

impl GameText {
    pub fn with_capacity(bytes: usize) -> GameText {
        GameText {
            buf: String::with_capacity(bytes),
            spans: [ABSENT; Field::COUNT],
        }
    }

    #[inline]
    pub fn get(&self, field: Field) -> Option<&str> {
        let (start, end) = self.spans[field as usize];
        (start != u32::MAX).then(|| &self.buf[start as usize..end as usize])
    }

    /// Sets a field; a tag given twice keeps its last value.
    pub fn set(&mut self, field: Field, value: &str) {
        let start = self.buf.len();
        self.buf.push_str(value);
        self.spans[field as usize] = (start as u32, self.buf.len() as u32);
    }

    /// Sets a field from a tag value's bytes: UTF-8 when valid, otherwise
    /// Latin-1 (old TWIC and ChessBase exports), so no byte is dropped.
    pub fn set_bytes(&mut self, field: Field, value: &[u8]) {
        match std::str::from_utf8(value) {
            Ok(s) => self.set(field, s),
            Err(_) => {
                let start = self.buf.len();
                self.buf.extend(value.iter().map(|&b| char::from(b)));
                self.spans[field as usize] = (start as u32, self.buf.len() as u32);
            }
        }
    }

    /// Sets a field from anything displayable, without a temporary `String`.
    pub fn set_display(&mut self, field: Field, value: impl std::fmt::Display) {
        use std::fmt::Write;
        self.set_with(field, |buf| {
            let _ = write!(buf, "{value}");
        });
    }

    /// Sets a field from what `append` writes to the end of the buffer:
    /// for writers that skip the formatting machinery (a FEN, every game).
    pub fn set_with(&mut self, field: Field, append: impl FnOnce(&mut String)) {
        let start = self.buf.len();
        append(&mut self.buf);
        self.spans[field as usize] = (start as u32, self.buf.len() as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_fallback_keeps_every_byte() {
        let mut t = GameText::default();
        t.set_bytes(Field::White, b"S\xf8rensen");
        t.set_bytes(Field::Black, "Nepomniachtchi, Ян".as_bytes());
        assert_eq!(t.get(Field::White), Some("Sørensen"));
        assert_eq!(t.get(Field::Black), Some("Nepomniachtchi, Ян"));
        assert_eq!(t.get(Field::Event), None);
        t.set(Field::Event, "");
        assert_eq!(t.get(Field::Event), Some(""));
    }
}
