"""Pictures for notebooks, with no plotting library: SVG boards and tubes, and a solution stepped through
with a slider (plain HTML and a line of JavaScript; without JavaScript the start is shown)."""

import html
import itertools

_CELL = 40
_counter = itertools.count()


def board_svg(tiles, rows, cols, moved=None):
    """An SVG picture of a position: `tiles` row by row, 0 the blank; `moved` (a tile) is highlighted."""
    w, h = cols * _CELL + 4, rows * _CELL + 4
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
             f'<rect width="{w}" height="{h}" fill="#555" rx="4"/>']
    for i, t in enumerate(tiles):
        if t == 0:
            continue
        x, y = 2 + (i % cols) * _CELL, 2 + (i // cols) * _CELL
        fill = "#f6c85f" if t == moved else "#f4efe4"
        parts.append(f'<rect x="{x + 1}" y="{y + 1}" width="{_CELL - 2}" height="{_CELL - 2}" rx="4" fill="{fill}"/>')
        parts.append(f'<text x="{x + _CELL / 2}" y="{y + _CELL / 2 + 6}" font-family="sans-serif" font-size="17" '
                     f'text-anchor="middle" fill="#222">{t}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _shape(n, board):
    if board is not None:
        return board
    k = round(n ** 0.5)
    if k * k != n:
        raise ValueError(f"{n} tiles are no square board: give board=(rows, cols)")
    return k, k


class Board:
    """A sliding-tile position that draws itself in a notebook: Board(tiles, board=None)."""

    def __init__(self, tiles, board=None):
        if isinstance(tiles, str):
            tiles = [int(w) for w in tiles.replace(",", " ").split()]
        self.tiles = list(tiles)
        self.rows, self.cols = _shape(len(self.tiles), board)

    def __repr__(self):
        return f"Board({self.tiles}, board=({self.rows}, {self.cols}))"

    def _repr_svg_(self):
        return board_svg(self.tiles, self.rows, self.cols)


def solution_html(sol):
    """A solution as HTML: its figures, and its boards stepped through with a slider."""
    rows, cols = sol.board
    boards = sol.boards()
    moved = [None] + list(sol.moves)
    uid = f"stp{next(_counter)}"
    frames = "".join(
        f'<div class="{uid}f" style="display:{"block" if i == 0 else "none"}">'
        f'{board_svg(b, rows, cols, moved[i])}</div>' for i, b in enumerate(boards))
    head = (f"length {sol.length}" if sol.length is not None else f"status {sol.status} ({html.escape(sol.error or '')})")
    figures = (f"<b>{head}</b> &middot; {sol.nodes:,} nodes generated, {sol.expanded:,} expanded &middot; "
               f"{sol.seconds:.4f} s &middot; {html.escape(sol.algorithm)}, {html.escape(sol.heuristic)}")
    slider = ""
    if len(boards) > 1:
        js = (f"var f=document.getElementsByClassName('{uid}f');for(var i=0;i<f.length;i++)"
              f"f[i].style.display=(i==this.value)?'block':'none';"
              f"document.getElementById('{uid}n').textContent=this.value;")
        slider = (f'<div><input type="range" min="0" max="{len(boards) - 1}" value="0" oninput="{js}"> '
                  f'move <span id="{uid}n">0</span> of {len(boards) - 1}</div>')
    dirs = f"<div><code>{html.escape(sol.directions)}</code></div>" if sol.directions else ""
    return f"<div>{figures}{dirs}{slider}{frames}</div>"


_PALETTE = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
            "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#800000", "#aaffc3", "#000075"]


def water_svg(colours, tubes, capacity):
    """An SVG picture of water sort tubes (each bottom to top, colour indices)."""
    unit, tw, gap = 18, 28, 12
    w, h = len(tubes) * (tw + gap) + gap, capacity * unit + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">']
    for i, tube in enumerate(tubes):
        x = gap + i * (tw + gap)
        for j, c in enumerate(tube):
            y = 4 + (capacity - 1 - j) * unit
            parts.append(f'<rect x="{x}" y="{y}" width="{tw}" height="{unit}" fill="{_PALETTE[c % len(_PALETTE)]}">'
                         f'<title>{html.escape(colours[c])}</title></rect>')
        parts.append(f'<rect x="{x}" y="4" width="{tw}" height="{capacity * unit}" fill="none" stroke="#444" '
                     f'stroke-width="2" rx="3"/>')
        parts.append(f'<text x="{x + tw / 2}" y="{h - 6}" font-family="sans-serif" font-size="12" '
                     f'text-anchor="middle">{i + 1}</text>')
    parts.append("</svg>")
    return "".join(parts)


def blocks_svg(picture):
    """An SVG picture of a sliding-block level: the board, its walls, its pieces (the goal piece red)."""
    cell, pad = 40, 6
    rows, cols = picture["rows"], picture["cols"]
    w, h = cols * cell + 2 * pad, rows * cell + 2 * pad
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
             f'<rect width="{w}" height="{h}" rx="6" fill="#6b5e4a"/>',
             f'<rect x="{pad}" y="{pad}" width="{cols * cell}" height="{rows * cell}" fill="#c9c2b3"/>']
    for r, c in picture["walls"]:
        parts.append(f'<rect x="{pad + c * cell}" y="{pad + r * cell}" width="{cell}" height="{cell}" fill="#6b5e4a"/>')
    for p in picture["pieces"]:
        x, y = pad + p["col"] * cell + 2, pad + p["row"] * cell + 2
        pw, ph = p["width"] * cell - 4, p["height"] * cell - 4
        fill = "#c8553d" if p["target"] else ("#2d5d7b" if p["axis"] != "free" else "#4f7cac")
        parts.append(f'<rect x="{x}" y="{y}" width="{pw}" height="{ph}" rx="5" fill="{fill}"/>'
                     f'<text x="{x + pw / 2}" y="{y + ph / 2 + 5}" font-family="sans-serif" font-size="15" '
                     f'font-weight="bold" fill="#fff" text-anchor="middle">{html.escape(p["letter"])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def install(solution_type):
    """Gives the native classes their notebook pictures."""
    solution_type._repr_html_ = solution_html
    solution_type.board_svg = lambda self, step=0: board_svg(self.boards()[step], *self.board)
