//! Levels with hidden colours ("mystery" levels): many games show only the top unit of each tube and
//! reveal a unit when the units above it are poured away. Written `?` in level text.
//!
//! Every colour still fills exactly one tube, so the hidden units' multiset is known: each colour's
//! capacity minus its visible units, and colours never seen yet fill the rest. An *assignment* puts those
//! units on the `?` places; every assignment is a plain level.
//!
//! Pours before the first reveal move only visible units, so where they are legal and when the first
//! reveal comes do not depend on the assignment. [`plan`] therefore answers with the pours up to the first
//! reveal (a pour that uncovers a `?`), chosen thus (the exact criterion):
//!
//! 1. The assignments checked: of all of them when there are at most [`Sampling::exhaustive_up_to`], else
//!    of uniform draws (with repetition, from a fixed seed) until [`Sampling::sample`] are kept or ten
//!    times as many drawn, those whose level can be sorted from the position at all (a game's level can
//!    be, so the others are not the real one).
//! 2. The candidates: for each assignment checked, the pours of a fewest-pours solution of its level (A*
//!    with `bottoms`) up to and including the first reveal; then every single pour that reveals at once.
//! 3. Each candidate's score: the number of assignments checked whose level can still be sorted after its
//!    pours (a proof by exhaustive search either way). A candidate with every one is *safe*; when the
//!    assignments were all checked, that is proved.
//! 4. Among the safe candidates, the one with the fewest pours to a full solution in the best case:
//!    `min over checked assignments a` of its pours plus the fewest pours that sort a's level after them.
//!    Without a safe candidate, the highest score, and among those the same best case. Remaining ties go
//!    to the candidate found first (assignments in the order of step 1).

use crate::hint::{solvable_with_progress, Sortable};
use crate::level::{colour_index, is_json, name_and_body, Level, LevelError, Problem, MAX_COLOURS};
use crate::play::{IllegalPour, Pour, Tubes};
use crate::rule::Rule;
use crate::solve::{solve_with_progress, time_left, Options, Outcome, Progress, Solution, SolveError};
use crate::{Heuristic, Model};
use search::rng::SplitMix64;

/// Whether level input holds a hidden unit: `?` outside comments in level lines, a `"?"` unit in JSON (whose
/// colour names may hold `#`, as in `"#ff0000"`: JSON has no comments).
pub fn has_hidden(text: &str) -> bool {
    if is_json(text) {
        // A JSON string cannot hold a bare quote, so `"?"` is always a whole unit's name.
        return text.contains("\"?\"");
    }
    text.lines().any(|l| l.split('#').next().unwrap_or("").contains('?'))
}

/// A hidden unit's code in [`Mystery::tubes`].
pub const HIDDEN: u8 = u8::MAX;

/// A level with hidden units. Colours are numbered as in [`Level`]; colours not yet seen are named with
/// letters the level does not use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mystery {
    name: String,
    capacity: usize,
    colours: Vec<String>,
    tubes: Vec<Vec<u8>>,
    /// A pour that uncovered a hidden unit and goes on if that unit is its colour: (pour, colour, rule).
    pending: Option<(Pour, u8, Rule)>,
}

/// How many assignments [`plan`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Check every assignment when there are at most this many.
    pub exhaustive_up_to: u64,
    /// Otherwise, check this many drawn at random.
    pub sample: usize,
    /// The seed of the draws.
    pub seed: u64,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling { exhaustive_up_to: 1000, sample: 200, seed: 1 }
    }
}

/// The pours to make until the first reveal, and how sure they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The pours, the last of them uncovering a hidden unit (unless no reveal is needed); none when every
    /// assignment checked is sorted already.
    pub pours: Vec<Pour>,
    /// Whether the last pour reveals a unit.
    pub reveals: bool,
    /// Assignments checked whose level can be sorted from the position (the others cannot be the game's).
    pub checked: usize,
    /// Assignments drawn but left out: their level cannot be sorted from the position at all.
    pub unsortable: usize,
    /// Among them, those whose level can still be sorted after the pours.
    pub sortable_for: usize,
    /// Whether every assignment was checked (else a random sample).
    pub exhaustive: bool,
    /// Every assignment there is (saturating).
    pub assignments: u64,
    /// Fewest pours to a full solution over the assignments checked (the pours included).
    pub best_case: usize,
}

impl Plan {
    /// Safe: the level can still be sorted after the pours for every assignment checked.
    pub fn safe(&self) -> bool {
        self.sortable_for == self.checked
    }
}

/// Why no plan can be made.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PlanError {
    /// No assignment of the hidden units gives a level that can be sorted.
    #[error("no assignment of the hidden units can be sorted: the level is unsolvable")]
    Unsolvable,
    /// The whole-run rule: whether a pour is allowed depends on the hidden units under the run.
    #[error("hidden units are played under the standard and one-unit rules only (under whole-run, whether a pour is allowed depends on what is hidden)")]
    WholeRun,
    /// A revealed unit's colour has not been told.
    #[error("a revealed unit's colour is still to be told")]
    Waiting,
    /// A limit stopped a search.
    #[error("a search stopped ({0}) before the plan was known")]
    Stopped(search::Stop),
    /// The solver failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Why a revealed colour is refused.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum RevealError {
    /// The tube's top is not hidden.
    #[error("tube {0} shows no hidden unit on top")]
    NotHidden(usize),
    /// The colour is not one of the level's, or all its hidden units are placed already.
    #[error("{0} cannot be hidden there: every unit of that colour is already in sight")]
    NoneLeft(String),
}

impl Mystery {
    /// Reads level text with `?` for hidden units, one result a level line (the form and the comments of
    /// [`crate::parse_levels`]).
    pub fn parse_all(text: &str, capacity: usize) -> Vec<Result<Mystery, LevelError>> {
        crate::level::level_lines(text).map(|(number, line)| Mystery::parse(line, number, capacity)).collect()
    }

    /// Reads level input of either form with hidden units, as [`crate::parse_input`] reads plain levels.
    pub fn parse_input(text: &str, name: &str, capacity: usize) -> Vec<Result<Mystery, LevelError>> {
        if is_json(text) {
            vec![Mystery::parse_json(text, name, capacity)]
        } else {
            Mystery::parse_all(text, capacity)
        }
    }

    /// Reads one level line with `?` for hidden units; `number` is its line in the input.
    pub fn parse(line: &str, number: usize, capacity: usize) -> Result<Mystery, LevelError> {
        let at = |problem: Problem| LevelError { line: Some(number), problem };
        let (name, body) = name_and_body(line, number);
        let mut colours: Vec<String> = Vec::new();
        let mut tubes = Vec::new();
        for (t, word) in body.split_whitespace().enumerate() {
            let mut tube = Vec::new();
            for character in word.chars().filter(|_| word != "-") {
                if character == '?' {
                    tube.push(HIDDEN);
                } else if character.is_ascii_alphabetic() {
                    // At most 52 letters: never the code of a hidden unit.
                    tube.push(colour_index(&mut colours, &character.to_string()));
                } else {
                    return Err(at(Problem::UnknownCharacter { tube: t + 1, character }));
                }
            }
            tubes.push(tube);
        }
        // Colours not seen yet: letters the level does not use.
        let unused = ('a'..='z').chain('A'..='Z').map(String::from).filter(|c| !colours.contains(c)).collect();
        Mystery::checked(name, capacity, colours, tubes, unused).map_err(at)
    }

    /// Reads a JSON level (the form of [`crate::parse_json`]) with `"?"` for hidden units. Colours not seen
    /// yet are named `unseen 1`, `unseen 2`, ...: which is which is unknown until revealed, so any order will do.
    pub fn parse_json(text: &str, name: &str, capacity: usize) -> Result<Mystery, LevelError> {
        let mut colours: Vec<String> = Vec::new();
        let mut tubes = Vec::new();
        for units in crate::level::json_tubes(text)? {
            let tube: Vec<u8> = units
                .iter()
                .filter(|u| *u != "Empty")
                .map(|u| if u == "?" { HIDDEN } else { colour_index(&mut colours, u) })
                .collect();
            if colours.len() > MAX_COLOURS {
                return Err(Problem::TooManyColours { colours: colours.len() }.at(None));
            }
            tubes.push(tube);
        }
        let unused =
            (1..).map(|k| format!("unseen {k}")).filter(|c| !colours.contains(c)).take(HIDDEN as usize).collect();
        Mystery::checked(name.to_string(), capacity, colours, tubes, unused).map_err(|p| p.at(None))
    }

    /// The checks both forms share, and the names of the colours not seen yet, taken from `unused` in order.
    fn checked(
        name: String,
        capacity: usize,
        mut colours: Vec<String>,
        tubes: Vec<Vec<u8>>,
        unused: Vec<String>,
    ) -> Result<Mystery, Problem> {
        if capacity == 0 {
            return Err(Problem::ZeroCapacity);
        }
        if let Some(t) = tubes.iter().position(|t| t.last() == Some(&HIDDEN)) {
            return Err(Problem::HiddenTop { tube: t + 1 });
        }
        let units: usize = tubes.iter().map(Vec::len).sum();
        let total = units / capacity;
        if !units.is_multiple_of(capacity) {
            return Err(Problem::MysteryUnits { units, capacity });
        }
        let missing = total.saturating_sub(colours.len());
        if missing > unused.len() {
            return Err(Problem::TooManyColours { colours: total });
        }
        colours.extend(unused.into_iter().take(missing));
        if colours.len() > MAX_COLOURS.min(HIDDEN as usize) {
            return Err(Problem::TooManyColours { colours: colours.len() });
        }
        let mystery = Mystery { name, capacity, colours, tubes, pending: None };
        for (c, colour) in mystery.colours.iter().enumerate() {
            let seen = mystery.tubes.iter().flatten().filter(|&&u| u == c as u8).count();
            if seen > capacity {
                return Err(Problem::OverOneTube { colour: colour.clone(), count: seen, capacity });
            }
        }
        // Every check of a plain level (tube count, capacity, width) on one assignment.
        Level::new(mystery.name.clone(), capacity, mystery.colours.clone(), mystery.assign(&mystery.hidden_units()))?;
        Ok(mystery)
    }

    /// A level seen with every unit below the tops hidden, as such games show it.
    pub fn hiding(level: &Level) -> Mystery {
        let tubes = level
            .tubes()
            .iter()
            .map(|t| t.iter().enumerate().map(|(i, &u)| if i + 1 == t.len() { u } else { HIDDEN }).collect())
            .collect();
        Mystery {
            name: level.name().to_string(),
            capacity: level.capacity(),
            colours: level.colours().to_vec(),
            tubes,
            pending: None,
        }
    }

    /// The tubes bottom to top, [`HIDDEN`] for a hidden unit.
    pub fn tubes(&self) -> &[Vec<u8>] {
        &self.tubes
    }

    /// Colour names, indexed by the numbers in [`Mystery::tubes`].
    pub fn colours(&self) -> &[String] {
        &self.colours
    }

    /// Units a tube holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The level's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Hidden units left.
    pub fn hidden(&self) -> usize {
        self.tubes.iter().flatten().filter(|&&u| u == HIDDEN).count()
    }

    /// The hidden units' colours, sorted: what the `?` places hold in some order.
    pub fn hidden_units(&self) -> Vec<u8> {
        let mut units = Vec::new();
        for c in 0..self.colours.len() {
            let seen = self.tubes.iter().flatten().filter(|&&u| u == c as u8).count();
            units.extend(std::iter::repeat_n(c as u8, self.capacity - seen));
        }
        units
    }

    /// The tubes with `assignment` on the `?` places, in tube order, bottom to top.
    fn assign(&self, assignment: &[u8]) -> Vec<Vec<u8>> {
        let mut next = assignment.iter();
        self.tubes
            .iter()
            .map(|t| t.iter().map(|&u| if u == HIDDEN { *next.next().unwrap_or(&0) } else { u }).collect())
            .collect()
    }

    /// The plain level of one assignment (from [`Mystery::hidden_units`] in some order).
    pub fn level(&self, assignment: &[u8]) -> Level {
        let tubes = self.assign(assignment);
        Level::new(self.name.clone(), self.capacity, self.colours.clone(), tubes)
            .expect("an assignment of the hidden units keeps every count of a checked mystery level")
    }

    /// Makes a pour of the units in sight; returns the tube whose top it uncovered, if hidden. The pour
    /// is then not over: a hidden unit of its colour would have gone with it, so [`Mystery::reveal`] goes
    /// on with the pour when the colour told matches. Only the standard and one-unit rules are played with
    /// hidden units: under whole-run, whether a pour is allowed depends on the units under the run.
    pub fn pour(&mut self, pour: Pour, rule: Rule) -> Result<Option<usize>, IllegalPour> {
        if rule == Rule::WholeRun {
            return Err(IllegalPour { pour, why: "hidden units are played under the standard and one-unit rules" });
        }
        if self.waiting().is_some() {
            return Err(IllegalPour { pour, why: "a revealed unit's colour is still to be told" });
        }
        let mut tubes = Tubes { capacity: self.capacity, tubes: std::mem::take(&mut self.tubes) };
        let colour = tubes.tubes.get(pour.from).and_then(|t| t.last().copied());
        let result = tubes.pour(pour, rule);
        self.tubes = tubes.tubes;
        let moved = result?;
        let uncovered = self.tubes[pour.from].last() == Some(&HIDDEN);
        // One-unit pours stop after one unit, so nothing goes on.
        let goes_on = rule == Rule::Standard && moved > 0 && self.tubes[pour.to].len() < self.capacity;
        self.pending = (uncovered && goes_on).then(|| (pour, colour.unwrap_or(HIDDEN), rule));
        Ok(uncovered.then_some(pour.from))
    }

    /// Tells the colour a reveal showed on top of `tube` (from 0). When the pour that uncovered it goes
    /// on (same colour, room left), the unit moves and the tube it leaves may show another hidden unit:
    /// that tube is returned, waiting for its colour.
    pub fn reveal(&mut self, tube: usize, colour: u8) -> Result<Option<usize>, RevealError> {
        if self.tubes.get(tube).and_then(|t| t.last()) != Some(&HIDDEN) {
            return Err(RevealError::NotHidden(tube + 1));
        }
        if !self.hidden_units().contains(&colour) {
            let name = self.colours.get(colour as usize).cloned().unwrap_or_else(|| format!("colour {colour}"));
            return Err(RevealError::NoneLeft(name));
        }
        *self.tubes[tube].last_mut().expect("checked above") = colour;
        match self.pending.take() {
            Some((pour, poured, rule)) if pour.from == tube && poured == colour => {
                self.tubes[tube].pop();
                self.tubes[pour.to].push(colour);
                let uncovered = self.tubes[tube].last() == Some(&HIDDEN);
                if uncovered && self.tubes[pour.to].len() < self.capacity {
                    self.pending = Some((pour, poured, rule));
                }
                Ok(uncovered.then_some(tube))
            }
            _ => Ok(None),
        }
    }

    /// The tube that shows a hidden unit on top, if any (a reveal waiting for its colour).
    pub fn waiting(&self) -> Option<usize> {
        self.tubes.iter().position(|t| t.last() == Some(&HIDDEN))
    }

    /// Every tube empty or full of one colour, nothing hidden.
    pub fn is_sorted(&self) -> bool {
        self.hidden() == 0 && Tubes { capacity: self.capacity, tubes: self.tubes.clone() }.is_solved()
    }

    /// One letter a colour, as [`Level::letters`] gives them.
    pub fn letters(&self) -> Vec<char> {
        crate::level::letters_of(&self.colours)
    }

    /// The level in the text form, `?` for hidden units, colours as [`Mystery::letters`] writes them.
    pub fn to_line(&self) -> String {
        let letters = self.letters();
        let tubes: Vec<String> = self
            .tubes
            .iter()
            .map(|t| {
                if t.is_empty() {
                    "-".to_string()
                } else {
                    t.iter().map(|&u| if u == HIDDEN { '?' } else { letters[u as usize] }).collect()
                }
            })
            .collect();
        format!("{}: {}", self.name, tubes.join(" "))
    }
}

/// Distinct orders of a sorted multiset (saturating at `u64::MAX`).
fn arrangements(units: &[u8]) -> u64 {
    let mut total: u128 = 1;
    let mut placed: u128 = 0;
    let mut run: u128 = 0;
    for (i, &u) in units.iter().enumerate() {
        run = if i > 0 && units[i - 1] == u { run + 1 } else { 1 };
        placed += 1;
        // total *= placed / run, kept whole: C(placed, run) grows one factor at a time.
        total = total * placed / run;
        if total > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    total as u64
}

/// The next distinct order of `units` in lexicographic order, or `false` after the last.
fn next_order(units: &mut [u8]) -> bool {
    let Some(i) = (1..units.len()).rev().find(|&i| units[i - 1] < units[i]) else { return false };
    let j = (i..units.len()).rev().find(|&j| units[j] > units[i - 1]).expect("units[i] is one");
    units.swap(i - 1, j);
    units[i..].reverse();
    true
}

/// The assignments [`plan`] draws from: every one (lexicographic order) when there are at most
/// [`Sampling::exhaustive_up_to`], else an endless stream of uniform draws from the seed; whether they are
/// all of them; and how many there are (saturating).
pub fn assignments(mystery: &Mystery, sampling: &Sampling) -> (Box<dyn Iterator<Item = Vec<u8>>>, bool, u64) {
    let units = mystery.hidden_units();
    let total = arrangements(&units);
    if total <= sampling.exhaustive_up_to {
        let mut next = Some(units);
        let all = std::iter::from_fn(move || {
            let current = next.take()?;
            let mut following = current.clone();
            next = next_order(&mut following).then_some(following);
            Some(current)
        });
        return (Box::new(all), true, total);
    }
    let mut rng = SplitMix64::new(sampling.seed);
    let draws = std::iter::repeat_with(move || {
        let mut order = units.clone();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        order
    });
    (Box::new(draws), false, total)
}

/// How far a plan has got, all its searches together.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanProgress {
    /// Nodes expanded so far: the searches finished and the one running (as of its last report).
    pub expanded: u64,
    /// Searches finished.
    pub searches: u64,
    /// Seconds since the plan began.
    pub seconds: f64,
}

/// The searches of one plan, counted for [`PlanProgress`].
struct Searches<'a> {
    started: std::time::Instant,
    expanded: u64,
    searches: u64,
    progress: &'a mut dyn FnMut(&PlanProgress),
}

impl Searches<'_> {
    fn report(&mut self) {
        let seconds = self.started.elapsed().as_secs_f64();
        (self.progress)(&PlanProgress { expanded: self.expanded, searches: self.searches, seconds });
    }

    /// Runs `search` (which gives its result and the nodes it expanded), telling the progress of it as it
    /// goes, then counting it.
    fn watched<T>(
        &mut self,
        search: impl FnOnce(&mut dyn FnMut(&Progress)) -> Result<(T, u64), SolveError>,
    ) -> Result<T, SolveError> {
        let (done, searches, started) = (self.expanded, self.searches, self.started);
        let progress = &mut *self.progress;
        let (found, expanded) = search(&mut |p| {
            if let Progress::Tick { expanded, .. } = *p {
                let seconds = started.elapsed().as_secs_f64();
                progress(&PlanProgress { expanded: done + expanded, searches, seconds });
            }
        })?;
        self.expanded += expanded;
        self.searches += 1;
        self.report();
        Ok(found)
    }

    /// What is left of the time limit for the next search, or `None` when nothing is: a search checks the
    /// clock only every few thousand expansions, so one started then might still end, and a plan of many
    /// small searches would never stop.
    fn time_left(&self, options: &Options) -> Option<Options> {
        let left = time_left(options, self.started);
        (left.limits.time != Some(std::time::Duration::ZERO)).then_some(left)
    }

    /// A search for the fewest pours, within what is left of the time limit.
    fn solve(&mut self, level: &Level, options: &Options) -> Result<Solution, SolveError> {
        let Some(options) = self.time_left(options) else {
            let stats = crate::solve::Stats::default();
            return Ok(Solution { outcome: Outcome::Stopped(search::Stop::TimeLimit), stats, words: 0 });
        };
        self.watched(|progress| {
            let solution = solve_with_progress(level, &options, progress)?;
            let expanded = solution.stats.expanded;
            Ok((solution, expanded))
        })
    }

    /// Whether `level` can be sorted, within what is left of the time limit.
    fn sortable(&mut self, level: &Level, options: &Options) -> Result<Sortable, SolveError> {
        let Some(options) = self.time_left(options) else { return Ok(Sortable::Unknown(search::Stop::TimeLimit)) };
        self.watched(|progress| {
            let (sortable, stats) = solvable_with_progress(level, &options, progress)?;
            Ok((sortable, stats.expanded))
        })
    }
}

/// The pours up to the first reveal (see the module's doc for how they are chosen); the time limit holds
/// for the plan as a whole, all its searches together.
pub fn plan(mystery: &Mystery, options: &Options, sampling: &Sampling) -> Result<Plan, PlanError> {
    plan_with_progress(mystery, options, sampling, &mut |_| {})
}

/// [`plan`], calling `progress` as its searches go (periodically during a long one, and after each).
pub fn plan_with_progress(
    mystery: &Mystery,
    options: &Options,
    sampling: &Sampling,
    progress: &mut dyn FnMut(&PlanProgress),
) -> Result<Plan, PlanError> {
    let mut searches = Searches { started: std::time::Instant::now(), expanded: 0, searches: 0, progress };
    if options.model.rule == Rule::WholeRun {
        return Err(PlanError::WholeRun);
    }
    if mystery.waiting().is_some() {
        return Err(PlanError::Waiting);
    }
    let optimal = Options { model: Model { heuristic: Heuristic::Bottoms, ..options.model }, ..options.clone() };
    let (orders, exhaustive, total) = assignments(mystery, sampling);
    // Step 2: candidates from each assignment's fewest-pours solution; assignments that cannot be sorted
    // from here at all are left out (the game's level can be sorted, so they are not the real one). When
    // sampling, draws go on until `sample` sortable ones are found (or ten times as many draws).
    let mut candidates: Vec<(Vec<Pour>, bool)> = Vec::new();
    let mut levels = Vec::new();
    let mut sorted = 0;
    let mut drawn = 0;
    for order in orders {
        if !exhaustive && (levels.len() == sampling.sample || drawn == 10 * sampling.sample) {
            break;
        }
        drawn += 1;
        let level = mystery.level(&order);
        match searches.solve(&level, &optimal)?.outcome {
            // Sorted already under this assignment: no pours to learn from (a game would show the end).
            Outcome::Solved(pours) if pours.is_empty() => sorted += 1,
            Outcome::Solved(pours) => {
                let cut = up_to_reveal(mystery, options, &pours);
                if !candidates.contains(&cut) {
                    candidates.push(cut);
                }
            }
            Outcome::Unsolvable => continue,
            Outcome::Stopped(why) => return Err(PlanError::Stopped(why)),
        }
        levels.push(level);
    }
    let unsortable = drawn - levels.len();
    // Also every single pour that reveals at once: the alternatives nearest at hand, cheap to score.
    if !candidates.is_empty() {
        let n = mystery.tubes.len();
        for pour in (0..n).flat_map(|from| (0..n).map(move |to| Pour { from, to })).filter(|p| p.from != p.to) {
            let mut seen = mystery.clone();
            if let Ok(Some(_)) = seen.pour(pour, options.model.rule) {
                let single = (vec![pour], true);
                if !candidates.contains(&single) {
                    candidates.push(single);
                }
            }
        }
    }
    if candidates.is_empty() {
        // Every assignment left is sorted already, or none can be sorted.
        if sorted == 0 {
            return Err(PlanError::Unsolvable);
        }
        let none = Plan {
            pours: vec![],
            reveals: false,
            checked: levels.len(),
            unsortable,
            sortable_for: sorted,
            exhaustive,
            assignments: total,
            best_case: 0,
        };
        return Ok(none);
    }
    // Step 3 and 4: scores, then the best case of the best-scored.
    let mut scored = Vec::new();
    for (pours, reveals) in candidates {
        let mut sortable_for = 0;
        for level in &levels {
            let after = after_pours(level, options, &pours);
            match searches.sortable(&after, options)? {
                Sortable::Yes => sortable_for += 1,
                Sortable::No => {}
                Sortable::Unknown(why) => return Err(PlanError::Stopped(why)),
            }
        }
        scored.push((pours, reveals, sortable_for));
    }
    let top = scored.iter().map(|s| s.2).max().unwrap_or(0);
    let mut best: Option<Plan> = None;
    for (pours, reveals, sortable_for) in scored.into_iter().filter(|s| s.2 == top) {
        let mut best_case = usize::MAX;
        for level in &levels {
            let after = after_pours(level, options, &pours);
            match searches.solve(&after, &optimal)?.outcome {
                Outcome::Solved(rest) => best_case = best_case.min(pours.len() + rest.len()),
                Outcome::Unsolvable => {}
                Outcome::Stopped(why) => return Err(PlanError::Stopped(why)),
            }
        }
        if best.as_ref().is_none_or(|b| best_case < b.best_case) {
            best = Some(Plan {
                pours,
                reveals,
                checked: levels.len(),
                unsortable,
                sortable_for,
                exhaustive,
                assignments: total,
                best_case,
            });
        }
    }
    best.ok_or(PlanError::Unsolvable)
}

/// `pours` cut after the first that uncovers a hidden unit of `mystery`, and whether one did.
fn up_to_reveal(mystery: &Mystery, options: &Options, pours: &[Pour]) -> (Vec<Pour>, bool) {
    let mut seen = mystery.clone();
    for (i, &pour) in pours.iter().enumerate() {
        match seen.pour(pour, options.model.rule) {
            Ok(Some(_)) => return (pours[..=i].to_vec(), true),
            Ok(None) => {}
            // Cannot happen: before a reveal every pour moves units in sight, legal in every assignment
            // (under the rules hidden units are played with).
            Err(_) => return (pours[..i].to_vec(), false),
        }
    }
    (pours.to_vec(), false)
}

/// The position of `level` after `pours` (legal: they move only units in sight).
fn after_pours(level: &Level, options: &Options, pours: &[Pour]) -> Level {
    let mut tubes = Tubes::new(level);
    for &pour in pours {
        let _ = tubes.pour(pour, options.model.rule);
    }
    level.with_tubes(tubes.tubes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, Spec};
    use crate::solve::solve;

    fn mystery(line: &str, capacity: usize) -> Mystery {
        Mystery::parse(line, 1, capacity).unwrap()
    }

    #[test]
    fn reads_hidden_units_and_refuses_what_cannot_be() {
        let m = mystery("m: ??a ?bb ?ab -", 3);
        assert_eq!(m.colours(), &["a".to_string(), "b".into(), "c".into()]);
        assert_eq!(m.hidden_units(), vec![0, 2, 2, 2]);
        assert_eq!(m.hidden(), 4);
        assert_eq!(m.to_line(), "m: ??a ?bb ?ab -");
        assert_eq!(arrangements(&m.hidden_units()), 4);
        let err = |line: &str| Mystery::parse(line, 1, 3).unwrap_err().to_string();
        assert_eq!(err("m: ??a ?bb ?a? -"), "line 1: tube 3: its top unit is hidden, but a game always shows it");
        assert_eq!(err("m: aa? aab -"), "line 1: tube 1: its top unit is hidden, but a game always shows it");
        assert_eq!(
            err("m: ?aa aab -"),
            "line 1: colour a shows 4 units, but with hidden units every colour fills one tube of 3"
        );
        assert_eq!(err("m: ?a ?ab -"), "line 1: 5 units cannot fill tubes of 3 (every colour fills one tube)");
    }

    #[test]
    fn reads_hidden_units_in_json() {
        let m =
            Mystery::parse_json(r#"[["?","?","Red"],["?","Blue","Blue"],["?","Red","Blue"],"Empty"]"#, "j", 3).unwrap();
        assert_eq!(m.colours(), &["Red".to_string(), "Blue".into(), "unseen 1".into()]);
        // The same level as its line, up to the colours' names.
        let line = mystery("j: ??a ?bb ?ab -", 3);
        assert_eq!((m.tubes(), m.hidden_units()), (line.tubes(), line.hidden_units()));
        let plan = |m: &Mystery| plan(m, &Options::default(), &Sampling::default()).unwrap();
        assert_eq!(plan(&m), plan(&line));
        let err = |text: &str| Mystery::parse_json(text, "j", 3).unwrap_err().to_string();
        assert_eq!(err(r#"[["Red","?"],["Red","Red"]]"#), "tube 1: its top unit is hidden, but a game always shows it");
        assert_eq!(
            err(r#"[["?","Red"],["Red","Blue"]]"#),
            "4 units cannot fill tubes of 3 (every colour fills one tube)"
        );
        assert!(err(r#"[["?", 1]]"#).contains("tube 1: a colour must be a string"));
    }

    #[test]
    fn every_distinct_assignment_once() {
        let mut units = vec![0, 0, 1, 2];
        let mut seen = vec![units.clone()];
        while next_order(&mut units) {
            seen.push(units.clone());
        }
        assert_eq!(seen.len(), 12);
        assert_eq!(arrangements(&[0, 0, 1, 2]), 12);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 12);
    }

    /// The "safe" claim, on small levels whose assignments are all checked: the pours leave a sortable
    /// level for every assignment, checked again by plain uniform-cost search; and the best case is the
    /// fewest pours over the assignments.
    #[test]
    fn safe_plans_are_safe_for_every_assignment() {
        let spec = Spec { colours: 3, empty: 1, capacity: 3, count: 25, seed: 4, attempts: 10_000 };
        let options = Options::default();
        let plain = Options { model: Model { heuristic: Heuristic::Zero, ..Model::default() }, ..Options::default() };
        let mut safe = 0;
        for level in generate(&spec, &options).unwrap() {
            let m = Mystery::hiding(&level);
            let p = plan(&m, &options, &Sampling::default()).unwrap();
            assert!(p.exhaustive);
            let orders: Vec<Vec<u8>> = assignments(&m, &Sampling::default()).0.collect();
            let mut sortable = 0;
            let mut feasible = 0;
            let mut fewest = usize::MAX;
            for order in &orders {
                let l = m.level(order);
                let Outcome::Solved(all) = solve(&l, &plain).unwrap().outcome else { continue };
                feasible += 1;
                fewest = fewest.min(all.len());
                let after = after_pours(&l, &options, &p.pours);
                if let Outcome::Solved(rest) = solve(&after, &plain).unwrap().outcome {
                    sortable += 1;
                    assert!(p.pours.len() + rest.len() >= p.best_case);
                }
            }
            assert_eq!((sortable, feasible), (p.sortable_for, p.checked), "{}", m.to_line());
            assert_eq!(p.checked + p.unsortable, orders.len());
            assert!(p.best_case >= fewest);
            safe += usize::from(p.safe());
        }
        assert!(safe > 0, "no safe plan among 25 levels: the check checked nothing");
    }

    /// A session played to the end with the true colours told at each reveal: on 100 generated levels
    /// seen as a game shows them, every one gets sorted.
    #[test]
    fn sessions_with_scripted_reveals_reach_the_goal() {
        let spec = Spec { colours: 5, empty: 2, capacity: 4, count: 100, seed: 8, attempts: 10_000 };
        let options = Options::default();
        let sampling = Sampling { exhaustive_up_to: 200, sample: 40, seed: 1 };
        for truth in generate(&spec, &options).unwrap() {
            let mut seen = Mystery::hiding(&truth);
            let mut real = Tubes::new(&truth);
            let mut rounds = 0;
            // Until the game shows the level sorted (hidden units may stay buried under sorted runs).
            while !real.is_solved() {
                rounds += 1;
                assert!(rounds <= 100, "{} does not end", truth.to_line());
                let p = plan(&seen, &options, &sampling).unwrap_or_else(|e| panic!("{}: {e}", seen.to_line()));
                for &pour in &p.pours {
                    let before = real.clone();
                    real.pour(pour, options.model.rule).unwrap();
                    let mut uncovered = seen.pour(pour, options.model.rule).unwrap();
                    while let Some(tube) = uncovered {
                        // The unit uncovered was there before the pour, at the same height.
                        uncovered = seen.reveal(tube, before.tubes[tube][seen.tubes()[tube].len() - 1]).unwrap();
                    }
                    for (s, r) in seen.tubes().iter().zip(&real.tubes) {
                        assert_eq!(s.len(), r.len());
                        assert!(s.iter().zip(r).all(|(&a, &b)| a == HIDDEN || a == b), "{}", seen.to_line());
                    }
                }
            }
            assert!(real.is_solved());
        }
    }

    /// A time limit bounds the plan, not each of its searches: each gets what is left.
    #[test]
    fn the_time_limit_holds_for_the_whole_plan() {
        let m = mystery("m: ??a ?bb ?ab -", 3);
        let long = Options {
            limits: search::Limits { time: Some(std::time::Duration::from_secs(10)), ..Default::default() },
            ..Options::default()
        };
        let started = std::time::Instant::now() - std::time::Duration::from_secs(4);
        assert!(time_left(&long, started).limits.time.unwrap() <= std::time::Duration::from_secs(6));
        assert!(plan(&m, &long, &Sampling::default()).is_ok());
    }

    #[test]
    fn reveals_are_checked() {
        let mut m = mystery("m: ??a ?bb ?ab -", 3);
        assert_eq!(m.reveal(0, 0), Err(RevealError::NotHidden(1)));
        let options = Options::default();
        assert_eq!(m.pour(Pour { from: 0, to: 3 }, options.model.rule).unwrap(), Some(0));
        assert_eq!(m.waiting(), Some(0));
        assert!(m.pour(Pour { from: 1, to: 3 }, options.model.rule).is_err(), "a reveal is waiting");
        assert_eq!(m.reveal(0, 1), Err(RevealError::NoneLeft("b".into())));
        assert_eq!(m.reveal(0, 2), Ok(None));
        assert_eq!(m.to_line(), "m: ?c ?bb ?ab a");
        // The uncovered unit is the poured colour: it goes on, and uncovers the next.
        let mut m = mystery("m: ??a ?bb ?cb -", 3);
        assert_eq!(m.pour(Pour { from: 0, to: 3 }, Rule::Standard).unwrap(), Some(0));
        assert_eq!(m.reveal(0, 0), Ok(Some(0)));
        assert_eq!(m.to_line(), "m: ? ?bb ?cb aa");
        assert_eq!(m.reveal(0, 2), Ok(None));
        assert_eq!(m.to_line(), "m: c ?bb ?cb aa");
        assert!(m.pour(Pour { from: 1, to: 3 }, Rule::WholeRun).is_err());
    }
}
