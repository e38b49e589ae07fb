"""The one loop that plays games on a game vector: seats filled by bots or a learner, games
scheduled per slot, each recorded seat's last decision credited with the rewards its seat receives
until it decides again or its game ends.

Why one loop: PPO's rollout, NFSP, the imitation recording, the evaluation matches and the
tournament all play the vector the same way, and a loop of their own each would drift (which bots
get a public view, how a seat's rewards are credited). Here every bot is asked through
:func:`reborn_env.bots.batched.act_batch` with the public view of the seat to move, once a round
for all the slots where it moves; a :class:`Learner` sees the decisions of the seats a game
records and chooses what is played there; the rewards a recorded seat receives between two of its
decisions (while others move) are credited to its last decision, which the learner is handed
closed when the seat is to move again or the game ends; and the game's end hands its last step's
rewards and flags to one callback. ``run`` plays scheduled games to the end; a trainer calls
``play_round`` as long as it likes.

It sits in the bench, the lowest package that may ask the library's bots: ``reborn_env.bots``
reads policy files through ``training.runs``, so ``training.common`` importing it would close an
import cycle.
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
    """Who plays a game: per seat, the index of its player (-1: none) and whether its decisions
    are recorded (then the :class:`Learner` is shown them, and credited)."""

    players: tuple[int, ...]
    recorded: tuple[bool, ...] = ()


@dataclass(frozen=True)
class GameEnd:
    """A finished game: its slot and number, the last step's rewards (per seat) and flags."""

    slot: int
    game: int
    rewards: np.ndarray
    terminated: bool
    truncated: bool


@dataclass(frozen=True)
class Turn:
    """The recorded seats to move in a round: their ``slots`` and movers ``seats``, the rows of
    ``obs`` and ``mask`` they see, and the actions their players ``chosen`` (None when the
    learner decides first)."""

    slots: np.ndarray
    seats: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    chosen: np.ndarray | None


class Learner(Protocol):
    """Who is shown the recorded seats' decisions, chooses the actions played there, and is told
    when each decision's credit is complete."""

    def decide(self, turn: Turn) -> np.ndarray:
        """The actions to play at ``turn.slots``, once a round, before the step; WAIT passes:
        the slot sits the round out."""
        ...

    def close(self, slots: np.ndarray, seats: np.ndarray, rewards: np.ndarray, done: bool) -> None:
        """The last decisions of (``slots``, ``seats``) are credited in full with ``rewards``:
        the seat is to move again (``done`` False, before :meth:`decide`, whether it then
        decides or passes; the vector's rows are that position's) or its game ended (``done``
        True)."""
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


def endless() -> Schedule:
    """Games without end, to the first slot free to play each (a trainer stops the rounds)."""
    started = -1

    def schedule(i: int) -> int:
        nonlocal started
        started += 1
        return started

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
    """Plays ``vector``'s slots, each the games ``schedule`` gives it, seated by
    ``seating(slot, game)``; ``players`` are batched bots, each with a slot per vector slot (a
    seat's player index -1: none). The rewards of a recorded seat's open decision add up in
    ``credit_dtype`` (that of the learner's records). The learner decides after the players
    (who may label its seats' decisions), or before them with ``learner_first``."""

    def __init__(
        self,
        vector: GameVector,
        players: Sequence[BatchedBot],
        seating: Callable[[int, int], Seating],
        schedule: Schedule,
        learner: Learner | None = None,
        credit_dtype: type = np.float64,
        learner_first: bool = False,
    ) -> None:
        self.vector, self.players, self.learner = vector, list(players), learner
        self.learner_first = learner_first
        self.seating, self.schedule = seating, schedule
        n, seats = vector.num_envs, len(vector.agents)
        self.game = np.zeros(n, dtype=np.int64)
        self.occupant = np.zeros((n, seats), dtype=np.int64)
        self.recorded = np.zeros((n, seats), dtype=np.bool_)
        self.active = np.zeros(n, dtype=np.bool_)
        self.open = np.zeros((n, seats), dtype=np.bool_)
        """A recorded seat's last decision waits for its credit to be complete."""
        self.credit = np.zeros((n, seats), dtype=credit_dtype)
        """The rewards each seat received since its last recorded decision."""
        self.actions = np.empty(n, dtype=np.int64)
        self.finished = 0

    def run(
        self, on_end: Callable[[GameEnd], None], progress: Callable[[int], None] | None = None
    ) -> None:
        """Reset the vector and play until every slot is done: ``on_end`` for each game as it
        ends, ``progress(games finished)`` after each round."""
        self.start()
        while self.active.any():
            self.play_round(on_end)
            if progress:
                progress(self.finished)

    def start(self, reset: bool = True) -> None:
        """Seat every slot's first game (``reset``: reset the vector first; else its games as
        they stand are the first)."""
        if reset:
            self.vector.reset()
        for i in range(self.vector.num_envs):
            self._seat(i, self.schedule(i))

    def play_round(
        self,
        on_end: Callable[[GameEnd], None],
        on_step: Callable[[np.ndarray], None] | None = None,
    ) -> None:
        """One step of every active slot: its mover's action, ``on_step(rewards)``, the credit
        of the step's rewards, ``on_end`` for each game that ended (after its recorded seats'
        decisions are closed)."""
        vector = self.vector
        rewards, terminated, truncated = vector.step(self._decide())[3:]
        if on_step:
            on_step(rewards)
        self.credit += rewards * self.open
        ended = np.flatnonzero((terminated | truncated) & self.active)
        if not len(ended):
            return
        if self.learner is not None:
            slot, seat = np.nonzero(self.open[ended])
            if len(slot):
                at = (ended[slot], seat)
                self.learner.close(ended[slot], seat, self.credit[at], done=True)
        self.open[ended] = False
        for i in ended.tolist():
            self.finished += 1
            on_end(GameEnd(i, int(self.game[i]), rewards[i], bool(terminated[i]),
                           bool(truncated[i])))  # fmt: skip
            self._seat(i, self.schedule(i), reset=True)

    def place(self, i: int, game: int, seating: Seating) -> None:
        """Slot ``i`` plays game ``game`` as it stands, seated by ``seating`` (a trainer's game
        seated before the driver was made)."""
        self.game[i], self.active[i] = game, True
        self.occupant[i] = seating.players
        self.recorded[i] = seating.recorded or False

    def _seat(self, i: int, game: int | None, reset: bool = False) -> None:
        """Slot ``i``'s next game ``game`` seated (its players reset), or the slot retired."""
        if game is None:
            self.active[i] = False
            return
        self.place(i, game, self.seating(i, game))
        if reset:
            for bot in self.players:
                bot.reset(i)
            if self.learner is not None:
                self.learner.reset(i)

    def _decide(self) -> np.ndarray:
        """Every active slot's action: the recorded movers' open decisions closed, each player
        once for the slots where it moves (with the mover's public view), the learner at the
        recorded seats (after the players, or first), whose decisions open. The actions to play
        (WAIT where inactive or the learner passed)."""
        vector, actions = self.vector, self.actions
        seat = vector.agent.astype(np.int64)
        slots = np.arange(vector.num_envs)
        mine = np.flatnonzero(self.active & self.recorded[slots, seat])
        if self.learner is not None:
            closing = mine[self.open[mine, seat[mine]]]
            if len(closing):
                at = (closing, seat[closing])
                self.learner.close(closing, seat[closing], self.credit[at], done=False)
                self.open[at] = False
        learning = self.learner is not None and len(mine) > 0
        if learning and self.learner_first:
            learned = self._learn(mine, seat[mine], None)
        who = self.occupant[slots, seat]
        actions.fill(vector.WAIT)
        views = partial(mover_view, vector)
        for p, bot in enumerate(self.players):
            rows = np.flatnonzero(self.active & (who == p))
            if len(rows):
                actions[rows] = act_batch(bot, rows, vector.obs[rows], vector.mask[rows], views)
        if not learning:
            return actions
        if not self.learner_first:
            learned = self._learn(mine, seat[mine], actions[mine])
        actions[mine] = learned
        opened = learned != vector.WAIT
        at = (mine[opened], seat[mine][opened])
        self.open[at], self.credit[at] = True, 0.0
        return actions

    def _learn(self, mine: np.ndarray, seats: np.ndarray, chosen: np.ndarray | None) -> np.ndarray:
        """The learner's actions at slots ``mine`` (movers ``seats``)."""
        assert self.learner is not None
        obs, mask = self.vector.obs[mine], self.vector.mask[mine]
        return self.learner.decide(Turn(mine, seats, obs, mask, chosen))
