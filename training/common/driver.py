"""The one loop that plays games on a game vector: seats filled by bots or a learner, games
scheduled per slot, each recorded seat's decisions kept as a stream credited with its rewards
until its game ends.

Why one loop: the evaluation matches, the tournament and the imitation recording all play the
vector the same way, and a loop of their own each had drifted (which bots got a public view, how a
seat's rewards were credited). Here every bot is asked through
:func:`reborn_env.bots.batched.act_batch` with the public view of the seat to move, once a round
for all the slots where it moves; a :class:`Learner` sees the decisions of the seats a game
records and chooses what is played there; the rewards a recorded seat receives between two of its
decisions (while others move) are credited to its last decision; and the game's end hands those
per-seat streams, the last step's rewards and flags to one callback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

import numpy as np

from reborn_env.bots.batched import BatchedBot, act_batch, vector_view
from reborn_env.core.public_view import PublicView
from reborn_env.core.vector_env import GameVector

Schedule = Callable[[int], "int | None"]
"""``schedule(i)``: the number of the next game slot ``i`` plays, or None when the slot is done."""


@dataclass(frozen=True)
class Seating:
    """Who plays a game: per seat, the index of its player and whether its decisions are
    recorded (then the :class:`Learner` is shown them, and they form the seat's stream)."""

    players: tuple[int, ...]
    recorded: tuple[bool, ...] = ()


@dataclass(frozen=True)
class GameEnd:
    """A finished game: its slot and number, the last step's rewards (per seat) and flags, and
    each recorded seat's stream of decision rows, in seat order (seats without one left out)."""

    slot: int
    game: int
    rewards: np.ndarray
    terminated: bool
    truncated: bool
    streams: list[list[int]]


class Learner(Protocol):
    """Who is shown the recorded seats' decisions and chooses the actions played there."""

    def decide(
        self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray, chosen: np.ndarray
    ) -> np.ndarray:
        """The actions to play at ``slots`` (rows of ``obs`` and ``mask``), where the seats'
        players chose ``chosen``; called once a round, before the step."""
        ...

    def reset(self, i: int) -> None:
        """Slot ``i`` starts a new game."""
        ...


def first_come(games: int) -> Schedule:
    """Games ``0 .. games - 1``, each to the first slot free to play it (slot ``i`` starts game
    ``i``, then whichever slot ends a game takes the next)."""
    started = 0

    def schedule(i: int) -> int | None:
        nonlocal started
        if started >= games:
            return None
        started += 1
        return started - 1

    return schedule


def by_slot(games: int, n: int) -> Schedule:
    """Games ``0 .. games - 1`` dealt to ``n`` slots in turn: slot ``i`` plays games ``i, i + n,
    i + 2n, ...``, its own seed stream's, so the same games fall to the same slots every time."""
    played = [0] * n

    def schedule(i: int) -> int | None:
        game = played[i] * n + i
        if game >= games:
            return None
        played[i] += 1
        return game

    return schedule


def mover_view(vector: GameVector, i: int) -> PublicView:
    """Slot ``i``'s public view for the seat to move (what a search bot plans on)."""
    return vector_view(vector, int(vector.agent[i]), i)


class Driver:
    """Plays ``vector``'s slots, each the games ``schedule`` gives it, seated by ``seating(game)``,
    until every slot is done; ``players`` are batched bots, each with a slot per vector slot."""

    def __init__(
        self,
        vector: GameVector,
        players: Sequence[BatchedBot],
        seating: Callable[[int], Seating],
        schedule: Schedule,
        learner: Learner | None = None,
    ) -> None:
        self.vector, self.players, self.learner = vector, list(players), learner
        self.seating, self.schedule = seating, schedule
        n, seats = vector.num_envs, len(vector.agents)
        self.game = np.zeros(n, dtype=np.int64)
        self.occupant = np.zeros((n, seats), dtype=np.int64)
        self.recorded = np.zeros((n, seats), dtype=np.bool_)
        self.active = np.zeros(n, dtype=np.bool_)
        self.rewards: list[float] = []
        """Per recorded decision row: the rewards its seat received until its next decision."""
        self.streams: list[list[list[int]]] = [[[] for _ in range(seats)] for _ in range(n)]
        self.finished = 0

    def run(
        self, on_end: Callable[[GameEnd], None], progress: Callable[[int], None] | None = None
    ) -> None:
        """Reset the vector and play until every slot is done: ``on_end`` for each game as it
        ends, ``progress(games finished)`` after each round."""
        vector = self.vector
        vector.reset()
        for i in range(vector.num_envs):
            self._seat(i, self.schedule(i))
        actions = np.empty(vector.num_envs, dtype=np.int64)
        while self.active.any():
            played = self._decide(actions)
            rewards, terminated, truncated = vector.step(played)[3:]
            self._credit(rewards)
            for i in np.flatnonzero((terminated | truncated) & self.active).tolist():
                streams = [rows for rows in self.streams[i] if rows]
                self.streams[i] = [[] for _ in vector.agents]
                self.finished += 1
                on_end(GameEnd(i, int(self.game[i]), rewards[i], bool(terminated[i]),
                               bool(truncated[i]), streams))  # fmt: skip
                self._seat(i, self.schedule(i), reset=True)
            if progress:
                progress(self.finished)

    def _seat(self, i: int, game: int | None, reset: bool = False) -> None:
        """Slot ``i``'s next game ``game`` seated (its players reset), or the slot retired."""
        if game is None:
            self.active[i] = False
            return
        seating = self.seating(game)
        self.game[i], self.active[i] = game, True
        self.occupant[i] = seating.players
        self.recorded[i] = seating.recorded or False
        if reset:
            for bot in self.players:
                bot.reset(i)
            if self.learner is not None:
                self.learner.reset(i)

    def _decide(self, actions: np.ndarray) -> np.ndarray:
        """Every active slot's action: each player once for the slots where it moves (with the
        mover's public view), then the learner at the recorded seats; the recorded decisions
        open their rows. The actions to play."""
        vector = self.vector
        seat = vector.agent.astype(np.int64)
        slots = np.arange(vector.num_envs)
        who = self.occupant[slots, seat]
        actions.fill(vector.WAIT)
        views = partial(mover_view, vector)
        for p, bot in enumerate(self.players):
            rows = np.flatnonzero(self.active & (who == p))
            if len(rows):
                actions[rows] = act_batch(bot, rows, vector.obs[rows], vector.mask[rows], views)
        mine = np.flatnonzero(self.active & self.recorded[slots, seat])
        if self.learner is None or not len(mine):
            return actions
        played = actions.copy()
        played[mine] = self.learner.decide(mine, vector.obs[mine], vector.mask[mine], actions[mine])
        for i in mine.tolist():
            self.streams[i][seat[i]].append(len(self.rewards))
            self.rewards.append(0.0)
        return played

    def _credit(self, gained: np.ndarray) -> None:
        """Each active slot's step rewards, per seat, to that seat's last recorded decision."""
        for i in np.flatnonzero(self.active).tolist():
            for k, rows in enumerate(self.streams[i]):
                if rows:
                    self.rewards[rows[-1]] += float(gained[i, k])
