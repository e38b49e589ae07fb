"""The one loop over the game vector (training/common/driver.py): it plays exactly the games its
schedule deals, each ended once; every bot is asked through ``act_batch`` with the public view of
the seat to move; the learner's actions are the ones played at the recorded seats; each recorded
seat's rewards are credited to its last decision until its game ends; and the imitation recording,
which plays on it, lets a search bot teach."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reborn_env.bots.base import RandomBot
from reborn_env.bots.batched import PerSlotBots, RandomBatch, vector_view
from reborn_env.core import registry
from training.common.driver import Driver, GameEnd, Seating, Turn, by_slot, first_come
from training.common.envs import make_vector_env

GAMES = registry.names()
VIEWED = [n for n in GAMES if registry.get(n).public_view and registry.get(n).determinizer]


class LoggedVector:
    """A game vector that logs each step: the movers, the actions and what the step gave."""

    def __init__(self, vector: Any) -> None:
        self.vector = vector
        self.log: list[tuple[np.ndarray, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.vector, name)

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        movers, played = self.vector.agent.copy(), np.array(actions, copy=True)
        out = self.vector.step(actions)
        self.log.append((movers, played, out[3].copy(), out[4] | out[5]))
        return out


class FirstLegal:
    """A learner that plays the first legal action and keeps what it was shown: each decision
    as a row (slot, seat, chosen by the seat's bot, played), the reward each row was closed
    with, and the rows closed by a game's end."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, int, int, int]] = []
        self.rewards: list[float | None] = []
        self.last: dict[tuple[int, int], int] = {}
        self.ended: list[int] = []

    def decide(self, turn: Turn) -> np.ndarray:
        played = np.argmax(turn.mask != 0, axis=1)
        chosen = turn.chosen if turn.chosen is not None else np.zeros(len(played), dtype=np.int64)
        rows = zip(turn.slots.tolist(), turn.seats.tolist(), chosen, played, strict=True)
        for i, k, c, p in rows:
            assert (i, k) not in self.last, "a decision opened before the last one closed"
            self.last[i, k] = len(self.shown)
            self.shown.append((i, k, int(c), int(p)))
            self.rewards.append(None)
        return played

    def close(self, slots: np.ndarray, seats: np.ndarray, rewards: np.ndarray, done: bool) -> None:
        for i, k, reward in zip(slots.tolist(), seats.tolist(), rewards.tolist(), strict=True):
            row = self.last.pop((i, k))
            self.rewards[row] = reward
            if done:
                self.ended.append(row)

    def reset(self, i: int) -> None:
        assert not any(slot == i for slot, _ in self.last), "a new game with decisions open"


def test_the_schedules_deal_every_game_once() -> None:
    come = first_come(4)
    assert [come(i) for i in (0, 1, 2, 1, 0)] == [0, 1, 2, 3, None]
    deal = by_slot(7, 3)
    assert [deal(0) for _ in range(4)] == [0, 3, 6, None]
    assert [deal(1) for _ in range(3)] == [1, 4, None]
    assert [deal(2) for _ in range(3)] == [2, 5, None]


@pytest.mark.parametrize("name", GAMES)
def test_it_plays_the_dealt_games_once_and_credits_each_recorded_seats_rewards(name: str) -> None:
    """Against a log of every step: each recorded decision is the learner's move, closed with
    the rewards its seat received from that step until the seat's next decision or the game's
    end (the end closing every seat's last); the games end once each, in the slots the schedule
    dealt them to."""
    n, games = 3, 7
    venv = LoggedVector(make_vector_env(name, n, seed=5))
    seats = len(venv.agents)
    learner = FirstLegal()
    everyone = Seating((0,) * seats, (True,) * seats)
    driver = Driver(
        venv, [RandomBatch(range(n))], lambda slot, game: everyone, by_slot(games, n), learner
    )
    ends: list[GameEnd] = []
    driver.run(ends.append)
    assert sorted(end.game for end in ends) == list(range(games))
    assert all(end.slot == end.game % n for end in ends)
    quota = [len(range(i, games, n)) for i in range(n)]
    done = [0] * n
    expected: list[float] = []
    ended: list[int] = []
    last: dict[tuple[int, int], int] = {}  # (slot, seat): its last decision's row
    for movers, _, rewards, over in venv.log:
        live = [i for i in range(n) if done[i] < quota[i]]
        for i in live:
            last[i, int(movers[i])] = len(expected)
            expected.append(0.0)
        for i in live:
            for k in range(seats):
                if (i, k) in last:
                    expected[last[i, k]] += float(rewards[i, k])
            if over[i]:
                done[i] += 1
                ended += [last.pop((i, k)) for k in range(seats) if (i, k) in last]
    assert done == quota
    assert learner.rewards == expected
    assert sorted(learner.ended) == sorted(ended) and not learner.last
    played = [int(a) for _, actions, _, _ in venv.log for a in actions if a != venv.WAIT]
    assert [p for *_, p in learner.shown] == played


@pytest.mark.parametrize("name", VIEWED)
def test_a_bot_that_sees_the_public_view_gets_the_movers(name: str) -> None:
    venv = make_vector_env(name, 2, seed=1)
    seen: list[bool] = []

    class Viewer(RandomBot):
        def __init__(self, slot: int) -> None:
            super().__init__(slot)
            self.slot = slot

        def act_public(self, view: Any, observation: np.ndarray, action_mask: np.ndarray) -> int:
            mover = int(venv.agent[self.slot])
            seen.append(view == vector_view(venv, mover, self.slot) and view.seat == mover)
            return self.act(observation, action_mask)

    players = [PerSlotBots(Viewer, [0, 1]) for _ in venv.agents]
    seating = Seating(tuple(range(len(venv.agents))))
    Driver(venv, players, lambda slot, game: seating, first_come(2)).run(lambda end: None)
    assert seen and all(seen)


@pytest.mark.parametrize("name", VIEWED[:1])
def test_a_search_bot_teaches_in_the_imitation_recording(name: str) -> None:
    """record_games hands the teacher its seat's public view, as the matches do."""
    from training.warmstart.imitation import record_games

    data = record_games(
        name, {}, 1, 3, 0.99, num_envs=1, teacher_name="ismcts:sims=2,rollout=random"
    )
    assert len(data["actions"]) > 0
    chosen = data["masks"][np.arange(len(data["actions"])), data["actions"]]
    assert bool(chosen.all())


class PassingLearner(FirstLegal):
    """Decides first (``chosen`` is None then) and passes in slot 0 once it has decided there."""

    def __init__(self, order: list[str]) -> None:
        super().__init__()
        self.order = order
        self.passes = 0

    def decide(self, turn: Turn) -> np.ndarray:
        assert turn.chosen is None
        self.order.append("learner")
        slots, go = turn.slots, ~((turn.slots == 0) & any(slot == 0 for slot, *_ in self.shown))
        played = np.full(len(slots), -1, dtype=np.int64)
        if go.any():
            played[go] = super().decide(
                Turn(slots[go], turn.seats[go], turn.obs[go], turn.mask[go], None)
            )
        self.passes += int((~go).sum())
        return played


class Ordered(RandomBatch):
    def __init__(self, seeds: Any, order: list[str]) -> None:
        super().__init__(seeds)
        self.order = order

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.order.append("player")
        return super().act(slots, obs, mask)


TWO_SEATS = [n for n in GAMES if len(registry.get(n).make_env().possible_agents) == 2]


@pytest.mark.parametrize("name", TWO_SEATS)
def test_a_learner_that_decides_first_may_pass_and_its_slot_sits_out(name: str) -> None:
    """learner_first: the learner is asked before the players; where it passes (WAIT) the slot
    stays as it is, its last decision closed once (its seat was to move again), no more."""
    venv = make_vector_env(name, 2, seed=9)
    order: list[str] = []
    learner = PassingLearner(order)
    seating = Seating((-1, 0), (True, False))
    driver = Driver(venv, [Ordered([1, 2], order)], lambda slot, game: seating, first_come(10**6),
                    learner, np.float32, learner_first=True)  # fmt: skip
    driver.start()
    ends: list[GameEnd] = []
    while not learner.passes:
        driver.play_round(ends.append)
    waiting = venv.get_state(0)
    for _ in range(20):
        driver.play_round(ends.append)  # a second close of slot 0's decision: KeyError
        assert venv.get_state(0) == waiting and venv.agent[0] == 0
    assert learner.passes == 21
    rows = [r for r, (slot, *_) in enumerate(learner.shown) if slot == 0]
    assert len(rows) == 1 and (0, 0) not in learner.last and learner.rewards[rows[0]] is not None
    assert not any(end.slot == 0 for end in ends)
    assert order[0] == "learner" and all(
        (a, b) != ("player", "player") for a, b in zip(order, order[1:], strict=False)
    )
