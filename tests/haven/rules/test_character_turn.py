"""Per-rule haven tests of a character's turn (section 5): the turn (HV-CTURN-*), the boxes of
its cards (HV-BOX-*) and items (HV-ITEM-*).
"""

from __future__ import annotations

import pytest

from tests.haven.helpers import (
    BOTTOM,
    BOX,
    BOX_ACTIONS,
    DEFAULT,
    FAR_MARAUDER,
    HEX,
    ITEM0,
    ITEM1,
    ITEM_ACTIONS,
    LEAD,
    NO,
    OTHER,
    PRINTED,
    TOP,
    YES,
    cards_in_order,
    cell,
    char,
    coins,
    conditions,
    conjurer_c06_game,
    drive,
    element,
    events_of,
    expect,
    hp,
    mon,
    monster,
    new,
    play,
    pos,
    wisp,
)

# =================================================================================================
# 5: character turn (HV-CTURN-*, HV-BOX-*, HV-ITEM-*)


def test_cturn_1_cend_2_only_start_conditions_expire():
    """HV-CTURN-1, HV-CEND-2, HV-ABL-6, HV-COND-11: the set S recorded at turn start decides
    expiry: muddle (in S) ends, strengthen gained from B06 this turn stays, poison is not an
    expiring condition and stays."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "played": ["B06", "B01"],
                    "conditions": ["muddle", "poison"],
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    play(
        game,
        ("WINDOW_0", BOX(LEAD, BOTTOM, PRINTED)),  # B06 bottom: Move 2; Strengthen, self
        ("MOVE_DEST", NO),
    )
    assert conditions(game, "bulwark") == {"muddle", "poison", "strengthen"}
    play(game, ("WINDOW_1", BOX(OTHER, TOP, DEFAULT)), ("WINDOW_2", NO))
    assert conditions(game, "bulwark") == {"poison", "strengthen"}
    assert [e.data["condition"] for e in events_of(game, "COND_REMOVE")] == ["muddle"]


def test_cturn_4_exhausted_in_own_turn_ends_it():
    """HV-CTURN-4, HV-CTURN-2: exhausted by its wound (1 damage) at turn start, the Bulwark's turn
    ends at once: no box prompt, no end-of-turn loot of its hex, no condition expiry, no
    TURN_END."""
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 1,
                    "conditions": ["wound", "muddle"],
                    "played": ["B01", "B02"],
                },
                "conjurer": {"cell": [1, 4]},
            },
            "monsters": [FAR_MARAUDER],
            "coins": [[2, 2]],
        }
    )
    play(game, ("DAMAGE_RESPONSE", NO, "bulwark"))
    assert char(game, "bulwark").exhausted
    assert coins(game) == {cell(2, 2): 1} and char(game, "bulwark").gold == 0
    assert events_of(game, "TURN_END", figure="bulwark") == []
    assert events_of(game, "COND_REMOVE") == [] and events_of(game, "BOX") == []
    expect(game, "SELECT_LEAD", "conjurer")  # round 2: only the Conjurer selects


@pytest.mark.parametrize(
    ("played", "hidden_effect"),
    [(["B04", "B09"], "immobilize"), (["B09", "B04"], "stun")],
)
def test_box_6_default_mode_ignores_printed_text(played, hidden_effect):
    """HV-BOX-6, HV-BOX-5, HV-BOX-8: a box in default mode is Attack 2 / Move 2 only and its card
    always goes to discard: B04's immobilize and Earth, B09's stun and lost mark, B09's bottom
    shield and round-bonus mark do not apply. The first card is in the discard before the second
    box."""
    game = new(
        {
            "characters": {"bulwark": {"cell": [2, 2], "played": played, "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 3, 2)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)), ("ATTACK_TARGET", HEX(3, 2)))
    assert hp(game, "marauder#1") == 3 and conditions(game, "marauder#1") == set()
    assert hidden_effect not in conditions(game, "marauder#1")
    assert cards_in_order(game, "bulwark", "discard") == [played[0]]
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO), ("WINDOW_2", NO))
    assert (
        cards_in_order(game, "bulwark", "discard") == played
        and cards_in_order(game, "bulwark", "lost") == []
    )
    assert (
        char(game, "bulwark").shield == 0 and cards_in_order(game, "bulwark", "round_bonus") == []
    )
    assert element(game, "earth") == "inert" and events_of(game, "INFUSE_PENDING") == []


def _box9_game(played, **extra):
    return new(
        {
            "characters": {
                "bulwark": {"cell": [2, 2], "played": played, "amd": ["+0"]},
                "conjurer": {"cell": [0, 6]},
            },
            "sequence": ["bulwark"],
            "monsters": [mon("marauder", 1, 3, 2)],
            **extra,
        }
    )


def test_box_9_printed_not_performed_goes_to_discard():
    """HV-BOX-9: B09 top (Attack 2, Stun; lost mark) with the attack declined is not performed:
    the card goes to discard, not lost; same for B07 bottom (Move 4, lost mark) with no move."""
    game = _box9_game(["B09", "B07"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", NO))
    assert cards_in_order(game, "bulwark", "discard") == ["B09"]
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, PRINTED)), ("MOVE_DEST", NO))
    assert (
        cards_in_order(game, "bulwark", "discard") == ["B09", "B07"]
        and cards_in_order(game, "bulwark", "lost") == []
    )


def test_box_9_performed_lost_mark_goes_to_lost():
    """HV-BOX-9, HV-ABL-12: B09 top performed (its target attacked and stunned) goes to lost."""
    game = _box9_game(["B09", "B02"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)), ("ATTACK_TARGET", HEX(3, 2)))
    expect(game, "WINDOW_1")
    assert (
        cards_in_order(game, "bulwark", "lost") == ["B09"]
        and cards_in_order(game, "bulwark", "discard") == []
    )
    assert "stun" in conditions(game, "marauder#1")


def test_box_9_round_bonus_card_to_active_then_discard():
    """HV-BOX-9, HV-ABL-4: B02 top performed: card in the active area (round bonus), Shield 2
    for the round, then discard at cleanup."""
    game = _box9_game(["B02", "B01"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    assert (
        cards_in_order(game, "bulwark", "round_bonus") == ["B02"]
        and char(game, "bulwark").shield == 2
    )
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)), ("MOVE_DEST", NO))
    expect(game, "WINDOW_2")
    assert cards_in_order(game, "bulwark", "round_bonus") == ["B02"]
    game.apply(NO)
    expect(game, "SHORT_REST", "bulwark")  # cleanup step 4 has run
    assert (
        cards_in_order(game, "bulwark", "discard") == ["B01", "B02"]
        and char(game, "bulwark").shield == 0
    )


@pytest.mark.parametrize(("half", "card"), [(TOP, "C05"), (BOTTOM, "C01")])
def test_box_9_elem_2_infusion_alone_does_not_perform(half, card):
    """HV-BOX-9, HV-ELEM-2: a printed box whose only carried-out part would be its infusion is
    not performed: C05 top with the attack declined, C01 bottom with the move declined: no
    infusion, card to discard."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": [card, "C08"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    kind = "ATTACK_TARGET" if half == TOP else "MOVE_DEST"
    play(game, ("WINDOW_0", BOX(LEAD, half, PRINTED)), (kind, NO))
    assert cards_in_order(game, "conjurer", "discard") == [card]
    assert events_of(game, "INFUSE_PENDING") == [] and game.state.pending_infusions == []
    drive(game, lambda g: bool(events_of(g, "TURN_END", figure="conjurer")))
    assert events_of(game, "INFUSE_PENDING") == []
    assert element(game, "ice") == element(game, "fire") == "inert"


def test_box_10_disarm_immobilize_skip_without_prompt():
    """HV-BOX-10, HV-COND-4/5, HV-BOX-1: a disarmed, immobilized Bulwark may still choose any box,
    but the attack (default Attack 2 too) and the move are skipped with no prompt. After the
    leading card's top, only the other card's bottom is offered."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "played": ["B01", "B02"],
                    "conditions": ["disarm", "immobilize"],
                }
            },
            "monsters": [mon("marauder", 1, 3, 2)],
        }
    )
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS) | ITEM_ACTIONS)
    game.apply(BOX(LEAD, TOP, DEFAULT))
    expect(
        game,
        "WINDOW_1",
        legal={BOX(OTHER, BOTTOM, PRINTED), BOX(OTHER, BOTTOM, DEFAULT), ITEM0, ITEM1},
    )
    game.apply(BOX(OTHER, BOTTOM, PRINTED))  # B02 bottom: Move 3
    expect(game, "WINDOW_2")
    assert events_of(game, "ATTACK") == [] and events_of(game, "MOVE") == []
    assert hp(game, "marauder#1") == 5 and pos(game, "bulwark") == cell(2, 2)


def test_box_11_no_consume_prompt_when_ability_skipped():
    """HV-BOX-11 step 1: C02 top (consume Fire) with no enemy in range is skipped without a
    CONSUME prompt and Fire stays strong; C07 bottom (consume Ice) while immobilized likewise."""
    game = new(
        {
            "characters": {
                "conjurer": {"cell": [1, 4], "played": ["C02", "C07"], "conditions": ["immobilize"]}
            },
            "monsters": [FAR_MARAUDER],
            "elements": {"fire": "strong", "ice": "strong"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "WINDOW_1")
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, PRINTED)))
    expect(game, "WINDOW_2")
    assert events_of(game, "CONSUME") == []
    assert element(game, "fire") == element(game, "ice") == "strong"


def test_box_11_consumed_element_stays_inert_after_no():
    """HV-BOX-11 step 2, HV-ELEM-4: CONSUME is asked before the target; after YES, Fire is inert at
    once and stays inert although the attack is then declined."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "strong"},
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "CONSUME", "conjurer", legal={YES, NO})
    game.apply(YES)
    assert element(game, "fire") == "inert"
    play(game, ("ATTACK_TARGET", NO))
    assert element(game, "fire") == "inert" and cards_in_order(game, "conjurer", "discard") == [
        "C02"
    ]


def test_box_11_summon_and_move_without_room_are_skipped():
    """HV-BOX-11 step 1, HV-ABL-7: hemmed in at (0,0) by two Marauders, the Conjurer's summon
    (no empty adjacent hex) and its Move 2 (no destination) are skipped with no prompt; C03 was
    not performed and goes to discard."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [0, 0], "played": ["C03", "C01"]}},
            "monsters": [mon("marauder", 1, 1, 0), mon("marauder", 2, 0, 1)],
        }
    )
    play(game, ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "WINDOW_1")
    assert game.state.summons == [] and cards_in_order(game, "conjurer", "discard") == ["C03"]
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "WINDOW_2")


# The corner of 15.1: from (0,0) the mover can leave only through its ally at (1,0) and the Wisp
# at (2,0) (Marauders hold (0,1) and (1,1)); the first empty cells are 3 steps away: (3,0), (2,1);
# at 4 steps: (4,0), (3,1), (2,2), (3,2).
CORNER_3_4 = {HEX(3, 0), HEX(2, 1), HEX(4, 0), HEX(3, 1), HEX(2, 2), HEX(3, 2)}


def _corner(mover, ally, played, **extra):
    return new(
        {
            "sequence": [mover],
            "characters": {
                mover: {"cell": [0, 0], "played": played},
                ally: {"cell": [1, 0]},
            },
            "summons": [wisp(2, 0)],
            "monsters": [mon("marauder", 1, 0, 1), mon("marauder", 2, 1, 1)],
            **extra,
        }
    )


@pytest.mark.parametrize("ice", ["strong", "waning", "inert"])
def test_box_11_abl_10_consume_bonus_counts_for_skipping(ice):
    """HV-BOX-11 step 1, HV-ABL-10, HV-ELEM-4: C07 bottom (Move 2; consume Ice +2 Move) from the
    corner: with Ice strong or waning the move is not skipped (its destinations 3-4 steps away
    need the bonus), CONSUME comes first and MOVE_DEST offers the 3-4 step cells; with Ice inert
    it is skipped with no prompt."""
    game = _corner("conjurer", "bulwark", ["C07", "C01"], elements={"ice": ice})
    game.apply(BOX(LEAD, BOTTOM, PRINTED))
    if ice == "inert":
        expect(game, "WINDOW_1")
        return
    play(game, ("CONSUME", YES))
    assert element(game, "ice") == "inert"
    expect(game, "MOVE_DEST", "conjurer", legal=CORNER_3_4 | {NO})
    play(game, ("MOVE_DEST", HEX(2, 2)))
    assert pos(game, "conjurer") == cell(2, 2)


def test_item_4_swift_boots_widen_move_dest():
    """HV-ITEM-4: Swift Boots used in WINDOW_0 wait over the attack box and attach to the next
    Move; the +2 already counts for the skip test: without them Move 2 from the corner is
    skipped, with them MOVE_DEST offers the 3-4 step cells."""
    game = _corner("bulwark", "conjurer", ["B01", "B02"])
    play(game, ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)), ("ATTACK_TARGET", NO))
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "WINDOW_2")  # Move 2 skipped: nothing within 2 steps
    game = _corner("bulwark", "conjurer", ["B01", "B02"])
    play(game, ("WINDOW_0", ITEM0), ("WINDOW_0", BOX(LEAD, TOP, DEFAULT)), ("ATTACK_TARGET", NO))
    assert char(game, "bulwark").items[0] == "spent"
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "MOVE_DEST", "bulwark", legal=CORNER_3_4 | {NO})


def test_item_4_swift_boots_used_up_by_declined_move():
    """HV-ITEM-4, HV-BOX-4: the Boots' bonus attaches to B07's Move 2, asked before its Attack 2
    (MOVE_DEST offers 3-4 step cells), and
    is used up although the move is declined: the second box's Move 2 is then skipped."""
    game = _corner("bulwark", "conjurer", ["B07", "B01"])
    play(game, ("WINDOW_0", ITEM0), ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    expect(game, "MOVE_DEST", "bulwark", legal=CORNER_3_4 | {NO})
    play(game, ("MOVE_DEST", NO), ("ATTACK_TARGET", NO))  # B07: Move 2; Attack 2
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "WINDOW_2")


def test_item_4_swift_boots_skip_past_skipped_move():
    """HV-ITEM-4: a Move skipped under HV-BOX-11 step 1 (no destination even with the +2) does not
    use up the Boots; after the Bulwark kills the Marauder blocking it, the next Move gets +2:
    (4,0) 4 steps away is offered, (5,0) is not."""
    game = new(
        {
            "sequence": ["bulwark"],
            "characters": {
                "bulwark": {"cell": [0, 0], "played": ["B07", "B01"], "amd": ["+0"]},
                "conjurer": {"cell": [0, 6]},
            },
            "monsters": [mon("marauder", 1, 1, 0, hp=1), mon("marauder", 2, 0, 1)],
        }
    )
    play(game, ("WINDOW_0", ITEM0), ("WINDOW_0", BOX(LEAD, TOP, PRINTED)))
    play(game, ("ATTACK_TARGET", HEX(1, 0)))  # B07's Move 2 was skipped; Attack 2 kills #1
    assert monster(game, "marauder#1") is None
    play(game, ("WINDOW_1", BOX(OTHER, BOTTOM, DEFAULT)))
    expect(game, "MOVE_DEST", "bulwark")
    assert HEX(4, 0) in game.legal_actions() and HEX(5, 0) not in game.legal_actions()


def test_item_4_seers_lens_advantage_on_next_attack():
    """HV-ITEM-4, HV-ATK-2, HV-BOX-2/3: Seer's Lens used in WINDOW_0 waits over the move box (the
    other card's bottom, played first) and gives the next attack (the leading card's top)
    advantage: two cards drawn (-1, +1), the better used: 3 + 1 = 4 on the Marauder
    (HP 5 -> 1); both cards in the discard."""
    game = new(
        {
            "characters": {
                "conjurer": {"cell": [2, 4], "played": ["C05", "C01"], "amd": ["-1", "+1"]}
            },
            "monsters": [mon("marauder", 1, 4, 4)],
        }
    )
    play(
        game,
        ("WINDOW_0", ITEM0),
        ("WINDOW_0", BOX(OTHER, BOTTOM, DEFAULT)),
        ("MOVE_DEST", NO),
        ("WINDOW_1", BOX(LEAD, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(4, 4)),
    )
    assert hp(game, "marauder#1") == 1
    assert char(game, "conjurer").amd.discard == ["-1", "+1"]
    assert [e.data["card"] for e in events_of(game, "DRAW", deck="conjurer")] == ["-1", "+1"]
    assert char(game, "conjurer").items[0] == "spent"


def test_item_2_items_only_in_windows():
    """HV-ITEM-2, HV-ITEM-1, 16.4: with both items ready, ITEM actions are legal in the three
    windows but not in CONSUME, ATTACK_TARGET or MOVE_DEST; an item may be used in WINDOW_2 even
    with no ability left, and the other item is still offered after it."""
    game = new(
        {
            "characters": {"conjurer": {"cell": [2, 4], "played": ["C02", "C01"], "amd": ["+0"]}},
            "monsters": [mon("marauder", 1, 4, 4)],
            "elements": {"fire": "strong"},
        }
    )
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS) | ITEM_ACTIONS)
    game.apply(BOX(LEAD, TOP, PRINTED))
    expect(game, "CONSUME", legal={YES, NO})
    game.apply(NO)
    expect(game, "ATTACK_TARGET", legal={HEX(4, 4), NO})
    game.apply(NO)
    expect(
        game,
        "WINDOW_1",
        legal={BOX(OTHER, BOTTOM, PRINTED), BOX(OTHER, BOTTOM, DEFAULT)} | ITEM_ACTIONS,
    )
    game.apply(BOX(OTHER, BOTTOM, DEFAULT))
    expect(game, "MOVE_DEST")
    assert not ITEM_ACTIONS & set(game.legal_actions())
    game.apply(NO)
    expect(game, "WINDOW_2", legal={NO} | ITEM_ACTIONS)
    game.apply(ITEM0)
    assert (
        events_of(game, "ITEM_USE", item="seers_lens")
        and char(game, "conjurer").items[0] == "spent"
    )
    expect(game, "WINDOW_2", legal={NO, ITEM1})


def test_item_3_spent_and_consumed_items():
    """HV-ITEM-3, HV-DMG-2: only ready items can be used: spent Swift Boots are not offered; the
    Healing Draught heals 3 (5 -> 8) and becomes consumed, after which no item is offered."""
    game = new(
        {
            "characters": {
                "bulwark": {
                    "cell": [2, 2],
                    "hp": 5,
                    "played": ["B01", "B02"],
                    "items": {"swift_boots": "spent"},
                }
            },
            "monsters": [FAR_MARAUDER],
        }
    )
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS) | {ITEM1})
    game.apply(ITEM1)
    assert hp(game, "bulwark") == 8 and char(game, "bulwark").items == ["spent", "consumed"]
    expect(game, "WINDOW_0", legal=set(BOX_ACTIONS))


def test_item_4_seers_lens_on_every_target():
    """HV-ITEM-4: Seer's Lens gives advantage on all targets of the attack: C06 (Target 2)
    draws two cards per target: max(2-1, 2+1) = 3 on Marauder #2 (5 -> 2), max(2+0, 2+2) = 4 on
    Slinger #1 (4 -> dead)."""
    game = conjurer_c06_game(amd=("-1", "+1", "+0", "+2"))
    play(
        game,
        ("WINDOW_0", ITEM0),
        ("WINDOW_0", BOX(LEAD, TOP, PRINTED)),
        ("ATTACK_TARGET", HEX(3, 4)),
        ("ATTACK_TARGET", HEX(5, 0)),
    )
    assert hp(game, "marauder#2") == 2 and monster(game, "slinger#1") is None
    assert len(events_of(game, "DRAW", deck="conjurer")) == 4


def test_cturn_3_stunned_character():
    """HV-CTURN-3: a stunned Bulwark is asked nothing: leading then other card go to discard (B09's
    lost mark does not apply), no item is used, the stun ends with the turn."""
    game = new(
        {
            "characters": {
                "bulwark": {"cell": [2, 2], "played": ["B09", "B01"], "conditions": ["stun"]}
            },
            "monsters": [mon("marauder", 1, 3, 2), FAR_MARAUDER | {"standee": 2}],
        }
    )
    assert [e.data["card"] for e in events_of(game, "CARD_TO", figure="bulwark")] == ["B09", "B01"]
    assert (
        cards_in_order(game, "bulwark", "discard") == ["B09", "B01"]
        and cards_in_order(game, "bulwark", "lost") == []
    )
    assert (
        char(game, "bulwark").items == ["ready", "ready"] and conditions(game, "bulwark") == set()
    )
    assert events_of(game, "ATTACK") == [] and hp(game, "marauder#1") == 5
