"""What a seat may not see never changes what it is shown (the observation contract).

Along random games, at every decision and for every seat, the game's ``hidden_variant`` hook gives
a match that differs only in what that seat may not see (the other hands, a bag's order, another
player's secret choice, the generator); the seat's observation must stay byte-identical, and while
it is to move, so must its legal actions. The variants do change what some other seat sees, at
least once per game, so the test can fail. The same holds of games loaded from positions saved
along play, which must save the very position they were given.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from .harness import CASES, Case, play, required

SEEDS = range(4)


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_seat_sees_the_same_whatever_is_hidden_from_it(case: Case, seed: int) -> None:
    variant_of = required(case.name, "hidden")
    env = case.make_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    compared = told_apart = 0
    for _ in play(env, rng):
        shown, differed = _check_variants(env.unwrapped.match, env.possible_agents, variant_of, rng)
        compared += shown
        told_apart += differed
    assert compared > 0, "the hook gave no variant along a whole game"
    assert told_apart > 0, "no variant changed what another seat sees: the test cannot fail"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_loaded_position_hides_what_the_played_game_hides(case: Case) -> None:
    """The same on games loaded from positions saved along play (``reset(options={"position":
    ...})``), not only on games played there: the loaded game saves the very position it was
    given, shows every seat what the played game shows, and its variants hide what they must."""
    variant_of = required(case.name, "hidden")
    env, loaded = case.make_env(), case.make_env()
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    compared = told_apart = 0
    for decision, _ in enumerate(play(env, rng)):
        if decision % 3:
            continue
        position = json.loads(json.dumps(env.unwrapped.get_state()))
        loaded.reset(seed=0, options={"position": copy.deepcopy(position)})
        assert loaded.unwrapped.get_state() == position
        assert loaded.agent_selection == env.agent_selection
        for agent in env.agents:
            for key, value in env.observe(agent).items():
                assert loaded.observe(agent)[key].tobytes() == value.tobytes(), (agent, key)
        shown, differed = _check_variants(
            loaded.unwrapped.match, loaded.possible_agents, variant_of, rng
        )
        compared += shown
        told_apart += differed
    assert compared > 0, "the hook gave no variant of a loaded game"
    assert told_apart > 0, "no variant changed what another seat sees: the test cannot fail"


def _check_variants(
    match: Any, agents: list[str], variant_of: Callable[..., Any], rng: np.random.Generator
) -> tuple[int, int]:
    """Every seat's variant of ``match`` shows that seat what ``match`` shows it; returns how
    many variants there were and how many changed what another seat sees."""
    position = match.to_position()
    seats = range(len(agents))
    compared = told_apart = 0
    for seat in seats:
        variant = variant_of(match, seat, rng)
        assert match.to_position() == position, "the hook changed the game it was given"
        if variant is None:
            continue
        assert variant.to_position() != position, "a variant that is the game itself"
        assert variant.observe(seat).tobytes() == match.observe(seat).tobytes(), (
            f"{agents[seat]} sees what is hidden from it"
        )
        assert variant.to_move() == match.to_move()
        if match.to_move() == seat:
            assert list(variant.legal_actions()) == list(match.legal_actions())
        told_apart += any(
            variant.observe(other).tobytes() != match.observe(other).tobytes()
            for other in seats
            if other != seat
        )
        compared += 1
    return compared, told_apart
