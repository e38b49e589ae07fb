"""The action codec: the one place that owns haven's flat ``Discrete(87)`` action space (16.3).

:data:`KINDS` lists the kinds in codec order with their argument labels, and the core's
:func:`~reborn_env.core.codec.build_codec` lays them out exactly as Earth Reborn's codec does:
``HEX(h)`` 0-62, ``CARD(k)`` 63-72, ``BOX(s,h,m)`` 73-80 (index ``73 + 4s + 2h + m``), then
``LONG_REST``, ``ITEM(0)``, ``ITEM(1)``, ``YES``, ``NO`` and ``LOSE_TWO_DISCARDS``. ``name(a)``
gives the spec's spelling and ``parse`` reads it back.
"""

from __future__ import annotations

from ...core.codec import NO_ARGUMENT, build_codec
from .rules.hexgrid import HEIGHT, WIDTH

N_CELLS = WIDTH * HEIGHT  # 63 (HV-MAP-1)
CARD_SLOTS = 10  # 16.3: CARD(0..9)
ITEM_SLOTS = 2  # 16.3: ITEM(0..1), the owner's items in 15.4 row order

# BOX arguments (16.3): which selected card, which half, printed action or the default one.
BOX_SLOTS, BOX_HALVES, BOX_MODES = ("lead", "other"), ("top", "bottom"), ("printed", "default")
LEAD, OTHER = 0, 1
TOP, BOTTOM = 0, 1
PRINTED, DEFAULT = 0, 1

# (kind, argument labels) in codec order (16.3).
KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("HEX", tuple(f"{cell % WIDTH},{cell // WIDTH}" for cell in range(N_CELLS))),
    ("CARD", tuple(str(k) for k in range(CARD_SLOTS))),
    ("BOX", tuple(f"{s},{h},{m}" for s in BOX_SLOTS for h in BOX_HALVES for m in BOX_MODES)),
    ("LONG_REST", NO_ARGUMENT),
    ("ITEM", tuple(str(i) for i in range(ITEM_SLOTS))),
    ("YES", NO_ARGUMENT),
    ("NO", NO_ARGUMENT),
    ("LOSE_TWO_DISCARDS", NO_ARGUMENT),
)
CODEC = build_codec(
    KINDS,
    examples=(
        "HEX(4,2)",
        "CARD(3)",
        "BOX(lead,top,printed)",
        "LONG_REST",
        "ITEM(0)",
        "YES",
        "NO",
        "LOSE_TWO_DISCARDS",
    ),
)

HEX_BASE = CODEC.base["HEX"]  # 0
CARD_BASE = CODEC.base["CARD"]  # 63
BOX_BASE = CODEC.base["BOX"]  # 73
LONG_REST = CODEC.base["LONG_REST"]  # 81
ITEM_BASE = CODEC.base["ITEM"]  # 82
YES = CODEC.base["YES"]  # 84
NO = CODEC.base["NO"]  # 85
LOSE_TWO_DISCARDS = CODEC.base["LOSE_TWO_DISCARDS"]  # 86
N_ACTIONS = CODEC.size  # 87
NAMES: tuple[str, ...] = CODEC.names


def hex_action(cell: int) -> int:
    """``HEX(h)`` for cell id ``h``."""
    return HEX_BASE + cell


def card_action(card: int) -> int:
    """``CARD(k)`` for class card index ``k``."""
    return CARD_BASE + card


def box_action(slot: int, half: int, mode: int) -> int:
    """``BOX(s,h,m)``: ``s`` 0 leading / 1 other card, ``h`` 0 top / 1 bottom, ``m`` 0 printed /
    1 default."""
    return BOX_BASE + 4 * slot + 2 * half + mode


def item_action(item: int) -> int:
    """``ITEM(i)``: the owner's ``i``-th item (15.4 row order)."""
    return ITEM_BASE + item


def decode(action: int) -> tuple[str, tuple[int, ...]]:
    """``(kind, arguments)`` of an action integer, BOX's argument split into ``(s, h, m)``;
    ValueError outside ``0..86``."""
    if not 0 <= action < N_ACTIONS:
        raise ValueError(f"action {action!r} is outside the action space 0..{N_ACTIONS - 1}")
    kind, arg = CODEC.decode(action)
    if kind == "BOX":
        return kind, (arg // 4, arg // 2 % 2, arg % 2)
    return kind, () if CODEC.labels[kind] == NO_ARGUMENT else (arg,)


def name(action: int) -> str:
    """The readable name of ``action``, e.g. ``HEX(4,2)``, ``CARD(3)``, ``LONG_REST``."""
    return CODEC.name(action)


def parse(text: str) -> int:
    """The action integer of a readable name; ValueError naming the accepted forms if unknown."""
    return CODEC.parse(text)
