"""Pictures of a haven game: a text map (``ansi``) and an RGB image (``rgb_array``).

A render is shared by both agents (human mode prints it to the table), so it shows only what is
public (16.5, HV-SEL-3): the map, tokens, figures with HP, shields and conditions, the round state,
piles, items and the played cards once revealed. Hands are shown as sizes, unrevealed picks and the
short-rest card are never shown, and neither are the legal actions (they would name hand cards).

The text map follows the picture of 15.1 (odd-r layout: odd rows are shifted half a hex to the
right). The RGB image is drawn with numpy alone: the hex tiling of each map is computed once and
cached, and a frame paints tokens, figures and a status strip on a copy of it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.drawing import GLYPH, Colour, draw_text, text_width
from ...core.per_scenario import PerScenario
from .actions import CARD_SLOTS
from .rules.prompts import SELECT_LEAD, SELECT_SECOND
from .rules.state import ELEMENT_STATE_NAMES, INERT, SELECT, STRONG, CharacterState, HavenState
from .scenario.model import (
    DIFFICULT,
    ELEMENTS,
    ELITE,
    HAZARDOUS,
    ICY,
    OBSTACLE,
    TRAP,
    WALL,
    Grid,
    Scenario,
)

if TYPE_CHECKING:
    from .rules.engine import HavenGame

# --- Text map -------------------------------------------------------------------------------------

_TERRAIN_MARKS = {OBSTACLE: "O", WALL: "#"}
_ROW_INDENT = 9  # spaces between "row r:" and the first cell, as in 15.1
LEGEND = (
    "key: . floor  O obstacle  # wall  $ coin ($n: n coins)  T treasure  B/C characters  "
    "W summon  m/M normal/elite marauder  s/S normal/elite slinger (+ number)"
)
# HV-TER-1: terrain marks, as drawn in a scenario's map; the legend line only where a map has them.
_OVERLAY_MARKS = {TRAP: "^", HAZARDOUS: "~", DIFFICULT: "=", ICY: "*"}
_OVERLAY_NAMES = {TRAP: "trap", HAZARDOUS: "hazardous", DIFFICULT: "difficult", ICY: "icy"}


def terrain_legend(scn: Scenario) -> str | None:
    """The key of the terrain kinds ``scn``'s map uses (None: it uses none)."""
    kinds = scn.map.terrain_kinds
    if not kinds:
        return None
    return "terrain: " + "  ".join(f"{_OVERLAY_MARKS[k]} {_OVERLAY_NAMES[k]}" for k in kinds)


def thin_walls_line(scn: Scenario) -> str | None:
    """HV-TW-5: the map's thin walls as ``(c,r)|(c,r)`` edges (None: it has none)."""
    if not scn.map.thin_walls:
        return None
    text = scn.map.grid.text
    return "thin walls: " + "  ".join(f"{text(a)}|{text(b)}" for a, b in scn.map.thin_walls)


def render_ansi(game: HavenGame) -> str:
    """The map of 15.1 as text, then the public status: round, elements, figures, prompt."""
    return "\n".join(map_lines(game.state, game.scenario) + [""] + _status_lines(game))


def cell_tokens(state: HavenState, scn: Scenario) -> list[str]:
    """The mark of every cell (15.1 legend); a figure hides the tokens under it."""
    marks = [_TERRAIN_MARKS.get(kind, ".") for kind in scn.map.cells]
    for kind, cells in scn.map.fixed_terrain:
        for cell in cells:
            marks[cell] = _OVERLAY_MARKS[kind]
    for cell in state.traps:  # HV-TER-2: only traps not yet sprung
        marks[cell] = _OVERLAY_MARKS[TRAP]
    for cell, count in state.coins.items():
        if count > 0:
            marks[cell] = "$" if count == 1 else f"${count}"
    for cell in state.treasures:
        marks[cell] = "T$" if state.coins.get(cell, 0) else "T"
    for c, ch in enumerate(state.characters):
        if ch.cell is not None and not ch.exhausted:
            marks[ch.cell] = scn.characters[c].map_letter
    for s in state.summons:
        marks[s.cell] = f"W{s.number}"
    for m in state.monsters:
        letter = scn.monster_types[m.type].letter
        marks[m.cell] = (letter.upper() if m.rank == ELITE else letter.lower()) + str(m.standee)
    return marks


def map_lines(state: HavenState, scn: Scenario) -> list[str]:
    """The 15.1 picture: a column header, then one line per row, odd rows shifted by two."""
    marks = cell_tokens(state, scn)
    grid = scn.map.grid
    lines = [" " * 8 + "col:" + "".join(f"{c:>4}" for c in range(grid.width))]
    for row in range(grid.height):
        cells = "".join(marks[grid.id(col, row)].ljust(4) for col in range(grid.width))
        lines.append((f"row {row}:" + " " * (_ROW_INDENT + 2 * (row % 2)) + cells).rstrip())
    return lines


def _cards(scn: Scenario, c: int, cards: list[int]) -> str:
    ids = [scn.characters[c].cards[k].id for k in cards if 0 <= k < CARD_SLOTS]
    return " ".join(ids) if ids else "-"


def public_picks(state: HavenState, ch: CharacterState) -> tuple[int | None, int | None]:
    """HV-SEL-3 / 16.8: this round's (lead, second) picks as far as they are public."""
    level = 0 if state.phase == SELECT else ch.revealed
    return (ch.lead if level >= 1 else None), (ch.second if level >= 2 else None)


def _character_lines(state: HavenState, scn: Scenario, c: int) -> list[str]:
    ch, cls = state.characters[c], scn.characters[c]
    xy = scn.map.grid.text
    where = "exhausted" if ch.exhausted else (xy(ch.cell) if ch.cell is not None else "off map")
    conditions = ",".join(ch.conditions) or "-"
    bonus = f" shield {ch.shield}" if ch.shield else ""
    bonus += f" retaliate {ch.retaliate}" if ch.retaliate else ""
    items = " ".join(
        f"{item.id}:{status}" for item, status in zip(cls.items, ch.items, strict=False)
    )
    lead, second = public_picks(state, ch)
    if state.phase != SELECT and ch.long_rest:
        played = "long rest"
    elif lead is None:
        played = "hidden" if state.phase == SELECT else "-"
    else:
        other = "?" if second is None else _cards(scn, c, [second])
        played = f"{_cards(scn, c, [lead])}+{other}"
    acted = " acted" if ch.acted else ""
    return [
        f"{cls.map_letter} {cls.id:<9} {where:<9} HP {ch.hp:>2}/{ch.max_hp:<2} {conditions}{bonus}"
        f"  gold {ch.gold}  items {items}{acted}",
        f"    hand {len(ch.hand)}  picks {played}  discard {_cards(scn, c, ch.discard)}  "
        f"lost {_cards(scn, c, ch.lost)}  active {_cards(scn, c, ch.active)}",
    ]


def _figure_line(grid: Grid, label: str, fig: Any, shield: int, retaliate: int) -> str:
    conditions = ",".join(fig.conditions) or "-"
    bonus = f" shield {shield}" if shield else ""
    bonus += f" retaliate {retaliate}" if retaliate else ""
    acted = " acted" if fig.acted else ""
    hp = f"HP {fig.hp:>2}/{fig.max_hp:<2}"
    return f"  {label:<14} {grid.text(fig.cell):<6} {hp} {conditions}{bonus}{acted}"


def _sequence_text(state: HavenState, scn: Scenario) -> str:
    parts = []
    for k, slot in enumerate(state.sequence):
        if slot.kind == "character":
            who = scn.characters[slot.index].id
        elif slot.kind == "summon":
            who = f"summon#{slot.index}"
        else:
            who = scn.monster_types[slot.index].id
        parts.append(f"{'*' if k < state.slot else ''}{who} {slot.initiative}")
    return " > ".join(parts) if parts else "-"


def _prompt_text(game: HavenGame) -> str:
    prompt = game.prompt
    scn = game.scenario
    if prompt is None:
        return f"prompt: none (outcome {game.state.outcome})"
    text = f"prompt: {prompt.kind} for {scn.characters[prompt.agent].id}"
    if prompt.kind in (SELECT_LEAD, SELECT_SECOND):
        return text  # HV-SEL-3: nothing about the choice in progress
    context = []
    if 0 <= prompt.card < CARD_SLOTS:
        half = ("top", "bottom")[prompt.half] if prompt.half in (0, 1) else ""
        card = scn.characters[prompt.agent].cards[prompt.card].id
        context.append(f"{card} {half}".strip())
    if prompt.ability:
        context.append(f"{prompt.ability} {prompt.value}")
    elif prompt.value:
        context.append(f"value {prompt.value}")
    if 0 <= prompt.element < len(ELEMENTS):
        context.append(f"element {ELEMENTS[prompt.element]}")
    if prompt.targets:
        context.append("targeted " + " ".join(scn.map.grid.text(t) for t in prompt.targets))
    return text + (f" ({', '.join(context)})" if context else "")


def _status_lines(game: HavenGame) -> list[str]:
    state: HavenState = game.state
    scn: Scenario = game.scenario
    cap = getattr(game.config, "max_rounds", scn.rules.round_cap)
    elements = [
        f"{ELEMENTS[e]} {ELEMENT_STATE_NAMES[s]}"
        for e, s in enumerate(state.elements)
        if s != INERT
    ]
    pending = sorted({ELEMENTS[e] for e in state.pending_infusions})
    lines = [
        f"{scn.title}  round {state.round}/{cap}  phase {state.phase}  outcome {state.outcome}",
        "elements: " + (", ".join(elements) if elements else "all inert")
        + (f"  (pending: {', '.join(pending)})" if pending else ""),
        "sequence: " + (_sequence_text(state, scn) if state.phase != SELECT else "-"),
    ]  # fmt: skip
    for c in range(len(state.characters)):
        lines += _character_lines(state, scn, c)
    for s in state.summons:
        owner = scn.characters[s.owner].id
        lines.append(_figure_line(scn.map.grid, f"W{s.number} {owner}", s, 0, 0))
    for m in state.monsters:
        mtype = scn.monster_types[m.type]
        stats = mtype.stats(m.rank)
        letter = mtype.letter.upper() if m.rank == ELITE else mtype.letter.lower()
        label = f"{letter}{m.standee} {mtype.id}"
        lines.append(
            _figure_line(
                scn.map.grid, label, m, stats.shield + m.shield, stats.retaliate + m.retaliate
            )
        )
    cards = []
    for t, deck in enumerate(state.monster_decks):
        cards.append(f"{scn.monster_types[t].id} {deck.current or '-'} (draw {len(deck.draw)})")
    lines.append("monster cards: " + ", ".join(cards))
    lines.append(_prompt_text(game))
    lines.append(LEGEND)
    lines += [line for line in (terrain_legend(scn), thin_walls_line(scn)) if line is not None]
    return lines


# --- RGB image ------------------------------------------------------------------------------------

RADIUS = 22  # hex circumradius in px
PITCH_X = 38  # horizontal distance of hex centres (about sqrt(3) * RADIUS)
PITCH_Y = 33  # vertical distance of rows (1.5 * RADIUS)
PAD = 8
DISC = 13  # figure disc radius
LINE_H = 14  # status strip line pitch
STATUS_LINES = 6
MIN_IMAGE_W = 420  # room for the status strip's lines


def map_size(grid: Grid) -> tuple[int, int]:
    """Pixel (height, width) of the map picture of ``grid``."""
    return (
        2 * PAD + (grid.height - 1) * PITCH_Y + 2 * RADIUS,
        2 * PAD + grid.width * PITCH_X + PITCH_X // 2,
    )


def image_size(grid: Grid) -> tuple[int, int]:
    """Pixel (height, width) of the whole picture of ``grid``: its map over the status strip."""
    map_h, map_w = map_size(grid)
    return map_h + STATUS_LINES * LINE_H + 8, max(map_w, MIN_IMAGE_W)


BACKGROUND: Colour = (40, 42, 48)
FLOOR_COLOUR: Colour = (222, 214, 192)
OBSTACLE_COLOUR: Colour = (120, 110, 95)
WALL_COLOUR: Colour = (18, 18, 22)
TRAP_COLOUR: Colour = (150, 30, 110)  # HV-TER-1 terrain
HAZARD_COLOUR: Colour = (235, 120, 60)
DIFFICULT_COLOUR: Colour = (150, 175, 110)
ICY_COLOUR: Colour = (170, 220, 240)
TERRAIN_COLOURS: dict[str, Colour] = {
    TRAP: TRAP_COLOUR,
    HAZARDOUS: HAZARD_COLOUR,
    DIFFICULT: DIFFICULT_COLOUR,
    ICY: ICY_COLOUR,
}
TEXT: Colour = (236, 236, 236)
INK: Colour = (20, 20, 24)
COIN: Colour = (240, 190, 30)
TREASURE: Colour = (190, 120, 20)
HIGHLIGHT: Colour = (255, 230, 0)
HP_GOOD: Colour = (60, 190, 80)
HP_LOST: Colour = (170, 40, 40)
ELITE_RING: Colour = (250, 210, 40)
CHARACTER_COLOURS: tuple[Colour, ...] = ((40, 110, 200), (140, 60, 180))
SUMMON_COLOUR: Colour = (240, 120, 30)
MONSTER_COLOURS: tuple[Colour, ...] = ((190, 40, 40), (40, 140, 80), (120, 120, 120))
CONDITION_COLOURS: dict[str, Colour] = {
    "poison": (90, 200, 60),
    "wound": (200, 20, 20),
    "immobilize": (120, 80, 40),
    "disarm": (150, 150, 150),
    "stun": (60, 60, 220),
    "muddle": (200, 120, 200),
    "invisible": (250, 250, 250),
    "strengthen": (250, 150, 0),
}
ELEMENT_COLOURS: tuple[Colour, ...] = (
    (230, 80, 20),
    (120, 200, 240),
    (200, 220, 220),
    (130, 100, 50),
    (250, 240, 120),
    (70, 40, 110),
)


def centre(grid: Grid, cell: int) -> tuple[int, int]:
    """Pixel (y, x) of the centre of ``cell`` of ``grid`` (odd-r: odd rows shifted half a hex
    right)."""
    col, row = grid.xy(cell)
    return PAD + RADIUS + row * PITCH_Y, PAD + PITCH_X // 2 + col * PITCH_X + (row % 2) * (
        PITCH_X // 2
    )


@cache
def _cell_labels(grid: Grid) -> np.ndarray:
    """The cell id under every map pixel (-1 between hexes and outside), pointy-top hexes."""
    map_h, map_w = map_size(grid)
    yy, xx = np.mgrid[0:map_h, 0:map_w]
    labels = np.full((map_h, map_w), -1, dtype=np.int16)
    half_w = PITCH_X / 2 - 1.5
    for cell in range(grid.cells):
        cy, cx = centre(grid, cell)
        dx, dy = np.abs(xx - cx), np.abs(yy - cy)
        inside = (dx <= half_w) & (dy <= RADIUS - 1.5 - dx / np.sqrt(3.0))
        labels[inside] = cell
    return labels


@cache
def _diamond() -> np.ndarray:
    """A boolean diamond mask (a trap), (2 * RADIUS + 1) px square, centred."""
    yy, xx = np.mgrid[-RADIUS : RADIUS + 1, -RADIUS : RADIUS + 1]
    return np.abs(yy) + np.abs(xx) <= RADIUS - 4


@cache
def _disc(radius: int) -> np.ndarray:
    """A boolean disc mask of the given radius, (2 * RADIUS + 1) px square, centred."""
    yy, xx = np.mgrid[-RADIUS : RADIUS + 1, -RADIUS : RADIUS + 1]
    return yy * yy + xx * xx <= radius * radius


def _draw_background(scn: Scenario) -> np.ndarray:
    """The terrain picture of a map."""
    grid = scn.map.grid
    img = np.empty((*image_size(grid), 3), dtype=np.uint8)
    img[:] = BACKGROUND
    labels = _cell_labels(grid)
    colours = {OBSTACLE: OBSTACLE_COLOUR, WALL: WALL_COLOUR}
    map_h, map_w = map_size(grid)
    area = img[:map_h, :map_w]
    for cell, kind in enumerate(scn.map.cells):
        area[labels == cell] = colours.get(kind, FLOOR_COLOUR)
    for kind, cells in scn.map.fixed_terrain:
        for cell in cells:
            area[labels == cell] = TERRAIN_COLOURS[kind]
    for a, b in scn.map.thin_walls:  # HV-TW-5
        area[_edge_pixels(grid, a, b)] = WALL_COLOUR
    return img


def _edge_pixels(grid: Grid, a: int, b: int) -> np.ndarray:
    """The map pixels within 2 px of the edge neighbours ``a`` and ``b`` share: a segment of one
    hex side (RADIUS long) through the midpoint of their centres, across the line joining them."""
    (ya, xa), (yb, xb) = centre(grid, a), centre(grid, b)
    my, mx = (ya + yb) / 2, (xa + xb) / 2
    dy, dx = (yb - ya), (xb - xa)
    norm = np.hypot(dy, dx)
    uy, ux = -dx / norm, dy / norm  # along the shared side
    map_h, map_w = map_size(grid)
    yy, xx = np.mgrid[0:map_h, 0:map_w]
    along = (yy - my) * uy + (xx - mx) * ux
    across = (yy - my) * dy / norm + (xx - mx) * dx / norm
    return (np.abs(along) <= RADIUS / 2) & (np.abs(across) <= 2)


_background = PerScenario(_draw_background)
"""_background(scenario): the terrain picture, drawn once per scenario."""


def _box(img: np.ndarray, grid: Grid, cell: int) -> np.ndarray:
    """The (2 * RADIUS + 1) px square of ``img`` centred on ``cell``."""
    cy, cx = centre(grid, cell)
    return img[cy - RADIUS : cy + RADIUS + 1, cx - RADIUS : cx + RADIUS + 1]


def render_rgb(game: HavenGame) -> np.ndarray:
    """The hex map with tokens and figures over a status strip, as ``uint8`` (H, W, 3)."""
    state: HavenState = game.state
    scn: Scenario = game.scenario
    grid = scn.map.grid
    img = _background(scn).copy()
    for cell in state.traps:  # HV-TER-2: a diamond for each trap not yet sprung
        _box(img, grid, cell)[_diamond()] = TRAP_COLOUR
    for cell, count in state.coins.items():
        if count > 0:
            box = _box(img, grid, cell)
            box[_shifted_disc(6, 8, 9)] = COIN
            if count > 1:
                draw_text(box, RADIUS + 5, RADIUS + 4, str(min(count, 9)), INK)
    for cell in state.treasures:
        box = _box(img, grid, cell)
        box[RADIUS - 14 : RADIUS - 6, RADIUS - 5 : RADIUS + 6] = TREASURE
    acting = game.prompt.agent if game.prompt is not None else None
    for c, ch in enumerate(state.characters):
        if ch.cell is not None and not ch.exhausted:
            colour = CHARACTER_COLOURS[c % len(CHARACTER_COLOURS)]
            text = scn.characters[c].map_letter
            _figure(img, grid, ch.cell, colour, text, ch.hp, ch.max_hp, ch.conditions, c == acting)
    for s in state.summons:
        _figure(
            img, grid, s.cell, SUMMON_COLOUR, f"W{s.number}", s.hp, s.max_hp, s.conditions, False
        )
    for m in state.monsters:
        mtype = scn.monster_types[m.type]
        letter = mtype.letter.upper() if m.rank == ELITE else mtype.letter.lower()
        colour = MONSTER_COLOURS[m.type % len(MONSTER_COLOURS)]
        _figure(
            img, grid, m.cell, colour, f"{letter}{m.standee}", m.hp, m.max_hp, m.conditions, False
        )
        if m.rank == ELITE:
            box = _box(img, grid, m.cell)
            box[_disc(DISC + 2) & ~_disc(DISC)] = ELITE_RING
    _status(img, game)
    return img


@cache
def _shifted_disc(radius: int, dy: int, dx: int) -> np.ndarray:
    """A small disc mask off the centre of a cell box (coins)."""
    return np.roll(np.roll(_disc(radius), dy, axis=0), dx, axis=1)


def _figure(
    img: np.ndarray,
    grid: Grid,
    cell: int,
    colour: Colour,
    text: str,
    hp: int,
    max_hp: int,
    conditions: list[str],
    highlight: bool,
) -> None:
    """A disc with the figure's map mark, an HP bar below it and condition pips above it."""
    box = _box(img, grid, cell)
    if highlight:
        box[_disc(DISC + 3)] = HIGHLIGHT
    box[_disc(DISC)] = colour
    x = RADIUS - text_width(text) // 2
    draw_text(box, x, RADIUS - 5 * GLYPH // 2, text, TEXT)
    bar_w = 2 * DISC
    filled = round(bar_w * max(hp, 0) / max(max_hp, 1))
    y = RADIUS + DISC + 1
    box[y : y + 3, RADIUS - DISC : RADIUS - DISC + bar_w] = HP_LOST
    box[y : y + 3, RADIUS - DISC : RADIUS - DISC + filled] = HP_GOOD
    for k, cond in enumerate(conditions[:8]):
        px = RADIUS - 16 + 4 * k
        box[1:4, px : px + 3] = CONDITION_COLOURS.get(cond, TEXT)


def _status(img: np.ndarray, game: HavenGame) -> None:
    """The strip under the map: round and phase, elements, each character, the prompt."""
    state: HavenState = game.state
    scn: Scenario = game.scenario
    y = map_size(scn.map.grid)[0] + 4
    draw_text(img, PAD, y, f"R{state.round} {state.phase} {state.outcome}", TEXT)
    x = PAD + text_width(f"R{state.round} {state.phase} {state.outcome}") + 12
    for e, level in enumerate(state.elements):  # strong: full square, waning: half, inert: none
        img[y : y + 10, x : x + 10] = INK
        if level != INERT:
            top = y if level == STRONG else y + 5
            img[top : y + 10, x : x + 10] = ELEMENT_COLOURS[e]
        x += 14
    for c, ch in enumerate(state.characters):
        y += LINE_H
        cls = scn.characters[c]
        img[y : y + 10, PAD : PAD + 10] = CHARACTER_COLOURS[c % len(CHARACTER_COLOURS)]
        status = "X" if ch.exhausted else f"HP {ch.hp}/{ch.max_hp}"
        text = f"{cls.id} {status} H{len(ch.hand)} D{len(ch.discard)} L{len(ch.lost)} G{ch.gold}"
        draw_text(img, PAD + 16, y, text, TEXT)
    y += LINE_H
    prompt = game.prompt
    if prompt is None:
        draw_text(img, PAD, y, f"OVER {state.outcome}", TEXT)
    else:
        draw_text(img, PAD, y, f"{prompt.kind} {scn.characters[prompt.agent].id}", TEXT)
