"""The complete game state of ER-GEN-3, as plain mutable records that clone cheaply.

Players, characters and tiles are integers: a player is the index of its faction in
``scenario.factions`` (0 = norad, 1 = salemite in Vault Raid), a character the index of its card
in ``scenario.characters``, a tile the index of its id in ``scenario.tiles``. Piles of tiles (bag,
discard, hands, box) are kept sorted, because they are unordered sets (ER-GEN-3) and a sorted list
makes a position's JSON canonical.

Each record's fields are declared once, in :mod:`.state_schema` (with the C type and range the
compiled core stores them in); ``__slots__`` come from there, and this module gives each field
its value at setup.
"""

from __future__ import annotations

from ....core.rng import SplitMix64
from ..actions import Codec, codec_for
from ..scenario.model import Scenario
from .state_schema import slots_of

# Phases (ER-TURN-1) and the end of the game.
INITIATIVE, ACTIVITY, FINAL, OVER = "initiative", "activity", "final", "over"
PHASES = (INITIATIVE, ACTIVITY, FINAL, OVER)

# Decision kinds (section 18): which question the deciding player is answering.
MULLIGAN = "mulligan"  # ER-INI-4
DUEL_ASK = "duel_ask"  # ER-INI-8, the player without the marker
DUEL_ANSWER = "duel_answer"  # ER-INI-8, the marker holder
ROUND = "round"  # ER-ENV-2
CHOOSE_DISCARD = "choose_discard"  # ER-ACT-10
ACTIVATION = "activation"  # ER-ENV-3, nothing in progress
MOVING = "move"  # ER-ENV-4
TARGET = "target"  # ER-ENV-5
CP = "cp"  # ER-ENV-5
AIM = "aim"  # ER-ENV-5
DISCARD = "discard"  # ER-FIN-5
GAME_OVER = "game_over"
DECISIONS = (
    MULLIGAN,
    DUEL_ASK,
    DUEL_ANSWER,
    ROUND,
    CHOOSE_DISCARD,
    ACTIVATION,
    MOVING,
    TARGET,
    CP,
    AIM,
    DISCARD,
    GAME_OVER,
)

# Door states (ER-DOOR-1).
CLOSED, OPENED, DESTROYED = 0, 1, 2
DOOR_STATES = ("closed", "open", "destroyed")


class AssignedTile:
    """A tile assigned to a character this turn and the CP on each of its sections (ER-ORD-3)."""

    __slots__ = slots_of("AssignedTile")

    def __init__(self, tile: int, cp: list[int] | None = None) -> None:
        self.tile = tile
        self.cp = cp if cp is not None else [0, 0, 0, 0]

    def copy(self) -> AssignedTile:
        return AssignedTile(self.tile, self.cp[:])


class CharacterState:
    """A character's place on the table: square, facing, card side, wounds and turn memory."""

    __slots__ = slots_of("CharacterState")

    def __init__(self, square: int, facing: int, cards: int) -> None:
        self.square = square
        self.facing = facing
        self.wounded = False  # card side: False = Healthy (ER-CHAR-1)
        self.wounds = 0
        self.engaged = False  # ER-CHAR-3
        self.dead = False  # a dead character's square is its dead marker (ER-WND-3)
        self.cp_spent = 0  # this turn, toward MAXCP (ER-CP-3)
        self.tiles: list[AssignedTile] = []
        self.cards = cards  # magnetic cards carried, or lying on its dead marker
        self.weapon_ready = True  # ER-SHOOT-6/7
        self.tried: set[int] = set()  # terminals tried this turn (ER-INT-2)

    def copy(self) -> CharacterState:
        c = CharacterState.__new__(CharacterState)
        c.square, c.facing, c.wounded, c.wounds = (
            self.square,
            self.facing,
            self.wounded,
            self.wounds,
        )
        c.engaged, c.dead, c.cp_spent = self.engaged, self.dead, self.cp_spent
        c.tiles = [t.copy() for t in self.tiles]
        c.cards, c.weapon_ready, c.tried = self.cards, self.weapon_ready, set(self.tried)
        return c


class GameState:
    """Everything ER-GEN-3 lists, plus the pending decision and the generator."""

    __slots__ = slots_of("GameState")

    def __init__(self, scenario: Scenario, seed: int) -> None:
        self.scenario = scenario
        self.codec: Codec = codec_for(scenario)
        self.faction_of = tuple(scenario.factions.index(c.faction) for c in scenario.characters)
        self.turn = 1
        self.phase = INITIATIVE
        self.initiative = scenario.factions.index(scenario.marker_at_setup)
        self.active = self.initiative
        self.passes = 0  # unbroken run of passes (ER-ACT-13)
        self.cp = [0, 0]
        self.mp = [scenario.start_mp[f] for f in scenario.factions]
        self.hands: list[list[int]] = [[], []]
        self.redrew = [False, False]  # ER-HID-9
        self.bag = list(range(len(scenario.tiles)))
        self.discard: list[int] = []
        self.box: list[int] = []
        self.doors = [CLOSED] * len(scenario.board.doors)
        self.door_opened = [False] * len(scenario.board.doors)  # opened this round
        self.chars = [CharacterState(c.start, c.facing, c.cards) for c in scenario.characters]
        self.hacked = [False] * len(scenario.terminals)
        self.cache_full = [True] * len(scenario.caches)
        # The decision in progress and who makes it.
        self.decision = MULLIGAN
        self.decider = self.initiative
        # The round in progress (ER-ACT-4..8): activated character, reactivation, did it act.
        self.char = -1
        self.reactivation = False
        self.acted = False
        self.round_decisions = 0
        # A Move order in progress (ER-MOV-2, ER-DOOR-10).
        self.mvp = 0
        self.transferred = False
        # A non-Move order being built (ER-ENV-5): section id, target, CP.
        self.section = -1
        self.target = -1
        self.order_cp = 0
        # Initiative duel bids (ER-INI-8); -1 = not chosen.
        self.bids = [-1, -1]
        # Result: None while running, else 0/1 (winning player) or -1 (draw).
        self.winner: int | None = None
        self.rng = SplitMix64(seed)
        self.dice_queue: list[str] = []  # injected faces (ER-DICE-4)
        self.last_roll: list[str] = []  # every die rolled is public (ER-HID-11)
        self.steps = 0
        self._legal: list[int] | None = None

    def clone(self) -> GameState:
        """An independent copy (shares only the immutable scenario and codec)."""
        s = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(s, name, getattr(self, name))
        s.cp, s.mp, s.redrew, s.bids = self.cp[:], self.mp[:], self.redrew[:], self.bids[:]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.bag, s.discard, s.box = self.bag[:], self.discard[:], self.box[:]
        s.doors, s.door_opened = self.doors[:], self.door_opened[:]
        s.chars = [c.copy() for c in self.chars]
        s.hacked, s.cache_full = self.hacked[:], self.cache_full[:]
        s.rng = self.rng.copy()
        s.dice_queue, s.last_roll = self.dice_queue[:], self.last_roll[:]
        s._legal = None
        return s

    # --- small read helpers used across the rules modules -------------------------------------

    def stats(self, c: int):
        """The stat line of the side character ``c`` currently shows (ER-WND-4)."""
        spec = self.scenario.characters[c]
        return spec.wounded if self.chars[c].wounded else spec.healthy

    def living(self, player: int) -> list[int]:
        """Indices of ``player``'s living characters (ER-ACT-7)."""
        return [
            i for i, ch in enumerate(self.chars) if self.faction_of[i] == player and not ch.dead
        ]

    def figure_at(self, square: int, exclude: int = -1) -> int:
        """A living character on ``square`` other than ``exclude``, or -1."""
        for i, ch in enumerate(self.chars):
            if i != exclude and ch.square == square and not ch.dead:
                return i
        return -1
