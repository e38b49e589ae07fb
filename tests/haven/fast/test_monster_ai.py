"""Haven's compiled single-target monster AI: ``fast._core.ai_ranking`` and
``ai_destination``, through :func:`fast_kernels.compiled_focus_ranking` and
:func:`fast_kernels.compiled_destination`, give what the reference
:func:`monster_ai.focus_ranking` and :func:`monster_ai.destination` give, and refuse bad input.

Rule ids: HV-AI-1 (candidates: enemies on the map, not invisible), HV-AI-3 (attack hexes:
endable cells in range and sight; no attack or disarmed: as melee), HV-AI-4 (the focus key:
cost, proximity, turn position; ties by the full key), HV-AI-5 (Case A within the move, Case B
on a best path to the best hex with movement unlimited; the order of attack hexes with the
extra targets of a multi-target attack), HV-AI-6 (the ranking ranks the extra targets),
HV-AI-10 (only the hexes whose path has the fewest negative hexes), HV-COND-7 (a muddled mover
is hampered anyway, so a ranged one does not avoid adjacent hexes), HV-JMP-2 (a jump's landing
weight in the final tie-break ``(dist - cost, remaining, c)``), HV-FLY-2 (flights).

The states are those of uniformly random play of both bundled scenarios (Mire Crossing has
traps, hazardous and difficult terrain and flying Harpies). At each single-target call the
rules make, the compiled answer is compared with the reference's, and so are those of variant
plans (other moves, reaches, target counts, ranged or not), of a muddled mover, of every move
kind's graph and of every candidate as the focus, on the same state. Area plans (HV-AOE-*) keep
the Python and are not compiled.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from reborn_env.games.haven import fast
from reborn_env.games.haven.fast import kernels as fast_kernels
from reborn_env.games.haven.fast.kernels import COMPILED, CompiledPathGraph, compiled_path_graph
from reborn_env.games.haven.match import HavenRules
from reborn_env.games.haven.rules import monster_ai
from reborn_env.games.haven.rules.context import RuleContext
from reborn_env.games.haven.rules.engine import new_game
from reborn_env.games.haven.rules.figures import board_for
from reborn_env.games.haven.rules.kernels import REFERENCE
from reborn_env.games.haven.rules.monster_plan import UNREACHED, Plan
from reborn_env.games.haven.rules.path_graph import PathGraph
from reborn_env.games.haven.rules.state import Figure
from reborn_env.games.haven.rules.terrain import FLY, JUMP, NEGATIVE, WALK
from reborn_env.games.haven.scenario.loader import load_scenario
from tests.haven.fast.event_logs import event_log
from tests.haven.helpers import BUNDLED

SCENARIOS = {name: load_scenario(name) for name in BUNDLED}
KINDS = (WALK, JUMP, FLY)


def test_the_core_is_built_and_the_backend_picks_the_ai() -> None:
    """Where the core should be built it is, with the AI's functions; the backend gives the
    compiled AI with the compiled graphs, the reference with the reference's."""
    if fast.build_expected():
        assert fast.AVAILABLE, f"the compiled core was not built: {fast.IMPORT_ERROR}"
        assert hasattr(fast.core, "ai_ranking") and hasattr(fast.core, "AIBoard")
    compiled, python = HavenRules(backend="fast").kernels, HavenRules(backend="python").kernels
    assert compiled.focus_ranking is fast_kernels.focus_ranking
    assert compiled.destination is fast_kernels.destination
    assert python.focus_ranking is monster_ai.focus_ranking
    assert python.destination is monster_ai.destination


def same(a: Any, b: Any) -> bool:
    """Equal element by element and of the same types (True is not 1, None is None)."""
    return repr(a) == repr(b)


reference_ranking = monster_ai.focus_ranking
reference_destination = monster_ai.destination


def compare_ranking(ctx: RuleContext, mover: Figure, plan: Plan, graph: PathGraph, seen: Counter):
    """The compiled ranking is the reference's: same keys, same figures (the very objects)."""
    want = reference_ranking(ctx, mover, plan, graph)
    got = fast_kernels.compiled_focus_ranking(ctx, mover, plan, graph)
    assert same(got, want), (plan, mover)
    assert [f for _, f in got] == [f for _, f in want]
    assert all(g is w for (_, g), (_, w) in zip(got, want, strict=True))
    seen["rankings"] += 1
    seen["unreached"] += any(k[0] == UNREACHED for k, _ in want)
    seen["ties"] += len({k[:2] for k, _ in want}) < len(want)
    return want


def compare_destination(
    ctx: RuleContext,
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: Any,
    seen: Counter,
) -> int:
    """The compiled destination is the reference's; where the reference fails (a plan of 0
    move points from a hex that costs points to land on, which the rules never make: they move
    only with ``plan.move``), the compiled one fails with the same exception."""
    try:
        want = reference_destination(ctx, mover, plan, target, graph, ranking)
    except (ValueError, TypeError) as error:
        with pytest.raises(type(error)):
            fast_kernels.compiled_destination(ctx, mover, plan, target, graph, ranking)
        seen["refused"] += 1
        return mover.cell
    got = fast_kernels.compiled_destination(ctx, mover, plan, target, graph, ranking)
    assert type(got) is int and got == want, (plan, mover, target, graph.kind)
    seen["destinations"] += 1
    seen["moved"] += want != mover.cell
    seen["case A"] += (
        plan.reach is not None
        and graph.points[want] is not None
        and (want in monster_ai.attack_hexes(graph, target, plan.reach))
    )
    seen["terrain"] += any(d is not None and d >= NEGATIVE for d in graph.dist)
    return want


def variants(plan: Plan, rng: random.Random) -> list[Plan]:
    """The rules' plan and random single-target ones: other moves, reaches (None: no attack),
    target counts (up to 4) and ranged or not."""
    out = [plan]
    for _ in range(4):
        reach = rng.choice((None, 1, 1, 2, 3, 4, 6))
        ranged = reach is not None and rng.random() < 0.6
        out.append(Plan(rng.randint(0, 7), reach, ranged, rng.choice((1, 1, 2, 3, 4))))
    return out


def checked(seen: Counter, rng: random.Random) -> tuple[Callable, Callable]:
    """Stand-ins for the kernels' focus_ranking and destination that play the reference and,
    at each single-target call, compare the compiled answers of it and of its variants."""

    def ranking_at(ctx: RuleContext, mover: Figure, plan: Plan, graph: PathGraph) -> Any:
        if plan.area:
            seen["area"] += 1
            return reference_ranking(ctx, mover, plan, graph)
        want = compare_ranking(ctx, mover, plan, graph, seen)
        for other in variants(plan, rng)[1:]:
            compare_ranking(ctx, mover, other, graph, seen)
        return want

    def destination_at(
        ctx: RuleContext, mover: Figure, plan: Plan, target: Figure, graph: PathGraph, ranking: Any
    ) -> int:
        if plan.area:
            seen["area"] += 1
            return reference_destination(ctx, mover, plan, target, graph, ranking)
        want = compare_destination(ctx, mover, plan, target, graph, ranking, seen)
        others = (kind for kind in KINDS if kind != graph.kind)
        graphs = [graph, *(ctx.kernels.path_graph(ctx, mover, kind) for kind in others)]
        for other in variants(plan, rng):
            if other.move is None:
                continue
            g = rng.choice(graphs)
            seen[g.kind] += 1
            r = reference_ranking(ctx, mover, other, g)
            for _, focus in r:  # every candidate as the focus
                compare_destination(ctx, mover, other, focus, g, r, seen)
            if other.ranged and r:  # HV-COND-7: muddled, hampered anyway
                mover.conditions.append("muddle")
                try:
                    compare_destination(ctx, mover, other, r[0][1], g, r, seen)
                    seen["muddled"] += 1
                finally:
                    mover.conditions.pop()
        return want

    return ranking_at, destination_at


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_single_target_call_of_random_play_is_the_reference_answer(name: str) -> None:
    """HV-AI-1..6, HV-AI-10, HV-COND-7, HV-JMP-2, HV-FLY-2: on every monster and summon turn of
    random games, each single-target ranking and destination the rules ask for, and those of its
    variants (:func:`checked`), are the reference's."""
    seen: Counter = Counter()
    rng = random.Random(name)
    ranking_at, destination_at = checked(seen, rng)
    kernels = COMPILED._replace(focus_ranking=ranking_at, destination=destination_at)
    for seed in range(30):
        game = new_game(SCENARIOS[name], seed=seed, kernels=kernels)
        play = random.Random(seed)
        for _ in range(400):
            if game.prompt is None:
                break
            game.apply(play.choice(game.legal_actions()))
    assert seen["rankings"] > 1000 and seen["destinations"] > 3000, seen
    assert seen["moved"] > 500 and seen["case A"] > 200 and seen["unreached"] > 0, seen
    assert seen["muddled"] > 100 and seen[JUMP] > 100 and seen[FLY] > 100, seen
    assert seen["ties"] > 0, seen
    if name == "mire_crossing":
        assert seen["terrain"] > 100, seen


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_random_games_play_the_same_with_the_compiled_ai_and_the_reference(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random games give one event log with the compiled AI kernels and the reference's, on
    the compiled graphs and on the reference's (the kernels' ``path_graph``)."""
    calls = Counter()
    real = fast.core.ai_destination

    def counted(*args: Any) -> int:
        calls["compiled"] += 1
        return real(*args)

    monkeypatch.setattr(fast.core, "ai_destination", counted)
    compiled = event_log(name, range(12), 300, COMPILED)
    assert calls["compiled"] > 100, calls
    before = calls["compiled"]
    reference_ai = REFERENCE._replace(path_graph=compiled_path_graph)
    assert event_log(name, range(12), 300, reference_ai) == compiled
    assert event_log(name, range(12), 300, REFERENCE) == compiled
    assert calls["compiled"] == before  # the reference runs made no compiled call
    compiled_ai = COMPILED._replace(path_graph=PathGraph)  # the compiled AI, reference graphs
    assert event_log(name, range(12), 300, compiled_ai) == compiled
    assert calls["compiled"] > before


# ------------------------------------------------------------------------------------------------
# Bad input


def a_call() -> tuple[Any, list[Any], list[Any]]:
    """A board and the arguments of one valid ai_ranking and one ai_destination call."""
    scenario = SCENARIOS["raider_camp"]
    game = new_game(scenario, seed=1)
    ctx = game.context
    mover = game.state.monsters[0]
    graph = CompiledPathGraph(ctx, mover)
    plan = Plan(3, 1, False, 1)
    ranking = fast_kernels.compiled_focus_ranking(ctx, mover, plan, graph)
    found = monster_ai.candidates(ctx, mover)
    board = fast_kernels.ai_board(scenario)
    rank_args = [
        board,
        graph.dist,
        graph.endable,
        mover.cell,
        1,
        [f.cell for f in found],
        [k[2] for k, _ in ranking],
        found,
    ]
    target = ranking[0][1]
    dest_args = [
        board,
        mover.cell,
        3,
        1,
        False,
        1,
        target,
        target.cell,
        graph.dist,
        graph.cost,
        graph.points,
        graph.endable,
        ranking,
        graph.remaining,
    ]
    fast.core.ai_ranking(*rank_args)
    assert fast.core.ai_destination(*dest_args) == monster_ai.destination(
        ctx, mover, plan, target, graph, ranking
    )
    return board, rank_args, dest_args


def test_bad_input_is_refused_by_name() -> None:
    """Wrong types, lengths and cells raise; nothing is read out of bounds."""
    board, rank_args, dest_args = a_call()
    n = board.n
    assert n == len(board_for(SCENARIOS["raider_camp"]).floor)
    bad_rank = {
        0: (object(), TypeError),
        1: (rank_args[1][:-1], ValueError),
        2: (None, TypeError),
        3: (n, ValueError),
        4: ("1", TypeError),
        5: ([n + 5] * len(rank_args[5]), ValueError),
        6: ([(0, 1)] * len(rank_args[6]), TypeError),
        7: (rank_args[7][:-1] if rank_args[7] else [1], ValueError),
    }
    for i, (value, error) in bad_rank.items():
        args = list(rank_args)
        args[i] = value
        with pytest.raises(error):
            fast.core.ai_ranking(*args)
    with pytest.raises(TypeError):
        fast.core.ai_ranking(*rank_args[:-1])
    with pytest.raises(TypeError):
        fast.core.ai_ranking(board, ["x"] * n, *rank_args[2:])
    bad_dest = {
        0: (None, TypeError),
        1: (-1, ValueError),
        2: (None, TypeError),
        3: (1.5, TypeError),
        5: (2**70, ValueError),
        7: (n, ValueError),
        8: (dest_args[8] + [0], ValueError),
        9: ({}, TypeError),
        10: (None, TypeError),
        11: (["no"] * n, TypeError),
        12: ([(1,)], TypeError),
    }
    for i, (value, error) in bad_dest.items():
        args = list(dest_args)
        args[i] = value
        with pytest.raises(error):
            fast.core.ai_destination(*args)
    with pytest.raises(TypeError):
        fast.core.ai_destination(*dest_args[:-1])
    args = list(dest_args)
    args[2], args[3] = -1, None  # Case B: remaining is called, and must give n values
    args[13] = lambda goal: [0] * (n - 1)
    with pytest.raises(ValueError):
        fast.core.ai_destination(*args)
    args[13] = lambda goal: 1 / 0
    with pytest.raises(ZeroDivisionError):
        fast.core.ai_destination(*args)
    with pytest.raises(ValueError):
        fast.core.AIBoard(2, [0, 1, 1], [True] * 4, 0)
    with pytest.raises(ValueError):
        fast.core.AIBoard(0, [], [], 0)
    with pytest.raises(TypeError):
        fast.core.AIBoard(1, [None], [True], 0)
    with pytest.raises(ValueError):
        fast_kernels.compiled_focus_ranking(None, None, Plan(1, 1, False, 1, ((0, 0),)), None)  # type: ignore[arg-type]
