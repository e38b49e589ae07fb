"""What a seat may not see never changes what it is shown (the observation contract).

Along random games, at every decision and for every seat, the game's ``hidden_variant`` hook gives
a match that differs only in what that seat may not see (the other hands, a bag's order, another
player's secret choice, the generator); the seat's observation must stay byte-identical, and while
it is to move, so must its legal actions. The variants do change what some other seat sees, at
least once per game, so the test can fail.
"""

from __future__ import annotations

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
    seats = range(len(env.possible_agents))
    compared = told_apart = 0
    for _ in play(env, rng):
        match = env.unwrapped.match
        position = match.to_position()
        for seat in seats:
            variant = variant_of(match, seat, rng)
            assert match.to_position() == position, "the hook changed the game it was given"
            if variant is None:
                continue
            assert variant.to_position() != position, "a variant that is the game itself"
            assert variant.observe(seat).tobytes() == match.observe(seat).tobytes(), (
                f"{env.possible_agents[seat]} sees what is hidden from it"
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
    assert compared > 0, "the hook gave no variant along a whole game"
    assert told_apart > 0, "no variant changed what another seat sees: the test cannot fail"
