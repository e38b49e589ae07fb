"""Tests of the text and RGB renders (render.py): they show the public table and nothing hidden."""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env.games.earth_reborn.positions import state_from_dict, state_to_dict
from reborn_env.games.earth_reborn.render import (
    ARROWS,
    CELL,
    FACTION_COLOURS,
    PAD,
    render_ansi,
    render_rgb,
)
from reborn_env.games.earth_reborn.rules.engine import new_game
from reborn_env.games.earth_reborn.rules.state import DESTROYED, OPENED, GameState
from tests.earth_reborn.helpers import door, load, move_tiles, place, position, tiles

# Vault Raid doors by id (ER-SCN-2): edge and the letter shown while closed.
DOORS = {0: ("4,1|4,2", "M"), 1: ("1,2|2,2", "W"), 2: ("6,2|7,2", "W"), 3: ("6,3|7,3", "S")}
DOORS[4] = ("4,4|4,5", "K")


def square_text(text: str, x: int, y: int) -> str:
    """The 3 characters of square (x, y) on the ansi board."""
    return text.splitlines()[2 + 2 * y][4 + 4 * x : 7 + 4 * x]


def door_text(state: GameState, text: str, door_id: int) -> str:
    """The mark of a door on the ansi board, blanks stripped."""
    board = state.scenario.board
    d = board.doors[door_id]
    x, y = board.xy(d.a)
    lines = text.splitlines()
    if d.b == d.a + 1:
        return lines[2 + 2 * y][7 + 4 * x]
    return lines[3 + 2 * y][4 + 4 * x : 7 + 4 * x].strip()


def disc_pixel(img: np.ndarray, state: GameState, c: int) -> np.ndarray:
    """A pixel inside character ``c``'s disc, off its letter and facing tick."""
    x, y = state.scenario.board.xy(state.chars[c].square)
    return img[PAD + y * CELL + CELL // 2 + 7, PAD + x * CELL + CELL // 2 - 7]


# --- ansi ---------------------------------------------------------------------------------------


def test_new_game_board_shows_figures_doors_terminals_and_cache():
    state = new_game(seed=0)
    text = render_ansi(state)
    for spec in state.scenario.characters:
        x, y = state.scenario.board.xy(spec.start)
        assert square_text(text, x, y) == spec.id[0].upper() + ARROWS[spec.facing] + " "
    assert square_text(text, 0, 2) == "B> "
    assert square_text(text, 8, 3) == "J< "
    for door_id, (_, letter) in DOORS.items():
        assert door_text(state, text, door_id) == letter
    assert square_text(text, 4, 0) == "O1 "
    assert square_text(text, 4, 6) == "O2 "
    assert square_text(text, 7, 6) == " C "
    assert square_text(text, 2, 0) == "XXX"
    assert square_text(text, 1, 1) == " . "
    assert len(text.splitlines()) <= 40


def test_state_changes_show_on_the_board():
    state = new_game(seed=0)
    state.doors[0] = OPENED
    state.doors[3] = DESTROYED
    bolter, zombie = state.chars[0], state.chars[4]
    bolter.wounded = True
    zombie.dead = True
    state.hacked[0] = True
    state.cache_full[0] = False
    text = render_ansi(state)
    assert door_text(state, text, 0) == "m"
    assert door_text(state, text, 3) == "~"
    assert square_text(text, 0, 2) == "B>'"
    assert square_text(text, 8, 5) == "z+ "
    assert square_text(text, 4, 0) == "1* "
    assert square_text(text, 7, 6) == " c "
    assert "zombie   salemite (8,5) W dead" in text


def test_position_round_trip_renders_moves_doors_and_wounds():
    pos = position()
    place(pos, "bolter", (3, 2), "N", side="wounded", engaged=True)
    place(pos, "zombie", dead=True)
    door(pos, "1,2|2,2", "open")
    door(pos, "6,3|7,3", "destroyed")
    state = state_from_dict(state_to_dict(load(pos)))
    text = render_ansi(state)
    assert square_text(text, 0, 2) == " . "
    assert square_text(text, 3, 2) == "B^'"
    assert square_text(text, 8, 5) == "z+ "
    assert door_text(state, text, 1) == "w"
    assert door_text(state, text, 3) == "~"
    assert "bolter   norad    (3,2) N wounded 0/2LP engaged" in text


def test_ansi_lists_assigned_tiles_but_never_held_ones():
    pos = position()
    move_tiles(pos, tiles(1, 5), "hand:norad")
    move_tiles(pos, tiles(6, 9), "hand:salemite")
    move_tiles(pos, ["T10"], "bag")
    move_tiles(pos, ["T11"], "discard")
    move_tiles(pos, ["T12"], "char:bolter")
    pos["characters"]["bolter"]["tiles"][0]["cp"] = [1, 2, 0, 0]
    place(pos, "bolter", engaged=True, cp_spent=3)  # tiles and CP go to an activated character
    state = load(pos)
    text = render_ansi(state)
    for tile in tiles(1, 11):
        assert tile not in text
    assert "T12[M2k:1 M2g:2 C1r:0 I1k:0]" in text
    assert "norad     CP  0  MP  0  hand 5" in text
    assert "salemite  CP  0  MP  0  hand 4" in text
    assert "bag 1  discard 1" in text


def test_held_tiles_do_not_change_the_text():
    """Two states differing only in which tiles the hands and the bag hold render alike."""
    first = position()
    move_tiles(first, tiles(1, 3), "hand:norad")
    move_tiles(first, tiles(4, 6), "bag")
    second = position()
    move_tiles(second, tiles(4, 6), "hand:norad")
    move_tiles(second, tiles(1, 3), "bag")
    assert render_ansi(load(first)) == render_ansi(load(second))


def test_result_and_last_roll_are_shown():
    state = new_game(seed=0)
    assert "last roll" not in render_ansi(state)
    state.last_roll = ["Y1", "Y5", "B3"]
    state.winner = 1
    state.mp = [2, 5]
    text = render_ansi(state)
    assert "last roll: Y1 Y5 B3" in text
    assert "result: salemite wins (MP 2-5)" in text


# --- rgb ----------------------------------------------------------------------------------------


def test_rgb_shape_and_dtype():
    state = new_game(seed=0)
    img = render_rgb(state)
    board = state.scenario.board
    assert img.dtype == np.uint8
    assert img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] > 2 * PAD + board.height * CELL
    assert img.shape[1] >= 2 * PAD + board.width * CELL


def test_rgb_changes_when_a_figure_moves_and_keeps_its_background():
    state = new_game(seed=0)
    before = render_rgb(state)
    moved = state.clone()
    moved.chars[0].square = state.scenario.board.square(1, 2)
    after = render_rgb(moved)
    assert not np.array_equal(before, after)
    assert np.array_equal(render_rgb(state), before)  # the cached background was not drawn on


@pytest.mark.parametrize("c", range(5))
def test_rgb_disc_has_faction_colour(c):
    state = new_game(seed=0)
    img = render_rgb(state)
    assert tuple(disc_pixel(img, state, c)) == FACTION_COLOURS[state.faction_of[c]]


def test_rgb_shows_doors_wounds_and_death():
    state = new_game(seed=0)
    before = render_rgb(state)
    for change in (
        lambda s: s.doors.__setitem__(0, OPENED),
        lambda s: setattr(s.chars[0], "wounded", True),
        lambda s: setattr(s.chars[0], "engaged", True),
        lambda s: setattr(s.chars[4], "dead", True),
        lambda s: s.hacked.__setitem__(0, True),
        lambda s: setattr(s, "char", 1),
    ):
        changed = state.clone()
        change(changed)
        assert not np.array_equal(render_rgb(changed), before)
