//! One identity per player, however the databases spell the name: the
//! Players section, the intervals clustered by player and `--dedup` count
//! "Ivanchuk,V" and "Ivanchuk, Vassily" as one player, and "Kortschnoj,
//! Viktor" and "Korchnoi,V" too.
//!
//! The key is the surname and the first initial ([`normalise_name`]), with
//! accents folded ("Hübner" = "Huebner" = "Hubner" only through the alias
//! table: `ü` folds to `u`), hyphens and other punctuation read as spaces
//! ("Vachier-Lagrave" = "Vachier Lagrave"), and the surname read through a
//! built-in alias table of transliterations (`data/player_aliases.toml`).
//! Names without a comma keep their tokens (online user names are one
//! token each, and stay apart).

use std::collections::HashMap;

/// The built-in alias table, as shipped.
pub const ALIASES_TOML: &str = include_str!("../../../data/player_aliases.toml");

#[derive(serde::Deserialize)]
struct AliasFile {
    aliases: HashMap<String, String>,
}

fn parse(text: &str) -> Result<HashMap<String, String>, String> {
    toml::from_str::<AliasFile>(text)
        .map(|f| f.aliases)
        .map_err(|e| e.to_string())
}

/// The surname aliases a player's identity is read through: the built-in
/// table, and a user's entries on top (`--player-aliases`). One value made
/// from the settings and handed to every reader of identities (the
/// `--dedup` key, the summary's players, the rule study's pairs), fixed
/// for a run; its hash goes into the summaries' fingerprint.
#[derive(Clone, Debug, PartialEq)]
pub struct Aliases {
    table: HashMap<String, String>,
    hash: u64,
}

impl Default for Aliases {
    /// The built-in table alone.
    fn default() -> Self {
        Aliases {
            table: parse(ALIASES_TOML).expect("the built-in player aliases parse"),
            hash: remis_core::fnv::fnv1a(ALIASES_TOML.as_bytes()),
        }
    }
}

impl Aliases {
    /// The built-in table with a user's aliases (TOML with an `[aliases]`
    /// table, as `data/player_aliases.toml`) added, a user's entry winning.
    pub fn with_user(text: &str) -> Result<Aliases, String> {
        let mut aliases = Aliases::default();
        aliases.table.extend(parse(text)?);
        aliases.hash = remis_core::fnv::fnv1a(format!("{ALIASES_TOML}\n{text}").as_bytes());
        Ok(aliases)
    }

    /// A hash of the table, for the summaries' fingerprint.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// A player's identity key: "surname initial", folded and read
    /// through the alias table. `None` for no name (empty or `?`).
    ///
    /// ```
    /// use remis_table::players::Aliases;
    /// let aliases = Aliases::default();
    /// let key = |name| aliases.player_key(name);
    /// assert_eq!(key("Kortschnoj, Viktor"), key("Korchnoi,V"));
    /// assert_eq!(key("Vachier-Lagrave, Maxime").as_deref(), Some("vachier lagrave m"));
    /// assert_ne!(key("Kasparov,G"), key("Karpov,A"));
    /// assert_eq!(key("?"), None);
    /// ```
    pub fn player_key(&self, name: &str) -> Option<String> {
        identity_key(name, &self.table)
    }
}

/// Latin letters with diacritics, folded to their base letters.
fn fold(c: char) -> &'static str {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' | 'ĉ' | 'ċ' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' | 'ĝ' | 'ġ' | 'ģ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ř' | 'ŗ' => "r",
        'ś' | 'š' | 'ş' | 'ŝ' | 'ș' => "s",
        'ß' => "ss",
        'ť' | 'ţ' | 'ț' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => "",
    }
}

/// [`Aliases::player_key`], with the alias table.
fn identity_key(name: &str, aliases: &HashMap<String, String>) -> Option<String> {
    let name = name.trim();
    if name.is_empty() || name == "?" {
        return None;
    }
    let lowered = name.to_lowercase();
    // A consultation or team game ("Nakamura,Hikaru:Hodgson,Jeremy") is
    // no one player's: its sides keep their whole names.
    if lowered.contains([':', '/', '&', '+']) {
        return Some(lowered.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    let mut folded = String::with_capacity(lowered.len());
    for c in lowered.chars() {
        match fold(c) {
            "" if c == '-' || c == '_' || c == '\'' => folded.push(' '),
            "" => folded.push(c),
            base => folded.push_str(base),
        }
    }
    let key = normalise_name(&folded);
    if key.is_empty() {
        return None;
    }
    // The surname is every word but a trailing initial of one letter.
    let (surname, initial) = match key.rsplit_once(' ') {
        Some((s, i)) if i.chars().count() == 1 && name.contains([',', ' ']) => (s, Some(i)),
        _ => (key.as_str(), None),
    };
    let surname = aliases.get(surname).map_or(surname, String::as_str);
    Some(match initial {
        Some(i) => format!("{surname} {i}"),
        None => surname.to_string(),
    })
}

/// The given name a spelling writes out in full ("Kasparov, Garry" →
/// `garry`), folded, letters only; `None` for an initial or an
/// abbreviation ("Kasparov,G", "Nakamura,Hi", "Kasparov, G."), a name
/// without a comma, or a consultation game. Two different given names
/// under one key are two people ("Adams, Michael" and "Adams, Mark").
pub fn given_name(name: &str) -> Option<String> {
    let (_, given) = name.split_once(',')?;
    if name.contains([':', '/', '&', '+']) {
        return None;
    }
    let first = given.split_whitespace().next()?;
    if first.ends_with('.') {
        return None;
    }
    let mut folded = String::new();
    for c in first.to_lowercase().chars() {
        match fold(c) {
            "" if c.is_alphabetic() => folded.push(c),
            "" => {}
            base => folded.push_str(base),
        }
    }
    (folded.chars().count() >= 3).then_some(folded)
}

/// Whether two written-out given names are one person's: the same first
/// three letters ("Sergei" and "Sergey", "Vassily" and "Vasyl"), or one
/// letter apart ("Mexime" for "Maxime").
pub fn same_given_name(a: &str, b: &str) -> bool {
    let prefix = |s: &str| s.chars().take(3).collect::<String>();
    prefix(a) == prefix(b) || one_edit_apart(a, b)
}

fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    match long.len() - short.len() {
        0 => short.iter().zip(long).filter(|(x, y)| x != y).count() <= 1,
        1 => (0..long.len()).any(|skip| {
            long.iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, c)| c)
                .eq(short.iter())
        }),
        _ => false,
    }
}

/// A player's name as "surname initial" (lowercase): "Kasparov, Garry",
/// "Kasparov,G", "Kasparov, G." and "Garry Kasparov" are all `kasparov g`.
/// Without a comma, a last token of one or two letters is an initial
/// ("Carls C"); otherwise the first token is the given name and the rest the
/// surname ("Mir Sultan Khan" = "Sultan Khan, Mir"). Parenthesised parts
/// ("(MEX)") are dropped.
pub fn normalise_name(name: &str) -> String {
    let mut cleaned = String::with_capacity(name.len());
    let mut depth = 0u32;
    for c in name.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => cleaned.push(c),
            _ => {}
        }
    }
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == '.')
            .filter(|w| !w.is_empty())
            .map(|w| {
                w.chars()
                    .filter(|c| c.is_alphanumeric() || *c == '-')
                    .flat_map(char::to_lowercase)
                    .collect::<String>()
            })
            .filter(|w| !w.is_empty())
            .collect()
    };
    let (surname, given) = match cleaned.split_once(',') {
        Some((s, g)) => (words(s), words(g)),
        None => {
            let mut tokens = words(&cleaned);
            match tokens.len() {
                0 | 1 => (tokens, Vec::new()),
                _ if tokens.last().is_some_and(|t| t.chars().count() <= 2) => {
                    let initial = tokens.pop().unwrap_or_default();
                    (tokens, vec![initial])
                }
                _ => {
                    let first = tokens.remove(0);
                    (tokens, vec![first])
                }
            }
        }
    };
    let mut out = surname.join(" ");
    if let Some(initial) = given.first().and_then(|g| g.chars().next()) {
        out.push(' ');
        out.push(initial);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player_key(name: &str) -> Option<String> {
        Aliases::default().player_key(name)
    }

    #[test]
    fn one_player_many_spellings() {
        for spelling in [
            "Kasparov, Garry",
            "Kasparov,G",
            "Kasparov, G.",
            "Garry Kasparov",
            " kasparov,g ",
        ] {
            assert_eq!(normalise_name(spelling), "kasparov g", "{spelling}");
        }
        assert_ne!(
            normalise_name("Kasparov, Garry"),
            normalise_name("Karpov, Anatoly")
        );
        assert_eq!(normalise_name("Carlsen"), "carlsen");
    }

    #[test]
    fn given_names_tell_namesakes_apart() {
        assert_eq!(given_name("Adams, Michael").as_deref(), Some("michael"));
        assert_eq!(given_name("Karpov, Anantoly2").as_deref(), Some("anantoly"));
        assert_eq!(given_name("Hübner, Robert").as_deref(), Some("robert"));
        for initial in [
            "Adams,M",
            "Nakamura,Hi",
            "Kasparov, G.",
            "Carlsen",
            "Ding Liren",
        ] {
            assert_eq!(given_name(initial), None, "{initial}");
        }
        assert!(same_given_name("sergei", "sergey"));
        assert!(same_given_name("mexime", "maxime"));
        assert!(same_given_name("vassily", "vasyl"));
        assert!(!same_given_name("michael", "mark"));
        assert!(!same_given_name("anish", "abhishek"));
        assert!(!same_given_name("viswanathan", "vignesh"));
        assert!(!same_given_name("dmitry", "daniel"));
    }

    #[test]
    fn spellings_of_one_player_share_a_key() {
        let same = [
            ["Ivanchuk,V", "Ivanchuk, Vassily", "Ivanchuk, V."],
            ["Kortschnoj, Viktor", "Korchnoi,V", "Korchnoi, Viktor"],
            ["Kasparov, Gary", "Kasparov,G", "Kasparov, G."],
            [
                "Vachier Lagrave,M",
                "Vachier-Lagrave,M",
                "Vachier Lagrave, Mexime",
            ],
            ["Hübner, Robert", "Huebner,R", "Hubner, R"],
            ["Nakamura,Hi", "Nakamura, Hikaru", "Nakamura,H"],
        ];
        for spellings in same {
            let keys: Vec<_> = spellings.iter().map(|s| player_key(s)).collect();
            assert!(
                keys.iter().all(|k| k == &keys[0]),
                "{spellings:?}: {keys:?}"
            );
        }
    }

    #[test]
    fn different_players_keep_different_keys() {
        let pairs = [
            ("Kasparov,G", "Kasparov,S"),
            ("Nakamura,Hi", "Nakamura, Asuka"),
            ("Korchnoi,V", "Korchmar,V"),
            ("DrNykterstein", "drdrunkenstein"),
            ("Anand,V", "Praggnanandhaa,R"),
            ("Nakamura,Hi", "Nakamura,Hikaru:Hodgson,Jeremy"),
            ("Shirov,A", "Shirov/Kramnik"),
        ];
        for (a, b) in pairs {
            assert_ne!(player_key(a), player_key(b), "{a} / {b}");
        }
        assert_eq!(player_key("?"), None);
        assert_eq!(player_key("  "), None);
        // An online name is one token, kept whole.
        assert_eq!(
            player_key("DrNykterstein").as_deref(),
            Some("drnykterstein")
        );
    }
}

#[cfg(test)]
mod alias_tests {
    use super::*;

    #[test]
    fn a_users_alias_is_added_to_the_built_in_ones_and_changes_the_hash() {
        let built_in = Aliases::default();
        let user = Aliases::with_user("[aliases]\nsmyth = \"smith\"\n").unwrap();
        assert_ne!(
            built_in.player_key("Smyth, J"),
            built_in.player_key("Smith, J")
        );
        assert_eq!(user.player_key("Smyth, J"), user.player_key("Smith, J"));
        // The built-in ones still hold.
        assert_eq!(
            user.player_key("Kortschnoj,V"),
            user.player_key("Korchnoi,V")
        );
        assert_ne!(user.hash(), built_in.hash());
        assert!(Aliases::with_user("not toml [").is_err());
    }
}
