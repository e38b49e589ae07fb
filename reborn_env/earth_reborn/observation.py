"""What one player may see, as a flat float32 vector (section 22, ER-HID-1..12).

Built only from the observer's own screen and the public table: the opponent's tile identities, the
bag's contents and the generator never enter it (ER-HID-2, -6). The discard's contents appear only
at the observer's own ``CHOOSE_DISCARD`` decision (ER-HID-7); a duel bid only once both are chosen
(ER-HID-10). Values are scaled into [0, 1]. The layout is listed by :func:`observation_layout`.
"""

from __future__ import annotations

import numpy as np

from .actions import MAX_CP, SECTION_SLOTS
from .scenario import ORDER_TYPES, Scenario
from .state import CHOOSE_DISCARD, DECISIONS, PHASES, GameState

_CHAR_SCALARS = (
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
_SECTION_FEATURES = len(ORDER_TYPES) + 3  # type one-hot, max, cp placed, present
_MP_SCALE = 20.0


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
        len(_CHAR_SCALARS)
        + board.width
        + board.height
        + 4
        + len(scn.terminals)
        + SECTION_SLOTS * _SECTION_FEATURES
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

    def observe(self, state: GameState, me: int) -> np.ndarray:
        """ER-HID-1..11: the observation of player ``me``."""
        scn = self.scn
        board = scn.board
        opp = 1 - me
        v = np.zeros(self.size, dtype=np.float32)
        i = 0
        v[i + me] = 1.0
        i += 2
        v[i + state.turn - 1] = 1.0
        i += scn.turns
        v[i + self.phase_index[state.phase]] = 1.0
        i += len(PHASES)
        v[i + self.decision_index[state.decision]] = 1.0
        i += len(DECISIONS)
        running = state.winner is None
        v[i] = running and state.decider == me
        v[i + 1] = state.initiative == me
        v[i + 2] = state.active == me
        v[i + 3] = state.passes
        i += 4
        v[i], v[i + 1] = state.cp[me] / MAX_CP, state.cp[opp] / MAX_CP  # ER-HID-4
        i += 2
        v[i], v[i + 1] = min(state.mp[me] / _MP_SCALE, 1.0), min(state.mp[opp] / _MP_SCALE, 1.0)
        i += 2
        n_tiles = len(scn.tiles)
        v[i] = len(state.hands[me]) / n_tiles
        v[i + 1] = len(state.hands[opp]) / n_tiles  # ER-HID-3: the count only
        v[i + 2] = len(state.bag) / n_tiles  # ER-HID-6
        v[i + 3] = len(state.discard) / n_tiles  # ER-HID-7
        i += 4
        v[i], v[i + 1] = state.redrew[me], state.redrew[opp]  # ER-HID-9
        i += 2
        both_bid = state.bids[0] >= 0 and state.bids[1] >= 0
        v[i] = max(state.bids[me], 0) / MAX_CP
        v[i + 1] = max(state.bids[opp], 0) / MAX_CP if both_bid else 0.0  # ER-HID-10
        i += 2
        for t in state.hands[me]:  # ER-HID-1
            v[i + t] = 1.0
        i += n_tiles
        if state.decision == CHOOSE_DISCARD and state.decider == me:  # ER-HID-7
            for t in state.discard:
                v[i + t] = 1.0
        i += n_tiles
        for d, door_state in enumerate(state.doors):
            v[i + 3 * d + door_state] = 1.0
        i += 3 * len(board.doors)
        for t, hacked in enumerate(state.hacked):
            v[i + t] = hacked
        i += len(scn.terminals)
        for k, full in enumerate(state.cache_full):
            v[i + k] = full
        i += len(scn.caches)
        v[i] = state.reactivation
        v[i + 1] = state.acted
        v[i + 2] = state.round_decisions > 0
        v[i + 3] = min(state.mvp / 20.0, 1.0)
        v[i + 4] = state.transferred
        v[i + 5] = state.order_cp / 4.0
        i += 6
        if state.section >= 0:
            v[i + state.section] = 1.0
        i += SECTION_SLOTS
        if state.target >= 0:
            if state.decision in ("cp", "aim") and self._shooting(state):
                v[i + 4 + state.target] = 1.0
            else:
                v[i + state.target] = 1.0
        i += 4 + len(scn.characters)
        for face in state.last_roll:  # ER-HID-11: every die rolled is public
            v[i + (0 if face[0] == "Y" else 6) + int(face[1]) - 1] += 1.0 / 6.0
        i += 12
        for c in range(len(scn.characters)):
            i = self._character(state, c, me, v, i)
        return v

    def _shooting(self, state: GameState) -> bool:
        assigned = state.chars[state.char].tiles[state.section >> 2]
        return self.scn.tiles[assigned.tile].sections[state.section & 3].type == "F"

    def _character(self, state: GameState, c: int, me: int, v: np.ndarray, i: int) -> int:
        """ER-HID-5/-11: everything about a character is on the table."""
        scn = self.scn
        board = scn.board
        spec = scn.characters[c]
        ch = state.chars[c]
        stats = state.stats(c)
        v[i] = state.faction_of[c] == me
        v[i + 1] = not ch.dead
        v[i + 2] = ch.wounded
        v[i + 3] = ch.wounds / stats.lp
        v[i + 4] = ch.engaged
        v[i + 5] = ch.cp_spent / spec.healthy.maxcp
        v[i + 6] = max(stats.maxcp - ch.cp_spent, 0) / spec.healthy.maxcp
        v[i + 7] = min(ch.cards / 2.0, 1.0)
        v[i + 8] = spec.weapon is not None
        v[i + 9] = spec.weapon is not None and ch.weapon_ready
        v[i + 10] = state.char == c
        i += len(_CHAR_SCALARS)
        x, y = board.xy(ch.square)
        v[i + x] = 1.0
        i += board.width
        v[i + y] = 1.0
        i += board.height
        v[i + ch.facing] = 1.0
        i += 4
        for t in ch.tried:
            v[i + t] = 1.0
        i += len(scn.terminals)
        for slot, assigned in enumerate(ch.tiles):
            sections = scn.tiles[assigned.tile].sections
            for k in range(4):
                section = sections[k]
                j = i + (4 * slot + k) * _SECTION_FEATURES
                v[j + ORDER_TYPES.index(section.type)] = 1.0
                v[j + 5] = section.max / 4.0
                v[j + 6] = assigned.cp[k] / 4.0
                v[j + 7] = 1.0
        return i + SECTION_SLOTS * _SECTION_FEATURES
