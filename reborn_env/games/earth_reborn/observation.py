"""What one player may see, as a flat float32 vector (section 22, ER-HID-1..12).

Built only from the observer's own screen and the public table: the opponent's tile identities, the
bag's contents and the generator never enter it (ER-HID-2, -6). The discard's contents appear only
at the observer's own ``CHOOSE_DISCARD`` decision (ER-HID-7); a duel bid only once both are chosen
(ER-HID-10). Values are scaled into [0, 1]. The layout is listed by :func:`observation_layout`.
"""

from __future__ import annotations

import numpy as np

from ...core.per_scenario import PerScenario
from .actions import MAX_CP, SECTION_SLOTS
from .rules.state import CHOOSE_DISCARD, DECISIONS, PHASES, GameState
from .scenario.model import ORDER_TYPES, Scenario

# Layout inside each character block, public so decoders (the heuristic bot) can read it.
CHAR_SCALARS = (
    "mine",
    "alive",
    "wounded",
    "wounds",
    "engaged",
    "cp_spent",
    "cp_left",
    "cards",
    "has_weapon",
    "weapon_ready",
    "activated",
)
SECTION_FEATURES = len(ORDER_TYPES) + 3  # type one-hot, max, cp placed, present
_MP_SCALE = 20.0
# Cached character blocks per character (161 floats each): a few MB per scenario at most.
_BLOCK_CACHE_SIZE = 4096


def observation_layout(scn: Scenario) -> list[tuple[str, int]]:
    """(block name, width) in order; their sum is the observation size."""
    board = scn.board
    n_chars, n_tiles = len(scn.characters), len(scn.tiles)
    layout = [
        ("faction", 2),
        ("turn", scn.turns),
        ("phase", len(PHASES)),
        ("decision", len(DECISIONS)),
        ("flags: i_decide, i_hold_initiative, i_am_active, passes", 4),
        ("cp: mine, opponent's", 2),
        ("mp: mine, opponent's", 2),
        ("tile counts: my hand, opponent's hand, bag, discard", 4),
        ("redrew: mine, opponent's", 2),
        ("duel bids: mine, opponent's once revealed", 2),
        ("my hand (tile multi-hot)", n_tiles),
        ("discard, only at my CHOOSE_DISCARD", n_tiles),
        ("doors: closed/open/destroyed per door", 3 * len(board.doors)),
        ("terminals hacked", len(scn.terminals)),
        ("caches full", len(scn.caches)),
        ("round: reactivation, acted, decided, mvp, transferred, order cp", 6),
        ("selected section", SECTION_SLOTS),
        ("target direction", 4),
        ("target character", n_chars),
        ("last roll: faces Y1..Y6, B1..B6", 12),
    ]
    per_char = (
        len(CHAR_SCALARS)
        + board.width
        + board.height
        + 4
        + len(scn.terminals)
        + SECTION_SLOTS * SECTION_FEATURES
    )
    layout += [(f"character {c.id}", per_char) for c in scn.characters]
    return layout


def observation_size(scn: Scenario) -> int:
    return sum(width for _, width in observation_layout(scn))


class Observer:
    """Builds observations for one scenario into a reused buffer layout."""

    def __init__(self, scn: Scenario) -> None:
        self.scn = scn
        self.size = observation_size(scn)
        self.decision_index = {d: i for i, d in enumerate(DECISIONS)}
        self.phase_index = {p: i for i, p in enumerate(PHASES)}
        self.tile_blocks = [self._tile_block(t) for t in range(len(scn.tiles))]
        self.char_width = dict(observation_layout(scn))[f"character {scn.characters[0].id}"]
        self.blocks: list[dict[tuple, np.ndarray]] = [{} for _ in scn.characters]

    def _tile_block(self, t: int) -> tuple[list[int], list[float]]:
        """The printed part of a tile's four section features (type, max, present), sparse."""
        offsets: list[int] = []
        values: list[float] = []
        for k, section in enumerate(self.scn.tiles[t].sections):
            j = k * SECTION_FEATURES
            offsets += (j + ORDER_TYPES.index(section.type), j + 5, j + 7)
            values += (1.0, section.max / 4.0, 1.0)
        return offsets, values

    def observe(self, state: GameState, me: int) -> np.ndarray:
        """ER-HID-1..11: the observation of player ``me``.

        Most entries are zero, so the builder collects (index, value) pairs in two lists and writes
        them into a fresh array at once; that is several times faster than item assignment.
        """
        scn = self.scn
        opp = 1 - me
        n_tiles = len(scn.tiles)
        both_bid = state.bids[0] >= 0 and state.bids[1] >= 0
        ix: list[int] = []
        vx: list[float] = []
        ix += (me, 2 + state.turn - 1)
        i = 2 + scn.turns
        ix.append(i + self.phase_index[state.phase])
        i += len(PHASES)
        ix.append(i + self.decision_index[state.decision])
        i += len(DECISIONS)
        vx += [1.0] * len(ix)
        scalars = (
            state.winner is None and state.decider == me,
            state.initiative == me,
            state.active == me,
            state.passes,
            state.cp[me] / MAX_CP,  # ER-HID-4
            state.cp[opp] / MAX_CP,
            min(state.mp[me] / _MP_SCALE, 1.0),
            min(state.mp[opp] / _MP_SCALE, 1.0),
            len(state.hands[me]) / n_tiles,
            len(state.hands[opp]) / n_tiles,  # ER-HID-3: the count only
            len(state.bag) / n_tiles,  # ER-HID-6
            len(state.discard) / n_tiles,  # ER-HID-7
            state.redrew[me],  # ER-HID-9
            state.redrew[opp],
            max(state.bids[me], 0) / MAX_CP,
            max(state.bids[opp], 0) / MAX_CP if both_bid else 0.0,  # ER-HID-10
        )
        ix += range(i, i + len(scalars))
        vx += scalars
        i += len(scalars)
        ones = [i + t for t in state.hands[me]]  # ER-HID-1
        i += n_tiles
        if state.decision == CHOOSE_DISCARD and state.decider == me:  # ER-HID-7
            ones += [i + t for t in state.discard]
        i += n_tiles
        ones += [i + 3 * d + door_state for d, door_state in enumerate(state.doors)]
        i += 3 * len(state.doors)
        ones += [i + t for t, hacked in enumerate(state.hacked) if hacked]
        i += len(state.hacked)
        ones += [i + k for k, full in enumerate(state.cache_full) if full]
        i += len(state.cache_full)
        ix += range(i, i + 6)
        vx += (
            state.reactivation,
            state.acted,
            state.round_decisions > 0,
            min(state.mvp / 20.0, 1.0),
            state.transferred,
            state.order_cp / 4.0,
        )
        i += 6
        if state.section >= 0:
            ones.append(i + state.section)
        i += SECTION_SLOTS
        if state.target >= 0:
            shooting = state.decision in ("cp", "aim") and self._shooting(state)
            ones.append(i + (4 if shooting else 0) + state.target)
        i += 4 + len(scn.characters)
        if state.last_roll:  # ER-HID-11: every die rolled is public
            faces = [0] * 12
            for face in state.last_roll:
                faces[(0 if face[0] == "Y" else 6) + int(face[1]) - 1] += 1
            for f, count in enumerate(faces):
                if count:
                    ix.append(i + f)
                    vx.append(count / 6.0)
        i += 12
        v = np.zeros(self.size, dtype=np.float32)
        v[ix] = vx
        v[ones] = 1.0
        width = self.char_width
        for c in range(len(scn.characters)):
            v[i : i + width] = self._character_block(state, c, me)
            i += width
        return v

    def _character_block(self, state: GameState, c: int, me: int) -> np.ndarray:
        """One character's block, cached by everything it is built from.

        Between two decisions most characters do not change, so looking a block up by a small
        key is cheaper than building it again.
        """
        ch = state.chars[c]
        key = (
            state.faction_of[c] == me,
            state.char == c,
            ch.square,
            ch.facing,
            ch.wounded,
            ch.wounds,
            ch.engaged,
            ch.dead,
            ch.cp_spent,
            ch.cards,
            ch.weapon_ready,
            tuple(ch.tried),
            tuple([x for a in ch.tiles for x in (a.tile, *a.cp)]),
        )
        cache = self.blocks[c]
        block = cache.get(key)
        if block is None:
            if len(cache) >= _BLOCK_CACHE_SIZE:
                cache.clear()
            block = cache[key] = self._character(state, c, me)
        return block

    def _shooting(self, state: GameState) -> bool:
        assigned = state.chars[state.char].tiles[state.section >> 2]
        return self.scn.tiles[assigned.tile].sections[state.section & 3].type == "F"

    def _character(self, state: GameState, c: int, me: int) -> np.ndarray:
        """Character ``c``'s block as ``me`` sees it (ER-HID-5/-11: all of it is on the table)."""
        scn = self.scn
        board = scn.board
        spec = scn.characters[c]
        ch = state.chars[c]
        stats = state.stats(c)
        maxcp = spec.healthy.maxcp
        armed = spec.weapon is not None
        ix = list(range(len(CHAR_SCALARS)))
        vx = [
            state.faction_of[c] == me,
            not ch.dead,
            ch.wounded,
            ch.wounds / stats.lp,
            ch.engaged,
            ch.cp_spent / maxcp,
            max(stats.maxcp - ch.cp_spent, 0) / maxcp,
            min(ch.cards / 2.0, 1.0),
            armed,
            armed and ch.weapon_ready,
            state.char == c,
        ]
        i = len(CHAR_SCALARS)
        x, y = board.xy(ch.square)
        ones = [i + x, i + board.width + y, i + board.width + board.height + ch.facing]
        i += board.width + board.height + 4
        ones += [i + t for t in ch.tried]
        i += len(scn.terminals)
        width = 4 * SECTION_FEATURES
        for slot, assigned in enumerate(ch.tiles):
            j = i + slot * width
            offsets, values = self.tile_blocks[assigned.tile]
            ix += [j + o for o in offsets]
            vx += values
            ix += (
                j + 6,
                j + SECTION_FEATURES + 6,
                j + 2 * SECTION_FEATURES + 6,
                j + 3 * SECTION_FEATURES + 6,
            )
            vx += [cp / 4.0 for cp in assigned.cp]
        block = np.zeros(self.char_width, dtype=np.float32)
        block[ix] = vx
        block[ones] = 1.0
        return block


observer_for = PerScenario(Observer)
"""observer_for(scenario): one observer (and its block cache) per scenario object, shared by
every environment."""
