"""The core action codec (reborn_env.core.codec): a table of (kind, argument labels) in codec
order gives every integer, name and parse of a game's flat action space (ER-ENV-2, 16.3)."""

from __future__ import annotations

import pytest

from reborn_env.core.codec import NO_ARGUMENT, build_codec

TABLE = (("PASS", NO_ARGUMENT), ("STEP", ("N", "E")), ("AIM", ("0", "1", "2")))


def test_each_kind_owns_a_contiguous_range_in_table_order():
    codec = build_codec(TABLE, examples=("PASS", "STEP(N)"))
    assert codec.base == {"PASS": 0, "STEP": 1, "AIM": 3}
    assert codec.size == 6
    assert codec.names == ("PASS", "STEP(N)", "STEP(E)", "AIM(0)", "AIM(1)", "AIM(2)")
    for action in range(codec.size):
        kind, arg = codec.decode(action)
        assert codec.encode(kind, arg) == action
        assert codec.parse(codec.name(action)) == action
    assert codec.parse(" STEP( E ) ") == 2


def test_display_respells_a_kind_and_a_shared_name_is_refused():
    codec = build_codec(
        (("AT_DIR", ("N",)), ("AT_CHAR", ("bolter",))), (), {"AT_DIR": "AT", "AT_CHAR": "AT"}
    )
    assert codec.names == ("AT(N)", "AT(bolter)")
    with pytest.raises(ValueError, match="share a name"):
        build_codec((("A", ("x",)), ("B", ("x",))), (), {"A": "K", "B": "K"})
    with pytest.raises(ValueError, match="share a name"):
        build_codec((("A", ("x", "x")),), ())


def test_an_unknown_name_shows_the_accepted_forms():
    codec = build_codec(TABLE, examples=("PASS", "STEP(N)"))
    with pytest.raises(
        ValueError, match=r"unknown action 'JUMP'; actions look like 'PASS', 'STEP\(N\)'"
    ):
        codec.parse("JUMP")
