"""Observation rows kept losslessly in a quarter of the memory: one-byte codes into a table.

Why: a warm start records hundreds of thousands of observations (haven's 2,000 teacher games are
286k rows of 2,132 floats: 2.4 GB as float32, twice that while a list of rows is stacked), yet
an observation takes few distinct values (fractions of small counts: 41 in Earth Reborn, 54 in
haven over 20 random games). :class:`RowRecorder` keeps each block of rows as uint8 codes into
the table of distinct values seen so far, and :class:`CompactRows` gives minibatches back as the
very float32 values recorded, so training on them is bit for bit what it was. Past 256 distinct
values it keeps float32 rows instead: never lossy.
"""

from __future__ import annotations

import numpy as np
import torch

MAX_CODES = 256  # what one byte holds


class CompactRows:
    """Rows as codes into ``table`` (``codes`` uint8), or as float32 rows (``table`` None)."""

    def __init__(self, codes: torch.Tensor, table: torch.Tensor | None) -> None:
        self.codes = codes
        self.table = table

    def __len__(self) -> int:
        return self.codes.shape[0]

    def __getitem__(self, index) -> torch.Tensor:
        """The float32 rows at ``index`` (an int tensor, a slice or an int), exactly as recorded."""
        rows = self.codes[index]
        return rows if self.table is None else self.table[rows.long()]

    def decode(self) -> torch.Tensor:
        """Every row as float32."""
        return self[:]

    @property
    def nbytes(self) -> int:
        """The memory its rows take."""
        return self.codes.element_size() * self.codes.nelement()

    @staticmethod
    def cat(parts: list[CompactRows]) -> CompactRows:
        """The rows of ``parts`` in order, coded against the union of their tables when it fits
        one byte (each part's codes mapped onto it, nothing decoded), else as float32 rows."""
        parts = [part for part in parts if len(part)] or parts[:1]
        tables = [part.table for part in parts]
        if all(t is not None for t in tables):
            union = np.unique(np.concatenate([t.numpy() for t in tables]))
            if len(union) <= MAX_CODES:
                remaps = [torch.from_numpy(np.searchsorted(union, t.numpy())) for t in tables]
                codes = [
                    remap.to(torch.uint8)[part.codes.long()]
                    for remap, part in zip(remaps, parts, strict=True)
                ]
                return CompactRows(torch.cat(codes), torch.from_numpy(union))
        return CompactRows(torch.cat([part.decode() for part in parts]), None)


class RowRecorder:
    """Collects float32 rows one at a time, coding each full block as it fills."""

    def __init__(self, block: int = 4096) -> None:
        self.block = block
        self.pending: list[np.ndarray] = []
        self.blocks: list[np.ndarray] = []  # uint8 codes, or float32 once the table overflowed
        self.values: np.ndarray = np.zeros(0, dtype=np.float32)  # sorted; codes index into it
        self.coded = True

    def append(self, row: np.ndarray) -> None:
        """Record one row (copied)."""
        self.pending.append(np.array(row, dtype=np.float32))
        if len(self.pending) >= self.block:
            self._flush()

    def extend(self, rows: np.ndarray) -> None:
        """Record the rows of a 2-D array."""
        for begin in range(0, len(rows), self.block):
            self._flush()
            self.pending = [np.asarray(rows[begin : begin + self.block], dtype=np.float32)]
            self._flush()

    def rows(self) -> CompactRows:
        """Everything recorded, as :class:`CompactRows`."""
        self._flush()
        if not self.blocks:
            return CompactRows(torch.zeros((0, 0), dtype=torch.float32), None)
        codes = torch.from_numpy(np.concatenate(self.blocks))
        self.blocks = []
        table = torch.from_numpy(self.values.copy()) if self.coded else None
        return CompactRows(codes, table)

    def _flush(self) -> None:
        if not self.pending:
            return
        rows = self.pending[0] if len(self.pending) == 1 else np.stack(self.pending)
        rows = rows.reshape(-1, rows.shape[-1]) if rows.ndim > 1 else rows[None]
        self.pending = []
        if self.coded and np.isfinite(rows).all():
            values = np.union1d(self.values, np.unique(rows))
            if len(values) <= MAX_CODES:
                if len(values) != len(self.values):
                    remap = np.searchsorted(values, self.values).astype(np.uint8)
                    self.blocks = [remap[b] for b in self.blocks]
                    self.values = values
                self.blocks.append(np.searchsorted(self.values, rows).astype(np.uint8))
                return
        if self.coded:
            self.blocks = [self.values[b] for b in self.blocks]
            self.coded = False
        self.blocks.append(rows)
