"""Tests of the haven renders (render.py): the 15.1 map as text, an RGB image, public facts only.

Rule ids: 15.1 (map picture), HV-MAP-1 (odd-r layout), HV-SEL-3 (a shared render never shows a
hand or an unrevealed pick), HV-EXH-3 (an exhausted character leaves the map).
"""

from __future__ import annotations

import copy

import numpy as np

from reborn_env import haven_v0
from reborn_env.games.haven.render import (
    CHARACTER_COLOURS,
    MONSTER_COLOURS,
    centre,
    image_size,
    map_lines,
    render_ansi,
    render_rgb,
)
from reborn_env.games.haven.rules.engine import new_game
from tests.haven.helpers import ACTIONS, STANDARD

# Spec 15.1, verbatim.
MAP_15_1 = """\
        col:   0   1   2   3   4   5   6   7   8
row 0:         .   .   .   .   .   .   .   .   T
row 1:           .   .   .   .   O   .   .   .   .
row 2:         .   B   .   .   .   .   #   m1  .
row 3:           .   .   .   O   .   .   #   .   s1
row 4:         .   C   .   .   .   .   .   M3  .
row 5:           $   .   .   .   O   .   m2  .   .
row 6:         .   .   .   .   .   .   .   S2  $"""


def cell_text(text: str, col: int, row: int) -> str:
    """The mark of cell (col, row) on the ansi map, blanks stripped."""
    line = text.splitlines()[1 + row]
    x = 15 + 4 * col + 2 * (row % 2)
    return line[x : x + 4].strip()


def fixture_game(fixture: dict, **config):
    env = haven_v0.env(**config)
    env.reset(seed=0, options={"fixture": copy.deepcopy(fixture)})
    return env


# --- ansi ----------------------------------------------------------------------------------------


def test_ansi_shows_the_map_of_15_1_at_the_start():
    """15.1 / HV-MAP-1: the start position renders exactly as the spec's picture."""
    game = new_game(seed=0)
    text = render_ansi(game)
    assert "\n".join(text.splitlines()[:8]) == MAP_15_1
    assert map_lines(game.state, game.scenario) == MAP_15_1.splitlines()
    assert cell_text(text, 7, 4) == "M3" and cell_text(text, 0, 5) == "$"


def test_ansi_status_lists_round_figures_and_prompt():
    game = new_game(seed=0)
    text = render_ansi(game)
    assert "round 1/30" in text and "phase select" in text
    assert "bulwark" in text and "HP 10/10" in text
    assert "conjurer" in text and "HP  7/7" in text
    assert "M3 marauder" in text and "shield 1" in text
    assert "prompt: SELECT_LEAD for bulwark" in text
    assert "elements: all inert" in text
    assert len(text.splitlines()) <= 40


def test_ansi_never_shows_hands_or_unrevealed_picks():
    """HV-SEL-3: the shared render is the same whichever cards the Bulwark picked; after the
    reveal it shows the played cards."""
    texts = []
    for picks in ((0, 1), (3, 5)):
        env = haven_v0.env(render_mode="ansi")
        env.reset(seed=0)
        for k in picks:
            env.step(ACTIONS.card_action(k))
        text = env.render()
        assert "CARD(" not in text and "B01" not in text and "B04" not in text
        texts.append(text)
    assert texts[0] == texts[1]
    env.step(ACTIONS.card_action(0))
    env.step(ACTIONS.card_action(1))
    text = env.render()
    assert "picks B04+B06" in text and "picks C01+C02" in text
    assert "sequence: " in text and "marauder" in text.split("sequence: ")[1].splitlines()[0]


def test_ansi_shows_moves_tokens_and_conditions_from_a_fixture():
    fixture = {
        "phase": "turns",
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": [3, 2], "hp": 6, "conditions": ["wound"], "played": ["B01", "B02"]}
        },
        "monsters": [{"type": "slinger", "rank": "elite", "standee": 2, "cell": [4, 2], "hp": 3}],
        "coins": [[8, 0], [5, 5], [5, 5]],
        "treasures": [{"number": 1, "cell": [8, 0]}],
        "elements": {"fire": "strong", "dark": "waning"},
    }
    env = fixture_game(fixture, render_mode="ansi")
    text = env.render()
    assert cell_text(text, 1, 2) == "."
    assert cell_text(text, 3, 2) == "B"
    assert cell_text(text, 4, 2) == "S2"
    assert cell_text(text, 8, 0) == "T$"
    assert cell_text(text, 5, 5) == "$2"
    assert "HP  6/10 wound" in text
    assert "S2 slinger" in text and "HP  3/6" in text
    assert "fire strong" in text and "dark waning" in text


def test_exhausted_character_leaves_the_map():
    """HV-EXH-3: an exhausted character is no longer drawn on the map."""
    fixture = {
        "phase": "turns",
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": [2, 2], "hp": 1, "conditions": ["wound"], "played": ["B01", "B02"]}
        },
        "monsters": [{"type": "marauder", "rank": "normal", "standee": 1, "cell": [8, 6]}],
    }
    env = fixture_game(fixture, render_mode="ansi", allow_damage_negation=False)
    text = env.render()
    assert cell_text(text, 2, 2) == "."
    assert "bulwark   exhausted" in text


# --- rgb -----------------------------------------------------------------------------------------


def test_rgb_shape_and_dtype():
    game = new_game(seed=0)
    img = render_rgb(game)
    assert img.dtype == np.uint8
    assert img.shape == (*image_size(STANDARD), 3)


def test_rgb_figures_have_their_colours():
    game = new_game(seed=0)
    img = render_rgb(game)
    for c, ch in enumerate(game.state.characters):
        y, x = centre(STANDARD, ch.cell)
        assert tuple(img[y + 8, x - 8]) == CHARACTER_COLOURS[c]
    y, x = centre(STANDARD, 9 * 2 + 7)  # Marauder #1
    assert tuple(img[y + 8, x - 8]) == MONSTER_COLOURS[0]


def test_rgb_changes_when_a_figure_moves_and_keeps_its_background():
    env = haven_v0.env(render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    fixture = {
        "phase": "turns",
        "sequence": ["bulwark"],
        "characters": {"bulwark": {"cell": [3, 2], "played": ["B01", "B02"]}},
    }
    moved = fixture_game(fixture, render_mode="rgb_array").render()
    assert moved.shape == before.shape
    assert not np.array_equal(before, moved)
    assert np.array_equal(env.render(), before)  # the cached background was not drawn on
