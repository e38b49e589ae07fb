"""Per-rule tests of the tiles (ER-TILE-1, -2, -3)."""

from __future__ import annotations

import random
import re
from collections import Counter

from reborn_env.games.earth_reborn.positions import state_to_dict
from reborn_env.games.earth_reborn.rules.engine import apply_action, legal_actions, new_game
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import (
    ORDER_TYPES,
)
from tests.earth_reborn.helpers import (
    hand,
    legal,
    load,
    move_tiles,
    pile,
    play,
    position,
    scenario_copy,
    starting,
    tiles,
    view_bytes,
)

# --- Tiles (ER-TILE-1, -2, -3) -------------------------------------------------------------------


def test_tiles_have_four_sections_with_type_max_and_colour():
    """ER-TILE-1: every tile has four sections, each an order type, a maximum 1-4 and a colour;
    the maximum is enforced (T03's M1r takes one CP)."""
    scn = load_scenario()
    for tile in scn.tiles:
        assert len(tile.sections) == 4
        for s in tile.sections:
            assert s.type in ORDER_TYPES and 1 <= s.max <= 4
            assert s.colour in ("black", "red", "gold")
    t01 = scn.tiles[scn.tile_index["T01"]]
    assert [(s.type, s.max, s.colour) for s in t01.sections] == [
        ("M", 3, "black"),
        ("C", 1, "black"),
        ("F", 2, "red"),
        ("I", 1, "black"),
    ]
    pos = position(active="norad")
    move_tiles(pos, ["T03"], "hand:norad")
    pos["players"]["norad"]["cp"] = 5
    state = load(pos)
    play(state, "ACTIVATE(bolter)", "ASSIGN(T03)", "MOVE_CP(0)")
    assert not starting(legal(state), "MOVE_CP")


def _recolour(text: str) -> str:
    """Every tile section's colour rotated k -> r -> g -> k in the [tiles] table."""
    rotate = {"k": "r", "r": "g", "g": "k"}

    def line(m: re.Match) -> str:
        return re.sub(r'"([MCFIS][1-4])([krg])"', lambda s: f'"{s[1]}{rotate[s[2]]}"', m[0])

    return re.sub(r"^T\d\d = \[.*\]$", line, text, flags=re.M)


def test_colours_have_no_effect(tmp_path):
    """ER-TILE-2: with every section's colour changed, seeded random games play identically
    (same legal sets, same states, same result)."""
    plain = load_scenario()
    coloured = scenario_copy(tmp_path, _recolour)
    pairs = zip(plain.tiles, coloured.tiles, strict=True)
    assert all([s.colour for s in a.sections] != [s.colour for s in b.sections] for a, b in pairs)
    for seed in range(3):
        a, b = new_game(plain, seed), new_game(coloured, seed)
        rng = random.Random(seed)
        while a.winner is None:
            assert legal_actions(a) == legal_actions(b)
            action = rng.choice(legal_actions(a))
            apply_action(a, action)
            apply_action(b, action)
            assert state_to_dict(a) == state_to_dict(b)
            for agent in plain.factions:
                assert view_bytes(a, agent) == view_bytes(b, agent)
        assert b.winner == a.winner


def test_the_default_tile_set():
    """ER-TILE-3: 24 tiles T01..T24 with the section totals of ER-SCN-12; every tile has a Move
    section; all 24 are in play."""
    scn = load_scenario()
    assert [t.id for t in scn.tiles] == tiles(1, 24)
    totals = Counter((s.type, s.max) for t in scn.tiles for s in t.sections)
    assert totals == Counter(
        {
            ("M", 1): 9,
            ("M", 2): 12,
            ("M", 3): 6,
            ("C", 1): 10,
            ("C", 2): 9,
            ("C", 3): 3,
            ("F", 1): 10,
            ("F", 2): 8,
            ("F", 3): 3,
            ("F", 4): 1,
            ("I", 1): 11,
            ("I", 2): 4,
            ("S", 1): 7,
            ("S", 2): 3,
        }
    )
    assert all(any(s.type == "M" for s in t.sections) for t in scn.tiles)
    state = new_game(seed=0)
    assert sorted(pile(state, "bag") + hand(state, "norad")) == tiles(1, 24)
