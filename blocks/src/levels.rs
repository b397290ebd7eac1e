//! The built-in levels: four classic Klotski (华容道) layouts on the 5x4 board, exit at the bottom middle,
//! the 2x2 piece B (曹操, Cao Cao) to reach row 3, col 1; and two 6x6 Rush Hour levels, the red car A to
//! leave on the right of row 2 (so its goal is row 2, col 4), the cars written in lowercase (locked to
//! their long axis).
//!
//! The English names are literal translations of the Chinese idioms: these layouts have no settled English
//! names (English sources call the whole family Klotski or Huarong Road). Their fewest moves in each metric
//! are asserted by breadth-first search in `tests/levels.rs` and listed in `docs/benchmarks/blocks.md`; the
//! piece-metric figures of the four Klotski layouts (81, 70, 60, 72) are the ones puzzle books and sites
//! publish for them.

/// A built-in level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Builtin {
    /// The name users type: lowercase pinyin or English, words joined by `-`.
    pub name: &'static str,
    /// The Chinese name.
    pub chinese: &'static str,
    /// The English name.
    pub english: &'static str,
    /// The level in the text form.
    pub text: &'static str,
}

/// Every built-in level, Klotski first.
pub const ALL: &[Builtin] = &[
    Builtin {
        name: "heng-dao-li-ma",
        chinese: "横刀立马",
        english: "Sword across, horse reined in",
        text: "ABBC/ABBC/DEEF/DGHF/I..J B@3,1",
    },
    Builtin {
        name: "zhi-hui-ruo-ding",
        chinese: "指挥若定",
        english: "Commanding with composure",
        text: "ABBC/ABBC/GEEH/DIJF/D..F B@3,1",
    },
    Builtin {
        name: "qi-tou-bing-jin",
        chinese: "齐头并进",
        english: "Advancing side by side",
        text: "ABBC/ABBC/GHIJ/DEEF/D..F B@3,1",
    },
    Builtin {
        name: "bing-fen-san-lu",
        chinese: "兵分三路",
        english: "Troops in three columns",
        text: "GBBH/ABBC/AEEC/DIJF/D..F B@3,1",
    },
    Builtin {
        name: "rush-hour-jam",
        chinese: "交通堵塞",
        english: "Traffic jam",
        // A short level written for this crate: 7 line moves.
        text: "bbb..c/d..e.c/daae.c/d..eff/g.hhi./g.jji. A@2,4",
    },
    Builtin {
        name: "rush-hour-wall",
        chinese: "一墙之隔",
        english: "A wall apart",
        // Thirteen cars and a wall cell (`#`) that no car passes: 60 line moves.
        text: "ibb#../i..ldd/jaal../j.keem/ffk..m/gghhhm A@2,4",
    },
];

/// The built-in level called `name` (its name, or its Chinese name).
pub fn find(name: &str) -> Option<&'static Builtin> {
    ALL.iter().find(|b| b.name == name || b.chinese == name)
}

/// The names users type, in [`ALL`]'s order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|b| b.name).collect()
}
