"""The mutable state of a haven game (section 1, HV-STATE-1..7), as plain records.

Everything here is data: numbers, strings and lists, so a state at a *quiet point* (the start of a
round, of a turn-sequence slot, or of cleanup) serialises to JSON exactly (:mod:`.positions`).
Cards are stored by their index in the class's card table (15.2, the ``CARD(k)`` of section 16),
modifier cards by their printed name (``"+1"``, ``"x2"``), ability cards of monsters by id, cells by
cell id (HV-MAP-1). Rules live in the other modules; this one only says what a game holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....core.rng import SplitMix64

# HV-STATE-5: element states, ordered so that "strong or waning" is ``>= WANING``.
INERT, WANING, STRONG = 0, 1, 2
ELEMENT_STATE_NAMES = ("inert", "waning", "strong")

# HV-STATE-1 / HV-ITEM-3: item states.
READY, SPENT, CONSUMED = "ready", "spent", "consumed"
ITEM_STATES = (READY, SPENT, CONSUMED)

# HV-STATE-7: phases at which a game can rest between decisions (quiet points) and its outcomes.
SELECT, TURNS, CLEANUP, OVER = "select", "turns", "cleanup", "over"
PHASES = (SELECT, TURNS, CLEANUP, OVER)
RUNNING, WIN, LOSS, TRUNCATED = "running", "win", "loss", "truncated"
OUTCOMES = (RUNNING, WIN, LOSS, TRUNCATED)

# Turn-sequence slot kinds (section 4.4).
CHARACTER_SLOT, SUMMON_SLOT, MONSTER_SLOT = "character", "summon", "monsters"

# HV-CEND-2 / HV-COND-10: the conditions that end with the figure's turn.
EXPIRING_CONDITIONS = ("immobilize", "disarm", "stun", "muddle", "invisible", "strengthen")


@dataclass
class ModifierDeck:
    """An attack modifier deck (HV-AMD-1..4): draw pile top first, discard, and the shuffle flag."""

    draw: list[str]
    discard: list[str] = field(default_factory=list)
    shuffle_due: bool = False  # a x2 or null was drawn this round (HV-CLEAN-1 step 1)


@dataclass
class CharacterState:
    """HV-STATE-1: one character (one agent)."""

    index: int
    hp: int
    max_hp: int
    cell: int | None  # None once exhausted (HV-EXH-3)
    conditions: list[str] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    # HV-SEL-1: the round's picks; ``played`` holds those not yet moved by HV-BOX-8.
    lead: int | None = None
    second: int | None = None
    played: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    # HV-BOX-9: cards in the active area and where each goes when its effect ends.
    round_bonus: list[int] = field(default_factory=list)  # leave at cleanup (HV-CLEAN-1.4)
    persistent: list[int] = field(default_factory=list)  # leave when their summon goes
    active_fate: dict[int, str] = field(default_factory=dict)  # card -> "discard" | "lost"
    items: list[str] = field(default_factory=list)  # one of ITEM_STATES per class item
    amd: ModifierDeck = field(default_factory=lambda: ModifierDeck([]))
    gold: int = 0
    exhausted: bool = False
    long_rest: bool = False  # declared this round (HV-SEL-1)
    shield: int = 0  # round bonuses (HV-ABL-4/5)
    retaliate: int = 0
    acted: bool = False  # has had its turn this round (observation)
    sits_out: bool = (
        False  # takes no part in this round (a fixture's unlisted character, HV-API-10)
    )
    initiative: int = 0  # this round's (HV-INIT-1); 99 for a long rest
    # HV-SEL-3 / 16.8: how many of this round's picks are public (0 before the reveal, 1 when only
    # the leading card is, with ``reveal_second_card_at_turn``, 2 when both are).
    revealed: int = 0

    @property
    def active(self) -> list[int]:
        return self.round_bonus + self.persistent


@dataclass
class MonsterState:
    """HV-STATE-2: one monster standee."""

    type: int  # index into the scenario's monster types
    rank: str
    standee: int
    hp: int
    max_hp: int
    cell: int
    conditions: list[str] = field(default_factory=list)
    shield: int = 0  # round bonuses from its ability card (HV-MTURN-10)
    retaliate: int = 0
    acted: bool = False


@dataclass
class SummonState:
    """HV-STATE-3: one summon."""

    owner: int  # character index
    summon: str  # summon id (15.3)
    card: int  # the owner's card index it came from
    hp: int
    max_hp: int
    move: int
    attack: int
    range: int
    cell: int
    summoned_round: int
    number: int  # summon sequence number, unique in the game (HV-INIT-4 order)
    conditions: list[str] = field(default_factory=list)
    acted: bool = False


Figure = CharacterState | MonsterState | SummonState
"""Section 0.3: a figure on the map, whichever record holds it."""


@dataclass
class MonsterDeck:
    """HV-STATE-4: a monster type's ability deck (ids, draw pile top first) and current card."""

    draw: list[str]
    discard: list[str] = field(default_factory=list)  # top of the discard last
    current: str | None = None
    consumed: bool = False  # HV-ELEM-5: this activation has consumed its element


@dataclass
class Slot:
    """One entry of the round's turn sequence (section 4.4)."""

    kind: str  # CHARACTER_SLOT, SUMMON_SLOT or MONSTER_SLOT
    index: int  # character index, summon number, or monster type index
    initiative: int


@dataclass
class HavenState:
    """HV-STATE-7 plus every figure, deck, token and element: the whole of a game between steps."""

    characters: list[CharacterState]
    monsters: list[MonsterState]
    summons: list[SummonState]
    monster_decks: list[MonsterDeck]
    monster_amd: ModifierDeck
    elements: list[int]  # per scenario.ELEMENTS, INERT/WANING/STRONG
    coins: dict[int, int]  # cell -> coin tokens (HV-STATE-6)
    treasures: dict[int, int]  # cell -> treasure number
    rng: SplitMix64  # the one seeded generator (HV-API-9)
    round: int = 1
    phase: str = SELECT
    sequence: list[Slot] = field(default_factory=list)
    slot: int = 0  # index of the next slot to run (TURNS phase)
    outcome: str = RUNNING
    next_summon_number: int = 1
    win_met: bool = False  # HV-END-1: the win condition held at some point this round
    # HV-API-10: scripted short-rest picks per character (card indices, used before the generator).
    scripted_picks: dict[int, list[int]] = field(default_factory=dict)
    # HV-STATE-5: infusions of the running turn, by element index.
    pending_infusions: list[int] = field(default_factory=list)
    # HV-TER-2: trap cells not yet sprung, ascending (a sprung trap's hex is plain floor).
    traps: list[int] = field(default_factory=list)
