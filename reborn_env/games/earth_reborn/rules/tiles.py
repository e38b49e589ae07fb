"""The bag, the discard pile and the screens: moving order tiles between them (section 5).

Every tile is always in exactly one place (ER-TILE-11); these functions are the only ones that move
tiles between piles, and each keeps the piles sorted (they are unordered sets, ER-GEN-3).
"""

from __future__ import annotations

from bisect import insort

from .state import GameState


def refill_bag_from_discard(state: GameState) -> None:
    """ER-TILE-6/-7: put every tile of the discard pile into the bag."""
    if state.discard:
        state.bag = sorted(state.bag + state.discard)
        state.discard = []


def draw_from_bag(state: GameState, player: int) -> bool:
    """Draw one tile at random from the bag to ``player``'s screen; False if none is left.

    ER-TILE-6: an empty bag first takes back the whole discard pile. ER-TILE-7: a draw that leaves
    the bag empty at once puts the discard pile into the bag (the seed's worked example).
    """
    if not state.bag:
        refill_bag_from_discard(state)
        if not state.bag:
            return False  # ER-INI-3: bag and discard both empty
    tile = state.bag.pop(state.rng.below(len(state.bag)))
    insort(state.hands[player], tile)
    if not state.bag:
        refill_bag_from_discard(state)
    return True


def draw_up_to(state: GameState, player: int, limit: int) -> None:
    """ER-INI-1..3: draw until ``player`` holds ``limit`` tiles or no tile is left to draw."""
    while len(state.hands[player]) < limit and draw_from_bag(state, player):
        pass


def take_from_discard(state: GameState, player: int, tile: int) -> None:
    """ER-ACT-10: move the chosen ``tile`` from the discard pile behind ``player``'s screen."""
    state.discard.remove(tile)
    insort(state.hands[player], tile)


def discard_from_hand(state: GameState, player: int, tile: int) -> None:
    """ER-FIN-5 / ER-TILE-8: a tile from behind the screen goes face down to the discard pile."""
    state.hands[player].remove(tile)
    insort(state.discard, tile)


def assign_from_hand(state: GameState, player: int, tile: int) -> None:
    """ER-ORD-1: take ``tile`` from behind the screen (the caller places it by the card)."""
    state.hands[player].remove(tile)


def tile_locations(state: GameState) -> list[str]:
    """Where each tile is, for the ER-TILE-11 invariant: one label per tile, '' if nowhere."""
    where = [""] * len(state.scenario.tiles)
    seen: list[tuple[str, list[int]]] = [
        ("bag", state.bag),
        ("discard", state.discard),
        ("box", state.box),
        ("hand:0", state.hands[0]),
        ("hand:1", state.hands[1]),
    ]
    for i, ch in enumerate(state.chars):
        seen.append((f"char:{i}", [a.tile for a in ch.tiles]))
    for label, pile in seen:
        for t in pile:
            if where[t]:
                raise AssertionError(
                    f"tile {state.scenario.tiles[t].id} is in {where[t]} and {label}"
                )
            where[t] = label
    return where
