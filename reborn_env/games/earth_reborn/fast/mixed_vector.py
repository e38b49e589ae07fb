"""MixedVectorEnv: games of several scenarios in one batch, in the universal layout (ER-UNI-6).

Slot ``i`` plays scenario ``scenarios[i % len(scenarios)]`` for the whole run (with fewer slots
than scenarios, slot ``i`` the ``i``-th, the others none): each scenario's
slots are one :class:`~.vector.VectorEnv` (compiled or reference, as chosen), and their
observations and masks land in the batch's arrays through the scenario's
:class:`~..universal.UniversalView`: ``obs`` float32 [N, universal size], ``mask`` int8 [N,
universal actions], ``agent``, ``rewards``, ``terminated`` and ``truncated`` as a VectorEnv gives
them. A slot's map block is written once; padded entries stay 0 and padded actions are never
legal. Actions are universal integers (``WAIT``, -1, leaves a game as it is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ....core.aec_vector import count_arg
from ....core.errors import IllegalActionError
from ..universal import (
    UNIVERSAL_CODEC,
    UNIVERSAL_LAYOUT,
    batch_slot,
    scenario_names,
    slot_of,
    universal_view,
)
from .reference import MAX_SEED, WAIT
from .vector import Arrays, VectorEnv

SEED_STRIDE = 1_000_003
"""Scenario ``k``'s slots draw their games from seed ``seed + k * SEED_STRIDE``."""


class MixedVectorEnv:
    """``num_envs`` games over ``scenarios`` (a name or a list, ``universal.scenario_names``),
    in the universal layout; the other options are VectorEnv's."""

    WAIT = WAIT

    def __init__(
        self,
        num_envs: int = 256,
        seed: int = 0,
        num_threads: int = 1,
        backend: str | None = None,
        scenarios: str | Sequence[str] = "vault_raid",
        **options: Any,
    ) -> None:
        self.num_envs = count_arg("num_envs", num_envs)
        seed = count_arg("seed", seed, 0, MAX_SEED)
        names = scenario_names(scenarios)[: self.num_envs]  # the first num_envs, if fewer slots
        self.scenarios = names
        self.rows = [slice(k, self.num_envs, len(names)) for k in range(len(names))]
        self.parts = [
            VectorEnv(
                len(range(self.num_envs)[rows]),
                (seed + k * SEED_STRIDE) % (MAX_SEED + 1),
                num_threads,
                backend,
                scenario=name,
                **options,
            )  # fmt: skip
            for k, (name, rows) in enumerate(zip(names, self.rows, strict=True))
        ]
        self.views = [universal_view(part.rules.scenario) for part in self.parts]
        first = self.parts[0]
        self.backend, self.agents = first.backend, first.agents
        self.n_actions, self.obs_size = UNIVERSAL_CODEC.size, UNIVERSAL_LAYOUT.size
        n = self.num_envs
        self.obs = np.zeros((n, self.obs_size), dtype=np.float32)
        for rows, view in zip(self.rows, self.views, strict=True):
            self.obs[rows] = view.static
        self.mask = np.zeros((n, self.n_actions), dtype=np.int8)
        self.agent = np.zeros(n, dtype=np.int8)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)

    def reset(self, seed: int | None = None) -> Arrays:
        """A new game in every slot; ``seed`` starts every scenario's generator over."""
        if seed is not None:
            seed = count_arg("seed", seed, 0, MAX_SEED)
        for k, part in enumerate(self.parts):
            part.reset(None if seed is None else (seed + k * SEED_STRIDE) % (MAX_SEED + 1))
            self._gather(k)
        return self.obs, self.mask, self.agent

    def step(self, actions: Any) -> Arrays:
        """One universal action per slot (or WAIT); an illegal one, padded actions included,
        raises IllegalActionError naming the slot, nothing changed (ER-ENV-8)."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers, shape ({self.num_envs},), "
                f"got {chosen.dtype.name} {chosen.shape}"
            )
        chosen = chosen.astype(np.int64)
        own = []
        for k, (rows, view, part) in enumerate(zip(self.rows, self.views, self.parts, strict=True)):
            mine = chosen[rows]
            mapped = np.full(len(mine), -1, dtype=np.int64)
            inside = (mine >= 0) & (mine < self.n_actions)
            mapped[inside] = view.scenario_action[mine[inside]]
            legal = part.mask[np.arange(len(mine)), np.maximum(mapped, 0)].astype(bool)
            bad = np.flatnonzero((mine != WAIT) & ((mapped < 0) | ~legal))
            if len(bad):
                i = int(bad[0])
                slot = batch_slot(k, i, len(self.parts))
                raise IllegalActionError(self._refusal(slot, int(mine[i])))
            mapped[mine == WAIT] = WAIT
            own.append(mapped)
        for k, part in enumerate(self.parts):
            part.step(own[k])
            self._gather(k)
        return self.obs, self.mask, self.agent, self.rewards, self.terminated, self.truncated

    def _gather(self, k: int) -> None:
        """Scenario ``k``'s arrays into the batch's rows of its slots."""
        part, rows, view = self.parts[k], self.rows[k], self.views[k]
        view.scatter(part.obs, self.obs[rows], view.obs_spans)  # a view: written in place
        view.scatter(part.mask, self.mask[rows], view.action_spans)
        self.agent[rows] = part.agent
        self.rewards[rows] = part.rewards
        self.terminated[rows] = part.terminated
        self.truncated[rows] = part.truncated

    def _locate(self, i: Any) -> tuple[int, int]:
        """(scenario, its slot) of batch slot ``i``."""
        return slot_of(count_arg("game index", i, 0, self.num_envs - 1), len(self.parts))

    def _refusal(self, i: int, action: int) -> str:
        k, j = self._locate(i)
        legal = np.flatnonzero(self.mask[i]).tolist()
        names = ", ".join(f"{a} {self.action_name(a)}" for a in legal)
        return (
            f"game {i} ({self.scenarios[k]}): universal action {action} is not legal now; "
            f"legal: {names}"
        )

    def get_state(self, i: int) -> dict[str, Any]:
        """Game ``i``'s position, as its scenario's env gives it."""
        k, j = self._locate(i)
        return self.parts[k].get_state(j)

    def set_state(self, i: int, position: Any) -> None:
        """Game ``i`` := ``position`` of its scenario (validated, nothing changed on error)."""
        k, j = self._locate(i)
        part = self.parts[k]
        part.set_state(j, position)
        view = self.views[k]
        view.observation(part.obs[j], self.obs[i])
        view.scatter(part.mask[j], self.mask[i], view.action_spans)
        self.agent[i] = part.agent[j]

    def observe(self, i: int, seat: int) -> np.ndarray:
        """Game ``i`` as ``seat`` sees it now, in the universal layout (a new array)."""
        k, j = self._locate(i)
        return self.views[k].observation(self.parts[k].observe(j, seat))

    def seed_state(self, i: int) -> int:
        k, j = self._locate(i)
        return self.parts[k].seed_state(j)

    def set_seed_state(self, i: int, state: int) -> None:
        k, j = self._locate(i)
        self.parts[k].set_seed_state(j, state)

    def action_name(self, action: int) -> str:
        """The universal action's name: kinds as in every scenario, characters and tiles by
        slot (``ACTIVATE(c2)``)."""
        return UNIVERSAL_CODEC.name(int(action))

    def close(self) -> None:
        """Nothing to release."""
