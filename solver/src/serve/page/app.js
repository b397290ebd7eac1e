// The sliding-tile page: a position to set up (typed, shuffled, clicked), solved through /api/solve, and the
// solution played back. Tiles are always in the labels of the chosen goal, as the API takes and returns them.
"use strict";

const $ = (id) => document.getElementById(id);
const view = $("view");

const state = {
  rows: 4, cols: 4,
  cells: [],          // the tiles by cell, 0 the blank
  solution: null,     // { start: cells, moves: [tile, ...] }
  at: 0,              // moves played
  timer: null,
  lit: null,          // the tile that moved last
};

function goalCells() {
  const n = state.rows * state.cols;
  const tiles = [...Array(n).keys()];
  return $("goal").value === "blank-last" ? tiles.slice(1).concat([0]) : tiles;
}

function setStatus(text, isError) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!isError);
}

function render() {
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

async function solve() {
  forgetSolution();
  const start = state.cells.slice();
  const body = {
    puzzle: "sliding-tile",
    board: `${state.rows}x${state.cols}`,
    tiles: start,
    goal: $("goal").value,
    heuristic: $("heuristic").value,
  };
  $("solve").disabled = true;
  setStatus("Solving…");
  try {
    const r = await api("/api/solve", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    $("stats").hidden = false;
    $("nodes").textContent = r.nodes.toLocaleString("en");
    $("time").textContent = `${r.seconds.toFixed(3)} s`;
    $("heur").textContent = r.heuristic;
    $("goal-tiles").textContent = r.goal;
    if (r.status !== "solved") {
      $("length").textContent = "–";
      setStatus(r.error || r.status, true);
      return;
    }
    $("length").textContent = `${r.length} moves`;
    state.solution = { start, moves: r.moves.split(" ").filter((w) => w).map(Number) };
    state.at = 0;
    $("moves").textContent = r.moves || "(already solved)";
    $("player").hidden = false;
    setStatus(`Optimal: ${r.length} moves.`);
    render();
  } catch (e) {
    setStatus(e.message, true);
  } finally {
    $("solve").disabled = false;
  }
}

// Plays the solution forward or back one move.
function step(forward) {
  const sol = state.solution;
  if (!sol) return;
  if (forward && state.at < sol.moves.length) {
    slide(sol.moves[state.at]);
    state.at += 1;
  } else if (!forward && state.at > 0) {
    state.at -= 1;
    slide(sol.moves[state.at]); // a move undone is the same tile slid back
  }
  if (state.at === sol.moves.length) pause();
  render();
}

function jump(to) {
  const sol = state.solution;
  pause();
  state.cells = sol.start.slice();
  state.at = 0;
  state.lit = null;
  while (state.at < to) slide(sol.moves[state.at++]);
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
$("step").addEventListener("click", () => { pause(); step(true); });
$("back").addEventListener("click", () => { pause(); step(false); });
$("first").addEventListener("click", () => jump(0));
$("last").addEventListener("click", () => jump(state.solution.moves.length));
$("play").addEventListener("click", play);
$("speed").addEventListener("input", () => { if (state.timer) { pause(); play(); } });

setPosition(goalCells(), 4, 4);
