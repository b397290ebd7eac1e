// The page's shell, shared by every puzzle: the puzzle menu (from /api/puzzles), the slots each puzzle's
// module fills with its parts, a solve run as a job of the server (/api/jobs: its progress shown while it
// runs, Cancel stopping it), the status line and the messages beside the control that caused them, and one
// player for every puzzle's solution (start, back, play, step, end, speed, the keyboard), its moves listed
// in the notation picked with the current one marked.
//
// A puzzle's module (served at /puzzles/NAME.js) is an ES module whose default export takes this shell and
// the puzzle's entry of /api/puzzles, and returns the puzzle as the shell drives it:
//   title, subtitle        the page's heading while the puzzle is shown
//   parts                  { setup, view, side, stats, keys }: elements the shell puts in its slots (any may
//                          be missing), shown only while the puzzle is
//   notations              [[value, label], ...] of the "moves as" menu, or null for none
//   render()               draws the position shown
//   solve()                solves what is shown (with shell.runJob, then shell.showSolution)
//   hint()                 (when the puzzle gives hints) help from the position shown
//   key(key)               a key in free play (no solution shown): true when it was the puzzle's
//   forget()               the solution shown is gone: hide what the puzzle showed of it
//   shown()                the puzzle was chosen
//   start()                (optional) once, after its parts are in the page
// A solution given to shell.showSolution is { count, frame(k), words(notation) }: its number of moves, a
// function that shows the position after k of them, and its moves as [word, moves it stands for] pairs.
// The shell passes its helpers in `shell`: $, setStatus(text, isError, near), api, post, html, runJob,
// forgetSolution, showSolution, render, hasSolution. It knows no puzzle: what is particular to one is in its
// module.
"use strict";

const $ = (id) => document.getElementById(id);

const player = {
  solution: null,     // { count, frame, words }
  at: 0,              // moves played
  timer: null,
  job: null,          // the solve running: { id, poll } (the poll's timer)
};

const puzzles = new Map();  // name -> the puzzle its module made
let puzzle = null;           // the puzzle shown

// The status line says `text` (an error in red), and so does a note beside `near`, the control that caused
// it, so that it is seen where the user is looking (on a phone, the status line may be below the fold).
function setStatus(text, isError, near) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!isError);
  for (const old of document.querySelectorAll(".said")) old.remove();
  if (!near || !text) return;
  const note = document.createElement("p");
  note.className = `said note${isError ? " error" : ""}`;
  note.setAttribute("role", isError ? "alert" : "status");
  note.textContent = text;
  (near.closest(".row, form") || near).after(note);
}

async function api(url, options) {
  const res = await fetch(url, options);
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

// The element of an HTML fragment (one top element): how a module writes its parts.
function html(text) {
  const t = document.createElement("template");
  t.innerHTML = text.trim();
  return t.content.firstElementChild;
}

const post = (url, body) => api(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

// ---- Solving, as a job ----

function stopJob() {
  const job = player.job;
  if (!job) return;
  player.job = null;
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
  player.solution = null;
  $("player").hidden = true;
  if (puzzle) puzzle.forget();
}

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
    setStatus(e.message, true, $("solve"));
    return;
  }
  const job = { id, poll: null };
  player.job = job;
  $("cancel").hidden = false;
  $("progress").hidden = false;
  $("progress").textContent = "Solving…";
  const poll = async () => {
    let r;
    try {
      r = await api(`/api/jobs/${id}`);
    } catch (e) {
      if (player.job !== job) return;
      stopJob();
      setStatus(e.message, true, $("solve"));
      return;
    }
    if (player.job !== job) return;
    if (r.state === "running") {
      const depth = r.depth ? ` · ${depthName} ${r.depth}` : " · getting ready";
      $("progress").textContent = `Solving… ${r.seconds.toFixed(1)} s${depth} · ${r.expanded.toLocaleString("en")} nodes expanded`;
      job.poll = setTimeout(poll, 250);
      return;
    }
    player.job = null;
    $("cancel").hidden = true;
    $("progress").hidden = true;
    $("solve").disabled = false;
    if (r.state === "failed") setStatus(r.error, true, $("solve"));
    else done(r.result);
  };
  job.poll = setTimeout(poll, 100);
}

function cancel() {
  if (!player.job) return;
  const shown = $("progress").textContent.replace("Solving… ", "");
  stopJob();
  setStatus(`Cancelled after ${shown}.`);
}

// ---- The player ----

// Shows a solution in the player, from its start.
function showSolution(solution, message) {
  player.solution = solution;
  player.at = 0;
  solution.frame(0);
  $("player").hidden = false;
  showMoves();
  setStatus(message);
  render();
}

// The move list in the notation picked: each item the moves it stands for (`L3`: three), so that the
// item of the move just played is marked; a click on an item plays up to it.
function showMoves() {
  const words = player.solution.words($("notation").value);
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

// The position, the player's counter and buttons, and the move list's marks.
function render() {
  if (puzzle) puzzle.render();
  const sol = player.solution;
  if (!sol) return;
  const end = player.at === sol.count;
  $("counter").textContent = `${player.at} / ${sol.count}`;
  $("back").disabled = $("first").disabled = player.at === 0;
  $("step").disabled = $("last").disabled = end;
  $("play").textContent = player.timer ? "Pause" : "Play";
  $("play").disabled = end && !player.timer;
  for (const li of $("moves").children) {
    const from = Number(li.dataset.from), to = Number(li.dataset.to);
    li.classList.toggle("done", to <= player.at);
    li.classList.toggle("now", from < player.at && player.at <= to);
  }
  const now = $("moves").querySelector(".now");
  if (now) now.scrollIntoView({ block: "nearest" });
}

// One move forward or back.
function step(forward) {
  const sol = player.solution;
  if (!sol) return;
  const to = player.at + (forward ? 1 : -1);
  if (to < 0 || to > sol.count) return;
  player.at = to;
  sol.frame(to);
  if (player.at === sol.count) pause();
  render();
}

function jump(to) {
  const sol = player.solution;
  if (!sol) return;
  pause();
  player.at = to;
  sol.frame(to);
  render();
}

function pause() {
  clearInterval(player.timer);
  player.timer = null;
}

function play() {
  const sol = player.solution;
  if (!sol || player.at === sol.count) return;
  if (player.timer) { pause(); render(); return; }
  player.timer = setInterval(() => step(true), 1000 / Number($("speed").value));
  render();
}

// Keys: with a solution shown, ← → step, Space plays or pauses, Home and End jump, Esc leaves it; without
// one, the puzzle's own (the tiles' arrows). Keys typed into a field are theirs.
function onKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.closest("input, select, textarea")) return;
  const sol = player.solution;
  if (!sol) {
    if (puzzle && puzzle.key(ev.key)) ev.preventDefault();
    return;
  }
  const act = {
    ArrowLeft: () => { pause(); step(false); }, ArrowRight: () => { pause(); step(true); }, " ": play,
    Home: () => jump(0), End: () => jump(sol.count), Escape: () => { forgetSolution(); setStatus(""); render(); },
  }[ev.key];
  if (!act) return;
  ev.preventDefault();
  act();
}

// ---- The puzzles ----

const SLOTS = ["setup", "view", "side", "stats", "keys"];

// Shows `name`'s puzzle and its parts, and remembers the choice for the next visit.
function choosePuzzle(name) {
  forgetSolution();
  puzzle = puzzles.get(name) || puzzles.values().next().value;
  $("puzzle").value = puzzle.name;
  for (const p of puzzles.values()) for (const slot of SLOTS) if (p.parts[slot]) p.parts[slot].hidden = p !== puzzle;
  $("hint").hidden = !puzzle.hint;
  $("notation-label").hidden = !puzzle.notations;
  $("notation").replaceChildren(...(puzzle.notations || []).map(([value, label]) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    return o;
  }));
  $("title").textContent = puzzle.title;
  $("subtitle").textContent = puzzle.subtitle;
  document.title = puzzle.title;
  try { localStorage.setItem("stp-puzzle", puzzle.name); } catch (e) { /* storage may be off */ }
  setStatus("");
  puzzle.shown();
  render();
}

const shell = { $, setStatus, api, post, html, runJob, forgetSolution, showSolution, render, hasSolution: () => !!player.solution };

async function start() {
  const { puzzles: offered } = await api("/api/puzzles");
  for (const entry of offered) {
    const module = await import(entry.module);
    const made = module.default(shell, entry);
    made.name = entry.name;
    for (const slot of SLOTS) if (made.parts[slot]) $(`${slot}-slot`).append(made.parts[slot]);
    puzzles.set(entry.name, made);
    const o = document.createElement("option");
    o.value = entry.name;
    o.textContent = entry.title;
    $("puzzle").append(o);
  }
  for (const p of puzzles.values()) if (p.start) p.start();
  let remembered = null;
  try { remembered = localStorage.getItem("stp-puzzle"); } catch (e) { /* storage may be off */ }
  choosePuzzle(new URLSearchParams(location.search).get("puzzle") || remembered || offered[0].name);
}

$("solve").addEventListener("click", () => puzzle.solve());
$("cancel").addEventListener("click", cancel);
$("hint").addEventListener("click", () => puzzle.hint());
$("puzzle").addEventListener("change", () => choosePuzzle($("puzzle").value));
$("step").addEventListener("click", () => { pause(); step(true); });
$("back").addEventListener("click", () => { pause(); step(false); });
$("first").addEventListener("click", () => jump(0));
$("last").addEventListener("click", () => jump(player.solution.count));
$("play").addEventListener("click", play);
$("speed").addEventListener("input", () => { if (player.timer) { pause(); play(); } });
$("notation").addEventListener("change", () => { if (player.solution) { showMoves(); render(); } });
document.addEventListener("keydown", onKey);

start().catch((e) => setStatus(`The page could not start: ${e.message}`, true));
