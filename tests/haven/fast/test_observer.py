"""The compiled observation encoder (``fast.observer.FastObserver``) against its reference, the
Python ``observation.Observer`` (16.5): bit-identical vectors on played, fixed and perturbed
positions of both bundled scenarios, for both seats; bad output arrays and bad states refused.

Rule ids: 16.5 (the vector: board, round state, my block, the other's public block, the prompt),
HV-SEL-3 (selection is secret: the other's picks and hand contents never show, its hand size
counts its picks back in, its selection prompt shows its kind only), HV-SEL-4 (my pending lead at
SELECT_SECOND), HV-TER-2 (an unsprung trap shows as trap, not floor), HV-AOE-6 (the AREA_TARGET
kind of scenarios with area attacks), 16.8 (hide_other_piles, reveal_second_card_at_turn).
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator
from operator import attrgetter
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from reborn_env import haven_v0
from reborn_env.games.haven import fast
from reborn_env.games.haven.fast import observer as fast_observer
from reborn_env.games.haven.fast.observer import (
    FastObserver,
    best_observer_for,
    fast_observer_for,
)
from reborn_env.games.haven.fuzz_policies import busy_choice
from reborn_env.games.haven.observation import Observer, observer_for
from reborn_env.games.haven.rules.engine import HavenConfig, HavenGame, new_game
from reborn_env.games.haven.rules.prompts import (
    AREA_TARGET,
    SELECT_LEAD,
    SELECT_SECOND,
    Prompt,
)
from reborn_env.games.haven.rules.state import (
    CHARACTER_SLOT,
    ITEM_STATES,
    MONSTER_SLOT,
    OUTCOMES,
    PHASES,
    SELECT,
    SUMMON_SLOT,
    Slot,
    SummonState,
)
from reborn_env.games.haven.scenario.model import ABILITY_KINDS, CONDITIONS, ELITE, Scenario
from tests.haven.helpers import mon, new, wisp


def assert_same(py: Observer, fast_obs: FastObserver, game: Any, where: str) -> None:
    """Both seats: the compiled vector is the reference's, bit for bit (16.5)."""
    out = np.full(fast_obs.size, np.nan, dtype=np.float32)
    for me in (0, 1):
        want = py.observe(game, me)
        fast_obs.observe_into(game, me, out)
        if not np.array_equal(want.view(np.uint32), out.view(np.uint32)):
            names = py.layout.entry_names()
            diff = [(names[i], float(want[i]), float(out[i])) for i in np.flatnonzero(want != out)]
            pytest.fail(f"{where}, seat {me}: (entry, python, compiled) {diff[:10]}")
        assert np.array_equal(want, out)
        assert np.array_equal(fast_obs.observe(game, me).view(np.uint32), want.view(np.uint32))


def decisions(game: HavenGame, seed: int, busy: bool, steps: int = 400) -> Iterator[HavenGame]:
    """The game at each decision of one random game (uniform, or the fuzzers' busy player that
    summons, fights and loots), then at its end."""
    rng, nrng = random.Random(seed), np.random.default_rng(seed)
    for _ in range(steps):
        if game.prompt is None:
            break
        yield game
        legal = game.legal_actions()
        game.apply(busy_choice(nrng, game) if busy else rng.choice(legal))
    yield game


CONFIGS = {
    "default": {},
    "hide_other_piles": {"hide_other_piles": True},
    "second_card_at_turn": {"reveal_second_card_at_turn": True, "hide_other_piles": True},
}


# =================================================================================================
# The core and the fallback


def test_the_core_is_built_wherever_its_sources_and_a_compiler_are() -> None:
    """setup.py's build is optional, so a failed compile only warns: this is where it fails."""
    if fast.build_expected():
        assert fast.AVAILABLE, f"haven's compiled core was not built: {fast.IMPORT_ERROR}"
        assert hasattr(fast.core, "observer")
    assert (fast.core is None) == (fast.IMPORT_ERROR is not None) == (not fast.AVAILABLE)


def test_best_observer_is_the_compiled_one_when_built_and_the_python_one_otherwise(
    scn: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    """16.5: one observer per scenario object from each factory; with ``REBORN_ENV_BACKEND=python``
    or without the core the Python reference stands in, and asking for the compiled one without
    the core is a clear error."""
    monkeypatch.delenv(fast.BACKEND_VARIABLE, raising=False)
    if fast.AVAILABLE:
        best = best_observer_for(scn)
        assert isinstance(best, FastObserver) and best is fast_observer_for(scn)
        assert best.size == observer_for(scn).size and best.layout is observer_for(scn).layout
    monkeypatch.setenv(fast.BACKEND_VARIABLE, "python")
    assert best_observer_for(scn) is observer_for(scn)
    monkeypatch.delenv(fast.BACKEND_VARIABLE)
    monkeypatch.setattr(fast, "AVAILABLE", False)
    monkeypatch.setattr(fast_observer, "core", None)
    assert best_observer_for(scn) is observer_for(scn)
    with pytest.raises(fast_observer.CoreUnavailableError, match="not built"):
        FastObserver(scn)


def test_python_observe_into_writes_what_observe_returns(scn: Scenario) -> None:
    """16.5: the reference's observe_into, which makes the two observers interchangeable."""
    py = observer_for(scn)
    game = new_game(scn, seed=4)
    out = np.zeros(py.size, dtype=np.float32)
    for me in (0, 1):
        py.observe_into(game, me, out)
        assert out.tobytes() == py.observe(game, me).tobytes()


# =================================================================================================
# Differential: played positions


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("busy", [False, True], ids=["uniform", "busy"])
def test_compiled_observation_is_the_references_along_random_games(
    core_needed: None, scn: Scenario, config: str, busy: bool
) -> None:
    """16.5, HV-SEL-3/4, HV-TER-2, HV-AOE-6: every decision of three random games (and their
    ends), seen by both seats, is the same vector bit for bit, under each 16.8 option set."""
    py, compiled = observer_for(scn), fast_observer_for(scn)
    seen, kinds = 0, set()
    for seed in range(3):
        game = new_game(scn, seed=seed, config=HavenConfig(**CONFIGS[config]))
        for at in decisions(game, seed, busy):
            assert_same(py, compiled, at, f"seed {seed} decision {seen}")
            seen += 1
            kinds.add(None if at.prompt is None else at.prompt.kind)
    assert seen > 150
    assert {SELECT_LEAD, SELECT_SECOND, None} <= kinds


def test_random_play_reaches_the_branches_the_differential_is_about(scenarios) -> None:
    """The played positions above include summons in the turn sequence, unsprung traps (Mire
    Crossing, HV-TER-2), an AREA_TARGET prompt (HV-AOE-6), conditions, long rests, rest cards,
    and a leading card alone revealed (16.8 reveal_second_card_at_turn)."""
    seen: set[str] = set()
    for scn in scenarios.values():
        for seed in range(3):
            for busy in (False, True):
                config = HavenConfig(**CONFIGS["second_card_at_turn" if seed == 2 else "default"])
                for at in decisions(new_game(scn, seed=seed, config=config), seed, busy):
                    seen |= {k for k, hit in _branches(at.state, at.prompt).items() if hit}
    assert seen >= {
        "summon slot",
        "trap",
        "area prompt",
        "condition",
        "long rest",
        "rest card",
        "elite",
        "revealed 1",
        "exhausted",
        "active card",
    }, seen


def _branches(s: Any, p: Prompt | None) -> dict[str, bool]:
    figures = s.characters + s.monsters + s.summons
    return {
        "summon slot": any(slot.kind == SUMMON_SLOT for slot in s.sequence),
        "trap": bool(s.traps),
        "area prompt": p is not None and p.kind == AREA_TARGET,
        "condition": any(f.conditions for f in figures),
        "long rest": any(c.long_rest for c in s.characters),
        "rest card": p is not None and p.rest_card >= 0,
        "elite": any(m.rank == ELITE for m in s.monsters),
        "revealed 1": any(c.revealed == 1 for c in s.characters),
        "exhausted": any(c.exhausted for c in s.characters),
        "active card": any(c.active for c in s.characters),
    }


# =================================================================================================
# Differential: fixtures (HV-API-10)

FIXTURES = {
    "summons in the sequence": {
        "round": 2,
        "sequence": ["slinger", "summon:1", "conjurer", "marauder", "bulwark"],
        "next": 1,
        "characters": {
            "conjurer": {"cell": [0, 6], "played": ["C01", "C02"], "conditions": ["strengthen"]},
            "bulwark": {"cell": [2, 2], "played": ["B01", "B02"], "shield": 2, "gold": 7},
        },
        "summons": [wisp(3, 4, conditions=["poison", "wound"], hp=2)],
        "monsters": [
            mon("slinger", 1, 4, 4, conditions=["muddle"]),
            mon("marauder", 2, 5, 5, rank=ELITE, shield=1, retaliate=2, hp=3),
        ],
        "monster_cards": {"slinger": "SL1", "marauder": "MA5"},
        "coins": [[3, 2], [4, 2], [4, 2]],
        "treasures": [{"number": 1, "cell": [8, 0]}],
        "elements": {"fire": "strong", "ice": "waning"},
    },
    "a sitting-out character in selection": {
        "phase": "select",
        "characters": {"bulwark": {"cell": [2, 2], "discard": ["B03", "B04"], "lost": ["B05"]}},
        "monsters": [mon("marauder", 1, 8, 6)],
    },
    "a long rest before cleanup": {
        "sequence": ["bulwark", "conjurer", "marauder"],
        "characters": {
            "bulwark": {"cell": [2, 2], "long_rest": True, "discard": ["B01", "B02", "B03"]},
            "conjurer": {
                "cell": [1, 4],
                "played": ["C02", "C05"],
                "items": {"seers_lens": "spent", "ember_flask": "consumed"},
            },
        },
        "monsters": [mon("marauder", 1, 8, 6)],
        "monster_cards": {"marauder": "MA5"},
    },
}


@pytest.mark.parametrize("hide", [False, True], ids=["piles", "hidden piles"])
@pytest.mark.parametrize("name", list(FIXTURES))
def test_compiled_observation_is_the_references_on_fixtures(
    core_needed: None, name: str, hide: bool
) -> None:
    """16.5, HV-SEL-3: summons, elite monsters with shields, conditions, coins, treasures,
    elements, a sitting-out character and a long rest, each decision of a short random game."""
    game = new(copy.deepcopy(FIXTURES[name]), seed=1, hide_other_piles=hide)
    py, compiled = observer_for(game.scenario), fast_observer_for(game.scenario)
    for k, at in enumerate(decisions(game, 1, busy=True, steps=60)):
        assert_same(py, compiled, at, f"{name} decision {k}")


# =================================================================================================
# Differential: perturbed states (every branch of the Python, reached on purpose)


def perturbed(scn: Scenario, game: HavenGame, rng: random.Random) -> SimpleNamespace:
    """A copy of ``game``'s state with random values wherever the observer reads one, a random
    prompt and config: what the Python computes there the compiled encoder must compute too."""
    py = observer_for(scn)
    s = copy.deepcopy(game.state)
    cells = list(range(63))
    n_types = len(scn.monster_types)

    def some(pool: list[Any] | tuple[Any, ...], most: int) -> list[Any]:
        return [rng.choice(pool) for _ in range(rng.randint(0, most))]

    s.phase = rng.choice(PHASES)
    s.outcome = rng.choice(OUTCOMES)
    s.round = rng.randint(1, 40)
    s.win_met = rng.random() < 0.3
    s.elements = [rng.randrange(3) for _ in s.elements]
    s.pending_infusions = some(range(6), 4)
    s.coins = {c: rng.randint(1, 6) for c in some(cells, 4)}
    s.treasures = {c: k + 1 for k, c in enumerate(some(cells, 2))}
    if scn.map.traps:
        s.traps = sorted(set(some(cells, 4)))
    s.summons = [
        SummonState(
            owner=rng.randrange(2),
            summon=scn.summons[0].id,
            card=rng.randrange(10),
            hp=rng.randint(-2, 8),
            max_hp=rng.randint(1, 8),
            move=2,
            attack=2,
            range=0,
            cell=rng.choice(cells),
            summoned_round=1,
            number=rng.randint(1, 14),
            conditions=some(CONDITIONS, 3),
            acted=rng.random() < 0.5,
        )
        for _ in range(rng.randint(0, 3))
    ]
    for m in s.monsters:
        m.rank = rng.choice(("normal", ELITE))
        m.standee, m.hp = rng.randint(1, 12), rng.randint(-3, 12)
        m.shield, m.retaliate = rng.randint(0, 4), rng.randint(0, 4)
        m.conditions, m.acted = some(CONDITIONS, 3), rng.random() < 0.5
        m.cell = rng.choice(cells)
    kinds = [CHARACTER_SLOT, SUMMON_SLOT, MONSTER_SLOT]
    s.sequence = []
    for _ in range(rng.randint(0, 10)):
        kind = rng.choice(kinds)
        index = {CHARACTER_SLOT: rng.randrange(2), SUMMON_SLOT: rng.randint(1, 14)}.get(
            kind, rng.randrange(n_types)
        )
        s.sequence.append(Slot(kind, index, rng.randint(0, 120)))
    s.slot = rng.randint(0, 10)
    names = list(py.mod_names)
    for deck in [s.monster_amd] + [c.amd for c in s.characters]:
        deck.draw, deck.discard = some(names, 20), some(names, 10)
        deck.shuffle_due = rng.random() < 0.3
    for t, deck in enumerate(s.monster_decks):
        ids = [card.id for card in scn.monster_types[t].deck]
        deck.current = rng.choice([None, *ids])
        deck.discard, deck.draw = some(ids, 4), some(ids, 9)
    cards = list(range(-1, 12))
    for ch in s.characters:
        ch.revealed = rng.randrange(3)
        ch.lead, ch.second = rng.choice([None, *cards]), rng.choice([None, *cards])
        ch.hand, ch.played = some(cards, 9), some(cards, 3)
        ch.discard, ch.lost = some(cards, 6), some(cards, 4)
        ch.round_bonus, ch.persistent = some(cards, 2), some(cards, 2)
        ch.long_rest, ch.acted = rng.random() < 0.4, rng.random() < 0.5
        ch.sits_out, ch.exhausted = rng.random() < 0.2, rng.random() < 0.2
        ch.cell = None if rng.random() < 0.1 else rng.choice(cells)
        ch.initiative, ch.gold = rng.randint(0, 120), rng.randint(0, 40)
        ch.hp, ch.shield, ch.retaliate = rng.randint(-3, 20), rng.randint(0, 7), rng.randint(0, 7)
        ch.conditions = some(CONDITIONS, 4)
        ch.items = some(ITEM_STATES, 3)
    prompt_kinds = py.layout["prompt"]["kind"].labels
    prompt = None
    if rng.random() < 0.9:
        kind = rng.choice([SELECT_LEAD, SELECT_SECOND, rng.choice(prompt_kinds)])
        prompt = Prompt(
            kind,
            agent=rng.randrange(2),
            legal=(),
            card=rng.choice(cards),
            half=rng.randint(-1, 2),
            ability=rng.choice(["", "bogus", *ABILITY_KINDS]),
            value=rng.randint(-3, 14),
            targets=tuple(some([-1, *cells, 63], 4)),
            rest_card=rng.choice(cards),
            element=rng.randint(-1, 6),
        )
        if kind == SELECT_SECOND and rng.random() < 0.5:  # HV-SEL-4: my first pick, pending
            s.characters[prompt.agent].lead = None
    config = rng.choice(
        [
            SimpleNamespace(hide_other_piles=True),
            SimpleNamespace(hide_other_piles=False),
            SimpleNamespace(),  # getattr(config, "hide_other_piles", False)
        ]
    )
    return SimpleNamespace(state=s, prompt=prompt, config=config)


def test_compiled_observation_is_the_references_on_perturbed_states(
    core_needed: None, scn: Scenario
) -> None:
    """16.5, HV-SEL-3/4, HV-TER-2, HV-AOE-6: 400 states with random values in every field the
    observer reads (phases, reveal levels, picks, long rests, piles with out-of-range cards,
    duplicate cells, summon slots without a summon, clipped scales), random prompts of every kind
    for either seat, and configs with and without hide_other_piles."""
    py, compiled = observer_for(scn), fast_observer_for(scn)
    rng = random.Random(16)
    games = list(decisions(new_game(scn, seed=5), 5, busy=True, steps=60))
    states = [copy.deepcopy(g.state) for g in games[:: max(1, len(games) // 20)]]
    selecting = 0
    for k in range(400):
        base = SimpleNamespace(state=states[k % len(states)])
        game = perturbed(scn, base, rng)  # type: ignore[arg-type]
        selecting += game.state.phase == SELECT
        assert_same(py, compiled, game, f"perturbed state {k}")
    assert selecting > 50


# =================================================================================================
# Bad input


@pytest.fixture()
def observed(core_needed: None, scenarios) -> tuple[FastObserver, HavenGame]:
    scn = scenarios["raider_camp"]
    return fast_observer_for(scn), new_game(scn, seed=0)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda n: np.zeros(n, np.float64), ValueError, r"out must be a float32 array.*float64"),
        (lambda n: np.zeros(n, np.int32), ValueError, r"out must be a float32 array.*int32"),
        (lambda n: np.zeros(n + 1, np.float32), ValueError, r"of shape \(\d+,\), got float32"),
        (lambda n: np.zeros(n - 1, np.float32), ValueError, r"of shape \(\d+,\), got float32"),
        (lambda n: np.zeros((1, n), np.float32), ValueError, r"got float32 \(1, \d+\)"),
        (lambda n: np.zeros(2 * n, np.float32)[::2], ValueError, "contiguous"),
        (lambda n: np.zeros(n, np.float32).astype(">f4"), ValueError, "out must be a float32"),
        (lambda n: [0.0] * n, ValueError, "got list"),
    ],
    ids=["float64", "int32", "long", "short", "2-D", "strided", "big-endian", "list"],
)
def test_a_bad_output_array_is_refused_and_left_untouched(
    observed: tuple[FastObserver, HavenGame], make: Any, error: type, message: str
) -> None:
    """observe_into checks out's dtype, size, shape and contiguity before writing anything."""
    compiled, game = observed
    out = make(compiled.size)
    before = copy.deepcopy(out)
    with pytest.raises(error, match=message):
        compiled.observe_into(game, 0, out)
    if isinstance(out, np.ndarray):
        assert out.tobytes() == before.tobytes()
    else:
        assert out == before


def test_a_read_only_array_and_a_bad_seat_are_refused(
    observed: tuple[FastObserver, HavenGame],
) -> None:
    compiled, game = observed
    out = np.zeros(compiled.size, np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        compiled.observe_into(game, 0, out)
    out = np.zeros(compiled.size, np.float32)
    for seat in (-1, 2):
        with pytest.raises(ValueError, match="seat"):
            compiled.observe_into(game, seat, out)
    with pytest.raises(TypeError):
        compiled.observe_into(game, "0", out)
    with pytest.raises(TypeError, match="3 arguments"):
        compiled.observe_into(game, 0)  # type: ignore[call-arg]
    assert not out.any()


def _set(path: str, value: Any) -> Any:
    def edit(s: Any) -> None:
        *head, last = path.split(".")
        obj = s
        for name in head:
            obj = obj[int(name)] if name.isdigit() else getattr(obj, name)
        setattr(obj, last, value)

    return edit


BAD_STATES = {
    "condition": (_set("characters.0.conditions", ["sleepy"]), "sleepy"),
    "monster condition": (_set("monsters.0.conditions", ["dazed"]), "dazed"),
    "phase": (_set("phase", "lunch"), "lunch"),
    "outcome": (_set("outcome", "draw"), "draw"),
    "modifier card": (_set("monster_amd.draw", ["+9"]), r"\+9"),
    "item state": (_set("characters.1.items", ["lost"]), "lost"),
    "monster rank": (_set("monsters.0.rank", "boss"), "boss"),
    "monster ability card": (_set("monster_decks.0.current", "ZZ9"), "ZZ9"),
}


@pytest.mark.parametrize("name", list(BAD_STATES))
def test_a_name_the_tables_do_not_know_is_a_key_error_naming_it(
    observed: tuple[FastObserver, HavenGame], name: str
) -> None:
    """A bad state is an exception in both observers (KeyError, as the Python's table lookups
    raise), never a write out of bounds; out is untouched."""
    compiled, game = observed
    edit, shown = BAD_STATES[name]
    bad = SimpleNamespace(state=copy.deepcopy(game.state), prompt=game.prompt, config=game.config)
    edit(bad.state)
    out = np.full(compiled.size, 7.0, np.float32)
    with pytest.raises(KeyError):
        observer_for(game.scenario).observe(bad, 0)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match=shown):
        compiled.observe_into(bad, 0, out)
    assert np.all(out == 7.0)


def test_an_unknown_prompt_kind_and_an_area_prompt_without_areas_are_refused(
    observed: tuple[FastObserver, HavenGame],
) -> None:
    """HV-AOE-6: Raider Camp has no area attacks, so its observation has no AREA_TARGET kind."""
    compiled, game = observed
    out = np.zeros(compiled.size, np.float32)
    for kind in ("NAP", AREA_TARGET):
        bad = SimpleNamespace(state=game.state, prompt=Prompt(kind, 0, ()), config=game.config)
        with pytest.raises(KeyError, match=kind):
            compiled.observe_into(bad, 0, out)
    assert not out.any()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_set("characters.0.cell", 63), "cell 63"),
        (_set("monsters.0.cell", -1), "cell -1"),
        (_set("coins", {99: 1}), "cell 99"),
        (_set("elements", [0, 0, 3, 0, 0, 0]), "element state 3"),
        (_set("pending_infusions", [6]), "pending infusion 6"),
        (_set("traps", [4]), "no traps"),
        (_set("characters.0.hp", "full"), "hp must be a number"),
        (_set("characters.0.revealed", None), "revealed must be an int"),
    ],
)
def test_an_index_out_of_its_range_is_a_value_error_not_a_stray_write(
    observed: tuple[FastObserver, HavenGame], edit: Any, message: str
) -> None:
    """Where the Python would write into a neighbouring block (or fail later), the compiled
    encoder refuses the state, naming the value, and leaves out untouched."""
    compiled, game = observed
    bad = SimpleNamespace(state=copy.deepcopy(game.state), prompt=game.prompt, config=game.config)
    bad.state.phase = "turns"
    edit(bad.state)
    out = np.zeros(compiled.size, np.float32)
    with pytest.raises((ValueError, TypeError), match=message):
        compiled.observe_into(bad, 0, out)
    assert not out.any()


def test_numpy_integers_are_integers(observed: tuple[FastObserver, HavenGame]) -> None:
    """A seat or a state value given as a numpy integer reads as the int it is, as in Python."""
    compiled, game = observed
    state = copy.deepcopy(game.state)
    state.characters[0].gold, state.round = np.int64(12), np.int32(3)
    state.coins = {np.int64(c): np.int64(n) for c, n in state.coins.items()}
    numpy_game = SimpleNamespace(state=state, prompt=game.prompt, config=game.config)
    out = np.empty(compiled.size, np.float32)
    for seat in (np.int64(0), np.int8(1)):
        want = observer_for(game.scenario).observe(numpy_game, seat)  # type: ignore[arg-type]
        compiled.observe_into(numpy_game, seat, out)
        assert out.tobytes() == want.tobytes()


def test_an_observation_made_while_another_is_being_made_spoils_neither(
    observed: tuple[FastObserver, HavenGame],
) -> None:
    """observe_into collects the entries of each call apart; a call made from inside another
    (here from a state attribute read by the first) collects in a buffer of its own."""
    compiled, game = observed
    inner = np.empty(compiled.size, np.float32)

    class Reentrant:
        def __init__(self, state: Any) -> None:
            self.__dict__["inner"] = state

        def __getattr__(self, name: str) -> Any:
            if name == "phase":
                compiled.observe_into(game, 1, inner)
            return getattr(self.__dict__["inner"], name)

    outer = np.empty(compiled.size, np.float32)
    nested = SimpleNamespace(state=Reentrant(game.state), prompt=game.prompt, config=game.config)
    compiled.observe_into(nested, 0, outer)
    py = observer_for(game.scenario)
    assert outer.tobytes() == py.observe(game, 0).tobytes()
    assert inner.tobytes() == py.observe(game, 1).tobytes()


def test_an_observation_of_more_entries_than_the_stack_holds_is_whole(
    observed: tuple[FastObserver, HavenGame],
) -> None:
    """observe_into keeps its first entries on the stack and moves them to the heap when there
    are more (here a condition listed 1,500 times and a modifier pile of 1,500 cards): every
    entry is written, and a refused state leaves out untouched however many came before."""
    compiled, game = observed
    state = copy.deepcopy(game.state)
    state.characters[0].conditions = ["poison", "wound", "stun"] * 500
    state.monster_amd.draw = ["+1", "-1", "x2"] * 500
    many = SimpleNamespace(state=state, prompt=game.prompt, config=game.config)
    out = np.empty(compiled.size, np.float32)
    for me in (0, 1):
        compiled.observe_into(many, me, out)
        assert out.tobytes() == observer_for(game.scenario).observe(many, me).tobytes()  # type: ignore[arg-type]
    state.characters[1].items = ["lost"]  # refused after the 3,000 entries of the other blocks
    out[:] = 7.0
    with pytest.raises(KeyError, match="lost"):
        compiled.observe_into(many, 0, out)
    assert np.all(out == 7.0)


def test_the_field_readers_give_the_named_fields_in_order(
    observed: tuple[FastObserver, HavenGame],
) -> None:
    """The C encoder unpacks what game_fields, monster_fields and character_fields read by
    position: each gives the attributes its names tuple lists, in that order."""
    _, game = observed
    state = game.state
    assert state.monsters and state.characters
    want = [tuple(getattr(m, f) for f in fast_observer.MONSTER_FIELDS) for m in state.monsters]
    assert fast_observer.monster_fields(state.monsters) == want
    for ch in state.characters:
        want_ch = tuple(attrgetter(f)(ch) for f in fast_observer.CHARACTER_FIELDS)
        assert fast_observer.character_fields(ch) == want_ch
    got = fast_observer.game_fields(game)
    names = fast_observer.GAME_FIELDS
    assert got[names.index("monsters")] == want
    assert got[names.index("hide_other_piles")] is game.config.hide_other_piles
    for k, name in enumerate(names):
        if name not in ("monsters", "hide_other_piles", "state", "prompt"):
            assert got[k] == attrgetter(name)(state), name
    assert got[:2] == (game.state, game.prompt)


def test_observe_returns_a_new_array_each_time(observed: tuple[FastObserver, HavenGame]) -> None:
    compiled, game = observed
    first = compiled.observe(game, 0)
    first[:] = 7.0
    again = compiled.observe(game, 0)
    assert not np.shares_memory(first, again) and np.all(again <= 1.0)
    assert again.dtype == np.float32 and again.shape == (compiled.size,)


def test_an_environment_with_the_compiled_observer_pickles_and_copies() -> None:
    """16.5: an environment not yet reset pickles and deep-copies (as vector wrappers and
    worker pools do) with its compiled observer, which is built again from the scenario and
    observes as the original does."""
    env = haven_v0.env()
    expected = "FastObserver" if fast.resolve_backend(None) == "fast" else "Observer"
    assert type(env.rules.observer).__name__ == expected
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for e in (env, *twins):
        e.reset(seed=11)
    first = env.observe(env.agent_selection)["observation"]
    for twin in twins:
        assert type(twin.rules.observer) is type(env.rules.observer)
        assert np.array_equal(twin.observe(twin.agent_selection)["observation"], first)
