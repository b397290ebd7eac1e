// Sliding blocks on the page (Klotski 华容道, Rush Hour): a built-in level picked or one typed, played by
// hand (click or tap a piece, then one of the places it can go, marked; or drag it there; or, with a piece
// picked, the arrow keys move it one cell), and solved in the metric chosen. The server says which moves are
// legal from the position shown and where each leads (/api/check), so the rules live in one place.

// The module's own style: the board, its walls, the pieces, the places a picked piece can go, the exit.
const STYLE = `
.blocks { position: relative; width: min(100%, 20rem); margin: 0.8rem auto 0; background: var(--frame); border-radius: 0.4rem;
  border: 6px solid #6b5e4a; touch-action: none; }
.block { position: absolute; display: flex; align-items: center; justify-content: center; border-radius: 0.35rem;
  color: #fff; font-weight: 700; user-select: none; cursor: pointer; box-shadow: inset 0 -3px 0 rgba(0,0,0,0.25);
  transition: left 0.15s ease, top 0.15s ease; }
.block.picked { outline: 3px solid var(--fg); outline-offset: -3px; }
.wall { position: absolute; background: #6b5e4a; border-radius: 0.2rem; }
.target { position: absolute; min-width: 0; padding: 0; border: 2px dashed var(--fg); background: rgba(255,255,255,0.35); border-radius: 0.35rem; }
.exit { position: absolute; background: var(--bg); }
.exit-bottom { bottom: -6px; height: 6px; }
.exit-top { top: -6px; height: 6px; }
.exit-left { left: -6px; width: 6px; }
.exit-right { right: -6px; width: 6px; }
#block-level { flex: 1; min-width: 8rem; font-family: ui-monospace, monospace; }
#block-walk { width: 5rem; }
`;

// A colour for each piece by its shape, the goal piece always the warm one.
function colourOf(piece) {
  if (piece.target) return "#c8553d";
  if (piece.axis !== "free") return ["#2d5d7b", "#3d7b5d", "#7b5d2d", "#5d2d7b"][(piece.letter.charCodeAt(0)) % 4];
  return { 1: "#8a9a5b", 2: "#4f7cac" }[Math.max(piece.height, piece.width) === 1 ? 1 : 2];
}

export default function create(shell, entry) {
  const { $, setStatus, api, post, html } = shell;
  const about = entry.about;
  document.head.append(Object.assign(document.createElement("style"), { textContent: STYLE }));

  const setup = html(`
  <div id="blocks-ui">
  <section class="setup" aria-label="Level">
    <div class="row">
      <label>Level <select id="block-builtin"></select></label>
      <label>Metric <select id="block-metric"></select></label>
      <label>Algorithm
        <select id="block-algorithm">
          <option value="astar" selected>A*</option><option value="ida">IDA*</option>
          <option value="bfs">BFS</option><option value="bibfs">bidirectional BFS</option>
        </select>
      </label>
    </div>
    <p id="block-note" class="note"></p>
    <form id="typed-blocks" class="row">
      <input id="block-level" type="text" autocomplete="off" spellcheck="false"
             placeholder="rows of letters, . empty, / between rows, then the goal: ABBC/ABBC/DEEF/DGHF/I..J B@3,1" aria-label="Level">
      <button type="submit">Set</button>
    </form>
    <div class="row">
      <button id="block-random" type="button">Shuffle</button>
      <label>by <input id="block-walk" type="number" min="1" max="10000" value="40"> moves</label>
      <button id="block-reset" type="button">Start again</button>
    </div>
  </section>
  </div>`);
  const view = html(`<div id="blocks-view"><div id="blocks" class="blocks" aria-label="Board"></div></div>`);
  const side = html(`<p id="block-play" class="free-play" aria-live="polite"></p>`);
  const stats = html(`
  <dl id="b-stats" class="stats" hidden>
    <dt>moves</dt><dd id="b-length"></dd>
    <dt>nodes</dt><dd id="b-nodes"></dd>
    <dt>time</dt><dd id="b-time"></dd>
  </dl>`);
  const keys = html(`
  <p id="b-keys" class="hint keys">Click a piece, then a marked place to move it there (or drag it); with a piece
    picked, <kbd>←</kbd> <kbd>↑</kbd> <kbd>→</kbd> <kbd>↓</kbd> move it one cell. With a solution shown:
    <kbd>←</kbd> <kbd>→</kbd> step, <kbd>Space</kbd> play or pause, <kbd>Esc</kbd> back to play.</p>`);

  const state = {
    text: "",           // the level shown, in the text form
    started: "",        // the level as it was set, for Start again
    picture: null,      // { rows, cols, walls, pieces, exit }
    places: null,       // each piece's [row, col] as shown (a solution's frame while one is)
    legal: [],          // the legal moves from the position: { piece, to, path, level }
    solved: false,
    picked: null,       // the letter of the piece picked to move
    moves: 0,           // moves made by hand since the level was set
    checked: 0,         // the latest check's number, so only its answer is shown
  };

  const metric = () => $("block-metric").value;

  // Asks the server for the level `text`: shows it when valid and returns true; says why not near `near`.
  async function show(text, near) {
    const ticket = ++state.checked;
    let v;
    try {
      v = await post("/api/check", { puzzle: entry.name, level: text, metric: metric() });
    } catch (e) {
      setStatus(e.message, true, near);
      return false;
    }
    if (ticket !== state.checked) return false;
    if (!v.valid) { setStatus(v.error, true, near); return false; }
    state.text = v.level;
    state.picture = v.picture;
    state.places = v.picture.pieces.map((p) => [p.row, p.col]);
    state.legal = v.legal;
    state.solved = v.solved;
    $("block-level").value = v.level;
    shell.render();
    return true;
  }

  async function setLevel(text, near) {
    shell.forgetSolution();
    state.picked = null;
    state.moves = 0;
    if (await show(text, near)) {
      state.started = state.text;
      setStatus("");
    }
  }

  function render() {
    const board = $("blocks");
    const pic = state.picture;
    if (!pic) return;
    const { rows, cols } = pic;
    board.style.aspectRatio = `${cols} / ${rows}`;
    board.dataset.level = state.text;
    const cell = (r, c, h, w) => ({
      left: `calc(${(100 * c) / cols}% + 3px)`, top: `calc(${(100 * r) / rows}% + 3px)`,
      width: `calc(${(100 * w) / cols}% - 6px)`, height: `calc(${(100 * h) / rows}% - 6px)`,
    });
    const parts = [];
    for (const [r, c] of pic.walls) {
      const wall = document.createElement("div");
      wall.className = "wall";
      Object.assign(wall.style, cell(r, c, 1, 1));
      parts.push(wall);
    }
    pic.pieces.forEach((p, i) => {
      const [r, c] = state.places[i];
      const el = document.createElement("div");
      el.className = "block";
      el.dataset.piece = p.letter;
      el.dataset.at = `${r},${c}`;
      el.textContent = p.letter;
      el.title = p.target ? `${p.letter}: the piece to bring to the exit` : `${p.letter}${p.axis === "free" ? "" : ` (moves ${p.axis}ly only)`}`;
      Object.assign(el.style, cell(r, c, p.height, p.width), { backgroundColor: colourOf(p) });
      el.classList.toggle("picked", state.picked === p.letter);
      el.addEventListener("click", () => pick(p.letter));
      el.addEventListener("pointerdown", (ev) => drag(ev, p.letter));
      parts.push(el);
    });
    // The places the picked piece can go, in free play.
    if (state.picked && !shell.hasSolution()) {
      const p = pic.pieces.find((q) => q.letter === state.picked);
      for (const m of state.legal.filter((l) => l.piece === state.picked)) {
        const dot = document.createElement("button");
        dot.type = "button";
        dot.className = "target";
        dot.dataset.to = m.to.join(",");
        dot.setAttribute("aria-label", `move ${m.piece} to row ${m.to[0]}, column ${m.to[1]}`);
        Object.assign(dot.style, cell(m.to[0], m.to[1], p.height, p.width));
        dot.addEventListener("click", (ev) => { ev.stopPropagation(); move(m); });
        parts.push(dot);
      }
    }
    // The exit: a gap in the frame where the goal piece leaves.
    for (const side of ["top", "bottom", "left", "right"]) {
      (pic.exit[side] || []).forEach((open, k) => {
        if (!open) return;
        const gap = document.createElement("div");
        gap.className = `exit exit-${side}`;
        const along = side === "top" || side === "bottom";
        gap.style[along ? "left" : "top"] = `${(100 * k) / (along ? cols : rows)}%`;
        gap.style[along ? "width" : "height"] = `${100 / (along ? cols : rows)}%`;
        parts.push(gap);
      });
    }
    board.replaceChildren(...parts);
    const line = $("block-play");
    if (shell.hasSolution()) line.textContent = "";
    else if (state.solved) line.textContent = state.moves ? `Solved in ${state.moves} move${state.moves === 1 ? "" : "s"} (${metric()} metric).` : "Solved.";
    else line.textContent = state.moves ? `${state.moves} move${state.moves === 1 ? "" : "s"} (${metric()} metric)` : "";
    line.classList.toggle("solved", state.solved);
  }

  function pick(letter) {
    if (shell.hasSolution()) return;
    state.picked = state.picked === letter ? null : letter;
    if (state.picked && !state.legal.some((m) => m.piece === letter)) setStatus(`${letter} cannot move from here.`, false, $("blocks"));
    else setStatus("");
    shell.render();
  }

  async function move(m) {
    state.moves += 1;
    const picked = state.picked;
    if (await show(m.level, $("blocks"))) {
      state.picked = state.legal.some((l) => l.piece === picked) ? picked : null;
      setStatus("");
      shell.render();
    }
  }

  // Drags piece `letter` from where the pointer went down: let go over a place it can go, it goes there.
  function drag(ev, letter) {
    if (shell.hasSolution()) return;
    const board = $("blocks");
    const start = [ev.clientX, ev.clientY];
    const up = (e) => {
      board.removeEventListener("pointerup", up);
      if (Math.hypot(e.clientX - start[0], e.clientY - start[1]) < 8) return; // a click, handled as one
      const box = board.getBoundingClientRect();
      const { rows, cols } = state.picture;
      const i = state.picture.pieces.findIndex((p) => p.letter === letter);
      const [r0, c0] = state.places[i];
      const dr = Math.round(((e.clientY - start[1]) / box.height) * rows);
      const dc = Math.round(((e.clientX - start[0]) / box.width) * cols);
      const m = state.legal.find((l) => l.piece === letter && l.to[0] === r0 + dr && l.to[1] === c0 + dc);
      if (m) move(m); else setStatus(`${letter} cannot go there in one move.`, true, board);
    };
    board.addEventListener("pointerup", up);
  }

  async function solve() {
    if ($("block-level").value.trim() !== state.text && !(await show($("block-level").value, $("typed-blocks")))) return;
    const body = { puzzle: entry.name, level: state.text, metric: metric(), algorithm: $("block-algorithm").value };
    const pieces = state.picture.pieces;
    await shell.runJob(body, $("block-algorithm").value === "ida" ? "bound" : "depth", (r) => {
      $("b-stats").hidden = false;
      $("b-nodes").textContent = r.nodes.toLocaleString("en");
      $("b-time").textContent = `${r.seconds.toFixed(3)} s`;
      if (r.status !== "solved") {
        $("b-length").textContent = "–";
        setStatus(r.error || r.status, true, $("solve"));
        return;
      }
      $("b-length").textContent = `${r.length} (${r.metric} metric)`;
      const frames = r.frames;
      shell.showSolution({
        count: r.moves.length,
        frame: (k) => { state.places = frames[k].map((p) => p.slice()); },
        words: () => r.moves.map((m) => [`${m.piece}→${m.to[0]},${m.to[1]}`, 1]),
      }, `Fewest moves in the ${r.metric} metric: ${r.length}.`);
      state.picked = null;
      // Which piece each frame's places belong to is the picture's order, the same as the start's.
      if (pieces.length !== frames[0].length) setStatus("the solution's pieces do not match the level shown", true);
    });
  }

  function start() {
    $("block-builtin").replaceChildren(...about.levels.map((l) => {
      const o = document.createElement("option");
      o.value = l.name;
      o.textContent = `${l.chinese} ${l.english}`;
      return o;
    }));
    $("block-metric").replaceChildren(...about.metrics.map((m) => {
      const o = document.createElement("option");
      o.value = m.name;
      o.textContent = m.name;
      o.title = m.about;
      return o;
    }));
    const note = () => {
      const m = about.metrics.find((x) => x.name === metric());
      $("block-note").textContent = m ? `${m.name}: ${m.about}.` : "";
    };
    note();
    $("block-builtin").addEventListener("change", () => {
      const l = about.levels.find((x) => x.name === $("block-builtin").value);
      // Rush Hour is counted in lines, Klotski in pieces: each level opens in its own community's metric.
      $("block-metric").value = l.name.startsWith("rush-hour") ? "line" : "piece";
      note();
      setLevel(l.level, $("block-builtin"));
    });
    $("block-metric").addEventListener("change", () => { note(); setLevel(state.text, $("block-metric")); });
    $("typed-blocks").addEventListener("submit", (ev) => {
      ev.preventDefault();
      setLevel($("block-level").value, $("typed-blocks").querySelector("button"));
    });
    $("block-random").addEventListener("click", async () => {
      const q = new URLSearchParams({ puzzle: entry.name, level: $("block-builtin").value, metric: metric(), walk: $("block-walk").value || "40" });
      try {
        const p = await api(`/api/random?${q}`);
        await setLevel(p.level, $("block-random"));
      } catch (e) {
        setStatus(e.message, true, $("block-random"));
      }
    });
    $("block-reset").addEventListener("click", () => setLevel(state.started, $("block-reset")));
    setLevel(about.levels[0].level);
  }

  return {
    title: "Sliding-block solver",
    subtitle: "Klotski (华容道) and Rush Hour in the fewest moves, in the metric each counts in.",
    parts: { setup, view, side, stats, keys },
    notations: null,
    render,
    solve,
    key: (key) => {
      const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
      if (!d || !state.picked) return false;
      const i = state.picture.pieces.findIndex((p) => p.letter === state.picked);
      const [r, c] = state.places[i];
      const m = state.legal.find((l) => l.piece === state.picked && l.to[0] === r + d[0] && l.to[1] === c + d[1]);
      if (m) move(m);
      return true;
    },
    forget: () => {
      $("b-stats").hidden = true;
      if (state.picture) state.places = state.picture.pieces.map((p) => [p.row, p.col]);
    },
    shown: () => {},
    start,
  };
}
