"""The PettingZoo contract of earth_reborn_v0: API, seeding, rendering, illegal moves, positions.

Rule ids: ER-ENV-1 (who decides), ER-ENV-8 (illegal actions refused, state unchanged), ER-ENV-9
(truncation), ER-ENV-10 (mask), ER-WIN-3 (rewards), ER-HID-12 (hidden information), ER-GEN-3
(positions).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from reborn_env import earth_reborn_v0
from reborn_env.core.errors import IllegalActionError, PositionError
from reborn_env.games.earth_reborn.observation import Observer
from reborn_env.games.earth_reborn.rules.engine import legal_actions
from tests.earth_reborn.helpers import load, move_tiles, position, tiles


def test_pettingzoo_api_test_passes():
    """PettingZoo's own api_test on env() (AEC contract, spaces, masks, last(), dead steps)."""
    api_test(earth_reborn_v0.env(), num_cycles=1000)


def test_pettingzoo_seed_test_passes():
    """PettingZoo's seed_test: the same seed gives the same game (ER-DICE-4)."""
    seed_test(earth_reborn_v0.env, num_cycles=500)


def test_pettingzoo_render_test_passes():
    """PettingZoo's render_test on every render mode (human, ansi, rgb_array)."""
    render_test(earth_reborn_v0.env)


def test_ansi_render_shows_the_board_and_rgb_is_an_image():
    env = earth_reborn_v0.env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "+---" in text and "B>" in text
    env = earth_reborn_v0.env(render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


def test_metadata_spaces_and_agents():
    """The card's promises: agents, Discrete action space, Dict observation with an int8 mask."""
    env = earth_reborn_v0.env()
    assert env.metadata["name"] == "earth_reborn_v0"
    assert env.possible_agents == ["norad", "salemite"]
    for agent in env.possible_agents:
        assert env.action_space(agent).n == 203
        space = env.observation_space(agent)
        assert space["observation"].shape == (954,)
        assert space["action_mask"].dtype == np.int8
    env.reset(seed=3)
    obs = env.observe("norad")
    assert env.observation_space("norad").contains(obs)


def test_first_decision_is_the_initiative_holders_redraw():
    """ER-ENV-1 / ER-INI-4: NORAD holds the marker at setup and decides first (keep or redraw)."""
    env = earth_reborn_v0.env()
    env.reset(seed=11)
    assert env.agent_selection == "norad"
    legal = {
        env.unwrapped.action_name(a) for a in np.flatnonzero(env.observe("norad")["action_mask"])
    }
    assert legal == {"MULLIGAN_KEEP", "MULLIGAN_REDRAW"}
    assert not env.observe("salemite")["action_mask"].any()


def test_illegal_action_is_refused_naming_the_decision_and_state_is_unchanged():
    """ER-ENV-8: an error naming the decision in progress and the legal choices; no change."""
    env = earth_reborn_v0.env()
    env.reset(seed=5)
    before = env.unwrapped.get_state()
    step = env.unwrapped.action_from_name("STEP(N)")
    with pytest.raises(IllegalActionError) as err:
        env.step(step)
    message = str(err.value)
    assert "mulligan" in message and "norad" in message
    assert "MULLIGAN_KEEP" in message and "MULLIGAN_REDRAW" in message and "STEP(N)" in message
    assert env.unwrapped.get_state() == before
    for bad in (-1, 203, 10**9, None, 1.5, "PASS"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.unwrapped.get_state() == before
    env.step(env.unwrapped.action_from_name("MULLIGAN_KEEP"))  # the game goes on normally
    assert env.agent_selection == "salemite"


def test_penalize_mode_ends_the_game_with_minus_one_for_the_offender():
    """ER-ENV-8 option: PettingZoo's convention, the game ends and the offender gets -1."""
    env = earth_reborn_v0.env(illegal_action="penalize")
    env.reset(seed=5)
    env.step(env.unwrapped.action_from_name("PASS"))
    assert all(env.terminations.values())
    assert env._cumulative_rewards == {"norad": -1.0, "salemite": 0.0}
    assert "illegal" in env.infos["norad"]["illegal_action"]


def test_constructor_rejects_bad_options():
    with pytest.raises(ValueError, match="render_mode"):
        earth_reborn_v0.env(render_mode="video")
    with pytest.raises(ValueError, match="illegal_action"):
        earth_reborn_v0.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="max_steps"):
        earth_reborn_v0.env(max_steps=0)


def test_truncation_after_max_steps_is_a_draw():
    """ER-ENV-9: past the step limit the game is truncated as a draw (0 and 0)."""
    env = earth_reborn_v0.env(max_steps=3)
    env.reset(seed=2)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        rewards[agent] += reward
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert rewards == {"norad": 0.0, "salemite": 0.0}


def test_step_before_reset_is_a_clear_error():
    with pytest.raises(RuntimeError, match="reset"):
        earth_reborn_v0.env().step(0)


def _hidden_variant(pos: dict, observer: str) -> dict:
    """The same position with the opponent's tiles and the bag's tiles exchanged (same counts)."""
    other = "salemite" if observer == "norad" else "norad"
    variant = copy.deepcopy(pos)
    theirs, bag = variant["players"][other]["hand"], variant["bag"]
    k = min(len(theirs), len(bag))
    swapped_hand = sorted(bag[:k] + theirs[k:])
    swapped_bag = sorted(theirs[:k] + bag[k:])
    variant["players"][other]["hand"], variant["bag"] = swapped_hand, swapped_bag
    variant["rng"] = "0123456789abcdef"
    return variant


@pytest.mark.parametrize("observer", ["norad", "salemite"])
def test_hidden_information_gives_byte_identical_observations(observer):
    """ER-HID-12: positions differing only in the opponent's tiles, the bag and the generator give
    the observer byte-identical observations and masks (ER-HID-2, ER-HID-6)."""
    pos = position(active=observer)
    move_tiles(pos, tiles(1, 5), "hand:norad")
    move_tiles(pos, tiles(6, 10), "hand:salemite")
    move_tiles(pos, tiles(11, 24), "bag")
    pos["players"]["norad"]["cp"] = 9
    pos["players"]["salemite"]["cp"] = 8
    variant = _hidden_variant(pos, observer)
    assert variant["players"] != pos["players"]
    env_a, env_b = earth_reborn_v0.env(), earth_reborn_v0.env()
    env_a.reset(options={"position": pos})
    env_b.reset(options={"position": variant})
    a, b = env_a.observe(observer), env_b.observe(observer)
    assert a["observation"].tobytes() == b["observation"].tobytes()
    assert a["action_mask"].tobytes() == b["action_mask"].tobytes()
    # The test can fail: the other side's own view does change.
    other = "salemite" if observer == "norad" else "norad"
    assert (
        env_a.observe(other)["observation"].tobytes()
        != env_b.observe(other)["observation"].tobytes()
    )


def test_hidden_information_holds_along_random_games():
    """ER-HID-12 along play: swapping the opponent's tiles with the bag never changes my view."""
    env = earth_reborn_v0.env()
    env.reset(seed=21)
    observer = Observer(env.unwrapped.scenario)
    rng = np.random.default_rng(21)
    checked = 0
    while env.unwrapped.game.winner is None:
        game = env.unwrapped.game
        pos = env.unwrapped.get_state()
        for me, name in enumerate(env.possible_agents):
            variant = load(_hidden_variant(pos, name)) if game.decision != "game_over" else None
            if variant is None or variant.decision != game.decision:
                continue
            assert observer.observe(game, me).tobytes() == observer.observe(variant, me).tobytes()
            if game.decider == me:
                assert legal_actions(game) == legal_actions(variant)
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert checked > 100


def test_set_state_refuses_a_bad_position_and_keeps_the_game():
    """ER-GEN-3 validation: a clear error naming the field; the game in progress is unchanged."""
    env = earth_reborn_v0.env()
    env.reset(seed=1)
    before = env.unwrapped.get_state()
    lost_tile = copy.deepcopy(before)
    lost_tile["bag"] = lost_tile["bag"][1:]
    off_map = copy.deepcopy(before)
    off_map["characters"]["bolter"]["square"] = [2, 0]
    negative = copy.deepcopy(before)
    negative["players"]["norad"]["cp"] = -1
    crowded = copy.deepcopy(before)
    crowded["characters"]["vasquez"]["square"] = crowded["characters"]["bolter"]["square"]
    for bad, words in [
        (lost_tile, "ER-TILE-11"),
        (off_map, "characters.bolter.square"),
        (negative, "players.norad.cp"),
        (crowded, "ER-MOV-5"),
        ({"format": "chess"}, "not an Earth Reborn position"),
        ([], "JSON object"),
    ]:
        with pytest.raises(PositionError, match=words):
            env.unwrapped.set_state(bad)
        assert env.unwrapped.get_state() == before


def test_positions_are_plain_json():
    env = earth_reborn_v0.env()
    env.reset(seed=4)
    text = json.dumps(env.unwrapped.get_state())
    env.unwrapped.set_state(json.loads(text))
    assert json.dumps(env.unwrapped.get_state()) == text


def test_the_rules_engine_imports_no_rl_library():
    """The house rule (docs/architecture.md): the rules engine imports no gymnasium, pettingzoo or
    torch."""
    code = (
        "import sys; import reborn_env.games.earth_reborn.rules.engine; "
        "import reborn_env.games.earth_reborn.positions; "
        "rl = ('gymnasium', 'pettingzoo', 'torch', 'numpy'); "
        "print(sorted(m for m in rl if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
