"""Named views over flat observation vectors, as OpenSpiel's observers give them.

An environment hands its agents one flat float32 vector; what each stretch of it means lives in a
:class:`Layout`: an ordered list of :class:`Field` objects, each with a name, an offset, a shape,
a sentence of meaning, and optionally the names of its entries (``labels``, e.g. the phases of a
one-hot) and the ``scale`` its values were divided by. A field may be a group of named sub-fields
(``item``), once or repeated (one record per character, per board cell). A game builds one layout
per scenario; its observer writes where the layout says and its bots read through it::

    view = layout.view(observation)      # no copy: numpy slices of the vector
    view["hand"]                         # a block as a numpy array of the field's shape
    view["characters"][2]["wounds"]      # a record of a repeated group, then its field
    view["round"].amount("mvp")          # round(value * scale): the quantity observed
    view.label("phase")                  # the label of a one-hot block's set entry

Views are read-only (numpy raises ``ValueError`` on assignment), so a bot cannot alter what the
environment gave it; copy a block (``np.array(view["hand"])``) to change it. An unknown name
raises ``KeyError`` naming the names there are. This module names no game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Field:
    """One named stretch of an observation: a block of floats, or a group of sub-fields.

    ``shape`` is the block's shape (``()`` for one float); for a group (``item`` set) it is
    ``()`` for one record or ``(n,)`` for n records one after the other. ``labels`` name the
    entries along the last axis (or a group's records); ``scale`` is what the observer divided
    the quantity by, so ``value * scale`` gives it back. ``offset`` counts from the start of the
    enclosing record (the vector, for a top-level block); :class:`Layout` sets it.
    """

    name: str
    shape: tuple[int, ...] = ()
    doc: str = ""
    labels: tuple[str, ...] = ()
    scale: float | None = None
    item: Layout | None = None
    offset: int = 0

    @property
    def count(self) -> int:
        """How many floats (or, for a group, records) the shape holds."""
        return math.prod(self.shape)

    @property
    def width(self) -> int:
        """How many floats of the vector the field takes."""
        return self.count * (self.item.size if self.item is not None else 1)

    @property
    def stop(self) -> int:
        """The offset just past the field."""
        return self.offset + self.width

    def __getitem__(self, name: str) -> Field:
        """A group's sub-field (its offset counts from the start of one record)."""
        if self.item is None:
            raise TypeError(f"block {self.name!r} is an array, not a group of named fields")
        return self.item[name]

    def check(self) -> None:
        """Refuse a field that could not describe a vector: bad shape, labels, scale or group."""
        if not self.name or not isinstance(self.name, str):
            raise ValueError(f"a field needs a non-empty name, not {self.name!r}")
        if any(not isinstance(n, int) or n < 0 for n in self.shape):
            raise ValueError(f"field {self.name!r}: shape {self.shape} must be ints >= 0")
        if self.item is not None and len(self.shape) > 1:
            raise ValueError(f"group {self.name!r}: shape {self.shape} must be () or (n,)")
        if self.labels and (not self.shape or len(self.labels) != self.shape[-1]):
            raise ValueError(
                f"field {self.name!r}: {len(self.labels)} labels for shape {self.shape}; "
                "one label per entry of the last axis"
            )
        if len(set(self.labels)) != len(self.labels):
            raise ValueError(f"field {self.name!r}: labels repeat: {self.labels}")
        if self.scale is not None and not self.scale > 0:
            raise ValueError(f"field {self.name!r}: scale {self.scale} must be positive")


def group(
    name: str,
    fields: Iterable[Field],
    count: int | None = None,
    doc: str = "",
    labels: tuple[str, ...] = (),
) -> Field:
    """A field made of named sub-fields: one record, or ``count`` records in a row."""
    shape = () if count is None else (count,)
    return Field(name, shape, doc, labels, item=Layout(fields))


class Layout:
    """The ordered fields of a vector (or of one record of a group), with their offsets."""

    __slots__ = ("fields", "size", "_by_name", "_spans")

    def __init__(self, fields: Iterable[Field]) -> None:
        placed: list[Field] = []
        offset = 0
        for f in fields:
            f.check()
            placed.append(replace(f, offset=offset))
            offset += f.width
        self.fields: tuple[Field, ...] = tuple(placed)
        self.size = offset
        self._by_name = {f.name: f for f in placed}
        self._spans = {f.name: (f, f.offset, f.stop) for f in placed}  # read on every lookup
        if len(self._by_name) != len(placed):
            names = [f.name for f in placed]
            twice = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"field names repeat in a layout: {', '.join(twice)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def __iter__(self) -> Iterator[Field]:
        return iter(self.fields)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Field:
        """The field called ``name``; KeyError listing the names there are."""
        return self._span(name)[0]

    def _span(self, name: str) -> tuple[Field, int, int]:
        """(field, start, stop) of ``name``; KeyError listing the names there are."""
        try:
            return self._spans[name]
        except KeyError:
            raise KeyError(_unknown(name, self._by_name)) from None

    def __repr__(self) -> str:
        return f"Layout({', '.join(self._by_name)}; {self.size} floats)"

    def entry_names(self) -> tuple[str, ...]:
        """A name for every float, in order: ``hp``, ``phase:select``, ``doors[3]:open``,
        ``characters[1].wounds``; for error messages, tables and tests."""
        names: list[str] = []
        for f in self.fields:
            inner = f.item.entry_names() if f.item is not None else ("",)
            for index in np.ndindex(*f.shape):
                at = index[:-1] if f.labels else index
                name = f.name + "".join(f"[{i}]" for i in at)
                if f.labels:
                    name += f":{f.labels[index[-1]]}"
                names += [name + ("." + n if n else "") for n in inner]
        return tuple(names)

    def view(self, vector: np.ndarray) -> ObservationView:
        """A read-only named view of ``vector`` (1-D, ``size`` floats); float32 is not copied."""
        data = np.asarray(vector, dtype=np.float32)
        if data.shape != (self.size,):
            raise ValueError(
                f"an observation of shape {data.shape} does not fit this layout, "
                f"which reads vectors of shape ({self.size},)"
            )
        data = data.view()
        data.flags.writeable = False
        return ObservationView(self, data)


def embedding(small: Layout, big: Layout) -> np.ndarray:
    """Where each float of ``small`` lands in ``big``, a layout with the same names and shapes at
    least as large (a padded one): int64 [small.size], the index in ``big`` of the entry with
    the same name and the same index along every axis. ValueError naming the block that does not
    fit. With it, ``padded[embedding(small, big)] = vector`` pads a vector of ``small``."""
    out = np.empty(small.size, dtype=np.int64)
    _embed(small, big, 0, 0, out)
    return out


def _embed(small: Layout, big: Layout, at: int, big_at: int, out: np.ndarray) -> None:
    for f in small:
        if f.name not in big:
            raise ValueError(f"block {f.name!r} has no place in the larger layout")
        g = big[f.name]
        if len(f.shape) != len(g.shape) or any(
            a > b for a, b in zip(f.shape, g.shape, strict=True)
        ):
            raise ValueError(f"block {f.name!r}: shape {f.shape} does not fit in {g.shape}")
        if (f.item is None) != (g.item is None):
            raise ValueError(f"block {f.name!r} is a group in one layout and not the other")
        if f.item is not None:
            for r in range(max(f.count, 1) if f.shape else 1):
                _embed(
                    f.item, g.item, at + f.offset + r * f.item.size,
                    big_at + g.offset + r * g.item.size, out,
                )  # fmt: skip
            continue
        if not f.shape:
            out[at + f.offset] = big_at + g.offset
            continue
        index = np.indices(f.shape).reshape(len(f.shape), -1)
        flat = np.ravel_multi_index(tuple(index), g.shape)
        out[at + f.offset : at + f.stop] = big_at + g.offset + flat


class ObservationView:
    """Blocks of one record of a vector by name (see the module docstring); read-only."""

    __slots__ = ("layout", "array")

    def __init__(self, layout: Layout, array: np.ndarray) -> None:
        self.layout = layout
        self.array = array  # the record's floats, 1-D

    def __getitem__(self, name: str) -> np.ndarray | ObservationView | Records:
        """A block as an array of its shape (0-d for one float), a group as a view or records."""
        f, start, stop = self.layout._span(name)
        data = self.array[start:stop]
        if f.item is not None:
            if f.shape:
                return Records(f, data.reshape(f.count, f.item.size))
            return ObservationView(f.item, data)
        if len(f.shape) == 1:
            return data
        return data.reshape(f.shape)

    def __contains__(self, name: object) -> bool:
        return name in self.layout

    def __iter__(self) -> Iterator[str]:
        return iter(self.layout.names)

    def __repr__(self) -> str:
        return f"ObservationView({', '.join(self.layout.names)})"

    def value(self, name: str) -> float:
        """A one-float block as a Python float."""
        f, start, _ = self.layout._span(name)
        if f.shape or f.item is not None:
            raise ValueError(f"block {name!r} has shape {f.shape}, not one float")
        return float(self.array[start])

    def flag(self, name: str) -> bool:
        """A one-float block read as a yes/no: above one half."""
        return self.value(name) > 0.5

    def amount(self, name: str) -> int:
        """A scaled one-float block turned back into the whole quantity: round(value * scale)."""
        f = self.layout[name]
        if f.scale is None:
            raise ValueError(f"block {name!r} has no scale to read an amount with")
        return round(self.value(name) * f.scale)

    def index(self, name: str) -> int:
        """The set entry of a one-hot block (its first largest), -1 when none is set."""
        values = self[name]
        return int(values.argmax()) if values.max() > 0.5 else -1

    def label(self, name: str) -> str | None:
        """The label of a one-hot block's set entry, None when none is set."""
        labels = self.layout[name].labels
        if not labels:
            raise ValueError(f"block {name!r} has no labels")
        k = self.index(name)
        return labels[k] if k >= 0 else None

    def indices(self, name: str) -> tuple[int, ...]:
        """The set entries of a multi-hot block (above one half), in order."""
        return tuple(int(i) for i in np.flatnonzero(self[name] > 0.5))

    def members(self, name: str) -> tuple[str, ...]:
        """The labels of a multi-hot block's set entries, in order."""
        labels = self.layout[name].labels
        if not labels:
            raise ValueError(f"block {name!r} has no labels")
        return tuple(labels[i] for i in self.indices(name))


class Records:
    """The records of a repeated group: ``records[i]`` is a view, ``records.column(name)`` one
    field of every record at once (a strided array, still no copy)."""

    __slots__ = ("field", "array")

    def __init__(self, f: Field, array: np.ndarray) -> None:
        self.field = f
        self.array = array  # (records, floats per record)

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, i: int) -> ObservationView:
        return ObservationView(self.field.item, self.array[i])

    def __iter__(self) -> Iterator[ObservationView]:
        return (ObservationView(self.field.item, row) for row in self.array)

    def __repr__(self) -> str:
        return f"Records({self.field.name}: {len(self)} x {self.field.item!r})"

    def column(self, name: str) -> np.ndarray:
        """Sub-field ``name`` of every record: shape (records, *its shape)."""
        f = self.field[name]
        if f.item is not None:
            raise ValueError(f"{self.field.name}.{name} is a group; read it record by record")
        if not f.shape:
            return self.array[:, f.offset]
        return self.array[:, f.offset : f.stop].reshape(len(self), *f.shape)


def _unknown(name: object, names: Iterable[str]) -> str:
    return f"no block {name!r} here; the blocks are: {', '.join(names)}"
