"""One seat of many games as a ``gymnasium.vector.VectorEnv``, over the game's vector of games.

Vectorised single-agent libraries (anything that takes a ``gymnasium.vector.VectorEnv``) can then
train on a registered game at the speed of its game vector (the compiled core where the game has
one, ``GameSpec.make_vector_env``): every slot is a :class:`~reborn_env.wrappers.SingleAgentEnv`
of the same game, its other seats played by one batched bot for all slots at once
(:mod:`reborn_env.bots.batched`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..bots.batched import BatchedBot, RandomBatch, act_batch, batched_bot, vector_view
from ..core import registry
from ..core.aec_vector import MAX_SEED, WAIT
from ..core.errors import IllegalActionError
from ..core.rng import SplitMix64
from .single_agent import ILLEGAL_ACTION_MODES

BOT_STREAM = 0xB07_5EED_0F_5107  # slot i's bot seed: its root seed XOR this (another stream)


def slot_roots(seed: int | Sequence[int], num_envs: int) -> list[int]:
    """Each slot's seed generator state for ``reset(seed=...)``: an int ``s`` gives slot ``i``
    the ``i``-th output of SplitMix64(``s``), the game vector's own contract; a list gives slot
    ``i`` the first output of SplitMix64(``seed[i]``), so ``seed=[s]`` on one env is ``seed=s``.
    A ValueError says what is wrong with any other seed."""
    if isinstance(seed, np.ndarray):
        seed = seed.tolist()
    if isinstance(seed, bool | np.bool_ | str) or not isinstance(seed, int | np.integer | Sequence):
        raise ValueError(
            f"seed must be an integer in 0..{MAX_SEED}, or a list of {num_envs} of them "
            f"(one per env), got {seed!r}"
        )
    if not isinstance(seed, Sequence):
        root = SplitMix64(_seed_int(seed))
        return [root.next64() for _ in range(num_envs)]
    if len(seed) != num_envs:
        raise ValueError(f"seed: a list needs one seed per env ({num_envs}), got {len(seed)}")
    return [SplitMix64(_seed_int(s)).next64() for s in seed]


def _seed_int(value: Any) -> int:
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"each seed must be an integer in 0..{MAX_SEED}, got {value!r}")
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"each seed must be in 0..{MAX_SEED}, got {value}")
    return int(value)


class SingleAgentVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of the registered game ``game``, ``agent``'s seat in each; every
    other seat is played by ``opponent``, one batched bot for all slots.

    ``gymnasium.make_vec("reborn_env/<game>-v0", num_envs=N, agent=..., opponent=...)`` builds it
    (importing :mod:`reborn_env.envs` registers it). Each slot plays, step for step, what
    :class:`~reborn_env.wrappers.SingleAgentEnv` plays from the same game (the slot's game seed,
    the last output of its seed generator, :meth:`seed_state`) with the same opponent bot and
    actions (tests/core/test_gym_vector.py holds them equal; the two draw their games' seeds
    differently, so ``reset(seed=s)`` of each gives other games):

    * ``game``, ``agent``, ``env_kwargs`` as SingleAgentEnv's (``env_kwargs`` also go to the game
      vector: ``scenario``, ``max_steps``...); ``vector_options`` go to the game vector alone
      (Earth Reborn's ``{"num_threads": 2}``).
    * ``opponent``: a batched bot spec for :func:`~reborn_env.bots.batched.batched_bot`
      (``"random"``, the default: :class:`~reborn_env.bots.batched.RandomBatch`; ``"heuristic"``:
      the game's compiled batch where it registers one, Earth Reborn's; a policy file), made
      for ``env_kwargs``' scenario, or a :class:`~reborn_env.bots.batched.BatchedBot` of
      ``num_envs`` slots. As SingleAgentEnv's: the ``"random"`` batch is the env's own, made
      again at each seeded reset from the slots' seeds; any other spec is made once (slot ``i``
      seeded as ``reset(seed=0)`` would seed it) and a bot passed in is used as it is; slot
      ``i``'s bot is ``reset(i)`` at each of its new games (a scripted bot's generator then
      restarts, so its games replay from the seeds; a policy's sampling runs on).
    * Spaces, the Gymnasium way: ``single_observation_space`` is the seat's ``Box`` observation
      vector, ``single_action_space`` ``Discrete(n)``; ``observation_space`` and
      ``action_space`` are their batches (``Box`` [N, obs], ``MultiDiscrete([n] * N)``).
    * Infos, the Gymnasium vector way (a key per item, ``_key`` the envs that have it):
      ``infos["action_mask"]`` bool [N, n], True where legal (also :meth:`action_masks`), and
      ``infos["opponent_moves"]`` int [N], the opponent's decisions in the step's span.
    * ``step(actions)``: one action per slot, its agent's decision; then the opponent's decisions
      in every slot until each slot's agent decides again (slots where the agent is already to
      move wait, ``WAIT``, in the game vector's calls; the ``"random"`` opponent's are played in
      one call of the game vector's ``play_random`` where it has one, Earth Reborn's compiled
      core, the same moves from the same streams). The reward is the agent's, summed over
      the span; ``terminated`` / ``truncated`` are the game's end (+1 / -1 / 0) or its step
      limit, as SingleAgentEnv's.
    * Seeding as Gymnasium's: ``reset(seed=s)`` gives slot ``i`` the game vector's slot ``i``
      from seed ``s`` (SplitMix64, ``core.aec_vector``) and its bot a seed from the same root;
      unseeded resets and autoresets then continue each slot's sequence of games, so
      ``reset(seed=s)`` followed by the same actions replays exactly. ``reset(seed=[s0, ...])``
      seeds each slot on its own (slot ``i`` then plays the games slot 0 of ``reset(seed=s_i)``
      plays, against the same random opponent). The first reset without a seed draws one from
      ``np_random``. ``options`` are refused (there is no partial reset).

    Autoreset: the game vector (Earth Reborn's compiled ``vector_env``, or
    :class:`~reborn_env.core.aec_vector.AECVectorEnv`) replaces a finished game by the slot's next
    one inside the same ``step`` call that ends it. Of Gymnasium's modes
    (:class:`gymnasium.vector.AutoresetMode`), NEXT_STEP would return the final observation and
    reset on the next ``step``, ignoring its action; DISABLED would leave finished slots to the
    caller's ``reset(options={"reset_mask": ...})``; SAME_STEP returns the next game's first
    observation in the step that ended the last one. This env declares
    ``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``, the game vector's own behaviour, so
    no step is spent on a reset: the step that ends a slot's episode returns its reward and flags
    and already the first decision of its next game (after the opponent's moves that precede it;
    their rewards belong to no decision and are dropped, as SingleAgentEnv's ``reset`` drops
    them). ``infos["final_info"]`` (with ``infos["_final_info"]``, the slots that ended) holds
    the finished episode's last info: an all-False mask, its ``opponent_moves``, and
    ``illegal_action`` where one ended it; the top-level infos of those slots are the new game's.
    Gymnasium's ``infos["final_obs"]`` is not given: the game vector replaces the game inside its
    step, so the finished position is gone by the time this env sees the step's result (the
    reward of a finished game needs no bootstrap; a truncated one, at ``max_steps``, would).
    Gymnasium 1.2's ``RecordEpisodeStatistics`` vector wrapper reads the mode but counts as
    NEXT_STEP does (it drops the step after an end), so its returns and lengths miss each next
    episode's first step here; sum the rewards up to ``terminated | truncated`` instead.

    Illegal actions, consistent with SingleAgentEnv's default:

    * ``illegal_action="penalize"`` (default): a slot whose action is in the action space but
      not legal now (its mask False) ends its episode with reward -1 (``terminated``) and
      ``infos["final_info"]["illegal_action"]`` saying why; its game is abandoned and the slot
      starts its next game in the same step (PettingZoo's convention, as SingleAgentEnv's).
    * ``illegal_action="raise"``: :class:`~reborn_env.core.errors.IllegalActionError` naming the
      slot, the action and the legal ones, and nothing changes.

    In both modes a batch that is not ``num_envs`` integers of the action space (shape, dtype, a
    value outside ``0..n-1``, the game vector's ``WAIT`` included) is a ValueError saying what is
    allowed, and nothing changes.

    ```python
    import gymnasium
    import numpy as np

    import reborn_env.envs  # registers every game's env and vector env

    envs = gymnasium.make_vec("reborn_env/earth_reborn-v0", num_envs=8, opponent="heuristic")
    obs, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(100):  # a random legal action per slot, from the mask
        actions = [rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]]
        obs, rewards, terminated, truncated, infos = envs.step(np.array(actions))
    envs.close()
    ```
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 16,
        game: str | None = None,
        agent: str | None = None,
        opponent: BatchedBot | str = "random",
        env_kwargs: dict[str, Any] | None = None,
        vector_options: dict[str, Any] | None = None,
        illegal_action: str = "penalize",
        copy: bool = True,
    ) -> None:
        self.closed = True  # nothing to close until built (Gymnasium's __del__ closes)
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action {illegal_action!r}: use 'penalize' (that slot's episode ends "
                "with reward -1) or 'raise' (IllegalActionError, nothing changes)"
            )
        self.game = game or registry.default_name()
        spec = registry.get(self.game)
        self.env_kwargs = dict(env_kwargs or {})
        self.spare = spec.make_env(**self.env_kwargs)  # spaces, names, an abandoned slot's game
        agents = list(self.spare.possible_agents)
        self.agent = agents[0] if agent is None else agent
        if self.agent not in agents:
            raise ValueError(f"agent {self.agent!r} is not a seat of this env; seats: {agents}")
        space = self.spare.observation_space(self.agent)
        if not isinstance(space, gymnasium.spaces.Dict) or "observation" not in space.spaces:
            raise ValueError(f"{self.game} gives no action-mask observation: {space}")
        self.vector = spec.make_vector_env(num_envs, 0, **self.env_kwargs, **(vector_options or {}))
        self.num_envs = n = self.vector.num_envs
        self.seat = self.vector.agents.index(self.agent)
        self.n_actions = int(self.vector.n_actions)
        self.single_observation_space = space["observation"]
        self.single_action_space = gymnasium.spaces.Discrete(self.n_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.metadata = dict(self.metadata)
        self.illegal_action = illegal_action
        self.copy = copy
        self._own_opponent = isinstance(opponent, str) and opponent == "random"
        self.opponent: BatchedBot = self._opponent_of(opponent, slot_roots(0, n))
        self._rows = np.arange(n)
        self._everyone = np.ones(n, dtype=bool)
        self._actions = np.full(n, WAIT, dtype=np.int64)
        self._started = False
        self.closed = False

    # --- Gymnasium API --------------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if options:
            raise ValueError(
                f"reset(options=...) is not taken (every slot starts its next game), got {options}"
            )
        if seed is None and not self._started:
            seed = int(self.np_random.integers(2**63))
        if seed is not None:
            roots = slot_roots(seed, self.num_envs)
            if isinstance(seed, int | np.integer):
                super().reset(seed=int(seed))
            for i, root in enumerate(roots):
                self.vector.set_seed_state(i, root)
            if self._own_opponent:
                self.opponent = self._opponent_of("random", roots)
        self.vector.reset()
        self._started = True
        ended = self._everyone.copy()  # nothing decided yet: the opponent's rewards are dropped
        self._restart_bots(self._rows)
        span = self._play_opponents(np.zeros(self.num_envs), ended)
        infos = {
            "action_mask": self.action_masks(),
            "_action_mask": self._everyone.copy(),
            "opponent_moves": span["moves_after_end"],
            "_opponent_moves": self._everyone.copy(),
        }
        return self._observations(), infos

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        chosen = self._checked(actions)
        refusals = self._refusals(chosen)
        penalized = np.zeros(self.num_envs, dtype=bool)
        penalized[list(refusals)] = True
        vec = self.vector
        vec.step(np.where(penalized, WAIT, chosen) if refusals else chosen)
        reward = vec.rewards[:, self.seat].astype(np.float64)
        terminated, truncated = vec.terminated.copy(), vec.truncated.copy()
        if refusals:
            for i in refusals:
                self._abandon(i)
            reward[penalized], terminated[penalized] = -1.0, True
        ended = terminated | truncated
        self._restart_bots(np.flatnonzero(ended))
        span = self._play_opponents(reward, ended, terminated, truncated)
        infos = {
            "action_mask": self.action_masks(),
            "_action_mask": self._everyone.copy(),
            "opponent_moves": np.where(ended, span["moves_after_end"], span["moves"]),
            "_opponent_moves": self._everyone.copy(),
        }
        if ended.any():
            infos["final_info"] = self._final_info(ended, penalized, refusals, span["moves"])
            infos["_final_info"] = ended
        return self._observations(), reward, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """bool [N, n]: each slot's legal actions for its agent's decision now."""
        return self.vector.mask != 0

    def seed_state(self, i: int) -> int:
        """Slot ``i``'s seed generator state (the game vector's): the seed of the game it plays
        now was that generator's last output."""
        return int(self.vector.seed_state(i))

    def close_extras(self, **kwargs: Any) -> None:
        self.vector.close()
        self.spare.close()

    # --- Internals ------------------------------------------------------------------------------

    def _opponent_of(self, opponent: BatchedBot | str, roots: Sequence[int]) -> BatchedBot:
        """The batched bot ``opponent`` names, its slot ``i`` seeded from ``roots[i]``, or the
        BatchedBot passed in (``num_envs`` slots)."""
        if isinstance(opponent, str):
            scenario = self.env_kwargs.get("scenario")
            options = {"scenario": scenario} if isinstance(scenario, str) else {}
            seeds = [root ^ BOT_STREAM for root in roots]
            return batched_bot(self.game, opponent, seeds, **options)
        if not isinstance(opponent, BatchedBot):
            raise TypeError(
                "opponent must be a batched bot spec such as 'random' or 'heuristic', or a "
                f"BatchedBot (reset(i), act(slots, obs, mask)), got {opponent!r}"
            )
        slots = len(opponent) if hasattr(opponent, "__len__") else None  # a Bot has no len
        if slots != self.num_envs:
            raise ValueError(
                f"opponent must be a BatchedBot of {self.num_envs} slots (len), one per env; "
                f"got {opponent!r} of {slots} slots"
            )
        return opponent

    def _restart_bots(self, slots: np.ndarray) -> None:
        for i in slots.tolist():
            self.opponent.reset(i)

    def _play_opponents(
        self,
        reward: np.ndarray,
        ended: np.ndarray,
        terminated: np.ndarray | None = None,
        truncated: np.ndarray | None = None,
    ) -> dict[str, np.ndarray]:
        """The opponent's decisions in every slot until each slot's agent is to move. Rewards
        and moves go to a slot's episode until it ends (``ended``, updated, with the flags),
        then to the next game's start (moves counted apart, rewards dropped)."""
        n = self.num_envs
        span = {
            "reward": reward,
            "ended": ended,
            "moves": np.zeros(n, dtype=np.int64),
            "moves_at_end": np.zeros(n, dtype=np.int64),  # a slot's moves when it ended
            "terminated": np.zeros(n, dtype=bool) if terminated is None else terminated,
            "truncated": np.zeros(n, dtype=bool) if truncated is None else truncated,
        }
        ended_before = ended.copy()  # ended before any of these moves: all of them are after
        play_random = getattr(self.vector, "play_random", None)
        if not (
            type(self.opponent) is RandomBatch
            and play_random is not None
            and play_random(self.seat, self.opponent.state, span)
        ):
            self._play_opponent_turns(span)
        moves, moves_at_end = span["moves"], span["moves_at_end"]
        moves_at_end[ended_before] = 0
        within = np.where(ended, moves_at_end, moves)
        return {"moves": within, "moves_after_end": moves - within}

    def _play_opponent_turns(self, span: dict[str, np.ndarray]) -> None:
        """:meth:`_play_opponents`' decisions, a batch of the slots that wait for the opponent
        at a time (the game vector's ``play_random`` does them in one call where it can)."""
        vec, seat = self.vector, self.seat
        reward, ended, moves = span["reward"], span["ended"], span["moves"]
        any_ended = bool(ended.any())
        waiting = np.empty(self.num_envs, dtype=bool)
        while True:
            np.not_equal(vec.agent, seat, out=waiting)
            slots = np.flatnonzero(waiting)
            if not slots.size:
                break
            self._actions.fill(WAIT)
            self._actions[slots] = self._opponent_actions(slots)
            vec.step(self._actions)
            if any_ended:
                np.add(reward, vec.rewards[:, seat], out=reward, where=~ended)
            else:
                reward += vec.rewards[:, seat]
            moves += waiting
            if vec.terminated.any() or vec.truncated.any():
                finished = vec.terminated | vec.truncated
                first = finished & ~ended
                span["moves_at_end"][first] = moves[first]
                span["terminated"] |= vec.terminated & first
                span["truncated"] |= vec.truncated & first
                ended |= finished
                any_ended = True
                self._restart_bots(np.flatnonzero(finished))

    def _opponent_actions(self, slots: np.ndarray) -> np.ndarray:
        """The opponent's actions in ``slots`` (int64, in range, each one's seat to move): the
        random batch draws from the vector's masks as they are (it reads no observation), any
        other bot is asked through :func:`~reborn_env.bots.batched.act_batch`."""
        vec = self.vector
        if type(self.opponent) is RandomBatch:
            return self.opponent.draw(slots, vec.mask[slots] != 0)
        return act_batch(self.opponent, slots, vec.obs[slots], vec.mask[slots], self._view)

    def _refusals(self, chosen: np.ndarray) -> dict[int, str]:
        """Why each slot's action is not legal now, by slot (none: an empty dict); in
        ``"raise"`` mode the first is an IllegalActionError instead, nothing changed."""
        illegal = np.flatnonzero(self.vector.mask[self._rows, chosen] == 0).tolist()
        refusals = {i: self._refusal(i, int(chosen[i])) for i in illegal}
        if refusals and self.illegal_action == "raise":
            raise IllegalActionError(refusals[illegal[0]])
        return refusals

    def _final_info(
        self, ended: np.ndarray, penalized: np.ndarray, refusals: dict[int, str], moves: np.ndarray
    ) -> dict[str, np.ndarray]:
        """The last info of each episode that ended (SingleAgentEnv's, in Gymnasium's vector
        layout): an all-False mask, the opponent's moves, or why an illegal action ended it."""
        played = ended & ~penalized
        final = {
            "action_mask": np.zeros((self.num_envs, self.n_actions), dtype=bool),
            "_action_mask": ended.copy(),
            "opponent_moves": np.where(played, moves, 0),
            "_opponent_moves": played,
        }
        if refusals:
            messages = np.full(self.num_envs, None, dtype=object)
            for i, problem in refusals.items():
                messages[i] = problem
            final["illegal_action"], final["_illegal_action"] = messages, penalized
        return final

    def _view(self, i: int) -> Any:
        """Slot ``i``'s public view for its seat to move (a bot that sees the view asks)."""
        return vector_view(self.vector, int(self.vector.agent[i]), i)

    def _abandon(self, i: int) -> None:
        """Slot ``i`` starts its next game now (its seed generator's next output), as the game
        vector starts one when a game ends."""
        generator = SplitMix64(self.vector.seed_state(i))
        self.spare.reset(seed=generator.next64())
        self.vector.set_seed_state(i, generator.state)
        self.vector.set_state(i, self.spare.unwrapped.get_state())

    def _checked(self, actions: Any) -> np.ndarray:
        """``actions`` as int64 [N] of the action space, or a ValueError saying what is allowed."""
        chosen = np.asarray(actions)
        shape = (self.num_envs,)
        if chosen.shape != shape or chosen.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers (shape {shape}) in "
                f"0..{self.n_actions - 1}, got {chosen.dtype.name} of shape {chosen.shape}"
            )
        outside = (chosen < 0) | (chosen >= self.n_actions)
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise ValueError(
                f"slot {i}: action {int(chosen[i])} is outside the action space "
                f"0..{self.n_actions - 1} (the legal ones are in infos['action_mask'])"
            )
        return chosen.astype(np.int64)

    def _refusal(self, i: int, action: int) -> str:
        legal = ", ".join(self._name(int(a)) for a in np.flatnonzero(self.vector.mask[i]))
        return (
            f"slot {i}: {self._name(action)} is not legal for {self.agent} now; "
            f"legal actions: {legal}"
        )

    def _name(self, action: int) -> str:
        namer = getattr(self.spare.unwrapped, "action_name", None)
        return str(action) if namer is None else f"{action} ({namer(action)})"

    def _observations(self) -> np.ndarray:
        dtype = self.single_observation_space.dtype
        if self.copy or self.vector.obs.dtype != dtype:
            return np.array(self.vector.obs, dtype=dtype)
        return self.vector.obs
