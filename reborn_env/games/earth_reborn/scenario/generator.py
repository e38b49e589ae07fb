"""Seeded scenario generator: ``"generated:<seed>"`` builds a playable map from a seed (ER-MAPGEN).

What: a map of rooms (a start zone each side, the middle cut into rooms of 2 to 4 squares a
side), joined by a random spanning tree of doors of every kind and gaps plus a few extra ways
round; terminals in the rooms farthest from NORAD's zone, a cache with a magnetic card, teams of
one to three NORAD and one to four Salemites drawn from Compound's characters. Why: a benchmark
with one map saturates; held-out seeds test whether a policy or a bot generalises. The draw is
deterministic (``random.Random(seed)``); the loader (``loader.generated_scenario``) puts each
draw through its checks like any data file, and draws again while they or :func:`problems` fail.
"""

from __future__ import annotations

import functools
import random
from collections import deque
from typing import Any

from ....core.data_files import read_bundled
from .model import WALL, Scenario

PREFIX = "generated:"
MAX_DRAWS = 50
# Compound holds every character the generator draws from, in this order of preference.
NORAD_POOL = ("bolter", "vasquez", "trooper")
SALEMITE_POOL = ("deeler", "jack_saw", "zombie", "zombie_2")
DOOR_LETTERS = {"sliding": "s", "wooden": "w", "magnetic_sliding": "m", "magnetic_wooden": "k"}
HELD_OUT_SEEDS = tuple(range(1_000_000, 1_000_020))
"""ER-MAPGEN-4: the seeds kept out of training, for testing generalisation."""

Room = tuple[int, int, int, int]  # x0, y0, x1, y1, inclusive


def is_generated(name: str) -> bool:
    """``generated:<seed>``, the seed a non-negative decimal integer below 2**63."""
    seed = name.removeprefix(PREFIX)
    return name.startswith(PREFIX) and seed.isdecimal() and seed.isascii() and int(seed) < 2**63


def problems(scenario: Scenario) -> list[str]:
    """ER-MAPGEN-3: what makes a drawn map unplayable: a floor square that no path reaches
    with every door open, or a terminal or cache on a start square."""
    board = scenario.board
    floor = [sq for sq, void in enumerate(board.void) if not void]
    seen = {floor[0]}
    queue = deque(seen)
    while queue:
        sq = queue.popleft()
        for d in range(4):
            nxt = board.neighbor[sq][d]
            if nxt >= 0 and board.edge[sq][d] != WALL and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    found = [] if len(seen) == len(floor) else [f"{len(floor) - len(seen)} squares cut off"]
    starts = {c.start for c in scenario.characters}
    marked = [t.square for t in scenario.terminals] + [c.square for c in scenario.caches]
    if starts & set(marked):
        found.append("an objective on a start square")
    return found


def draw_document(rng: random.Random, name: str) -> dict[str, Any]:
    """ER-MAPGEN-1/2: one draw, as the document a scenario file would hold."""
    base = _compound()
    width, height = rng.randint(8, 14), rng.randint(6, 12)
    rooms = _rooms(rng, width, height)
    edges = _connections(rng, rooms)
    middle = rooms[2:]
    far = sorted(middle, key=lambda r: (-r[0], rng.random()))
    terminals = far[: rng.randint(1, min(3, len(middle) - 1))]
    cache = rng.choice([r for r in middle if r not in terminals])
    marks: dict[tuple[int, int], str] = {}
    for k, room in enumerate(terminals):
        marks[_inside(rng, room)] = str(k + 1)
    marks[_inside(rng, cache, avoid=marks)] = "C"
    norad = list(NORAD_POOL[: rng.randint(1, 3)])
    salemite = list(SALEMITE_POOL[: rng.randint(1, 4)])
    characters = {}
    for team, x, facing in ((norad, 0, "E"), (salemite, width - 1, "W")):
        rows = sorted(rng.sample(range(height), len(team)))
        for cid, y in zip(team, rows, strict=True):
            spec = dict(base["characters"][cid])
            spec.update(start=[x, y], facing=facing, cards=0)
            characters[cid] = spec
            marks[(x, y)] = "N" if facing == "E" else "S"
    if any(kind.startswith("magnetic") for kind in edges.values()):
        characters[norad[0]]["cards"] = 1  # ER-DOOR-3: NORAD can open its way in
    return {
        "name": name,
        "title": f"Generated map {name.removeprefix(PREFIX)}",
        "factions": ["norad", "salemite"],
        "turns": 6,
        "hand_limit": 5,
        "max_tiles_per_character": 4,
        "map": _draw(width, height, rooms, edges, marks),
        "start_marks": {"norad": "N", "salemite": "S"},
        "base_cp": {"norad": 4 + len(norad), "salemite": 7 + len(salemite)},
        "start_mp": {"norad": 0, "salemite": 0},
        "initiative": base["initiative"],
        "door_defense": base["door_defense"],
        "terminals": {f"O{k + 1}": str(k + 1) for k in range(len(terminals))},
        "caches": {"C": "magnetic_card"},
        "mission": base["mission"],
        "weapons": base["weapons"],
        "characters": characters,
        "tiles": base["tiles"],
    }


@functools.lru_cache(maxsize=1)
def _compound() -> dict[str, Any]:
    """The bundled Compound's document: the characters, weapons, tiles and rules a map uses."""
    return read_bundled(__package__, "compound")[1]


def _rooms(rng: random.Random, width: int, height: int) -> list[Room]:
    """Two start zones two squares wide, then the middle's bands cut into rooms."""
    rooms = [(0, 0, 1, height - 1), (width - 2, 0, width - 1, height - 1)]
    x = 2
    while x <= width - 3:
        band = min(rng.randint(2, 4), width - 2 - x)
        if width - 2 - (x + band) == 1:
            band += 1
        y = 0
        while y < height:
            tall = min(rng.randint(2, 4), height - y)
            if height - (y + tall) == 1:
                tall += 1
            rooms.append((x, y, x + band - 1, y + tall - 1))
            y += tall
        x += band
    return rooms


def _shared_edges(a: Room, b: Room) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The edges between two rooms side by side: (west or north square, its neighbour)."""
    out = []
    if a[2] + 1 == b[0] or b[2] + 1 == a[0]:
        west, east = (a, b) if a[2] + 1 == b[0] else (b, a)
        for y in range(max(a[1], b[1]), min(a[3], b[3]) + 1):
            out.append(((west[2], y), (east[0], y)))
    if a[3] + 1 == b[1] or b[3] + 1 == a[1]:
        north, south = (a, b) if a[3] + 1 == b[1] else (b, a)
        for x in range(max(a[0], b[0]), min(a[2], b[2]) + 1):
            out.append(((x, north[3]), (x, south[1])))
    return out


def _connections(rng: random.Random, rooms: list[Room]) -> dict[tuple, str]:
    """A random spanning tree of the rooms (from NORAD's zone), each tree edge a door of a
    random kind or a gap, plus an extra gap or door for about one room in four."""
    pairs = {
        (i, j): edges
        for i in range(len(rooms))
        for j in range(i + 1, len(rooms))
        if (edges := _shared_edges(rooms[i], rooms[j]))
    }
    kinds = [*DOOR_LETTERS, *DOOR_LETTERS, "open", "open"]
    joined, tree = {0}, []
    while len(joined) < len(rooms):
        frontier = sorted(p for p in pairs if (p[0] in joined) != (p[1] in joined))
        pair = rng.choice(frontier)
        tree.append(pair)
        joined |= set(pair)
    extra = rng.sample(sorted(set(pairs) - set(tree)), min(len(rooms) // 4, len(pairs) - len(tree)))
    return {rng.choice(pairs[p]): rng.choice(kinds) for p in tree + extra}


def _inside(rng: random.Random, room: Room, avoid: Any = ()) -> tuple[int, int]:
    squares = [
        (x, y)
        for x in range(room[0], room[2] + 1)
        for y in range(room[1], room[3] + 1)
        if (x, y) not in avoid
    ]
    return rng.choice(squares)


def _draw(width: int, height: int, rooms: list[Room], edges: dict, marks: dict) -> str:
    """The ER-SCN-1 text of the map: walls between rooms except where ``edges`` opens them."""
    room_of = {
        (x, y): r
        for r, (x0, y0, x1, y1) in enumerate(rooms)
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
    }

    def edge(a: tuple[int, int], b: tuple[int, int], wall: str) -> str:
        kind = edges.get((a, b))
        if kind is not None:
            return " " if kind == "open" else DOOR_LETTERS[kind]
        return " " if room_of[a] == room_of[b] else wall

    lines = ["+" + "-+" * width]
    for y in range(height):
        row = "|"
        for x in range(width):
            row += marks.get((x, y), ".")
            row += "|" if x == width - 1 else edge((x, y), (x + 1, y), "|")
        lines.append(row)
        if y < height - 1:
            lines.append("+" + "".join(edge((x, y), (x, y + 1), "-") + "+" for x in range(width)))
    lines.append("+" + "-+" * width)
    return "\n".join(lines)
