"""What a player may not see, as a game that differs only there (ER-HID-12), for the tests.

ER-HID-2 hides the opponent's tiles behind the screen, ER-HID-6 the bag's contents, and the
generator is nobody's to see: :func:`hidden_variant` deals the opponent's hand anew from its tiles
and the bag's (the same counts), with another generator, and changes nothing else. The conformance
suite requires the player's observation and legal actions to stay byte-identical in the variant.
"""

from __future__ import annotations

import numpy as np

from .match import EarthRebornMatch


def hidden_variant(
    match: EarthRebornMatch, seat: int, rng: np.random.Generator
) -> EarthRebornMatch | None:
    """``match`` with the tiles behind the other player's screen and in the bag dealt anew from
    the same pool (ER-HID-2, ER-HID-6) and a new generator state (ER-HID-12); None in the rare
    draw that changes nothing."""
    original = match.to_position()
    position = match.to_position()
    other = position["players"][match.rules.agents[1 - seat]]
    hand, pool = other["hand"], other["hand"] + position["bag"]
    rng.shuffle(pool)
    other["hand"], position["bag"] = sorted(pool[: len(hand)]), sorted(pool[len(hand) :])
    position["rng"] = f"{int(rng.integers(2**63)):016x}"
    return None if position == original else match.rules.from_position(position)
