"""The digest of random games that the compiled pieces' tests compare, on each set of kernels."""

from __future__ import annotations

import hashlib
import random

from reborn_env.games.haven.rules.context import Kernels
from reborn_env.games.haven.rules.engine import new_game
from reborn_env.games.haven.scenario.loader import load_scenario


def event_log(name: str, seeds: range, steps: int, kernels: Kernels) -> str:
    """The hash of the event logs (HV-API-8) and the final positions of uniformly random games of
    the bundled scenario ``name``, one per seed, each at most ``steps`` decisions long, their
    rules calling ``kernels``."""
    scenario = load_scenario(name)
    digest = hashlib.sha256()
    for seed in seeds:
        game, rng = new_game(scenario, seed=seed, kernels=kernels), random.Random(seed)
        for _ in range(steps):
            if game.prompt is None:
                break
            game.apply(rng.choice(game.legal_actions()))
        digest.update(repr([game.events, game.to_position()]).encode())
    return digest.hexdigest()
