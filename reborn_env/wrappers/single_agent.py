"""One seat of a masked AEC game as a Gymnasium env, the other seats played by a fixed bot.

Single-agent libraries (Stable-Baselines3, sb3-contrib's ``MaskablePPO``, anything that takes a
``gymnasium.Env``) can then train on a PettingZoo game: the opponent's decisions happen inside
``reset`` and ``step``, so every ``step`` is one decision of the agent.

```python
from sb3_contrib import MaskablePPO
from reborn_env.wrappers import SingleAgentEnv

env = SingleAgentEnv()  # the default game's first seat against a RandomBot
model = MaskablePPO("MlpPolicy", env).learn(10_000)  # calls env.action_masks() itself
```

The game is named as the registry names it (``reborn_env.core.registry.names()``); importing
:mod:`reborn_env.envs` also registers this wrapper with Gymnasium, one id per game
(``gymnasium.make("reborn_env/<game>-v<N>", agent=..., opponent=...)``).
"""

from __future__ import annotations

from functools import partial
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from ..bots.base import Bot, RandomBot, decide
from ..bots.loading import load_bot
from ..core import registry
from ..core.errors import IllegalActionError
from ..core.game_env import RENDER_MODES
from ..core.public_view import env_view
from ..frontends.scenario_bots import misfit

ILLEGAL_ACTION_MODES = ("raise", "penalize")


class SingleAgentEnv(gymnasium.Env):
    """``agent``'s seat of the registered game ``game``; every other seat is played by
    ``opponent``.

    * ``game``: a registered game's name (None: ``registry.default_name()``), built with
      ``env_kwargs`` (e.g. ``{"scenario": ...}``: a spec-string opponent is made for that
      scenario). Its AEC env must give PettingZoo's action-mask observations,
      ``{"observation": Box, "action_mask": Box}``, with a ``Discrete`` action space (every env
      of reborn_env does).
    * ``agent``: the seat the single agent plays (None: the game's first seat).
    * ``opponent``: a :class:`~reborn_env.bots.Bot`, or a spec string for
      :func:`~reborn_env.bots.loading.load_bot` (``"random"``, ``"heuristic"``, a policy file).

    * ``observation_space`` is the agent's ``Box`` observation vector alone; the mask of legal
      actions comes from :meth:`action_masks` (the method ``MaskablePPO`` calls) and from
      ``info["action_mask"]`` (bool arrays, True where legal).
    * ``reset(seed, options)`` resets the AEC env (``options`` go to it, e.g.
      ``{"position": d}``) and plays the opponent until the agent must decide. Rewards the agent
      gets during those opponent moves (e.g. ``mp_shaping``) are dropped: nothing was decided yet.
    * ``step(action)`` applies the agent's action, then the opponent's decisions until the agent
      decides again or the game ends. The reward is the sum of the agent's AEC rewards over that
      span; ``terminated`` / ``truncated`` are the agent's AEC flags (e.g. +1 / -1 /
      0 at the end, ``truncated`` at its step limit). ``info["opponent_moves"]`` counts the
      opponent's decisions in the span. Stepping a finished episode raises ``RuntimeError``.
    * Seeding: ``reset(seed=s)`` seeds the wrapper's ``np_random``; every reset draws the AEC
      game's seed from it, so ``reset(seed=s)`` followed by unseeded resets gives the same games.
      The ``"random"`` opponent (the default) is a :class:`RandomBot` the wrapper owns, reseeded
      from it too. Any other spec string is loaded once, with seed 0; a bot passed in is only
      ``reset()`` at each episode, its randomness its own (a scripted bot built with ``seed=k``
      restarts its generator on ``reset``; a policy's sampling runs on).
    * ``render()`` is the AEC env's: pass ``render_mode`` here (``"ansi"``, ``"rgb_array"``,
      ``"human"``).

    Illegal actions (``action_masks()[action]`` False, or not an integer of the action space):

    * ``illegal_action="penalize"`` (default): the episode ends (``terminated``) with reward -1
      and ``info["illegal_action"]`` saying why; the AEC game is abandoned as it stands. This is
      PettingZoo's convention for its classic games (an illegal move ends the game, the offender
      gets -1), and it is the default here because Gymnasium's tools step with
      ``action_space.sample()``, which ignores the mask: ``check_env(gymnasium.make(id))`` passes
      on exactly what the registry gives, for every game. (The AEC env itself, ``env()``, keeps
      ``"raise"`` as its default: a multi-agent caller reads the mask from the observation.)
    * ``illegal_action="raise"``: :class:`~reborn_env.core.errors.IllegalActionError` naming the
      action and the legal ones; nothing changes, the agent may step again. For a trainer that
      must never play an illegal action (``MaskablePPO``), a masking bug then shows at once.

    ``gymnasium.utils.env_checker.check_env(gymnasium.make("reborn_env/<game>-v0"))`` passes,
    render modes included (the registered spec builds each); it warns only that
    ``gymnasium.make``'s own wrappers are around the env. A wrapper built directly has no spec:
    pass ``skip_render_check=True`` then.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES}
    """What every game's env renders (``gymnasium.make`` reads it before building one); an
    instance holds its own game env's metadata."""

    def __init__(
        self,
        game: str | None = None,
        agent: str | None = None,
        opponent: Bot | str = "random",
        env_kwargs: dict[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "penalize",
    ) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action {illegal_action!r}: use 'raise' (IllegalActionError, nothing "
                "changes) or 'penalize' (the episode ends with reward -1)"
            )
        self.game = game or registry.default_name()
        kwargs = dict(env_kwargs or {})
        if render_mode is not None:
            kwargs["render_mode"] = render_mode
        self.aec: AECEnv = registry.get(self.game).make_env(**kwargs)
        if agent is None:
            agent = self.aec.possible_agents[0]
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
        self._own_opponent = isinstance(opponent, str) and opponent == "random"
        self.opponent: Bot = self._opponent_of(opponent, kwargs.get("scenario"))
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

    def _opponent_of(self, opponent: Bot | str, scenario: Any) -> Bot:
        """The bot ``opponent`` names: itself, a RandomBot (reseeded at each reset) or the bot
        ``load_bot`` makes of a spec string for this game and ``scenario`` (seed 0): a game's
        own bot reads that scenario's observation, a policy must fit its sizes (ValueError)."""
        if isinstance(opponent, Bot):
            return opponent
        if not isinstance(opponent, str):
            raise TypeError(
                f"opponent must be a Bot (act, reset) or a bot spec such as 'random' or "
                f"'heuristic', got {opponent!r}"
            )
        if opponent == "random":
            return RandomBot()
        named = scenario if isinstance(scenario, str) else None
        bot = load_bot(opponent, self.game, seed=0, scenario=named)
        shown = named or registry.get(self.game).default_scenario
        for seat in self.aec.possible_agents:
            problem = None if seat == self.agent else misfit(bot, self.aec, seat, shown)
            if problem:
                raise ValueError(f"opponent {opponent!r}: {problem}")
        return bot

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
            view = partial(env_view, aec, seat)  # built only for a search bot, which asks
            aec.step(decide(self.opponent, obs["observation"], obs["action_mask"], view))
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
