"""The compiled heuristic bot takes EarthRebornHeuristicBot's decisions, every one, and with
``saw_hunt`` the saw hunter's (EarthRebornSawHunterBot).

Side by side over seeded games (both seats, heuristic play and play where one seat moves at
random so unusual positions appear), the Python bot and the compiled one are fed the same
observation and action mask at every decision: only what the seat sees (ER-HID-1), nothing of the
game state. A HeuristicBatch of k slots equals k separate Python bots, in any row order and across
resets; the numpy PCG64 replication draws what ``default_rng(seed).integers(n)`` draws; bad
inputs are refused with clear messages and change nothing; without the compiled core everything
falls back to the Python bot; ``batched_bot`` finds the compiled batch through the registry.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reborn_env.bots.batched import BatchedBot, PerSlotBots, RandomBatch, SlotBot, batched_bot
from reborn_env.games.earth_reborn.actions import codec_for
from reborn_env.games.earth_reborn.bots import EarthRebornHeuristicBot
from reborn_env.games.earth_reborn.fast import heuristic
from reborn_env.games.earth_reborn.fast.heuristic import (
    FastHeuristicBot,
    HeuristicBatch,
    generator_words,
)
from reborn_env.games.earth_reborn.observation import observer_for
from reborn_env.games.earth_reborn.saw_hunter import EarthRebornSawHunterBot
from reborn_env.games.earth_reborn.scenario.loader import load_scenario

GAME = "earth_reborn_v0"
SCN = load_scenario("vault_raid")
MAX_STEPS = 3000


class Table:
    """One game in a compiled Games slot: the seat to move, its observation and mask."""

    def __init__(self, core: Any, n: int = 1, scn: Any = SCN) -> None:
        self.games = core.Games(scn, codec_for(scn), observer_for(scn).layout, n, MAX_STEPS, 0.0, 0)
        self.obs = np.zeros((n, self.games.obs_size), dtype=np.float32)
        self.mask = np.zeros((n, self.games.n_actions), dtype=np.int8)

    def decision(self, i: int) -> int | None:
        """The seat to move in slot i with obs/mask written, or None once the game is over."""
        decider, _, winner, steps, *_ = self.games.status(i)
        if winner is not None or steps >= MAX_STEPS:
            return None
        self.games.observe(i, decider, self.obs[i])
        self.games.mask(i, self.mask[i])
        return decider


def play_side_by_side(
    core: Any, game: int, random_seat: int | None, saw_hunt: bool = False, scenario: str = ""
) -> tuple[int, int]:
    """One seeded game (of ``scenario``, Vault Raid if none); at every decision both bots of the
    seat to move see the same (obs, mask) and must agree; ``random_seat`` then plays a random
    legal action 70% of the time. The saw hunter's pair with ``saw_hunt``. (decisions, those
    where the heuristic would differ)."""
    scn = load_scenario(scenario) if scenario else SCN
    table = Table(core, scn=scn)
    table.games.new_game(0, 5000 + game)
    bot = EarthRebornSawHunterBot if saw_hunt else EarthRebornHeuristicBot
    where = {"scenario": scenario} if scenario else {}
    python = [bot(seed=31 * game + seat, **where) for seat in (0, 1)]
    fast = [FastHeuristicBot(seed=31 * game + seat, saw_hunt=saw_hunt, **where) for seat in (0, 1)]
    plain = [EarthRebornHeuristicBot(seed=31 * game + seat, **where) for seat in (0, 1)]
    rng = np.random.default_rng(game)
    decisions = differ = 0
    while (seat := table.decision(0)) is not None:
        obs, mask = table.obs[0], table.mask[0]
        tie_breaker = python[seat].rng.bit_generator.state
        expected = python[seat].act(obs, mask)
        got = fast[seat].act(obs, mask)
        assert got == expected, (
            f"game {game}, decision {decisions}: the Python bot plays "
            f"{codec_for(scn).name(expected)}, the compiled one {codec_for(scn).name(got)}"
        )
        if saw_hunt:  # the heuristic from the same tie-break state, to see the hunt matter
            plain[seat].rng.bit_generator.state = tie_breaker
            differ += plain[seat].act(obs, mask) != expected
        decisions += 1
        action = expected
        if seat == random_seat and rng.random() < 0.7:
            action = int(rng.choice(np.flatnonzero(mask)))
        assert table.games.apply(0, action)
    return decisions, differ


@pytest.mark.parametrize("chunk", range(4))
def test_the_compiled_bot_takes_every_decision_of_the_python_bot(core: Any, chunk: int) -> None:
    """ER-HID-1: 200 games in all (50 per chunk), both seats decided by both bots from the same
    observation and mask; every other game one seat plays mostly at random."""
    decisions = 0
    for game in range(50 * chunk, 50 * chunk + 50):
        decisions += play_side_by_side(
            core, game, random_seat=(game // 2) % 2 if game % 2 else None
        )[0]
    assert decisions > 50 * 100  # whole games were played, not a few openings


@pytest.mark.parametrize("chunk", range(2))
def test_the_compiled_saw_hunter_takes_every_decision_of_the_python_one(
    core: Any, chunk: int
) -> None:
    """ER-ABIL-1, ER-DOOR-3, ER-HID-1: 100 games of the saw hunter in both seats, side by side
    with its compiled port; in many decisions the plain heuristic would have played otherwise,
    so the Salemites' saw hunt and their waiting beside the locked door are exercised."""
    decisions = differ = 0
    for game in range(50 * chunk, 50 * chunk + 50):
        d, x = play_side_by_side(
            core, game, random_seat=(game // 2) % 2 if game % 2 else None, saw_hunt=True
        )
        decisions += d
        differ += x
    assert decisions > 50 * 100
    assert differ > 20


@pytest.mark.parametrize("scenario", ["hold_the_line", "ambush", "cache_run", "generated:4"])
@pytest.mark.parametrize("saw_hunt", [False, True])
def test_the_compiled_bots_take_every_decision_of_the_python_ones_on_other_maps(
    core: Any, scenario: str, saw_hunt: bool
) -> None:
    """ER-SCN-14, ER-SUITE-7/-8: side by side on maps with other missions (hold squares, no
    terminals, caches) and a generated one, 6 games each, one seat mostly random in half."""
    decisions = 0
    for game in range(6):
        random_seat = (game // 2) % 2 if game % 2 else None
        decisions += play_side_by_side(core, game, random_seat, saw_hunt, scenario)[0]
    assert decisions > 6 * 100


def test_a_batch_of_slots_equals_separate_python_bots_across_resets(core: Any) -> None:
    """k = 12 games at once; slot 2g + seat is game g's seat; rows come in a shuffled order;
    each finished game restarts with reset(slot) on both seats, as bot.reset() does."""
    k = 12
    table = Table(core, k)
    seeds = [900 + s for s in range(2 * k)]
    batch = HeuristicBatch("vault_raid", seeds)
    python = [EarthRebornHeuristicBot(seed=s) for s in seeds]
    rng = np.random.default_rng(3)
    for g in range(k):
        table.games.new_game(g, 70 + g)
    restarts = calls = 0
    while restarts < 2 * k:
        rows, slots = [], []
        for g in range(k):
            seat = table.decision(g)
            if seat is None:  # a new game in this slot: both seats' bots start afresh
                restarts += 1
                table.games.new_game(g, 1000 + restarts)
                for s in (2 * g, 2 * g + 1):
                    batch.reset(s)
                    python[s].reset()
                seat = table.decision(g)
            rows.append(g)
            slots.append(2 * g + seat)
        order = rng.permutation(k)
        rows_in = [rows[r] for r in order]
        slots_in = np.array([slots[r] for r in order], dtype=np.int64)
        got = batch.act(slots_in, table.obs[rows_in], table.mask[rows_in])
        assert got.dtype == np.int64 and got.shape == (k,)
        for r, g in enumerate(rows_in):
            expected = python[slots_in[r]].act(table.obs[g], table.mask[g])
            assert got[r] == expected, f"call {calls}, slot {slots_in[r]}"
            assert table.games.apply(g, int(got[r]))
        calls += 1
    assert calls > 100


def numpy_state(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def test_the_tie_breaker_draws_what_numpy_draws() -> None:
    """PCG64 and Generator.integers(n) replicated: 40,000 draws over 200 seeds, bounds from 1
    (which draws nothing) to 2**32, the generator's whole state equal after each seed's draws."""
    batch = HeuristicBatch("vault_raid", [0])
    assert batch.compiled
    bounds_rng = np.random.default_rng(12)
    special = [1, 2, 3, 4, 5, 7, 10, 16, 100, 2**31 - 1, 2**31, 2**31 + 1, 3 * 2**30, 2**32 - 1]
    draws = 0
    for seed in range(200):
        batch._core.set_rng(0, *generator_words(seed))
        reference = numpy_state(seed)
        for _ in range(200):
            if bounds_rng.random() < 0.3:
                n = int(bounds_rng.choice(special + [2**32]))
            else:
                n = int(bounds_rng.integers(1, 60))
            assert batch._core.integers(0, n) == reference.integers(n), (seed, n)
            draws += 1
        st = reference.bit_generator.state
        words = (
            st["state"]["state"] >> 64,
            st["state"]["state"] & (2**64 - 1),
            st["state"]["inc"] >> 64,
            st["state"]["inc"] & (2**64 - 1),
            st["has_uint32"],
            st["uinteger"],
        )
        assert batch._core.rng_state(0) == words
    assert draws == 40_000


def test_the_set_order_model_is_cpythons(core: Any) -> None:
    """Where the Python bot takes the first minimum of a set (a plan's goal squares, the legal
    actions of a target choice), the compiled bot follows CPython's iteration order: set.add in
    turn, frozenset() of a set, resizes and probe collisions included."""
    order = core.Heuristic.set_order
    rng = np.random.default_rng(8)
    for _ in range(2000):
        n = int(rng.choice([0, 1, 2, 4, 5, 9, 19, 20, 77, 300, 1200]))
        keys = [int(k) for k in rng.integers(0, int(rng.choice([8, 64, 256, 1024, 5000])), n)]
        built: set[int] = set()
        for key in keys:
            built.add(key)
        assert order(keys, False) == list(built)
        assert order(keys, True) == list(frozenset(built))
    with pytest.raises(ValueError, match="keys are 0..32767"):
        order([-1], False)


def test_reset_restarts_the_tie_breaker_and_seed_none_plays() -> None:
    """reset() gives the seed's generator back; seed=None draws fresh entropy (like the bot)."""
    batch = HeuristicBatch("vault_raid", [5, None])
    start = batch._core.rng_state(0)
    batch._core.integers(0, 7)
    assert batch._core.rng_state(0) != start
    batch.reset(0)
    assert batch._core.rng_state(0) == start
    entropy = batch._core.rng_state(1)
    batch.reset(1)
    assert batch._core.rng_state(1) != entropy


def legal_rows(core: Any, k: int) -> tuple[np.ndarray, np.ndarray]:
    table = Table(core, k)
    for g in range(k):
        table.games.new_game(g, g)
        table.decision(g)
    return table.obs.copy(), table.mask.copy()


def test_bad_inputs_are_refused_with_clear_messages_and_change_nothing(core: Any) -> None:
    batch = HeuristicBatch("vault_raid", [1, 2, 3])
    obs, mask = legal_rows(core, 2)
    slots = np.array([0, 1], dtype=np.int64)
    cases = [
        (slots, obs.astype(np.float64), mask, "obs must be a numpy float32 array, got float64"),
        (slots, obs, mask.astype(np.int32), "mask must be a numpy int8 or bool array"),
        (slots, obs[:, :-1].copy(), mask, "obs must have shape (2, 954)"),
        (slots, obs, mask[:1], "mask must have shape (2, 203)"),
        (slots, np.asfortranarray(obs), mask, "obs must be C-contiguous"),
        (np.array([0, 3]), obs, mask, "slots must lie in 0..2"),
        (np.array([0.0, 1.0]), obs, mask, "slots must be a 1-D integer array"),
        (slots, obs.tolist(), mask, "obs must be a numpy float32 array, got list"),
    ]
    for s, o, m, message in cases:
        with pytest.raises(ValueError) as error:
            batch.act(s, o, m)
        assert message in str(error.value)
    before = [batch._core.rng_state(i) for i in range(3)]
    empty = mask.copy()
    empty[1] = 0
    with pytest.raises(ValueError, match=r"row 1 \(slot 1\): act\(\) called with an empty action"):
        batch.act(slots, obs, empty)
    nan = obs.copy()
    nan[1, 5] = np.nan
    with pytest.raises(ValueError, match="observation entry 5 is nan"):
        batch.act(slots, nan, mask)
    assert [batch._core.rng_state(i) for i in range(3)] == before
    with pytest.raises(IndexError, match="slot 3 is out of range"):
        batch.reset(3)
    with pytest.raises(ValueError, match="at least one seed"):
        HeuristicBatch("vault_raid", [])
    # the C boundary checks the buffers itself
    out = np.empty(2, dtype=np.int64)
    with pytest.raises(ValueError, match="obs must be a float32 array"):
        batch._core.act(slots, obs.astype(np.float64), mask, out)
    with pytest.raises(IndexError, match="slots\\[1\\] = 7 is out of range"):
        batch._core.act(np.array([0, 7]), obs, mask, out)
    with pytest.raises(ValueError, match="integers\\(n\\) takes 1 <= n <= 2\\*\\*32"):
        batch._core.integers(0, 0)


def test_without_the_compiled_core_the_python_bot_decides(
    core: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AVAILABLE False: HeuristicBatch holds Python bots (the same decisions), and batched_bot
    loops over the game's bot class."""
    obs, mask = legal_rows(core, 4)
    slots = np.arange(4, dtype=np.int64)
    compiled = HeuristicBatch("vault_raid", [4, 5, 6, 7]).act(slots, obs, mask)
    monkeypatch.setattr(heuristic, "AVAILABLE", False)
    slow = HeuristicBatch("vault_raid", [4, 5, 6, 7])
    assert not slow.compiled
    assert slow.act(slots, obs, mask).tolist() == compiled.tolist()
    looped = batched_bot(GAME, "heuristic", [4, 5, 6, 7])
    assert isinstance(looped, PerSlotBots)
    assert isinstance(looped.bots[0], EarthRebornHeuristicBot)
    assert looped.act(slots, obs, mask).tolist() == compiled.tolist()


def test_batched_bot_finds_the_compiled_batch_through_the_registry(core: Any) -> None:
    obs, mask = legal_rows(core, 3)
    slots = np.array([2, 0, 1], dtype=np.int64)
    compiled = batched_bot(GAME, "heuristic", [8, 9, 10])
    assert isinstance(compiled, HeuristicBatch) and compiled.compiled
    assert isinstance(compiled, BatchedBot)
    expected = [
        EarthRebornHeuristicBot(seed=s).act(obs[r], mask[r]) for r, s in enumerate([10, 8, 9])
    ]
    assert compiled.act(slots, obs, mask).tolist() == expected
    one = SlotBot(batched_bot(GAME, "heuristic", [10]))
    assert one.act(obs[0], mask[0]) == expected[0]
    named = batched_bot(GAME, "heuristic", [10, 8, 9], scenario="vault_raid")
    assert named.act(np.arange(3), obs, mask).tolist() == expected
    with pytest.raises(TypeError):
        batched_bot(GAME, "heuristic", [1], colour="red")
    random = batched_bot(GAME, "random", [1, 2, 3], scenario="vault_raid")
    assert isinstance(random, RandomBatch)
    assert all(mask[r, a] for r, a in enumerate(random.act(slots, obs, mask)))
    with pytest.raises(ValueError, match="obs must be 2-D with one row per slot"):
        random.act(slots, obs[0], mask)


def test_the_one_seat_bot_replays_its_game_after_reset(core: Any) -> None:
    """FastHeuristicBot.reset() restarts the tie-breaker: the same game twice, the same moves."""
    bot = FastHeuristicBot(seed=42)
    runs = []
    for _ in range(2):
        bot.reset()
        table = Table(core)
        table.games.new_game(0, 42)
        moves = []
        while (seat := table.decision(0)) is not None and len(moves) < 400:
            action = (
                bot.act(table.obs[0], table.mask[0])
                if seat == 0
                else int(np.flatnonzero(table.mask[0])[0])
            )
            moves.append(action)
            table.games.apply(0, action)
        runs.append(moves)
    assert runs[0] == runs[1] and len(runs[0]) > 50
