"""The compiled core's threaded step: its persistent helper threads give the results
of one thread at every count, are started once and joined when the Games goes, are rebuilt in a
forked child, and a Games stepping in one Python thread refuses the others' calls instead of
letting them read or write slots mid-step.

Slots counts here are large enough for the threads to be used (a thread takes 32 slots or more).
"""

from __future__ import annotations

import gc
import hashlib
import os
import select
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from reborn_env.games.earth_reborn import positions
from reborn_env.games.earth_reborn.fast.match import core_games

BUSY = "Games is in use by a step() or dump() in another thread"


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask``, as int64."""
    rows, width = mask.shape
    legal = np.flatnonzero(mask.view(np.bool_))
    counts = np.bincount(legal // width, minlength=rows)
    ends = np.cumsum(counts)
    return legal[ends - 1 - (rng.random(rows) * counts).astype(np.int64)] % width


class Stepper:
    """A core Games of ``n`` slots with its output arrays, reset."""

    def __init__(self, rules: Any, n: int, seed: int) -> None:
        self.games = core_games(rules, n, seed)
        self.obs = np.zeros((n, self.games.obs_size), dtype=np.float32)
        self.mask = np.zeros((n, self.games.n_actions), dtype=np.int8)
        self.agent = np.zeros(n, dtype=np.int8)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.games.reset_all(self.obs, self.mask, self.agent)

    def outputs(self) -> tuple[np.ndarray, ...]:
        return (self.obs, self.mask, self.agent, self.rewards, self.terminated, self.truncated)

    def position(self, i: int) -> dict[str, Any]:
        return positions.state_to_dict(self.games.dump(i))

    def step(self, actions: np.ndarray, num_threads: int) -> tuple[np.ndarray, ...]:
        self.games.step(actions, *self.outputs(), num_threads)
        return self.outputs()


def threads_now() -> int:
    return len(os.listdir("/proc/self/task"))


def test_every_thread_count_steps_as_one_thread(make_vector: Callable[..., Any]) -> None:
    """Slots are split among 2, 3 and 8 threads (and a count above what 150 slots allow) and
    give, at every step, the very observations, masks, seats, rewards and flags of one thread,
    auto-resets included (ER-ENV-9, ER-WIN-3), and the same positions at the end."""
    rules = make_vector(num_envs=1).rules
    counts = (1, 2, 3, 8, 64)
    steppers = [Stepper(rules, 150, seed=11) for _ in counts]
    rng = np.random.default_rng(12)
    ended = 0
    for _ in range(400):
        actions = random_legal(steppers[0].mask, rng)
        first, *others = [s.step(actions, t) for s, t in zip(steppers, counts, strict=True)]
        for other in others:
            for x, y in zip(first, other, strict=True):
                assert np.array_equal(x, y)
        ended += int(first[4].sum() + first[5].sum())
    assert ended > 0, "no game ended: the auto-reset was not exercised"
    ends = [[s.position(i) for i in (0, 77, 149)] for s in steppers]
    assert all(end == ends[0] for end in ends[1:])


def test_helper_threads_are_kept_between_steps_and_joined_with_the_games(
    make_vector: Callable[..., Any],
) -> None:
    """The pool grows to the largest count asked (the calling thread is one of them), is reused
    by later steps of any count, and its threads are gone once the Games is."""
    rules = make_vector(num_envs=1).rules
    before = threads_now()
    stepper = Stepper(rules, 256, seed=5)
    rng = np.random.default_rng(6)
    assert threads_now() == before
    stepper.step(random_legal(stepper.mask, rng), 4)
    assert threads_now() == before + 3
    for count in (2, 4, 1, 3) * 5:
        stepper.step(random_legal(stepper.mask, rng), count)
    assert threads_now() == before + 3
    stepper.step(random_legal(stepper.mask, rng), 100)  # 256 slots: at most 8 threads
    assert threads_now() == before + 7
    del stepper
    gc.collect()
    assert threads_now() == before


def test_a_forked_child_steps_on_threads_of_its_own(make_vector: Callable[..., Any]) -> None:
    """After a fork the child's Games has no helper threads (only the forking thread survives):
    its threaded steps start new ones and give the parent's results, without hanging."""
    rules = make_vector(num_envs=1).rules
    stepper = Stepper(rules, 128, seed=21)
    rng = np.random.default_rng(22)
    for _ in range(10):
        stepper.step(random_legal(stepper.mask, rng), 2)
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork of a threaded process
        pid = os.fork()
    if pid == 0:  # the child: report a digest of its steps, never return into pytest
        code = 1
        try:
            os.close(read_end)
            digest = child_steps(stepper, np.random.default_rng(23))
            os.write(write_end, digest.encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    expected = child_steps(stepper, np.random.default_rng(23))
    try:
        ready, _, _ = select.select([read_end], [], [], 120)
        assert ready, "the forked child did not answer in 120 s"
        answer = os.read(read_end, 1 << 16).decode()
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert answer == expected


def child_steps(stepper: Stepper, rng: np.random.Generator) -> str:
    """30 steps on 3 threads; the digest of every output."""
    digest = hashlib.sha256()
    for _ in range(30):
        for x in stepper.step(random_legal(stepper.mask, rng), 3):
            digest.update(x.tobytes())
    return digest.hexdigest()


def test_other_threads_are_refused_while_a_step_runs(make_vector: Callable[..., Any]) -> None:
    """A step lets the GIL go; another Python thread's call on the same Games meanwhile (reads
    here, so that a call let through changes nothing) is a RuntimeError, no slot read mid-step;
    so is a step while a dump (it runs Python code) is under way, with nothing changed. The
    stepping thread's games are exactly those of a twin stepped alone with the same actions."""
    rules = make_vector(num_envs=1).rules
    stepper, twin = Stepper(rules, 2048, seed=31), Stepper(rules, 2048, seed=31)
    played: list[np.ndarray] = []
    failures: list[BaseException] = []
    stop = threading.Event()

    def play() -> None:
        rng = np.random.default_rng(32)
        try:
            while not stop.is_set():
                actions = random_legal(stepper.mask, rng)
                try:
                    stepper.step(actions, 2)
                except RuntimeError as err:  # refused during the main thread's dump: retried
                    if BUSY not in str(err):
                        raise
                    continue
                played.append(actions)
        except BaseException as err:  # noqa: BLE001 - reported by the test below
            failures.append(err)

    player = threading.Thread(target=play)
    player.start()
    refusals: list[str] = []
    deadline = time.monotonic() + 60
    try:
        while len(refusals) < 5 and time.monotonic() < deadline and player.is_alive():
            for call in (
                lambda: stepper.games.status(0),
                lambda: stepper.games.dump(1),
                lambda: stepper.games.legal(2),
                lambda: stepper.games.mask(3, np.zeros(stepper.games.n_actions, np.int8)),
            ):
                try:
                    call()
                except RuntimeError as err:
                    refusals.append(str(err))
    finally:
        stop.set()
        player.join()
    assert not failures
    assert len(refusals) >= 5, "no call was refused while steps ran in another thread"
    assert all(BUSY in text for text in refusals)
    for actions in played:
        twin.step(actions, 1)
    for x, y in zip(stepper.outputs(), twin.outputs(), strict=True):
        assert np.array_equal(x, y)
    assert [stepper.position(i) for i in range(4)] == [twin.position(i) for i in range(4)]
