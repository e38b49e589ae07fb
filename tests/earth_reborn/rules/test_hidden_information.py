"""Per-rule tests of hidden information: what each side's observation shows and hides (ER-HID-4,
-5, -8, -9, -10, ER-TILE-4, -5, -8, -9).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from reborn_env.games.earth_reborn.actions import MAX_CP
from reborn_env.games.earth_reborn.observation import observation_layout
from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import (
    ORDER_TYPES,
)
from tests.earth_reborn.helpers import (
    blocks,
    decider,
    engine_view,
    final_position,
    hand,
    load,
    move_tiles,
    obs_blocks,
    pile,
    place,
    play,
    position,
    scaled,
    tiles,
    view_bytes,
)


def view_but_own_hand(state: GameState, agent: str) -> bytes:
    """``agent``'s observation and mask with the block of its own hand left out."""
    obs, mask = engine_view(state, agent)
    parts = obs_blocks(state, obs)
    del parts["my hand (tile multi-hot)"]
    return b"".join(v.tobytes() for v in parts.values()) + mask.tobytes()


# --- Hidden information (ER-HID-4, -5, -8, -9, -10, ER-TILE-4, -5, -8, -9) -----------------------


def test_both_cp_pools_are_in_the_observation():
    """ER-HID-4: each player sees his own pool and the opponent's."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "bag")
    pos["players"]["norad"]["cp"] = 7
    pos["players"]["salemite"]["cp"] = 3
    state = load(pos)
    assert scaled(blocks(state, "norad")["cp: mine, opponent's"], MAX_CP) == [7, 3]
    assert scaled(blocks(state, "salemite")["cp: mine, opponent's"], MAX_CP) == [3, 7]
    play(state, "DRAW_BAG")
    assert scaled(blocks(state, "salemite")["cp: mine, opponent's"], MAX_CP) == [3, 6]


def character_block(state: GameState, agent: str, cid: str) -> np.ndarray:
    return blocks(state, agent)[f"character {cid}"]


def test_assigned_tiles_and_their_cp_are_public():
    """ER-HID-5, ER-TILE-5: bolter's assigned T01 with 2 CP on M3k and 1 on C1k and his 3 CP
    spent: Salemite sees exactly what NORAD sees (only the "mine" flag differs)."""
    pos = position(active="norad")
    move_tiles(pos, ["T01"], "char:bolter")
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [2, 1, 0, 0]
    place(pos, "bolter", engaged=True, cp_spent=3)
    state = load(pos)
    mine = character_block(state, "norad", "bolter")
    theirs = character_block(state, "salemite", "bolter")
    assert mine[0] == 1.0 and theirs[0] == 0.0
    assert mine[1:].tobytes() == theirs[1:].tobytes()
    scn = state.scenario
    start = 11 + scn.board.width + scn.board.height + 4 + len(scn.terminals)
    per_section = len(ORDER_TYPES) + 3
    slot0 = theirs[start : start + 4 * per_section].reshape(4, per_section)
    printed = [("M", 3), ("C", 1), ("F", 2), ("I", 1)]
    for k, (kind, maximum) in enumerate(printed):
        assert slot0[k, ORDER_TYPES.index(kind)] == 1.0 and slot0[k, :5].sum() == 1.0
        assert slot0[k, 5] == maximum / 4 and slot0[k, 7] == 1.0
    assert [float(v) for v in slot0[:, 6]] == [0.5, 0.25, 0.0, 0.0]
    assert theirs[5] == 3 / 6  # cp spent this turn
    assert not theirs[start + 4 * per_section :].any()  # no second tile
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [3, 1, 0, 0]
    place(pos, "bolter", cp_spent=4)
    assert character_block(load(pos), "salemite", "bolter").tobytes() != theirs.tobytes()


def test_own_tiles_are_seen_only_by_their_holder():
    """ER-TILE-4: NORAD sees its own tiles; holding T01, T02 or T03, T04 looks the same to
    Salemite."""
    pos = position(active="norad")
    move_tiles(pos, ["T01", "T02"], "hand:norad")
    alt = copy.deepcopy(pos)
    move_tiles(alt, ["T01", "T02"], "box")
    move_tiles(alt, ["T03", "T04"], "hand:norad")
    a, b = load(pos), load(alt)
    held = blocks(a, "norad")["my hand (tile multi-hot)"]
    assert {a.scenario.tiles[t].id for t in np.flatnonzero(held)} == {"T01", "T02"}
    assert view_bytes(a, "salemite") == view_bytes(b, "salemite")
    assert view_bytes(a, "norad") != view_bytes(b, "norad")


def test_discards_go_face_down():
    """ER-TILE-8: in the Final phase assigned tiles and thrown tiles go to the discard pile, face
    down: the count shows, the identities do not (to either player)."""
    pos = position(active="norad")
    pos["passes"] = 1
    move_tiles(pos, ["T01"], "char:bolter")
    place(pos, "bolter", engaged=True)
    move_tiles(pos, tiles(2, 7), "hand:norad")
    state = load(pos)
    play(state, "PASS")
    assert pile(state, "discard") == ["T01"]
    play(state, "DISCARD_TILE(T02)")
    assert pile(state, "discard") == ["T01", "T02"]
    for agent in ("norad", "salemite"):
        b = blocks(state, agent)
        assert not b["discard, only at my CHOOSE_DISCARD"].any()
        counts = b["tile counts: my hand, opponent's hand, bag, discard"]
        assert scaled(counts, 24)[3] == 2


def test_the_discard_is_seen_only_by_the_player_taking_a_tile():
    """ER-TILE-9 (ER-HID-7): both see the discard count; only NORAD, at its own CHOOSE_DISCARD,
    sees which tiles lie there."""
    pos = position(active="norad")
    move_tiles(pos, ["T12", "T21"], "discard")
    pos["players"]["norad"]["cp"] = 2
    state = load(pos)
    for agent in ("norad", "salemite"):
        b = blocks(state, agent)
        assert scaled(b["tile counts: my hand, opponent's hand, bag, discard"], 24)[3] == 2
        assert not b["discard, only at my CHOOSE_DISCARD"].any()
    play(state, "PICK_DISCARD")
    seen = blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"]
    assert {state.scenario.tiles[t].id for t in np.flatnonzero(seen)} == {"T12", "T21"}
    assert not blocks(state, "salemite")["discard, only at my CHOOSE_DISCARD"].any()
    play(state, "CHOOSE_DISCARD(T21)")
    assert not blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"].any()


def test_no_memory_aid_in_the_v0_observation():
    """ER-HID-8: the optional memory aid is not in our observation: right after NORAD discarded
    T01 and T02 in the Final phase its discard block is all zeros, and a discard of other tiles
    (same count) gives NORAD a byte-identical view."""
    names = [name for name, _ in observation_layout(load_scenario())]
    assert not [n for n in names if "memory" in n]
    assert "discard, only at my CHOOSE_DISCARD" in names

    pos = final_position()
    move_tiles(pos, ["T07"], "discard")
    move_tiles(pos, tiles(1, 6), "hand:norad")
    state = load(pos)
    play(state, "DISCARD_TILE(T01)", "DISCARD_TILE(T02)")
    assert pile(state, "discard") == ["T01", "T02", "T07"]
    assert not blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"].any()

    alt = final_position()
    move_tiles(alt, ["T07", "T10", "T11"], "discard")  # T01 and T02 stay in the bag
    move_tiles(alt, tiles(3, 6), "hand:norad")
    other = load(alt)
    assert len(pile(other, "bag")) == len(pile(state, "bag"))
    assert view_bytes(state, "norad") == view_bytes(other, "norad")
    play(state, "KEEP_HAND")
    assert not blocks(state, "norad")["discard, only at my CHOOSE_DISCARD"].any()


def mulligan_position(norad_hand: list[str], rng: int) -> dict[str, Any]:
    """Turn 1 Initiative, NORAD's redraw decision; Salemite draws after it (ER-INI-1)."""
    pos = position()
    move_tiles(pos, tiles(1, 24), "bag")
    move_tiles(pos, norad_hand, "hand:norad")
    pos.update(phase="initiative", decision={"kind": "mulligan", "player": "norad"})
    pos["rng"] = f"{rng:016x}"
    return pos


def test_a_redraw_is_public_but_not_which_tiles_went_back():
    """ER-HID-9: after NORAD's redraw Salemite sees that it redrew; two redraws with different
    outcomes (new tiles drawn, first tiles returned) give Salemite byte-identical views, but for
    the tiles Salemite itself then drew (seeded, ER-INI-1)."""
    views = []
    hands = []
    for first, rng in ((tiles(1, 5), 1), (tiles(1, 5), 0xABCDEF12345), (tiles(6, 10), 7)):
        state = load(mulligan_position(first, rng))
        play(state, "MULLIGAN_REDRAW")
        assert state.decision == "mulligan" and decider(state) == "salemite"
        assert len(hand(state, "norad")) == 5 and not set(first) & set(hand(state, "norad"))
        hands.append(tuple(hand(state, "norad")))
        b = blocks(state, "salemite")
        assert list(b["redrew: mine, opponent's"]) == [0.0, 1.0]
        views.append(view_but_own_hand(state, "salemite"))
    assert len(set(hands)) == 3  # three different outcomes ...
    assert len(set(views)) == 1  # ... that Salemite cannot tell apart
    kept = load(mulligan_position(tiles(1, 5), 1))
    play(kept, "MULLIGAN_KEEP")
    assert list(blocks(kept, "salemite")["redrew: mine, opponent's"]) == [0.0, 0.0]
    assert view_but_own_hand(kept, "salemite") != views[0]
