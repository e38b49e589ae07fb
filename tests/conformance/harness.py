"""What the conformance tests share: the games, their required hooks, bounded random play, and a
snapshot of everything a refused input must leave as it was.

``GAMES`` is read once, at collection: the bundled games and those tests/conftest.py registered
from tests/games/, not the toy envs some trainer tests register for a while in a fixture.
``CASES`` adds each game's other bundled scenarios, so a scenario enters the suite by being
bundled, and the ones its registration adds (``GameSpec.more_scenarios``: a generated map).
"""

from __future__ import annotations

import collections
import itertools
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from reborn_env.core import registry
from reborn_env.core.fuzz import Policy, uniform_policy

GAMES = registry.names()


@dataclass(frozen=True)
class Case:
    """One registered game on one of its bundled scenarios ("": the game's default)."""

    name: str
    scenario: str = ""

    def __str__(self) -> str:
        return f"{self.name}:{self.scenario}" if self.scenario else self.name

    def make_env(self, **kwargs: Any) -> AECEnv:
        """A new environment of this game on this scenario (``kwargs`` as for ``make_env``)."""
        if self.scenario:
            kwargs["scenario"] = self.scenario
        return registry.get(self.name).make_env(**kwargs)


def _cases() -> list[Case]:
    """Every game on its default scenario, then on each other scenario it bundles or names."""
    cases = []
    for name in GAMES:
        spec = registry.get(name)
        cases.append(Case(name))
        cases += [Case(name, s) for s in spec.scenario_names() if s != spec.default_scenario]
        cases += [Case(name, s) for s in spec.more_scenarios]
    return cases


CASES = _cases()
DECISIONS = 400  # the most decisions a test plays of one game (long games are cut there)


def required(name: str, hook: str) -> Callable[..., Any]:
    """The game's hook ``hook`` (``step_check``, ``busy`` or ``hidden``), which every registered
    game must give for the conformance suite; an AssertionError naming the GameSpec field if not."""
    spec = registry.get(name)
    found = getattr(spec, hook)()
    field = {"step_check": "check_step", "busy": "busy_policy", "hidden": "hidden_variant"}[hook]
    assert found is not None, (
        f"{name} registers no GameSpec.{field}: the conformance suite requires it of every game"
    )
    return found


def policies(name: str) -> dict[str, Policy]:
    """Uniform legal play and the game's own eventful one, by name."""
    return {"uniform": uniform_policy, "busy": required(name, "busy")}


def play(
    env: AECEnv,
    rng: np.random.Generator,
    policy: Policy = uniform_policy,
    limit: int | None = DECISIONS,
) -> Iterator[str]:
    """The agent of each live decision of the game ``env`` was reset to, up to ``limit`` of
    them (None: to the end); after each, once the caller has looked, ``policy`` plays it. Dead
    steps are taken."""
    decisions = 0
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if limit is not None and decisions == limit:
            return
        yield agent
        env.step(policy(rng, env.observe(agent)["action_mask"], env))
        decisions += 1


def play_out(env: AECEnv, rng: np.random.Generator) -> None:
    """Uniform legal play to the end of the game, every agent's last step included."""
    collections.deque(play(env, rng, limit=None), maxlen=0)


def play_for(env: AECEnv, rng: np.random.Generator, decisions: int) -> None:
    """Uniform legal play for ``decisions`` decisions (fewer if the game ends first)."""
    collections.deque(itertools.islice(play(env, rng), decisions), maxlen=0)


def snapshot(env: AECEnv) -> dict[str, Any]:
    """Everything an agent can see of the environment, and its position, copied (by a pickle
    round trip: with it the copy tests took 40% less time than with ``copy.deepcopy``) so that
    later steps leave it."""
    seen = {
        "position": env.unwrapped.get_state(),
        "agents": list(env.agents),
        "selection": env.agent_selection,
        "rewards": dict(env.rewards),
        "pending": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": env.infos,
        "observations": {
            agent: {key: value.tobytes() for key, value in env.observe(agent).items()}
            for agent in env.agents
        },
    }
    return pickle.loads(pickle.dumps(seen, protocol=pickle.HIGHEST_PROTOCOL))
