"""Flat action spaces laid out from a table: the one codec shape every game's actions take.

A game lists its decision kinds in codec order, each with the labels of its argument. Each kind
owns a contiguous range of integers, its argument being the offset inside the range, and its
readable names are ``KIND(label)`` (a kind without argument is named bare). The integers, the
names and the parser all come from that one table, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# The labels of a kind that takes no argument: one action, named by the kind alone.
NO_ARGUMENT: tuple[str, ...] = ("",)


@dataclass(frozen=True)
class Codec:
    """Integer <-> action mapping of one action space, built by :func:`build_codec`."""

    base: Mapping[str, int]  # the first integer of each kind
    labels: Mapping[str, tuple[str, ...]]  # each kind's argument labels, in offset order
    size: int
    names: tuple[str, ...]
    kind_of: tuple[str, ...]
    arg_of: tuple[int, ...]
    index: Mapping[str, int]
    examples: tuple[str, ...]  # names the parser's error shows as the accepted forms

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
        """The integer of a readable name (spaces ignored); ValueError showing the forms."""
        try:
            return self.index[text.replace(" ", "")]
        except KeyError:
            forms = ", ".join(f"'{e}'" for e in self.examples)
            raise ValueError(f"unknown action {text!r}; actions look like {forms}") from None


def build_codec(
    kinds: Sequence[tuple[str, Sequence[str]]],
    examples: Sequence[str],
    display: Mapping[str, str] | None = None,
) -> Codec:
    """Lay out every kind's range in ``kinds`` order; ``display`` respells a kind in its names
    (two kinds may share a spelling when their labels differ)."""
    display = display or {}
    base: dict[str, int] = {}
    names: list[str] = []
    kind_of: list[str] = []
    arg_of: list[int] = []
    for kind, labels in kinds:
        base[kind] = len(names)
        shown = display.get(kind, kind)
        for i, label in enumerate(labels):
            names.append(f"{shown}({label})" if label else shown)
            kind_of.append(kind)
            arg_of.append(i)
    index = {n: i for i, n in enumerate(names)}
    if len(index) != len(names):
        raise ValueError("two actions share a name; the codec could not parse them back")
    return Codec(
        base=base,
        labels={kind: tuple(labels) for kind, labels in kinds},
        size=len(names),
        names=tuple(names),
        kind_of=tuple(kind_of),
        arg_of=tuple(arg_of),
        index=index,
        examples=tuple(examples),
    )
