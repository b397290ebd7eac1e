// The page: a sliding-tile position or a water-sort level to set up, solved through /api/solve, and the
// solution played back by one player (start, back, play, step, end, speed) over either puzzle. Tiles are
// always in the labels of the chosen goal, as the API takes and returns them; tubes are drawn bottom to top,
// each unit its colour and its letter.
"use strict";

const $ = (id) => document.getElementById(id);
const view = $("view");

const state = {
  rows: 4, cols: 4,
  cells: [],          // the tiles by cell, 0 the blank
  solution: null,     // tiles: { start: cells, moves: [tile, ...] }; water: { moves: [pour, ...], frames, added }
  at: 0,              // moves played
  timer: null,
  lit: null,          // the tile that moved last
};

// The water-sort level shown.
const water = {
  capacity: 4,
  tubes: [],          // each tube its colour letters, bottom to top
  lit: null,          // the pour made last: { from, to } (0-based)
  added: 0,           // units the last pour added to its destination
};

const isWater = () => $("puzzle").value === "water-sort";

function goalCells() {
  const n = state.rows * state.cols;
  const tiles = [...Array(n).keys()];
  return $("goal").value === "blank-last" ? tiles.slice(1).concat([0]) : tiles;
}

function setStatus(text, isError) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!isError);
}

function renderBoard() {
  const { rows, cols, cells } = state;
  view.style.aspectRatio = `${cols} / ${rows}`;
  view.dataset.cells = cells.join(" ");
  const have = new Map([...view.children].map((el) => [Number(el.dataset.tile), el]));
  for (const [t, el] of have) if (t >= cells.length) el.remove();
  cells.forEach((t, i) => {
    if (t === 0) return;
    let el = have.get(t);
    if (!el) {
      el = document.createElement("div");
      el.className = "tile";
      el.dataset.tile = t;
      el.textContent = t;
      el.addEventListener("click", () => clickTile(t));
      view.appendChild(el);
    }
    const r = Math.floor(i / cols), c = i % cols;
    el.style.width = `calc(${100 / cols}% - 6px)`;
    el.style.height = `calc(${100 / rows}% - 6px)`;
    el.style.left = `calc(${(100 * c) / cols}% + 3px)`;
    el.style.top = `calc(${(100 * r) / rows}% + 3px)`;
    el.classList.toggle("lit", t === state.lit);
  });
}

// The board or the tubes, and the player's counter and buttons.
function render() {
  if (isWater()) renderTubes(); else renderBoard();
  const sol = state.solution;
  if (sol) {
    $("counter").textContent = `${state.at} / ${sol.moves.length}`;
    $("back").disabled = $("first").disabled = state.at === 0;
    $("step").disabled = $("last").disabled = state.at === sol.moves.length;
    $("play").textContent = state.timer ? "Pause" : "Play";
  }
}

// Slides `tile` into the blank if it is next to it; false otherwise.
function slide(tile) {
  const { cols, cells } = state;
  const from = cells.indexOf(tile), blank = cells.indexOf(0);
  const dr = Math.abs(Math.floor(from / cols) - Math.floor(blank / cols));
  const dc = Math.abs((from % cols) - (blank % cols));
  if (from < 0 || dr + dc !== 1) return false;
  cells[blank] = tile;
  cells[from] = 0;
  state.lit = tile;
  return true;
}

function forgetSolution() {
  pause();
  state.solution = null;
  $("player").hidden = true;
  $("stats").hidden = true;
  $("w-stats").hidden = true;
}

function setPosition(cells, rows, cols) {
  forgetSolution();
  state.rows = rows; state.cols = cols;
  state.cells = cells;
  state.lit = null;
  $("tiles").value = cells.join(" ");
  render();
}

function clickTile(t) {
  if (state.solution) forgetSolution();
  if (slide(t)) {
    $("tiles").value = state.cells.join(" ");
    setStatus("");
    render();
  }
}

function boardSize() {
  const [rows, cols] = $("board").value.split("x").map(Number);
  return { rows, cols };
}

async function api(url, options) {
  const res = await fetch(url, options);
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

async function randomPosition(walk) {
  const { rows, cols } = boardSize();
  const q = new URLSearchParams({ board: `${rows}x${cols}`, goal: $("goal").value });
  if (walk) q.set("walk", walk);
  try {
    const p = await api(`/api/random?${q}`);
    setPosition(p.tiles, rows, cols);
    setStatus("");
  } catch (e) {
    setStatus(e.message, true);
  }
}

// Posts `body` to /api/solve and shows the record: `show` fills the puzzle's stats (`statsId`) and, for a
// solved record, returns { solution, moves, message } to play; the button, status and errors are one
// flow for both puzzles.
async function requestSolve(body, statsId, show) {
  $("solve").disabled = true;
  setStatus("Solving…");
  try {
    const r = await api("/api/solve", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    $(statsId).hidden = false;
    const solved = show(r);
    if (r.status !== "solved") {
      setStatus(r.error || r.status, true);
      return;
    }
    state.solution = solved.solution;
    state.at = 0;
    $("moves").textContent = solved.moves;
    $("player").hidden = false;
    setStatus(solved.message);
    render();
  } catch (e) {
    setStatus(e.message, true);
  } finally {
    $("solve").disabled = false;
  }
}

async function solve() {
  if (isWater()) return solveWater();
  forgetSolution();
  const start = state.cells.slice();
  const body = {
    puzzle: "sliding-tile",
    board: `${state.rows}x${state.cols}`,
    tiles: start,
    goal: $("goal").value,
    heuristic: $("heuristic").value,
  };
  await requestSolve(body, "stats", (r) => {
    $("nodes").textContent = r.nodes.toLocaleString("en");
    $("time").textContent = `${r.seconds.toFixed(3)} s`;
    $("heur").textContent = r.heuristic;
    $("goal-tiles").textContent = r.goal;
    $("length").textContent = r.status === "solved" ? `${r.length} moves` : "–";
    if (r.status !== "solved") return null;
    return {
      solution: { start, moves: r.moves.split(" ").filter((w) => w).map(Number) },
      moves: r.moves || "(already solved)",
      message: `Optimal: ${r.length} moves.`,
    };
  });
}

// Plays the solution forward or back one move.
function step(forward) {
  const sol = state.solution;
  if (!sol) return;
  if (forward && state.at < sol.moves.length) {
    playMove(sol, state.at);
    state.at += 1;
  } else if (!forward && state.at > 0) {
    state.at -= 1;
    if (isWater()) showFrame(sol, state.at, state.at > 0 ? sol.moves[state.at - 1] : null);
    else slide(sol.moves[state.at]); // a move undone is the same tile slid back
  }
  if (state.at === sol.moves.length) pause();
  render();
}

// Makes move `i` of the solution on the position shown.
function playMove(sol, i) {
  if (isWater()) showFrame(sol, i + 1, sol.moves[i]);
  else slide(sol.moves[i]);
}

function jump(to) {
  const sol = state.solution;
  pause();
  state.at = 0;
  if (isWater()) {
    showFrame(sol, 0, null);
  } else {
    state.cells = sol.start.slice();
    state.lit = null;
  }
  while (state.at < to) playMove(sol, state.at++);
  render();
}

function pause() {
  clearInterval(state.timer);
  state.timer = null;
  if (state.solution) $("play").textContent = "Play";
}

function play() {
  const sol = state.solution;
  if (!sol) return;
  if (state.timer) { pause(); render(); return; }
  if (state.at === sol.moves.length) jump(0);
  state.timer = setInterval(() => step(true), 1000 / Number($("speed").value));
  render();
}

$("typed").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const { rows, cols } = boardSize();
  const tiles = $("tiles").value.split(/[\s,]+/).filter((w) => w).map(Number);
  if (tiles.length !== rows * cols || tiles.some((t) => !Number.isInteger(t))) {
    setStatus(`Type ${rows * cols} whole numbers, 0 the blank.`, true);
    return;
  }
  setPosition(tiles, rows, cols);
  setStatus("");
});
$("board").addEventListener("change", () => { const { rows, cols } = boardSize(); state.rows = rows; state.cols = cols; setPosition(goalCells(), rows, cols); });
$("goal").addEventListener("change", () => setPosition(goalCells(), state.rows, state.cols));
$("shuffle").addEventListener("click", () => randomPosition(Number($("walk").value) || 40));
$("random").addEventListener("click", () => randomPosition(null));
$("to-goal").addEventListener("click", () => setPosition(goalCells(), state.rows, state.cols));
$("solve").addEventListener("click", solve);
$("puzzle").addEventListener("change", choosePuzzle);
$("typed-level").addEventListener("submit", (ev) => {
  ev.preventDefault();
  setLevel($("level").value, Number($("capacity").value) || 4);
  setStatus("");
});
$("random-level").addEventListener("click", randomLevel);
$("step").addEventListener("click", () => { pause(); step(true); });
$("back").addEventListener("click", () => { pause(); step(false); });
$("first").addEventListener("click", () => jump(0));
$("last").addEventListener("click", () => jump(state.solution.moves.length));
$("play").addEventListener("click", play);
$("speed").addEventListener("input", () => { if (state.timer) { pause(); play(); } });

setPosition(goalCells(), 4, 4);
setLevel("demo: abca bcab cabc - -", 4);

// ---- Water sort ----

// Background colours keyed by colour letter, mnemonic where a letter suggests one (b blue, g green, o
// orange, r red, y yellow, ...); capitals are the same colour striped. The letter is always drawn too.
const PALETTE = {
  a: "#8fd3ff", b: "#1f4fd1", c: "#17becf", d: "#6b3e1f", e: "#2e8b57", f: "#ff77b4", g: "#2ca02c",
  h: "#bcbd22", i: "#4b0082", j: "#d4a017", k: "#222222", l: "#c5e85a", m: "#990033", n: "#000080",
  o: "#ff8c00", p: "#9467bd", q: "#40e0d0", r: "#d62728", s: "#c0c0c0", t: "#008080", u: "#8c564b",
  v: "#ee82ee", w: "#f4f4f4", x: "#7f7f7f", y: "#ffd700", z: "#e9967a",
};

// Black or white, whichever reads better on `hex`.
function inkOn(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#000" : "#fff";
}

// A level line (`name: abca bcab -`) as tubes of letters, bottom to top.
function parseLevel(text) {
  const body = text.includes(":") ? text.slice(text.indexOf(":") + 1) : text;
  return body.split(/\s+/).filter((w) => w).map((w) => (w === "-" ? [] : [...w]));
}

// The tubes after a legal pour under `rule` (as the watersort crate's rules), and the units it moved.
function pour(tubes, { from, to }, capacity, rule) {
  const next = tubes.map((t) => t.slice());
  const src = next[from], dst = next[to];
  const top = src[src.length - 1];
  let run = 0;
  while (run < src.length && src[src.length - 1 - run] === top) run += 1;
  const free = capacity - dst.length;
  const amount = rule === "one-unit" ? 1 : Math.min(run, free);
  for (let k = 0; k < amount; k += 1) dst.push(src.pop());
  return { tubes: next, added: amount };
}

// Shows frame `k` of a water-sort solution (the tubes after k pours), `lit` the pour that led to it.
function showFrame(sol, k, lit) {
  water.tubes = sol.frames[k].map((t) => t.slice());
  water.lit = lit;
  water.added = lit ? sol.added[k] : 0;
}

function renderTubes() {
  const view = $("tubes");
  const height = Math.max(water.capacity, ...water.tubes.map((t) => t.length));
  view.dataset.tubes = water.tubes.map((t) => (t.length ? t.join("") : "-")).join(" ");
  view.replaceChildren(...water.tubes.map((units, i) => {
    const tube = document.createElement("div");
    tube.className = "tube";
    tube.dataset.tube = i + 1;
    tube.style.height = `${height * 1.9 + 0.5}rem`;
    tube.classList.toggle("from", !!water.lit && water.lit.from === i);
    tube.classList.toggle("to", !!water.lit && water.lit.to === i);
    tube.setAttribute("aria-label", `tube ${i + 1}: ${units.length ? units.join("") : "empty"}`);
    units.forEach((letter, u) => {
      const unit = document.createElement("div");
      const bg = PALETTE[letter.toLowerCase()] || "#999999";
      unit.className = "unit";
      unit.textContent = letter;
      unit.style.backgroundColor = bg;
      unit.style.color = inkOn(bg);
      if (letter !== letter.toLowerCase()) unit.classList.add("striped");
      if (water.lit && water.lit.to === i && u >= units.length - water.added) unit.classList.add("poured");
      tube.appendChild(unit);
    });
    const label = document.createElement("span");
    label.className = "tube-number";
    label.textContent = i + 1;
    const column = document.createElement("div");
    column.className = "tube-column";
    column.append(tube, label);
    return column;
  }));
}

function setLevel(text, capacity) {
  forgetSolution();
  water.tubes = parseLevel(text);
  water.capacity = capacity;
  water.lit = null;
  $("level").value = text;
  $("capacity").value = capacity;
  render();
}

async function randomLevel() {
  const q = new URLSearchParams({
    puzzle: "water-sort", colors: $("colors").value, empty: $("empty").value,
    capacity: $("capacity").value, rule: $("rule").value,
  });
  try {
    const p = await api(`/api/random?${q}`);
    setLevel(p.level, p.capacity);
    setStatus("");
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function solveWater() {
  setLevel($("level").value, Number($("capacity").value) || 4);
  const rule = $("rule").value;
  const body = { puzzle: "water-sort", level: $("level").value, capacity: water.capacity, rule };
  await requestSolve(body, "w-stats", (r) => {
    $("examined").textContent = r.expanded.toLocaleString("en");
    $("w-time").textContent = `${r.seconds.toFixed(3)} s`;
    $("pours").textContent = r.status === "solved" ? `${r.length}` : "–";
    if (r.status !== "solved") return null;
    const moves = r.moves.split(" ").filter((w) => w).map((w) => {
      const [from, to] = w.split("->").map(Number);
      return { from: from - 1, to: to - 1 };
    });
    // The tubes after each pour, and the units each added: stepping back shows a frame, not an undo.
    const sol = { moves, frames: [parseLevel(r.instance)], added: [0] };
    for (const m of moves) {
      const next = pour(sol.frames[sol.frames.length - 1], m, water.capacity, rule);
      sol.frames.push(next.tubes);
      sol.added.push(next.added);
    }
    showFrame(sol, 0, null);
    return { solution: sol, moves: r.moves.replaceAll("->", "→") || "(already sorted)", message: `Fewest pours: ${r.length}.` };
  });
}

function choosePuzzle() {
  forgetSolution();
  const w = isWater();
  $("tile-ui").hidden = w;
  $("water-ui").hidden = !w;
  $("title").textContent = w ? "Water sort solver" : "Sliding-tile solver";
  $("subtitle").textContent = w
    ? "The fewest pours, proved by A*."
    : "Optimal solutions by IDA* over pattern databases.";
  document.title = $("title").textContent;
  setStatus("");
  render();
}
