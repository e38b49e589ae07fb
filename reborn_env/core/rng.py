"""SplitMix64: the one seeded random generator a game state carries (ER-DICE-4, design "Speed").

A single 64-bit integer is the whole generator state, so a position saves it as one hex string and a
game replays exactly from its seed and its actions. SplitMix64 (Steele, Lea, Flood 2014) passes
BigCrush; ``below(n)`` maps a 64-bit output to ``[0, n)`` by multiply-shift, whose bias is below
n / 2**64 (under 2**-58 for every n this project uses).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """A tiny, fast, serialisable generator; ``state`` is the whole of it."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)``; ``n`` must be positive."""
        return (self.next64() * n) >> 64

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, drawing ``below`` from the last index down)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SplitMix64) and other.state == self.state

    __hash__ = None  # type: ignore[assignment]  # mutable

    def copy(self) -> SplitMix64:
        return SplitMix64(self.state)
