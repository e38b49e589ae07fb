"""A position as one player may know it, and games dealt to agree with it (ER-HID-13, for search).

:func:`public_view` strips a position (docs/position_format.md) to what ``seat`` may see: the
opponent's tiles behind the screen (ER-HID-2) and the bag (ER-HID-6) become counts, as does the
discard pile except at the seat's own ``CHOOSE_DISCARD`` (ER-HID-7); the opponent's secret duel
bid (ER-HID-10), the generator and injected dice are dropped. The tiles whose place the seat does
not know form the ``unseen`` pool. :func:`determinizer` deals that pool anew into those piles (the
same counts), draws a secret bid and a generator, and returns a playable match; the seat's
observation and mask are unchanged in every deal (ER-HID-12). Search bots call both through the
registry (``reborn_env.core.public_view``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ...core.errors import PositionError
from ...core.rng import SplitMix64
from . import positions
from .fast.match import FastMatch
from .invariants import limits_for
from .rules.state import CHOOSE_DISCARD, DUEL_ANSWER, GameState

FORMAT = "earth_reborn.public_view"
VERSION = 1
VIEW_KEYS = ("format", "version", "seat", "position", "unseen", "hidden")
HIDDEN_KEYS = ("hand", "bag", "discard", "bid")


def public_view(position: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` may know of ``position`` (ER-HID-1..11), as JSON data: ``position`` with
    the hidden piles emptied and ``rng``, ``dice_queue`` and a secret bid blanked, ``unseen``
    (the sorted ids of the tiles in those piles) and ``hidden`` (each pile's count, ER-HID-3,
    -6, -7, and whether the opponent's bid is secret)."""
    public = copy.deepcopy(dict(position))
    factions = list(public["players"])
    me, opponent = factions[seat], factions[1 - seat]
    decision = public["decision"]
    at_my = decision["player"] == me
    discard_seen = at_my and decision["kind"] == CHOOSE_DISCARD  # ER-HID-7
    bid_secret = at_my and decision["kind"] == DUEL_ANSWER  # ER-HID-10
    other = public["players"][opponent]
    unseen = other["hand"] + public["bag"] + ([] if discard_seen else public["discard"])
    hidden = {
        "hand": len(other["hand"]),
        "bag": len(public["bag"]),
        "discard": None if discard_seen else len(public["discard"]),
        "bid": bid_secret,
    }
    other["hand"], public["bag"] = [], []
    if not discard_seen:
        public["discard"] = []
    if bid_secret:
        other["bid"] = None
    public["rng"], public["dice_queue"] = None, []
    return {
        "format": FORMAT,
        "version": VERSION,
        "seat": me,
        "position": public,
        "unseen": sorted(unseen),
        "hidden": hidden,
    }


def determinizer(
    rules: Any, view: Mapping[str, Any], seat: int
) -> Callable[[np.random.Generator], Any]:
    """``deal(rng)``: a new match of ``rules`` (an EarthRebornRules) agreeing with ``view`` for
    ``seat``, the unseen tiles shuffled into the opponent's hand, the bag and (where hidden) the
    discard, a secret bid drawn from 1..the asker's pool (ER-INI-8) and a new generator. The view
    is checked once: PositionError naming what is wrong."""
    template, hidden = _template(rules, view, seat)
    opponent = 1 - seat
    pool = np.array(template.hands[opponent] + template.bag + hidden["discard_tiles"])
    n_hand, n_bag = hidden["hand"], hidden["bag"]
    most_bid = min(template.cp[opponent], limits_for(rules.scenario).max_income[opponent])

    def deal(rng: np.random.Generator) -> Any:
        state = template.clone()
        tiles = rng.permutation(pool).tolist()
        state.hands[opponent] = sorted(tiles[:n_hand])
        state.bag = sorted(tiles[n_hand : n_hand + n_bag])
        if hidden["discard"] is not None:
            state.discard = sorted(tiles[n_hand + n_bag :])
        if hidden["bid"]:
            state.bids[opponent] = int(rng.integers(1, most_bid + 1))
        state.rng = SplitMix64(int(rng.integers(0, 2**64, dtype=np.uint64)))
        if rules.backend == "fast":
            return FastMatch.from_state(rules, state)
        return rules.reference_match(state)

    return deal


def _template(rules: Any, view: Any, seat: int) -> tuple[GameState, dict[str, Any]]:
    """The view as a loaded state (the unseen tiles dealt in order, a zero generator) and its
    hidden counts, or PositionError naming the field of the view that is wrong."""
    if not isinstance(view, Mapping) or view.get("format") != FORMAT:
        raise PositionError(f"not an Earth Reborn public view: 'format' must be {FORMAT!r}")
    if view.get("version") != VERSION or set(view) != set(VIEW_KEYS):
        raise PositionError(
            f"public view: 'version' must be {VERSION} and the keys exactly {', '.join(VIEW_KEYS)}"
        )
    factions = list(rules.agents)
    if view["seat"] != factions[seat]:
        raise PositionError(f"public view 'seat': {view['seat']!r} is not seat {seat}")
    hidden = view["hidden"]
    if not isinstance(hidden, Mapping) or set(hidden) != set(HIDDEN_KEYS):
        raise PositionError(f"public view 'hidden': needs exactly {', '.join(HIDDEN_KEYS)}")
    unseen = view["unseen"]
    counts = [hidden["hand"], hidden["bag"], hidden["discard"]]
    if not isinstance(unseen, list) or not all(
        type(n) is int and n >= 0 for n in counts if n is not None
    ):
        raise PositionError("public view: 'unseen' must be a list, the counts integers >= 0")
    if sum(n for n in counts if n is not None) != len(unseen):
        raise PositionError(
            f"public view: the hidden counts {counts} do not add up to the {len(unseen)} unseen "
            "tiles"
        )
    try:
        position = copy.deepcopy(dict(view["position"]))
        other = position["players"][factions[1 - seat]]
        hand, bag = hidden["hand"], hidden["bag"]
        other["hand"], position["bag"] = unseen[:hand], unseen[hand : hand + bag]
        if hidden["discard"] is not None:
            position["discard"] = unseen[hand + bag :]
        if hidden["bid"]:
            other["bid"] = 1
        position["rng"] = "0" * 16
    except (KeyError, TypeError, ValueError) as err:
        raise PositionError(f"public view 'position': not a position ({err!r})") from None
    state = positions.state_from_dict(position, rules.scenario)
    discard_tiles = state.discard[:] if hidden["discard"] is not None else []
    return state, {**hidden, "discard_tiles": discard_tiles}
