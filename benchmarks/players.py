"""The games the position benchmarks check, and the players that make their positions.

Shared by ``position_fuzz.py`` and ``round_trip.py``: each registered game (reborn_env.core.
registry) with its factory, its per-step check (invariants and exact masks, as the random-play
fuzz uses) and its shipped policy, and players of three kinds: uniform random, the scripted
(heuristic) bot and the shipped policy, sampling.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pettingzoo import AECEnv

from reborn_env.bots import Bot
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry

ROOT = Path(__file__).resolve().parents[1]
PLAYER_KINDS = ("random", "heuristic", "policy")


@dataclass(frozen=True)
class CheckedGame:
    """An environment to check, its per-step check and its shipped policy."""

    make: Callable[[], AECEnv]
    check_step: Callable[[AECEnv, str], None]
    policy: Path

    def check(self, env: AECEnv) -> None:
        """The per-step check of the agent to move."""
        self.check_step(env, env.agent_selection)


GAMES = {
    spec.name: CheckedGame(spec.make_env, spec.step_check(), ROOT / spec.policy)
    for spec in map(registry.get, registry.names())
    if spec.check_step and spec.policy
}
"""Every registered game with a per-step check and a shipped policy, by name."""


def make_player(name: str, kind: str, seed: int) -> Bot:
    """One player of ``kind`` (random, heuristic or policy) for env ``name``."""
    spec = str(GAMES[name].policy) if kind == "policy" else kind
    return load_bot(spec, name, seed=seed)


def make_players(name: str, kinds: str | tuple[str, ...], seed: int) -> dict[str, Bot]:
    """Agent -> player: ``kinds`` names one kind for every agent or one per agent, in order."""
    agents = GAMES[name].make().possible_agents
    if isinstance(kinds, str):
        kinds = (kinds,) * len(agents)
    return {
        a: make_player(name, k, seed * 7 + i)
        for i, (a, k) in enumerate(zip(agents, kinds, strict=True))
    }
