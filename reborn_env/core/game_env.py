"""What every ruleset's AEC environment does the same way around its rules engine.

Rendering by mode, the missing-reset guard, and the two ways of refusing an illegal action
(ER-ENV-8, HV-API-5): raise with the state unchanged, or PettingZoo's convention of ending the game
with -1 for the offender. Each environment names its render module and keeps its rules, rewards
and observations to itself.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from importlib import import_module
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from .errors import IllegalActionError

ILLEGAL_ACTION_MODES = ("raise", "penalize")
MAX_SEED = 2**64 - 1  # a seed is the whole state of the 64-bit generator (common.rng)


class GameEnv(AECEnv):
    """An AEC environment around one rules engine's game object (``self.game``)."""

    render_module = ""  # module with ``render_ansi(game)`` and ``render_rgb(game)``
    game: Any = None
    illegal_action = "raise"

    def _set_spaces(self, agents: list[str], obs_size: int, n_actions: int) -> None:
        """The agents, each with a masked observation space (``Dict(observation=Box(0, 1),
        action_mask=Box(0, 1, int8))``) and a ``Discrete(n_actions)`` action space."""
        self.possible_agents = agents
        self.agent_index = {a: i for i, a in enumerate(agents)}
        obs_box = gymnasium.spaces.Box(0.0, 1.0, (obs_size,), np.float32)
        mask_box = gymnasium.spaces.Box(0, 1, (n_actions,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": obs_box, "action_mask": mask_box})
            for a in agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(n_actions) for a in agents}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def _set_modes(self, render_mode: str | None, illegal_action: str) -> None:
        """Check and keep the render mode and the illegal-action mode, naming what is allowed."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use None or one of "
                f"{self.metadata['render_modes']}"
            )
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action {illegal_action!r}: use 'raise' (error, state unchanged) or "
                "'penalize' (PettingZoo convention: game ends, offender -1)"
            )
        self.render_mode = render_mode
        self.illegal_action = illegal_action

    def render(self) -> str | np.ndarray | None:
        """The public picture: text (``ansi``, printed in ``human`` mode) or an RGB array."""
        module = import_module(self.render_module)
        game = self._require_game()
        if self.render_mode == "ansi":
            return module.render_ansi(game)
        if self.render_mode == "rgb_array":
            return module.render_rgb(game)
        if self.render_mode == "human":
            print(module.render_ansi(game))
        else:
            gymnasium.logger.warn("render() called without a render_mode; pass one to env()")
        return None

    def close(self) -> None:
        """Nothing to release (no window is opened)."""

    def _require_game(self) -> Any:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _new_episode(self, game: Any, info: Callable[[], dict[str, Any]] = dict) -> None:
        """Fresh AEC bookkeeping around ``game`` (a new game or a restored position): every
        agent back, no reward, not ended, ``info()`` as each agent's infos."""
        self.game = game
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: info() for a in self.agents}

    @staticmethod
    def _seed_of(seed: Any) -> int:
        """``seed`` checked (an integer in 0..2**64-1, as the generator's state), or a random
        one for None; the check is Gymnasium's (no floats, strings, booleans or negatives), and
        no two seeds give the same game."""
        if seed is None:
            return secrets.randbits(63)
        if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer):
            raise ValueError(f"seed must be an integer in 0..{MAX_SEED} or None, got {seed!r}")
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be in 0..{MAX_SEED} (2**64-1) or None, got {seed}")
        return int(seed)

    @staticmethod
    def _options_of(options: Any) -> dict[str, Any]:
        """``reset``'s options: a dict (keys this env does not use are ignored, as PettingZoo's
        api_test expects) or None."""
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise ValueError(f"reset options must be a dict or None, got {type(options).__name__}")
        return options

    def _decision_text(self) -> str:
        """The decision in progress and its legal actions, for error messages."""
        raise NotImplementedError

    def _action_of_step(self, action: Any) -> tuple[str, int] | None:
        """The deciding agent and ``action`` as an int, or None once the step is dealt with.

        A terminated agent's step removes it (PettingZoo's dead step); a step after every agent
        has left is an error; an action that is not an integer (``True`` included) is refused
        naming the decision and its legal actions. Nothing is changed before the action is known
        to be an integer, so a refusal in ``raise`` mode keeps even the pending rewards.
        """
        self._require_game()
        if not self.agents:
            raise RuntimeError(
                "step() called after the game ended and every agent has left; call reset()"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            n_actions = self.action_spaces[agent].n
            self._refuse(
                agent,
                f"action must be an integer in 0..{n_actions - 1}, got {action!r}; "
                f"{self._decision_text()}",
            )
            return None
        return agent, int(action)

    def _refuse(self, agent: str, message: str) -> None:
        """Refuse an illegal action: raise (state and rewards unchanged) or end the game with -1
        for the offender (PettingZoo's TerminateIllegalWrapper convention)."""
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.rewards[agent] = -1.0
        self.terminations = {a: True for a in self.agents}
        self.infos[agent] = {**self.infos.get(agent, {}), "illegal_action": message}
        self._accumulate_rewards()
