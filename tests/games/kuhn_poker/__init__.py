"""Kuhn poker, a third game defined only in the tests: what a new game needs, and proof that it is
enough.

A package of its own (the rules in plain Python, the contract and the environment, the hooks of
the conformance suite) and one ``register`` call; tests/conftest.py imports every package under
tests/games/, so the conformance suite finds it through the registry like the bundled games, and
no file outside this folder names it.
"""

from reborn_env.core.facts import Chance, GameFacts, Information, Kind
from reborn_env.core.registry import GameSpec, register

register(
    GameSpec(
        name="kuhn_poker_v0",
        title="Kuhn poker",
        env=f"{__name__}.game:env",
        bots={"heuristic": f"{__name__}.game:KuhnBot"},
        seat="player_0",
        check_step=f"{__name__}.checks:check_step",
        busy_policy=f"{__name__}.checks:busy_policy",
        hidden_variant=f"{__name__}.checks:hidden_variant",
        facts=GameFacts(
            kind=Kind.ZERO_SUM,  # KP-END-1: the game is zero-sum
            chance=Chance.SAMPLED_STOCHASTIC,  # KP-DEAL-1: the deal
            information=Information.IMPERFECT,  # the other player's card
            min_utility=-2.0,  # KP-END-1: the pot is 2 or 4
            max_utility=2.0,
            max_game_length=3,  # KP-BET-1/2: at most PASS, BET, then a call or a fold
        ),
    )
)
