"""The action codec: the one place that owns haven's flat action space (16.3).

The space depends only on the map's grid (HV-MAP-1): ``HEX(h)`` for each of its ``n`` cells,
then ``CARD(k)``, ``BOX(s,h,m)`` (index ``BOX_BASE + 4s + 2h + m``), ``LONG_REST``, ``ITEM(0)``,
``ITEM(1)``, ``YES``, ``NO`` and ``LOSE_TWO_DISCARDS``: on the standard 9 x 7 grid ``HEX`` is
0-62, ``CARD`` 63-72, ``BOX`` 73-80 and the space is ``Discrete(87)``. :func:`action_space`
gives the one :class:`ActionSpace` of a grid; the rules reach theirs as ``ctx.actions``. Its
``name(a)`` gives the spec's spelling and ``parse`` reads it back.
"""

from __future__ import annotations

from functools import cache

from ...core.codec import NO_ARGUMENT, build_codec
from .scenario.model import Grid

CARD_SLOTS = 10  # 16.3: CARD(0..9)
ITEM_SLOTS = 2  # 16.3: ITEM(0..1), the owner's items in 15.4 row order

# BOX arguments (16.3): which selected card, which half, printed action or the default one.
BOX_SLOTS, BOX_HALVES, BOX_MODES = ("lead", "other"), ("top", "bottom"), ("printed", "default")
LEAD, OTHER = 0, 1
TOP, BOTTOM = 0, 1
PRINTED, DEFAULT = 0, 1

_EXAMPLES = (
    "HEX(4,2)",
    "CARD(3)",
    "BOX(lead,top,printed)",
    "LONG_REST",
    "ITEM(0)",
    "YES",
    "NO",
    "LOSE_TWO_DISCARDS",
)


class ActionSpace:
    """The action integers, names and parser of one grid (16.3). The upper-case attributes are
    the first integer of each kind (and the single actions), fixed for the grid."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.n_cells = grid.cells
        kinds: tuple[tuple[str, tuple[str, ...]], ...] = (
            ("HEX", tuple("{},{}".format(*grid.xy(cell)) for cell in range(grid.cells))),
            ("CARD", tuple(str(k) for k in range(CARD_SLOTS))),
            (
                "BOX",
                tuple(f"{s},{h},{m}" for s in BOX_SLOTS for h in BOX_HALVES for m in BOX_MODES),
            ),
            ("LONG_REST", NO_ARGUMENT),
            ("ITEM", tuple(str(i) for i in range(ITEM_SLOTS))),
            ("YES", NO_ARGUMENT),
            ("NO", NO_ARGUMENT),
            ("LOSE_TWO_DISCARDS", NO_ARGUMENT),
        )
        self.codec = build_codec(kinds, examples=_EXAMPLES)
        base = self.codec.base
        self.HEX_BASE = base["HEX"]
        self.CARD_BASE = base["CARD"]
        self.BOX_BASE = base["BOX"]
        self.LONG_REST = base["LONG_REST"]
        self.ITEM_BASE = base["ITEM"]
        self.YES = base["YES"]
        self.NO = base["NO"]
        self.LOSE_TWO_DISCARDS = base["LOSE_TWO_DISCARDS"]
        self.N_ACTIONS = self.codec.size
        self.NAMES: tuple[str, ...] = self.codec.names

    def __reduce__(self) -> tuple[object, tuple[Grid]]:
        """Pickles as its grid: unpickling gives back the one space of that grid."""
        return action_space, (self.grid,)

    def is_hex(self, action: int) -> bool:
        """Whether ``action`` is a ``HEX(h)``."""
        return self.HEX_BASE <= action < self.HEX_BASE + self.n_cells

    def hex_action(self, cell: int) -> int:
        """``HEX(h)`` for cell id ``h``."""
        return self.HEX_BASE + cell

    def card_action(self, card: int) -> int:
        """``CARD(k)`` for class card index ``k``."""
        return self.CARD_BASE + card

    def box_action(self, slot: int, half: int, mode: int) -> int:
        """``BOX(s,h,m)``: ``s`` 0 leading / 1 other card, ``h`` 0 top / 1 bottom, ``m`` 0
        printed / 1 default."""
        return self.BOX_BASE + 4 * slot + 2 * half + mode

    def item_action(self, item: int) -> int:
        """``ITEM(i)``: the owner's ``i``-th item (15.4 row order)."""
        return self.ITEM_BASE + item

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(kind, arguments)`` of an action integer, BOX's argument split into ``(s, h, m)``;
        ValueError outside the space."""
        if not 0 <= action < self.N_ACTIONS:
            raise ValueError(
                f"action {action!r} is outside the action space 0..{self.N_ACTIONS - 1}"
            )
        kind, arg = self.codec.decode(action)
        if kind == "BOX":
            return kind, (arg // 4, arg // 2 % 2, arg % 2)
        return kind, () if self.codec.labels[kind] == NO_ARGUMENT else (arg,)

    def name(self, action: int) -> str:
        """The readable name of ``action``, e.g. ``HEX(4,2)``, ``CARD(3)``, ``LONG_REST``."""
        return self.codec.name(action)

    def parse(self, text: str) -> int:
        """The action integer of a readable name; ValueError naming the accepted forms if
        unknown."""
        return self.codec.parse(text)


@cache
def action_space(grid: Grid) -> ActionSpace:
    """The one :class:`ActionSpace` of ``grid`` (16.3)."""
    return ActionSpace(grid)
