//! How many nodes dual lookups save, measured with a plain IDA* (no duplicate-path automaton, children in a
//! fixed order, every estimate computed from scratch) so that the only difference between the two runs is
//! the estimate: the engine's (regular and reflected lookups) alone, or maxed with the dual one (and the
//! dual of the reflection). The engine's own node counts are lower (its automaton prunes more); what this
//! measures is the ratio.
//!
//! With `DIDA=1` the second run is also a dual search (Zahavi, Felner, Holte and Schaeffer's DIDA*) as far as
//! the tile puzzle allows one: at a node whose blank is home, the dual `s⁻¹` is an ordinary position exactly as
//! far from the goal (`engine::dual`), so when the tables say more of `s⁻¹` than of `s`, the search goes on
//! from `s⁻¹` (its children's lookups are then the larger ones); the parent move is forgotten at the jump, since
//! the path so far is not a path of `s⁻¹`. Where the blank is elsewhere, the dual is a position of another
//! puzzle (the one whose blank is tile `b`), for which there are no tables, so no jump is made there.
//!
//! `cargo run --release -p engine --example dual_nodes -- PDBS_DIR INSTANCES_FILE [BOARD] [PARTITION] [COUNT]`

use engine::dual::{Dual, DualEstimate};
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use puzzle::pdb_file::{Expect, PdbFile};
use puzzle::{Board, Dir, Goal, Partition, State};
use std::path::PathBuf;
use std::time::Instant;

struct Ida<'a> {
    regular: &'a Solver,
    dual: Option<&'a DualEstimate<'a>>,
    bpmx: bool,
    /// Dual search: jump to the dual at blank-home nodes where its tables' estimate is larger.
    jumps: bool,
    nodes: u64,
    jumped: u64,
}

impl Ida<'_> {
    fn h(&self, s: &State) -> u32 {
        let r = self.regular.estimate(s);
        match self.dual {
            Some(d) => r.max(d.estimate(s)).max(d.estimate(&s.transposed())),
            None => r,
        }
    }

    /// Visits `s` (estimate `h`) at cost `g`; returns whether the goal was found and the estimate `s` ends
    /// with, which BPMX may have raised (a child's estimate less one is a bound for its parent too).
    fn dfs(&mut self, s: &mut State, g: u32, h: u32, bound: u32, back: Option<Dir>, next: &mut u32) -> (bool, u32) {
        self.nodes += 1;
        if g + h > bound {
            *next = (*next).min(g + h);
            return (false, h);
        }
        if s.is_goal() {
            return (true, h);
        }
        if let Some(mut d) = self.jumps.then(|| Dual::of(s).home_position(s.board())).flatten() {
            if self.regular.estimate(&d) > self.regular.estimate(s) {
                self.jumped += 1;
                return self.dfs_children(&mut d, g, h, bound, None, next);
            }
        }
        self.dfs_children(s, g, h, bound, back, next)
    }

    fn dfs_children(
        &mut self,
        s: &mut State,
        g: u32,
        mut h: u32,
        bound: u32,
        back: Option<Dir>,
        next: &mut u32,
    ) -> (bool, u32) {
        let mut children = [(Dir::Up, 0u32); 4];
        let mut n = 0;
        for dir in Dir::ALL {
            if Some(dir) == back || !s.move_blank(dir) {
                continue;
            }
            let hc = self.h(s);
            s.move_blank(dir.opposite());
            if self.bpmx {
                h = h.max(hc.saturating_sub(1));
            }
            children[n] = (dir, hc);
            n += 1;
        }
        for &(dir, hc) in &children[..n] {
            if g + h > bound {
                *next = (*next).min(g + h);
                return (false, h);
            }
            s.move_blank(dir);
            let (found, hc) = self.dfs(s, g + 1, hc, bound, Some(dir.opposite()), next);
            s.move_blank(dir.opposite());
            if found {
                return (true, h);
            }
            if self.bpmx {
                h = h.max(hc.saturating_sub(1));
            }
        }
        (false, h)
    }

    fn solve(&mut self, s: &State) -> u32 {
        let mut bound = self.h(s);
        loop {
            let mut next = u32::MAX;
            if self.dfs(&mut s.clone(), 0, self.h(s), bound, None, &mut next).0 {
                return bound;
            }
            bound = next;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = PathBuf::from(&args[1]);
    let text = std::fs::read_to_string(&args[2]).unwrap();
    let board: Board = args.get(3).map_or("4x4", String::as_str).parse().unwrap();
    let partition = args.get(4).map_or("7-8", String::as_str);
    let count: usize = args.get(5).map_or(100, |c| c.parse().unwrap());
    let spec = TableSpec { dir: dir.clone(), partitions: vec![partition.into()], lookups: Lookups::Reflected };
    let regular = Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |_| {}).unwrap();
    let p = Partition::parse(board, partition).unwrap();
    let files: Vec<PdbFile> = p
        .patterns
        .iter()
        .map(|pat| PdbFile::open(&dir.join(puzzle::partition::file_name(board, pat)), &Expect::default()).unwrap())
        .collect();
    let dual = DualEstimate::new(board, &files);
    let (mut total, mut total_dual, mut jumped) = (0u64, 0u64, 0u64);
    for line in text.lines().filter_map(|l| puzzle::parse_line(board, Goal::BlankFirst, l).ok().flatten()).take(count) {
        let s = line.state;
        let t = Instant::now();
        let mut a = Ida { regular: &regular, dual: None, bpmx: false, jumps: false, nodes: 0, jumped: 0 };
        let la = a.solve(&s);
        let ta = t.elapsed();
        let t = Instant::now();
        let mut b = Ida {
            regular: &regular,
            dual: Some(&dual),
            bpmx: std::env::var_os("BPMX").is_some(),
            jumps: std::env::var_os("DIDA").is_some(),
            nodes: 0,
            jumped: 0,
        };
        let lb = b.solve(&s);
        let tb = t.elapsed();
        assert_eq!(la, lb, "{s}: lengths differ");
        total += a.nodes;
        total_dual += b.nodes;
        jumped += b.jumped;
        println!("{s}\t{la}\t{}\t{}\t{:.3}\t{:.3}", a.nodes, b.nodes, ta.as_secs_f64(), tb.as_secs_f64());
    }
    println!(
        "total nodes: {total} regular+reflected, {total_dual} with dual lookups ({:.2}x fewer; {jumped} jumps to the dual)",
        total as f64 / total_dual as f64
    );
}
