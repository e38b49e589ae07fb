"""Play two bots against each other in both seats and summarise the score with confidence bounds.

Why both seats: a game's seats may be asymmetric (one side attacks, the other defends), so a
bot's strength is only meaningful per seat. Why Wilson intervals: win rates over a few dozen
games are noisy, and the Wilson score interval stays inside [0, 1] and behaves well near 0% and
100%, where a strong bot's numbers sit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from ..core.public_view import env_view
from .base import decide

if TYPE_CHECKING:
    from pettingzoo import AECEnv

    from .base import Bot

Z_95 = 1.96


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; (0, 1) when there were no trials."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Record:
    """Wins, draws and losses of one bot over some games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def add(self, outcome: float) -> None:
        """Count one game from the bot's return: positive win, negative loss, zero draw."""
        if outcome > 0:
            self.wins += 1
        elif outcome < 0:
            self.losses += 1
        else:
            self.draws += 1

    def wilson(self, z: float = Z_95) -> tuple[float, float]:
        """95% Wilson score interval of the win rate (``z`` sets the confidence)."""
        return wilson_interval(self.wins, self.games, z)

    def summary(self) -> str:
        low, high = self.wilson()
        return (
            f"{self.wins}/{self.draws}/{self.losses} "
            f"({100 * self.win_rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}])"
        )


@dataclass
class MatchResult:
    """bot_a's record per seat (agent name) and overall."""

    seats: dict[str, Record] = field(default_factory=dict)

    @property
    def overall(self) -> Record:
        total = Record()
        for record in self.seats.values():
            total.wins += record.wins
            total.draws += record.draws
            total.losses += record.losses
        return total

    def record(self, seat: str | None = None) -> Record:
        """The record in ``seat``, or overall when ``seat`` is None."""
        return self.overall if seat is None else self.seats[seat]

    def wilson(self, seat: str | None = None, z: float = Z_95) -> tuple[float, float]:
        """95% Wilson score interval of bot_a's win rate in ``seat`` (None: overall)."""
        return self.record(seat).wilson(z)

    def score_line(self) -> str:
        """One line: ``norad W/D/L (rate [low, high]) | salemite ... | overall ...``."""
        parts = [f"{seat} {record.summary()}" for seat, record in self.seats.items()]
        parts.append(f"overall {self.overall.summary()}")
        return " | ".join(parts)


def play_game(env: AECEnv, bots: dict[str, Bot], seed: int) -> dict[str, float]:
    """One game from ``seed``, each agent played by its bot (a bot that sees the public view
    gets its seat's, ``core.public_view``); the agents' total returns."""
    return play_counted(env, bots, seed)[0]


def play_counted(env: AECEnv, bots: dict[str, Bot], seed: int) -> tuple[dict[str, float], int]:
    """:func:`play_game`'s game, and how many decisions the bots took in it: the one loop that
    plays a single AEC game, every bot through :func:`~.base.decide`."""
    env.reset(seed=seed)
    for bot in bots.values():
        bot.reset()
    returns = dict.fromkeys(env.possible_agents, 0.0)
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        returns[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        view = partial(env_view, env, agent)  # built only for a bot that asks for it
        env.step(decide(bots[agent], obs["observation"], obs["action_mask"], view))
        decisions += 1
    return returns, decisions


def play_match(
    env_fn: Callable[[], AECEnv], bot_a: Bot, bot_b: Bot, games: int, seed: int
) -> MatchResult:
    """``games`` seeded games with bot_a in each seat (2 * games in all); game i uses seed + i."""
    env = env_fn()
    first, second = env.possible_agents
    result = MatchResult({first: Record(), second: Record()})
    for seat, other in ((first, second), (second, first)):
        for i in range(games):
            returns = play_game(env, {seat: bot_a, other: bot_b}, seed + i)
            result.seats[seat].add(returns[seat])
    env.close()
    return result
