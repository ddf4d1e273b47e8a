"""The live boards, drawn as SVG from each engine's state JSON (the page never needs to know the rules).

Matterhorn: the pyramid of lines 12 to 5 and the summit, with tokens, obstacles and climbers; each free circle
carries its number from the left of its line, the "circle 3" the moves name.
Mountain Goats: the six mountains 5–10 (and the Big Mountain when played), goats and tokens left.
Magic Mountain: the coloured path from the top, the figures on it, and the goal tile.
Banana Matcho: the wonder tree, its spaces and the monkeys.
A state the drawing does not understand gives a plain "no board" picture, never an error.
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable

PALETTE = {"red": "#d7263d", "blue": "#1b6ec2", "green": "#2e9e44", "yellow": "#f2c230", "purple": "#7d3cb5",
           "orange": "#f08a24", "black": "#222", "white": "#f4f4f4", "pink": "#e76fb1", "brown": "#8a5a2b"}
FALLBACK_NAMES = ("red", "blue", "green", "yellow", "purple", "orange")
FALLBACK = [PALETTE[name] for name in FALLBACK_NAMES]


def shown_colour(players: list[dict[str, Any]], index: int) -> str:
    """The name of the colour a player is drawn in: their chosen colour; a player without one (or with one
    the board has no paint for) gets a colour nobody chose, so two players never look alike."""
    chosen = [(p.get("colour") or "").strip().lower() for p in players]
    chosen = [name if name in PALETTE else "" for name in chosen]
    if 0 <= index < len(chosen) and chosen[index]:
        return chosen[index]
    free = [name for name in FALLBACK_NAMES if name not in chosen] or list(FALLBACK_NAMES)
    return free[sum(1 for name in chosen[:max(index, 0)] if not name) % len(free)]


def player_colour(players: list[dict[str, Any]], index: int) -> str:
    """The paint (#rrggbb) of `shown_colour`."""
    return PALETTE[shown_colour(players, index)]


def colours(players: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Each player's colour as the page shows it beside the scores: the board's name and paint for them."""
    names = [shown_colour(players, i) for i in range(len(players))]
    return [{"name": name, "paint": PALETTE[name]} for name in names]


def ink(fill: str) -> str:
    """Dark or white text, whichever reads better on `fill` (#rgb or #rrggbb)."""
    digits = fill.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#222" if (luminance + 0.05) / 0.066 >= 1.05 / (luminance + 0.05) else "#fff"


def mark(players: list[dict[str, Any]], index: int) -> str:
    """The letter on a player's pieces, so they are told apart without their colour: the name's first letter,
    or the player's number when two names start alike (or with no letter)."""
    initials = [str(p.get("name") or "").strip()[:1].upper() for p in players]
    letter = initials[index] if 0 <= index < len(initials) else ""
    return letter if letter.isalpha() and initials.count(letter) == 1 else str(index + 1)


def piece(x: float, y: float, r: float, players: list[dict[str, Any]], index: int, width: float = 2) -> str:
    """A player's piece: a disc of their colour carrying their letter."""
    fill = player_colour(players, index)
    size = round(r * 1.4)
    return (circle(x, y, r, fill, "#222", width)
            + text(x, y + size * 0.36, mark(players, index), size, fill=ink(fill), weight="bold"))


def who(players: list[dict[str, Any]], index: int) -> str:
    """A player in the board's spoken name: "Ada (red)"."""
    name = str(players[index].get("name") or "") if 0 <= index < len(players) else ""
    return f"{name or f'Player {index + 1}'} ({shown_colour(players, index)})"


def svg(width: int, height: int, body: list[str], label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(label)}" class="board-svg">' + "".join(body) + "</svg>")


def text(x: float, y: float, words: Any, size: int = 14, anchor: str = "middle", fill: str = "#333",
         weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}">{escape(str(words))}</text>')


def circle(x: float, y: float, r: float, fill: str, stroke: str = "#555", width: float = 1.5, extra: str = "") -> str:
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{extra}/>'


# -- Matterhorn ------------------------------------------------------------------------------------------
def matterhorn(state: dict[str, Any], players: list[dict[str, Any]]) -> str:
    per_line = {int(k): int(v) for k, v in state["board"]["circles_per_line"].items()}
    widest = max(per_line.values())
    step, r = 48, 19
    width = widest * step + 100
    lines = sorted(per_line, reverse=True)  # 12 at the bottom
    height = (len(lines) + 1) * step + 60
    body = [f'<polygon points="{width / 2:.0f},10 {width - 20},{height - 10} 20,{height - 10}" fill="#e8eef5"/>']
    where: dict[tuple[int, int], int] = {}
    summit: list[int] = []
    for p, pair in enumerate(state.get("climbers", [])):
        for spot in pair:
            if spot == "summit":
                summit.append(p)
            elif isinstance(spot, list) and len(spot) == 2:
                where[(int(spot[0]), int(spot[1]))] = p
    for row, line in enumerate(sorted(per_line)):  # 5 at the top
        y = 60 + (row + 1) * step
        n = per_line[line]
        x0 = (width - (n - 1) * step) / 2
        body.append(text(14, y + 7, line, 20, "start", "#34495e", "bold"))
        marks = state.get("tokens", {}).get(str(line), "." * n)
        for i in range(n):
            x = x0 + i * step
            mark = marks[i] if i < len(marks) else "."
            if (line, i + 1) in where:
                body.append(piece(x, y, r, players, where[(line, i + 1)], 3))
            elif mark == "A":
                body.append(circle(x, y, r, "#fff7cc", "#c9a100", 3) + text(x, y + 6, "★", 18, fill="#8a6d00"))
            elif mark == "o":
                body.append(circle(x, y, r, "#6b6b6b", "#333", 2) + text(x, y + 6, "✕", 18, fill="#fff"))
            else:
                body.append(circle(x, y, r, "#fff") + text(x, y + 6, i + 1, 18, fill="#5f6e7b"))
    body.append(circle(width / 2, 42, 30, "#fff", "#7a8896", 3))
    body.append(text(width / 2 + 38, 30, "Summit", 18, "start", "#34495e", "bold"))
    for k, p in enumerate(summit):
        body.append(piece(width / 2 - 12 + 24 * (k % 2), 42 - 12 + 24 * (k // 2), 13, players, p))
    return svg(int(width), int(height), body, "Matterhorn board, its circles counted from the left of each line. "
               + _climbers_said(state, players))


def _climbers_said(state: dict[str, Any], players: list[dict[str, Any]]) -> str:
    """Where everyone's climbers stand, in words: "Ada (red): line 12 circle 1 and the summit; ..."."""
    said = []
    for p, pair in enumerate(state.get("climbers", [])):
        spots = ["the summit" if spot == "summit" else f"line {spot[0]} circle {spot[1]}" for spot in pair
                 if spot == "summit" or (isinstance(spot, list) and len(spot) == 2)]
        said.append(f"{who(players, p)}: {' and '.join(spots) or 'no climber placed yet'}")
    return "; ".join(said)


# -- Mountain Goats ----------------------------------------------------------------------------------------
def mountain_goats(state: dict[str, Any], players: list[dict[str, Any]]) -> str:
    spaces = {int(k): int(v) for k, v in state["board"]["spaces"].items()}
    mountains = sorted(spaces)
    big = state.get("variants", {}).get("big_mountain")
    col, row_h = 92, 58
    tallest = max(spaces.values())
    width = col * len(mountains) + 20
    height = (tallest + 1) * row_h + 90
    body: list[str] = []
    goats = state.get("goats", [])
    tokens_left = state.get("tokens_left", [])
    for i, m in enumerate(mountains):
        x = 20 + col * i + col / 2
        top = height - 50 - spaces[m] * row_h
        body.append(f'<polygon points="{x:.0f},{top - 30:.0f} {x + col / 2 - 4:.0f},{height - 40} '
                    f'{x - col / 2 + 4:.0f},{height - 40}" fill="#dfe9d8" stroke="#9bb08f"/>')
        for s in range(1, spaces[m] + 1):
            y = height - 50 - s * row_h
            summit = s == spaces[m]
            body.append(f'<rect x="{x - 30:.0f}" y="{y - 18:.0f}" width="60" height="36" rx="8" '
                        f'fill="{"#fff4c2" if summit else "#fff"}" stroke="#6f8466" stroke-width="{3 if summit else 1.5}"/>')
        left = tokens_left[i] if i < len(tokens_left) else "?"
        body.append(text(x, top - 38, f"{left} left", 18, fill="#3d4d36", weight="bold"))
        body.append(text(x, height - 14, m, 22, fill="#2f3f2a", weight="bold"))
        for p, row in enumerate(goats):
            pos = row[i] if i < len(row) else 0
            if pos is None or pos < 0:
                continue
            y = height - 50 - pos * row_h if pos > 0 else height - 61
            dx, dy = _goat_place(p, len(goats))
            body.append(piece(x + dx, y + dy, 13, players, p))
    if big:
        body += _big_mountain(state, players, width, height)
        height += BIG_ROWS * BIG_CELL[1] + 50
    return svg(int(width), int(height), body, "Mountain Goats board. " + _goats_said(state, players, mountains, spaces))


BIG_ROWS, BIG_CELL = 3, (110, 44)


def _big_mountain(state: dict[str, Any], players: list[dict[str, Any]], width: float, top: float) -> list[str]:
    """The Big Mountain's spaces 24 down to 11, five a row under the six mountains (beside them, the whole board
    would be drawn too small to read on a phone). A goat there is its player's colour and letter, and the
    mountain it goes back to, which the goats on the table do not show: "B 17 ← 8"."""
    occupied = {int(s): (int(p), int(m)) for s, p, m in state.get("big_mountain", [])}
    per_row = (14 + BIG_ROWS - 1) // BIG_ROWS
    w, h = BIG_CELL
    left = (width - per_row * w) / 2
    body = [text(width / 2, top + 20, "Big Mountain", 18, fill="#2f3f2a", weight="bold")]
    for k, s in enumerate(range(24, 10, -1)):
        row, col = divmod(k, per_row)
        x, y = left + col * w, top + 34 + row * h
        fill = player_colour(players, occupied[s][0]) if s in occupied else "#fff"
        label = f"{s} ← {occupied[s][1]}" if s in occupied else s
        body.append(f'<rect x="{x + 2:.0f}" y="{y:.0f}" width="{w - 4}" height="{h - 6}" rx="6" fill="{fill}" '
                    f'stroke="#6f8466"/>' + text(x + w / 2 + (11 if s in occupied else 0), y + 25, label, 18,
                                                   fill=ink(fill)))
        if s in occupied:
            body.append(text(x + 16, y + 25, mark(players, occupied[s][0]), 18, fill=ink(fill), weight="bold"))
    return body


def _goat_place(p: int, players: int) -> tuple[float, float]:
    """Where player p's goat sits on a space, from its centre: one row for two players, else two rows (the
    first the longer), so every goat's letter shows and none reaches the next mountain."""
    across = players if players <= 2 else (players + 1) // 2
    rows = (players + across - 1) // across
    row, col = divmod(p, across)
    in_row = across if row < rows - 1 else players - across * (rows - 1)
    return -(in_row - 1) * 12 + 24 * col, (row - (rows - 1) / 2) * 24


def _goats_said(state: dict[str, Any], players: list[dict[str, Any]], mountains: list[int],
                spaces: dict[int, int]) -> str:
    """Where everyone's goats stand, in words: "Ada (red): mountain 7 space 2, mountain 10 top; ..."."""
    said = []
    for p, row in enumerate(state.get("goats", [])):
        up = [f"mountain {m} {'top' if row[i] == spaces[m] else f'space {row[i]}'}" for i, m in enumerate(mountains)
              if i < len(row) and isinstance(row[i], int) and row[i] > 0]
        up += [f"Big Mountain space {s}" for s, q, _ in state.get("big_mountain", []) if int(q) == p]
        at_foot = any(row[i] == 0 for i in range(min(len(row), len(mountains))))
        where = ", ".join(up + (["the others at the foot"] if at_foot else [])) if up else "all goats at the foot"
        said.append(f"{who(players, p)}: {where}")
    return "; ".join(said)


# -- Magic Mountain -----------------------------------------------------------------------------------------
def magic_mountain(state: dict[str, Any], players: list[dict[str, Any]]) -> str:
    board = state["board"]
    path = board["path"]
    per_row, cell = 6, 64
    rows = (len(path) + per_row - 1) // per_row
    width, height = per_row * cell + 60, rows * cell + 200
    body: list[str] = []
    openings = int(board.get("openings", 6))
    chosen = state.get("opening")
    for k in range(1, openings + 1):
        x = 30 + (k - 0.5) * (per_row * cell) / openings
        fill = PALETTE.get(str(state.get("ball")), "#ddd") if chosen == k else "#eee"
        body.append(circle(x, 24, 16, fill, "#555", 2) + text(x, 30, k, 17, fill=ink(fill), weight="bold"))
    centres = {}
    for s, colour in enumerate(path, start=1):
        row, col = divmod(s - 1, per_row)
        if row % 2:
            col = per_row - 1 - col  # the path snakes down the mountain
        x, y = 30 + col * cell + cell / 2, 70 + row * cell + cell / 2
        centres[s] = (x, y)
        body.append(f'<rect x="{x - 26:.0f}" y="{y - 26:.0f}" width="52" height="52" rx="12" '
                    f'fill="{PALETTE.get(colour, "#ccc")}" fill-opacity="0.55" stroke="#555"/>')
        body.append(text(x - 16, y - 10, s, 14, fill="#222"))
    at_space: dict[int, list[str]] = {}
    in_goal: list[str] = []
    for figure, where in sorted(state.get("positions", {}).items()):
        (in_goal if where == "goal" else at_space.setdefault(int(where), [])).append(figure)
    for s, figures in at_space.items():
        if s not in centres:
            continue
        x, y = centres[s]
        for k, figure in enumerate(figures):  # right of the space's number, which is in its top left corner
            body.append(_figure(x + 5 + 16 * (k - (len(figures) - 1) / 2), y + 6, figure))
    gy = 70 + rows * cell + 20
    body.append(f'<rect x="30" y="{gy}" width="{per_row * cell}" height="90" rx="16" fill="#f6e7c1" stroke="#a07b2c" stroke-width="2"/>')
    body.append(text(width / 2, gy + 24, "Goal: Master Balduin", 19, fill="#5a410f", weight="bold"))
    for k, figure in enumerate(in_goal):
        body.append(_figure(60 + 30 * k, gy + 60, figure))
    return svg(int(width), int(height), body, "Magic Mountain board. " + _figures_said(state, at_space, in_goal))


def _figures_said(state: dict[str, Any], at_space: dict[int, list[str]], in_goal: list[str]) -> str:
    """Where the figures stand, in words: "the red ball in opening 3; Student 1 on space 1, ...; on the goal
    tile: Witch 2"."""
    said = []
    if state.get("ball") and state.get("opening"):
        said.append(f"the {state['ball']} ball in opening {state['opening']}")
    placed = [f"{_figure_name(f)} on space {s}" for s in sorted(at_space) for f in at_space[s]]
    if placed:
        said.append(", ".join(placed))
    if in_goal:
        said.append("on the goal tile: " + ", ".join(map(_figure_name, in_goal)))
    return "; ".join(said)


def _figure_name(figure: str) -> str:
    kinds = {"S": "Student", "W": "Witch"}
    return f"{kinds[figure[0]]} {figure[1:]}" if figure[:1] in kinds else figure


def _figure(x: float, y: float, figure: str) -> str:
    witch = figure.startswith("W")
    fill = "#3a2a4a" if witch else "#fdfdfd"
    shape = (f'<polygon points="{x:.0f},{y - 22:.0f} {x + 11:.0f},{y + 6:.0f} {x - 11:.0f},{y + 6:.0f}" fill="{fill}" stroke="#222" stroke-width="2"/>'
             if witch else circle(x, y - 6, 11, fill, "#222", 2))
    return shape + text(x, y + 22, figure, 14, fill="#111", weight="bold")


# -- Banana Matcho ------------------------------------------------------------------------------------------
def banana_matcho(state: dict[str, Any], players: list[dict[str, Any]]) -> str:
    top = int(state.get("board", {}).get("top_space", state.get("top_space", 30)))
    positions = state.get("positions") or state.get("monkeys") or []
    per_row, cell = 6, 62
    rows = (top + per_row) // per_row
    width, height = per_row * cell + 80, rows * cell + 140
    body = [f'<rect x="{width / 2 - 24:.0f}" y="40" width="48" height="{height - 60:.0f}" fill="#8a5a2b" rx="10"/>',
            f'<ellipse cx="{width / 2:.0f}" cy="60" rx="{width / 2 - 10:.0f}" ry="50" fill="#4f9a3a" opacity="0.45"/>']
    centres = {}
    for s in range(top + 1):
        row, col = divmod(s, per_row)
        if row % 2:
            col = per_row - 1 - col
        x, y = 40 + col * cell + cell / 2, height - 40 - row * cell
        centres[s] = (x, y)
        basket = s == top
        body.append(circle(x, y, 22 if basket else 20, "#ffe066" if basket else "#fffbe8", "#8a5a2b", 3 if basket else 1.5))
        body.append(text(x, y + 6, "Fruit" if basket else ("Start" if s == 0 else s), 14 if basket or not s else 16,
                         weight="bold" if basket else "normal"))
    spaces = [max(0, min(top, int(space))) for space in positions]
    stacks: dict[int, int] = {}
    for p, space in enumerate(spaces):
        k = stacks.get(space, 0)
        stacks[space] = k + 1
        x, y = centres[space]
        dx, dy, r = _monkey_place(k, spaces.count(space))
        body.append(piece(x + dx, y + dy, r, players, p))
    said = [f"{who(players, p)} {_banana_space_said(int(space), top)}" for p, space in enumerate(positions)]
    return svg(int(width), int(height), body, "Banana Matcho wonder tree. " + "; ".join(said))


def _monkey_place(k: int, on_space: int) -> tuple[float, float, float]:
    """Where the k-th of `on_space` monkeys on one space sits, from the space's centre, and its radius: a row of up
    to three above the space's number (or "Start") and the fourth to sixth in a row below it (each drawn the
    same size as one alone), so no monkey covers the number nor another monkey, of its space or the next."""
    r = 10  # a row of three (60 px) fits a space 62 px apart: no monkey over a neighbouring space's
    row, at = divmod(k, MONKEYS_PER_ROW)
    in_row = min(on_space - row * MONKEYS_PER_ROW, MONKEYS_PER_ROW)
    return (at - (in_row - 1) / 2) * 2 * r, (-r - 10, r + 11)[min(row, 1)], r


MONKEYS_PER_ROW = 3


def _banana_space_said(space: int, top: int) -> str:
    if space <= 0:
        return "on the start"
    return "in the fruit basket" if space >= top else f"on space {space}"


RENDERERS: dict[str, Callable[[dict[str, Any], list[dict[str, Any]]], str]] = {
    "matterhorn": matterhorn,
    "mountain-goats": mountain_goats,
    "magic-mountain": magic_mountain,
    "banana-matcho": banana_matcho,
}


def render(game: dict[str, Any]) -> str:
    """The SVG board of a game view (companion.table.view.game_view)."""
    renderer = RENDERERS.get(game.get("name", ""))
    if renderer is not None:
        try:
            return renderer(game["state"], game.get("players", []))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass
    return svg(300, 60, [text(150, 36, f"{game.get('title', 'This game')}: no board drawing", 14)], "no board")
