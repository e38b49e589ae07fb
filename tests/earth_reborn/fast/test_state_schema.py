"""The state schema (rules/state_schema.py) is the one declaration of the game state (ER-GEN-3):
the Python records, the position keys, the compiled core's structs and range checks, and the
bytes it loads and dumps all follow it, and a state that does not fit is refused, not loaded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.games.earth_reborn import positions
from reborn_env.games.earth_reborn.fast import state_layout
from reborn_env.games.earth_reborn.rules.state import AssignedTile, CharacterState, GameState
from reborn_env.games.earth_reborn.rules.state_schema import DERIVED_ATTRIBUTES, TABLES, Code

from . import differential as diff

# Position keys that hold no state field: the format, the scenario, and objects that group fields.
CONTAINER_KEYS = {
    "format",
    "version",
    "scenario",
    "decision",
    "players",
    "doors",
    "round",
    "caches",
}
# Position keys that show the scenario, not the state: a door's kind and a cache's square.
SCENARIO_KEYS = {"kind", "square"}


def _played_states(games: int = 6, every: int = 5) -> list[GameState]:
    """Copies of states of random games on the reference engine, every ``every`` decisions."""
    env = earth_reborn_v0.env(backend="python")
    found = []
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for k in range(600):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            if k % every == 0:
                found.append(env.unwrapped.game.clone())
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
    return found


def test_each_python_record_has_exactly_the_schemas_fields() -> None:
    """ER-GEN-3: GameState, CharacterState and AssignedTile hold the schema's fields and, for
    GameState, only the scenario-derived attributes besides."""
    for cls in (GameState, CharacterState, AssignedTile):
        declared = [f.name for f in TABLES[cls.__name__].fields]
        assert cls.__slots__ == tuple(declared) + DERIVED_ATTRIBUTES.get(cls.__name__, ())
    state = GameState(diff.reference_rules().scenario, 0)
    for name in GameState.__slots__:
        assert hasattr(state, name), f"GameState.__init__ gives {name} no value"


def test_every_position_key_is_a_schema_field_or_a_container() -> None:
    """docs/position_format.md's keys: each state field has one, and every other key groups
    fields or shows the scenario."""
    keys = {
        *positions.TOP_KEYS,
        *positions.DECISION_KEYS,
        *positions.PLAYER_KEYS,
        *positions.DOOR_KEYS,
        *positions.CHARACTER_KEYS,
        *positions.ASSIGNED_KEYS,
        *positions.CACHE_KEYS,
        *positions.ROUND_KEYS,
    }
    fields = {f.position for table in TABLES.values() for f in table.fields}
    assert "" not in fields, "a schema field names no position key"
    assert fields <= keys, f"schema keys the position format lacks: {fields - keys}"
    assert keys - fields == CONTAINER_KEYS | SCENARIO_KEYS - fields


def test_the_generated_headers_are_those_of_the_schema() -> None:
    """src/state_struct.h and src/state_checks.h are what fast/state_layout.py writes from the
    schema today (run ``python -m reborn_env.games.earth_reborn.fast.state_layout`` if not)."""
    assert state_layout.STRUCT_HEADER.read_text() == state_layout.struct_header()
    assert state_layout.CHECKS_HEADER.read_text() == state_layout.checks_header()


def test_the_core_lays_a_game_out_as_the_schema_computes(core: Any) -> None:
    """The core imported, so its compile-time checks of every offset held; and it packs states
    of the size the layout computes."""
    assert state_layout.GAME_STRUCT.size == state_layout.STATE_SIZE
    state = GameState(diff.reference_rules().scenario, 0)
    assert len(state_layout.pack(state)) == state_layout.STATE_SIZE


def test_pack_and_unpack_are_inverse_on_played_states() -> None:
    """Every field survives the bytes: the same position, generator and dice included."""
    states = _played_states()
    assert len(states) > 100
    for state in states:
        back = state_layout.unpack(state.scenario, state_layout.pack(state))
        assert positions.state_to_dict(back) == positions.state_to_dict(state)
        assert back.rng.state == state.rng.state


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda s: s.chars[0].__setattr__("square", 10_000), "state.chars[].square"),
        (lambda s: s.chars[1].tiles.append(AssignedTile(99)), "state.chars[].tiles[].tile"),
        (lambda s: s.__setattr__("doors", [5] * len(s.doors)), "state.doors"),
        (lambda s: s.bag.append(60), "state.bag"),
        (lambda s: s.__setattr__("char", 9), "state.char"),
        (lambda s: s.chars[0].tried.add(7), "state.chars[].tried"),
    ],
)
def test_the_core_refuses_a_value_out_of_range_naming_its_field(
    fast_games: type, change: Callable[[GameState], None], named: str
) -> None:
    """The generated range checks: a value the schema does not allow is a ValueError naming
    the field, and the slot keeps its game."""
    rules = diff.reference_rules()
    games = diff.new_games(fast_games, rules, 1, 0)
    games.new_game(0, 3)
    before = positions.state_to_dict(games.dump(0))
    state = games.dump(0)
    change(state)
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        games.load(0, state)
    assert positions.state_to_dict(games.dump(0)) == before


def test_a_value_the_c_type_cannot_hold_is_refused_before_the_core() -> None:
    """A number beyond the field's C type, a list longer than the map allows, or a name that is
    not a phase: ValueError from pack, naming what does not fit."""
    state = GameState(diff.reference_rules().scenario, 0)
    for field, value in (("turn", 2**40), ("doors", [0] * 40), ("phase", "lunch")):
        broken = state.clone()
        setattr(broken, field, value)
        with pytest.raises(ValueError, match="does not fit|holds"):
            state_layout.pack(broken)


def test_every_variable_length_array_has_its_count_before_it() -> None:
    """A counted array's used length is the C member just before it, as the struct has it."""
    for layout in state_layout.LAYOUTS.values():
        for k, member in enumerate(layout.members):
            field = member.field
            if field is not None and field.counted_by:
                assert layout.members[k - 1].name == field.counted_by
                assert field.code in (Code.RECORDS, Code.FACES)
