"""16.8: haven's options are written once (HavenConfig: defaults and checks) and every way in
(the environment's keywords, HavenConfig itself, a position's ``config``) refuses the same values
with the same words, naming the key and what is allowed (HV-END-4 for max_rounds)."""

from __future__ import annotations

from dataclasses import asdict, fields

import numpy as np
import pytest

from reborn_env import haven_v0
from reborn_env.core.errors import PositionError
from reborn_env.games.haven.rules.config import HavenConfig, UnknownOptionError, option_names
from reborn_env.games.haven.rules.engine import HavenGame, new_game

BAD = [
    ("max_rounds", 0, r"max_rounds must be an integer >= 1 \(HV-END-4\), got 0"),
    ("max_rounds", True, r"max_rounds must be an integer >= 1 \(HV-END-4\), got True"),
    ("max_rounds", "30", r"max_rounds must be an integer >= 1 \(HV-END-4\), got '30'"),
    ("auto_forced", 1, r"auto_forced must be True or False \(16\.8\), got 1"),
    ("hide_other_piles", None, r"hide_other_piles must be True or False \(16\.8\), got None"),
]


def test_the_environment_takes_its_defaults_from_havenconfig():
    assert haven_v0.env().unwrapped.config == HavenConfig()
    assert option_names() == tuple(f.name for f in fields(HavenConfig))
    given = {"max_rounds": 5, "auto_forced": False, "reveal_second_card_at_turn": True}
    assert haven_v0.env(**given).unwrapped.config == HavenConfig(**given)


@pytest.mark.parametrize(("key", "value", "message"), BAD)
def test_every_way_in_refuses_a_bad_option_in_the_same_words(key, value, message):
    with pytest.raises(ValueError, match=message):
        haven_v0.env(**{key: value})
    with pytest.raises(ValueError, match=message):
        HavenConfig(**{key: value})
    data = new_game(seed=0).to_position()
    data["config"][key] = value
    problem = message.split(" ", 1)[1]  # the position names the field, then the same problem
    with pytest.raises(PositionError, match=rf"position field 'config\.{key}': {problem}"):
        HavenGame.from_position(data)


def test_an_unknown_option_lists_the_known_ones_everywhere():
    """A TypeError as for any unknown keyword, and a ValueError as for bad data."""
    known = str(sorted(option_names())).replace("[", r"\[").replace("]", r"\]")
    for error in (TypeError, ValueError):
        with pytest.raises(error, match=rf"unknown config keys \['colour'\]; known keys: {known}"):
            haven_v0.env(colour="red")
    with pytest.raises(UnknownOptionError, match="colour"):
        HavenConfig.from_dict({"colour": "red"})
    data = new_game(seed=0).to_position()
    data["config"]["colour"] = "red"
    with pytest.raises(PositionError, match=r"'config': unknown config keys \['colour'\]"):
        HavenGame.from_position(data)


def test_a_position_needs_every_option():
    data = new_game(seed=0).to_position()
    del data["config"]["max_rounds"]
    with pytest.raises(PositionError, match="position field 'config.max_rounds' is missing"):
        HavenGame.from_position(data)


def test_numpy_scalars_count_as_the_values_they_hold():
    env = haven_v0.env(max_rounds=np.int64(7), hide_other_piles=np.bool_(True))
    config = env.unwrapped.config
    assert asdict(config) == asdict(HavenConfig(max_rounds=7, hide_other_piles=True))
    assert type(config.max_rounds) is int and type(config.hide_other_piles) is bool
    with pytest.raises(ValueError, match="max_rounds"):
        haven_v0.env(max_rounds=np.float64(7.0))
