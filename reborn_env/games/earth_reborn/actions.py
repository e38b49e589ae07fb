"""The action codec: the one place that owns Earth Reborn's flat action space (ER-ENV-2..7).

Every decision of section 18 is one integer. :data:`KINDS` lists the kinds in codec order with
their argument domain; the core's :func:`~reborn_env.core.codec.build_codec` gives each kind a
contiguous range, its argument being the offset inside the range. ``name(a)`` gives the readable
form used by the spec (``STEP(N)``, ``ACTIVATE(bolter)``, ``CHOOSE_CP(2)``) and ``parse`` reads it
back.
"""

from __future__ import annotations

from functools import lru_cache

from ...core.codec import NO_ARGUMENT, Codec, build_codec
from .scenario.model import DIRECTION_NAMES, Scenario

# Highest CP a pool may hold in a position; DUEL_BID covers 0..MAX_CP (ER-INI-8).
MAX_CP = 40
# Sections addressable on one character: 4 tiles x 4 sections (ER-ENV-6, ER-ORD-4).
SECTION_SLOTS = 16

# (kind, argument domain) in codec order. Domains: "none", "dir", "char", "tile", "section",
# "bid", "cp" (1..4), "aim" (0..3).
KINDS: tuple[tuple[str, str], ...] = (
    ("MULLIGAN_KEEP", "none"),
    ("MULLIGAN_REDRAW", "none"),
    ("DUEL_BID", "bid"),
    ("ACTIVATE", "char"),
    ("REACTIVATE", "char"),
    ("DRAW_BAG", "none"),
    ("PICK_DISCARD", "none"),
    ("PASS", "none"),
    ("CHOOSE_DISCARD", "tile"),
    ("ASSIGN", "tile"),
    ("MOVE_CP", "section"),
    ("SELECT_ORDER", "section"),
    ("RELOAD", "none"),
    ("SAW_DOOR", "dir"),
    ("END_ROUND", "none"),
    ("STEP", "dir"),
    ("OPEN", "dir"),
    ("CLOSE", "dir"),
    ("GIVE_CARD", "none"),
    ("TAKE_CARD", "none"),
    ("PICKUP_CARD", "none"),
    ("END_MOVE", "dir"),
    ("CHOOSE_TARGET_DIR", "dir"),
    ("CHOOSE_TARGET_CHAR", "char"),
    ("CHOOSE_CP", "cp"),
    ("CHOOSE_AIM", "aim"),
    ("DISCARD_TILE", "tile"),
    ("KEEP_HAND", "none"),
)

# Spec spelling of kinds whose codec name differs.
_DISPLAY = {"CHOOSE_TARGET_DIR": "CHOOSE_TARGET", "CHOOSE_TARGET_CHAR": "CHOOSE_TARGET"}

# The forms the parser's error shows.
EXAMPLES = (
    "PASS",
    "STEP(N)",
    "ACTIVATE(bolter)",
    "ASSIGN(T01)",
    "MOVE_CP(0)",
    "CHOOSE_TARGET(zombie)",
    "CHOOSE_CP(2)",
)


def _domain_labels(domain: str, chars: list[str], tiles: list[str]) -> list[str]:
    if domain == "none":
        return list(NO_ARGUMENT)
    if domain == "dir":
        return list(DIRECTION_NAMES)
    if domain == "char":
        return chars
    if domain == "tile":
        return tiles
    if domain == "section":
        return [str(i) for i in range(SECTION_SLOTS)]
    if domain == "bid":
        return [str(i) for i in range(MAX_CP + 1)]
    if domain == "cp":
        return ["1", "2", "3", "4"]
    if domain == "aim":
        return ["0", "1", "2", "3"]
    raise AssertionError(domain)


@lru_cache(maxsize=16)
def _codec_for(char_ids: tuple[str, ...], tile_ids: tuple[str, ...]) -> Codec:
    """Every kind's range in KINDS order, its domain's labels for these characters and tiles."""
    kinds = [
        (kind, _domain_labels(domain, list(char_ids), list(tile_ids))) for kind, domain in KINDS
    ]
    return build_codec(kinds, EXAMPLES, _DISPLAY)


def codec_for(scenario: Scenario) -> Codec:
    """The codec of ``scenario`` (cached: scenarios with the same ids share one)."""
    return _codec_for(tuple(c.id for c in scenario.characters), tuple(t.id for t in scenario.tiles))
