//! The puzzles this build serves, in the order the page offers them: the first is the one a request means
//! when it names none. A puzzle joins with one line here (see ARCHITECTURE.md, "How a puzzle joins").

use crate::served::WebPuzzle;
use std::sync::OnceLock;

/// Every puzzle of this build, the default first.
pub fn puzzles() -> &'static [Box<dyn WebPuzzle>] {
    static PUZZLES: OnceLock<Vec<Box<dyn WebPuzzle>>> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        let mut puzzles: Vec<Box<dyn WebPuzzle>> = vec![Box::new(crate::tiles::web::SlidingTiles)];
        #[cfg(feature = "water")]
        puzzles.push(Box::new(crate::water::web::WaterSort));
        puzzles.push(Box::new(crate::blocks::web::SlidingBlocks));
        puzzles
    })
}

/// The puzzle named `name`.
pub fn find(name: &str) -> Option<&'static dyn WebPuzzle> {
    puzzles().iter().find(|p| p.name() == name).map(|p| p.as_ref())
}

/// The puzzle a request means when it names none.
pub fn default_puzzle() -> &'static dyn WebPuzzle {
    puzzles()[0].as_ref()
}

/// The names of every puzzle, for a refusal of an unknown one.
pub fn names() -> String {
    puzzles().iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}
