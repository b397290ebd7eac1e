//! Textbook mode against a textbook IDA* and a textbook A* written here from the convention alone
//! (docs/textbook.md), on the user's own board and goal: the same nodes (IDA*'s iteration by iteration),
//! and the same first solution. The estimate of each node comes from the solver (so that every heuristic
//! is checked); the searches are this file's.

use engine::{Counts, HeuristicChoice, Iteration, Limits, Lookups, Settings, Solver, TableSpec};
use puzzle::{parse_tiles, Board, Goal};

/// A textbook IDA* over the tiles as written (`0` the blank) toward `goal`, `h` the estimate of a
/// position: each iteration's bound and nodes, and the tiles moved.
fn textbook_ida(tiles: &[u8], cols: usize, h: &dyn Fn(&[u8]) -> u32) -> (Vec<Iteration>, Vec<u8>) {
    struct Run<'a> {
        tiles: Vec<u8>,
        cols: usize,
        bound: u32,
        counts: Counts,
        next: u32,
        path: Vec<u8>,
        h: &'a dyn Fn(&[u8]) -> u32,
    }
    impl Run<'_> {
        /// Where the blank on `b` goes moving up (0), down (1), left (2) or right (3), if it stays on the board.
        fn step(&self, b: usize, d: usize) -> Option<usize> {
            let (rows, cols) = (self.tiles.len() / self.cols, self.cols);
            let (r, c) = (b / cols, b % cols);
            match d {
                0 => (r > 0).then(|| b - cols),
                1 => (r + 1 < rows).then(|| b + cols),
                2 => (c > 0).then(|| b - 1),
                _ => (c + 1 < cols).then(|| b + 1),
            }
        }

        fn visit(&mut self, blank: usize, g: u32, hv: u32, came: Option<usize>) -> bool {
            if g + hv > self.bound {
                self.next = self.next.min(g + hv);
                return false;
            }
            if hv == 0 {
                return true;
            }
            self.counts.expanded += 1;
            for d in 0..4 {
                // Up and down, left and right undo each other.
                if came.is_some_and(|c| c ^ 1 == d) {
                    continue;
                }
                let Some(from) = self.step(blank, d) else { continue };
                self.tiles.swap(blank, from);
                let child_h = (self.h)(&self.tiles);
                self.counts.generated += 1;
                self.path.push(self.tiles[blank]);
                if self.visit(from, g + 1, child_h, Some(d)) {
                    return true;
                }
                self.path.pop();
                self.tiles.swap(blank, from);
            }
            false
        }
    }
    let blank = tiles.iter().position(|&t| t == 0).unwrap();
    let root_h = h(tiles);
    let mut bound = root_h;
    let mut iterations = Vec::new();
    loop {
        let mut run =
            Run { tiles: tiles.to_vec(), cols, bound, counts: Counts::default(), next: u32::MAX, path: Vec::new(), h };
        let found = run.visit(blank, 0, root_h, None);
        iterations.push(Iteration { bound, counts: run.counts });
        if found {
            return (iterations, run.path);
        }
        bound = run.next;
    }
}

/// A textbook A* over the tiles as written (`0` the blank), `h` the estimate of a position: its nodes and
/// the tiles moved. Open: least f, then least h, then first pushed; an entry worse than the best g known
/// for its position is skipped uncounted; the goal is tested when a node is popped, else it is expanded;
/// children in the blank's order up, down, left, right, never back to the parent, each dropped when its
/// position is known with a g as small, else generated and pushed (a closed one so reopened).
fn textbook_astar(tiles: &[u8], cols: usize, h: &dyn Fn(&[u8]) -> u32) -> (Counts, Vec<u8>) {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let rows = tiles.len() / cols;
    /// (tiles, parent, tile moved, g, direction the blank came: 0 up, 1 down, 2 left, 3 right)
    type Node = (Vec<u8>, usize, u8, u32, Option<usize>);
    let mut nodes: Vec<Node> = vec![(tiles.to_vec(), 0, 0, 0, None)];
    let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
    best.insert(tiles.to_vec(), 0);
    let mut open = BinaryHeap::new();
    let mut seq = 0u64;
    open.push(Reverse((h(tiles), h(tiles), seq, 0usize)));
    let mut counts = Counts::default();
    while let Some(Reverse((_, hv, _, i))) = open.pop() {
        let (position, _, _, g, came) = nodes[i].clone();
        if best[&position] < g {
            continue;
        }
        if hv == 0 {
            let mut moves = Vec::new();
            let mut at = i;
            while at != 0 {
                moves.push(nodes[at].2);
                at = nodes[at].1;
            }
            moves.reverse();
            return (counts, moves);
        }
        counts.expanded += 1;
        let blank = position.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / cols, blank % cols);
        for d in 0..4 {
            if came.is_some_and(|c| c ^ 1 == d) {
                continue;
            }
            let to = match d {
                0 if r > 0 => blank - cols,
                1 if r + 1 < rows => blank + cols,
                2 if c > 0 => blank - 1,
                3 if c + 1 < cols => blank + 1,
                _ => continue,
            };
            let mut child = position.clone();
            child.swap(blank, to);
            if best.get(&child).is_some_and(|&known| known <= g + 1) {
                continue;
            }
            let child_h = h(&child);
            counts.generated += 1;
            best.insert(child.clone(), g + 1);
            seq += 1;
            open.push(Reverse((g + 1 + child_h, child_h, seq, nodes.len())));
            nodes.push((child, i, position[to], g + 1, Some(d)));
        }
    }
    panic!("no path to the goal");
}

fn solver(board: Board, heuristic: HeuristicChoice, goal: Goal) -> Solver {
    let spec = TableSpec { dir: "/nonexistent".into(), partitions: Vec::new(), lookups: Lookups::Reflected };
    let settings = Settings::default().with_textbook(Some(goal));
    Solver::new(board, heuristic, &spec, settings, &mut |_| {}).unwrap()
}

/// Every iteration's bound and nodes, and the solution, as the textbook search here finds them, on 3x3
/// positions toward both goals (the blank-last ones are searched turned half round, which reverses the
/// directions) with Manhattan distance and with linear conflicts.
#[test]
fn textbook_mode_counts_the_nodes_of_a_textbook_ida() {
    let board: Board = "3x3".parse().unwrap();
    let cases = [
        ("8 6 7 2 5 4 3 0 1", Goal::BlankFirst),
        ("8 7 6 0 4 1 2 5 3", Goal::BlankFirst),
        ("8 0 6 5 4 7 2 3 1", Goal::BlankFirst),
        ("1 2 5 3 4 8 6 7 0", Goal::BlankFirst),
        ("8 6 7 2 5 4 3 0 1", Goal::BlankLast),
        ("6 4 7 8 5 0 3 2 1", Goal::BlankLast),
    ];
    for heuristic in [HeuristicChoice::Manhattan, HeuristicChoice::LinearConflict] {
        for (text, goal) in cases {
            let s = solver(board, heuristic, goal);
            let state = parse_tiles(board, goal, text).unwrap();
            let report = s.solve(&state, &Limits::default()).unwrap();
            let tiles: Vec<u8> = text.split(' ').map(|w| w.parse().unwrap()).collect();
            let h = |t: &[u8]| {
                let words: Vec<String> = t.iter().map(|x| x.to_string()).collect();
                s.estimate(&parse_tiles(board, goal, &words.join(" ")).unwrap())
            };
            let (iterations, moves) = textbook_ida(&tiles, 3, &h);
            let what = format!("{text} toward {} with {}", goal.name(), s.name());
            assert_eq!(report.per_iteration, iterations, "{what}");
            let generated: u64 = iterations.iter().map(|i| i.counts.generated).sum();
            let expanded: u64 = iterations.iter().map(|i| i.counts.expanded).sum();
            assert_eq!(report.counts, Counts { generated, expanded }, "{what}");
            let user: Vec<u8> = report.moves().unwrap().iter().map(|&t| goal.user_tile(9, t)).collect();
            assert_eq!(user, moves, "{what}: the first solution in the textbook's order");
        }
    }
}

/// The figure a plain textbook IDA* with Manhattan distance gives on this position, and what the fast
/// search counts instead (it orders children, prunes longer duplicate paths and runs lanes).
#[test]
fn the_textbook_figure_reproduces() {
    let board: Board = "3x3".parse().unwrap();
    let state = parse_tiles(board, Goal::BlankFirst, "8 6 7 2 5 4 3 0 1").unwrap();
    let report = solver(board, HeuristicChoice::Manhattan, Goal::BlankFirst).solve(&state, &Limits::default()).unwrap();
    assert_eq!(report.counts, Counts { generated: 11_597, expanded: 7_061 });
    assert_eq!(report.moves().map(<[u8]>::len), Some(27));
    let bounds: Vec<u32> = report.per_iteration.iter().map(|i| i.bound).collect();
    assert_eq!(bounds, [19, 21, 23, 25, 27]);
}

/// Textbook A* (`--textbook --algorithm astar`) counts the nodes of the textbook A* here and finds its
/// solution, on the positions, goals and heuristics of the IDA* test; its solutions are as short as IDA*'s.
#[test]
fn textbook_mode_counts_the_nodes_of_a_textbook_astar() {
    use adapters::tiles::algorithm::{solve, Follow};
    let board: Board = "3x3".parse().unwrap();
    let cases = [
        ("8 6 7 2 5 4 3 0 1", Goal::BlankFirst),
        ("8 7 6 0 4 1 2 5 3", Goal::BlankFirst),
        ("8 0 6 5 4 7 2 3 1", Goal::BlankFirst),
        ("1 2 5 3 4 8 6 7 0", Goal::BlankFirst),
        ("8 6 7 2 5 4 3 0 1", Goal::BlankLast),
        ("6 4 7 8 5 0 3 2 1", Goal::BlankLast),
    ];
    for heuristic in [HeuristicChoice::Manhattan, HeuristicChoice::LinearConflict] {
        for (text, goal) in cases {
            let s = solver(board, heuristic, goal);
            let state = parse_tiles(board, goal, text).unwrap();
            let searched =
                solve(&s, search::Algorithm::Astar, &state, 1, &search::Limits::default(), Follow::default()).unwrap();
            let tiles: Vec<u8> = text.split(' ').map(|w| w.parse().unwrap()).collect();
            let h = |t: &[u8]| {
                let words: Vec<String> = t.iter().map(|x| x.to_string()).collect();
                s.estimate(&parse_tiles(board, goal, &words.join(" ")).unwrap())
            };
            let (counts, moves) = textbook_astar(&tiles, 3, &h);
            let what = format!("{text} toward {} with {}", goal.name(), s.name());
            assert_eq!(searched.counts, counts, "{what}");
            let user: Vec<u8> = searched.moves().unwrap().iter().map(|&t| goal.user_tile(9, t)).collect();
            assert_eq!(user, moves, "{what}: the first solution in the textbook's order");
            let ida = s.solve(&state, &Limits::default()).unwrap();
            assert_eq!(ida.moves().map(<[u8]>::len), Some(moves.len()), "{what}");
        }
    }
}
