"""The one PettingZoo AEC environment, written once over the game contract (:mod:`.contract`).

Every game's environment is this class given the game's :class:`~.contract.Rules`: the agents and
masked spaces, ``reset`` from a seed or a position, the mask (exactly the legal actions of the
agent to move, zeros for the others), rewards (the game's shaping, then its final rewards),
termination and truncation, infos, positions, rendering by mode, and the two ways of refusing an
illegal action (ER-ENV-8, HV-API-5): raise with nothing changed, or PettingZoo's convention of
ending the game with -1 for the offender. PettingZoo's standard wrappers would only repeat these
checks and cost 2-4x per step on games this size, so ``env()`` is this class itself.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .contract import RUNNING, TRUNCATED, Match, Peeks, Plays, Rules, WritesArrays
from .errors import IllegalActionError

ILLEGAL_ACTION_MODES = ("raise", "penalize")
MAX_SEED = 2**64 - 1  # a seed is the whole state of the 64-bit generator (core.rng)
RENDER_MODES = ["human", "ansi", "rgb_array"]


def _atom(value: Any) -> bool:
    """Whether ``value`` is a number, a string or None: a value, never an object to share."""
    return value is None or isinstance(value, int | float | str)


class GameEnv(AECEnv):
    """An AEC environment around one match of the game ``rules`` describes."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(
        self, rules: Rules, render_mode: str | None = None, illegal_action: str = "raise"
    ) -> None:
        super().__init__()
        self._set_modes(render_mode, illegal_action)
        self.rules = rules
        self.possible_agents = list(rules.agents)
        self.agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_box = gymnasium.spaces.Box(0.0, 1.0, (rules.obs_size,), np.float32)
        mask_box = gymnasium.spaces.Box(0, 1, (rules.n_actions,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": obs_box, "action_mask": mask_box})
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(rules.n_actions) for a in self.possible_agents
        }
        self._obs_size, self._n_actions = rules.obs_size, rules.n_actions
        self.match: Match | None = None
        self._np_random: np.random.Generator | None = None  # the seeds of unseeded resets
        self._writes_arrays = self._plays = False  # the match's optional methods (_start)

    # --- PettingZoo API -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new match from ``seed``; ``options={"position": dict}`` restores a saved position
        (:meth:`get_state`); a game may take options of its own; others are ignored, as
        PettingZoo's api_test expects.

        Seeding is Gymnasium's: ``seed`` also seeds :attr:`np_random`, and a reset without one
        plays the game of the next seed drawn from it, so a run seeded once replays exactly
        however often its library resets (OS entropy seeds it if no reset was ever seeded)."""
        options = self._options_of(options)
        seed = self._seed_of(seed)
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        if options.get("position") is not None:
            self._start(self.rules.from_position(options["position"], options))
        else:
            self._start(self.rules.new_match(self._next_seed() if seed is None else seed, options))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and its mask: the legal actions if it is to move, else zeros.

        Both arrays are new at every call, as PettingZoo's own envs give them: a match that
        writes into arrays (:class:`~.contract.WritesArrays`) fills them, any other gives them
        through ``observe`` and ``legal_actions``; the values are the same."""
        match = self.match
        if match is None:
            match = self._require_match()
        seat = self.agent_index[agent]
        mask = np.zeros(self._n_actions, np.int8)
        if self._writes_arrays:
            observation = np.empty(self._obs_size, np.float32)
            match.observe_into(seat, observation, mask)
            return {"observation": observation, "action_mask": mask}
        if match.to_move() == seat:
            legal = match.legal_actions()
            if legal:
                mask[list(legal)] = 1
        return {"observation": match.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        match = self.match
        agent = None if match is None else self.agent_selection
        if (
            type(action) is not int  # a plain int (not a bool) needs none of the checks' work
            or match is None
            or not self.agents
            or self.terminations[agent]
            or self.truncations[agent]
        ):
            checked = self._action_of_step(action)
            if checked is None:
                return
            agent, action = checked
            match = self._require_match()
        try:
            if self._plays:
                status, seat, shaped, tells = match.play(action)
            else:
                status, seat, shaped, tells = self._play(match, action)
        except IllegalActionError as err:
            self._refuse(agent, str(err))
            return
        rewards, cumulative = self.rewards, self._cumulative_rewards
        cumulative[agent] = 0.0
        for a in rewards:  # PettingZoo's _clear_rewards, inline
            rewards[a] = 0
        if shaped is not None:
            for a, i in self.agent_index.items():
                rewards[a] += shaped[i]
        if status != RUNNING:
            self._finish()
        elif seat is not None:
            self.agent_selection = self.possible_agents[seat]
        if tells:
            self._update_infos(match)
        for a, reward in rewards.items():  # PettingZoo's _accumulate_rewards, inline
            cumulative[a] += reward
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        """The public picture: text (``ansi``, printed in ``human`` mode) or an RGB array."""
        match = self._require_match()
        if self.render_mode == "ansi":
            return match.render_ansi()
        if self.render_mode == "rgb_array":
            return match.render_rgb()
        if self.render_mode == "human":
            print(match.render_ansi())
        else:
            gymnasium.logger.warn("render() called without a render_mode; pass one to env()")
        return None

    def close(self) -> None:
        """Nothing to release (no window is opened)."""

    @property
    def np_random(self) -> np.random.Generator:
        """The generator of the seeds of unseeded resets (Gymnasium's ``np_random``): seeded by
        ``reset(seed=...)``, else from OS entropy when first needed."""
        if self._np_random is None:
            self._np_random, _ = seeding.np_random()
        return self._np_random

    # --- Copies ---------------------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> GameEnv:
        """An independent environment that plays on exactly as this one would (the same
        observations, rewards, ends and infos for the same actions, the same later unseeded
        resets): everything is copied, the match by its own deep copy, except the rules, the
        game's configuration that nothing in a game changes, and what they hold (a scenario, an
        observer), which the copy shares."""
        for held in (self.rules, *getattr(self.rules, "__dict__", {}).values()):
            memo.setdefault(id(held), held)
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        clone.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return clone

    def __getstate__(self) -> dict[str, Any]:
        """What ``pickle`` keeps: everything, the rules and the match by their own pickling, but
        the attributes that are objects the rules hold (a game's ``scenario``, ``observer`` ...),
        which only name them and are taken from the unpickled rules again."""
        held = {id(v): k for k, v in getattr(self.rules, "__dict__", {}).items() if not _atom(v)}
        state = {k: v for k, v in self.__dict__.items() if k == "rules" or id(v) not in held}
        state["_rules_held"] = {
            k: held[id(v)] for k, v in self.__dict__.items() if k != "rules" and id(v) in held
        }
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The environment :meth:`__getstate__` kept, its rules' objects named again."""
        state = dict(state)
        rules_held = state.pop("_rules_held", {})
        self.__dict__.update(state)
        for name, held in rules_held.items():
            setattr(self, name, getattr(self.rules, held))

    def __copy__(self) -> GameEnv:
        """The deep copy: a shallow one would share the match, and a step of either would leave
        the other's agents, rewards and selection out of step with it."""
        return copy.deepcopy(self)

    # --- Positions and names --------------------------------------------------------------------

    @property
    def observation_layout(self) -> Any:
        """The named fields of the observation vector (``core.observation_views.Layout``: offsets,
        shapes, labels, scales), or None when the game's rules declare none."""
        return getattr(getattr(self.rules, "observer", None), "layout", None)

    def get_state(self) -> dict[str, Any]:
        """The full position as JSON-ready data (the game's position format)."""
        return self._require_match().to_position()

    def set_state(self, position: dict[str, Any]) -> None:
        """Restore a position; on a bad one PositionError names the field and nothing changes."""
        self._start(self.rules.from_position(position))

    def action_name(self, action: int) -> str:
        """Readable name of an action integer, e.g. ``STEP(N)``."""
        return self.rules.action_name(int(action))

    def action_from_name(self, name: str) -> int:
        """The action integer of a readable name (inverse of :meth:`action_name`)."""
        return self.rules.parse_action(name)

    @property
    def game(self) -> Any:
        """The rules engine's own game object of the match (its state), for game-specific code
        that may alter it; code that only reads takes :meth:`peek`."""
        return None if self.match is None else self.match.state

    def peek(self) -> Any:
        """The rules engine's state of the match, to read and not to change: the match's
        ``peek()`` (:class:`~.contract.Peeks`: a copy where the game plays in a compiled core,
        which then plays on) or, for a match without one, :attr:`game`."""
        match = self.match
        if match is None:
            return None
        return match.peek() if isinstance(match, Peeks) else match.state

    # --- Internals ------------------------------------------------------------------------------

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

    def _start(self, match: Match) -> None:
        """A new episode around ``match`` (a new game or a restored position): every agent back,
        no reward, the agent to move selected, and a finished match finished at once."""
        self.match = match
        # the optional methods, on the match's class (an isinstance check of a Protocol looks
        # at the instance too, and costs tens of microseconds at every reset)
        self._writes_arrays = issubclass(type(match), WritesArrays)
        self._plays = issubclass(type(match), Plays)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._sync_selection()
        if match.status() != RUNNING:
            self._finish()
        self._accumulate_rewards()
        self._update_infos(match)

    def _play(
        self, match: Match, action: int
    ) -> tuple[str, int | None, Sequence[float] | None, bool]:
        """What :meth:`~.contract.Plays.play` gives, for a match without it: ``apply``, then
        (status, the seat to move while it runs, shaping, True: the match may tell infos)."""
        match.apply(action)
        shaped, status = match.shaped_rewards(), match.status()
        return status, match.to_move() if status == RUNNING else None, shaped, True

    def _sync_selection(self) -> None:
        seat = self._require_match().to_move()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def _finish(self) -> None:
        """The end: each agent's final reward, everyone terminated (or truncated)."""
        match = self._require_match()
        final = match.final_rewards()
        for a, i in self.agent_index.items():
            if a in self.rewards:
                self.rewards[a] += final[i]
        ended = dict.fromkeys(self.agents, True)
        if match.status() == TRUNCATED:
            self.truncations = ended
        else:
            self.terminations = ended

    def _update_infos(self, match: Match) -> None:
        """Each agent's infos: what ``match`` tells it, on top of what it was told before."""
        for a in self.agents:
            told = match.infos(self.agent_index[a])
            if told:
                self.infos[a] = {**self.infos.get(a, {}), **told}

    def _require_match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _next_seed(self) -> int:
        """The seed of an unseeded reset's game: the next draw of :attr:`np_random`."""
        return int(self.np_random.integers(MAX_SEED, endpoint=True, dtype=np.uint64))

    @staticmethod
    def _seed_of(seed: Any) -> int | None:
        """``seed`` checked (an integer in 0..2**64-1, as the generator's state), or None; the
        check is Gymnasium's (no floats, strings, booleans or negatives), and no two seeds give
        the same game."""
        if seed is None:
            return None
        if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer):
            raise ValueError(f"seed must be an integer in 0..{MAX_SEED} or None, got {seed!r}")
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be in 0..{MAX_SEED} (2**64-1) or None, got {seed}")
        return int(seed)

    @staticmethod
    def _options_of(options: Any) -> dict[str, Any]:
        """``reset``'s options: a dict or None."""
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise ValueError(f"reset options must be a dict or None, got {type(options).__name__}")
        return options

    def _action_of_step(self, action: Any) -> tuple[str, int] | None:
        """The deciding agent and ``action`` as an int, or None once the step is dealt with.

        A terminated agent's step removes it (PettingZoo's dead step); a step after every agent
        has left is an error; an action that is not an integer (``True`` included) is refused
        naming the decision and its legal actions. Nothing is changed before the action is known
        to be an integer, so a refusal in ``raise`` mode keeps even the pending rewards.
        """
        match = self._require_match()
        if not self.agents:
            raise RuntimeError(
                "step() called after the game ended and every agent has left; call reset()"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            self._refuse(
                agent,
                f"action must be an integer in 0..{self.rules.n_actions - 1}, got {action!r}; "
                f"{match.describe()}",
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
