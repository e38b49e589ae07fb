"""AECVectorEnv: any game's AEC envs stepped as one vector (a ``vector_env.GameVector``).

Why: a trainer drives every game through one batched interface (``reset``, ``step`` of one action
per game, ``WAIT`` for a game that sits a step out, ``observe(i, seat)``, positions and seed
states for resuming), and a game without a compiled core still plays through it. Games here are
``num_envs`` ordinary AEC envs in a Python loop: the same numbers as the compiled vector where a
game has one (a differential test holds them equal), at the speed of the AEC env.

Seeds follow the compiled vector's contract: slot ``i``'s generator is SplitMix64 of the ``i``-th
output of SplitMix64(``seed``), and each new game of the slot takes its generator's next output as
the env's ``reset`` seed. Rewards are each step's ``env.rewards``, one column per agent in
``possible_agents`` order; a game that ends (terminated: any agent's termination; truncated: else
any agent's truncation) is replaced in the same step by the slot's next game. ``reset(seed)``
starts the generators over and ``reset()`` continues them; the vector pickles and deep-copies as
its AEC envs do, and the copy plays on exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import IllegalActionError
from .rng import SplitMix64

MAX_SEED = 2**64 - 1
WAIT = -1  # the action that leaves a slot as it is for one step


def count_arg(name: str, value: Any, low: int = 1, high: int | None = None) -> int:
    """``value`` as an int in ``low..high``, or a ValueError naming ``name`` and the bounds (the
    vectors' integer arguments: sizes, seeds, slots, seats)."""
    bounds = f"{low}..{high}" if high is not None else f">= {low}"
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer {bounds}, got {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be {bounds}, got {value}")
    return int(value)


class AECVectorEnv:
    """``num_envs`` AEC envs of ``make_env(**options)``, stepped as one vector from ``seed``."""

    WAIT = WAIT

    def __init__(
        self,
        make_env: Callable[..., Any],
        num_envs: int = 16,
        seed: int = 0,
        num_threads: int = 1,
        **options: Any,
    ) -> None:
        self.num_envs = n = count_arg("num_envs", num_envs)
        self.num_threads = count_arg("num_threads", num_threads)  # steps in one loop regardless
        self.envs = [make_env(**options) for _ in range(n)]
        probe = self.envs[0]
        self.rules = getattr(probe.unwrapped, "rules", None)  # the configured game (GameEnv)
        self.agents = list(probe.possible_agents)
        first = self.agents[0]
        self.n_actions = int(probe.action_space(first).n)
        self.obs_size = int(probe.observation_space(first)["observation"].shape[0])
        self.obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self.mask = np.zeros((n, self.n_actions), dtype=np.int8)
        self.agent = np.zeros(n, dtype=np.int8)
        self.rewards = np.zeros((n, len(self.agents)), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self._generators = self._slot_generators(count_arg("seed", seed, 0, MAX_SEED))
        self._started = False

    def _slot_generators(self, seed: int) -> list[SplitMix64]:
        root = SplitMix64(seed)
        return [SplitMix64(root.next64()) for _ in range(self.num_envs)]

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, ...]:
        """A new game in every slot (its next seed; ``seed`` starts the generators over):
        ``obs``, ``mask``, ``agent``."""
        if seed is not None:
            self._generators = self._slot_generators(count_arg("seed", seed, 0, MAX_SEED))
        for i in range(self.num_envs):
            self._new_game(i)
        self._started = True
        return self.obs, self.mask, self.agent

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        """One action per game for its agent to move, or WAIT; every action is checked against
        its mask first (IllegalActionError naming the slot, nothing changed). Returns ``obs,
        mask, agent, rewards, terminated, truncated``."""
        self._require_started()
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers, shape ({self.num_envs},), "
                f"got {chosen.dtype.name} {chosen.shape}"
            )
        chosen_list = chosen.tolist()
        for i, action in enumerate(chosen_list):
            if action != WAIT and not (0 <= action < self.n_actions and self.mask[i, action]):
                legal = np.flatnonzero(self.mask[i]).tolist()
                raise IllegalActionError(
                    f"slot {i}: illegal action {action} for {self.agents[self.agent[i]]}; "
                    f"legal actions: {legal} (or {WAIT} to wait)"
                )
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        for i, action in enumerate(chosen_list):
            if action == WAIT:
                continue
            env = self.envs[i]
            env.step(action)
            self.rewards[i] = [env.rewards.get(a, 0.0) for a in self.agents]
            ended = any(env.terminations.values())
            cut = not ended and any(env.truncations.values())
            if ended or cut:
                self.terminated[i], self.truncated[i] = ended, cut
                self._new_game(i)
            else:
                self._write(i)
        return self.obs, self.mask, self.agent, self.rewards, self.terminated, self.truncated

    def observe(self, i: int, seat: int) -> np.ndarray:
        """Game ``i`` as agent ``seat`` sees it now (a new float32 array), whoever is to move."""
        self._require_started()
        seat = count_arg("seat", seat, 0, len(self.agents) - 1)
        view = self.envs[self._index(i)].observe(self.agents[seat])
        return np.array(view["observation"], dtype=np.float32)

    def get_state(self, i: int) -> dict[str, Any]:
        """Game ``i``'s position (games with positions: ``env.unwrapped.get_state()``)."""
        self._require_started()
        return self.envs[self._index(i)].unwrapped.get_state()

    def set_state(self, i: int, position: Any) -> None:
        """Game ``i`` := ``position``, validated by the env (nothing changed if refused)."""
        self._require_started()
        i = self._index(i)
        self.envs[i].reset(options={"position": position})
        self._write(i)

    def seed_state(self, i: int) -> int:
        """Game ``i``'s seed generator state (with its position, what a resumed run needs)."""
        return self._generators[self._index(i)].state

    def set_seed_state(self, i: int, state: int) -> None:
        """Game ``i``'s seed generator state := ``state`` (an integer in 0..2**64-1)."""
        self._generators[self._index(i)].state = count_arg("seed state", state, 0, MAX_SEED)

    def close(self) -> None:
        """Close every env."""
        for env in self.envs:
            env.close()

    def _new_game(self, i: int) -> None:
        self.envs[i].reset(seed=self._generators[i].next64())
        self._write(i)

    def _write(self, i: int) -> None:
        env = self.envs[i]
        view = env.observe(env.agent_selection)
        self.obs[i] = view["observation"]
        self.mask[i] = view["action_mask"]
        self.agent[i] = self.agents.index(env.agent_selection)

    def _index(self, i: Any) -> int:
        return count_arg("game index", i, 0, self.num_envs - 1)

    def _require_started(self) -> None:
        if not self._started:
            raise RuntimeError("call reset() before step(), observe(), get_state() or set_state()")
