// Water sort on the page. It opens in play mode: a tap on a tube picks it, a tap on another pours into it
// (Undo takes pours back, any number); a hint from the position reached (/api/hint: when it is dead, how
// many pours back the last sortable position was, and a button to go there); on a level with hidden units
// the plan up to the first reveal, the colour the game then shows asked for, and a new plan. Edit switches
// to the editor: a palette of colours, a hidden unit and the eraser, and tubes added and removed. Tubes are
// drawn bottom to top, each unit its colour and its letter (`?` a hidden one). Only the rules of a pour are
// worked out here, to play one at once; whether a level is valid, and what can still be sorted, is asked of
// the server.

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

// The capacity a typed level says by itself, or null when it does not: with every unit in sight and every
// colour the same number of units, that number (`ab cd ca db -`: 2), if every tube fits in it.
function impliedCapacity(tubes) {
  const units = tubes.flat();
  if (!units.length || units.includes(HIDDEN)) return null;
  const counts = new Map();
  for (const u of units) counts.set(u, (counts.get(u) || 0) + 1);
  const sizes = new Set(counts.values());
  if (sizes.size !== 1) return null;
  const [k] = sizes;
  return tubes.every((t) => t.length <= k) ? k : null;
}

// Pour `text` as records and hints write it (`2->4`, `2 -> 4`: tubes from 1), from 0.
function parsePour(text) {
  const [from, to] = text.split("->").map(Number);
  return { from: from - 1, to: to - 1 };
}

const pourText = (m) => `${m.from + 1}->${m.to + 1}`;

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

export default function create(shell, entry) {
  const { $, setStatus, api, post, html } = shell;

  const setup = html(`
  <div id="water-ui">
  <section class="setup" aria-label="Level">
    <div class="row">
      <label>Colours <input id="colors" type="number" min="1" max="16" value="6"></label>
      <label>Empty <input id="empty" type="number" min="0" max="4" value="2"></label>
      <label>Capacity <input id="capacity" type="number" min="1" max="8" value="4"></label>
      <label>Rule
        <select id="rule">
          <option value="standard">standard</option>
          <option value="whole-run">whole run</option>
          <option value="one-unit">one unit (ball sort)</option>
        </select>
      </label>
    </div>
    <form id="typed-level" class="row">
      <input id="level" type="text" autocomplete="off" spellcheck="false"
             placeholder="tubes bottom to top: abca bcab cabc - -" aria-label="Level">
      <button type="submit">Set</button>
    </form>
    <div class="row">
      <button id="random-level" type="button">Random level</button>
      <button id="undo" type="button" title="Take the last pour back" disabled>Undo</button>
      <button id="edit" type="button" aria-pressed="false" title="Build or change the level: colours, hidden units, tubes">Edit</button>
    </div>
    <div id="editor" hidden>
      <div class="row">
        <button id="add-tube" type="button" title="Add an empty tube">+ Tube</button>
        <button id="remove-tube" type="button" title="Remove the last tube">− Tube</button>
        <button id="clear-tubes" type="button" title="Empty every tube">Clear</button>
      </div>
    </div>
    <div id="palette" class="palette" role="radiogroup" aria-label="Tool: pour, a colour to add, a hidden unit, the eraser" hidden></div>
  </section>
  </div>`);
  const view = html(`
  <div id="water-view">
    <div id="tubes" class="tubes" aria-label="Tubes"></div>
    <p id="water-help" class="hint"></p>
  </div>`);
  const stats = html(`
  <dl id="w-stats" class="stats" hidden>
    <dt>pours</dt><dd id="pours"></dd>
    <dt>states examined</dt><dd id="examined"></dd>
    <dt>time</dt><dd id="w-time"></dd>
  </dl>`);
  const keys = html(`
  <p id="w-keys" class="hint keys">Keys with a solution shown: <kbd>←</kbd> <kbd>→</kbd> one pour back or on,
    <kbd>Space</kbd> play or pause, <kbd>Home</kbd> <kbd>End</kbd>, <kbd>Esc</kbd> back to the level.</p>`);

  // The level shown.
  const water = {
    name: "demo",
    capacity: 4,
    tubes: [],          // each tube its colour letters, bottom to top
    lit: null,          // the pour made last: { from, to } (0-based)
    added: 0,           // units the last pour added to its destination
    editing: false,     // the editor shown (else play mode)
    pick: "pour",       // the tool: "pour" to play pours, a colour to add, "?" a hidden unit, "" the eraser
    chosen: null,       // with the pour tool, the tube picked to pour from (0-based)
    hint: null,         // the last hint: { line, next, dead } (the position it is for, its next pour, the
                        // pours "from>to" that lead to a dead end); shown while that position is
    asked: -1,          // the tube whose uncovered unit's colour was last asked for
    start: null,        // the level line the pours made by hand start from
    played: [],         // those pours, each { move, before: { tubes, lit, added } } for Undo
  };

  function levelLine() {
    const tubes = water.tubes.map((t) => (t.length ? t.join("") : "-")).join(" ");
    return water.name ? `${water.name}: ${tubes}` : tubes;
  }

  // The hint shown, while the position is the one it is for.
  function currentHint() {
    return water.hint && water.hint.line === levelLine() ? water.hint : null;
  }

  function render() {
    renderTubes();
    const waiting = waitingTube();
    // While a reveal waits, the palette is where its colour is told, in play mode too.
    $("palette").hidden = !water.editing && waiting < 0;
    $("editor").hidden = !water.editing;
    $("edit").setAttribute("aria-pressed", String(water.editing));
    $("edit").textContent = water.editing ? "Play" : "Edit";
    $("undo").disabled = !water.played.length;
    $("water-help").textContent = water.editing
      ? "Pick a colour, then click a tube to add a unit on top (the eraser takes the top one off); Play goes back to pouring. Each tube reads bottom to top; a letter is a colour, ? a hidden unit, - an empty tube."
      : "Tap a tube, then the tube to pour it into. Undo takes pours back; Hint says whether the tubes can still be sorted.";
    if (waiting !== water.asked && waiting >= 0) askColour();
    water.asked = waiting;
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
        shell.render();
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

  // The pours made by hand start again from the tubes shown.
  function startHere() {
    water.start = levelLine();
    water.played = [];
  }

  // Changes the tubes by hand: the solution shown no longer applies, the level line follows.
  function editTubes(change) {
    shell.forgetSolution();
    water.lit = null;
    water.chosen = null;
    water.name = "custom";
    change(water.tubes);
    $("level").value = levelLine();
    followLevel();
    startHere();
    setStatus("");
    shell.render();
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
      if (from === null && !water.tubes[i].length) { setStatus(`Tube ${i + 1} is empty: nothing to pour.`, true, $("tubes")); return; }
      water.chosen = from === i ? null : i;
      shell.render();
      return;
    }
    const move = { from, to: i };
    const rule = $("rule").value;
    water.chosen = null;
    const { why } = pourAmount(water.tubes, move, water.capacity, rule);
    if (why) {
      setStatus(`Tube ${from + 1} cannot pour into tube ${i + 1}: ${why}.`, true, $("tubes"));
      shell.render();
      return;
    }
    if (shell.hasSolution()) { shell.forgetSolution(); startHere(); }
    water.played.push({ move, before: { tubes: water.tubes.map((t) => t.slice()), lit: water.lit, added: water.added } });
    const done = pour(water.tubes, move, water.capacity, rule);
    playedTo(done.tubes, move, done.added);
    setStatus(isSorted() ? "Sorted." : "");
    shell.render();
  }

  // Takes the last `n` pours made by hand back.
  function undo(n) {
    if (!water.played.length) return;
    shell.forgetSolution();
    let last = null;
    for (let k = 0; k < n && water.played.length; k += 1) last = water.played.pop();
    water.tubes = last.before.tubes;
    water.lit = last.before.lit;
    water.added = last.before.added;
    water.chosen = null;
    $("level").value = levelLine();
    followLevel();
    setStatus("");
    shell.render();
  }

  // The player's own pour made (or a revealed unit): the solution shown no longer applies, the level line
  // follows the tubes.
  function playedTo(tubes, move, added) {
    shell.forgetSolution();
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
    setStatus(`Tube ${waitingTube() + 1} shows a unit that was hidden: click its colour in the palette, as the game shows it.`, false, $("tubes"));
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
      setStatus(`It cannot be ${letter}: every unit of ${letter} is in sight already.`, true, $("palette"));
      return;
    }
    if (colours.size > units / water.capacity) {
      setStatus(`It cannot be ${letter}: the level has ${units / water.capacity} colours, all in sight already.`, true, $("palette"));
      return;
    }
    const tube = tubes[t], dst = tubes[water.lit.to];
    tube[tube.length - 1] = letter;
    let added = water.added;
    const goesOn = $("rule").value === "standard" && dst.length < water.capacity && dst[dst.length - 1] === letter;
    if (goesOn) { dst.push(tube.pop()); added += 1; }
    playedTo(tubes, water.lit, added);
    // What was hidden is a new level: pours before it cannot be taken back into what was not known.
    startHere();
    setStatus("");
    water.asked = -1;
    shell.render();
    if (waitingTube() < 0) solve();
  }

  // Asks the server for a hint from the position shown (after the pours made, or the step of a solution
  // reached): whether it can still be sorted, the fewest pours left and the next (its tubes marked), and
  // the pours that lead to a dead end (marked when their source is picked with the pour tool). With pours
  // made by hand, a dead position says how many pours back the last sortable one was, and offers to go there.
  async function showHint() {
    if (waitingTube() >= 0) { askColour(); return; }
    const line = levelLine();
    const button = $("hint");
    button.disabled = true;
    setStatus("Looking for a hint…");
    try {
      const body = { puzzle: entry.name, level: line, capacity: water.capacity, rule: $("rule").value };
      const byHand = !shell.hasSolution() && water.played.length > 0;
      if (byHand) Object.assign(body, { level: water.start, history: water.played.map((p) => pourText(p.move)).join(" ") });
      const h = await post("/api/hint", body);
      if (line !== levelLine()) return;
      const dead = h.pours.filter((p) => p.leads_to === "dead end").map((p) => parsePour(p.pour));
      water.hint = { line, next: h.next && parsePour(h.next), dead: new Set(dead.map((m) => `${m.from}>${m.to}`)) };
      const arrow = (m) => `${m.from + 1} → ${m.to + 1}`;
      const deadEnds = dead.length
        ? ` Pours that lead to a dead end: ${dead.map(arrow).join(", ")} (marked ✕ when their tube is picked).`
        : " No pour from here leads to a dead end.";
      const left = `${h.pours_left} pour${h.pours_left === 1 ? "" : "s"} left at fewest`;
      const back = h.take_back ? ` The last sortable position was ${h.take_back} pour${h.take_back === 1 ? "" : "s"} back.` : "";
      const said = {
        yes: h.pours_left === 0 ? "Sorted already."
          : `Still solvable: ${left}; next pour ${h.next && arrow(parsePour(h.next))} (marked).${deadEnds}`,
        no: `Dead: no sequence of pours sorts this position.${back}`,
        unknown: `Unknown: ${h.error}.`,
      }[h.sortable];
      setStatus(said, h.sortable === "no", button);
      if (h.take_back) {
        const go = document.createElement("button");
        go.type = "button";
        go.id = "go-back";
        go.textContent = `Go back ${h.take_back} pour${h.take_back === 1 ? "" : "s"}`;
        go.addEventListener("click", () => undo(h.take_back));
        const note = document.querySelector(".said");
        if (note) note.append(" ", go);
      }
      renderTubes();
    } catch (e) {
      setStatus(e.message, true, button);
    } finally {
      button.disabled = false;
    }
  }

  // A click on tube `i` with a colour or the eraser: the colour added on top, or the top unit taken off.
  function editTube(i) {
    const tube = water.tubes[i];
    if (water.pick && tube.length >= water.capacity) {
      setStatus(`Tube ${i + 1} is full (capacity ${water.capacity}).`, true, $("tubes"));
      return;
    }
    editTubes(() => { if (water.pick) tube.push(water.pick); else tube.pop(); });
  }

  function setLevel(text, capacity) {
    shell.forgetSolution();
    const level = parseLevel(text);
    water.name = level.name;
    water.tubes = level.tubes;
    water.capacity = capacity;
    water.lit = null;
    water.chosen = null;
    $("level").value = text;
    followLevel();
    startHere();
    shell.render();
  }

  // Sets the level typed once the server has checked it (refused with its reason otherwise). Its capacity
  // is the one the level says by itself when it does (every colour the same number of units), else the
  // field's, or its longest tube's when that is longer. True when the level shown is the one typed.
  async function setTypedLevel() {
    const text = $("level").value;
    const button = $("typed-level").querySelector("button");
    const tubes = parseLevel(text).tubes;
    const longest = Math.max(0, ...tubes.map((t) => t.length));
    const capacity = impliedCapacity(tubes) || Math.max(Number($("capacity").value) || 4, longest);
    try {
      const v = await post("/api/check", { puzzle: entry.name, level: text, capacity });
      if (!v.valid) { setStatus(v.error, true, button); return false; }
    } catch (e) {
      setStatus(e.message, true, button);
      return false;
    }
    setLevel(text, capacity);
    setStatus("");
    return true;
  }

  async function randomLevel() {
    const q = new URLSearchParams({
      puzzle: entry.name, colors: $("colors").value, empty: $("empty").value,
      capacity: $("capacity").value, rule: $("rule").value,
    });
    try {
      const p = await api(`/api/random?${q}`);
      setLevel(p.level, p.capacity);
      setStatus("");
    } catch (e) {
      setStatus(e.message, true, $("random-level"));
    }
  }

  async function solve() {
    if (waitingTube() >= 0) { askColour(); return; }
    if ($("level").value !== levelLine() && !(await setTypedLevel())) return;
    const rule = $("rule").value;
    const capacity = water.capacity;
    const body = { puzzle: entry.name, level: levelLine(), capacity, rule };
    await shell.runJob(body, "f", (r) => {
      $("w-stats").hidden = false;
      $("examined").textContent = r.expanded === undefined ? "–" : r.expanded.toLocaleString("en");
      $("w-time").textContent = `${r.seconds.toFixed(3)} s`;
      const known = r.status === "solved" || r.status === "plan";
      $("pours").textContent = known ? `${r.length}` : "–";
      if (!known) {
        setStatus(r.error || r.status, true, $("solve"));
        return;
      }
      const moves = r.moves.split(" ").filter((w) => w).map(parsePour);
      // The tubes after each pour, and the units each added: stepping back shows a frame, not an undo.
      const frames = [parseLevel(r.instance).tubes], added = [0];
      for (const m of moves) {
        const next = pour(frames[frames.length - 1], m, capacity, rule);
        frames.push(next.tubes);
        added.push(next.added);
      }
      shell.showSolution({
        count: moves.length,
        frame: (k) => {
          water.tubes = frames[k].map((t) => t.slice());
          water.lit = k > 0 ? moves[k - 1] : null;
          water.added = k > 0 ? added[k] : 0;
        },
        words: () => moves.map((m) => [`${m.from + 1}→${m.to + 1}`, 1]),
      }, r.status === "plan" ? planText(r) : `Fewest pours: ${r.length}.`);
    });
  }

  // What a plan for a level with hidden units says: its pours, and how sure they are, as the server found.
  function planText(r) {
    if (!r.length && !r.reveals) return "Nothing to pour: sorted, whatever the hidden units left are (they can only be their tube's colour).";
    const n = (k) => Number(k).toLocaleString("en");
    // `k` and the noun, plural unless one: never "1 pours".
    const count = (k, noun) => `${n(k)} ${noun}${Number(k) === 1 ? "" : "s"}`;
    const pours = count(r.length, "pour");
    const head = r.reveals
      ? `Plan: ${pours} up to the first reveal (then click the colour the game shows)`
      : `Plan: ${pours}, no reveal needed`;
    const among = r.exhaustive && r.checked === 1
      ? "the one assignment of the hidden units that can be sorted (all checked)"
      : r.exhaustive
      ? `the ${count(r.checked, "assignment")} of the hidden units that can be sorted (all checked)`
      : `the ${n(r.checked)} sortable assignments among ${n(r.checked + r.unsortable)} drawn at random of ${n(r.assignments)}`;
    const sure = r.safe && r.checked === 1
      ? `safe: the level stays solvable for ${among}`
      : r.safe
      ? `safe: the level stays solvable for every one of ${among}`
      : `not safe for all: the level stays solvable for ${n(r.sortable_for)} of ${among}`;
    return `${head}; ${sure}. At best ${count(r.best_case, "pour")} in all.`;
  }

  function start() {
    renderPalette();
    $("typed-level").addEventListener("submit", (ev) => {
      ev.preventDefault();
      setTypedLevel();
    });
    $("random-level").addEventListener("click", randomLevel);
    // A new capacity applies to the tubes shown when they fit in it (the editor fills up to it).
    $("capacity").addEventListener("change", () => {
      const c = Number($("capacity").value);
      if (c >= Math.max(1, ...water.tubes.map((t) => t.length))) { water.capacity = c; shell.render(); }
    });
    $("add-tube").addEventListener("click", () => editTubes((t) => t.push([])));
    $("remove-tube").addEventListener("click", () => editTubes((t) => t.pop()));
    $("clear-tubes").addEventListener("click", () => editTubes((t) => t.forEach((tube) => tube.splice(0))));
    $("undo").addEventListener("click", () => undo(1));
    $("edit").addEventListener("click", () => {
      water.editing = !water.editing;
      water.pick = water.editing ? "a" : "pour";
      water.chosen = null;
      markPick();
      shell.render();
    });
    setLevel("demo: abca bcab cabc - -", 4);
  }

  return {
    title: "Water sort solver",
    subtitle: "The fewest pours, proved by A*.",
    parts: { setup, view, stats, keys },
    notations: null,
    render,
    solve,
    hint: entry.hints ? showHint : null,
    key: () => false,
    forget: () => { $("w-stats").hidden = true; },
    shown: () => {},
    start,
  };
}
