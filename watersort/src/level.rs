//! Levels: their two input forms (a line of letters, a JSON array of named colours), the checks that make
//! a level well formed, and the line form they are written back in.
//!
//! Every check happens here, once, so that the solver can rely on a [`Level`]: at least two tubes, none
//! over capacity, every colour a whole number of full tubes, and small enough to pack.

use thiserror::Error;

/// Most tubes a level may have: successor generation keeps a tube array of this size on the stack.
pub const MAX_TUBES: usize = 64;
/// Most colours: a unit is packed in at most 8 bits, 0 meaning "no unit".
pub const MAX_COLOURS: usize = 255;

/// A well-formed level. Colours are numbered from 0 in order of first appearance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    name: String,
    capacity: usize,
    colours: Vec<String>,
    tubes: Vec<Vec<u8>>,
}

/// What is wrong with a level, and where: `line` is the input line (text input) when known, `tube` is
/// 1-based.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{}{problem}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct LevelError {
    /// The input line (1-based), when the level came from text.
    pub line: Option<usize>,
    /// What is wrong.
    pub problem: Problem,
}

/// The ways a level can be malformed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Problem {
    /// A tube holds more units than a tube can.
    #[error("tube {tube} holds {units} units, over the capacity {capacity}")]
    OverCapacity {
        /// The tube, from 1.
        tube: usize,
        /// Units in it.
        units: usize,
        /// Units a tube holds.
        capacity: usize,
    },
    /// A character that is not a colour letter or `-`.
    #[error(
        "tube {tube}: unknown character {character:?} (colours are letters, `?` a hidden unit, `-` an empty tube)"
    )]
    UnknownCharacter {
        /// The tube, from 1.
        tube: usize,
        /// The character that is neither a letter nor `-`.
        character: char,
    },
    /// A colour that does not fill a whole number of tubes.
    #[error("colour {colour} has {count} unit{}, not a multiple of the capacity {capacity}", plural(*count))]
    ColourCount {
        /// The colour's name.
        colour: String,
        /// Its units over all tubes.
        count: usize,
        /// Units a tube holds.
        capacity: usize,
    },
    /// Fewer than two tubes: nothing to pour.
    #[error("{tubes} tube{}: a level needs at least two", plural(*tubes))]
    TooFewTubes {
        /// Tubes in the level.
        tubes: usize,
    },
    /// More tubes than a state packs ([`MAX_TUBES`]).
    #[error("{tubes} tubes: at most {MAX_TUBES} are supported")]
    TooManyTubes {
        /// Tubes in the level.
        tubes: usize,
    },
    /// More colours than a unit codes ([`MAX_COLOURS`]).
    #[error("{colours} colours: at most {MAX_COLOURS} are supported")]
    TooManyColours {
        /// Colours in the level.
        colours: usize,
    },
    /// A tube's units, at the bits each colour needs, take more than the 64 bits of a tube's code.
    #[error("capacity {capacity} with {colours} colours does not fit a tube in 64 bits")]
    TubeTooWide {
        /// Units a tube holds.
        capacity: usize,
        /// Colours in the level.
        colours: usize,
    },
    /// A hidden unit (`?`) on top of a tube: games always show the top.
    #[error("tube {tube}: its top unit is hidden, but a game always shows it")]
    HiddenTop {
        /// The tube, from 1.
        tube: usize,
    },
    /// A level with hidden units showing more units of a colour than one tube holds.
    #[error("colour {colour} shows {count} units, but with hidden units every colour fills one tube of {capacity}")]
    OverOneTube {
        /// The colour's name.
        colour: String,
        /// Its units in sight.
        count: usize,
        /// Units a tube holds.
        capacity: usize,
    },
    /// A level with hidden units whose units do not fill whole tubes.
    #[error("{units} units cannot fill tubes of {capacity} (every colour fills one tube)")]
    MysteryUnits {
        /// Units in the level, hidden ones included.
        units: usize,
        /// Units a tube holds.
        capacity: usize,
    },
    /// A capacity of 0.
    #[error("capacity must be at least 1")]
    ZeroCapacity,
    /// A JSON level that does not parse, or is not an array of tubes of colour names.
    #[error("JSON: {0}")]
    Json(String),
}

/// The plural ending for `n` things, so that a message never says "1 units".
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Problem {
    pub(crate) fn at(self, line: Option<usize>) -> LevelError {
        LevelError { line, problem: self }
    }
}

/// Bits a unit takes when a level has `colours` colours: codes 1..=colours, 0 for no unit. At least 1,
/// so that a level of empty tubes still has a coding.
pub fn unit_bits(colours: usize) -> u32 {
    (usize::BITS - colours.leading_zeros()).max(1)
}

impl Level {
    /// Checks and builds a level. `tubes` holds colour indices into `colours`, bottom to top.
    pub fn new(
        name: impl Into<String>,
        capacity: usize,
        colours: Vec<String>,
        tubes: Vec<Vec<u8>>,
    ) -> Result<Level, Problem> {
        if capacity == 0 {
            return Err(Problem::ZeroCapacity);
        }
        if tubes.len() < 2 {
            return Err(Problem::TooFewTubes { tubes: tubes.len() });
        }
        if tubes.len() > MAX_TUBES {
            return Err(Problem::TooManyTubes { tubes: tubes.len() });
        }
        if colours.len() > MAX_COLOURS {
            return Err(Problem::TooManyColours { colours: colours.len() });
        }
        if let Some((i, t)) = tubes.iter().enumerate().find(|(_, t)| t.len() > capacity) {
            return Err(Problem::OverCapacity { tube: i + 1, units: t.len(), capacity });
        }
        let mut counts = vec![0usize; colours.len()];
        for &u in tubes.iter().flatten() {
            counts[u as usize] += 1;
        }
        if let Some((c, &count)) = counts.iter().enumerate().find(|(_, &n)| n % capacity != 0) {
            return Err(Problem::ColourCount { colour: colours[c].clone(), count, capacity });
        }
        if capacity as u64 * unit_bits(colours.len()) as u64 > 64 {
            return Err(Problem::TubeTooWide { capacity, colours: colours.len() });
        }
        Ok(Level { name: name.into(), capacity, colours, tubes })
    }

    /// The same level under another name.
    pub fn with_name(self, name: impl Into<String>) -> Level {
        Level { name: name.into(), ..self }
    }

    /// The same level with other tubes: a position reached from it by pours, which keep every colour's
    /// count (callers that build tubes otherwise go through [`Level::new`]).
    pub fn with_tubes(&self, tubes: Vec<Vec<u8>>) -> Level {
        Level { tubes, ..self.clone() }
    }

    /// The level's name (see [`parse_levels`], [`parse_json`] and [`Level::with_name`]).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Units a tube holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Colour names, indexed by the numbers in [`Level::tubes`].
    pub fn colours(&self) -> &[String] {
        &self.colours
    }

    /// Tubes bottom to top, colours as indices into [`Level::colours`].
    pub fn tubes(&self) -> &[Vec<u8>] {
        &self.tubes
    }

    /// One letter a colour: see `letters_of`.
    pub fn letters(&self) -> Vec<char> {
        letters_of(&self.colours)
    }

    /// The level in the text form `name: tubes...`, which [`parse_levels`] reads back.
    pub fn to_line(&self) -> String {
        let letters = self.letters();
        let tubes: Vec<String> = self
            .tubes
            .iter()
            .map(|t| if t.is_empty() { "-".to_string() } else { t.iter().map(|&u| letters[u as usize]).collect() })
            .collect();
        format!("{}: {}", self.name, tubes.join(" "))
    }
}

/// Reads level text: one level a line, `name: t1 t2 ...`, each tube its colours bottom to top as letters
/// and `-` for an empty tube; `#` starts a comment; blank lines are skipped. A line without `:` is named
/// `line N`. One result a level line, so that a bad line does not stop the others.
pub fn parse_levels(text: &str, capacity: usize) -> Vec<Result<Level, LevelError>> {
    level_lines(text).map(|(number, line)| parse_line(line, number, capacity)).collect()
}

/// Reads level input of either form: one JSON level (named `name`) or level lines ([`parse_levels`]).
pub fn parse_input(text: &str, name: &str, capacity: usize) -> Vec<Result<Level, LevelError>> {
    if is_json(text) {
        vec![parse_json(text, name, capacity)]
    } else {
        parse_levels(text, capacity)
    }
}

/// The level lines of `text` with their line numbers (from 1): comments cut, blank lines skipped.
pub(crate) fn level_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = raw.split('#').next().unwrap_or("").trim();
        (!line.is_empty()).then_some((i + 1, line))
    })
}

/// One letter a colour: the colour's own name when every name is one character (text input), else
/// a, b, ..., z, A, ..., Z, 0, ... in order of first appearance (JSON names).
pub(crate) fn letters_of(colours: &[String]) -> Vec<char> {
    let single: Option<Vec<char>> = colours
        .iter()
        .map(|n| {
            let mut cs = n.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        })
        .collect();
    single.unwrap_or_else(|| {
        let alphabet: Vec<char> = ('a'..='z').chain('A'..='Z').chain('0'..='9').collect();
        (0..colours.len()).map(|i| alphabet.get(i).copied().unwrap_or('?')).collect()
    })
}

/// Whether `text` looks like a JSON level rather than level lines.
pub fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('[')
}

/// A level line's name (`line N` when it has none) and its tubes' text.
pub(crate) fn name_and_body(line: &str, number: usize) -> (String, &str) {
    match line.split_once(':') {
        Some((name, body)) => (name.trim().to_string(), body),
        None => (format!("line {number}"), line),
    }
}

fn parse_line(line: &str, number: usize, capacity: usize) -> Result<Level, LevelError> {
    let (name, body) = name_and_body(line, number);
    let mut colours: Vec<String> = Vec::new();
    let mut tubes = Vec::new();
    for (t, word) in body.split_whitespace().enumerate() {
        let mut tube = Vec::new();
        if word != "-" {
            for character in word.chars() {
                if !character.is_ascii_alphabetic() {
                    return Err(Problem::UnknownCharacter { tube: t + 1, character }.at(Some(number)));
                }
                tube.push(colour_index(&mut colours, &character.to_string()));
            }
        }
        tubes.push(tube);
    }
    Level::new(name, capacity, colours, tubes).map_err(|p| p.at(Some(number)))
}

/// The index of colour `name`, added on first sight. Callers stop at [`MAX_COLOURS`] through
/// [`Level::new`]; an index past 255 saturates and is reported there.
pub(crate) fn colour_index(colours: &mut Vec<String>, name: &str) -> u8 {
    let i = colours.iter().position(|c| c == name).unwrap_or_else(|| {
        colours.push(name.to_string());
        colours.len() - 1
    });
    u8::try_from(i).unwrap_or(u8::MAX)
}

/// Reads a JSON level: an array of tubes, each an array of colour names bottom to top. `"Empty"` entries
/// (or an empty array, or a tube that is the string `"Empty"`) are space.
pub fn parse_json(text: &str, name: &str, capacity: usize) -> Result<Level, LevelError> {
    let mut colours = Vec::new();
    let mut tubes = Vec::new();
    for units in json_tubes(text)? {
        let tube: Vec<u8> = units.iter().filter(|u| *u != "Empty").map(|u| colour_index(&mut colours, u)).collect();
        if colours.len() > MAX_COLOURS {
            return Err(Problem::TooManyColours { colours: colours.len() }.at(None));
        }
        tubes.push(tube);
    }
    Level::new(name, capacity, colours, tubes).map_err(|p| p.at(None))
}

/// The tubes of a JSON level as the names in them, `"Empty"` included (a tube that is the string `"Empty"`
/// is an empty list).
pub(crate) fn json_tubes(text: &str) -> Result<Vec<Vec<String>>, LevelError> {
    let json = |m: String| Problem::Json(m).at(None);
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| json(e.to_string()))?;
    let array = value.as_array().ok_or_else(|| json("the level must be an array of tubes".into()))?;
    array
        .iter()
        .enumerate()
        .map(|(t, tube)| match tube {
            serde_json::Value::String(s) if s == "Empty" => Ok(Vec::new()),
            serde_json::Value::Array(units) => units
                .iter()
                .map(|u| {
                    u.as_str()
                        .map(String::from)
                        .ok_or_else(|| json(format!("tube {}: a colour must be a string", t + 1)))
                })
                .collect(),
            _ => Err(json(format!("tube {}: must be an array of colour names", t + 1))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Problem {
        parse_levels(text, 4).remove(0).unwrap_err().problem
    }

    #[test]
    fn reads_names_tubes_and_comments() {
        let levels = parse_levels("# comment\n\nl1: aabb bbaa - # trailing\nabab baba -\n", 4);
        assert_eq!(levels.len(), 2);
        let l1 = levels[0].as_ref().unwrap();
        assert_eq!(l1.name(), "l1");
        assert_eq!(l1.tubes(), &[vec![0, 0, 1, 1], vec![1, 1, 0, 0], vec![]]);
        assert_eq!(l1.to_line(), "l1: aabb bbaa -");
        assert_eq!(levels[1].as_ref().unwrap().name(), "line 4");
    }

    #[test]
    fn rejects_each_malformation_with_its_place() {
        assert_eq!(problem("x: aaaaa -"), Problem::OverCapacity { tube: 1, units: 5, capacity: 4 });
        assert_eq!(problem("x: aaaa a1 -"), Problem::UnknownCharacter { tube: 2, character: '1' });
        assert_eq!(problem("x: aaa -"), Problem::ColourCount { colour: "a".into(), count: 3, capacity: 4 });
        assert_eq!(problem("x: aaaa"), Problem::TooFewTubes { tubes: 1 });
        let err = parse_levels("\n\nx: aaa -", 4).remove(0).unwrap_err();
        assert_eq!(err.to_string(), "line 3: colour a has 3 units, not a multiple of the capacity 4");
    }

    #[test]
    fn a_bad_line_does_not_stop_the_others() {
        let levels = parse_levels("a: aaaa -\nb: aa -\nc: bbbb -", 4);
        assert!(levels[0].is_ok() && levels[1].is_err() && levels[2].is_ok());
    }

    #[test]
    fn reads_json_with_empty_markers() {
        let level = parse_json(r#"[["Red","Blue"],["Blue","Red"],[],["Empty","Empty"],"Empty"]"#, "j", 2).unwrap();
        assert_eq!(level.colours(), &["Red".to_string(), "Blue".to_string()]);
        assert_eq!(level.tubes().len(), 5);
        assert_eq!(level.to_line(), "j: ab ba - - -");
        assert!(matches!(parse_json("[[1]]", "j", 2).unwrap_err().problem, Problem::Json(_)));
        assert!(matches!(parse_json("[[", "j", 2).unwrap_err().problem, Problem::Json(_)));
    }
}
