//! Caps on what one game may hold, shared by the framer, the lexer and
//! columnar input.

/// Caps on what one game may hold. A game over a cap becomes a row with
/// `ending = invalid` and an error naming the cap. With the `clap`
/// feature, they are also `classify`'s flags (each field's text is its
/// help, its default the flag's).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct Limits {
    /// Largest game read, in bytes; a longer game becomes an invalid row
    /// with its tags.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = Limits::default().max_game_bytes))]
    pub max_game_bytes: usize,
    /// Largest tag section of one game, in bytes.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = Limits::default().max_header_bytes))]
    pub max_header_bytes: usize,
    /// Largest { comment }, in bytes.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = Limits::default().max_comment_bytes))]
    pub max_comment_bytes: usize,
    /// Most plies replayed in one game.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = Limits::default().max_plies))]
    pub max_plies: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_game_bytes: 16 << 20,
            max_header_bytes: 256 << 10,
            max_comment_bytes: 1 << 20,
            // The 75-move rule (9.6.2) ends every game within 17,697 plies.
            max_plies: 20_000,
        }
    }
}

/// A tag line longer than this is not read as one (it may still be
/// skipped as part of an over-long game).
pub const MAX_TAG_LINE_BYTES: usize = 64 << 10;

/// Which cap a game broke.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Cap {
    GameBytes(usize),
    HeaderBytes(usize),
}

impl std::fmt::Display for Cap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cap::GameBytes(n) => write!(
                f,
                "game longer than {} (--max-game-bytes); only its tags were read",
                bytes(*n)
            ),
            Cap::HeaderBytes(n) => write!(
                f,
                "tag section longer than {} (--max-header-bytes); only its first tags were read",
                bytes(*n)
            ),
        }
    }
}

fn bytes(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}
