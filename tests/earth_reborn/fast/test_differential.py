"""The compiled core is the reference engine, decision by decision.

Over 200 seeded games of random, busy and heuristic players, at the three levels the core is
driven at (a ``Games`` slot against ``rules.engine``, ``env(backend="fast")`` against
``env(backend="python")``, ``vector_env`` against N engine matches seeded as the contract says),
every decision shows the same position, legal set and mask, both seats' observations, status,
rewards and terminal flags (ER-ENV-1, -8..10, ER-WIN-3); illegal actions are refused alike, with
the same words, nothing changed (ER-ENV-8); positions cross between the backends at random points
and play on. The position-mutation fuzz and the hidden-information check (ER-HID-12) run on the
core too. The harness is :mod:`.differential`; ``benchmarks/bench_fast.py differential`` runs it
over 20,000 games.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reborn_env.bots.base import RandomBot
from reborn_env.core.contract import RUNNING
from reborn_env.core.errors import PositionError
from reborn_env.core.position_fuzz import collect_positions, fuzz_positions, mutate
from reborn_env.games.earth_reborn import positions
from reborn_env.games.earth_reborn.fast.reference import ReferenceGames
from reborn_env.games.earth_reborn.hidden import hidden_variant
from reborn_env.games.earth_reborn.invariants import check_invariants
from reborn_env.games.earth_reborn.match import EarthRebornRules
from reborn_env.games.earth_reborn.rules import engine
from tests.earth_reborn.fast import differential as diff

# 200 games at the slot level, by player: (first seed, games).
SLOT_GAMES = {"random": (0, 90), "busy": (1000, 70), "heuristic": (2000, 40)}
# The AEC level: games per player, and the options they cycle through (shaping, ER-ENV-9 limit).
AEC_GAMES = 6
AEC_OPTIONS = ({}, {"mp_shaping": 0.1}, {"max_steps": 150, "mp_shaping": 0.25})
AGENTS = ("norad", "salemite")
BOUNDARY_ERRORS = (ValueError, IndexError, TypeError, OverflowError, BufferError)


@pytest.fixture(scope="module")
def rules() -> EarthRebornRules:
    return diff.reference_rules()


class _Faulty(ReferenceGames):
    """ReferenceGames gone wrong in one way (``fault``) from game step 40 on."""

    fault = ""

    def _late(self, i: int) -> bool:
        return self._state(i).steps >= 40

    def dump(self, i: int) -> Any:
        state = super().dump(i)
        if self.fault == "position" and self._late(i):
            state.mp[1] += 1
        return state

    def legal(self, i: int) -> list[int]:
        legal = super().legal(i)
        return legal[1:] if self.fault == "legal" and self._late(i) else legal

    def mask(self, i: int, out: Any) -> None:
        super().mask(i, out)
        if self.fault == "mask" and self._late(i):
            out[int(np.flatnonzero(out == 0)[0])] = 1

    def observe(self, i: int, seat: int, out: Any) -> None:
        super().observe(i, seat, out)
        if self.fault == "observation" and self._late(i) and seat == 1:
            out[-1] = np.nextafter(out[-1], np.float32(2))

    def apply(self, i: int, action: int) -> bool:
        legal = super().legal(i)
        if self.fault == "accepts" and self._late(i) and action not in legal:
            return True
        if self.fault == "plays" and self._late(i) and len(legal) > 1:
            action = legal[0] if action != legal[0] else legal[1]
        return super().apply(i, action)


@pytest.mark.parametrize(
    ("fault", "noticed"),
    [
        ("position", "the positions differ"),
        ("legal", "the legal actions differ"),
        ("mask", "masks differ"),
        ("observation", "seat 1's observations differ"),
        ("accepts", "was applied"),
        ("plays", "the positions differ"),
    ],
)
def test_the_harness_notices_a_backend_that_differs(
    rules: EarthRebornRules, fault: str, noticed: str
) -> None:
    """A backend wrong in one small way, late in the game, fails the comparison, naming what
    differs: the slot test can fail."""
    faulty = type("Faulty", (_Faulty,), {"fault": fault})
    with pytest.raises(AssertionError, match=noticed):
        diff.play_slot_game(faulty, rules, seed=1, player="random", illegal_rate=0.5)


@pytest.mark.parametrize("player", diff.PLAYERS)
def test_a_core_slot_plays_every_game_as_the_engine(
    fast_games: type, rules: EarthRebornRules, player: str
) -> None:
    """Every decision of the games: the same position, status, legal set, mask and observations
    of both seats; illegal actions refused by both, nothing changed; crossings both ways."""
    first, games = SLOT_GAMES[player]
    tally = diff.Tally()
    for seed in range(first, first + games):
        tally.add(diff.play_slot_game(fast_games, rules, seed, player))
    assert tally.games == games
    assert tally.illegal > 0 and tally.crossings > 0, "nothing refused or crossed: cannot fail"
    assert tally.ends.get("won", 0) > 0, "no game was won: the ends were never compared"


def test_a_core_slot_refuses_bad_input_and_keeps_its_game(
    fast_games: type, rules: EarthRebornRules
) -> None:
    """Slots, seats, buffers and states out of bounds are Python exceptions, never a crash,
    and the game in the slot stays as it was."""
    games = diff.new_games(fast_games, rules, 2, 0)
    games.new_game(0, 7)
    games.new_game(1, 8)
    before = positions.state_to_dict(games.dump(0))
    second = positions.state_to_dict(games.dump(1))
    obs = np.zeros(rules.obs_size, dtype=np.float32)
    mask = np.zeros(rules.n_actions, dtype=np.int8)
    out = _vector_outputs(rules, 2)
    legal = np.array([games.legal(0)[0], games.legal(1)[0]], dtype=np.int64)
    bad_calls: list[tuple[str, Callable[[], Any]]] = [
        ("dump(-1)", lambda: games.dump(-1)),
        ("dump(2)", lambda: games.dump(2)),
        ("legal(2)", lambda: games.legal(2)),
        ("apply(2, 0)", lambda: games.apply(2, 0)),
        ("apply(0, 'PASS')", lambda: games.apply(0, "PASS")),
        ("observe(0, 2)", lambda: games.observe(0, 2, obs)),
        ("observe(0, -1)", lambda: games.observe(0, -1, obs)),
        ("observe into a short buffer", lambda: games.observe(0, 0, obs[:-1])),
        ("observe into float64", lambda: games.observe(0, 0, obs.astype(np.float64))),
        ("observe into a read-only buffer", lambda: games.observe(0, 0, _read_only(obs))),
        ("mask into a short buffer", lambda: games.mask(0, mask[:-1])),
        ("mask into int64", lambda: games.mask(0, mask.astype(np.int64))),
        ("load a dict", lambda: games.load(0, before)),
        ("load None", lambda: games.load(0, None)),
        ("status(5)", lambda: games.status(5)),
        ("step with 3 actions", lambda: games.step(np.zeros(3, np.int64), *out, 1)),
        ("step with int32 actions", lambda: games.step(legal.astype(np.int32), *out, 1)),
        ("step on 0 threads", lambda: games.step(legal, *out, 0)),
        ("step into short rewards", lambda: games.step(legal, *out[:3], out[3][:1], *out[4:], 1)),
        ("reset_all into a short obs", lambda: games.reset_all(out[0][:1], out[1], out[2])),
    ]
    for what, call in bad_calls:
        with pytest.raises(BOUNDARY_ERRORS):
            call()
        assert positions.state_to_dict(games.dump(0)) == before, f"{what} changed slot 0"
        assert positions.state_to_dict(games.dump(1)) == second, f"{what} changed slot 1"
    with pytest.raises(BOUNDARY_ERRORS):
        diff.new_games(fast_games, rules, -1, 0)


def _vector_outputs(rules: EarthRebornRules, n: int) -> tuple[np.ndarray, ...]:
    """obs, mask, agent, rewards, terminated, truncated arrays for ``n`` slots."""
    return (
        np.zeros((n, rules.obs_size), dtype=np.float32),
        np.zeros((n, rules.n_actions), dtype=np.int8),
        np.zeros(n, dtype=np.int8),
        np.zeros((n, 2), dtype=np.float32),
        np.zeros(n, dtype=bool),
        np.zeros(n, dtype=bool),
    )


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


@pytest.mark.parametrize("player", diff.PLAYERS)
def test_the_env_on_the_core_is_the_reference_env(make_env: Callable, player: str) -> None:
    """env(backend="fast") and env(backend="python"), AEC step by step: the same position,
    agents, rewards (MP shaping and ER-WIN-3), flags (ER-ENV-9 truncation), infos, observations
    and masks; the same IllegalActionError text for every refused action (ER-ENV-8)."""
    tally = diff.Tally()
    for game in range(AEC_GAMES):
        options = AEC_OPTIONS[game % len(AEC_OPTIONS)]
        tally.add(
            diff.play_aec_game(
                lambda backend, options=options: make_env(backend, **options),
                "fast",
                seed=500 + game,
                player=player,
            )
        )
    assert tally.games == AEC_GAMES and tally.illegal > 0 and tally.crossings > 0
    assert tally.ends.get("step limit", 0) > 0, "no game reached max_steps: truncation unchecked"


def test_penalize_mode_ends_the_game_alike(make_env: Callable) -> None:
    """illegal_action="penalize" (ER-ENV-8): the same -1, flags and infos on both backends."""
    for seed in range(3):
        envs = [make_env(b, illegal_action="penalize") for b in ("fast", "python")]
        rng = np.random.default_rng(seed)
        for env in envs:
            env.reset(seed=seed)
        for _ in range(int(rng.integers(5, 120))):
            mask = envs[1].observe(envs[1].agent_selection)["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask)))
            for env in envs:
                env.step(action)
        mask = envs[1].observe(envs[1].agent_selection)["action_mask"]
        bad = int(np.flatnonzero(mask == 0)[0])
        for env in envs:
            env.step(bad)
        assert diff.aec_view(envs[0]) == diff.aec_view(envs[1])
        assert any(envs[1].terminations.values())


@pytest.mark.parametrize(("num_envs", "num_threads"), [(1, 1), (16, 1), (16, 2), (33, 3)])
def test_the_vector_env_is_n_reference_games(
    make_vector: Callable, num_envs: int, num_threads: int
) -> None:
    """vector_env against N engine matches seeded per the contract: every step's rewards (MP
    shaping plus ER-WIN-3), terminated and truncated (ER-ENV-9), and every slot's next decision
    (obs of the seat to move, mask, agent) and position; finished games reset in the same step;
    a step with an illegal action raises ValueError naming the slot and changes nothing;
    set_state crossings play on. Any number of threads gives the same results."""
    options = {"max_steps": 200, "mp_shaping": 0.1}
    rules = diff.reference_rules(**options)
    tally = diff.play_vector(
        lambda **kw: make_vector(**kw, **options),
        rules,
        num_envs,
        seed=num_envs * 10 + num_threads,
        steps=3000 // num_envs + 300,
        num_threads=num_threads,
        player="heuristic" if num_threads == 2 else "random",
        illegal_rate=0.05,
    )
    assert tally.illegal > 0 and tally.crossings > 0
    assert tally.ends.get("terminated", 0) > 0 and tally.ends.get("truncated", 0) > 0


def test_the_vector_env_refuses_a_bad_position_and_keeps_its_games(make_vector: Callable) -> None:
    """set_state with what is not a position: PositionError, every slot unchanged."""
    venv = make_vector(num_envs=4, seed=1)
    venv.reset()
    before = [venv.get_state(i) for i in range(4)]
    broken = copy.deepcopy(before[2])
    broken["turn"] = -3
    for bad in (None, {}, {"format": "chess"}, broken):
        with pytest.raises(PositionError):
            venv.set_state(2, copy.deepcopy(bad))
        assert [venv.get_state(i) for i in range(4)] == before


@pytest.mark.parametrize("seed", range(3))
def test_a_seat_sees_the_same_on_the_core_whatever_is_hidden_from_it(
    make_env: Callable, seed: int
) -> None:
    """ER-HID-12 on the core: the hidden variant of a fast match (the other hand and the bag
    dealt anew, another generator) shows the seat byte-identical observations and legal actions,
    and is the reference's variant of the same game, observation for observation."""
    env, ref = make_env("fast"), make_env("python")
    env.reset(seed=seed)
    ref.reset(seed=seed)
    rng = np.random.default_rng(seed)
    compared = told_apart = 0
    for _ in range(250):
        match, reference = env.unwrapped.match, ref.unwrapped.match
        for seat in (0, 1):
            state = copy.deepcopy(rng.bit_generator.state)
            variant = hidden_variant(match, seat, rng)
            rng.bit_generator.state = state
            ref_variant = hidden_variant(reference, seat, rng)
            if variant is None:
                assert ref_variant is None
                continue
            assert variant.to_position() == ref_variant.to_position()
            for who in (0, 1):
                assert variant.observe(who).tobytes() == ref_variant.observe(who).tobytes()
            assert variant.observe(seat).tobytes() == match.observe(seat).tobytes()
            assert variant.to_move() == match.to_move()
            if match.to_move() == seat:
                assert list(variant.legal_actions()) == list(match.legal_actions())
            told_apart += variant.observe(1 - seat).tobytes() != match.observe(1 - seat).tobytes()
            compared += 1
        if match.status() != RUNNING:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        ref.step(action)
    assert compared > 0 and told_apart > 0, f"seed {seed}: the check could not fail"
    assert diff.on_its_backend(env), "the fast match handed its game to the reference engine"


def _reference_check(env: Any) -> None:
    """The fast env's decision is the reference's for its position: the engine's invariants hold
    on it, the mask is exactly the legal set, the observation the reference's (ER-ENV-10)."""
    assert diff.on_its_backend(env), "the fast match handed its game to the reference engine"
    state = positions.state_from_dict(env.unwrapped.get_state(), env.unwrapped.rules.scenario)
    check_invariants(state)
    seat = env.agent_index[env.agent_selection]
    seen = env.observe(env.agent_selection)
    assert seen["action_mask"].tobytes() == (
        diff.mask_of(engine.legal_actions(state), env.unwrapped.rules.n_actions).tobytes()
    )
    expected = env.unwrapped.rules.observer.observe(state, seat)
    assert seen["observation"].tobytes() == expected.tobytes()


def test_a_mutated_position_is_refused_or_played_on_the_core_as_the_reference(
    make_env: Callable,
) -> None:
    """The position-mutation fuzz (core.position_fuzz) on env(backend="fast"): each mutation is
    refused with PositionError, the game intact, or accepted and played to the end with every
    decision the reference's; and both backends refuse or accept each mutation alike, in the
    same words, to the same position."""
    make_fast = lambda: make_env("fast")  # noqa: E731
    found = collect_positions(
        make_fast,
        lambda game: {a: RandomBot(seed=game * 2 + i) for i, a in enumerate(AGENTS)},
        games=2,
        per_game=4,
    )
    report = fuzz_positions(make_fast, found, 150, _reference_check)
    assert report.crashes == [], "\n".join(report.crashes[:5])
    assert report.refused > 0 and report.accepted > 0
    env, ref = make_fast(), make_env("python")
    env.reset(seed=0)
    ref.reset(seed=0)
    rng = np.random.default_rng(3)
    for _ in range(300):
        _, what, mutated = mutate(found[int(rng.integers(len(found)))], rng)
        outcomes = []
        for side in (env, ref):
            try:
                side.unwrapped.set_state(copy.deepcopy(mutated))
            except PositionError as err:
                outcomes.append(("refused", str(err)))
            else:
                outcomes.append(("accepted", side.unwrapped.get_state()))
        assert outcomes[0] == outcomes[1], f"{what}: the backends disagree"
