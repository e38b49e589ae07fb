"""The compiled observation encoder of haven (16.5): :class:`FastObserver`, the C twin of
:class:`~reborn_env.games.haven.observation.Observer`.

The Python ``Observer`` stays the definition: :func:`core_spec` reads its offsets, feature
indices, blank vectors and name tables, and ``_core.observer`` builds the C encoder from them,
so the layout is written once. Both observers have ``size``, ``layout``, ``observe(game, me)``
and ``observe_into(game, me, out)``, and give bit-identical vectors (tests/haven/fast).
:func:`best_observer_for` gives the one of a backend (:func:`~.resolve_backend`): by default
the compiled one where the core is built, the Python one elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from ....core.per_scenario import PerScenario
from .. import observation
from ..actions import CARD_SLOTS
from ..observation import CHAR_SCALARS, SLOT_ENTITIES, Observer, observer_for
from ..rules.prompts import SELECT_LEAD, SELECT_SECOND
from ..rules.state import (
    CHARACTER_SLOT,
    ITEM_STATES,
    SELECT,
    SUMMON_SLOT,
    CharacterState,
    MonsterState,
)
from ..scenario.model import ELEMENTS, ELITE, FLOOR, TRAP, Scenario
from . import IMPORT_ERROR, CoreUnavailableError, core, resolve_backend

if TYPE_CHECKING:
    from ..rules.engine import HavenGame


MONSTER_FIELDS = (
    "type",
    "rank",
    "cell",
    "standee",
    "hp",
    "max_hp",
    "shield",
    "retaliate",
    "conditions",
    "acted",
)
"""What the board shows of a monster (16.5), in the order :func:`monster_fields` gives it."""


def monster_fields(monsters: Iterable[MonsterState]) -> list[tuple[Any, ...]]:
    """The :data:`MONSTER_FIELDS` of each monster, for the C encoder: read here because on these
    records the interpreter's specialised attribute loads cost a fraction of the C API's
    ``PyObject_GetAttr``."""
    rows = []
    for m in monsters:
        rows.append(
            (
                m.type,
                m.rank,
                m.cell,
                m.standee,
                m.hp,
                m.max_hp,
                m.shield,
                m.retaliate,
                m.conditions,
                m.acted,
            )
        )
    return rows


CHARACTER_FIELDS = (
    "cell",
    "exhausted",
    "hp",
    "max_hp",
    "shield",
    "retaliate",
    "acted",
    "conditions",
    "hand",
    "played",
    "discard",
    "lost",
    "round_bonus",
    "persistent",
    "revealed",
    "long_rest",
    "gold",
    "sits_out",
    "items",
    "amd.draw",
    "amd.discard",
    "amd.shuffle_due",
)
"""What the board and the block of a seat observed read of its character whatever its state
(16.5), in the order :func:`character_fields` gives it; ``lead``, ``second`` and
``initiative`` are read only where shown."""


def character_fields(ch: CharacterState) -> tuple[Any, ...]:
    """The :data:`CHARACTER_FIELDS` of a character, for the C encoder (see
    :func:`monster_fields`)."""
    amd = ch.amd
    return (
        ch.cell,
        ch.exhausted,
        ch.hp,
        ch.max_hp,
        ch.shield,
        ch.retaliate,
        ch.acted,
        ch.conditions,
        ch.hand,
        ch.played,
        ch.discard,
        ch.lost,
        ch.round_bonus,
        ch.persistent,
        ch.revealed,
        ch.long_rest,
        ch.gold,
        ch.sits_out,
        ch.items,
        amd.draw,
        amd.discard,
        amd.shuffle_due,
    )


GAME_FIELDS = (
    "state",
    "prompt",
    "hide_other_piles",
    "traps",
    "coins",
    "treasures",
    "characters",
    "summons",
    "phase",
    "outcome",
    "round",
    "win_met",
    "elements",
    "pending_infusions",
    "monster_decks",
    "monster_amd.draw",
    "monster_amd.discard",
    "monster_amd.shuffle_due",
    "monsters",
)
"""What the C encoder reads of a game whatever its state (16.5), in the order
:func:`game_fields` gives it: the game's state and prompt, ``hide_other_piles`` as
``bool(getattr(game.config, "hide_other_piles", False))``, then the state's fields, its
``monsters`` as their :func:`monster_fields`."""


def game_fields(game: HavenGame) -> tuple[Any, ...]:
    """The :data:`GAME_FIELDS` of a game, for the C encoder (see :func:`monster_fields`)."""
    state = game.state
    amd = state.monster_amd
    return (
        state,
        game.prompt,
        bool(getattr(game.config, "hide_other_piles", False)),
        state.traps,
        state.coins,
        state.treasures,
        state.characters,
        state.summons,
        state.phase,
        state.outcome,
        state.round,
        state.win_met,
        state.elements,
        state.pending_infusions,
        state.monster_decks,
        amd.draw,
        amd.discard,
        amd.shuffle_due,
        monster_fields(state.monsters),
    )


def core_spec(obs: Observer) -> dict[str, Any]:
    """What ``_core.observer`` needs, read off the Python observer (keys: see observer.c)."""
    f, scn = obs.feature, obs.scn
    rnd, seq, deck, mods = obs.round_at, obs.sequence_at, obs.deck_at, obs.modifiers_at
    ch, pr = obs.char_at, obs.prompt_at
    layout = obs.layout
    spec: dict[str, Any] = {
        "size": obs.size,
        "blank": tuple(b.tobytes() for b in obs.blank),
        "n_cells": obs.n_cells,
        "board": obs.start["board"],
        "n_features": obs.n_features,
        "feature_trap": f.get("terrain:" + TRAP),  # None on a map without traps
        "feature_floor": f["terrain:" + FLOOR],
        "character_kind": list(obs.character_kind),
        "summon_kind": dict(obs.summon_kind),
        "type_kind": obs.type_kind,
        "cell_condition": dict(obs.cell_condition),
        "game_fields": game_fields,
        "character_fields": character_fields,
        "monster_bonus": [
            {rank: obs.monster_bonus[t, rank] for rank in ("normal", ELITE)}
            for t in range(len(scn.monster_types))
        ],
        "elite": ELITE,
        "hp_scale": obs.hp_scale,
        "coin_scale": observation.COIN_SCALE,
        "number_scale": observation.NUMBER_SCALE,
        "bonus_scale": observation.BONUS_SCALE,
        "gold_scale": observation.GOLD_SCALE,
        "initiative_scale": observation.INITIATIVE_SCALE,
        "value_scale": observation.VALUE_SCALE,
        "revealed_scale": 2.0,
        "card_slots": CARD_SLOTS,
        "round": obs.start["round"],
        "round_round": rnd["round"],
        "round_phase": rnd["phase"],
        "round_outcome": rnd["outcome"],
        "round_win_met": rnd["win_met"],
        "round_cap": scn.rules.round_cap,
        "phase_index": dict(obs.phase_index),
        "outcome_index": dict(obs.outcome_index),
        "select": SELECT,
        "elements": obs.start["elements"],
        "n_elements": len(ELEMENTS),
        "n_element_states": observation._N_ELEMENT_STATES,
        "pending_infusions": obs.start["pending_infusions"],
        "sequence": obs.start["turn_sequence"],
        "slot_width": obs.slot_width,
        "max_slots": observation.MAX_SLOTS,
        "slot_entity": seq["entity"],
        "slot_initiative": seq["initiative"],
        "slot_done": seq["done"],
        "n_slot_entities": len(SLOT_ENTITIES),
        "n_entities": layout["turn_sequence"]["entity"].count,
        "character_slot": CHARACTER_SLOT,
        "summon_slot": SUMMON_SLOT,
        "monster_decks": obs.start["monster_decks"],
        "deck_width": obs.deck_width,
        "deck_current": deck["current"],
        "deck_discard": deck["discard"],
        "deck_draw": deck["draw"],
        "deck_size": obs.deck_size,
        "card_index": [dict(cards) for cards in obs.card_index],
        "monster_modifiers": obs.start["monster_modifiers"],
        "modifier_draw": mods["draw"],
        "modifier_discard": mods["discard"],
        "modifier_shuffle": mods["shuffle_due"],
        "modifier_index": dict(obs.mod_index),
        "n_modifier_names": len(obs.mod_names),
        "modifier_total": float(max(len(scn.monster_modifier_deck), 1)),
        "me": obs.start["me"],
        "other": obs.start["other"],
        "char_scalars": [ch[name] for name in CHAR_SCALARS],
        "cond_index": dict(obs.cond_index),
        "item_index": dict(obs.item_index),
        "n_item_states": len(ITEM_STATES),
        "max_items": observation.MAX_ITEMS,
        "prompt": obs.start["prompt"],
        "prompt_index": dict(obs.prompt_index),
        "ability_index": dict(obs.ability_index),
        "select_lead": SELECT_LEAD,
        "select_second": SELECT_SECOND,
    }
    features = ("coins", "treasure", "mine", "elite", "number", "hp", "max_hp", "shield")
    spec.update({f"feature_{n}": f[n] for n in (*features, "retaliate", "acted")})
    zones = ("conditions", "hand", "lead", "second", "played", "discard", "lost", "active")
    spec.update({f"char_{n}": ch[n] for n in (*zones, "items", "modifiers")})
    spec.update({f"prompt_{n}": pr[n] for n in pr})  # kind, whose, card, ... rest_card
    return spec


class FastObserver:
    """The observations of one scenario (16.5) from the compiled core: the same vectors as
    :class:`~reborn_env.games.haven.observation.Observer`, built in C."""

    def __init__(self, scn: Scenario) -> None:
        if core is None:
            raise CoreUnavailableError(
                f"haven's compiled core is not built ({IMPORT_ERROR}); use observer_for"
            )
        reference = observer_for(scn)
        self.scn = scn
        self.layout = reference.layout
        self.size = reference.size
        self.core = core.observer(core_spec(reference))
        # observe_into(game, me, out): the C method itself, no Python frame in between.
        self.observe_into = self.core.observe_into

    def observe(self, game: HavenGame, me: int) -> np.ndarray:
        """16.5: the observation of character ``me`` in ``game``, a new float32 array."""
        out = np.empty(self.size, dtype=np.float32)
        self.core.observe_into(game, me, out)
        return out

    def __deepcopy__(self, memo: dict[int, object]) -> FastObserver:
        """Itself: it keeps nothing of a game, and every environment of its scenario shares it."""
        return self

    def __reduce__(self) -> tuple[type[FastObserver], tuple[Scenario]]:
        """Pickled (or deep-copied, with the environment that holds it) as its scenario: the C
        encoder is built again from it."""
        return FastObserver, (self.scn,)


fast_observer_for = PerScenario(FastObserver)
"""fast_observer_for(scenario): one compiled observer per scenario object."""


def best_observer_for(scn: Scenario, backend: str | None = None) -> FastObserver | Observer:
    """The observer of ``scn`` for ``backend`` (:func:`~.resolve_backend`): the compiled one for
    ``"fast"``, the Python one for ``"python"``."""
    return fast_observer_for(scn) if resolve_backend(backend) == "fast" else observer_for(scn)
