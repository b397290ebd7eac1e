// Sliding tiles on the page: a position set up (typed, shuffled, random, the goal), played by hand (a
// click, the arrow keys or a swipe slides a tile into the blank; a move counter and a timer, and "Solved"
// when the goal is reached), and solved with the algorithm and heuristic chosen. Tiles are always in the
// labels of the chosen goal, as the API takes and returns them. What the server knows (whether a position
// suits the other goal better, whether it is valid, the notations) is asked of it, never worked out here.

export default function create(shell, entry) {
  const { $, setStatus, api, post, html } = shell;

  const setup = html(`
  <div id="tile-ui">
  <section class="setup" aria-label="Position">
    <div class="row">
      <label>Board <select id="board"></select></label>
      <label>Goal
        <select id="goal">
          <option value="blank-last" selected>1 2 … 0 (blank last)</option>
          <option value="blank-first">0 1 2 … (blank first)</option>
        </select>
      </label>
      <label>Algorithm
        <select id="algorithm">
          <option value="ida" selected>IDA*</option><option value="astar">A*</option>
          <option value="bibfs">bidirectional BFS</option><option value="bfs">BFS</option>
        </select>
      </label>
      <label title="Count nodes as a plain textbook IDA* or A* does (one thread, children up, down, left, right), so your own search can be checked against them">
        <input id="textbook" type="checkbox"> textbook counts</label>
      <label>Heuristic
        <select id="heuristic">
          <option>auto</option><option>linear-conflict</option><option>manhattan</option><option>pdb</option>
        </select>
      </label>
    </div>
    <p id="board-note" class="note"></p>
    <form id="typed" class="row">
      <input id="tiles" type="text" inputmode="numeric" autocomplete="off" spellcheck="false"
             placeholder="tiles row by row, 0 the blank" aria-label="Tiles">
      <button type="submit">Set</button>
    </form>
    <div class="row">
      <button id="shuffle" type="button">Shuffle</button>
      <label>by <input id="walk" type="number" min="1" max="10000" value="40"> moves</label>
      <button id="random" type="button">Random</button>
      <button id="to-goal" type="button">Goal</button>
    </div>
  </section>
  </div>`);
  const view = html(`<div id="view" class="board" aria-label="Board"></div>`);
  const side = html(`
  <div>
    <p id="free-play" class="free-play" aria-live="polite"></p>
    <p id="goal-hint" class="goal-hint" role="note" hidden></p>
  </div>`);
  const stats = html(`
  <dl id="stats" class="stats" hidden>
    <dt>length</dt><dd id="length"></dd>
    <dt>nodes</dt><dd id="nodes"></dd>
    <dt>time</dt><dd id="time"></dd>
    <dt>algorithm</dt><dd id="algo"></dd>
    <dt>heuristic</dt><dd id="heur"></dd>
    <dt>iterations</dt><dd id="bounds"></dd>
    <dt>goal</dt><dd id="goal-tiles"></dd>
  </dl>`);
  const keys = html(`
  <p id="keys" class="hint keys">Keys: <kbd>←</kbd> <kbd>↑</kbd> <kbd>→</kbd> <kbd>↓</kbd> slide the tile beside
    the blank that way (U D L R, as speedsolvers write it). With a solution shown: <kbd>←</kbd> <kbd>→</kbd> step,
    <kbd>Space</kbd> play or pause, <kbd>Home</kbd> <kbd>End</kbd>, <kbd>Esc</kbd> back to free play.</p>`);
  // On a touch screen there are no arrow keys: the help would only confuse.
  if (window.matchMedia && window.matchMedia("(pointer: coarse)").matches) keys.classList.add("touch-hidden");

  const state = {
    rows: 4, cols: 4,
    cells: [],          // the tiles by cell, 0 the blank
    lit: null,          // the tile that moved last
    checked: 0,         // the number of the latest position check, so that only its answer is shown
    moves: 0,           // slides made by hand since the position was set
    started: null,      // when the first of them was made (ms), for the timer
    solved: false,      // the goal reached by hand
    clock: null,        // the timer's interval
  };
  const boards = new Map();  // the boards the server offers, each with its heuristic and what to expect

  function goalCells() {
    const tiles = [...Array(state.rows * state.cols).keys()];
    return $("goal").value === "blank-last" ? tiles.slice(1).concat([0]) : tiles;
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
    showFreePlay();
  }

  // The free play line: the slides made by hand and the time since the first, or how the goal was reached.
  function showFreePlay() {
    const line = $("free-play");
    if (!state.moves) { line.textContent = ""; return; }
    const seconds = ((state.solved ? state.solved : Date.now()) - state.started) / 1000;
    const n = `${state.moves} move${state.moves === 1 ? "" : "s"}`;
    line.textContent = state.solved ? `Solved: ${n} in ${seconds.toFixed(1)} s.` : `${n} · ${seconds.toFixed(0)} s`;
    line.classList.toggle("solved", !!state.solved);
  }

  function resetFreePlay() {
    clearInterval(state.clock);
    Object.assign(state, { moves: 0, started: null, solved: false, clock: null });
  }

  // Slides `tile` into `cells`' blank if it is next to it; false otherwise.
  function slideIn(cells, tile) {
    const { cols } = state;
    const from = cells.indexOf(tile), blank = cells.indexOf(0);
    const dr = Math.abs(Math.floor(from / cols) - Math.floor(blank / cols));
    const dc = Math.abs((from % cols) - (blank % cols));
    if (from < 0 || dr + dc !== 1) return false;
    cells[blank] = tile;
    cells[from] = 0;
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

  function setPosition(cells, rows, cols) {
    shell.forgetSolution();
    resetFreePlay();
    state.rows = rows; state.cols = cols;
    state.cells = cells;
    state.lit = null;
    $("tiles").value = cells.join(" ");
    shell.render();
    checkGoal();
  }

  // A slide the user makes (a click, a key or a swipe): the solution shown no longer applies; the free
  // play counter and timer go on, until the goal is reached.
  function userSlide(t) {
    if (shell.hasSolution()) shell.forgetSolution();
    if (!slideIn(state.cells, t)) return;
    state.lit = t;
    if (state.solved) resetFreePlay();
    if (!state.moves) {
      state.started = Date.now();
      state.clock = setInterval(showFreePlay, 1000);
    }
    state.moves += 1;
    if (state.cells.every((c, i) => c === goalCells()[i])) {
      state.solved = Date.now();
      clearInterval(state.clock);
    }
    $("tiles").value = state.cells.join(" ");
    setStatus("");
    shell.render();
    checkGoal();
  }

  function request(cells) {
    return { puzzle: entry.name, board: `${state.rows}x${state.cols}`, tiles: cells, goal: $("goal").value };
  }

  // Asks the server whether the position shown is clearly closer to the other goal, and says so beside the
  // board (the same rule as `solver solve`'s note).
  async function checkGoal() {
    const ticket = ++state.checked;
    const hint = $("goal-hint");
    try {
      const v = await post("/api/check", request(state.cells));
      if (ticket !== state.checked) return;
      const c = v.valid ? v.closer : null;
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

  function showBoardNote() {
    const b = boards.get($("board").value);
    $("board-note").textContent = b ? `${b.board} with auto: ${b.heuristic}; ${b.about}.` : "";
  }

  async function randomPosition(walk, button) {
    const { rows, cols } = boardSize();
    const q = new URLSearchParams({ puzzle: entry.name, board: `${rows}x${cols}`, goal: $("goal").value });
    if (walk) q.set("walk", walk);
    try {
      const p = await api(`/api/random?${q}`);
      setPosition(p.tiles, rows, cols);
      setStatus("");
    } catch (e) {
      setStatus(e.message, true, button);
    }
  }

  // A new goal keeps the tiles shown, unless they are the old goal: then the new goal is shown. The choice
  // is remembered for the next visit.
  function changeGoal() {
    try { localStorage.setItem("stp-goal", $("goal").value); } catch (e) { /* storage may be off */ }
    const n = state.rows * state.cols;
    const oldGoal = $("goal").value === "blank-last" ? [...Array(n).keys()] : [...Array(n).keys()].slice(1).concat([0]);
    const wasGoal = state.cells.every((t, i) => t === oldGoal[i]);
    setPosition(wasGoal ? goalCells() : state.cells.slice(), state.rows, state.cols);
  }

  async function solve() {
    const start = state.cells.slice();
    const body = { ...request(start), heuristic: $("heuristic").value, algorithm: $("algorithm").value };
    if ($("textbook").checked) body.textbook = true;
    await shell.runJob(body, $("algorithm").value === "ida" ? "bound" : "depth", (r) => {
      $("stats").hidden = false;
      $("nodes").textContent = r.nodes.toLocaleString("en");
      $("time").textContent = `${r.seconds.toFixed(3)} s`;
      $("algo").textContent = $("algorithm").selectedOptions[0].textContent;
      $("heur").textContent = r.heuristic;
      $("goal-tiles").textContent = r.goal;
      // IDA*'s iterations: bound, nodes generated and expanded in each.
      $("bounds").textContent = (r.bounds || "").split(" ").filter((w) => w)
        .map((w) => { const [b, g, e] = w.split(":"); return `${b}: ${Number(g).toLocaleString("en")} / ${Number(e).toLocaleString("en")}`; })
        .join(" · ") || "–";
      if (r.status !== "solved") {
        $("length").textContent = "–";
        setStatus(r.error || r.status, true, $("solve"));
        return;
      }
      const n = r.notation;
      const movesWord = (k) => `${k} move${k === 1 ? "" : "s"}`;
      $("length").textContent = `${movesWord(r.length)} (${n.slides} in the multi-tile metric)`;
      const moves = n.tiles.split(" ").filter((w) => w).map(Number);
      // The positions after each move, so that any step is shown at once.
      const frames = [start];
      for (const t of moves) {
        const next = frames[frames.length - 1].slice();
        slideIn(next, t);
        frames.push(next);
      }
      shell.showSolution({
        count: moves.length,
        frame: (k) => { state.cells = frames[k].slice(); state.lit = k > 0 ? moves[k - 1] : null; },
        words: (kind) => {
          const text = n[kind];
          // udlr is run together (U2LD3R): a slide is a letter and its count, if any.
          if (kind === "udlr") return (text.match(/[UDLR]\d*/g) || []).map((w) => [w, Number(w.slice(1) || 1)]);
          return kind === "dirs" ? [...text].map((d) => [d, 1]) : text.split(" ").filter((w) => w).map((w) => [w, 1]);
        },
      }, `Optimal: ${movesWord(r.length)}.`);
    });
  }

  // Swipes on a touch screen: the tile beside the blank slides the way the finger went.
  function swipes() {
    let from = null;
    view.addEventListener("touchstart", (ev) => { const t = ev.touches[0]; from = [t.clientX, t.clientY]; }, { passive: true });
    view.addEventListener("touchend", (ev) => {
      if (!from) return;
      const t = ev.changedTouches[0];
      const dx = t.clientX - from[0], dy = t.clientY - from[1];
      from = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 20) return;
      const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : (dy > 0 ? "D" : "U");
      const tile = tileMoving(dir);
      if (tile !== null) userSlide(tile);
    });
  }

  async function loadBoards() {
    const chosen = $("board").value || "4x4";
    $("board").replaceChildren(...entry.about.boards.map((x) => {
      boards.set(x.board, x);
      const o = document.createElement("option");
      o.textContent = x.board;
      o.selected = x.board === chosen;
      return o;
    }));
    showBoardNote();
  }

  function start() {
    loadBoards();
    try {
      const goal = localStorage.getItem("stp-goal");
      if (goal === "blank-first" || goal === "blank-last") $("goal").value = goal;
    } catch (e) { /* storage may be off */ }
    $("typed").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const { rows, cols } = boardSize();
      const button = $("typed").querySelector("button");
      const tiles = $("tiles").value.split(/[\s,]+/).filter((w) => w).map(Number);
      if (tiles.length !== rows * cols || tiles.some((t) => !Number.isInteger(t) || t < 0)) {
        setStatus(`Type ${rows * cols} whole numbers, 0 the blank.`, true, button);
        return;
      }
      try {
        const v = await post("/api/check", { ...request(tiles), board: `${rows}x${cols}` });
        if (!v.valid) { setStatus(v.error, true, button); return; }
      } catch (e) {
        setStatus(e.message, true, button);
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
    $("shuffle").addEventListener("click", () => randomPosition(Number($("walk").value) || 40, $("shuffle")));
    $("random").addEventListener("click", () => randomPosition(null, $("random")));
    $("to-goal").addEventListener("click", () => setPosition(goalCells(), state.rows, state.cols));
    swipes();
    const { rows, cols } = boardSize();
    state.rows = rows; state.cols = cols;
    state.cells = goalCells();
    $("tiles").value = state.cells.join(" ");
  }

  return {
    title: "Sliding-tile solver",
    subtitle: "Optimal solutions by IDA* over pattern databases.",
    parts: { setup, view, side, stats, keys },
    notations: [["tiles", "tiles slid (3 1 2)"], ["udlr", "tile directions (U2LD3R)"], ["dirs", "blank directions"]],
    render,
    solve,
    key: (key) => {
      const dir = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[key];
      if (!dir) return false;
      const t = tileMoving(dir);
      if (t !== null) userSlide(t);
      return true;
    },
    forget: () => { $("stats").hidden = true; },
    shown: () => checkGoal(),
    start,
  };
}
