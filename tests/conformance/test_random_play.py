"""Random legal play of every registered game with the game's own per-step check.

Uniform and eventful (the game's ``busy_policy``) play over seeded games: before every decision
the game's ``check_step`` (its invariants, and the mask exactly the legal set, zeros for the
other agents), a non-empty mask while the game runs, every game over within the game's
``GameFacts.max_game_length``, and in a cooperative game one return shared by every seat.
"""

from __future__ import annotations

import pytest

from reborn_env.core import registry
from reborn_env.core.fuzz import play_random_games

from .harness import CASES, Case, policies, required

GAMES_PER_RUN = 20


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("policy", ["uniform", "busy"])
def test_random_games_keep_the_games_invariants(case: Case, policy: str) -> None:
    spec = registry.get(case.name)
    report = play_random_games(
        case.make_env(),
        range(GAMES_PER_RUN),
        policies(case.name)[policy],
        required(case.name, "step_check"),
    )
    assert len(report.lengths) == GAMES_PER_RUN
    assert 0 < max(report.lengths) <= spec.facts.max_game_length, report.lengths
    if spec.facts.cooperative:
        assert all(len(set(returns.values())) == 1 for returns in report.returns)
