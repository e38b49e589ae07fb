"""Helpers for the haven tests: build games from HV-API-10 fixtures, answer prompts, read state.

A test builds a game from a fixture with :func:`new` (fixture pieces: :func:`mon`, :func:`wisp`),
answers prompts with :func:`play` (each step names the prompt kind, and optionally the agent, it
expects, so a prompt that comes out of order fails at once) and reads the state through
:func:`hp`, :func:`pos`, :func:`cards_in`, :func:`element` and friends, which speak the spec's
language (``"marauder#1"``, ``"B03"``, ``"fire"``) instead of the engine's indices. Action numbers
follow 16.3: ``HEX(c,r) = 9r+c``, ``CARD(k) = 63+k``, ``BOX(s,h,m) = 73+4s+2h+m``. Used by the
section-17 cases (tests/haven/test_tc_*.py), the per-rule tests and the environment tests.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from reborn_env.core.data_files import bundled_names
from reborn_env.games.haven import actions, fast
from reborn_env.games.haven.actions import action_space
from reborn_env.games.haven.fast.kernels import COMPILED
from reborn_env.games.haven.invariants import check_invariants
from reborn_env.games.haven.rules.context import Kernels
from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from reborn_env.games.haven.rules.kernels import REFERENCE
from reborn_env.games.haven.rules.prompts import Event
from reborn_env.games.haven.rules.state import (
    CHARACTER_SLOT,
    ELEMENT_STATE_NAMES,
    MONSTER_SLOT,
    SUMMON_SLOT,
    CharacterState,
    MonsterState,
    SummonState,
)
from reborn_env.games.haven.scenario import loader
from reborn_env.games.haven.scenario.loader import load_scenario
from reborn_env.games.haven.scenario.model import ELEMENTS, Grid, Scenario

DEFAULT_FILE = Path(loader.__file__).parent / "data" / "raider_camp.toml"
BUNDLED = tuple(bundled_names(loader.__package__))
"""The names of haven's bundled scenarios (sections 15, 22, 24), for tests run on each."""

KERNELS = [REFERENCE, COMPILED] if fast.AVAILABLE else [REFERENCE]
"""The rules' kernels a position test runs on: the reference and, where built, the compiled."""
KERNEL_NAMES = ["reference", "compiled"][: len(KERNELS)]


def default_text() -> str:
    """The default scenario's file (section 15), for tests that load an edited copy."""
    return DEFAULT_FILE.read_text()


def with_map(text: str, picture: str) -> str:
    """``text`` (a scenario file) with its ``map`` string replaced by ``picture``."""
    start = text.index("map = '''")
    end = text.index("'''", start + 9) + 3
    return text[:start] + f"map = '''{picture}'''" + text[end:]


def load_text(folder: Path, name: str, text: str) -> Scenario:
    """``text`` written to ``folder/name.toml`` and loaded as a scenario (checked as any file)."""
    path = folder / f"{name}.toml"
    path.write_text(text)
    return load_scenario(str(path))


# HV-MAP-1, 16.3: the standard 9 x 7 grid, which every bundled scenario has, and its actions
STANDARD = Grid()
ACTIONS = action_space(STANDARD)

AGENTS = ("bulwark", "conjurer")
BULWARK, CONJURER = 0, 1

LONG_REST = ACTIONS.LONG_REST  # 81
ITEM0 = ACTIONS.item_action(0)  # 82
ITEM1 = ACTIONS.item_action(1)  # 83
YES = ACTIONS.YES  # 84
NO = ACTIONS.NO  # 85
LOSE_TWO = ACTIONS.LOSE_TWO_DISCARDS  # 86
LEAD, OTHER = actions.LEAD, actions.OTHER
TOP, BOTTOM = actions.TOP, actions.BOTTOM
PRINTED, DEFAULT = actions.PRINTED, actions.DEFAULT
ITEM_ACTIONS = frozenset({ITEM0, ITEM1})

BULWARK_CARDS = tuple(f"B{i:02d}" for i in range(1, 10))
CONJURER_CARDS = tuple(f"C{i:02d}" for i in range(1, 9))


# ------------------------------------------------------------------------------------------------
# Cells and actions


def cell(col: int, row: int) -> int:
    """HV-MAP-1: the cell id of ``(col, row)``."""
    return 9 * row + col


def HEX(col: int, row: int) -> int:  # noqa: N802 - the spec's spelling
    """``HEX(c,r)`` = ``9r + c``."""
    return ACTIONS.hex_action(cell(col, row))


def card(card_id: str) -> int:
    """Card index k of a class card (table order of 15.2): ``"B01"`` -> 0, ``"C08"`` -> 7."""
    return int(card_id[1:]) - 1


def CARD(card_id: str) -> int:  # noqa: N802 - the spec's spelling
    """``CARD(k)`` for a card id: ``CARD("B09")`` = 63 + 8 = 71."""
    return ACTIONS.card_action(card(card_id))


def BOX(slot: int, half: int, mode: int) -> int:  # noqa: N802 - the spec's spelling
    """``BOX(s,h,m)`` = ``73 + 4s + 2h + m``."""
    return ACTIONS.box_action(slot, half, mode)


BOX_ACTIONS = frozenset(range(ACTIONS.BOX_BASE, ACTIONS.LONG_REST))  # 73..80


def others(prefix_cards: Iterable[str], *without: str) -> list[str]:
    """The cards of ``prefix_cards`` except ``without``, in table order."""
    return [c for c in prefix_cards if c not in without]


def cards(first: str, last: str) -> list[str]:
    """Card ids ``first`` .. ``last`` of one class, e.g. ``cards("B03", "B09")``."""
    prefix = first[0]
    return [f"{prefix}{i:02d}" for i in range(card(first) + 1, card(last) + 2)]


# ------------------------------------------------------------------------------------------------
# Fixture pieces


def mon(kind: str, standee: int, col: int, row: int, rank: str = "normal", **extra: Any) -> dict:
    """A monster of a fixture: ``kind`` (``"marauder"``), standee number, cell, rank."""
    return {"type": kind, "rank": rank, "standee": standee, "cell": [col, row], **extra}


def marauder(standee: int, col: int, row: int, **extra: Any) -> dict[str, Any]:
    """A normal marauder of a fixture: standee number and cell (``mon("marauder", ...)``)."""
    return mon("marauder", standee, col, row, **extra)


def slinger(standee: int, col: int, row: int, **extra: Any) -> dict[str, Any]:
    """A normal slinger of a fixture: standee number and cell (``mon("slinger", ...)``)."""
    return mon("slinger", standee, col, row, **extra)


def wisp(col: int, row: int, **extra: Any) -> dict:
    """The Conjurer's summon in a fixture, at ``(col, row)``."""
    return {"owner": "conjurer", "cell": [col, row], **extra}


# ------------------------------------------------------------------------------------------------
# Games and prompts


def new(fixture: dict[str, Any] | None, seed: int = 0, **config: Any) -> HavenGame:
    """A game of the default scenario set up from ``fixture`` (HV-API-10), default config unless
    ``config`` names keys of :class:`HavenConfig`."""
    return new_game(scenario=None, seed=seed, config=HavenConfig(**config), fixture=fixture)


def agent_index(agent: str | int) -> int:
    return AGENTS.index(agent) if isinstance(agent, str) else agent


def expect(
    game: HavenGame,
    kind: str,
    agent: str | int | None = None,
    legal: Iterable[int] | None = None,
) -> None:
    """The pending prompt is of ``kind`` (for ``agent``) and, if given, its legal actions are
    exactly ``legal``."""
    prompt = game.prompt
    assert prompt is not None, f"expected a {kind} prompt, but the game is over ({game.outcome})"
    assert prompt.kind == kind, f"expected a {kind} prompt, got {prompt.kind} ({prompt})"
    if agent is not None:
        assert prompt.agent == agent_index(agent), f"{kind} prompt for the wrong agent: {prompt}"
    assert tuple(game.legal_actions()) == tuple(prompt.legal)
    if legal is not None:
        got = set(game.legal_actions())
        want = set(legal)
        assert got == want, (
            f"{kind}: legal {sorted(game.actions.name(a) for a in got)} != "
            f"expected {sorted(game.actions.name(a) for a in want)}"
        )


def play(game: HavenGame, *steps: tuple[Any, ...]) -> HavenGame:
    """Answer prompts in order. Each step is ``(kind, action)`` or ``(kind, action, agent)``: the
    pending prompt must be of that kind (and agent) and the action must be legal."""
    for step in steps:
        kind, action = step[0], step[1]
        agent = step[2] if len(step) > 2 else None
        expect(game, kind, agent)
        assert action in game.legal_actions(), (
            f"{game.actions.name(action)} is not legal at {kind}: "
            f"{[game.actions.name(a) for a in game.legal_actions()]}"
        )
        game.apply(action)
    return game


def box_legal(game: HavenGame) -> set[int]:
    """The BOX actions among the pending prompt's legal actions."""
    return set(game.legal_actions()) & BOX_ACTIONS


def prompt_is(kind: str, agent: str | None = None) -> Callable[[HavenGame], bool]:
    """A condition for :func:`drive`: the pending prompt is ``kind`` (for ``agent``)."""

    def check(game: HavenGame) -> bool:
        p = game.prompt
        return p is not None and p.kind == kind and (agent is None or AGENTS[p.agent] == agent)

    return check


def edited(game: HavenGame, edit: Callable[[dict[str, Any]], None]) -> HavenGame:
    """The game rebuilt from its position after ``edit`` changed the position's state dict (used
    for what a fixture cannot say, e.g. an empty draw pile)."""
    data = copy.deepcopy(game.to_position())
    assert data["answers"] == [], "edit a position only at a quiet point"
    edit(data["state"])
    return HavenGame.from_position(data)


# ------------------------------------------------------------------------------------------------
# Events


def matches(event: Event, etype: str, data: dict[str, Any] | None = None) -> bool:
    if event.type != etype:
        return False
    return all(norm(event.data.get(k)) == norm(v) for k, v in (data or {}).items())


def norm(value: Any) -> Any:
    """Cells may be logged as ids or ``[col, row]`` pairs: compare them as ids."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) for v in value)
    ):
        return cell(value[0], value[1])
    return value


def norm_cell(value: Any) -> int:
    """A logged cell, ``[col, row]`` or an id, as its id."""
    return cell(*value) if isinstance(value, list | tuple) else value


def events_of(game: HavenGame, etype: str, since: int = 0, **data: Any) -> list[Event]:
    """Events of type ``etype`` logged from index ``since`` on whose data contain ``data``."""
    return [e for e in game.events[since:] if matches(e, etype, data)]


def index_of(game: HavenGame, etype: str, since: int = 0, **data: Any) -> int:
    """Index in the log of the first matching event from ``since`` on (fails if none)."""
    for i in range(since, len(game.events)):
        if matches(game.events[i], etype, data):
            return i
    raise AssertionError(f"no {etype} {data} event after index {since}: {log(game, since)}")


def in_order(game: HavenGame, *patterns: tuple[str, dict[str, Any]], since: int = 0) -> list[int]:
    """The patterns ``(type, data)`` occur in this relative order (other events may come in
    between); returns their indices."""
    found = []
    at = since
    for etype, data in patterns:
        at = index_of(game, etype, at, **data)
        found.append(at)
        at += 1
    return found


def auto_actions(
    game: HavenGame, since: int = 0, agent: str | int | None = None, prompt: str | None = None
) -> list[tuple[str, int]]:
    """``(prompt kind, action)`` of the AUTO_ACTION events (HV-API-4) from ``since`` on, for one
    agent and/or prompt kind if given (agents may be logged by index or name, actions by number
    or name)."""
    out = []
    for e in game.events[since:]:
        if e.type != "AUTO_ACTION":
            continue
        who = e.data.get("agent")
        if agent is not None and who not in (agent_index(agent), AGENTS[agent_index(agent)]):
            continue
        if prompt is not None and e.data.get("prompt") != prompt:
            continue
        action = e.data.get("action")
        out.append(
            (e.data.get("prompt"), ACTIONS.parse(action) if isinstance(action, str) else action)
        )
    return out


def log(game: HavenGame, since: int = 0) -> str:
    return "\n".join(f"{i}: {e.type} {e.data}" for i, e in enumerate(game.events) if i >= since)


def reveal(game: HavenGame, since: int = 0) -> list[str]:
    """The ``sequence`` of the first REVEAL event from ``since`` on."""
    return list(game.events[index_of(game, "REVEAL", since)].data["sequence"])


def turn_starts(game: HavenGame, since: int = 0) -> list[str]:
    """The figures whose turn started from ``since`` on, in order."""
    return [e.data["figure"] for e in events_of(game, "TURN_START", since)]


# ------------------------------------------------------------------------------------------------
# State readers


def char(game: HavenGame, agent: str | int) -> CharacterState:
    return game.state.characters[agent_index(agent)]


def monster(game: HavenGame, label: str) -> MonsterState | None:
    """The monster ``"marauder#3"`` on the map, or None."""
    type_id, _, standee = label.partition("#")
    type_index = game.scenario.monster_type_index[type_id]
    for m in game.state.monsters:
        if m.type == type_index and m.standee == int(standee):
            return m
    return None


def summon(game: HavenGame, number: int = 1) -> SummonState | None:
    """The summon with sequence number ``number`` on the map, or None."""
    for s in game.state.summons:
        if s.number == number:
            return s
    return None


def figure(game: HavenGame, label: str) -> Any:
    if label in AGENTS:
        return char(game, label)
    if label.startswith("ember_wisp#"):
        return summon(game, int(label.partition("#")[2]))
    return monster(game, label)


def hp(game: HavenGame, label: str) -> int:
    """Current HP of ``"bulwark"``, ``"marauder#1"``, ``"ember_wisp#1"``."""
    fig = figure(game, label)
    assert fig is not None, f"{label} is not on the map"
    return fig.hp


def pos(game: HavenGame, label: str) -> int | None:
    """Cell id of a figure (None once it left the map)."""
    fig = figure(game, label)
    return None if fig is None else fig.cell


def conditions(game: HavenGame, label: str) -> set[str]:
    fig = figure(game, label)
    assert fig is not None, f"{label} is not on the map"
    return set(fig.conditions)


def card_id(game: HavenGame, agent: str | int, index: int) -> str:
    return game.scenario.characters[agent_index(agent)].cards[index].id


def cards_in(game: HavenGame, agent: str | int, zone: str) -> set[str]:
    """Card ids in a zone: hand, played, discard, lost, round_bonus, persistent, active."""
    ch = char(game, agent)
    return {card_id(game, agent, k) for k in getattr(ch, zone)}


def cards_in_order(game: HavenGame, agent: str | int, zone: str) -> list[str]:
    """Card ids of a zone, in the order the state keeps them."""
    ch = char(game, agent)
    return [card_id(game, agent, k) for k in getattr(ch, zone)]


def item(game: HavenGame, agent: str | int, index: int) -> str:
    """``"ready"``, ``"spent"`` or ``"consumed"``."""
    return char(game, agent).items[index]


def element(game: HavenGame, name: str) -> str:
    """``"inert"``, ``"waning"`` or ``"strong"``."""
    return ELEMENT_STATE_NAMES[game.state.elements[ELEMENTS.index(name)]]


def coins(game: HavenGame) -> dict[int, int]:
    """Coins on the map: cell id -> number."""
    return dict(game.state.coins)


def sequence(game: HavenGame) -> list[str]:
    """This round's turn sequence in the fixture's spelling: agent names, monster type ids,
    ``summon:N``."""
    out = []
    for slot in game.state.sequence:
        if slot.kind == CHARACTER_SLOT:
            out.append(AGENTS[slot.index])
        elif slot.kind == SUMMON_SLOT:
            out.append(f"summon:{slot.index}")
        else:
            assert slot.kind == MONSTER_SLOT, slot
            out.append(game.scenario.monster_types[slot.index].id)
    return out


# ------------------------------------------------------------------------------------------------
# Driving a game forward without changing anything that matters to a test


def passive_answer(game: HavenGame, picks: dict[str, tuple[str, str]] | None = None) -> int:
    """An answer that does as little as possible: select the given cards (else the two lowest
    hand cards), run both boxes in default mode while declining every move and target, suffer
    all damage, never rest, consume nothing, use no item."""
    prompt = game.prompt
    assert prompt is not None
    legal = set(prompt.legal)
    agent = AGENTS[prompt.agent]
    if prompt.kind in ("SELECT_LEAD", "SELECT_SECOND"):
        if picks and agent in picks:
            lead, second = picks[agent]
            return CARD(lead if prompt.kind == "SELECT_LEAD" else second)
        cards = sorted(a for a in legal if a != LONG_REST)
        return cards[0] if cards else LONG_REST
    if prompt.kind == "WINDOW_0":
        return BOX(LEAD, BOTTOM, DEFAULT)
    if prompt.kind == "WINDOW_1":
        return max(legal & BOX_ACTIONS)  # the default mode of the forced box
    if prompt.kind in ("PICK_DISCARD", "LONG_REST_LOSE"):
        return min(legal)
    assert NO in legal, f"no passive answer to {prompt}"
    return NO


def drive(
    game: HavenGame,
    until: Callable[[HavenGame], bool],
    picks: dict[str, tuple[str, str]] | None = None,
    limit: int = 300,
) -> HavenGame:
    """Answer prompts passively (:func:`passive_answer`) until ``until(game)`` holds."""
    for _ in range(limit):
        if until(game):
            return game
        assert game.prompt is not None, f"game over ({game.outcome}) before the condition held"
        game.apply(passive_answer(game, picks))
    raise AssertionError("condition never held")


def round_ended(number: int) -> Callable[[HavenGame], bool]:
    """A condition for :func:`drive`: the ROUND_END event of round ``number`` is logged."""
    return lambda game: bool(events_of(game, "ROUND_END", round=number))


# ------------------------------------------------------------------------------------------------
# The AEC environment (HV-API-6/7 rewards and termination)


def env_run(fixture: dict[str, Any], steps: Iterable[tuple[Any, ...]], **config: Any) -> Any:
    """Play ``steps`` (as for :func:`play`) through the PettingZoo environment reset to
    ``fixture`` with seed 0; the selected agent must be the prompt's agent at every step."""
    from reborn_env.games.haven.env import raw_env

    env = raw_env(**config)
    env.reset(seed=0, options={"fixture": fixture})
    for step in steps:
        kind, action = step[0], step[1]
        expect(env.game, kind, step[2] if len(step) > 2 else None)
        assert env.agent_selection == AGENTS[env.game.prompt.agent]
        env.step(action)
    return env


def fixture_env(fixture: dict[str, Any], seed: int = 0, **config: Any) -> Any:
    """``haven_v0.env(**config)`` (wrapped) reset to a copy of ``fixture`` with ``seed``."""
    from reborn_env import haven_v0

    env = haven_v0.env(**config)
    env.reset(seed=seed, options={"fixture": copy.deepcopy(fixture)})
    return env


# ------------------------------------------------------------------------------------------------
# Set-ups several families of the per-rule tests (tests/haven/rules/) share

STANDARD_AMD = Counter({"+0": 6, "+1": 5, "-1": 5, "+2": 1, "-2": 1, "x2": 1, "null": 1})
FAR_MARAUDER = mon("marauder", 1, 8, 6)  # keeps the scenario from being won, reaches no one


def select(game: HavenGame, bulwark: Any = None, conjurer: Any = None) -> HavenGame:
    """Answer the selection prompts: ``(lead, second)`` card ids or ``"rest"`` per character."""
    for agent, pick in (("bulwark", bulwark), ("conjurer", conjurer)):
        if pick is None:
            continue
        if pick == "rest":
            play(game, ("SELECT_LEAD", LONG_REST, agent))
        else:
            play(
                game, ("SELECT_LEAD", CARD(pick[0]), agent), ("SELECT_SECOND", CARD(pick[1]), agent)
            )
    return game


def slot_labels(game: HavenGame) -> list[str]:
    """This round's turn sequence as the game labels its slots."""
    return [game.slot_label(s) for s in game.state.sequence]


def deck_orders(game: HavenGame) -> tuple[list[list[str]], list[str], list[list[str]]]:
    """The draw piles, top first: each character's modifier deck, the monsters' modifier deck and
    each monster type's ability deck."""
    state = game.state
    return (
        [list(c.amd.draw) for c in state.characters],
        list(state.monster_amd.draw),
        [list(d.draw) for d in state.monster_decks],
    )


def conjurer_c06_game(slinger: bool = True, amd: Iterable[str] = ("+0", "+1")) -> HavenGame:
    """The Conjurer at (5,3) to play C06 (Attack 2, Range 3, Target 2): two Marauders (one out of
    sight), an elite Slinger out of range and, with ``slinger``, a Slinger in range."""
    monsters = [
        mon("marauder", 1, 7, 3),  # R 3 but no LOS (the wall at (6,3))
        mon("marauder", 2, 3, 4),  # R 3
        mon("slinger", 2, 1, 3, rank="elite"),  # R 4: out of range
    ]
    if slinger:
        monsters.append(mon("slinger", 1, 5, 0))  # R 3
    return new(
        {
            "characters": {
                "conjurer": {"cell": [5, 3], "played": ["C06", "C01"], "amd": list(amd)}
            },
            "monsters": monsters,
        }
    )


def marauder_turn_game(
    card: str, amd: list[str], conditions: Iterable[str] = (), hp_: int = 5, **extra: Any
) -> HavenGame:
    """A Marauder's turn with ability ``card`` and modifiers ``amd``: it stands at (3,2), next to
    the Bulwark at (2,2); ``extra`` joins the fixture (``more``: further monsters)."""
    return new(
        {
            "sequence": ["marauder"],
            "characters": {"bulwark": {"cell": [2, 2]}, "conjurer": {"cell": [0, 6]}},
            "monsters": [
                mon("marauder", 1, 3, 2, conditions=list(conditions), hp=hp_),
                *extra.pop("more", []),
            ],
            "monster_cards": {"marauder": card},
            "monster_amd": amd,
            **extra,
        }
    )


def destinations(game: HavenGame) -> set[tuple[int, int]]:
    """The ``(col, row)`` hexes the pending ``MOVE_DEST`` prompt offers (16.2)."""
    assert game.prompt is not None and game.prompt.kind == "MOVE_DEST"
    xy, space = game.scenario.map.grid.xy, game.actions
    return {xy(a - space.HEX_BASE) for a in game.legal_actions() if space.is_hex(a)}


def targets(game: HavenGame) -> list[str]:
    """The figures attacked so far, in order (their ``ATTACK`` events)."""
    return [e.data["target"] for e in events_of(game, "ATTACK")]


def random_game(
    scenario: Scenario, seed: int, kernels: Kernels = REFERENCE, checked: bool = False
) -> HavenGame:
    """A seeded game of uniformly random legal play, to its end. ``checked``: before every step
    the invariants hold and the game, saved and restored through JSON, is the same position, and
    play goes on from the restored game (whose event log starts at the restore)."""
    game = new_game(scenario=scenario, seed=seed, kernels=kernels)
    rng = np.random.default_rng(seed)
    while game.prompt is not None:
        if checked:
            check_invariants(game)
            position = json.loads(json.dumps(game.to_position()))
            restored = HavenGame.from_position(position, scenario, kernels=kernels)
            assert restored.to_position() == position
            game = restored
        legal = game.legal_actions()
        game.apply(legal[rng.integers(len(legal))])
    if checked:
        check_invariants(game)
    return game
