"""The one path-aware validator (reborn_env.core.fields) and its two bindings: positions
(PositionError, a field name) and scenario files (ScenarioError, a DataNode).

Both bindings run the same checks, so the same bad value is refused by both, each error naming
the path and what is allowed in its own data's words; the wording tests and docs quote stays.
"""

from __future__ import annotations

import pytest

from reborn_env.core import fields, positions
from reborn_env.core.data_files import DataNode, ScenarioError
from reborn_env.core.errors import PositionError


def node(value: object, path: str = "turns") -> DataNode:
    return DataNode("scn.toml", path, value)


@pytest.mark.parametrize("value", [True, 2.5, "3", None, [3], 0, 11])
def test_one_integer_check_refuses_the_same_values_in_both_kinds_of_data(value):
    """A bool is not an integer, nor is a float or a string; bounds are inclusive."""
    with pytest.raises(PositionError, match=r"position field 'turns': .*1\.\.10"):
        positions.int_range("turns", value, 1, 10)
    with pytest.raises(ScenarioError, match=r"^scn\.toml: turns: .*1\.\.10"):
        node(value).integer(1, 10)
    assert positions.int_range("turns", 10, 1, 10) == node(10).integer(1, 10) == 10


def test_an_integer_with_one_bound_names_it():
    with pytest.raises(ScenarioError, match="turns: must be an integer >= 1, got 0"):
        node(0).integer(1)
    with pytest.raises(ScenarioError, match="turns: must be an integer <= 4, got 5"):
        node(5).integer(maximum=4)
    with pytest.raises(ScenarioError, match="turns: must be an integer, got 'x'"):
        node("x").integer()


def test_each_kind_of_data_words_its_containers_and_choices():
    """JSON positions say object, list, "not one of"; TOML files say table, array, "allowed"."""
    with pytest.raises(PositionError, match="'state': must be an object, got 3"):
        positions.obj("state", 3, ("round",))
    with pytest.raises(ScenarioError, match="map: must be a table, got 3"):
        node(3, "map").table(("rows",))
    with pytest.raises(PositionError, match="'coins': must be a list, got 'x'"):
        positions.items("coins", "x", 4)
    with pytest.raises(ScenarioError, match="start: must be an array, got 'x'"):
        node("x", "start").xy()
    with pytest.raises(PositionError, match="'rank': 'boss' is not one of normal, elite"):
        positions.choice("rank", "boss", ("normal", "elite"))
    with pytest.raises(ScenarioError, match="rank: 'boss' is not allowed; allowed: normal, elite"):
        node("boss", "rank").text(("normal", "elite"))


def test_unknown_and_missing_keys_name_the_key_and_what_is_allowed():
    with pytest.raises(PositionError, match=r"'state': unknown key\(s\) 'colour'; allowed: round"):
        positions.obj("state", {"round": 1, "colour": 2}, ("round",))
    with pytest.raises(PositionError, match="position field 'state.round' is missing"):
        positions.obj("state", {}, ("round",))
    with pytest.raises(ScenarioError, match="map.colour: unknown key; allowed here: rows, name"):
        node({"rows": 1, "colour": 2}, "map").table(("rows",), optional=("name",))
    with pytest.raises(ScenarioError, match="map.rows: missing; this key is required"):
        node({}, "map").table(("rows",))
    assert set(node({"rows": 1}, "map").table(("rows",), ("name",))) == {"rows"}


def test_paths_are_dotted_and_indexed():
    first = node({"cells": [[1, 2]]}, "map").child("cells").items()[0]
    assert first.path == "map.cells[0]"
    assert first.xy() == (1, 2)
    assert fields.child("", "turns") == "turns" and fields.item("coins", 3) == "coins[3]"


def test_show_never_raises_and_stays_short():
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError

    huge = 10**5000  # repr refuses to print it
    assert fields.show(huge) == f"an integer of {huge.bit_length()} bits"
    assert "Broken" in fields.show(Broken())
    assert len(fields.show(list(range(10**4)))) < 60
