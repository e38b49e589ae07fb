"""Maps larger than 9 x 7 (HV-MAP-1): the grid the picture draws, and everything that follows it.

Frost Keep (section 27) is the bundled 11 x 9 map. Its cell ids, action space (16.3), teleport
ranges (HV-TEL-2 over HV-MAP-2's distance), renders and board view are checked here against
values worked out from ``(col, row)`` alone, so a rule that still assumed nine columns would
fail. Play on both kernels, positions and the observation on a larger map are checked by the
tests run on every bundled scenario (``BUNDLED``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reborn_env.games.haven.actions import action_space
from reborn_env.games.haven.board_view import board_view
from reborn_env.games.haven.render import centre, image_size, map_lines, render_rgb
from reborn_env.games.haven.rules.area import placements
from reborn_env.games.haven.rules.engine import new_game
from reborn_env.games.haven.rules.figures import board_for
from reborn_env.games.haven.scenario.loader import ScenarioError, load_scenario
from reborn_env.games.haven.scenario.model import FLOOR, Grid

from .helpers import (
    ACTIONS,
    BOTTOM,
    KERNEL_NAMES,
    KERNELS,
    LEAD,
    PRINTED,
    STANDARD,
    default_text,
    destinations,
    load_text,
    play,
    with_map,
)

FROST = load_scenario("frost_keep")


def axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """HV-MAP-2's hex distance from ``(col, row)`` pairs, no cell ids involved."""
    (ca, ra), (cb, rb) = a, b
    dq, dr = (cb - (rb - rb % 2) // 2) - (ca - (ra - ra % 2) // 2), rb - ra
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# --- HV-MAP-1: the grid ---------------------------------------------------------------------------


def test_hv_map_1_the_grid_is_the_one_the_picture_draws():
    """HV-MAP-1: Frost Keep's picture has 9 rows of 11 cells; ids run ``11 * row + col``."""
    grid = FROST.map.grid
    assert (grid.width, grid.height, grid.cells) == (11, 9, 99)
    assert len(FROST.map.cells) == 99
    assert grid.id(10, 8) == 98 and grid.xy(98) == (10, 8) and grid.xy(11) == (0, 1)
    assert all(grid.id(*grid.xy(c)) == c for c in range(grid.cells))
    assert FROST.map.starts == (grid.id(1, 3), grid.id(1, 5))
    assert FROST.map.cells[grid.id(8, 3)] == "wall" and FROST.map.cells[grid.id(10, 4)] == FLOOR


def test_hv_map_1_a_ragged_picture_is_refused(tmp_path):
    """HV-MAP-1: every row of the picture has as many cells as the first."""
    rows = default_text().split("map = '''")[1].split("'''")[0].splitlines()
    rows[3] = rows[3].rsplit(maxsplit=1)[0]  # row 2 one cell short
    with pytest.raises(ScenarioError, match=r"row 2 has 8 cells but row 0 has 9.*HV-MAP-1"):
        load_text(tmp_path, "ragged", with_map(default_text(), "\n".join(rows)))


def test_hv_map_1_a_grid_over_24_columns_is_refused(tmp_path):
    """HV-MAP-1: at most 24 x 24 cells."""
    rows = default_text().split("map = '''")[1].split("'''")[0].splitlines()
    wide = [row + "   ." * 16 if row.strip() else row for row in rows]
    with pytest.raises(ScenarioError, match=r"grid of 25 x 7 cells; a map has 1 to 24 columns"):
        load_text(tmp_path, "wide", with_map(default_text(), "\n".join(wide)))


def test_hv_map_1_a_cell_is_checked_against_the_maps_own_grid(tmp_path):
    """HV-MAP-1: (10,0) is on Frost Keep's grid; (11,0) is off it, and the error gives its
    bounds."""
    moved = (
        Path(FROST.source)
        .read_text()
        .replace("standee = 1\ncell = [10, 4]", "standee = 1\ncell = [11, 4]")
    )
    with pytest.raises(ScenarioError, match=r"\(11,4\) is off the grid; 0 <= col <= 10 and "):
        load_text(tmp_path, "off", moved)


# --- 16.3: the action space -----------------------------------------------------------------------


def test_16_3_the_action_space_has_a_hex_per_cell_then_the_other_kinds():
    """16.3: 99 HEX actions on 11 x 9, then CARD, BOX, LONG_REST, ITEM, YES, NO and
    LOSE_TWO_DISCARDS, each shifted by the 36 extra cells; the 9 x 7 space is unchanged."""
    space = action_space(FROST.map.grid)
    assert space.N_ACTIONS == 123
    assert (space.CARD_BASE, space.BOX_BASE, space.LONG_REST) == (99, 109, 117)
    assert (space.YES, space.NO, space.LOSE_TWO_DISCARDS) == (120, 121, 122)
    assert space.name(98) == "HEX(10,8)" and space.name(11) == "HEX(0,1)"
    assert space.name(99) == "CARD(0)" and space.decode(space.box_action(1, 0, 1)) == (
        "BOX",
        (1, 0, 1),
    )
    assert all(space.parse(space.name(a)) == a for a in range(space.N_ACTIONS))
    assert (ACTIONS.N_ACTIONS, ACTIONS.CARD_BASE, ACTIONS.NO) == (87, 63, 85)
    assert ACTIONS.name(62) == "HEX(8,6)"
    assert action_space(Grid(11, 9)) is space  # one space per grid
    with pytest.raises(ValueError, match="outside the action space 0..122"):
        space.decode(123)


# --- HV-TEL-2 on the wider grid -------------------------------------------------------------------


@pytest.mark.parametrize("kernels", KERNELS, ids=KERNEL_NAMES)
@pytest.mark.parametrize("start", [(9, 1), (10, 6), (2, 7)])
def test_hv_tel_2_veil_blink_reaches_the_hexes_within_two_on_the_wider_grid(start, kernels):
    """HV-TEL-2, HV-MAP-2: the Conjurer's Veil Blink (C04 bottom, Move 2 teleport) offers every
    endable hex within hex distance 2 of its own on the 11-column grid, and no other."""
    fixture = {
        "sequence": ["conjurer"],
        "characters": {
            "bulwark": {"cell": [0, 0]},
            "conjurer": {"cell": list(start), "played": ["C04", "C01"]},
        },
        "monsters": [],
    }
    game = new_game(FROST, seed=0, fixture=fixture, kernels=kernels)
    play(game, ("WINDOW_0", game.actions.box_action(LEAD, BOTTOM, PRINTED)))
    grid = FROST.map.grid
    expected = {
        (col, row)
        for col in range(grid.width)
        for row in range(grid.height)
        if FROST.map.cells[grid.id(col, row)] == FLOOR
        and (col, row) not in (start, (0, 0))
        and axial_distance(start, (col, row)) <= 2
    }
    assert destinations(game) == expected


# --- renders and the board view -------------------------------------------------------------------


def test_the_renders_and_the_board_view_draw_the_whole_grid():
    """15.1, HV-MAP-1: the text map has 11 columns and 9 rows; the picture is larger than a
    9 x 7 map's and draws the slinger at (10,4) in its place; the page's board is 11 x 9."""
    game = new_game(FROST, seed=0)
    lines = map_lines(game.state, FROST)
    assert lines[0].split()[-1] == "10" and len(lines) == 10
    assert lines[5].split()[-1] == "s1"  # row 4 ends with the slinger #1 at (10,4)
    height, width = image_size(FROST.map.grid)
    standard_height, standard_width = image_size(STANDARD)
    assert height > standard_height and width > standard_width
    img = render_rgb(game)
    assert img.shape == (height, width, 3)
    y, x = centre(FROST.map.grid, FROST.map.grid.id(10, 4))
    assert tuple(img[y, x]) != tuple(img[y - 18, x])  # a figure's disc, not the bare floor

    class Match:
        state = game

    view = board_view(Match(), 0)
    assert view["grid"] == {"shape": "hex", "width": 11, "height": 9}
    assert len(view["cells"]) == 99
    assert {"x": 10, "y": 4} in [{"x": p["x"], "y": p["y"]} for p in view["pieces"]]


# --- HV-AOE-2/3 on the wider grid -----------------------------------------------------------------


def test_hv_aoe_2_a_pair_is_placed_on_the_columns_past_the_ninth():
    """HV-AOE-2/3: Chain Burst's ranged pair (C06 top, section 24.2) from (8,5) within range 3
    covers (9,4) with (10,4), two hexes a 9-column grid does not have; every placement is two
    neighbouring grid hexes."""
    board = board_for(FROST)
    grid = FROST.map.grid
    found = placements(board, grid.id(8, 5), ((0, 0), (1, 0)), 3)
    assert frozenset({grid.id(9, 4), grid.id(10, 4)}) in found
    for cells in found:
        assert all(0 <= c < grid.cells for c in cells)
        if len(cells) == 2:
            a, b = sorted(cells)
            assert axial_distance(grid.xy(a), grid.xy(b)) == 1


def test_the_picture_of_27_1_is_the_map_frost_keep_loads():
    """Section 27.1: the spec's picture (its thin-wall marks blanked) is the text render of the
    map the data file loads."""
    spec = (Path(__file__).parents[2] / "docs" / "rules" / "haven.md").read_text()
    picture = spec.split("### 27.1 Map\n\n```\n")[1].split("```")[0].rstrip("\n")
    game = new_game(FROST, seed=0)
    assert picture.replace("| ", "  ") == "\n".join(map_lines(game.state, FROST))
