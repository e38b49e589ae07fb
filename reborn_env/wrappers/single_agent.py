"""One seat of a masked AEC game as a Gymnasium env, the other seats played by a fixed bot.

Single-agent libraries (Stable-Baselines3, sb3-contrib's ``MaskablePPO``, anything that takes a
``gymnasium.Env``) can then train on a PettingZoo game: the opponent's decisions happen inside
``reset`` and ``step``, so every ``step`` is one decision of the agent.

```python
from sb3_contrib import MaskablePPO
from reborn_env.wrappers import SingleAgentEnv

env = SingleAgentEnv(agent="norad")  # earth_reborn_v0 against a RandomBot
model = MaskablePPO("MlpPolicy", env).learn(10_000)  # calls env.action_masks() itself
```
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from .. import earth_reborn_v0
from ..bots import Bot, RandomBot
from ..core.errors import IllegalActionError

ILLEGAL_ACTION_MODES = ("raise", "penalize")


class SingleAgentEnv(gymnasium.Env):
    """``agent``'s seat of a masked AEC env; every other seat is played by ``opponent``.

    The AEC env must give PettingZoo's action-mask observations, ``{"observation": Box,
    "action_mask": Box}``, with a ``Discrete`` action space (every env of reborn_env does).

    * ``observation_space`` is the agent's ``Box`` observation vector alone; the mask of legal
      actions comes from :meth:`action_masks` (the method ``MaskablePPO`` calls) and from
      ``info["action_mask"]`` (bool arrays, True where legal).
    * ``reset(seed, options)`` resets the AEC env (``options`` go to it, e.g.
      ``{"position": d}``) and plays the opponent until the agent must decide. Rewards the agent
      gets during those opponent moves (e.g. ``mp_shaping``) are dropped: nothing was decided yet.
    * ``step(action)`` applies the agent's action, then the opponent's decisions until the agent
      decides again or the game ends. The reward is the sum of the agent's AEC rewards over that
      span; ``terminated`` / ``truncated`` are the agent's AEC flags (earth_reborn_v0: +1 / -1 /
      0 at the end, ``truncated`` at ``max_steps``). ``info["opponent_moves"]`` counts the
      opponent's decisions in the span. Stepping a finished episode raises ``RuntimeError``.
    * Seeding: ``reset(seed=s)`` seeds the wrapper's ``np_random``; every reset draws the AEC
      game's seed from it, so ``reset(seed=s)`` followed by unseeded resets gives the same games.
      The default opponent, a :class:`RandomBot` owned by the wrapper, is reseeded from it too.
      A bot passed in is only ``reset()`` at each episode; its randomness is its own
      (``EarthRebornHeuristicBot(seed=k)`` restarts its generator on ``reset``).
    * ``render()`` is the AEC env's: pass ``render_mode`` here (``"ansi"``, ``"rgb_array"``,
      ``"human"`` for earth_reborn_v0).

    Illegal actions (``action_masks()[action]`` False, or not an integer of the action space):

    * ``illegal_action="raise"`` (default): :class:`~reborn_env.core.errors.IllegalActionError`
      naming the action and the legal ones; nothing changes, the agent may step again.
    * ``illegal_action="penalize"``: the episode ends (``terminated``) with reward -1 and
      ``info["illegal_action"]`` saying why; the AEC game is abandoned as it stands.

    ``gymnasium.utils.env_checker.check_env`` steps with ``action_space.sample()``, which ignores
    the mask and is almost always illegal, so check the env built with
    ``illegal_action="penalize"``; the env has no registered spec, so pass
    ``skip_render_check=True`` (render is checked on its own in tests/test_gym_wrapper.py).
    """

    def __init__(
        self,
        env_fn: Callable[..., AECEnv] = earth_reborn_v0.env,
        agent: str = "norad",
        opponent: Bot | None = None,
        env_kwargs: dict[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action {illegal_action!r}: use 'raise' (IllegalActionError, nothing "
                "changes) or 'penalize' (the episode ends with reward -1)"
            )
        kwargs = dict(env_kwargs or {})
        if render_mode is not None:
            kwargs["render_mode"] = render_mode
        self.aec: AECEnv = env_fn(**kwargs)
        if agent not in self.aec.possible_agents:
            raise ValueError(
                f"agent {agent!r} is not a seat of this env; seats: {self.aec.possible_agents}"
            )
        space = self.aec.observation_space(agent)
        if not isinstance(space, gymnasium.spaces.Dict) or set(space.spaces) != {
            "observation",
            "action_mask",
        }:
            raise ValueError(
                "SingleAgentEnv needs PettingZoo's action-mask observations "
                f"{{'observation', 'action_mask'}}; {agent!r} observes {space}"
            )
        action_space = self.aec.action_space(agent)
        if not isinstance(action_space, gymnasium.spaces.Discrete) or action_space.start != 0:
            raise ValueError(
                f"SingleAgentEnv needs a Discrete action space from 0, got {action_space}"
            )
        self.agent = agent
        self.observation_space = space["observation"]
        self.action_space = gymnasium.spaces.Discrete(int(action_space.n))  # own generator
        self.render_mode = render_mode
        self.metadata = dict(self.aec.metadata)
        self.illegal_action = illegal_action
        self._own_opponent = opponent is None
        self.opponent: Bot = RandomBot() if opponent is None else opponent
        self._mask = np.zeros(action_space.n, dtype=bool)
        self._done = True  # no episode until reset()

    # --- Gymnasium API --------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed, bot_seed = (int(s) for s in self.np_random.integers(2**63 - 1, size=2))
        if self._own_opponent:
            self.opponent = RandomBot(seed=bot_seed)
        self.opponent.reset()
        self.aec.reset(seed=game_seed, options=options)
        _, moves = self._play_opponent()
        self._done = any(self._flags())  # only a start position that is already decided
        obs = self._observe()
        return obs, {"action_mask": self._mask.copy(), "opponent_moves": moves}

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over (or never began): call reset() first")
        problem = self._illegal(action)
        if problem is not None:
            if self.illegal_action == "raise":
                raise IllegalActionError(problem)
            self._done = True
            self._mask[:] = False
            info = {"action_mask": self._mask.copy(), "illegal_action": problem}
            return self._observe(mask=False), -1.0, True, False, info
        self.aec.step(int(action))
        reward = float(self.aec.rewards.get(self.agent, 0.0))
        more, moves = self._play_opponent()
        reward += more
        terminated, truncated = self._flags()
        self._done = terminated or truncated
        obs = self._observe()
        info = {"action_mask": self._mask.copy(), "opponent_moves": moves}
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the agent's decision in progress, as bools (what MaskablePPO calls);
        all False once the episode is over."""
        return self._mask.copy()

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # --- Internals ------------------------------------------------------------------------------

    def _flags(self) -> tuple[bool, bool]:
        aec, agent = self.aec, self.agent
        if agent not in aec.agents:  # PettingZoo removes finished agents from ``agents``
            return True, False
        terminated = bool(aec.terminations[agent])
        return terminated, bool(aec.truncations[agent]) and not terminated

    def _game_over(self) -> bool:
        return any(self._flags()) or not self.aec.agents

    def _play_opponent(self) -> tuple[float, int]:
        """Opponent decisions until the agent decides or the game ends; (agent's reward, moves)."""
        aec, agent = self.aec, self.agent
        reward, moves = 0.0, 0
        while not self._game_over():
            seat = aec.agent_selection
            if seat == agent:
                break
            if aec.terminations[seat] or aec.truncations[seat]:
                aec.step(None)  # PettingZoo's dead step for a seat that is out
                continue
            obs = aec.observe(seat)
            aec.step(int(self.opponent.act(obs["observation"], obs["action_mask"])))
            reward += float(aec.rewards.get(agent, 0.0))
            moves += 1
        return reward, moves

    def _observe(self, mask: bool = True) -> np.ndarray:
        obs = self.aec.observe(self.agent)
        if mask:
            self._mask = np.asarray(obs["action_mask"]).astype(bool)
        return np.array(obs["observation"], dtype=self.observation_space.dtype)

    def _illegal(self, action: Any) -> str | None:
        """Why ``action`` is not legal now, or None when it is."""
        n = int(self.action_space.n)
        value = np.asarray(action)
        if value.shape != () or not np.issubdtype(value.dtype, np.integer):
            return f"action must be an integer in 0..{n - 1}, got {action!r}"
        a = int(value)
        if 0 <= a < n and self._mask[a]:
            return None
        legal = ", ".join(self._name(int(i)) for i in np.flatnonzero(self._mask))
        return f"{self._name(a)} is not legal for {self.agent} now; legal actions: {legal}"

    def _name(self, action: int) -> str:
        namer = getattr(self.aec.unwrapped, "action_name", None)
        if namer is None or not 0 <= action < int(self.action_space.n):
            return str(action)
        return f"{action} ({namer(action)})"
