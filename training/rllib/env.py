"""Any registered game as an RLlib ``MultiAgentEnv`` (the new API stack), turn by turn.

Why: RLlib's ``PettingZooEnv`` belongs to its old stack; the new stack samples any
``MultiAgentEnv``. This wraps the game's AEC env (``training.common.envs.make_env``, so the game
comes from the registry): only the agent to move acts, so each step returns that agent's observation
alone, ``Dict(observation=Box, action_mask=Box(int8))`` as the AEC env gives it. Every step
rewards every agent, 0 if it gained nothing (RLlib holds an agent's reward until it next
observes). When the game ends, every agent gets its final observation and ``__all__`` is
terminated (a win, loss or draw) or truncated (the env's ``max_steps``). An action the mask
forbids is refused by the AEC env itself (ER-ENV-8, HV-API-5: it raises with nothing changed),
so a run that samples one stops.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from training.common.envs import make_env


class TurnBasedMultiAgentEnv(MultiAgentEnv):
    """``config``: ``{"env": registered name, "env_kwargs": {...}}`` (RLlib's ``env_config``)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.game = make_env(config["env"], **dict(config.get("env_kwargs") or {}))
        self.agents = self.possible_agents = list(self.game.possible_agents)
        self.observation_spaces = {a: self.game.observation_space(a) for a in self.agents}
        self.action_spaces = {a: self.game.action_space(a) for a in self.agents}

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game from ``seed``; the observation of the agent to move first."""
        self.game.reset(seed=seed, options=options)
        agent = self.game.agent_selection
        return {agent: self.game.observe(agent)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the action of the agent to move (the one agent in ``action_dict``)."""
        agent = self.game.agent_selection
        if set(action_dict) != {agent}:
            raise ValueError(
                f"actions for {sorted(action_dict)}; only {agent!r} is to move in this game"
            )
        self.game.step(int(np.asarray(action_dict[agent])))
        rewards = {a: float(self.game.rewards.get(a, 0.0)) for a in self.possible_agents}
        game = self.game
        if all(game.terminations[a] or game.truncations[a] for a in game.agents):
            truncated = any(self.game.truncations.values())
            observations = {a: self.game.observe(a) for a in self.possible_agents}
            return (
                observations,
                rewards,
                {"__all__": not truncated},
                {"__all__": truncated},
                {},
            )
        nxt = self.game.agent_selection
        return {nxt: self.game.observe(nxt)}, rewards, {"__all__": False}, {"__all__": False}, {}

    def close(self) -> None:
        self.game.close()
