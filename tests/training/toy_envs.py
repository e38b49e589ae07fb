"""Toy two-agent AEC environments for the trainer tests (tests/training/test_ppo.py,
tests/training/test_haven_training.py).

:class:`OneLegalToyEnv` holds what they share: agents ``a`` and ``b``, a 6-float observation, and
exactly one random legal action of ``n_actions`` at each decision; any other action raises, so a
trainer that ever samples an illegal action fails. ``get_state`` / ``reset(options={"position":
...})`` save and restore the whole game (RNG included) for the resume tests. Subclasses say what
the agents observe and, in :meth:`after_step`, what a decision pays, when the game ends and who
decides next.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv


class OneLegalToyEnv(AECEnv):
    n_actions: int

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["a", "b"]
        box = spaces.Box(0.0, 1.0, (6,), np.float32)
        mask = spaces.Box(0, 1, (self.n_actions,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def get_state(self):
        return {
            "t": self.t,
            "legal": self.legal,
            "agent": self.agent_selection,
            "rng": self.rng.bit_generator.state,
        }

    def reset(self, seed=None, options=None):
        self.rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection, self.t, self.legal = "a", 0, int(self.rng.integers(self.n_actions))
        if options and "position" in options:
            saved = options["position"]
            self.t, self.legal, self.agent_selection = saved["t"], saved["legal"], saved["agent"]
            self.rng.bit_generator.state = saved["rng"]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        if action != self.legal:
            raise ValueError(f"illegal action {action}; legal {self.legal}")
        self._clear_rewards()
        self.t += 1
        self.legal = int(self.rng.integers(self.n_actions))
        self.after_step(agent)
        self._accumulate_rewards()

    def after_step(self, agent: str) -> None:
        """Rewards, terminations and the next ``agent_selection`` after ``agent``'s decision
        ``self.t`` (the next legal action is already drawn)."""
        raise NotImplementedError
