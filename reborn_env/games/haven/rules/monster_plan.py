"""What a monster's or summon's card lets it do this turn, and how it ranks its enemies (HV-AI-3/4).

The plan and the focus key are shared by the single-target AI (:mod:`.monster_ai`) and the
area-of-effect AI (:mod:`.area_ai`), so both read them from here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Plan:
    """What the mover's card lets it do: move points (None: no Move on the card or immobilized),
    attack reach (None: no attack, or disarmed), number of targets and area pattern (HV-AOE-1;
    empty for a single-target attack)."""

    move: int | None
    reach: int | None
    ranged: bool
    targets: int = 1
    area: tuple[tuple[int, int], ...] = ()


Rank = tuple[int, int, tuple[int, int, int]]  # HV-AI-4's key: (cost, proximity, turn position)
UNREACHED = 1_000_000  # the cost of an enemy with no attack hex the mover can reach
