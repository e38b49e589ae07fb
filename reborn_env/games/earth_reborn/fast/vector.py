"""VectorEnv: many games of Earth Reborn stepped in one call.

``reset()`` gives ``obs`` float32 [N, obs], ``mask`` int8 [N, actions] and ``agent`` int8 [N]
(the seat to move, ER-ENV-1); ``step(actions)`` plays one action per game and gives them again
with ``rewards`` float32 [N, 2] (this step's, per seat: MP shaping, then +1 / -1 / 0 at the end,
ER-WIN-3), ``terminated`` and ``truncated`` bool [N] (ER-ENV-9); a finished game is replaced in
the same step by the slot's next one, whose first decision ``obs``, ``mask`` and ``agent`` then
show. The arrays are allocated once and written in place at every call. Games run in the compiled
core (``_core.Games``, threads with ``num_threads``) or, without it, in :class:`ReferenceGames`;
both give the same numbers. Positions are the env's (docs/position_format.md). The vector
pickles and deep-copies as each slot's position and seed generator state, and the copy plays on
exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.aec_vector import count_arg
from ....core.errors import IllegalActionError
from .. import positions
from ..match import EarthRebornRules
from .match import core_games
from .reference import MAX_SEED, WAIT, ReferenceGames, illegal_action_message

Arrays = tuple[np.ndarray, ...]


class VectorEnv:
    """``num_envs`` games of one scenario, from ``seed``; ``options`` are env()'s."""

    WAIT = WAIT

    def __init__(
        self,
        num_envs: int = 256,
        seed: int = 0,
        num_threads: int = 1,
        backend: str | None = None,
        scenario: str = "vault_raid",
        mp_shaping: float = 0.0,
        max_steps: int = 5000,
        illegal_action: str = "raise",
    ) -> None:
        self.num_envs = count_arg("num_envs", num_envs)
        self.num_threads = count_arg("num_threads", num_threads)
        seed = count_arg("seed", seed, 0, MAX_SEED)
        if illegal_action != "raise":
            raise ValueError(
                f"illegal_action {illegal_action!r}: a vector env only raises (ER-ENV-8); "
                "use 'raise'"
            )
        self.rules = EarthRebornRules(scenario, mp_shaping, max_steps, backend)
        self.backend = self.rules.backend
        self.agents = self.rules.agents
        self.n_actions = self.rules.n_actions
        self.obs_size = self.rules.obs_size
        n = self.num_envs
        self.obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self.mask = np.zeros((n, self.n_actions), dtype=np.int8)
        self.agent = np.zeros(n, dtype=np.int8)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self._actions = np.zeros(n, dtype=np.int64)
        self._games = self._make_games(seed)
        self._started = False

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and deep-copied without the games (a ``_core.Games`` cannot be): each slot's
        position and seed generator state stand for its game, as they do for a resumed run."""
        state = self.__dict__.copy()
        games = state.pop("_games")
        slots = range(self.num_envs)
        state["_seed_states"] = [int(games.seed_state(i)) for i in slots]
        state["_positions"] = (
            [positions.state_to_dict(games.dump(i)) for i in slots] if self._started else None
        )
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The vector :meth:`__getstate__` saved: new games, each slot's game and generator put
        back (before the first reset, only the generators)."""
        seed_states, slot_positions = state.pop("_seed_states"), state.pop("_positions")
        self.__dict__.update(state)
        self._games = games = self._make_games(0)
        for i, seed_state in enumerate(seed_states):
            games.set_seed_state(i, seed_state)
        for i, position in enumerate(slot_positions or ()):
            games.load(i, positions.state_from_dict(position, self.rules.scenario))

    def _make_games(self, seed: int) -> Any:
        if self.backend == "fast":
            return core_games(self.rules, self.num_envs, seed)
        rules = self.rules
        layout = rules.observer.layout
        return ReferenceGames(
            rules.scenario, rules.codec, layout, self.num_envs, rules.max_steps,
            rules.mp_shaping, seed,
        )  # fmt: skip

    def reset(self, seed: int | None = None) -> Arrays:
        """A new game in every slot (each slot's next seed; ``seed`` starts the generators over
        as the constructor's does): ``obs``, ``mask``, ``agent``."""
        if seed is not None:
            self._games = self._make_games(count_arg("seed", seed, 0, MAX_SEED))
        self._games.reset_all(self.obs, self.mask, self.agent)
        self._started = True
        return self.obs, self.mask, self.agent

    def step(self, actions: Any) -> Arrays:
        """One action per game for its seat to move, or ``WAIT`` (-1): that game stays as it
        is (its rows unchanged, no reward, both flags False). Every action is checked first and
        an illegal one raises IllegalActionError naming the slot, the decision and the legal
        actions, nothing changed (ER-ENV-8). Returns ``obs, mask, agent, rewards, terminated,
        truncated``."""
        self._require_started()
        chosen = self._actions_of(actions)
        outputs = (self.obs, self.mask, self.agent, self.rewards, self.terminated, self.truncated)
        try:
            self._games.step(chosen, *outputs, self.num_threads)
        except ValueError as err:
            for i, action in enumerate(chosen.tolist()):
                if action != WAIT and action not in self._games.legal(i):
                    raise IllegalActionError(self._refusal(i, action)) from None
            raise err
        return outputs

    def play_random(self, seat: int, streams: np.ndarray, span: dict[str, np.ndarray]) -> bool:
        """The other seats play uniformly random legal moves in every slot until ``seat`` is to
        move, in the compiled core, bit for bit :class:`~reborn_env.bots.batched.RandomBatch`
        on ``streams`` (uint64 [N], its ``state``, advanced): the Gym vector's opponent loop
        in one call. ``span`` (arrays of N, updated in place) is that loop's bookkeeping:
        ``reward`` (float64) adds ``seat``'s rewards until the slot's first game ends, whose
        ``terminated`` and ``truncated`` flags are or-ed in and ``moves_at_end`` kept, ``ended``
        (bool) set; ``moves`` (int64) counts every decision. The vector's ``rewards`` and flags
        are then each slot's last move's. False (nothing played) without the compiled core."""
        play = getattr(self._games, "play_random", None)
        if play is None:
            return False
        self._require_started()
        play(
            count_arg("seat", seat, 0, len(self.agents) - 1), streams, self.obs, self.mask,
            self.agent, self.rewards, self.terminated, self.truncated, span["reward"],
            span["ended"], span["moves"], span["moves_at_end"], span["terminated"],
            span["truncated"], self.num_threads,
        )  # fmt: skip
        return True

    def _actions_of(self, actions: Any) -> np.ndarray:
        """``actions`` as int64 [N]: an int64 array as it is, other integers copied into the
        vector's own buffer; anything else is a ValueError."""
        chosen = np.asarray(actions)
        shape = (self.num_envs,)
        if chosen.dtype == np.int64 and chosen.shape == shape and chosen.flags.c_contiguous:
            return chosen
        if chosen.shape != shape or chosen.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers, shape {shape}, got {chosen.dtype.name} {chosen.shape}"
            )
        if chosen.dtype.kind == "u" and chosen.size and chosen.max() > np.iinfo(np.int64).max:
            raise IllegalActionError(self._refusal(int(np.argmax(chosen)), int(chosen.max())))
        np.copyto(self._actions, chosen, casting="unsafe")
        return self._actions

    def get_state(self, i: int) -> dict[str, Any]:
        """Game ``i``'s position, as ``env.unwrapped.get_state()`` gives it."""
        self._require_started()
        return positions.state_to_dict(self._games.dump(self._index(i)))

    def set_state(self, i: int, position: Any) -> None:
        """Game ``i`` := ``position``, validated as the env does (PositionError naming the field,
        nothing changed); its row of ``obs``, ``mask`` and ``agent`` is rewritten."""
        self._require_started()
        i = self._index(i)
        state = positions.state_from_dict(position, self.rules.scenario)
        if state.winner is not None or state.steps >= self.rules.max_steps:
            raise ValueError(
                f"set_state({i}): the position is a finished game (winner or max_steps "
                f"{self.rules.max_steps} reached, ER-ENV-9); a vector slot holds a game in progress"
            )
        self._games.load(i, state)
        seat = self._games.status(i)[0]
        self._games.observe(i, seat, self.obs[i])
        self._games.mask(i, self.mask[i])
        self.agent[i] = seat

    def observe(self, i: int, seat: int) -> np.ndarray:
        """Game ``i`` as seat ``seat`` sees it now (a new float32 array), whoever is to move: a
        trainer's value of a seat's view at the end of a rollout."""
        self._require_started()
        out = np.zeros(self.obs_size, dtype=np.float32)
        self._games.observe(self._index(i), count_arg("seat", seat, 0, len(self.agents) - 1), out)
        return out

    def seed_state(self, i: int) -> int:
        """Game ``i``'s seed generator state: with its position, what a resumed run needs to
        replay the slot's next games exactly (:meth:`set_seed_state`)."""
        return int(self._games.seed_state(self._index(i)))

    def set_seed_state(self, i: int, state: int) -> None:
        """Game ``i``'s seed generator state := ``state`` (an integer in 0..2**64-1)."""
        self._games.set_seed_state(self._index(i), count_arg("seed state", state, 0, MAX_SEED))

    def action_name(self, action: int) -> str:
        """The readable name of an action integer, e.g. ``STEP(N)``."""
        return self.rules.action_name(int(action))

    def close(self) -> None:
        """Nothing to release."""

    def _refusal(self, i: int, action: int) -> str:
        return illegal_action_message(self._games.dump(i), i, action)

    def _index(self, i: Any) -> int:
        return count_arg("game index", i, 0, self.num_envs - 1)

    def _require_started(self) -> None:
        if not self._started:
            raise RuntimeError("call reset() before step(), get_state() or set_state()")
