"""haven's compiled kernels (:data:`COMPILED`): the rules' path graphs and single-target monster
AI run in C (``src/paths.c``, ``src/monster_ai.c``), the same results as the reference
:data:`~..rules.kernels.REFERENCE` (tests/haven/fast/test_paths.py, test_monster_ai.py).

Area plans (HV-AOE-*) keep the reference's Python. The environment gives a game these kernels
when its backend is ``"fast"`` (:func:`~.resolve_backend`).
"""

from __future__ import annotations

from ....core.per_scenario import PerScenario
from ..rules import monster_ai
from ..rules.context import Kernels, RuleContext
from ..rules.figures import all_figures, board_for, enemies_of, has, turn_position
from ..rules.ice import StepGraph
from ..rules.monster_plan import Plan, Rank
from ..rules.path_graph import PathGraph, endable_cells, passable_cells
from ..rules.state import Figure
from ..rules.terrain import (
    JUMP,
    NEGATIVE,
    TELEPORTS,
    WALK,
    entry_weights,
    landing_weights,
    points,
)
from ..scenario.model import Scenario
from . import IMPORT_ERROR, CoreUnavailableError, core

WEIGHTS_CACHE_SIZE = 256


def _need_core() -> None:
    """Refuse, naming why, where the compiled core did not import."""
    if core is None:
        raise CoreUnavailableError(f"haven's compiled core is not built ({IMPORT_ERROR})")


class _CompiledBoard:
    """One scenario's map as the compiled searches take it (its ``PathBoard``), and the entry
    and landing weights already asked for, by unsprung traps (the only state they read) and
    ``price_negatives``: a dict emptied when it holds :data:`WEIGHTS_CACHE_SIZE` of them. The
    cached lists are shared by the graphs given them, which only read them."""

    def __init__(self, scenario: Scenario) -> None:
        _need_core()
        board = board_for(scenario)
        self.board = board
        icy = rays = None
        if board.has_ice:  # HV-ICE-2: each cell's lines, one hex long where a step cannot slide
            icy = board.icy
            rays = [
                [(first,) for first in plain] + list(lines)
                for plain, lines in zip(board.plain_steps, board.icy_rays, strict=True)
            ]
        self.core = core.PathBoard(  # type: ignore[union-attr]
            board.neighbours, board.floor, board.walls, NEGATIVE if board.terrain else 0, icy, rays
        )
        self.weights: dict[tuple[tuple[int, ...], bool], tuple[list[int], list[int]]] = {}

    def weights_of(self, ctx: RuleContext, price_negatives: bool) -> tuple[list[int], list[int]]:
        """:func:`.terrain.entry_weights` and :func:`.terrain.landing_weights` of ``ctx``."""
        key = (tuple(ctx.state.traps), price_negatives)
        found = self.weights.get(key)
        if found is None:
            if len(self.weights) >= WEIGHTS_CACHE_SIZE:
                self.weights.clear()
            found = entry_weights(ctx, price_negatives), landing_weights(ctx, price_negatives)
            self.weights[key] = found
        return found


compiled_board = PerScenario(_CompiledBoard)
"""compiled_board(scenario): the :class:`_CompiledBoard` of a scenario, built once."""


class CompiledPathGraph(PathGraph):
    """The reference :class:`PathGraph`'s lists and searches from the compiled core (HV-AI-2,
    HV-AI-10, HV-JMP-2, HV-FLY-2); its paths (HV-TER-6/7) are the reference's, on those lists."""

    def __init__(
        self,
        ctx: RuleContext,
        mover: Figure,
        kind: str = WALK,
        price_negatives: bool = True,
    ) -> None:
        self.kind = kind
        self.start = mover.cell
        self._compiled = compiled = compiled_board(ctx.scenario)
        self.board = compiled.board
        state = ctx.state
        others = [f.cell for f in all_figures(state) if f is not mover]
        enemies = [f.cell for f in enemies_of(state, mover)] if kind == WALK else []
        landing = None
        self.weights = None
        if self.board.terrain and kind in (WALK, JUMP):
            weights, jump_landing = compiled.weights_of(ctx, price_negatives)
            if kind == WALK:
                self.weights = weights
            else:
                landing = jump_landing
        lists = core.path_graph(  # type: ignore[union-attr]
            compiled.core, self.start, enemies, others, kind == WALK, self.weights, landing
        )
        self.passable, self.endable, self.cost, self.dist, self.points = lists

    def steps_from(self, sources: list[int]) -> list[int | None]:
        """The reference's :meth:`~PathGraph.steps_from`, by the compiled search."""
        return core.path_costs(  # type: ignore[union-attr]
            self._compiled.core, self.passable, sources, self.weights, False
        )

    def remaining(self, goal: int) -> list[int | None]:
        """The reference's :meth:`~PathGraph.remaining`, by the compiled search."""
        return core.path_costs(  # type: ignore[union-attr]
            self._compiled.core, self.passable, [goal], self.weights, True
        )


class CompiledSlideGraph(PathGraph):
    """A walk's graph on a map with ice (HV-ICE-2..4): the reference :class:`PathGraph`'s lists,
    its costs and ``remaining`` by the compiled slide search; the steps themselves
    (:class:`~..rules.ice.StepGraph`, for ``path`` and a character's path) are built only when
    asked."""

    def __init__(
        self,
        ctx: RuleContext,
        mover: Figure,
        kind: str = WALK,
        price_negatives: bool = True,
    ) -> None:
        if kind != WALK:
            raise ValueError(f"a slide graph is a walk's, not a {kind}'s")
        self.kind = kind
        self.start = mover.cell
        self._compiled = compiled = compiled_board(ctx.scenario)
        self.board = board = compiled.board
        self._others = {f.cell for f in all_figures(ctx.state) if f is not mover}
        self.passable = passable_cells(board, ctx.state, mover, kind)
        self.endable = endable_cells(board, self._others)
        self._entry = entry_weights(ctx, price_negatives)
        self.weights = self._entry if board.terrain else None
        self._steps: StepGraph | None = None
        self.cost = self.steps_from([mover.cell])
        self.dist = self.cost
        self.points = self.cost
        if board.terrain:  # HV-AI-10: the movement points of each cost
            self.points = [None if d is None else points(d) for d in self.cost]

    @property  # type: ignore[override]
    def slides(self) -> StepGraph:
        """The reference's steps of this walk, built when first asked."""
        if self._steps is None:
            self._steps = StepGraph(self.board, self.passable, self._others, self._entry)
        return self._steps

    def steps_from(self, sources: list[int]) -> list[int | None]:
        """The reference's :meth:`~PathGraph.steps_from`, by the compiled slide search."""
        return core.slide_costs(  # type: ignore[union-attr]
            self._compiled.core, self.passable, self._others, sources, self._entry, False
        )

    def remaining(self, goal: int) -> list[int | None]:
        """The reference's :meth:`~PathGraph.remaining`, by the compiled slide search."""
        return core.slide_costs(  # type: ignore[union-attr]
            self._compiled.core, self.passable, self._others, [goal], self._entry, True
        )


def compiled_path_graph(
    ctx: RuleContext, mover: Figure, kind: str = WALK, price_negatives: bool = True
) -> PathGraph:
    """A :class:`CompiledPathGraph`; for a walk on a map with ice a :class:`CompiledSlideGraph`
    (its steps slide, HV-ICE-2); for a teleport the reference :class:`PathGraph` (its costs are
    straight hex distances, with no search to compile, HV-TEL-2)."""
    if kind in TELEPORTS:
        return PathGraph(ctx, mover, kind, price_negatives)
    if kind == WALK and board_for(ctx.scenario).has_ice:
        return CompiledSlideGraph(ctx, mover, kind, price_negatives)
    return CompiledPathGraph(ctx, mover, kind, price_negatives)


def _ai_board(scenario: Scenario) -> object:
    """The compiled core's ``AIBoard`` of a scenario: its :class:`.figures.Board`'s range
    distances and line of sight for every pair of cells, and the weight of a negative hex."""
    _need_core()
    board = board_for(scenario)
    n = len(board.floor)
    cells = range(n)
    distance = [board.distance(a, b) for a in cells for b in cells]
    sight = [board.sight(a, b) for a in cells for b in cells]
    return core.AIBoard(n, distance, sight, NEGATIVE if board.terrain else 0)  # type: ignore[union-attr]


ai_board = PerScenario(_ai_board)
"""ai_board(scenario): the compiled :func:`_ai_board` of a scenario, built once."""


def focus_ranking(
    ctx: RuleContext, mover: Figure, plan: Plan, graph: PathGraph
) -> list[tuple[Rank, Figure]]:
    """HV-AI-4: :func:`compiled_focus_ranking`, or the reference's for an area plan."""
    if plan.area:
        return monster_ai.focus_ranking(ctx, mover, plan, graph)
    return compiled_focus_ranking(ctx, mover, plan, graph)


def destination(
    ctx: RuleContext,
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: list[tuple[Rank, Figure]],
) -> int:
    """HV-AI-5: :func:`compiled_destination`, or the reference's for an area plan."""
    if plan.area:
        return monster_ai.destination(ctx, mover, plan, target, graph, ranking)
    return compiled_destination(ctx, mover, plan, target, graph, ranking)


def compiled_focus_ranking(
    ctx: RuleContext, mover: Figure, plan: Plan, graph: PathGraph
) -> list[tuple[Rank, Figure]]:
    """:func:`~..rules.monster_ai.focus_ranking` of a single-target plan (no area) by the
    compiled core."""
    if plan.area:
        raise ValueError("the compiled focus ranking is for single-target plans only")
    state = ctx.state
    found = monster_ai.candidates(ctx, mover)
    return core.ai_ranking(  # type: ignore[union-attr]
        ai_board(ctx.scenario),
        graph.dist,
        graph.endable,
        mover.cell,
        plan.reach or 1,
        [f.cell for f in found],
        [turn_position(state, f) for f in found],
        found,
    )


def compiled_destination(
    ctx: RuleContext,
    mover: Figure,
    plan: Plan,
    target: Figure,
    graph: PathGraph,
    ranking: list[tuple[Rank, Figure]],
) -> int:
    """:func:`~..rules.monster_ai.destination` of a single-target plan (no area) by the
    compiled core."""
    if plan.area or plan.move is None:
        raise ValueError("the compiled destination is for single-target plans with a Move")
    return core.ai_destination(  # type: ignore[union-attr]
        ai_board(ctx.scenario),
        mover.cell,
        plan.move,
        plan.reach,
        plan.ranged and not has(mover, "muddle"),  # HV-COND-7
        plan.targets,
        target,
        target.cell,
        graph.dist,
        graph.cost,
        graph.points,
        graph.endable,
        ranking,
        graph.remaining,
    )


COMPILED = Kernels(compiled_path_graph, focus_ranking, destination)
"""The compiled kernels, for a game whose backend is ``"fast"``."""
