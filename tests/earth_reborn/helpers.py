"""Helpers that set up Earth Reborn positions the way section 20's test cases describe them.

``position()`` gives the section-20 default: turn 1, activity phase, NORAD active at a round-level
decision, every figure on its start square (ER-SCN-7), living, Healthy, not engaged; hands empty and
every tile in the ``box``; bolter carries the magnetic card, the cache holds the other; doors
closed; terminals not hacked; weapons ready; CP and MP 0. Tests edit the dict, then ``load`` it.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import numpy as np

from reborn_env.games.earth_reborn.observation import Observer, observation_layout
from reborn_env.games.earth_reborn.positions import state_from_dict, state_to_dict
from reborn_env.games.earth_reborn.rules import dice
from reborn_env.games.earth_reborn.rules.engine import apply_action, legal_actions, new_game
from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import DIRECTION_NAMES


@lru_cache(maxsize=1)
def _start() -> dict[str, Any]:
    return state_to_dict(new_game(seed=0))


def position(active: str = "norad", turn: int = 1, initiative: str | None = None) -> dict[str, Any]:
    """The section-20 default position, at ``active``'s round-level decision."""
    pos = copy.deepcopy(_start())
    everything = pos["bag"] + pos["discard"] + pos["box"]
    for p in pos["players"].values():
        everything += p["hand"]
        p.update(cp=0, mp=0, hand=[], redrew=False, bid=None)
    pos.update(
        turn=turn,
        phase="activity",
        active=active,
        passes=0,
        initiative=initiative or ("norad" if turn % 2 else "salemite"),
        decision={"kind": "round", "player": active},
        bag=[],
        discard=[],
        box=sorted(everything),
        steps=0,
        dice_queue=[],
    )
    return pos


def move_tiles(pos: dict[str, Any], tiles: list[str], to: str) -> None:
    """Move tiles from wherever they are to ``to``: 'bag', 'discard', 'box', 'hand:norad',
    'hand:salemite' or 'char:<id>' (assigned with 0 CP)."""
    piles = [pos["bag"], pos["discard"], pos["box"]] + [p["hand"] for p in pos["players"].values()]
    for t in tiles:
        for pile in piles:
            if t in pile:
                pile.remove(t)
        for ch in pos["characters"].values():
            ch["tiles"] = [a for a in ch["tiles"] if a["tile"] != t]
    kind, _, name = to.partition(":")
    if kind == "hand":
        pos["players"][name]["hand"] = sorted(pos["players"][name]["hand"] + tiles)
    elif kind == "char":
        pos["characters"][name]["tiles"] += [{"tile": t, "cp": [0, 0, 0, 0]} for t in tiles]
    else:
        pos[kind] = sorted(pos[kind] + tiles)


def tiles(first: int, last: int) -> list[str]:
    """Tile ids T<first>..T<last>."""
    return [f"T{i:02d}" for i in range(first, last + 1)]


def place(
    pos: dict[str, Any],
    char: str,
    square: tuple[int, int] | None = None,
    facing: str | None = None,
    **fields: Any,
) -> None:
    """Move a character and set any of its fields (engaged, side, wounds, cards, dead...).

    ``dead=True`` also turns the card to its Wounded side with LP wounds, as a death leaves it
    (ER-WND-2); a position refuses a dead character in any other state.
    """
    ch = pos["characters"][char]
    if fields.get("dead"):
        scn = load_scenario("vault_raid")
        fields = {
            "side": "wounded",
            "wounds": scn.characters[scn.char_index[char]].wounded.lp,
            **fields,
        }
    if square is not None:
        ch["square"] = list(square)
    if facing is not None:
        ch["facing"] = facing
    ch.update(fields)


def give_card(pos: dict[str, Any], char: str) -> None:
    """Move bolter's magnetic card to ``char`` (section 20: "the magnetic card")."""
    pos["characters"]["bolter"]["cards"] -= 1
    pos["characters"][char]["cards"] += 1


def door(pos: dict[str, Any], edge: str, state: str) -> None:
    """Set a door ('1,2|2,2') to 'closed', 'open' or 'destroyed'."""
    pos["doors"][edge]["state"] = state


def load(pos: dict[str, Any]) -> GameState:
    return state_from_dict(copy.deepcopy(pos))


def play(state: GameState, *names: str) -> None:
    """Apply actions by readable name, in order."""
    for name in names:
        apply_action(state, name)


def legal(state: GameState) -> set[str]:
    """Readable names of the legal actions now."""
    return {state.codec.name(a) for a in legal_actions(state)}


def inject(state: GameState, faces: str) -> None:
    dice.inject(state, faces)


def inject_next(state: GameState, faces: str) -> None:
    """Queue ``faces`` as the next dice (ER-DICE-4); nothing may be queued before."""
    assert state.dice_queue == []
    inject(state, faces)


def char(state: GameState, cid: str):
    return state.chars[state.scenario.char_index[cid]]


def facing(state: GameState, cid: str) -> str:
    """'N', 'E', 'S' or 'W'."""
    return DIRECTION_NAMES[char(state, cid).facing]


def section_cp(state: GameState, cid: str, slot: int = 0) -> list[int]:
    """CP on each section of the tile in ``cid``'s slot ``slot``."""
    return list(char(state, cid).tiles[slot].cp)


def xy(state: GameState, cid: str) -> tuple[int, int]:
    return state.scenario.board.xy(char(state, cid).square)


def door_state(state: GameState, edge: str) -> str:
    """'closed', 'open' or 'destroyed' of the door on ``edge``."""
    return state_to_dict(state)["doors"][edge]["state"]


def hand(state: GameState, faction: str) -> list[str]:
    p = state.scenario.factions.index(faction)
    return [state.scenario.tiles[t].id for t in state.hands[p]]


def pile(state: GameState, name: str) -> list[str]:
    return [state.scenario.tiles[t].id for t in getattr(state, name)]


def cp(state: GameState, faction: str) -> int:
    return state.cp[state.scenario.factions.index(faction)]


def mp(state: GameState, faction: str) -> int:
    return state.mp[state.scenario.factions.index(faction)]


def decider(state: GameState) -> str:
    return state.scenario.factions[state.decider]


def engine_view(state: GameState, agent: str) -> tuple[np.ndarray, np.ndarray]:
    """(observation, action mask) of ``agent`` built straight from the engine state."""
    me = state.scenario.factions.index(agent)
    obs = Observer(state.scenario).observe(state, me)
    mask = np.zeros(state.codec.size, dtype=np.int8)
    if state.winner is None and state.decider == me:
        mask[legal_actions(state)] = 1
    return obs, mask


def obs_blocks(state: GameState, vec: np.ndarray) -> dict[str, np.ndarray]:
    """Slice an observation vector into the named blocks of ``observation_layout``."""
    out: dict[str, np.ndarray] = {}
    i = 0
    for name, width in observation_layout(state.scenario):
        out[name] = vec[i : i + width]
        i += width
    assert i == vec.shape[0]
    return out
