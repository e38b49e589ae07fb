"""What one seat may see of an Earth Reborn game, as drawing data for the web page.

Why: the page (reborn_env.web) draws any game from one generic shape (docs/web.md): a grid, its
cells and edges keyed to a legend, pieces, clickable targets and text panels. This module fills
it from :func:`.public.public_view` of the position, so it holds nothing the seat may not know:
the opponent's tiles behind the screen (ER-HID-2), the bag (ER-HID-6) and a hidden discard
(ER-HID-7) are counts only; the seat's own hand is listed with each tile's sections and costs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import codec_for
from .public import public_view
from .render import DOOR_COLOURS, FACTION_COLOURS
from .rules.state import CHOOSE_DISCARD
from .scenario.model import DX, DY, OPEN_EDGE, WALL, Scenario

_SIDES = "NESW"
_DOOR_TEXT = {
    "sliding": "sliding door",
    "wooden": "wooden door",
    "magnetic_sliding": "magnetic sliding door",
    "magnetic_wooden": "magnetic wooden door",
}
_STATE_SHADE = {"closed": 1.0, "opened": 0.55, "destroyed": 0.25}
# Actions a click on a square plays: the square is the active figure's neighbour in the
# direction, or the named character's square.
_DIRECTION_KINDS = ("STEP", "END_MOVE", "CHOOSE_TARGET_DIR")
_CHARACTER_KINDS = ("ACTIVATE", "REACTIVATE", "CHOOSE_TARGET_CHAR")


def _hex(rgb: Sequence[int], shade: float = 1.0) -> str:
    return "#" + "".join(f"{int(c * shade + 255 * (1 - shade)):02x}" for c in rgb)


def _legend(scn: Scenario) -> list[dict[str, str]]:
    """Every key the view uses, with its colour and words (the page draws it beside the board)."""
    rows = [
        {"key": "floor", "shape": "cell", "colour": "#f4f1e8", "text": "room floor"},
        {"key": "void", "shape": "cell", "colour": "#3b3b3b", "text": "outside the rooms"},
        {"key": "wall", "shape": "edge", "colour": "#222222", "text": "wall"},
    ]
    for kind, text in _DOOR_TEXT.items():
        for state, shade in _STATE_SHADE.items():
            rows.append(
                {
                    "key": f"door_{kind}_{state}",
                    "shape": "edge",
                    "colour": _hex(DOOR_COLOURS[kind], shade),
                    "text": f"{text}, {state}",
                }
            )
    rows += [
        {"key": "terminal", "shape": "cell", "colour": "#9fd3ff", "text": "terminal (id)"},
        {
            "key": "terminal_hacked",
            "shape": "cell",
            "colour": "#4a90d9",
            "text": "terminal, hacked",
        },
        {"key": "cache_full", "shape": "cell", "colour": "#ffd36b", "text": "cache, full"},
        {"key": "cache_empty", "shape": "cell", "colour": "#e6dcc0", "text": "cache, searched"},
    ]
    if scn.mission.hold_squares:  # ER-SCN-14
        rows.append({"key": "hold", "shape": "cell", "colour": "#c8e6af", "text": "hold square"})
    for faction, colour in zip(scn.factions, FACTION_COLOURS, strict=True):
        rows.append(
            {"key": faction, "shape": "piece", "colour": _hex(colour), "text": f"{faction} figure"}
        )
    rows += [
        {"key": "facing", "shape": "note", "symbol": "▲", "text": "arrow: facing"},
        {"key": "wounded", "shape": "note", "symbol": "'", "text": "' and red ring: wounded"},
        {"key": "dead", "shape": "note", "symbol": "✕", "text": "grey cross: dead marker"},
        {"key": "active", "shape": "note", "symbol": "◯", "text": "gold ring: activated"},
        {"key": "target", "shape": "note", "symbol": "⬚", "text": "dashed: click to play"},
    ]
    return rows


def _edges(scn: Scenario, doors: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Walls and doors, each once: a square's north and west edges, and the map's far sides."""
    board = scn.board
    out: list[dict[str, Any]] = []
    for sq in range(board.width * board.height):
        x, y = board.xy(sq)
        for d, side in enumerate(_SIDES):
            edge = board.edge[sq][d]
            nb = board.neighbor[sq][d]
            if side in "SE" and nb != -1:
                continue  # drawn as the neighbour's N or W edge
            if edge == OPEN_EDGE or (
                edge == WALL and board.void[sq] and (nb == -1 or board.void[nb])
            ):
                continue
            if edge == WALL:
                out.append({"x": x, "y": y, "side": side, "key": "wall"})
                continue
            door = board.doors[edge]
            (ax, ay), (bx, by) = board.xy(door.a), board.xy(door.b)
            state = doors[f"{ax},{ay}|{bx},{by}"]["state"]
            out.append({"x": x, "y": y, "side": side, "key": f"door_{door.kind}_{state}"})
    return out


def _cells(scn: Scenario, position: Mapping[str, Any]) -> list[dict[str, Any]]:
    board = scn.board
    cells = [
        {"x": x, "y": y, "key": "void" if board.void[board.square(x, y)] else "floor", "label": ""}
        for y in range(board.height)
        for x in range(board.width)
    ]
    for square in scn.mission.hold_squares:  # ER-SCN-14
        x, y = board.xy(square)
        cells[square] = {"x": x, "y": y, "key": "hold", "label": "H"}
    for terminal in scn.terminals:
        x, y = board.xy(terminal.square)
        hacked = position["terminals"][terminal.id]
        cells[terminal.square] = {
            "x": x,
            "y": y,
            "key": "terminal_hacked" if hacked else "terminal",
            "label": terminal.id,
        }
    for cache in position["caches"]:
        x, y = cache["square"]
        key = "cache_full" if cache["full"] else "cache_empty"
        cells[board.square(x, y)] = {"x": x, "y": y, "key": key, "label": "C"}
    return cells


def _tile_items(scn: Scenario, tile_ids: Sequence[str], cps: Sequence[Sequence[int]] = ()) -> list:
    """Tiles with each section's order type, its cost (the most CP it takes) and colour."""
    items = []
    for i, tile_id in enumerate(tile_ids):
        tile = scn.tiles[scn.tile_index[tile_id]]
        lines = []
        for s, section in enumerate(tile.sections):
            on = f", {cps[i][s]} CP on it" if cps else ""
            lines.append(f"{s}: {section.type} cost {section.max} {section.colour}{on}")
        items.append({"title": tile_id, "lines": lines})
    return items


def _pieces(scn: Scenario, position: Mapping[str, Any], active: str | None) -> list[dict]:
    pieces = []
    for spec, letter in zip(scn.characters, scn.figure_letters, strict=True):
        ch = position["characters"][spec.id]
        x, y = ch["square"]
        stats = spec.wounded if ch["side"] == "wounded" else spec.healthy
        title = (
            f"{spec.id} ({spec.faction}) {ch['side']}, {ch['wounds']}/{stats.lp} wounds, "
            f"CP spent {ch['cp_spent']}/{stats.maxcp}, facing {ch['facing']}"
        )
        pieces.append(
            {
                "x": x,
                "y": y,
                "label": letter,
                "key": spec.faction,
                "facing": None if ch["dead"] else ch["facing"],
                "wounded": ch["side"] == "wounded",
                "wounds": ch["wounds"],
                "dead": ch["dead"],
                "active": spec.id == active,
                "title": title,
            }
        )
    # dead markers first, so a living figure is drawn over one
    return sorted(pieces, key=lambda p: not p["dead"])


def _targets(
    scn: Scenario, position: Mapping[str, Any], legal: Sequence[int]
) -> list[dict[str, Any]]:
    """The legal actions a click on a square plays (one per square, the first in codec order)."""
    codec = codec_for(scn)
    board = scn.board
    active = position["round"]["character"]
    targets: dict[tuple[int, int], dict[str, Any]] = {}
    for action in legal:
        kind, arg = codec.decode(int(action))
        xy = None
        if kind in _DIRECTION_KINDS and active is not None:
            x, y = position["characters"][active]["square"]
            xy = (x + DX[arg], y + DY[arg])
        elif kind in _CHARACTER_KINDS:
            xy = tuple(position["characters"][scn.characters[arg].id]["square"])
        if xy is not None and board.on_map(*xy) and xy not in targets:
            targets[xy] = {
                "x": xy[0],
                "y": xy[1],
                "action": int(action),
                "name": codec.name(action),
            }
    return list(targets.values())


def board_view(match: Any, seat: int, legal: Sequence[int] = ()) -> dict[str, Any]:
    """The game in ``match`` as ``seat`` may see it, as the page's JSON drawing data; ``legal``
    (the seat's legal actions, empty when it is not to move) become clickable squares."""
    scn: Scenario = match.rules.scenario
    view = public_view(match.to_position(), seat)
    position, hidden = view["position"], view["hidden"]
    me = view["seat"]
    opponent = scn.opponent(me)
    decision, rnd = position["decision"], position["round"]
    players = position["players"]
    status = [
        f"{scn.title}: turn {position['turn']}/{scn.turns}, phase {position['phase']}",
        f"decision: {decision['kind']} by {decision['player']}",
        f"initiative {position['initiative']}, active {position['active']}, "
        f"passes {position['passes']}",
    ]
    for faction in scn.factions:
        p = players[faction]
        held = len(p["hand"]) if faction == me else hidden["hand"]
        status.append(f"{faction}: CP {p['cp']}  MP {p['mp']}  tiles in hand {held}")
    if rnd["character"] is not None:
        order = "" if rnd["section"] is None else f", order section {rnd['section']}"
        status.append(
            f"round: {rnd['character']} activated{order}, CP {rnd['cp']}, "
            f"decisions {rnd['decisions']}"
        )
    discard = hidden["discard"] if hidden["discard"] is not None else len(position["discard"])
    status.append(f"bag {hidden['bag']}  discard {discard}  box {len(position['box'])}")
    if position["last_roll"]:
        status.append(f"last roll: {position['last_roll']}")
    if position["winner"] is not None:
        status.append(f"winner: {position['winner']}")
    panels = []
    for spec in scn.characters:
        tiles = position["characters"][spec.id]["tiles"]
        if tiles:
            panels.append(
                {
                    "title": f"{spec.id}'s assigned tiles",
                    "items": _tile_items(scn, [t["tile"] for t in tiles], [t["cp"] for t in tiles]),
                }
            )
    if decision["kind"] == CHOOSE_DISCARD and decision["player"] == me:
        panels.append({"title": "discard pile", "items": _tile_items(scn, position["discard"])})
    return {
        "title": scn.title,
        "seat": me,
        "grid": {"shape": "square", "width": scn.board.width, "height": scn.board.height},
        "legend": _legend(scn),
        "cells": _cells(scn, position),
        "edges": _edges(scn, position["doors"]),
        "pieces": _pieces(scn, position, rnd["character"]),
        "targets": _targets(scn, position, legal),
        "status": status,
        "hand": {
            "title": f"your tiles ({me})",
            "items": _tile_items(scn, players[me]["hand"]),
            "others": f"{opponent} holds {hidden['hand']} tiles",
        },
        "panels": panels,
    }
