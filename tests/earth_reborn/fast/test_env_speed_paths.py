"""The AEC env's fast paths over the compiled core: the contract's optional match
methods (WritesArrays.observe_into, Plays.play, Peeks.peek) give exactly what the default path
gives, the arrays handed out are never overwritten later, a read through ``peek`` leaves the
core playing, and a reused one-slot Games starts every match afresh (ER-ENV-1, -8, -10,
ER-WIN-3, ER-GEN-3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reborn_env.core.contract import Peeks, Plays, WritesArrays
from reborn_env.core.errors import IllegalActionError
from reborn_env.core.game_env import GameEnv
from reborn_env.games.earth_reborn import positions
from reborn_env.games.earth_reborn.fast.match import FastMatch
from reborn_env.games.earth_reborn.fuzz_policies import check_step
from reborn_env.games.earth_reborn.rules import engine


class PlainMatch:
    """A FastMatch seen through the required Match methods only: GameEnv's default path."""

    def __init__(self, inner: FastMatch) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        if name in ("observe_into", "play", "peek"):
            raise AttributeError(name)
        return getattr(self.inner, name)


class PlainRules:
    """The rules of an env, handing out PlainMatch: the same game with no optional method."""

    def __init__(self, rules: Any) -> None:
        self.inner = rules

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def new_match(self, seed: int, options: Any) -> PlainMatch:
        return PlainMatch(self.inner.new_match(seed, options))

    def from_position(self, position: Any, options: Any = None) -> PlainMatch:
        return PlainMatch(self.inner.from_position(position, options))


def record(env: Any, seed: int, steps: int = 400) -> list[Any]:
    """Everything ``env`` gives out over a seeded random legal game (every agent's view)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    out: list[Any] = []
    for agent in env.agent_iter(steps):
        obs, reward, term, trunc, info = env.last()
        views = [env.observe(a) for a in env.agents]
        out.append(
            (agent, reward, term, trunc, dict(info), dict(env.rewards), env.unwrapped.get_state())
        )
        out.extend((v["observation"].tobytes(), v["action_mask"].tobytes()) for v in views)
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize("options", [{}, {"mp_shaping": 0.1}, {"max_steps": 60}])
@pytest.mark.parametrize("seed", [0, 5])
def test_the_fast_paths_give_what_the_default_path_gives(
    make_env: Callable[..., Any], seed: int, options: dict[str, Any]
) -> None:
    """ER-ENV-1/-9/-10, ER-WIN-3, MP shaping: observe_into and play against observe,
    legal_actions, to_move, status and shaped_rewards, through the same env, step by step."""
    fast = make_env("fast", **options)
    plain = make_env("fast", **options)
    plain.rules = PlainRules(plain.rules)
    plain.reset(seed=seed)
    assert not isinstance(plain.match, WritesArrays | Plays)
    assert not plain._writes_arrays and not plain._plays
    fast.reset(seed=seed)
    assert isinstance(fast.match, WritesArrays) and isinstance(fast.match, Plays)
    assert fast._writes_arrays and fast._plays
    assert record(fast, seed) == record(plain, seed)


def test_play_answers_as_the_separate_questions_do(make_env: Callable[..., Any]) -> None:
    """Plays.play: (status, to_move, shaped_rewards, no infos) exactly as asked one by one."""
    env = make_env("fast", mp_shaping=0.5)
    env.reset(seed=3)
    match = env.unwrapped.match
    rng = np.random.default_rng(3)
    while match.status() == "running":
        action = int(rng.choice(match.legal_actions()))
        answer = match.play(action)
        assert answer == (match.status(), match.to_move(), match.shaped_rewards(), False)
        assert match.infos(0) == match.infos(1) == {}


def test_observe_into_writes_the_observation_and_only_the_movers_mask(
    make_env: Callable[..., Any],
) -> None:
    """WritesArrays.observe_into: observe(seat), and the legal set only for the seat to move."""
    env = make_env("fast")
    env.reset(seed=4)
    match = env.unwrapped.match
    for seat in (0, 1):
        observation = np.full(env.rules.obs_size, -1.0, np.float32)
        mask = np.zeros(env.rules.n_actions, np.int8)
        match.observe_into(seat, observation, mask)
        assert observation.tobytes() == match.observe(seat).tobytes()
        legal = list(match.legal_actions()) if seat == match.to_move() else []
        assert np.flatnonzero(mask).tolist() == legal


def test_observations_handed_out_are_never_overwritten(make_env: Callable[..., Any]) -> None:
    """Every observe() gives new arrays, as PettingZoo's connect_four does: changing one, or
    stepping on, leaves the others as they were given."""
    env = make_env("fast")
    env.reset(seed=1)
    agent = env.agent_selection
    first = env.observe(agent)
    kept = {k: v.copy() for k, v in first.items()}
    second = env.observe(agent)
    assert first["observation"] is not second["observation"]
    assert first["action_mask"] is not second["action_mask"]
    second["observation"][:] = 7.0
    second["action_mask"][:] = 1
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    env.observe(agent)
    env.observe(env.agent_selection)
    assert all(np.array_equal(first[k], kept[k]) for k in kept)
    again = env.observe(env.agent_selection)
    assert not np.array_equal(again["action_mask"], np.ones_like(again["action_mask"]))


def test_peek_reads_the_core_without_handing_the_game_over(make_env: Callable[..., Any]) -> None:
    """Peeks.peek: a GameState equal to the position, a copy (changing it changes nothing) and
    the core plays on; ``game`` still hands over a live state that code may alter."""
    env = make_env("fast")
    env.reset(seed=2)
    match = env.unwrapped.match
    assert isinstance(match, Peeks)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    seen = env.unwrapped.peek()
    assert positions.state_to_dict(seen) == env.unwrapped.get_state()
    before = env.unwrapped.get_state()
    seen.turn += 5
    seen.hands[0].clear()
    assert env.unwrapped.get_state() == before
    assert match._reference is None, "peek must leave the game in the core"
    live = env.unwrapped.game
    assert match._reference is not None and env.unwrapped.peek() is live
    live.turn += 1
    assert env.unwrapped.get_state()["turn"] == before["turn"] + 1


def test_check_step_checks_the_core_at_every_step(make_env: Callable[..., Any]) -> None:
    """The fuzz check (ER-TILE-11, ER-ENV-10...) reads through peek, so the core keeps the
    match to the end and every check is of the core's state."""
    env = make_env("fast")
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    checked = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        check_step(env, agent)
        checked += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 10 and env.unwrapped.match._reference is None


def test_a_reused_games_slot_starts_each_match_afresh(make_env: Callable[..., Any]) -> None:
    """ER-TURN-4 / ER-GEN-3: after many resets (the one-slot Games are reused), a new game and
    a restored position are exactly the reference engine's."""
    env = make_env("fast")
    rules = env.unwrapped.rules
    saved = None
    for seed in range(6):
        env.reset(seed=seed)
        for _ in range(30 * seed):
            legal = env.unwrapped.match.legal_actions()
            if not legal:
                break
            env.step(int(legal[-1]))
        if seed == 2:
            saved = env.unwrapped.get_state()
    assert rules.spare_games, "finished matches give their Games back"
    env.reset(seed=11)
    assert env.unwrapped.get_state() == positions.state_to_dict(engine.new_game(seed=11))
    env.unwrapped.set_state(saved)
    assert env.unwrapped.get_state() == saved


def test_a_refused_action_on_the_fast_path_changes_nothing(make_env: Callable[..., Any]) -> None:
    """ER-ENV-8: raise with nothing changed (rewards included); penalize ends the game, -1."""
    env = make_env("fast")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    before = (env.unwrapped.get_state(), dict(env.rewards), env.agent_selection)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert (env.unwrapped.get_state(), dict(env.rewards), env.agent_selection) == before
    penalized = make_env("fast", illegal_action="penalize")
    penalized.reset(seed=0)
    offender = penalized.agent_selection
    penalized.step(illegal)
    assert penalized.rewards[offender] == -1.0 and all(penalized.terminations.values())


def test_games_without_optional_methods_take_the_default_path() -> None:
    """The toy game of the tests implements only the required contract: no fast path."""
    from tests.games.kuhn_poker.game import KuhnRules

    env = GameEnv(KuhnRules())
    env.reset(seed=0)
    assert not env._writes_arrays and not env._plays
    assert not isinstance(env.match, Peeks)
    assert env.peek() is env.match.state
