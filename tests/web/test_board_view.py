"""Every game's board view (GameSpec.board_view): what the page draws, and nothing hidden in it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.web.session import drawable_games

GAMES = drawable_games()
STEPS = 400  # decisions per game checked: whole games or long stretches of them


def test_the_bundled_games_have_board_views() -> None:
    bundled = [n for n in registry.names() if registry.get(n).env.startswith("reborn_env.games.")]
    assert bundled and set(bundled) <= set(GAMES)


def _play(name: str, seed: int):
    """Yield (env, seat index, legal actions) at each decision of a seeded random game."""
    env = registry.get(name).make_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(STEPS):
        if any(env.terminations.values()) or any(env.truncations.values()):
            return
        agent = env.agent_selection
        legal = [int(a) for a in np.flatnonzero(env.observe(agent)["action_mask"])]
        yield env, env.possible_agents.index(agent), legal
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("name", GAMES)
def test_hidden_part_changed_leaves_the_view_byte_identical(name: str) -> None:
    """ER-HID-12 / HV-SEL-3: a game that differs only in what a seat may not see (the game's
    hidden_variant: the opponent's tiles, bag and bid; another character's secret picks) gives
    that seat the same board view, byte for byte."""
    spec = registry.get(name)
    view, hidden = spec.board(), spec.hidden()
    rng = np.random.default_rng(7)
    compared = 0
    for seed in range(3):
        for env, seat, legal in _play(name, seed):
            match = env.unwrapped.match
            for observer in range(len(env.possible_agents)):
                variant = hidden(match, observer, rng)
                if variant is None:
                    continue
                mine = legal if observer == seat else []
                assert json.dumps(view(variant, observer, mine)) == json.dumps(
                    view(match, observer, mine)
                )
                compared += 1
    assert compared > 10


@pytest.mark.parametrize("name", GAMES)
def test_view_is_json_keyed_to_its_legend_with_legal_targets(name: str) -> None:
    view = registry.get(name).board()
    for env, seat, legal in _play(name, 1):
        data = json.loads(json.dumps(view(env.unwrapped.match, seat, legal)))
        keys = {row["key"] for row in data["legend"]}
        grid = data["grid"]
        assert grid["shape"] in ("square", "hex")
        for item in data["cells"] + data["edges"] + data["pieces"]:
            assert item["key"] in keys, item
            assert 0 <= item["x"] < grid["width"] and 0 <= item["y"] < grid["height"]
        for target in data["targets"]:
            assert target["action"] in legal
            assert target["name"] == env.unwrapped.action_name(target["action"])
        assert data["status"] and data["hand"]["title"]


@pytest.mark.parametrize("name", GAMES)
def test_own_hand_is_listed_and_the_other_hands_only_counted(name: str) -> None:
    """ER-HID-2 / 16.5: the seat's hand items are its own hand; another's is a count."""
    view = registry.get(name).board()
    for env, seat, legal in _play(name, 2):
        match = env.unwrapped.match
        data = view(match, seat, legal)
        assert len(data["hand"]["items"]) == len(match.hand(seat))
        whole, counts = json.dumps(data), data["hand"]["others"]
        for other in range(len(env.possible_agents)):
            if other != seat:
                assert env.possible_agents[other] in counts
                assert not any(f'"title": "{card}' in whole for card in match.hand(other))
