// The page: a sliding-tile position or a water-sort level to set up, solved as a job of the server
// (/api/jobs: its progress shown while it runs, Cancel stopping it), and the solution played back by one
// player (start, back, play, step, end, speed, the keyboard) over either puzzle, its moves listed in the
// notation picked with the current one marked. Tiles are always in the labels of the chosen goal, as the
// API takes and returns them; tubes are drawn bottom to top, each unit its colour and its letter (`?` a
// hidden one). Water sort is also played by hand: pours clicked tube to tube, a hint from the position
// reached (/api/hint), and on a level with hidden units the plan up to the first reveal, the colour the
// game then shows asked for, and a new plan. What the server knows (whether a position suits the other
// goal better, whether a level is valid, the notations, what can still be sorted) is asked of it, never
// worked out again here; only the rules of a pour are, to play one at once.
"use strict";

const $ = (id) => document.getElementById(id);
const view = $("view");

const state = {
  rows: 4, cols: 4,
  cells: [],          // the tiles by cell, 0 the blank
  solution: null,     // tiles: { start, moves: [tile, ...], notation }; water: { moves: [pour, ...], frames, added, text }
  at: 0,              // moves played
  timer: null,
  lit: null,          // the tile that moved last
  job: null,          // the solve running: { id, poll } (the poll's timer)
  checked: 0,         // the number of the latest position check, so that only its answer is shown
};

// The water-sort level shown.
const water = {
  name: "demo",
  capacity: 4,
  tubes: [],          // each tube its colour letters, bottom to top
  lit: null,          // the pour made last: { from, to } (0-based)
  added: 0,           // units the last pour added to its destination
  pick: "a",          // the tool: a colour to add, "?" a hidden unit, "" the eraser, "pour" to play pours
  chosen: null,       // with the pour tool, the tube picked to pour from (0-based)
  hint: null,         // the last hint: { line, next, dead } (the position it is for, its next pour, the
                      // pours "from>to" that lead to a dead end); shown while that position is
  asked: -1,          // the tube whose uncovered unit's colour was last asked for
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

async function api(url, options) {
  const res = await fetch(url, options);
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

const post = (url, body) => api(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

// ---- The board ----

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
      el.addEventListener("click", () => userSlide(t));
      view.appendChild(el);
    }
    const r = Math.floor(i / cols), c = i % cols;
    el.style.width = `calc(${100 / cols}% - 6px)`;
    el.style.height = `calc(${100 / rows}% - 6px)`;
    el.style.left = `calc(${(100 * c) / cols}% + 3px)`;
    el.style.top = `calc(${(100 * r) / rows}% + 3px)`;
    el.style.fontSize = `min(${(6 * 4) / Math.max(rows, cols)}vw, ${(1.8 * 4) / Math.max(rows, cols)}rem)`;
    el.classList.toggle("lit", t === state.lit);
  });
}

// The board or the tubes, the player's counter and buttons, and the move list's marks.
function render() {
  if (isWater()) {
    renderTubes();
    const waiting = waitingTube();
    if (waiting !== water.asked && waiting >= 0) askColour();
    water.asked = waiting;
  } else renderBoard();
  const sol = state.solution;
  if (!sol) return;
  const end = state.at === sol.moves.length;
  $("counter").textContent = `${state.at} / ${sol.moves.length}`;
  $("back").disabled = $("first").disabled = state.at === 0;
  $("step").disabled = $("last").disabled = end;
  $("play").textContent = state.timer ? "Pause" : "Play";
  $("play").disabled = end && !state.timer;
  for (const li of $("moves").children) {
    const from = Number(li.dataset.from), to = Number(li.dataset.to);
    li.classList.toggle("done", to <= state.at);
    li.classList.toggle("now", from < state.at && state.at <= to);
  }
  const now = $("moves").querySelector(".now");
  if (now) now.scrollIntoView({ block: "nearest" });
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

// The tile that would move `dir` (U D L R: the direction the tile moves, as speedsolvers write it) into
// the blank, or null at the edge.
function tileMoving(dir) {
  const { rows, cols, cells } = state;
  const blank = cells.indexOf(0);
  const r = Math.floor(blank / cols), c = blank % cols;
  // The tile moving left is the one right of the blank, and so on.
  const [dr, dc] = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] }[dir];
  const tr = r + dr, tc = c + dc;
  if (tr < 0 || tr >= rows || tc < 0 || tc >= cols) return null;
  return cells[tr * cols + tc];
}

function stopJob() {
  const job = state.job;
  if (!job) return;
  state.job = null;
  clearTimeout(job.poll);
  $("cancel").hidden = true;
  $("progress").hidden = true;
  $("solve").disabled = false;
  // The search stops on the server; what it answers no longer matters.
  api(`/api/jobs/${job.id}`, { method: "DELETE" }).catch(() => {});
}

function forgetSolution() {
  pause();
  stopJob();
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
  checkGoal();
}

// A slide the user makes (a click or a key): the solution shown no longer applies.
function userSlide(t) {
  if (state.solution) forgetSolution();
  if (slide(t)) {
    $("tiles").value = state.cells.join(" ");
    setStatus("");
    render();
    checkGoal();
  }
}

function tileRequest(cells) {
  return { puzzle: "sliding-tile", board: `${state.rows}x${state.cols}`, tiles: cells, goal: $("goal").value };
}

// Asks the server whether the position shown is clearly closer to the other goal, and says so beside the
// board (the same rule as `solver solve`'s note).
async function checkGoal() {
  const ticket = ++state.checked;
  const hint = $("goal-hint");
  try {
    const v = await post("/api/check", tileRequest(state.cells));
    if (ticket !== state.checked) return;
    const c = v.valid && !isWater() ? v.closer : null;
    hint.hidden = !c;
    if (!c) return;
    const other = $("goal").querySelector(`option[value="${c.goal}"]`).textContent;
    hint.replaceChildren(
      `This position is closer to the goal ${c.tiles} (Manhattan distance ${c.distance}, against ${c.distance_here} `
        + `to the goal chosen). If that is the goal you mean, choose “${other}” in the Goal menu. `,
    );
    const use = document.createElement("button");
    use.type = "button";
    use.id = "use-goal";
    use.textContent = "Use that goal";
    use.addEventListener("click", () => { $("goal").value = c.goal; changeGoal(); });
    hint.append(use);
  } catch (e) {
    if (ticket === state.checked) hint.hidden = true;
  }
}

function boardSize() {
  const [rows, cols] = $("board").value.split("x").map(Number);
  return { rows, cols };
}

// The boards this server offers (5x5 among them), each with its heuristic and what to expect.
const boards = new Map();

async function loadBoards() {
  try {
    const b = await api("/api/boards");
    const chosen = $("board").value;
    $("board").replaceChildren(...b.boards.map((x) => {
      boards.set(x.board, x);
      const o = document.createElement("option");
      o.textContent = x.board;
      o.selected = x.board === chosen;
      return o;
    }));
    showBoardNote();
  } catch (e) {
    setStatus(e.message, true);
  }
}

function showBoardNote() {
  const b = boards.get($("board").value);
  $("board-note").textContent = b ? `${b.board} with auto: ${b.heuristic}; ${b.about}.` : "";
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

// A new goal keeps the tiles shown, unless they are the old goal: then the new goal is shown.
function changeGoal() {
  const n = state.rows * state.cols;
  const oldGoal = $("goal").value === "blank-last" ? [...Array(n).keys()] : [...Array(n).keys()].slice(1).concat([0]);
  const wasGoal = state.cells.every((t, i) => t === oldGoal[i]);
  setPosition(wasGoal ? goalCells() : state.cells.slice(), state.rows, state.cols);
}

// ---- Solving, as a job ----

// Starts a job for `body` and follows it: elapsed time, depth and nodes while it runs, then `done` with the
// record. The search's `depthName` is what its depth means (IDA*'s bound, A*'s f).
async function runJob(body, depthName, done) {
  forgetSolution();
  setStatus("");
  $("solve").disabled = true;
  let id;
  try {
    id = (await post("/api/jobs", body)).id;
  } catch (e) {
    $("solve").disabled = false;
    setStatus(e.message, true);
    return;
  }
  const job = { id, poll: null };
  state.job = job;
  $("cancel").hidden = false;
  $("progress").hidden = false;
  $("progress").textContent = "Solving…";
  const poll = async () => {
    let r;
    try {
      r = await api(`/api/jobs/${id}`);
    } catch (e) {
      if (state.job !== job) return;
      stopJob();
      setStatus(e.message, true);
      return;
    }
    if (state.job !== job) return;
    if (r.state === "running") {
      const depth = r.depth ? ` · ${depthName} ${r.depth}` : " · getting ready";
      $("progress").textContent = `Solving… ${r.seconds.toFixed(1)} s${depth} · ${r.expanded.toLocaleString("en")} nodes expanded`;
      job.poll = setTimeout(poll, 250);
      return;
    }
    state.job = null;
    $("cancel").hidden = true;
    $("progress").hidden = true;
    $("solve").disabled = false;
    if (r.state === "failed") setStatus(r.error, true);
    else done(r.result);
  };
  job.poll = setTimeout(poll, 100);
}

function cancel() {
  const job = state.job;
  if (!job) return;
  const shown = $("progress").textContent.replace("Solving… ", "");
  stopJob();
  setStatus(`Cancelled after ${shown}.`);
}

// Shows a solved record's solution in the player.
function showSolution(solution, message) {
  state.solution = solution;
  state.at = 0;
  $("player").hidden = false;
  showMoves();
  setStatus(message);
  render();
}

// The move list in the notation picked: each item the moves it stands for (`L3`: three), so that the
// item of the move just played is marked; a click on an item plays up to it.
function showMoves() {
  const sol = state.solution;
  let words;
  if (isWater()) words = sol.moves.map((m) => [`${m.from + 1}→${m.to + 1}`, 1]);
  else {
    const kind = $("notation").value;
    const text = sol.notation[kind];
    words = kind === "dirs" ? [...text].map((d) => [d, 1])
      : text.split(" ").filter((w) => w).map((w) => [w, kind === "udlr" ? Number(w.slice(1) || 1) : 1]);
  }
  let at = 0;
  $("moves").replaceChildren(...words.map(([word, n]) => {
    const li = document.createElement("li");
    li.textContent = word;
    li.dataset.from = at;
    at += n;
    li.dataset.to = at;
    li.addEventListener("click", () => jump(Number(li.dataset.to)));
    return li;
  }));
  if (!words.length) $("moves").replaceChildren(Object.assign(document.createElement("li"), { textContent: "(already solved)" }));
}

async function solve() {
  if (isWater()) return solveWater();
  const start = state.cells.slice();
  const body = { ...tileRequest(start), heuristic: $("heuristic").value };
  await runJob(body, "bound", (r) => {
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
    const n = r.notation;
    $("length").textContent = `${r.length} moves (${n.slides} in the multi-tile metric)`;
    const moves = n.tiles.split(" ").filter((w) => w).map(Number);
    showSolution({ start, moves, notation: n }, `Optimal: ${r.length} moves.`);
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
  if (!sol) return;
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
}

function play() {
  const sol = state.solution;
  if (!sol || state.at === sol.moves.length) return;
  if (state.timer) { pause(); render(); return; }
  state.timer = setInterval(() => step(true), 1000 / Number($("speed").value));
  render();
}

// Keys: with a solution shown, ← → step, Space plays or pauses, Home and End jump, Esc leaves it; without
// one, the arrows slide the tile beside the blank in their direction. Keys typed into a field are theirs.
function onKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.closest("input, select, textarea")) return;
  const sol = state.solution;
  const act = sol
    ? { ArrowLeft: () => { pause(); step(false); }, ArrowRight: () => { pause(); step(true); }, " ": play,
        Home: () => jump(0), End: () => jump(sol.moves.length), Escape: () => { forgetSolution(); setStatus(""); } }[ev.key]
    : !isWater() && { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[ev.key];
  if (!act) return;
  ev.preventDefault();
  if (typeof act === "function") { act(); return; }
  const t = tileMoving(act);
  if (t !== null) userSlide(t);
}

$("typed").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const { rows, cols } = boardSize();
  const tiles = $("tiles").value.split(/[\s,]+/).filter((w) => w).map(Number);
  if (tiles.length !== rows * cols || tiles.some((t) => !Number.isInteger(t) || t < 0)) {
    setStatus(`Type ${rows * cols} whole numbers, 0 the blank.`, true);
    return;
  }
  try {
    const v = await post("/api/check", { ...tileRequest(tiles), board: `${rows}x${cols}` });
    if (!v.valid) { setStatus(v.error, true); return; }
  } catch (e) {
    setStatus(e.message, true);
    return;
  }
  setPosition(tiles, rows, cols);
  setStatus("");
});
$("board").addEventListener("change", () => {
  const { rows, cols } = boardSize();
  state.rows = rows; state.cols = cols;
  showBoardNote();
  setPosition(goalCells(), rows, cols);
});
$("goal").addEventListener("change", changeGoal);
$("shuffle").addEventListener("click", () => randomPosition(Number($("walk").value) || 40));
$("random").addEventListener("click", () => randomPosition(null));
$("to-goal").addEventListener("click", () => setPosition(goalCells(), state.rows, state.cols));
$("solve").addEventListener("click", solve);
$("cancel").addEventListener("click", cancel);
$("hint").addEventListener("click", showHint);
$("puzzle").addEventListener("change", choosePuzzle);
$("typed-level").addEventListener("submit", (ev) => {
  ev.preventDefault();
  setTypedLevel();
});
$("random-level").addEventListener("click", randomLevel);
// A new capacity applies to the tubes shown when they fit in it (the editor fills up to it).
$("capacity").addEventListener("change", () => {
  const c = Number($("capacity").value);
  if (c >= Math.max(1, ...water.tubes.map((t) => t.length))) { water.capacity = c; render(); }
});
$("add-tube").addEventListener("click", () => editTubes((t) => t.push([])));
$("remove-tube").addEventListener("click", () => editTubes((t) => t.pop()));
$("clear-tubes").addEventListener("click", () => editTubes((t) => t.forEach((tube) => tube.splice(0))));
$("step").addEventListener("click", () => { pause(); step(true); });
$("back").addEventListener("click", () => { pause(); step(false); });
$("first").addEventListener("click", () => jump(0));
$("last").addEventListener("click", () => jump(state.solution.moves.length));
$("play").addEventListener("click", play);
$("speed").addEventListener("input", () => { if (state.timer) { pause(); play(); } });
$("notation").addEventListener("change", () => { if (state.solution && !isWater()) { showMoves(); render(); } });
document.addEventListener("keydown", onKey);

// ---- Water sort ----

// Background colours keyed by colour letter, in the order levels use them (a, b, c, ...): the first eight
// the Okabe-Ito set, told apart with any colour vision, then light and dark ones unlike them; capitals are
// the same colour striped. The letter is always drawn too, for whoever cannot tell two of them apart.
const PALETTE = {
  a: "#e69f00", b: "#56b4e9", c: "#009e73", d: "#f0e442", e: "#0072b2", f: "#d55e00", g: "#cc79a7", h: "#222222",
  i: "#f4f4f4", j: "#8c510a", k: "#999999", l: "#332288", m: "#882255", n: "#117733", o: "#aa4499", p: "#ddcc77",
  q: "#44aa99", r: "#cc6677", s: "#c0c0c0", t: "#008080", u: "#8c564b", v: "#ee82ee", w: "#fafafa", x: "#7f7f7f",
  y: "#ffd700", z: "#e9967a",
};
// Colours the editor offers: sixteen, as many as a random level has at most.
const PICKS = "abcdefghijklmnop";
// A hidden unit: level lines write it `?`, and it is drawn grey with a question mark.
const HIDDEN = "?";
PALETTE[HIDDEN] = "#6e6e6e";

// Black or white, whichever reads better on `hex`.
function inkOn(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#000" : "#fff";
}

// A unit of colour `letter`, as drawn in a tube or on the palette.
function unitOf(letter) {
  const unit = document.createElement("div");
  const bg = PALETTE[letter.toLowerCase()] || "#999999";
  unit.className = "unit";
  unit.textContent = letter;
  unit.style.backgroundColor = bg;
  unit.style.color = inkOn(bg);
  if (letter !== letter.toLowerCase()) unit.classList.add("striped");
  if (letter === HIDDEN) unit.classList.add("hidden-unit");
  return unit;
}

// A level line (`name: abca bcab -`) as its name and tubes of letters, bottom to top.
function parseLevel(text) {
  const colon = text.indexOf(":");
  const name = colon >= 0 ? text.slice(0, colon).trim() : "";
  const body = colon >= 0 ? text.slice(colon + 1) : text;
  return { name, tubes: body.split(/\s+/).filter((w) => w).map((w) => (w === "-" ? [] : [...w])) };
}

function levelLine() {
  const tubes = water.tubes.map((t) => (t.length ? t.join("") : "-")).join(" ");
  return water.name ? `${water.name}: ${tubes}` : tubes;
}

// Pour `text` as records and hints write it (`2->4`, `2 -> 4`: tubes from 1), from 0.
function parsePour(text) {
  const [from, to] = text.split("->").map(Number);
  return { from: from - 1, to: to - 1 };
}

// The units `move` pours under `rule` (as the watersort crate's rules say), or why it cannot be made.
function pourAmount(tubes, { from, to }, capacity, rule) {
  const src = tubes[from], dst = tubes[to];
  const top = src[src.length - 1];
  if (!src.length) return { why: "it is empty" };
  if (dst.length && dst[dst.length - 1] !== top) return { why: "the top colours differ" };
  if (dst.length >= capacity) return { why: `tube ${to + 1} is full` };
  if (rule === "whole-run" && tubes.some((t) => t.includes(HIDDEN))) {
    return { why: "hidden units are played under the standard and one-unit rules" };
  }
  let run = 0;
  while (run < src.length && src[src.length - 1 - run] === top) run += 1;
  const free = capacity - dst.length;
  if (rule === "whole-run" && run > free) return { why: `its run of ${run} does not fit (rule whole run)` };
  return { amount: rule === "one-unit" ? 1 : Math.min(run, free) };
}

// The tubes after a legal pour under `rule`, and the units it moved.
function pour(tubes, move, capacity, rule) {
  const next = tubes.map((t) => t.slice());
  const { amount } = pourAmount(tubes, move, capacity, rule);
  for (let k = 0; k < amount; k += 1) next[move.to].push(next[move.from].pop());
  return { tubes: next, added: amount };
}

// Shows frame `k` of a water-sort solution (the tubes after k pours), `lit` the pour that led to it.
function showFrame(sol, k, lit) {
  water.tubes = sol.frames[k].map((t) => t.slice());
  water.lit = lit;
  water.added = lit ? sol.added[k] : 0;
}

// The hint shown, while the position is the one it is for.
function currentHint() {
  return water.hint && water.hint.line === levelLine() ? water.hint : null;
}

function renderTubes() {
  const tubes = $("tubes");
  const height = Math.max(water.capacity, ...water.tubes.map((t) => t.length));
  const hint = currentHint();
  const waiting = waitingTube();
  tubes.dataset.tubes = water.tubes.map((t) => (t.length ? t.join("") : "-")).join(" ");
  tubes.replaceChildren(...water.tubes.map((units, i) => {
    const tube = document.createElement("div");
    tube.className = "tube";
    tube.dataset.tube = i + 1;
    tube.style.height = `calc(${height} * (var(--unit) + 2px) + 10px)`;
    tube.classList.toggle("from", !!water.lit && water.lit.from === i);
    tube.classList.toggle("to", !!water.lit && water.lit.to === i);
    tube.classList.toggle("chosen", water.chosen === i);
    tube.classList.toggle("waiting", waiting === i);
    tube.classList.toggle("hint-from", !!hint && !!hint.next && hint.next.from === i);
    tube.classList.toggle("hint-to", !!hint && !!hint.next && hint.next.to === i);
    // With a tube picked to pour from, the pours from it the hint found to lead to a dead end.
    const dead = !!hint && water.chosen !== null && hint.dead.has(`${water.chosen}>${i}`);
    tube.classList.toggle("dead", dead);
    const holds = units.length ? units.join("") : "empty";
    tube.setAttribute("aria-label", `tube ${i + 1}: ${holds}${dead ? " (a pour into it leads to a dead end)" : ""}`);
    tube.addEventListener("click", () => clickTube(i));
    units.forEach((letter, u) => {
      const unit = unitOf(letter);
      if (water.lit && water.lit.to === i && u >= units.length - water.added) unit.classList.add("poured");
      tube.appendChild(unit);
    });
    const label = document.createElement("span");
    label.className = "tube-number";
    label.classList.toggle("dead", dead);
    label.textContent = dead ? `${i + 1} ✕` : i + 1;
    label.title = dead ? "a pour into this tube leads to a dead end" : "";
    const column = document.createElement("div");
    column.className = "tube-column";
    column.append(tube, label);
    return column;
  }));
}

// One button of the palette: `pick` is what a click on a tube then does.
function pickButton(className, pick, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.dataset.pick = pick;
  b.title = title;
  return b;
}

// The palette: the pour tool, a unit of each colour, a hidden unit, and the eraser. While a reveal waits,
// a colour clicked is the colour the game showed.
function renderPalette() {
  const tool = pickButton("pick tool", "pour", "pour: click a tube to pour from, then the tube to pour into");
  tool.textContent = "Pour";
  const choices = [...PICKS, HIDDEN].map((letter) => {
    const title = letter === HIDDEN ? "a hidden unit (?), as games show the units below the top" : `colour ${letter}`;
    const b = pickButton("pick", letter, title);
    b.append(unitOf(letter));
    return b;
  });
  const eraser = pickButton("pick eraser", "", "eraser: click a tube to take its top unit off");
  eraser.textContent = "⌫";
  choices.push(eraser);
  choices.unshift(tool);
  for (const b of choices) {
    b.setAttribute("role", "radio");
    b.addEventListener("click", () => {
      const pick = b.dataset.pick;
      if (waitingTube() >= 0 && pick && pick !== "pour" && pick !== HIDDEN) { reveal(pick); return; }
      water.pick = pick;
      water.chosen = null;
      markPick();
      render();
    });
  }
  $("palette").replaceChildren(...choices);
  markPick();
}

function markPick() {
  for (const b of $("palette").children) b.setAttribute("aria-checked", String(b.dataset.pick === water.pick));
}

// The Colours and Empty fields as the tubes shown have them.
function followLevel() {
  // With hidden units, every colour fills one tube: some may not be in sight yet.
  const units = water.tubes.flat();
  const seen = new Set(units.filter((l) => l !== HIDDEN).map((l) => l.toLowerCase())).size;
  $("colors").value = (units.includes(HIDDEN) ? Math.floor(units.length / water.capacity) : seen) || $("colors").value;
  $("empty").value = water.tubes.filter((t) => !t.length).length;
  $("capacity").value = water.capacity;
}

// Changes the tubes by hand: the solution shown no longer applies, the level line follows.
function editTubes(change) {
  forgetSolution();
  water.lit = null;
  water.chosen = null;
  water.name = "custom";
  change(water.tubes);
  $("level").value = levelLine();
  followLevel();
  setStatus("");
  render();
}

// A click on tube `i`: with the pour tool a pour from or into it, else an edit.
function clickTube(i) {
  if (water.pick === "pour") choosePour(i); else editTube(i);
}

// A click on tube `i` with the pour tool: the first picks the tube to pour from (again: unpicks it), the
// second pours into tube `i` when the rule allows.
function choosePour(i) {
  if (waitingTube() >= 0) { askColour(); return; }
  const from = water.chosen;
  if (from === null || from === i) {
    if (from === null && !water.tubes[i].length) { setStatus(`Tube ${i + 1} is empty: nothing to pour.`, true); return; }
    water.chosen = from === i ? null : i;
    render();
    return;
  }
  const move = { from, to: i };
  const rule = $("rule").value;
  water.chosen = null;
  const { why } = pourAmount(water.tubes, move, water.capacity, rule);
  if (why) {
    setStatus(`Tube ${from + 1} cannot pour into tube ${i + 1}: ${why}.`, true);
    render();
    return;
  }
  const done = pour(water.tubes, move, water.capacity, rule);
  playedTo(done.tubes, move, done.added);
  setStatus(isSorted() ? "Sorted." : "");
  render();
}

// The player's own pour made: the solution shown no longer applies, the level line follows the tubes.
function playedTo(tubes, move, added) {
  forgetSolution();
  water.tubes = tubes;
  water.lit = move;
  water.added = added;
  $("level").value = levelLine();
  followLevel();
}

function isSorted() {
  return water.tubes.every((t) => !t.length
    || (t.length === water.capacity && t.every((l) => l === t[0] && l !== HIDDEN)));
}

// The tube in which the pour just made uncovered a hidden unit, waiting for the colour the game shows; -1
// if none. Only a pour uncovers a unit, so only a top is ever asked about.
function waitingTube() {
  const lit = water.lit;
  const tube = lit && water.tubes[lit.from];
  return tube && tube[tube.length - 1] === HIDDEN ? lit.from : -1;
}

function askColour() {
  setStatus(`Tube ${waitingTube() + 1} shows a unit that was hidden: click its colour in the palette, as the game shows it.`);
}

// The colour the game showed on the waiting tube. As in the game, the pour that uncovered it goes on when
// the unit is the colour poured and there is room (standard rule), and may uncover another; once nothing
// waits, the page plans again from there.
function reveal(letter) {
  const t = waitingTube();
  const tubes = water.tubes.map((tube) => tube.slice());
  const units = tubes.flat().length;
  const colours = new Set(tubes.flat().filter((l) => l !== HIDDEN).concat([letter]));
  if (tubes.flat().filter((l) => l === letter).length >= water.capacity) {
    setStatus(`It cannot be ${letter}: every unit of ${letter} is in sight already.`, true);
    return;
  }
  if (colours.size > units / water.capacity) {
    setStatus(`It cannot be ${letter}: the level has ${units / water.capacity} colours, all in sight already.`, true);
    return;
  }
  const tube = tubes[t], dst = tubes[water.lit.to];
  tube[tube.length - 1] = letter;
  let added = water.added;
  const goesOn = $("rule").value === "standard" && dst.length < water.capacity && dst[dst.length - 1] === letter;
  if (goesOn) { dst.push(tube.pop()); added += 1; }
  playedTo(tubes, water.lit, added);
  setStatus("");
  water.asked = -1;
  render();
  if (waitingTube() < 0) solve();
}

// Asks the server for a hint from the position shown (after the pours made, or the step of a solution
// reached): whether it can still be sorted, the fewest pours left and the next (its tubes marked), and
// the pours that lead to a dead end (marked when their source is picked with the pour tool).
async function showHint() {
  if (waitingTube() >= 0) { askColour(); return; }
  const line = levelLine();
  $("hint").disabled = true;
  setStatus("Looking for a hint…");
  try {
    const body = { puzzle: "water-sort", level: line, capacity: water.capacity, rule: $("rule").value };
    const h = await post("/api/hint", body);
    if (line !== levelLine()) return;
    const dead = h.pours.filter((p) => p.leads_to === "dead end").map((p) => parsePour(p.pour));
    water.hint = { line, next: h.next && parsePour(h.next), dead: new Set(dead.map((m) => `${m.from}>${m.to}`)) };
    const arrow = (m) => `${m.from + 1} → ${m.to + 1}`;
    const deadEnds = dead.length
      ? ` Pours that lead to a dead end: ${dead.map(arrow).join(", ")} (marked ✕ when their tube is picked with Pour).`
      : " No pour from here leads to a dead end.";
    const left = `${h.pours_left} pour${h.pours_left === 1 ? "" : "s"} left at fewest`;
    const said = {
      yes: h.pours_left === 0 ? "Sorted already."
        : `Still solvable: ${left}; next pour ${h.next && arrow(parsePour(h.next))} (marked).${deadEnds}`,
      no: "Dead: no sequence of pours sorts this position.",
      unknown: `Unknown: ${h.error}.`,
    }[h.sortable];
    setStatus(said, h.sortable === "no");
    render();
  } catch (e) {
    setStatus(e.message, true);
  } finally {
    $("hint").disabled = false;
  }
}

// A click on tube `i` with a colour or the eraser: the colour added on top, or the top unit taken off.
function editTube(i) {
  const tube = water.tubes[i];
  if (water.pick && tube.length >= water.capacity) {
    setStatus(`Tube ${i + 1} is full (capacity ${water.capacity}).`, true);
    return;
  }
  editTubes(() => { if (water.pick) tube.push(water.pick); else tube.pop(); });
}

function setLevel(text, capacity) {
  forgetSolution();
  const level = parseLevel(text);
  water.name = level.name;
  water.tubes = level.tubes;
  water.capacity = capacity;
  water.lit = null;
  water.chosen = null;
  $("level").value = text;
  followLevel();
  render();
}

// Sets the level typed once the server has checked it (refused with its reason otherwise); its capacity is
// the field's, or its longest tube's when that is longer. True when the level shown is the one typed.
async function setTypedLevel() {
  const text = $("level").value;
  const longest = Math.max(0, ...parseLevel(text).tubes.map((t) => t.length));
  const capacity = Math.max(Number($("capacity").value) || 4, longest);
  try {
    const v = await post("/api/check", { puzzle: "water-sort", level: text, capacity });
    if (!v.valid) { setStatus(v.error, true); return false; }
  } catch (e) {
    setStatus(e.message, true);
    return false;
  }
  setLevel(text, capacity);
  setStatus("");
  return true;
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
  if (waitingTube() >= 0) { askColour(); return; }
  if ($("level").value !== levelLine() && !(await setTypedLevel())) return;
  const rule = $("rule").value;
  const capacity = water.capacity;
  const body = { puzzle: "water-sort", level: levelLine(), capacity, rule };
  await runJob(body, "f", (r) => {
    $("w-stats").hidden = false;
    $("examined").textContent = r.expanded === undefined ? "–" : r.expanded.toLocaleString("en");
    $("w-time").textContent = `${r.seconds.toFixed(3)} s`;
    const known = r.status === "solved" || r.status === "plan";
    $("pours").textContent = known ? `${r.length}` : "–";
    if (!known) {
      setStatus(r.error || r.status, true);
      return;
    }
    const moves = r.moves.split(" ").filter((w) => w).map(parsePour);
    // The tubes after each pour, and the units each added: stepping back shows a frame, not an undo.
    const sol = { moves, frames: [parseLevel(r.instance).tubes], added: [0] };
    for (const m of moves) {
      const next = pour(sol.frames[sol.frames.length - 1], m, capacity, rule);
      sol.frames.push(next.tubes);
      sol.added.push(next.added);
    }
    showFrame(sol, 0, null);
    showSolution(sol, r.status === "plan" ? planText(r) : `Fewest pours: ${r.length}.`);
  });
}

// What a plan for a level with hidden units says: its pours, and how sure they are, as the server found.
function planText(r) {
  if (!r.length && !r.reveals) return "Nothing to pour: sorted, whatever the hidden units left are (they can only be their tube's colour).";
  const n = (k) => Number(k).toLocaleString("en");
  const pours = `${r.length} pour${r.length === 1 ? "" : "s"}`;
  const head = r.reveals
    ? `Plan: ${pours} up to the first reveal (then click the colour the game shows)`
    : `Plan: ${pours}, no reveal needed`;
  const among = r.exhaustive
    ? `the ${n(r.checked)} assignments of the hidden units that can be sorted (all checked)`
    : `the ${n(r.checked)} sortable assignments among ${n(r.checked + r.unsortable)} drawn at random of ${n(r.assignments)}`;
  const sure = r.safe
    ? `safe: the level stays solvable for every one of ${among}`
    : `not safe for all: the level stays solvable for ${n(r.sortable_for)} of ${among}`;
  return `${head}; ${sure}. At best ${r.best_case} pours in all.`;
}

function choosePuzzle() {
  forgetSolution();
  const w = isWater();
  $("tile-ui").hidden = w;
  $("water-ui").hidden = !w;
  $("view").hidden = w;
  $("water-view").hidden = !w;
  $("keys").hidden = w;
  $("hint").hidden = !w;
  $("w-keys").hidden = !w;
  $("notation-label").hidden = w;
  $("title").textContent = w ? "Water sort solver" : "Sliding-tile solver";
  $("subtitle").textContent = w
    ? "The fewest pours, proved by A*."
    : "Optimal solutions by IDA* over pattern databases.";
  document.title = $("title").textContent;
  if (w) $("goal-hint").hidden = true; else checkGoal();
  setStatus("");
  render();
}

renderPalette();
setLevel("demo: abca bcab cabc - -", 4);
setPosition(goalCells(), 4, 4);
loadBoards();
