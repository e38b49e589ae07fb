"""Helpers that set up Earth Reborn positions the way section 20's test cases describe them.

``position()`` gives the section-20 default: turn 1, activity phase, NORAD active at a round-level
decision, every figure on its start square (ER-SCN-7), living, Healthy, not engaged; hands empty and
every tile in the ``box``; bolter carries the magnetic card, the cache holds the other; doors
closed; terminals not hacked; weapons ready; CP and MP 0. Tests edit the dict, then ``load`` it.

For the per-rule tests too: scenario variants (:func:`scenario_copy`, a TOML copy of the default
scenario written to ``tmp_path``; :func:`duel_scenario`), views of an observation
(:func:`blocks`, :func:`view_bytes`) and seeded random games that fight (:func:`random_game`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from reborn_env.games.earth_reborn.observation import Observer, observation_layout
from reborn_env.games.earth_reborn.positions import state_from_dict, state_to_dict
from reborn_env.games.earth_reborn.rules import dice
from reborn_env.games.earth_reborn.rules.engine import apply_action, legal_actions, new_game
from reborn_env.games.earth_reborn.rules.state import GameState
from reborn_env.games.earth_reborn.scenario import loader as scenario_file
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import DIRECTION_NAMES, Scenario


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
    (ER-WND-2), and scores the kill for the other faction (ER-SCN-10); a position refuses a dead
    character in any other state, or a kill whose points are missing.
    """
    ch = pos["characters"][char]
    if fields.get("dead"):
        scn = load_scenario("vault_raid")
        if not ch["dead"]:
            mine = scn.characters[scn.char_index[char]].faction
            enemy = next(f for f in scn.factions if f != mine)
            pos["players"][enemy]["mp"] += scn.mission.kill_mp[enemy]
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


# --- For the per-rule tests (tests/earth_reborn/rules/): scenario variants, views, random games ---

SCENARIO_TOML = Path(scenario_file.__file__).parent / "data" / "vault_raid.toml"
WOODEN_WEST = "1,2|2,2"  # wooden door between the west corridor and the hall
VAULT = "4,1|4,2"  # magnetic sliding door
END_MOVES = {f"END_MOVE({f})" for f in "NESW"}


def starting(names: set[str], prefix: str) -> set[str]:
    return {n for n in names if n.startswith(prefix)}


def scenario_copy(tmp_path: Path, edit: Callable[[str], str]) -> Scenario:
    """The default scenario file, edited by ``edit``, saved under ``tmp_path`` and loaded."""
    text = SCENARIO_TOML.read_text()
    changed = edit(text)
    assert changed != text, "the edit must change the scenario file"
    path = tmp_path / "vault_raid.toml"
    path.write_text(changed)
    return load_scenario(str(path))


def duel_scenario(tmp_path: Path) -> Scenario:
    """Vault Raid with the optional initiative duel switched on (ER-INI-8)."""
    scn = scenario_copy(tmp_path, lambda t: t.replace("duel = false", "duel = true"))
    assert scn.initiative_duel
    return scn


def blocks(state: GameState, agent: str) -> dict[str, np.ndarray]:
    """``agent``'s observation cut into the named blocks of ``observation_layout``."""
    return obs_blocks(state, engine_view(state, agent)[0])


def view_bytes(state: GameState, agent: str) -> bytes:
    obs, mask = engine_view(state, agent)
    return obs.tobytes() + mask.tobytes()


def scaled(values: np.ndarray, scale: float) -> list[int]:
    return [int(round(float(v) * scale)) for v in values]


_IDLE = ("PASS", "END_ROUND", "END_MOVE", "DISCARD_TILE", "KEEP_HAND")


def random_game(
    seed: int,
    scenario: Scenario | str = "vault_raid",
    hook: Callable[[GameState], None] | None = None,
) -> GameState:
    """A seeded random game that prefers doing something over passing (fights happen).

    ``hook(state)`` runs after setup and after every action.
    """
    state = new_game(scenario, seed)
    rng = random.Random(seed)
    if hook:
        hook(state)
    while state.winner is None:
        now = legal_actions(state)
        busy = [a for a in now if state.codec.kind_of[a] not in _IDLE]
        pool = busy if busy and rng.random() < 0.85 else now
        apply_action(state, rng.choice(pool))
        if hook:
            hook(state)
    return state


def final_position(turn: int = 1) -> dict[str, Any]:
    """The Final phase of ``turn`` at the initiative holder's discard decision, every tile in the
    bag (so the next Initiative phase can draw)."""
    pos = position(turn=turn)
    holder = pos["initiative"]
    move_tiles(pos, tiles(1, 24), "bag")
    pos.update(phase="final", decision={"kind": "discard", "player": holder})
    return pos


def keep_both(state: GameState) -> None:
    """Both players keep their hands: the Final phase ends and the next turn begins."""
    play(state, "KEEP_HAND", "KEEP_HAND")
