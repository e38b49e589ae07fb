"""The action codec: the one place that owns Earth Reborn's flat action space (ER-ENV-2..7).

Every decision of section 18 is one integer. Each kind owns a contiguous range; its argument is the
offset inside the range. ``name(a)`` gives the readable form used by the spec (``STEP(N)``,
``ACTIVATE(bolter)``, ``CHOOSE_CP(2)``) and ``parse`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

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


@dataclass(frozen=True)
class Codec:
    """Integer <-> action mapping for one scenario (its characters and tiles size it)."""

    base: dict[str, int]
    size: int
    names: tuple[str, ...]
    kind_of: tuple[str, ...]
    arg_of: tuple[int, ...]
    index: dict[str, int]

    def name(self, action: int) -> str:
        """Readable name of ``action``, e.g. ``MOVE_CP(4)``."""
        return self.names[action]

    def decode(self, action: int) -> tuple[str, int]:
        """``(kind, argument index)`` of ``action``."""
        return self.kind_of[action], self.arg_of[action]

    def encode(self, kind: str, arg: int = 0) -> int:
        """The integer of ``kind`` with argument index ``arg``."""
        return self.base[kind] + arg

    def parse(self, text: str) -> int:
        """The integer of a readable name such as ``STEP(N)``; ValueError if unknown."""
        key = text.replace(" ", "")
        try:
            return self.index[key]
        except KeyError:
            raise ValueError(
                f"unknown action {text!r}; actions look like 'PASS', 'STEP(N)', "
                f"'ACTIVATE(bolter)', "
                f"'ASSIGN(T01)', 'MOVE_CP(0)', 'CHOOSE_TARGET(zombie)', 'CHOOSE_CP(2)'"
            ) from None


def _domain_labels(domain: str, chars: list[str], tiles: list[str]) -> list[str]:
    if domain == "none":
        return [""]
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


def build_codec(char_ids: list[str], tile_ids: list[str]) -> Codec:
    """Lay out every kind's range in KINDS order."""
    base: dict[str, int] = {}
    names: list[str] = []
    kinds: list[str] = []
    args: list[int] = []
    for kind, domain in KINDS:
        base[kind] = len(names)
        shown = _DISPLAY.get(kind, kind)
        for i, label in enumerate(_domain_labels(domain, char_ids, tile_ids)):
            names.append(f"{shown}({label})" if label else shown)
            kinds.append(kind)
            args.append(i)
    index = {n: i for i, n in enumerate(names)}
    return Codec(base, len(names), tuple(names), tuple(kinds), tuple(args), index)


@lru_cache(maxsize=16)
def _codec_for(char_ids: tuple[str, ...], tile_ids: tuple[str, ...]) -> Codec:
    return build_codec(list(char_ids), list(tile_ids))


def codec_for(scenario: Scenario) -> Codec:
    """The codec of ``scenario`` (cached: scenarios with the same ids share one)."""
    return _codec_for(tuple(c.id for c in scenario.characters), tuple(t.id for t in scenario.tiles))
