"""Named views over observation vectors (reborn_env.core.observation_views) and both games' layouts.

The core part checks the mechanism on a small layout: offsets, shapes, zero-copy read-only views,
decoding helpers and clear errors. The game parts check that each layout names every block of
the environment card's table with the card's width, and that a block read by name holds what the
observer wrote for a position set up through ``env.unwrapped.set_state`` (ER-HID-1..11, 16.5).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from reborn_env import earth_reborn_v0, haven_v0
from reborn_env.core.observation_views import Field, Layout, embedding, group
from reborn_env.games.earth_reborn import observation as er_observation
from reborn_env.games.earth_reborn.bots import ObservationReader
from reborn_env.games.haven import observation as hv_observation
from reborn_env.games.haven.scenario.model import ELEMENTS

# --- The mechanism -------------------------------------------------------------------------------


def toy_layout() -> Layout:
    """A phase one-hot, a scaled pair, a 2 x 3 grid and two records with a nested group."""
    unit = [
        Field("hp", doc="hit points", scale=10.0),
        Field("cards", (4,), "cards held", ("a", "b", "c", "d")),
        group("slots", [Field("kind", (2,), labels=("x", "y")), Field("cp", scale=4)], 3),
    ]
    return Layout(
        [
            Field("phase", (3,), "the phase", ("one", "two", "three")),
            group("cp", [Field("mine", scale=40), Field("theirs", scale=40)], doc="CP pools"),
            Field("grid", (2, 3), "a small board"),
            group("units", unit, 2, "one record per unit", ("left", "right")),
        ]
    )


def padded_toy(grid: tuple[int, int] = (3, 4), units: int = 3, slots: int = 4) -> Layout:
    """The toy layout with its grid, its records and their nested records padded."""
    unit = [
        Field("hp", scale=10.0),
        Field("cards", (4,)),
        group("slots", [Field("kind", (2,)), Field("cp", scale=4)], slots),
    ]
    return Layout(
        [
            Field("phase", (3,)),
            group("cp", [Field("mine"), Field("theirs")]),
            Field("grid", grid),
            group("units", unit, units),
            Field("extra", (5,)),
        ]
    )


def test_embedding_puts_every_entry_where_its_name_and_index_are() -> None:
    small, big = toy_layout(), padded_toy()
    index = embedding(small, big)
    assert len(set(index.tolist())) == small.size
    vector = np.arange(1, small.size + 1, dtype=np.float32)
    padded = np.zeros(big.size, np.float32)
    padded[index] = vector
    was, now = small.view(vector), big.view(padded)
    np.testing.assert_array_equal(now["grid"][:2, :3], was["grid"])
    assert now["grid"][2].sum() == 0 and now["grid"][:, 3].sum() == 0
    assert now["units"][1]["slots"][2]["cp"] == was["units"][1]["slots"][2]["cp"]
    assert now["units"][2]["hp"] == 0 and now["units"][0]["slots"][3]["cp"] == 0
    assert now["extra"].sum() == 0


@pytest.mark.parametrize(
    ("big", "error"),
    [
        (padded_toy(grid=(2, 2)), r"block 'grid': shape \(2, 3\) does not fit in \(2, 2\)"),
        (padded_toy(units=1), r"block 'units': shape \(2,\) does not fit in \(1,\)"),
        (Layout([Field("phase", (3,))]), "block 'cp' has no place in the larger layout"),
    ],
)
def test_embedding_refuses_a_layout_too_small_by_block(big: Layout, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        embedding(toy_layout(), big)


def toy_vector() -> np.ndarray:
    return np.arange(toy_layout().size, dtype=np.float32) / 100


def test_fields_are_placed_one_after_the_other():
    layout = toy_layout()
    assert layout.names == ("phase", "cp", "grid", "units")
    assert [(f.offset, f.width) for f in layout] == [(0, 3), (3, 2), (5, 6), (11, 2 * 14)]
    assert layout.size == 39
    unit = layout["units"]
    assert unit.item.size == 1 + 4 + 3 * 3 and unit.count == 2
    assert [(f.name, f.offset) for f in unit.item] == [("hp", 0), ("cards", 1), ("slots", 5)]
    assert unit["slots"]["cp"].offset == 2 and unit["slots"].item.size == 3


def test_entry_names_name_every_float_in_order():
    names = toy_layout().entry_names()
    assert len(names) == toy_layout().size
    assert names[:6] == (
        "phase:one",
        "phase:two",
        "phase:three",
        "cp.mine",
        "cp.theirs",
        "grid[0][0]",
    )
    assert names[11:17] == (
        "units:left.hp",
        "units:left.cards:a",
        "units:left.cards:b",
        "units:left.cards:c",
        "units:left.cards:d",
        "units:left.slots[0].kind:x",
    )
    assert names[-1] == "units:right.slots[2].cp"


def test_blocks_are_numpy_views_of_the_vector_not_copies():
    vector = toy_vector()
    view = toy_layout().view(vector)
    assert view["phase"].shape == (3,) and view["grid"].shape == (2, 3)
    assert view["cp"]["mine"].shape == ()
    assert float(view["cp"]["theirs"]) == pytest.approx(vector[4])
    assert view["grid"][1, 2] == vector[5 + 5]
    right = view["units"][1]
    assert float(right["hp"]) == pytest.approx(vector[11 + 14])
    assert right["slots"][2]["cp"] == vector[11 + 14 + 5 + 2 * 3 + 2]
    for block in (view["phase"], view["grid"], right["cards"], right["slots"].column("kind")):
        assert np.shares_memory(block, vector)
    vector[0] = 0.75  # a view follows the vector it was made from
    assert view["phase"][0] == 0.75


def test_columns_read_one_field_of_every_record():
    vector = toy_vector()
    units = toy_layout().view(vector)["units"]
    assert len(units) == 2
    assert units.column("hp").tolist() == pytest.approx([vector[11], vector[25]])
    assert units.column("cards").shape == (2, 4)
    assert units.column("cards")[1].tolist() == pytest.approx(vector[26:30].tolist())
    assert [float(u["hp"]) for u in units] == pytest.approx([vector[11], vector[25]])
    with pytest.raises(ValueError, match="units.slots is a group"):
        units.column("slots")


def test_views_are_read_only_and_leave_the_vector_writable():
    vector = toy_vector()
    view = toy_layout().view(vector)
    with pytest.raises(ValueError, match="read-only"):
        view["phase"][0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        view["units"][0]["cards"][:] = 0.0
    with pytest.raises(ValueError, match="read-only"):
        view["units"].column("hp")[0] = 0.0
    vector[1] = 0.5
    assert view["phase"][1] == 0.5


def test_decoding_helpers_give_flags_amounts_and_labels():
    vector = np.zeros(toy_layout().size, dtype=np.float32)
    vector[1] = 1.0  # phase two
    vector[3] = 7 / 40  # cp.mine
    vector[11] = 0.3  # units[0].hp
    vector[[12, 14]] = 1.0  # units[0] cards a and c
    view = toy_layout().view(vector)
    assert view.label("phase") == "two" and view.index("phase") == 1
    assert view["cp"].amount("mine") == 7 and view["cp"].amount("theirs") == 0
    left, right = view["units"]
    assert left.value("hp") == pytest.approx(0.3) and isinstance(left.value("hp"), float)
    assert left.amount("hp") == 3 and left.flag("hp") is False
    assert left.indices("cards") == (0, 2) and left.members("cards") == ("a", "c")
    assert right.label("cards") is None and right.index("cards") == -1
    with pytest.raises(ValueError, match="no scale"):
        view.amount("grid")
    with pytest.raises(ValueError, match="not one float"):
        left.flag("cards")
    with pytest.raises(ValueError, match=r"'grid' has shape \(2, 3\), not one float"):
        view.value("grid")
    with pytest.raises(ValueError, match="no labels"):
        view.label("grid")


def test_an_unknown_name_raises_a_key_error_listing_the_names():
    layout = toy_layout()
    view = layout.view(toy_vector())
    with pytest.raises(KeyError, match="'hnad'.*phase, cp, grid, units"):
        view["hnad"]
    with pytest.raises(KeyError, match="'wounds'.*hp, cards, slots"):
        view["units"][0]["wounds"]
    with pytest.raises(KeyError, match="'x'.*mine, theirs"):
        layout["cp"]["x"]
    with pytest.raises(TypeError, match="'grid' is an array"):
        layout["grid"]["x"]
    assert "grid" in view and "hnad" not in view and list(view) == list(layout.names)


def test_a_vector_of_another_size_is_refused():
    layout = toy_layout()
    with pytest.raises(ValueError, match=r"shape \(38,\).*\(39,\)"):
        layout.view(np.zeros(38, dtype=np.float32))
    with pytest.raises(ValueError, match=r"shape \(1, 39\)"):
        layout.view(np.zeros((1, 39), dtype=np.float32))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ([Field("a"), Field("a", (2,))], "names repeat in a layout: a"),
        ([Field("a", (3,), labels=("x", "y"))], "2 labels for shape"),
        ([Field("a", (2,), labels=("x", "x"))], "labels repeat"),
        ([Field("a", (-1,))], "must be ints >= 0"),
        ([Field("a", scale=0.0)], "scale 0.0 must be positive"),
        ([Field("", (2,))], "non-empty name"),
        ([Field("a", (2, 2), item=Layout([Field("b")]))], r"must be \(\) or \(n,\)"),
    ],
)
def test_a_malformed_layout_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        Layout(fields)


# --- The environment cards name the blocks as the layouts do --------------------------------------


def card_blocks(card: str) -> list[tuple[str, int]]:
    """(name, width) of each row of an environment card's observation table."""
    rows = re.findall(r"^\| `(\w+)` \| ([\d x]+) \|", card, flags=re.MULTILINE)
    return [(name, math.prod(int(n) for n in width.split(" x "))) for name, width in rows]


@pytest.mark.parametrize(
    ("module", "observation"),
    [(earth_reborn_v0, er_observation), (haven_v0, hv_observation)],
    ids=["earth_reborn_v0", "haven_v0"],
)
def test_the_card_lists_every_block_with_its_width(module, observation):
    """The card's table is the layout of the default scenario, block by block, in order."""
    env = module.env()
    layout = observation.layout_for(env.unwrapped.scenario)
    assert card_blocks(module.__doc__) == [(f.name, f.width) for f in layout]
    offsets = np.cumsum([0] + [f.width for f in layout])
    assert [f.offset for f in layout] == offsets[:-1].tolist()
    assert (
        offsets[-1]
        == layout.size
        == env.observation_space(env.possible_agents[0])["observation"].shape[0]
    )
    assert f"Box(0, 1, ({layout.size},), float32)" in module.__doc__


def card_paragraph_names(card: str, opening: str) -> list[str]:
    """The backticked names of the card's paragraph that opens with ``opening``, in order."""
    start = card.index(opening)
    paragraph = card[start : card.index("\n\n", start)]
    return re.findall(r"`(\w+)`", paragraph)


def record_names(layout: Layout, block: str, expand: tuple[str, ...] = ()) -> list[str]:
    """A group's field names in order; a nested group named in ``expand`` is followed by its
    own fields."""
    names = []
    for f in layout[block].item:
        names.append(f.name)
        if f.name in expand:
            names += [g.name for g in f.item]
    return names


@pytest.mark.parametrize(
    ("module", "observation", "opening", "block", "expand"),
    [
        (earth_reborn_v0, er_observation, "A character's record:", "characters", ("sections",)),
        (haven_v0, hv_observation, "A cell's record:", "board", ()),
        (haven_v0, hv_observation, "The prompt:", "prompt", ()),
        (haven_v0, hv_observation, "A character block:", "me", ()),
    ],
)
def test_the_card_names_every_field_of_a_record_in_order(
    module, observation, opening, block, expand
):
    """The card's prose on a record names its fields as the layout does, in the layout's order."""
    layout = observation.layout_for(module.env().unwrapped.scenario)
    expected = record_names(layout, block, expand)
    named = card_paragraph_names(module.__doc__, opening)
    assert named[: len(expected)] == expected


# --- Earth Reborn --------------------------------------------------------------------------------


def er_position_env():
    """Vault Raid in turn 1's Activity phase, set up through ``set_state`` with chosen public
    facts: pools, a wounded Bolter, a wounded Zombie carrying the card, Vasquez engaged with a
    tile assigned, a terminal hacked, a door open and the last roll."""
    env = earth_reborn_v0.env()
    env.reset(seed=1)
    while env.unwrapped.get_state()["phase"] != "activity":
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    pos = env.unwrapped.get_state()
    pos["players"]["norad"].update(cp=6, mp=3)
    pos["players"]["salemite"].update(cp=5)
    pos["characters"]["bolter"].update(side="wounded", wounds=1, cards=0)
    pos["characters"]["zombie"].update(wounds=2, square=[5, 5], facing="N", cards=1)
    pos["players"]["norad"]["hand"].remove("T05")
    vasquez = {"tiles": [{"tile": "T05", "cp": [0, 1, 0, 0]}], "cp_spent": 1, "engaged": True}
    vasquez["tried_terminals"] = ["O2"]  # ER-INT-2/-3: the hack of O2 below left its try
    pos["characters"]["vasquez"].update(vasquez)
    pos["terminals"]["O2"] = True
    pos["doors"]["1,2|2,2"]["state"] = "open"
    pos["last_roll"] = ["Y3", "Y3", "Y6"]
    env.unwrapped.set_state(pos)
    return env


def test_er_blocks_read_by_name_hold_what_the_observer_wrote():
    """ER-HID-4, -5, -11: pools, wounded characters, doors, terminals and the last roll, read
    by name in NORAD's observation of a position set up by ``set_state``."""
    env = er_position_env()
    scn = env.unwrapped.scenario
    view = er_observation.layout_for(scn).view(env.observe("norad")["observation"])
    assert view.label("faction") == "norad" and view.label("phase") == "activity"
    assert view.label("decision") == "round" and view["flags"].flag("i_decide")
    assert view["cp"].amount("mine") == 6 and view["cp"].amount("opponent") == 5
    assert view["mp"].amount("mine") == 3 and view["mp"].amount("opponent") == 0
    assert view["hacked"].tolist() == [0.0, 1.0]
    between = {scn.board.square(1, 2), scn.board.square(2, 2)}
    opened = next(i for i, d in enumerate(scn.board.doors) if {d.a, d.b} == between)
    assert view["doors"][opened].tolist() == [0.0, 1.0, 0.0]
    roll = dict(zip(view.layout["last_roll"].labels, view["last_roll"].tolist(), strict=True))
    assert roll["Y3"] == pytest.approx(2 / 6) and roll["Y6"] == pytest.approx(1 / 6)
    assert sum(roll.values()) == pytest.approx(3 / 6)
    chars = view["characters"]
    z = [c.id for c in scn.characters].index("zombie")
    zombie = chars[z]
    assert float(zombie["wounds"]) == pytest.approx(2 / scn.characters[z].healthy.lp)
    assert not zombie.flag("mine") and zombie.flag("alive") and not zombie.flag("wounded")
    assert (int(np.argmax(zombie["x"])), int(np.argmax(zombie["y"]))) == (5, 5)
    assert zombie.label("facing") == "N" and zombie["cards"] == 0.5
    bolter = chars[0]
    assert bolter.flag("wounded") and bolter.flag("mine") and bolter["cards"] == 0.0
    assert float(bolter["wounds"]) == pytest.approx(1 / scn.characters[0].wounded.lp)
    assert chars.column("alive").tolist() == [1.0] * len(scn.characters)
    assert chars.column("engaged").tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]


def test_er_sections_read_by_name_show_the_assigned_tile():
    """ER-TILE-5: an assigned tile's sections with the CP on them, seen by the opponent."""
    env = er_position_env()
    scn = env.unwrapped.scenario
    view = er_observation.layout_for(scn).view(env.observe("salemite")["observation"])
    vasquez = view["characters"][1]
    assert float(vasquez["cp_spent"]) == pytest.approx(1 / scn.characters[1].healthy.maxcp)
    sections = vasquez["sections"]
    assert sections.column("present").tolist() == [1.0] * 4 + [0.0] * 12
    tile = scn.tiles[[t.id for t in scn.tiles].index("T05")]
    for k, printed in enumerate(tile.sections):
        assert sections[k].label("type") == printed.type
        assert sections[k].amount("max") == printed.max
    assert [sections[k].amount("cp") for k in range(4)] == [0, 1, 0, 0]
    assert sections[4].label("type") is None


def test_er_bot_reader_decodes_the_same_position():
    """The heuristic's reader, which reads through the layout, sees the position as set up."""
    env = er_position_env()
    scn = env.unwrapped.scenario
    table = ObservationReader(scn).read(env.observe("norad")["observation"])
    z = [c.id for c in scn.characters].index("zombie")
    zombie = table.figures[z]
    assert zombie.life == scn.characters[z].healthy.lp - 2 + scn.characters[z].wounded.lp
    assert zombie.square == scn.board.square(5, 5) and zombie.has_card and not zombie.mine
    assert table.figures[0].life == scn.characters[0].wounded.lp - 1
    assert (table.cp, table.hacked, table.decision) == (6, (False, True), "round")
    printed = scn.tiles[[t.id for t in scn.tiles].index("T05")].sections
    seen = table.figures[1].sections
    assert [(s.section, s.type, s.max, s.cp) for s in seen] == [
        (k, s.type, s.max, cp) for k, (s, cp) in enumerate(zip(printed, [0, 1, 0, 0], strict=True))
    ]


def test_er_listing_for_older_callers_matches_the_named_blocks():
    """``observation_layout`` (description, width) cuts the vector where the named blocks are."""
    env = er_position_env()
    scn = env.unwrapped.scenario
    obs = env.observe("norad")["observation"]
    view = er_observation.layout_for(scn).view(obs)
    cut, start = {}, 0
    for description, width in er_observation.observation_layout(scn):
        cut[description] = obs[start : start + width]
        start += width
    assert start == obs.size
    assert np.array_equal(cut["my hand (tile multi-hot)"], view["hand"])
    assert np.array_equal(cut["cp: mine, opponent's"], view["cp"].array)
    for c, spec in enumerate(scn.characters):
        assert np.array_equal(cut[f"character {spec.id}"], view["characters"][c].array)


# --- haven ---------------------------------------------------------------------------------------


def test_haven_blocks_read_by_name_hold_what_the_observer_wrote():
    """16.5: HP, gold, conditions, items, elements and a monster's row, read by name in both
    agents' observations of a position set up through ``set_state``."""
    env = haven_v0.env()
    env.reset(seed=0)
    pos = env.unwrapped.get_state()
    state = pos["state"]
    bulwark = state["characters"][0]
    bulwark.update(hp=6, gold=4, conditions=["wound"])
    bulwark["items"]["healing_draught"] = "spent"
    state["monsters"][0].update(hp=3, conditions=["poison"])  # the marauder on (7, 2)
    state["elements"]["ice"] = "waning"
    env.unwrapped.set_state(pos)
    scn = env.unwrapped.scenario
    layout = hv_observation.layout_for(scn)
    mine = layout.view(env.observe("bulwark")["observation"])
    assert mine.label("agent") == "bulwark" and mine["prompt"].label("kind") == "SELECT_LEAD"
    me = mine["me"]
    assert (me.amount("hp"), me.amount("max_hp"), me.amount("gold")) == (6, 10, 4)
    assert me.members("conditions") == ("wound",) and me.indices("hand") == tuple(range(9))
    items = [layout["me"]["items"].labels[int(np.argmax(s))] for s in me["items"]]
    ids = [item.id for item in scn.characters[0].items]
    assert items[ids.index("healing_draught")] == "spent"
    assert items[ids.index("swift_boots")] == "ready"
    states = layout["elements"].labels
    ice = ELEMENTS.index("ice")
    assert [states[int(np.argmax(e))] for e in mine["elements"]][ice] == "waning"
    board = mine["board"]
    me_cell, monster_cell = 9 * 2 + 1, 9 * 2 + 7
    assert board[me_cell].label("figure") == "bulwark" and board[me_cell].amount("hp") == 6
    assert board[me_cell].members("conditions") == ("wound",)
    assert board[monster_cell].label("figure") == "marauder"
    assert board[monster_cell].amount("hp") == 3 and board[monster_cell].amount("max_hp") == 5
    assert board[monster_cell].members("conditions") == ("poison",)
    other = layout.view(env.observe("conjurer")["observation"])["other"]
    assert other.amount("hp") == 6 and other.amount("gold") == 4  # public (HV-STATE-1)
    assert other.indices("hand") == () and other.amount("hand_size") == 9  # its size only
