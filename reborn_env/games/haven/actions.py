"""The action codec: the one place that owns haven's flat ``Discrete(87)`` action space (16.3).

Each kind owns a contiguous range and its argument is the offset inside it, exactly as the
Earth Reborn codec does: ``HEX(h)`` 0-62, ``CARD(k)`` 63-72, ``BOX(s,h,m)`` 73-80 (index
``73 + 4s + 2h + m``), then ``LONG_REST``, ``ITEM(0)``, ``ITEM(1)``, ``YES``, ``NO`` and
``LOSE_TWO_DISCARDS``. ``name(a)`` gives the spec's spelling and ``parse`` reads it back.
"""

from __future__ import annotations

from .rules.hexgrid import HEIGHT, WIDTH

N_CELLS = WIDTH * HEIGHT  # 63 (HV-MAP-1)
CARD_SLOTS = 10  # 16.3: CARD(0..9)

HEX_BASE = 0
CARD_BASE = HEX_BASE + N_CELLS  # 63
BOX_BASE = CARD_BASE + CARD_SLOTS  # 73
LONG_REST = BOX_BASE + 8  # 81
ITEM_BASE = LONG_REST + 1  # 82
YES = ITEM_BASE + 2  # 84
NO = YES + 1  # 85
LOSE_TWO_DISCARDS = NO + 1  # 86
N_ACTIONS = LOSE_TWO_DISCARDS + 1  # 87

# BOX arguments (16.3).
LEAD, OTHER = 0, 1
TOP, BOTTOM = 0, 1
PRINTED, DEFAULT = 0, 1


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
    """``(kind, arguments)`` of an action integer; ValueError outside ``0..86``."""
    if not 0 <= action < N_ACTIONS:
        raise ValueError(f"action {action!r} is outside the action space 0..{N_ACTIONS - 1}")
    if action < CARD_BASE:
        return "HEX", (action - HEX_BASE,)
    if action < BOX_BASE:
        return "CARD", (action - CARD_BASE,)
    if action < LONG_REST:
        offset = action - BOX_BASE
        return "BOX", (offset // 4, offset // 2 % 2, offset % 2)
    if action == LONG_REST:
        return "LONG_REST", ()
    if action < YES:
        return "ITEM", (action - ITEM_BASE,)
    return ("YES", "NO", "LOSE_TWO_DISCARDS")[action - YES], ()


def _name(action: int) -> str:
    kind, args = decode(action)
    if kind == "HEX":
        col, row = args[0] % WIDTH, args[0] // WIDTH
        return f"HEX({col},{row})"
    if kind == "BOX":
        slot, half, mode = args
        return (
            f"BOX({('lead', 'other')[slot]},{('top', 'bottom')[half]},"
            f"{('printed', 'default')[mode]})"
        )
    return f"{kind}({args[0]})" if args else kind


NAMES: tuple[str, ...] = tuple(_name(a) for a in range(N_ACTIONS))
_INDEX = {n: a for a, n in enumerate(NAMES)}


def name(action: int) -> str:
    """The readable name of ``action``, e.g. ``HEX(4,2)``, ``CARD(3)``, ``LONG_REST``."""
    return NAMES[action]


def parse(text: str) -> int:
    """The action integer of a readable name; ValueError naming the accepted forms if unknown."""
    try:
        return _INDEX[text.replace(" ", "")]
    except KeyError:
        raise ValueError(
            f"unknown action {text!r}; actions look like 'HEX(4,2)', 'CARD(3)', "
            "'BOX(lead,top,printed)', 'LONG_REST', 'ITEM(0)', 'YES', 'NO', 'LOSE_TWO_DISCARDS'"
        ) from None
