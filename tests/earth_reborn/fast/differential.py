"""The differential harness: a backend of Earth Reborn against the reference engine.

The Python engine (``rules/engine.py``) is the oracle. Each function here plays seeded games on a
backend and on the oracle side by side and compares, at every decision, everything a caller can
see: the position (``positions.state_to_dict``), the legal actions and the mask, both seats'
observations, the status, and where the level has them the rewards and the terminal flags. Now and
then it tries illegal actions (refused on both sides with the same words, nothing changed) and
crosses over: a position of one side is set into the other and both play on.

Three levels, as the backends are driven:

- :func:`play_slot_game`: one slot of a ``Games`` object (the compiled core's class, or any class
  with its API, docs: the core's contract) against ``rules.engine`` itself;
- :func:`play_aec_game`: ``env(backend=...)`` against ``env(backend="python")``, AEC step by step;
- :func:`play_vector`: ``vector_env`` against N engine matches seeded as the contract says.

A mismatch is an AssertionError naming the game, the decision and what differs. The tests in this
folder and ``benchmarks/bench_fast.py differential`` drive these functions.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from reborn_env.core.contract import RUNNING, TERMINATED, TRUNCATED
from reborn_env.core.errors import IllegalActionError
from reborn_env.core.rng import SplitMix64
from reborn_env.games.earth_reborn import positions
from reborn_env.games.earth_reborn.bots import EarthRebornHeuristicBot
from reborn_env.games.earth_reborn.fuzz_policies import busy_policy
from reborn_env.games.earth_reborn.match import EarthRebornMatch, EarthRebornRules
from reborn_env.games.earth_reborn.rules import engine
from reborn_env.games.earth_reborn.rules.state import GameState
from tests.conformance.harness import snapshot

PLAYERS = ("random", "busy", "heuristic")
NOT_ACTIONS: list[Any] = [True, 1.5, "PASS", None]  # refused by the env before the rules see them
SLOTS = 3  # slots of the Games object a slot game is played in (crossings move between them)


@dataclass
class Tally:
    """What a differential run did: games, decisions compared, illegal actions refused,
    crossings between the backends, and the ends of the games by kind."""

    games: int = 0
    decisions: int = 0
    illegal: int = 0
    crossings: int = 0
    ends: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.illegal += other.illegal
        self.crossings += other.crossings
        for end, count in other.ends.items():
            self.ends[end] = self.ends.get(end, 0) + count

    def ended(self, how: str) -> None:
        self.games += 1
        self.ends[how] = self.ends.get(how, 0) + 1


# --- Players: the same choice on both sides -------------------------------------------------------


Chooser = Callable[[np.ndarray, np.ndarray, int, np.random.Generator], int]
"""(observation of the seat to move, its mask, the seat, rng) -> action."""


def reference_rules(**options: Any) -> EarthRebornRules:
    """The oracle's rules: ``options`` as env() takes them, on the reference engine."""
    return EarthRebornRules(backend="python", **options)


def make_chooser(player: str, rules: EarthRebornRules, seed: int) -> Chooser:
    """``random`` (uniform legal), ``busy`` (fuzz_policies.busy_policy) or ``heuristic``
    (bots.EarthRebornHeuristicBot, one per seat): each decides from the seat's observation and
    mask only, so both backends are given the same action."""
    if player == "random":
        return lambda obs, mask, seat, rng: int(rng.choice(np.flatnonzero(mask)))
    if player == "busy":
        codec_holder = SimpleNamespace(unwrapped=SimpleNamespace(codec=rules.codec))
        return lambda obs, mask, seat, rng: busy_policy(rng, mask, codec_holder)
    if player == "heuristic":
        bots = [EarthRebornHeuristicBot(rules.scenario.name, seed=seed * 2 + s) for s in (0, 1)]
        return lambda obs, mask, seat, rng: bots[seat].act(obs, mask)
    raise ValueError(f"player must be one of {', '.join(PLAYERS)}, got {player!r}")


def raised(kind: type[Exception], call: Callable[[], Any]) -> Exception:
    """The ``kind`` exception ``call()`` raises; an AssertionError if it raises none (the
    harness runs outside pytest too, in the benchmark)."""
    try:
        call()
    except kind as err:
        return err
    raise AssertionError(f"expected {kind.__name__}, nothing was raised")


def mask_of(legal: list[int], n_actions: int) -> np.ndarray:
    mask = np.zeros(n_actions, dtype=np.int8)
    mask[legal] = 1
    return mask


def illegal_actions(legal: list[int], n_actions: int, rng: np.random.Generator) -> list[int]:
    """A few actions the decision refuses: unlisted integers of the action space, and numbers
    outside it (ER-ENV-8)."""
    refused = np.setdiff1d(np.arange(n_actions), legal)
    inside = [int(a) for a in rng.choice(refused, size=min(3, len(refused)), replace=False)]
    return inside + [-1, n_actions, int(rng.integers(n_actions + 1, 2**31))]


# --- Level 1: a Games slot against the engine ---------------------------------------------------


def new_games(games_class: type, rules: EarthRebornRules, n: int, seed: int) -> Any:
    """A ``Games`` object of ``n`` slots for ``rules`` (its scenario, codec, layout, options)."""
    return games_class(
        rules.scenario,
        rules.codec,
        rules.observer.layout,
        n,
        rules.max_steps,
        rules.mp_shaping,
        seed,
    )


def status_of(state: GameState) -> tuple:
    """The reference's ``Games.status`` tuple: (decider, active, winner, steps, mp0, mp1)."""
    return (state.decider, state.active, state.winner, state.steps, state.mp[0], state.mp[1])


def compare_slot(games: Any, i: int, state: GameState, rules: EarthRebornRules, where: str) -> None:
    """Slot ``i`` of ``games`` is the reference ``state``: position, status, legal set, mask and
    both seats' observations, byte for byte."""
    assert positions.state_to_dict(games.dump(i)) == positions.state_to_dict(state), (
        f"{where}: the positions differ"
    )
    assert tuple(games.status(i)) == status_of(state), f"{where}: the status differs"
    legal = engine.legal_actions(state)
    assert list(games.legal(i)) == legal, f"{where}: the legal actions differ"
    mask = np.full(rules.n_actions, 7, dtype=np.int8)
    games.mask(i, mask)
    assert mask.tobytes() == mask_of(legal, rules.n_actions).tobytes(), f"{where}: masks differ"
    obs = np.full(rules.obs_size, np.nan, dtype=np.float32)
    for seat in (0, 1):
        games.observe(i, seat, obs)
        expected = rules.observer.observe(state, seat)
        assert obs.tobytes() == expected.tobytes(), f"{where}: seat {seat}'s observations differ"


def refuse_illegal_in_slot(
    games: Any, i: int, state: GameState, rng: np.random.Generator, where: str
) -> int:
    """Illegal actions are refused by the slot (False) and by the engine (IllegalActionError),
    and neither changes (ER-ENV-8); how many were tried."""
    before = positions.state_to_dict(state)
    tried = illegal_actions(engine.legal_actions(state), games.n_actions, rng)
    for action in tried:
        assert games.apply(i, action) is False, f"{where}: illegal action {action} was applied"
        raised(IllegalActionError, lambda action=action: engine.apply_action(state, action))
    assert positions.state_to_dict(games.dump(i)) == before, f"{where}: a refusal changed the slot"
    assert positions.state_to_dict(state) == before, f"{where}: a refusal changed the reference"
    return len(tried)


def play_slot_game(
    games_class: type,
    rules: EarthRebornRules,
    seed: int,
    player: str,
    illegal_rate: float = 0.05,
    cross_rate: float = 0.02,
) -> Tally:
    """One seeded game on a slot of ``games_class`` and on the engine, compared at every
    decision until the rules end it or ``rules.max_steps`` (ER-ENV-9) is reached; illegal actions
    tried at a share ``illegal_rate`` of decisions, crossings at ``cross_rate``: the reference
    position loaded into another slot (``load``), or the slot's ``dump`` taken as the reference,
    and play goes on from there."""
    tally = Tally()
    rng = np.random.default_rng(seed)
    games = new_games(games_class, rules, SLOTS, seed)
    slot = seed % SLOTS
    games.new_game(slot, seed)
    state = engine.new_game(rules.scenario, seed)
    choose = make_chooser(player, rules, seed)
    while True:
        where = f"{player} game {seed} ({rules.scenario.name}), decision {state.steps}"
        compare_slot(games, slot, state, rules, where)
        tally.decisions += 1
        if state.winner is not None or state.steps >= rules.max_steps:
            break
        if rng.random() < illegal_rate:
            tally.illegal += refuse_illegal_in_slot(games, slot, state, rng, where)
        if rng.random() < cross_rate:
            slot, state = cross_slot(games, slot, state, rules, rng)
            tally.crossings += 1
            compare_slot(games, slot, state, rules, f"{where}, after a crossing")
        legal = engine.legal_actions(state)
        seat = state.decider
        action = choose(
            rules.observer.observe(state, seat), mask_of(legal, rules.n_actions), seat, rng
        )
        assert games.apply(slot, action) is True, f"{where}: legal action {action} was refused"
        engine.apply_action(state, action)
    tally.ended(
        "won" if state.winner in (0, 1) else "drawn" if state.winner == -1 else "step limit"
    )
    return tally


def cross_slot(
    games: Any, slot: int, state: GameState, rules: EarthRebornRules, rng: np.random.Generator
) -> tuple[int, GameState]:
    """A crossing: the reference position (through JSON) into another slot, or the slot's
    ``dump`` as the reference from now on; the slot and the reference state to play on."""
    if rng.random() < 0.5:
        target = (slot + 1 + int(rng.integers(SLOTS - 1))) % SLOTS
        position = json.loads(json.dumps(positions.state_to_dict(state)))
        games.load(target, positions.state_from_dict(position, rules.scenario))
        return target, state
    return slot, games.dump(slot)


# --- Level 2: the AEC environment on two backends -------------------------------------------------


def aec_view(env: Any) -> dict[str, Any]:
    """Everything an AEC caller sees of ``env``, and its position."""
    return {**snapshot(env), "last": copy.deepcopy(_last(env)) if env.agents else None}


def _last(env: Any) -> tuple:
    obs, reward, terminated, truncated, info = env.last()
    return (
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        reward,
        terminated,
        truncated,
        info,
    )


def on_its_backend(env: Any) -> bool:
    """The env's match still plays on its backend: a fast match hands its game to the reference
    engine for good once its ``state`` is read (fast/match.py), which would make the comparison
    reference against reference."""
    return getattr(env.unwrapped.match, "_reference", None) is None


def refused_message(env: Any, action: Any) -> str:
    """The IllegalActionError text ``env.step(action)`` raises."""
    return str(raised(IllegalActionError, lambda: env.step(action)))


def play_aec_game(
    make_env: Callable[[str], Any],
    backend: str,
    seed: int,
    player: str,
    illegal_rate: float = 0.05,
    cross_rate: float = 0.02,
) -> Tally:
    """One seeded game of ``make_env(backend)`` and ``make_env("python")`` in lockstep: at every
    AEC step the same view (position, agents, rewards, flags, infos, both observations and masks);
    illegal actions refused with the same words and nothing changed (ER-ENV-8); crossings set one
    side's position into both (``set_state``), which then play on."""
    tally = Tally()
    env, ref = make_env(backend), make_env("python")
    env.reset(seed=seed)
    ref.reset(seed=seed)
    rules = ref.unwrapped.rules
    rng = np.random.default_rng(seed)
    choose = make_chooser(player, rules, seed)
    for step, agent in enumerate(ref.agent_iter()):
        where = f"{player} AEC game {seed} on {backend}, step {step}"
        view = aec_view(ref)
        assert aec_view(env) == view, f"{where}: the environments differ"
        obs, _, terminated, truncated, _ = ref.last()
        if terminated or truncated:
            env.step(None)
            ref.step(None)
            continue
        tally.decisions += 1
        mask = obs["action_mask"]
        if rng.random() < illegal_rate:
            legal = [int(a) for a in np.flatnonzero(mask)]
            for action in illegal_actions(legal, rules.n_actions, rng) + NOT_ACTIONS:
                assert refused_message(env, action) == refused_message(ref, action), (
                    f"{where}: the refusals of {action!r} differ"
                )
                tally.illegal += 1
            assert aec_view(env) == view, f"{where}: a refusal changed the environment"
        if rng.random() < cross_rate:
            source = env if rng.random() < 0.5 else ref
            position = json.loads(json.dumps(source.unwrapped.get_state()))
            env.unwrapped.set_state(copy.deepcopy(position))
            ref.unwrapped.set_state(position)
            tally.crossings += 1
            assert aec_view(env) == aec_view(ref), f"{where}: differ after a crossing"
            obs, *_ = ref.last()
            agent, mask = ref.agent_selection, obs["action_mask"]
        seat = ref.agent_index[agent]
        action = choose(obs["observation"], mask, seat, rng)
        env.step(action)
        ref.step(action)
    assert aec_view(env) == aec_view(ref), f"{player} AEC game {seed}: differ at the end"
    assert on_its_backend(env), f"{player} AEC game {seed}: the {backend} match left its core"
    match = ref.unwrapped.match
    tally.ended({TERMINATED: "won or drawn", TRUNCATED: "step limit"}.get(match.status(), "?"))
    return tally


# --- Level 3: the vector environment against N engine matches -------------------------------------


class VectorOracle:
    """``num_envs`` reference matches seeded as the contract's Seeds section says: slot i's
    generator is SplitMix64(s_i), s_i the i-th output of SplitMix64(seed), and each new game of a
    slot takes that generator's next output as its engine seed."""

    def __init__(self, rules: EarthRebornRules, num_envs: int, seed: int) -> None:
        self.rules = rules
        top = SplitMix64(seed)
        self.generators = [SplitMix64(top.next64()) for _ in range(num_envs)]
        self.matches = [self._new(i) for i in range(num_envs)]

    def _new(self, i: int) -> EarthRebornMatch:
        return self.rules.new_match(self.generators[i].next64(), {})

    def decision(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """obs (of the seat to move), mask and agent of every slot, as the vector returns them."""
        rules = self.rules
        seats = [m.to_move() for m in self.matches]
        obs = np.stack([m.observe(s) for m, s in zip(self.matches, seats, strict=True)])
        mask = np.stack([mask_of(list(m.legal_actions()), rules.n_actions) for m in self.matches])
        return obs.astype(np.float32), mask, np.array(seats, dtype=np.int8)

    def step(self, actions: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """rewards [N, 2] float32 (GameEnv's for this step), terminated, truncated; a finished
        game is replaced by its slot's next one."""
        n = len(self.matches)
        rewards = np.zeros((n, 2), dtype=np.float32)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        for i, (match, action) in enumerate(zip(self.matches, actions, strict=True)):
            match.apply(action)
            reward = [0.0, 0.0]
            shaped = match.shaped_rewards()
            if shaped is not None:
                reward = [reward[p] + shaped[p] for p in (0, 1)]
            status = match.status()
            if status != RUNNING:
                final = match.final_rewards()
                reward = [reward[p] + final[p] for p in (0, 1)]
                terminated[i], truncated[i] = status == TERMINATED, status == TRUNCATED
                self.matches[i] = self._new(i)
            rewards[i] = reward
        return rewards, terminated, truncated


def compare_vector_decision(
    venv: Any, got: tuple, oracle: VectorOracle, where: str, check_positions: bool = True
) -> None:
    """obs, mask and agent of every slot as the oracle's; every slot's position too."""
    for name, mine, theirs in zip(("obs", "mask", "agent"), got, oracle.decision(), strict=True):
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape, f"{where}: {name} type"
        if mine.tobytes() != theirs.tobytes():
            slots = [i for i in range(len(mine)) if mine[i].tobytes() != theirs[i].tobytes()]
            raise AssertionError(f"{where}: {name} differs in slots {slots[:10]}")
    if check_positions:
        for i, match in enumerate(oracle.matches):
            assert venv.get_state(i) == match.to_position(), f"{where}: slot {i}'s position"


def play_vector(
    make_vector: Callable[..., Any],
    rules: EarthRebornRules,
    num_envs: int,
    seed: int,
    steps: int,
    num_threads: int = 1,
    player: str = "random",
    illegal_rate: float = 0.03,
    cross_rate: float = 0.03,
) -> Tally:
    """``steps`` vector steps of ``make_vector(num_envs=, seed=, num_threads=)`` against the
    oracle: rewards, flags, every slot's next decision and position; now and then a step with
    one illegal action (ValueError naming the slot, nothing changed) and a crossing
    (``set_state`` of a slot to a position of another slot, the core's or the reference's,
    through JSON)."""
    tally = Tally()
    venv = make_vector(num_envs=num_envs, seed=seed, num_threads=num_threads)
    oracle = VectorOracle(rules, num_envs, seed)
    rng = np.random.default_rng(seed)
    choose = make_chooser(player, rules, seed)
    got = venv.reset()
    compare_vector_decision(venv, got, oracle, f"vector seed {seed}, reset")
    for step in range(steps):
        where = f"vector seed {seed} ({num_envs} envs, {num_threads} threads), step {step}"
        obs, mask, agent = oracle.decision()
        actions = np.array(
            [choose(obs[i], mask[i], int(agent[i]), rng) for i in range(num_envs)], dtype=np.int64
        )
        if rng.random() < illegal_rate:
            tally.illegal += refuse_illegal_in_vector(venv, oracle, actions, rng, where)
        if rng.random() < cross_rate:
            source, target = (int(x) for x in rng.integers(num_envs, size=2))
            either = venv.get_state(source) if rng.random() < 0.5 else None
            position = json.loads(json.dumps(either or oracle.matches[source].to_position()))
            venv.set_state(target, copy.deepcopy(position))
            oracle.matches[target] = rules.from_position(position)
            tally.crossings += 1
            obs, mask, agent = oracle.decision()
            actions[target] = choose(obs[target], mask[target], int(agent[target]), rng)
        *decision, rewards, terminated, truncated = venv.step(actions)
        expected = oracle.step([int(a) for a in actions])
        for name, mine, theirs in zip(
            ("rewards", "terminated", "truncated"),
            (rewards, terminated, truncated),
            expected,
            strict=True,
        ):
            assert mine.dtype == theirs.dtype, (
                f"{where}: {name} is {mine.dtype}, not {theirs.dtype}"
            )
            assert mine.tobytes() == theirs.tobytes(), f"{where}: {name} {mine} != {theirs}"
        for i in np.flatnonzero(terminated | truncated):
            tally.ended("terminated" if terminated[i] else "truncated")
        compare_vector_decision(venv, tuple(decision), oracle, where, check_positions=step % 4 == 0)
        tally.decisions += num_envs
    return tally


def refuse_illegal_in_vector(
    venv: Any, oracle: VectorOracle, actions: np.ndarray, rng: np.random.Generator, where: str
) -> int:
    """A step with one slot's action illegal raises ValueError naming that slot and changes no
    slot (every position as before)."""
    i = int(rng.integers(len(actions)))
    legal = list(oracle.matches[i].legal_actions())
    bad = actions.copy()
    refused_here = [
        -2 if a == -1 else a for a in illegal_actions(legal, oracle.rules.n_actions, rng)
    ]
    bad[i] = refused_here[int(rng.integers(4))]  # -1 is the vector's WAIT, not a refusal
    before = [venv.get_state(j) for j in range(len(actions))]
    refused = raised(ValueError, lambda: venv.step(bad))
    assert f"slot {i}" in str(refused), f"{where}: the refusal does not name slot {i}: {refused}"
    assert [venv.get_state(j) for j in range(len(actions))] == before, (
        f"{where}: a refused step changed the games"
    )
    return 1
