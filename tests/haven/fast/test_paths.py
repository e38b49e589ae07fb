"""Haven's compiled path costs: ``fast._core.path_graph`` / ``path_costs``, through
:class:`CompiledPathGraph` (fast/kernels.py), give the lists of the reference :class:`PathGraph`
(rules/path_graph.py) element by element, and refuse bad input; the env's ``backend`` picks them.

Rule ids: HV-AI-2 (passable and endable cells, steps), HV-AI-10 (costs with negative hexes
first, then points), HV-JMP-2 (a jump passes any non-wall cell; its last hex adds), HV-FLY-2 (a
flight passes any non-wall cell), HV-TER-4 (difficult terrain costs 2), HV-TER-6/7 (the paths
walked, from the costs). The states are those of uniformly random play of both bundled
scenarios; Mire Crossing has traps, hazardous and difficult terrain.

A missing core fails these tests, never skips them (as for Earth Reborn's core).
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reborn_env import haven_v0
from reborn_env.games.haven import fast
from reborn_env.games.haven.fast import kernels as fast_kernels
from reborn_env.games.haven.fast.kernels import (
    COMPILED,
    CompiledPathGraph,
    CompiledSlideGraph,
    compiled_path_graph,
)
from reborn_env.games.haven.fast.mask import mark_legal_reference
from reborn_env.games.haven.match import HavenRules
from reborn_env.games.haven.rules.context import Kernels, RuleContext
from reborn_env.games.haven.rules.engine import HavenGame, new_game
from reborn_env.games.haven.rules.figures import all_figures, board_for
from reborn_env.games.haven.rules.kernels import REFERENCE
from reborn_env.games.haven.rules.path_graph import PathGraph, character_path
from reborn_env.games.haven.rules.state import Figure, SummonState
from reborn_env.games.haven.rules.terrain import FLY, JUMP, NEGATIVE, TELEPORT, WALK
from reborn_env.games.haven.scenario.loader import load_scenario
from tests.haven.fast.event_logs import event_log
from tests.haven.helpers import BUNDLED

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = {name: load_scenario(name) for name in BUNDLED}
KINDS = (WALK, JUMP, FLY)
LISTS = ("passable", "endable", "cost", "dist", "points", "weights")


def test_the_core_is_built_wherever_its_sources_and_a_compiler_are() -> None:
    """setup.py's build is optional, so a failed compile only warns: this is where it fails. The
    env's graphs use it by default then, unless ``$REBORN_ENV_BACKEND`` is ``python``."""
    if fast.build_expected():
        assert fast.AVAILABLE, f"the compiled core was not built: {fast.IMPORT_ERROR}"
        assert hasattr(fast.core, "path_graph") and hasattr(fast.core, "PathBoard")
    assert (fast.core is None) == (fast.IMPORT_ERROR is not None) == (not fast.AVAILABLE)
    forced = os.environ.get(fast.BACKEND_VARIABLE) == "python"
    default = HavenRules().kernels.path_graph
    assert default is (compiled_path_graph if fast.AVAILABLE and not forced else PathGraph)


# ------------------------------------------------------------------------------------------------
# Helpers


def same(a: Any, b: Any) -> bool:
    """Equal element by element and of the same types (True is not 1, None is None)."""
    return repr(a) == repr(b)


def assert_same_graph(got: PathGraph, want: PathGraph, where: str) -> None:
    """Every list a graph's users read (HV-AI-2/10, HV-JMP-2, HV-FLY-2), and which of them are
    one list (dist is cost, points is dist, as the reference shares them)."""
    for name in LISTS:
        assert same(getattr(got, name), getattr(want, name)), f"{name} differs: {where}"
    assert (got.dist is got.cost) == (want.dist is want.cost), where
    assert (got.points is got.dist) == (want.points is want.dist), where


def decisions(
    name: str, seeds: range, steps: int, kernels: Kernels = COMPILED
) -> Iterator[tuple[HavenGame, int]]:
    """The live game at each decision of uniformly random play (before its answer is given),
    with the decision's number, its rules calling ``kernels``."""
    for seed in seeds:
        game = new_game(SCENARIOS[name], seed=seed, kernels=kernels)
        rng = random.Random(seed)
        for n in range(steps):
            if game.prompt is None:
                break
            yield game, n
            game.apply(rng.choice(game.legal_actions()))


@contextmanager
def a_summon_added(ctx: RuleContext, rng: random.Random) -> Iterator[None]:
    """Random play summons rarely, so for a while the Conjurer's summon stands on a random free
    floor cell (a mover of its own, an enemy of the monsters, HV-STURN-2); then it is gone."""
    board, state = board_for(ctx.scenario), ctx.state
    taken = {f.cell for f in all_figures(state)}
    free = [c for c, floor in enumerate(board.floor) if floor and c not in taken]
    summon = SummonState(1, "ember_wisp", 2, 2, 2, 2, 1, 0, rng.choice(free), 1, 99)
    state.summons.append(summon)
    try:
        yield
    finally:
        state.summons.remove(summon)


def goals(ctx: RuleContext, mover: Figure, rng: random.Random) -> list[int]:
    """Cells to ask ``remaining`` of: the mover's, the other figures', walls and floor alike."""
    size = len(board_for(ctx.scenario).floor)
    cells = {mover.cell, *(f.cell for f in all_figures(ctx.state))}
    return sorted(cells | {rng.randrange(size) for _ in range(3)})  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------
# Differential: the compiled graph is the reference's


def check_every_mover(ctx: RuleContext, where: str, rng: random.Random, seen: Counter) -> None:
    """For every figure on the map, every move kind and both ``price_negatives``: the compiled
    graph's lists, ``remaining`` for several goals, ``steps_from`` several sources and the
    HV-TER-6/7 paths are the reference's. On a map with ice a walk's compiled graph is the
    kernels' :class:`CompiledSlideGraph` (HV-ICE-2..4)."""
    icy = board_for(ctx.scenario).has_ice
    for mover in all_figures(ctx.state):
        seen[type(mover).__name__] += 1
        for kind in KINDS:
            for price in (True, False):
                at = f"{where} {type(mover).__name__} at {mover.cell} {kind} {price}"
                want = PathGraph(ctx, mover, kind, price)
                compiled = CompiledSlideGraph if icy and kind == WALK else CompiledPathGraph
                got = compiled_path_graph(ctx, mover, kind, price)
                assert type(got) is compiled and type(want) is PathGraph
                seen["slides"] += compiled is CompiledSlideGraph
                assert_same_graph(got, want, at)
                seen["graphs"] += 1
                seen["weighted"] += want.weights is not None
                seen["negative"] += any(d is not None and d >= NEGATIVE for d in want.dist)
                seen["unreached"] += None in want.cost
                for goal in goals(ctx, mover, rng):
                    assert same(got.remaining(goal), want.remaining(goal)), f"{at} goal {goal}"
                    seen["remaining"] += 1
                sources = rng.sample(range(len(want.passable)), 3)
                assert same(got.steps_from(sources), want.steps_from(sources)), at
                cell = rng.choice([c for c, d in enumerate(want.cost) if d is not None])
                assert got.path(cell) == want.path(cell), at
                budget = want.points[cell]
                if kind == WALK and not price and budget is not None:
                    walked = character_path(ctx, got, cell, budget)
                    assert walked == character_path(ctx, want, cell, budget), at


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_mover_kind_and_pricing_of_random_play_gives_the_reference_lists(name: str) -> None:
    """HV-AI-2, HV-AI-10, HV-JMP-2, HV-FLY-2, HV-TER-6/7: at every decision of random play, for
    every figure on the map (characters, summons, monsters), every move kind and both
    ``price_negatives``, the compiled graph is the reference's (:func:`check_every_mover`)."""
    rng = random.Random(name)
    seen: Counter = Counter()
    for game, n in decisions(name, range(4), 250):
        ctx = game.context
        with a_summon_added(ctx, rng) if n % 3 == 0 else nullcontext():
            check_every_mover(ctx, f"{name} decision {n}", rng, seen)
    assert min(seen[m] for m in ("CharacterState", "MonsterState", "SummonState")) > 50, seen
    assert seen["graphs"] > 5000 and seen["remaining"] > 20000, seen
    assert seen["unreached"] > 0, seen
    if name == "mire_crossing":  # the terrain is exercised: Dijkstra, negative hexes priced
        assert seen["weighted"] > 1000 and seen["negative"] > 100, seen
    else:
        assert seen["weighted"] == seen["negative"] == 0, seen


class CheckedGraph(CompiledPathGraph):
    """A compiled graph that builds the reference's beside it and holds every list it gives the
    rules, and every ``remaining`` they ask, to the reference's."""

    built: list[str] = []

    def __init__(
        self,
        ctx: RuleContext,
        mover: Figure,
        kind: str = WALK,
        price_negatives: bool = True,
    ) -> None:
        super().__init__(ctx, mover, kind, price_negatives)
        self.reference = PathGraph(ctx, mover, kind, price_negatives)
        assert_same_graph(self, self.reference, f"{kind} {price_negatives}")
        CheckedGraph.built.append(kind)

    def remaining(self, goal: int) -> list[int | None]:
        got = super().remaining(goal)
        assert same(got, self.reference.remaining(goal))
        CheckedGraph.built.append("remaining")
        return got


def checked_graph(
    ctx: RuleContext, mover: Figure, kind: str = WALK, price_negatives: bool = True
) -> PathGraph:
    """The compiled kernels' graph, checked against the reference's: a :class:`CheckedGraph`,
    or a walk's slide graph on a map with ice, its lists compared at once (the kernels give the
    reference's own graph for a teleport)."""
    graph = compiled_path_graph(ctx, mover, kind, price_negatives)
    if type(graph) is CompiledPathGraph:
        return CheckedGraph(ctx, mover, kind, price_negatives)
    if type(graph) is CompiledSlideGraph:
        assert_same_graph(graph, PathGraph(ctx, mover, kind, price_negatives), "slides")
        CheckedGraph.built.append("slides")
    CheckedGraph.built.append(kind)
    return graph


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_graph_the_rules_build_in_play_is_the_reference_graph(name: str) -> None:
    """HV-AI-2..10, HV-JMP-2, HV-FLY-2, HV-TER-7: each graph monster and summon turns and
    character moves build in random play, mid-turn ones included, at the moment and with the
    kind and pricing the rules use, is the reference's, and so is each ``remaining`` asked."""
    checked = COMPILED._replace(path_graph=checked_graph)
    CheckedGraph.built = []
    assert sum(1 for _ in decisions(name, range(40), 400, checked)) > 1000  # each checks graphs
    built = CheckedGraph.built
    assert len(built) > 1000 and WALK in built, name
    if not board_for(SCENARIOS[name]).has_ice:  # there a walk's graph is the reference's own
        assert built.count("remaining") > 100, name
    if name == "mire_crossing":  # Harpies fly
        assert FLY in built
    if name == "walled_camp":  # Shadow Leap and Veil Blink teleport (HV-TEL-1), on ice
        assert TELEPORT in built and built.count("slides") > 500


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_random_games_play_the_same_on_the_core_and_on_the_reference(name: str) -> None:
    """A few hundred random decisions of each scenario, with every graph compiled and
    with every graph the reference's (the kernels' ``path_graph``), give one event log."""
    compiled = event_log(name, range(10), 300, COMPILED)
    assert event_log(name, range(10), 300, COMPILED._replace(path_graph=PathGraph)) == compiled


def test_the_environment_variable_sets_the_default_backend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``REBORN_ENV_BACKEND=python`` makes the reference the default (as for Earth Reborn), and
    the games of both defaults are the same; another value is refused by name."""
    monkeypatch.setenv(fast.BACKEND_VARIABLE, "python")
    python = HavenRules("mire_crossing")
    assert python.backend == "python" and python.kernels is REFERENCE
    assert HavenRules(backend="fast").kernels is COMPILED  # the argument wins
    monkeypatch.delenv(fast.BACKEND_VARIABLE)
    default = HavenRules("mire_crossing")
    assert default.backend == "fast" and default.kernels is COMPILED
    log = event_log("mire_crossing", range(2), 200, python.kernels)
    assert event_log("mire_crossing", range(2), 200, default.kernels) == log
    monkeypatch.setenv(fast.BACKEND_VARIABLE, "quick")
    wrong = "REBORN_ENV_BACKEND must be one of fast, python, got 'quick'"
    with pytest.raises(ValueError, match=re.escape(wrong)):
        HavenRules()


def test_the_default_follows_the_variable_and_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fast.BACKEND_VARIABLE, raising=False)
    assert fast.resolve_backend(None) == ("fast" if fast.AVAILABLE else "python")
    monkeypatch.setenv(fast.BACKEND_VARIABLE, "python")
    assert fast.resolve_backend(None) == "python"
    monkeypatch.delenv(fast.BACKEND_VARIABLE)
    monkeypatch.setattr(fast, "AVAILABLE", False)
    assert fast.resolve_backend(None) == "python"  # nothing compiled: the reference
    monkeypatch.setenv(fast.BACKEND_VARIABLE, "fast")
    with pytest.raises(fast.CoreUnavailableError, match="backend='fast' needs haven's compiled"):
        fast.resolve_backend(None)  # asked for by name: as for Earth Reborn, an error


def test_asking_for_the_missing_core_or_an_unknown_backend_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match="backend must be one of 'fast', 'python', got 'quick'"):
        haven_v0.env(backend="quick")
    monkeypatch.setattr(fast, "AVAILABLE", False)
    monkeypatch.setattr(fast, "IMPORT_ERROR", "no _core extension was built")
    missing = r"compiled core, which is not built \(no _core"
    with pytest.raises(fast.CoreUnavailableError, match=missing):
        haven_v0.env(backend="fast")
    assert haven_v0.env(backend="python").rules.kernels is REFERENCE


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_the_backend_picks_every_compiled_piece_or_none_and_copies_keep_it(backend: str) -> None:
    """One choice: the observer (16.5), the mask writer (16.4) and the kernels the env's games
    call (HV-AI-2..10, HV-TER-7); copied and pickled envs keep it, and so do their games."""
    env = haven_v0.env(backend=backend)
    rules = env.rules
    compiled = backend == "fast"
    assert env.backend == rules.backend == backend
    assert rules.kernels is (COMPILED if compiled else REFERENCE)
    assert type(rules.observer).__name__ == ("FastObserver" if compiled else "Observer")
    assert rules.mark_legal is (fast.core.mark_legal if compiled else mark_legal_reference)
    env.reset(seed=4)
    for twin in (env, copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert twin.backend == backend and twin.rules.kernels is rules.kernels
        assert twin.game.kernels == rules.kernels
        assert twin.game.clone().kernels == rules.kernels


def test_the_weights_cache_stays_bounded_and_right(monkeypatch: pytest.MonkeyPatch) -> None:
    """HV-AI-10, HV-TER-4: with room for two sets of unsprung traps (random ones here) the cache
    is emptied when full, and the weights and costs are still the reference's."""
    monkeypatch.setattr(fast_kernels, "WEIGHTS_CACHE_SIZE", 2)
    scenario = SCENARIOS["mire_crossing"]
    cache = fast_kernels.compiled_board(scenario).weights
    cache.clear()
    rng = random.Random(3)
    game = new_game(scenario, seed=3)
    mover = all_figures(game.state)[0]
    floor = [c for c, f in enumerate(board_for(scenario).floor) if f]
    for _ in range(20):
        game.state.traps = rng.sample(floor, rng.randrange(5))
        for price in (True, False):
            for kind in (WALK, JUMP):
                got = CompiledPathGraph(game.context, mover, kind, price)
                want = PathGraph(game.context, mover, kind, price)
                assert_same_graph(got, want, f"traps {game.state.traps}")
            assert len(cache) <= 2


# ------------------------------------------------------------------------------------------------
# The searches alone, on any board: the reference's own code on random tables


def reference_costs(
    neighbours: list[list[int]],
    passable: list[bool],
    sources: list[int],
    weights: list[int] | None,
    reverse: bool,
) -> list[int | None]:
    """PathGraph.steps_from / remaining of the reference, on a bare table (its code, not a copy)."""
    graph = object.__new__(PathGraph)
    graph.board = SimpleNamespace(neighbours=neighbours)  # type: ignore[assignment]
    graph.kind, graph.passable, graph.weights = WALK, passable, weights
    if weights is None:
        return graph.steps_from(sources)
    return graph._weighted(sources, reverse)


def random_board(rng: random.Random) -> dict[str, Any]:
    """A random table: 1..40 cells, neighbours in any order (repeats, self-loops, one-way), any
    flags, weights with zeros and ties."""
    n = rng.randint(1, 40)
    neighbours = [[rng.randrange(n) for _ in range(rng.randint(0, 6))] for _ in range(n)]
    return {
        "n": n,
        "neighbours": neighbours,
        "floor": [rng.random() < 0.8 for _ in range(n)],
        "walls": [rng.random() < 0.2 for _ in range(n)],
        "weights": [rng.choice((0, 1, 1, 2, NEGATIVE, NEGATIVE + 1, 7)) for _ in range(n)],
    }


def test_the_searches_give_the_reference_costs_on_random_tables() -> None:
    """HV-AI-2 (breadth first), HV-AI-10 (Dijkstra, forwards and towards the sources): least
    costs from any sources, duplicates and unreached cells included, on 3000 random tables."""
    rng = random.Random(16)
    for _ in range(3000):
        b = random_board(rng)
        n = b["n"]
        board = fast.core.PathBoard(b["neighbours"], b["floor"], b["walls"], NEGATIVE)
        passable = [rng.random() < 0.85 for _ in range(n)]
        sources = [rng.randrange(n) for _ in range(rng.randint(0, 3))]
        for weights in (None, b["weights"]):
            for reverse in (False, True):
                want = reference_costs(b["neighbours"], passable, sources, weights, reverse)
                got = fast.core.path_costs(board, passable, sources, weights, reverse)
                assert same(got, want), (b, passable, sources, weights, reverse)


def test_path_graph_gives_the_reference_lists_on_random_tables() -> None:
    """HV-AI-2: passable (a walk: floor not held by an enemy; else not a wall) and endable (floor
    held by no other figure); cost from the start, dist with a jump's landing added, points
    modulo NEGATIVE (HV-AI-10), landing weights of either sign."""
    rng = random.Random(2)
    for _ in range(2000):
        b = random_board(rng)
        n, floor, walls = b["n"], b["floor"], b["walls"]
        modulus = rng.choice((0, NEGATIVE, 7))
        board = fast.core.PathBoard(b["neighbours"], floor, walls, modulus)
        start = rng.randrange(n)
        enemies = [rng.randrange(n) for _ in range(rng.randint(0, 4))]
        others = [rng.randrange(n) for _ in range(rng.randint(0, 4))]
        walk = rng.random() < 0.5
        weights = b["weights"] if rng.random() < 0.5 else None
        landing = [rng.randint(-3, NEGATIVE + 2) for _ in range(n)] if rng.random() < 0.5 else None
        passable = [floor[c] and c not in enemies if walk else not walls[c] for c in range(n)]
        endable = [floor[c] and c not in others for c in range(n)]
        cost = reference_costs(b["neighbours"], passable, [start], weights, False)
        dist = (
            cost
            if landing is None
            else [d if d is None else d + landing[c] for c, d in enumerate(cost)]
        )
        points = dist if not modulus else [d if d is None else d % modulus for d in dist]
        got = fast.core.path_graph(board, start, enemies, others, walk, weights, landing)
        assert same(got, (passable, endable, cost, dist, points))
        assert (got[3] is got[2]) == (landing is None)
        assert (got[4] is got[3]) == (not modulus)


# ------------------------------------------------------------------------------------------------
# Bad input


def small_board() -> Any:
    """Three cells in a row, the middle one a wall."""
    return fast.core.PathBoard([[1], [0, 2], [1]], [True, False, True], [False, True, False])


ARGS = {"start": 0, "enemies": [], "others": [], "walk": True, "weights": None, "landing": None}


def graph_with(**change: Any) -> Any:
    args = {**ARGS, **change}
    return fast.core.path_graph(small_board(), *args.values())


BAD_GRAPH_INPUT = [
    ({"start": 3}, ValueError, r"start must be in 0\.\.2, got 3"),
    ({"start": -1}, ValueError, r"start must be in 0\.\.2, got -1"),
    ({"start": 2**70}, ValueError, r"start must be in 0\.\.2"),
    ({"start": True}, TypeError, "start must be an integer, got True"),
    ({"start": 1.0}, TypeError, "start must be an integer"),
    ({"enemies": [0, 3]}, ValueError, r"enemies\[1\] must be in 0\.\.2, got 3"),
    ({"enemies": 5}, TypeError, "enemies must be a sequence"),
    ({"others": [-1]}, ValueError, r"others\[0\] must be in 0\.\.2, got -1"),
    ({"others": ["a"]}, TypeError, r"others\[0\] must be an integer"),
    ({"weights": [1, 1]}, ValueError, r"weights must hold one value per cell \(3\), got 2"),
    ({"weights": [1, 1, 1, 1]}, ValueError, "weights must hold one value per cell"),
    ({"weights": [1, -1, 1]}, ValueError, r"weights\[1\] must be in 0\.\.2147483647"),
    ({"weights": [1, 2**31, 1]}, ValueError, r"weights\[1\] must be in 0\.\.2147483647"),
    ({"landing": [0]}, ValueError, "landing must hold one value per cell"),
    ({"landing": [0, 0, 2**40]}, ValueError, r"landing\[2\] must be in"),
]


@pytest.mark.parametrize(("change", "error", "words"), BAD_GRAPH_INPUT)
def test_path_graph_refuses_bad_input_by_name(change: dict, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        graph_with(**change)


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        (([[1], [0, 2], [1]], [True, True, True], [False] * 2), ValueError, "walls must hold"),
        (([[1], [0, 2], [1]], [True] * 4, [False] * 3), ValueError, r"floor must hold .*got 4"),
        (([[1], [0, 3], [1]], [True] * 3, [False] * 3), ValueError, r"neighbours\[1\]\[1\]"),
        (([[1], [0, -2], [1]], [True] * 3, [False] * 3), ValueError, r"neighbours\[1\]\[1\]"),
        (([[1], 0, [1]], [True] * 3, [False] * 3), TypeError, r"neighbours\[1\] must be a seq"),
        (([], [], []), ValueError, "neighbours must list 1"),
        (([[0]], [True], [False], -1), ValueError, "modulus must be in 0"),
        ((None, [True], [False]), TypeError, "neighbours must be a sequence"),
    ],
)
def test_the_board_refuses_bad_tables_by_name(args: tuple, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        fast.core.PathBoard(*args)


def test_path_costs_refuses_bad_input_by_name() -> None:
    board = small_board()
    ok = [True, True, True]
    with pytest.raises(ValueError, match=r"sources\[1\] must be in 0\.\.2, got 9"):
        fast.core.path_costs(board, ok, [0, 9], None, False)
    with pytest.raises(ValueError, match=r"passable must hold one value per cell \(3\), got 2"):
        fast.core.path_costs(board, ok[:2], [0], None, False)
    with pytest.raises(ValueError, match=r"weights\[0\] must be in"):
        fast.core.path_costs(board, ok, [0], [-5, 1, 1], True)
    with pytest.raises(TypeError, match="board must be a PathBoard"):
        fast.core.path_costs(object(), ok, [0], None, False)
    with pytest.raises(TypeError, match="path_costs takes 5 arguments"):
        fast.core.path_costs(board, ok, [0], None)
    with pytest.raises(TypeError, match="path_graph takes 7 arguments"):
        fast.core.path_graph(board, 0, [], [], True, None)
    with pytest.raises(ZeroDivisionError):  # an error of the caller's sequence is passed on
        fast.core.path_costs(board, [True, _Boom(), True], [0], None, False)
    assert fast.core.path_costs(board, ok, [], None, False) == [None, None, None]
    assert fast.core.path_costs(board, ok, (2, 2), None, False) == [2, 1, 0]
    assert fast.core.path_graph(board, 0, (), (), False, None, None)[2] == [0, None, None]
    obstacle = fast.core.PathBoard([[1], [0, 2], [1]], [True, False, True], [False] * 3)
    assert fast.core.path_graph(obstacle, 0, (), (), False, None, None)[2] == [0, 1, 2]  # HV-JMP-2
    assert fast.core.path_graph(obstacle, 0, (), (), True, None, None)[2] == [0, None, None]
    assert fast.core.path_graph(obstacle, 0, [2], [2], True, None, None)[:2] == (
        [True, False, False],
        [True, False, False],
    )


class _Emptier:
    """A cell id or truth value that empties the list holding it as it is read."""

    def __init__(self, holder: list) -> None:
        self.holder = holder

    def __index__(self) -> int:
        self.holder.clear()
        return 0

    def __bool__(self) -> bool:
        self.holder.clear()
        return True


def test_a_list_changed_while_it_is_read_is_an_error_not_a_crash() -> None:
    """Reading a value can run Python code that changes the list being read: the core notices
    instead of reading past the list's new end."""
    board = small_board()
    calls = {
        "enemies": lambda v: fast.core.path_graph(board, 0, v, [], True, None, None),
        "others": lambda v: fast.core.path_graph(board, 0, [], v, True, None, None),
        "weights": lambda v: fast.core.path_graph(board, 0, [], [], True, v, None),
        "landing": lambda v: fast.core.path_graph(board, 0, [], [], True, None, v),
        "passable": lambda v: fast.core.path_costs(board, v, [0], None, False),
        "sources": lambda v: fast.core.path_costs(board, [True] * 3, v, None, False),
    }
    for name, call in calls.items():
        values: list = [0, 0, 0]
        values[0] = _Emptier(values)
        with pytest.raises(RuntimeError, match=f"{name} changed size while it was read"):
            call(values)
    rows: list = [[1], [0, 2], [1]]
    rows[0] = [_Emptier(rows[2])]
    with pytest.raises(RuntimeError, match=r"neighbours\[2\] changed size"):
        fast.core.PathBoard(rows, [True] * 3, [False] * 3)
    rows = [[1], [0, 2], [1]]
    rows[0] = [_Emptier(rows)]  # the rows are all taken before any cell is read
    assert fast.core.PathBoard(rows, [True] * 3, [False] * 3).cells == 3


class _Boom:
    """A value whose truth cannot be told."""

    def __bool__(self) -> bool:
        raise ZeroDivisionError


def test_nothing_is_written_out_of_bounds_under_the_debug_allocator() -> None:
    """Python's debug allocator checks the guard bytes around every block the core allocates
    when it is freed: the random tables and every refusal above, run under it, disturb none."""
    script = (
        "import random\n"
        "from tests.haven.fast import test_paths as t\n"
        "t.test_the_searches_give_the_reference_costs_on_random_tables()\n"
        "t.test_path_graph_gives_the_reference_lists_on_random_tables()\n"
        "t.test_path_costs_refuses_bad_input_by_name()\n"
        "t.test_a_list_changed_while_it_is_read_is_an_error_not_a_crash()\n"
        "for change, error, words in t.BAD_GRAPH_INPUT:\n"
        "    try:\n"
        "        t.graph_with(**change)\n"
        "    except error:\n"
        "        pass\n"
        "    else:\n"
        "        raise AssertionError(change)\n"
        "print('clean')\n"
    )
    env = {**os.environ, "PYTHONMALLOC": "debug", "PYTHONDEVMODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == "clean", done.stderr[-3000:]


def test_slide_costs_refuse_bad_input_by_name_and_slide_on_ice() -> None:
    """HV-ICE-2/3 on a 3-cell line with the middle cell icy: a walk's step from 0 into 1 slides
    on to 2 (one step, cost 1), and 1 is reached by no step; with 2 held by another figure it
    stops on 1. The way to 0 is one step from 1 and one slide from 2. Bad tables and arguments are
    refused by name."""
    line = ([[1], [0, 2], [1]], [True] * 3, [False] * 3, 0)
    rays = [[(1, 2)], [(0,), (2,)], [(1, 0)]]
    board = fast.core.PathBoard(*line, [False, True, False], rays)
    ok = [True, True, True]
    assert fast.core.slide_costs(board, ok, [], [0], None, False) == [0, None, 1]
    assert fast.core.slide_costs(board, ok, [2], [0], None, False) == [0, 1, 2]
    assert fast.core.slide_costs(board, ok, [], [0], None, True) == [0, 1, 1]  # the way to 0
    with pytest.raises(TypeError, match="icy and rays together"):
        fast.core.PathBoard(*line, [False, True, False])
    with pytest.raises(ValueError, match=r"rays\[0\]\[0\] must list 1\.\.3 cells, got 0"):
        fast.core.PathBoard(*line, [False] * 3, [[()], [], []])
    with pytest.raises(ValueError, match=r"rays\[1\]\[0\]\[0\] must be in 0\.\.2, got 5"):
        fast.core.PathBoard(*line, [False] * 3, [[], [(5,)], []])
    with pytest.raises(ValueError, match="needs a PathBoard built with icy and rays"):
        fast.core.slide_costs(small_board(), ok, [], [0], None, False)
    with pytest.raises(ValueError, match=r"others\[0\] must be in 0\.\.2, got 7"):
        fast.core.slide_costs(board, ok, [7], [0], None, False)
    with pytest.raises(TypeError, match="slide_costs takes 6 arguments"):
        fast.core.slide_costs(board, ok, [], [0], None)
