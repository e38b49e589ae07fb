"""What a monster's or summon's card lets it do this turn, and how it ranks its enemies (HV-AI-3/4).

The plan and the focus key are shared by the single-target AI (:mod:`.monster_ai`) and the
area-of-effect AI (:mod:`.area_ai`), so both read them from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from .path_graph import PathGraph
from .state import Figure


class Plan(NamedTuple):
    """What the mover's card lets it do: move points (None: no Move on the card or immobilized),
    attack reach (None: no attack, or disarmed), number of targets and area pattern (HV-AOE-1;
    empty for a single-target attack). Immutable; a named tuple because every monster turn
    makes one or more."""

    move: int | None
    reach: int | None
    ranged: bool
    targets: int = 1
    area: tuple[tuple[int, int], ...] = ()


Rank = tuple[int, int, tuple[int, int, int]]  # HV-AI-4's key: (cost, proximity, turn position)
UNREACHED = 1_000_000  # the cost of an enemy with no attack hex the mover can reach


def hex_order(
    graph: PathGraph,
    hampered: bool,
    target: Figure,
    others_at: Callable[[int], Sequence[tuple[tuple, Figure]]],
) -> Callable[[int], tuple]:
    """HV-AI-5's order of attack hexes, best first (HV-AOE-8 for an area): the focus without
    disadvantage (``hampered``: a ranged attack, not muddled), the most other enemies attacked
    from the hex (``others_at(h)``: their HV-AI-4 ranks and figures, best first), the best-ranked
    of them, the fewest of them with disadvantage, the fewest steps, the lowest cell id."""
    board = graph.board

    def key(h: int) -> tuple:
        others = others_at(h)
        return (
            int(hampered and board.distance(h, target.cell) <= 1),
            -len(others),
            tuple(k for k, _ in others),
            sum(1 for _, f in others if hampered and board.distance(h, f.cell) <= 1),
            graph.dist[h],
            h,
        )

    return key
