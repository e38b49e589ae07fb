"""Pictures of an Earth Reborn game: a text board (``ansi``) and an RGB image (``rgb_array``).

A render is shared by both players (human mode prints it to the table), so it shows only what
section 22 makes public: the map, door states, figures, terminals, caches, CP and MP pools, the
last dice rolled (ER-HID-11) and the tiles assigned to characters with their CP (ER-HID-5). Of the
hands, the bag and the discard it shows counts only; a held tile's identity never appears
(ER-HID-2, ER-HID-6, ER-HID-7).

The RGB image is drawn with numpy slicing alone, fast enough to record every step: each scenario's
static picture (floor, void, walls, gauge labels) is drawn once and cached, and a frame copies it
and paints the doors, terminals, caches, figures and status gauges on top.
"""

from __future__ import annotations

import numpy as np

from ...core.drawing import ADVANCE, GLYPH, Colour, draw_text
from ...core.per_scenario import PerScenario
from .rules.state import CLOSED, DESTROYED, GAME_OVER, OPENED, AssignedTile, GameState
from .scenario.model import (
    DIRECTION_NAMES,
    DX,
    DY,
    MAGNETIC_SLIDING,
    MAGNETIC_WOODEN,
    OPEN_EDGE,
    SLIDING,
    WALL,
    WOODEN,
    Board,
    Door,
    E,
    N,
    S,
    Scenario,
    W,
)

# --- Text board -----------------------------------------------------------------------------------

ARROWS = "^>v<"  # facing N, E, S, W
_DOOR_LETTERS = {SLIDING: "s", WOODEN: "w", MAGNETIC_SLIDING: "m", MAGNETIC_WOODEN: "k"}
_COLOUR_CODES = {"black": "k", "red": "r", "gold": "g"}
LEGEND = (
    "key: B> figure, facing ^>v<, ' wounded, z+ dead; doors S sliding, W wooden, M/K magnetic "
    "sliding/wooden, lower case open, ~ destroyed; O1 terminal, 1* hacked; C cache, c empty; "
    "H hold square"
)


def render_ansi(state: GameState) -> str:
    """The board, then the public status of the game, as plain text (about 30 lines)."""
    return "\n".join(_board_lines(state) + [""] + _status_lines(state))


def _figure_letter(state: GameState, c: int) -> str:
    return state.scenario.figure_letters[c]


def _figure_mark(state: GameState, c: int) -> str:
    ch = state.chars[c]
    if ch.dead:
        return _figure_letter(state, c).lower() + "+ "
    return _figure_letter(state, c) + ARROWS[ch.facing] + ("'" if ch.wounded else " ")


def _edge_mark(state: GameState, edge: int, wall: str) -> str:
    """One edge: ``wall`` for a wall, blanks when open, else the door's letter centred."""
    if edge == WALL:
        return wall
    if edge == OPEN_EDGE:
        return " " * len(wall)
    letter = _DOOR_LETTERS[state.scenario.board.doors[edge].kind]
    mark = {CLOSED: letter.upper(), OPENED: letter, DESTROYED: "~"}[state.doors[edge]]
    return mark.center(len(wall))


def _square_marks(state: GameState) -> list[str]:
    """The 3-character content of every square; a living figure hides what lies under it."""
    scn = state.scenario
    cells = ["XXX" if void else " . " for void in scn.board.void]
    for square in scn.mission.hold_squares:  # ER-SCN-14
        cells[square] = " H "
    for i, t in enumerate(scn.terminals):
        cells[t.square] = (f"{t.id[1:]}*" if state.hacked[i] else t.id)[:3].ljust(3)
    for i, cache_ in enumerate(scn.caches):
        cells[cache_.square] = " C " if state.cache_full[i] else " c "
    for c in _dead_first(state):
        cells[state.chars[c].square] = _figure_mark(state, c)
    return cells


def _dead_first(state: GameState) -> list[int]:
    """Character indices, the dead first, so that a living figure is drawn over a dead marker."""
    return sorted(range(len(state.chars)), key=lambda c: not state.chars[c].dead)


def _edge_row(state: GameState, y: int, d: int) -> str:
    """The horizontal edges on side ``d`` (N or S) of row ``y``, with corners."""
    board = state.scenario.board
    marks = (
        _edge_mark(state, board.edge[board.square(x, y)][d], "---") for x in range(board.width)
    )
    return "   +" + "+".join(marks) + "+"


def _board_lines(state: GameState) -> list[str]:
    board = state.scenario.board
    cells = _square_marks(state)
    lines = ["    " + "".join(f"{x:^3} " for x in range(board.width)).rstrip()]
    for y in range(board.height):
        lines.append(_edge_row(state, y, N))
        row = [f"{y:>2} ", _edge_mark(state, board.edge[board.square(0, y)][W], "|")]
        for x in range(board.width):
            sq = board.square(x, y)
            row += [cells[sq], _edge_mark(state, board.edge[sq][E], "|")]
        lines.append("".join(row))
    lines.append(_edge_row(state, board.height - 1, S))
    return lines


def _tile_text(state: GameState, assigned: AssignedTile) -> str:
    """An assigned tile with the CP on each section, e.g. ``T01[M3k:2 C1k:0 F2r:0 I1k:0]``."""
    tile = state.scenario.tiles[assigned.tile]
    sections = " ".join(
        f"{s.type}{s.max}{_COLOUR_CODES.get(s.colour, s.colour[0])}:{cp}"
        for s, cp in zip(tile.sections, assigned.cp, strict=True)
    )
    return f"{tile.id}[{sections}]"


def _character_line(state: GameState, c: int) -> str:
    spec, ch, stats = state.scenario.characters[c], state.chars[c], state.stats(c)
    x, y = state.scenario.board.xy(ch.square)
    side = "dead" if ch.dead else "wounded" if ch.wounded else "healthy"
    weapon = "no weapon"
    if spec.weapon is not None:
        weapon = f"{spec.weapon.name} {'ready' if ch.weapon_ready else 'no ammo'}"
    tiles = " ".join(_tile_text(state, a) for a in ch.tiles)
    width = max(8, *(len(other.id) for other in state.scenario.characters))
    return (
        f"{'*' if c == state.char else ' '}{_figure_letter(state, c)} {spec.id:<{width}} "
        f"{spec.faction:<8} ({x},{y}) {DIRECTION_NAMES[ch.facing]} {side:<7} "
        f"{ch.wounds}/{stats.lp}LP {'engaged' if ch.engaged else '-':<7} "
        f"CP {ch.cp_spent}/{stats.maxcp} cards {ch.cards} {weapon:<19} {tiles}"
    ).rstrip()


def _status_lines(state: GameState) -> list[str]:
    scn, names = state.scenario, state.scenario.factions
    decider = "nobody" if state.decision == GAME_OVER else names[state.decider]
    activated = ""
    if state.char >= 0:
        activated = f"  activated {scn.characters[state.char].id} (MVP {state.mvp})"
    lines = [
        f"{scn.title}  turn {state.turn}/{scn.turns}  phase {state.phase}  "
        f"decision {state.decision} by {decider}",
        f"initiative {names[state.initiative]}  active {names[state.active]}  "
        f"passes {state.passes}{activated}",
    ]
    lines += [
        f"{names[p]:<9} CP {state.cp[p]:>2}  MP {state.mp[p]:>2}  hand {len(state.hands[p])}"
        for p in range(len(names))
    ]
    lines.append(f"tiles: bag {len(state.bag)}  discard {len(state.discard)}  box {len(state.box)}")
    lines += [_character_line(state, c) for c in range(len(state.chars))]
    if state.winner is not None:
        lines.append(f"result: {_result(state)} (MP {state.mp[0]}-{state.mp[1]})")
    if state.last_roll:
        lines.append("last roll: " + " ".join(state.last_roll))
    lines.append(LEGEND)
    return lines


def _result(state: GameState) -> str:
    """How a finished game ended: ``draw`` or ``<faction> wins``."""
    return "draw" if state.winner < 0 else f"{state.scenario.factions[state.winner]} wins"


# --- RGB image: geometry and colours --------------------------------------------------------------

CELL = 48  # px per square
PAD = 8  # margin around the map, wide enough for the outer walls
WALL_PX = 6  # wall thickness, centred on the edge line
DOOR_PX = 10  # door thickness
RADIUS = 15  # figure disc
ROW_PITCH = 16  # status strip rows
BAR_H = 10
STRIP_H = 6 + 4 * ROW_PITCH + 2

FLOOR: Colour = (226, 221, 206)
GRID: Colour = (205, 199, 183)
VOID: Colour = (58, 60, 68)
WALL_COLOUR: Colour = (22, 22, 26)
STRIP: Colour = (34, 36, 42)
TRACK: Colour = (62, 65, 74)
TEXT: Colour = (236, 236, 236)
INK: Colour = (30, 30, 34)
HIGHLIGHT: Colour = (255, 214, 0)
ENGAGED: Colour = (25, 25, 25)
PIP: Colour = (240, 190, 30)
CARD_FACE: Colour = (250, 250, 250)
# Player 0 (NORAD in Vault Raid) blue-green, player 1 (the Salemites) red-purple.
FACTION_COLOURS: tuple[Colour, Colour] = ((0, 150, 150), (185, 35, 90))
DOOR_COLOURS: dict[str, Colour] = {
    SLIDING: (70, 130, 205),
    WOODEN: (150, 92, 38),
    MAGNETIC_SLIDING: (140, 70, 200),
    MAGNETIC_WOODEN: (230, 160, 0),
}
TERMINAL_TINT: tuple[Colour, Colour] = ((240, 185, 180), (170, 225, 170))  # not hacked, hacked
CACHE_TINT: tuple[Colour, Colour] = ((226, 221, 206), (245, 215, 120))  # emptied, full
HOLD_TINT: Colour = (200, 230, 175)  # a hold square (ER-SCN-14)

# Status gauges: label, most blocks drawn, block pitch in px, colour.
Gauge = tuple[str, int, int, Colour]
_PLAYER_GAUGES: tuple[Gauge, ...] = (
    ("CP", 16, 5, (240, 200, 60)),
    ("MP", 12, 5, (110, 200, 110)),
    ("H", 8, 6, (200, 200, 215)),  # hand size
)
_PILE_GAUGES: tuple[Gauge, ...] = (("BAG", 24, 4, (150, 150, 165)), ("DIS", 24, 4, (175, 120, 90)))


def _darker(colour: Colour, factor: float) -> Colour:
    r, g, b = (int(v * factor) for v in colour)
    return r, g, b


def _figure_masks() -> dict[str, np.ndarray]:
    """Boolean CELL x CELL masks of the figure parts, centred in the square."""
    yy, xx = np.mgrid[0:CELL, 0:CELL] + 0.5 - CELL / 2
    r = np.hypot(yy, xx)
    masks = {
        "disc": r <= RADIUS,
        "wounded": (r <= RADIUS) & (r > RADIUS - 4),
        "engaged": (r > RADIUS + 1.5) & (r <= RADIUS + 4.5),
        "dead": ((abs(yy - xx) <= 3) | (abs(yy + xx) <= 3)) & (np.maximum(abs(yy), abs(xx)) <= 15),
    }
    for f in range(4):
        along, across = xx * DX[f] + yy * DY[f], abs(xx * DY[f] - yy * DX[f])
        masks[f"tick{f}"] = (along >= 9) & (along <= RADIUS + 5) & (across <= 3)
    return masks


_MASKS = _figure_masks()


def _gauge_layout(gauges: tuple[Gauge, ...], x: int) -> list[tuple[int, int, int]]:
    """x of the label, the number and the bar of each gauge of a strip row starting at ``x``."""
    layout = []
    for label, cap, pitch, _ in gauges:
        number_x = x + (len(label) + 1) * ADVANCE
        bar_x = number_x + 2 * ADVANCE + 4
        layout.append((x, number_x, bar_x))
        x = bar_x + cap * pitch + 10
    return layout


_PLAYER_LAYOUT = _gauge_layout(_PLAYER_GAUGES, PAD + 30)
_PILE_LAYOUT = _gauge_layout(_PILE_GAUGES, PAD)
_STRIP_MIN_W = max(
    bar_x + gauge[1] * gauge[2] + PAD
    for layout, gauges in ((_PLAYER_LAYOUT, _PLAYER_GAUGES), (_PILE_LAYOUT, _PILE_GAUGES))
    for (_, _, bar_x), gauge in zip(layout, gauges, strict=True)
)


def _origin(board: Board, sq: int) -> tuple[int, int]:
    """Pixel (top, left) of square ``sq``."""
    x, y = board.xy(sq)
    return PAD + y * CELL, PAD + x * CELL


def _edge_box(
    top: int, left: int, d: int, start: int, stop: int, thick: int
) -> tuple[slice, slice]:
    """A band ``thick`` px wide centred on side ``d`` of the square at (top, left), running from
    ``start`` to ``stop`` px along that side."""
    half = thick // 2
    if d in (N, S):
        y = top + (CELL if d == S else 0) - half
        return slice(y, y + thick), slice(left + start, left + stop)
    x = left + (CELL if d == E else 0) - half
    return slice(top + start, top + stop), slice(x, x + thick)


def _bar(img: np.ndarray, x: int, y: int, n: int, cap: int, pitch: int, colour: Colour) -> None:
    """``n`` blocks (at most ``cap``) of ``pitch`` px, separated by 1 px gaps."""
    end = x + min(n, cap) * pitch
    img[y : y + BAR_H, x:end] = colour
    img[y : y + BAR_H, x + pitch - 1 : end : pitch] = STRIP


# --- RGB image: the static background ------------------------------------------------------------


def _draw_background(scn: Scenario) -> np.ndarray:
    """The scenario's static picture: floor, void, walls and the gauges' labels and tracks."""
    board = scn.board
    map_w, map_h = 2 * PAD + board.width * CELL, 2 * PAD + board.height * CELL
    img = np.empty((map_h + STRIP_H, max(map_w, _STRIP_MIN_W), 3), dtype=np.uint8)
    img[:] = VOID
    img[map_h:] = STRIP
    for sq, void in enumerate(board.void):
        if not void:
            top, left = _origin(board, sq)
            img[top : top + CELL, left : left + CELL] = GRID
            img[top + 1 : top + CELL, left + 1 : left + CELL] = FLOOR
    for sq, edges in enumerate(board.edge):
        top, left = _origin(board, sq)
        for d, edge in enumerate(edges):
            if edge == WALL and _borders_floor(board, sq, d):
                box = _edge_box(top, left, d, -WALL_PX // 2, CELL + WALL_PX // 2, WALL_PX)
                img[box] = WALL_COLOUR
    _draw_gauge_tracks(img, map_h)
    return img


_background = PerScenario(_draw_background)
"""_background(scenario): the static picture, drawn once per scenario object; frames copy it."""


def _borders_floor(board: Board, sq: int, d: int) -> bool:
    """Whether floor lies on either side of side ``d`` of ``sq`` (walls in the void go undrawn)."""
    other = board.neighbor[sq][d]
    return not board.void[sq] or (other >= 0 and not board.void[other])


def _draw_gauge_tracks(img: np.ndarray, map_h: int) -> None:
    """The gauges' labels and empty tracks; rows 1-2 are the players, row 3 the shared piles."""
    rows = (
        (map_h + 6 + ROW_PITCH, _PLAYER_LAYOUT, _PLAYER_GAUGES),
        (map_h + 6 + 2 * ROW_PITCH, _PLAYER_LAYOUT, _PLAYER_GAUGES),
        (map_h + 6 + 3 * ROW_PITCH, _PILE_LAYOUT, _PILE_GAUGES),
    )
    for y, layout, gauges in rows:
        for (label_x, _, bar_x), (label, cap, pitch, _) in zip(layout, gauges, strict=True):
            draw_text(img, label_x, y, label, TEXT)
            _bar(img, bar_x, y, cap, cap, pitch, TRACK)


# --- RGB image: one frame ------------------------------------------------------------------------


def render_rgb(state: GameState) -> np.ndarray:
    """The map with doors, terminals, caches and figures, over a strip of CP/MP/tile gauges."""
    img = _background(state.scenario).copy()
    _draw_doors(img, state)
    _draw_elements(img, state)
    _draw_figures(img, state)
    _draw_status(img, state)
    return img


def _draw_door(img: np.ndarray, board: Board, door: Door, status: int) -> None:
    """Closed: a solid bar in the kind's colour; open: two jambs; destroyed: scattered rubble."""
    top, left = _origin(board, door.a)
    d = E if door.b == door.a + 1 else S
    colour = DOOR_COLOURS[door.kind]
    if status == CLOSED:
        img[_edge_box(top, left, d, -2, CELL + 2, DOOR_PX + 2)] = WALL_COLOUR
        img[_edge_box(top, left, d, 2, CELL - 2, DOOR_PX - 2)] = colour
    elif status == OPENED:
        for start in (-2, CELL - 8):
            img[_edge_box(top, left, d, start, start + 10, DOOR_PX)] = colour
    else:
        rubble = _darker(colour, 0.7)
        for start in range(2, CELL - 4, 9):
            img[_edge_box(top, left, d, start, start + 5, 5)] = rubble


def _draw_doors(img: np.ndarray, state: GameState) -> None:
    board = state.scenario.board
    for door, status in zip(board.doors, state.doors, strict=True):
        _draw_door(img, board, door, status)


def _draw_element(img: np.ndarray, board: Board, sq: int, tint: Colour, label: str) -> None:
    """A terminal or cache: its square tinted, its label in the top-left corner."""
    top, left = _origin(board, sq)
    inset = WALL_PX // 2 + 1
    img[top + inset : top + CELL - inset, left + inset : left + CELL - inset] = tint
    draw_text(img, left + inset + 2, top + inset + 2, label, INK)


def _draw_elements(img: np.ndarray, state: GameState) -> None:
    scn = state.scenario
    for square in scn.mission.hold_squares:
        _draw_element(img, scn.board, square, HOLD_TINT, "H")
    for terminal, hacked in zip(scn.terminals, state.hacked, strict=True):
        _draw_element(img, scn.board, terminal.square, TERMINAL_TINT[hacked], terminal.id)
    for cache_, full in zip(scn.caches, state.cache_full, strict=True):
        _draw_element(img, scn.board, cache_.square, CACHE_TINT[full], "C")


def _draw_figures(img: np.ndarray, state: GameState) -> None:
    """Dead markers first (an X), then the living figures over them, the activated one framed."""
    board = state.scenario.board
    for c in _dead_first(state):
        ch = state.chars[c]
        top, left = _origin(board, ch.square)
        cell = img[top : top + CELL, left : left + CELL]
        colour = FACTION_COLOURS[state.faction_of[c]]
        if ch.dead:
            cell[_MASKS["dead"]] = _darker(colour, 0.75)
            continue
        if c == state.char:
            _frame(cell, HIGHLIGHT)
        _draw_figure(cell, state, c, colour)


def _frame(cell: np.ndarray, colour: Colour, inset: int = 4, thick: int = 3) -> None:
    """A square outline inside ``cell``."""
    outer, inner = slice(inset, CELL - inset), slice(inset + thick, CELL - inset - thick)
    cell[inset : inset + thick, outer] = colour
    cell[CELL - inset - thick : CELL - inset, outer] = colour
    cell[inner, inset : inset + thick] = colour
    cell[inner, CELL - inset - thick : CELL - inset] = colour


def _draw_figure(cell: np.ndarray, state: GameState, c: int, colour: Colour) -> None:
    ch = state.chars[c]
    cell[_MASKS["disc"]] = colour
    if ch.wounded:
        cell[_MASKS["wounded"]] = _darker(colour, 0.45)
    if ch.engaged:
        cell[_MASKS["engaged"]] = ENGAGED
    cell[_MASKS[f"tick{ch.facing}"]] = INK
    draw_text(
        cell, CELL // 2 - 3 * GLYPH // 2, CELL // 2 - 5 * GLYPH // 2, _figure_letter(state, c), TEXT
    )
    if ch.cards:  # a magnetic card: a small white card in the corner
        cell[CELL - 15 : CELL - 5, CELL - 13 : CELL - 5] = INK
        cell[CELL - 14 : CELL - 6, CELL - 12 : CELL - 6] = CARD_FACE


def _draw_status(img: np.ndarray, state: GameState) -> None:
    """Row 0: turn, phase and decision (or the result); rows 1-2: each player's swatch, framed
    when deciding and with a gold pip when holding the initiative, and CP / MP / hand gauges;
    row 3: bag and discard gauges."""
    scn = state.scenario
    y0 = img.shape[0] - STRIP_H + 6
    now = f"{state.phase} {state.decision}" if state.winner is None else _result(state)
    draw_text(img, PAD, y0, f"T{state.turn}/{scn.turns} {now}".replace("_", " "), TEXT)
    for p in range(2):
        y = y0 + (p + 1) * ROW_PITCH
        if state.decision != GAME_OVER and p == state.decider:
            img[y - 2 : y + BAR_H + 2, PAD - 2 : PAD + 14] = TEXT
        img[y : y + BAR_H, PAD : PAD + 12] = FACTION_COLOURS[p]
        if p == state.initiative:
            img[y + 2 : y + BAR_H - 2, PAD + 18 : PAD + 24] = PIP
        values = (state.cp[p], state.mp[p], len(state.hands[p]))
        _draw_gauges(img, y, _PLAYER_LAYOUT, _PLAYER_GAUGES, values)
    piles = (len(state.bag), len(state.discard))
    _draw_gauges(img, y0 + 3 * ROW_PITCH, _PILE_LAYOUT, _PILE_GAUGES, piles)


def _draw_gauges(
    img: np.ndarray,
    y: int,
    layout: list[tuple[int, int, int]],
    gauges: tuple[Gauge, ...],
    values: tuple[int, ...],
) -> None:
    """Each gauge's number and filled blocks, over the tracks of the background."""
    for (_, number_x, bar_x), (_, cap, pitch, colour), n in zip(
        layout, gauges, values, strict=True
    ):
        draw_text(img, number_x, y, f"{n:>2}", TEXT)
        _bar(img, bar_x, y, n, cap, pitch, colour)
