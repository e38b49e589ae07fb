"""The universal layout: one observation and action space for every scenario (ER-UNI-1..7).

A scenario's own observation, mask and actions must land in the universal ones entry for entry,
on both backends, in the AEC env, in a vector of mixed scenarios and for the scripted bots; what
the universal layout adds (the map, the cards) must say what the scenario holds.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from reborn_env import earth_reborn_v0
from reborn_env.bots.batched import batched_bot
from reborn_env.core.data_files import bundled_names
from reborn_env.core.errors import IllegalActionError
from reborn_env.games.earth_reborn import scenario as scenario_package
from reborn_env.games.earth_reborn.fast import AVAILABLE
from reborn_env.games.earth_reborn.fast.mixed_vector import SEED_STRIDE, MixedVectorEnv
from reborn_env.games.earth_reborn.fast.vector import VectorEnv
from reborn_env.games.earth_reborn.scenario.generator import HELD_OUT_SEEDS
from reborn_env.games.earth_reborn.scenario.loader import load_scenario
from reborn_env.games.earth_reborn.scenario.model import WALL
from reborn_env.games.earth_reborn.universal import (
    MAX_TURNS,
    UNIVERSAL_CODEC,
    UNIVERSAL_LAYOUT,
    fits,
    scenario_names,
    universal_view,
)

GAME = "earth_reborn_v0"
BACKENDS = ["python", *(["fast"] if AVAILABLE else [])]
SCENARIOS = [*bundled_names(scenario_package), f"generated:{HELD_OUT_SEEDS[0]}"]
MIXED = ["vault_raid", "corridor_duel", "compound", f"generated:{HELD_OUT_SEEDS[1]}"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_er_uni_1_every_scenario_fits_one_size(name: str) -> None:
    scn = load_scenario(name)
    assert fits(scn) is None
    view = universal_view(scn)
    # ER-UNI-4: each float of the scenario's observation has its own place, each action its own
    assert len(set(view.obs_index.tolist())) == len(view.obs_index)
    assert len(set(view.action_index.tolist())) == len(view.action_index)
    map_block = UNIVERSAL_LAYOUT["map"]
    assert not np.any((view.obs_index >= map_block.offset) & (view.obs_index < map_block.stop))
    assert view.static[: map_block.offset].sum() == 0


def test_er_uni_1_the_environment_card_states_the_universal_sizes() -> None:
    card = earth_reborn_v0.__doc__ or ""
    assert f"`Box(0, 1, ({UNIVERSAL_LAYOUT.size},))`" in card
    assert f"`Discrete({UNIVERSAL_CODEC.size})`" in card


def test_er_uni_1_a_scenario_beyond_the_bounds_is_refused_by_name() -> None:
    scn = load_scenario("vault_raid")
    longer = copy.copy(scn)
    object.__setattr__(longer, "turns", MAX_TURNS + 1)
    assert fits(longer) == f"{MAX_TURNS + 1} turns, and the universal layout holds at most 12"


@pytest.mark.parametrize("name", SCENARIOS)
def test_er_uni_2_the_map_block_draws_the_board(name: str) -> None:
    scn = load_scenario(name)
    board = scn.board
    cells = UNIVERSAL_LAYOUT.view(universal_view(scn).static)["map"]["cells"]
    for sq in range(board.width * board.height):
        x, y = board.xy(sq)
        cell = cells[y * 16 + x]
        assert cell["on_board"] == (not board.void[sq])
        assert cell["wall"].tolist() == [float(e == WALL) for e in board.edge[sq]]
    outside = [c for c in range(256) if c % 16 >= board.width or c // 16 >= board.height]
    assert cells.array[outside].sum() == 0
    view = UNIVERSAL_LAYOUT.view(universal_view(scn).static)["map"]
    for door in board.doors:
        site = view["door_sites"][door.id]
        assert (np.argmax(site["x"]), np.argmax(site["y"])) == board.xy(door.a)
        assert site["kind"][["sliding", "wooden", "magnetic_sliding", "magnetic_wooden"]
                            .index(door.kind)] == 1  # fmt: skip
    for k, terminal in enumerate(scn.terminals):
        site = view["terminal_sites"][k]
        assert (np.argmax(site["x"]), np.argmax(site["y"])) == board.xy(terminal.square)
    assert view["cards"].column("present").sum() == len(scn.characters)
    assert view["tile_cards"].column("present").sum() == len(scn.tiles)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["vault_raid", "compound", f"generated:{HELD_OUT_SEEDS[2]}"])
def test_er_uni_4_the_env_shows_the_scenarios_view_entry_for_entry(backend: str, name: str) -> None:
    own = earth_reborn_v0.env(scenario=name, backend=backend)
    uni = earth_reborn_v0.env(scenario=name, backend=backend, layout="universal")
    own.reset(seed=5)
    uni.reset(seed=5)
    view = universal_view(own.unwrapped.scenario)
    assert uni.observation_space("norad")["observation"].shape == (UNIVERSAL_LAYOUT.size,)
    assert uni.action_space("norad").n == UNIVERSAL_CODEC.size
    assert uni.unwrapped.observation_layout is UNIVERSAL_LAYOUT
    rng = np.random.default_rng(3)
    for _ in range(300):
        agent = own.agent_selection
        if own.terminations[agent] or own.truncations[agent]:
            break
        for seat in own.possible_agents:  # the seat to move and the other
            observed, got = own.observe(seat), uni.observe(seat)
            expected = view.static.copy()
            expected[view.obs_index] = observed["observation"]
            np.testing.assert_array_equal(got["observation"], expected)
            mask = np.zeros(UNIVERSAL_CODEC.size, np.int8)
            mask[view.action_index] = observed["action_mask"]
            np.testing.assert_array_equal(got["action_mask"], mask)
        action = int(rng.choice(np.flatnonzero(own.observe(agent)["action_mask"])))
        own.step(action)
        uni.step(int(view.action_index[action]))


@pytest.mark.parametrize("backend", BACKENDS)
def test_er_uni_4_both_envs_play_the_same_game(backend: str) -> None:
    own = earth_reborn_v0.env(scenario="cache_run", backend=backend)
    uni = earth_reborn_v0.env(scenario="cache_run", backend=backend, layout="universal")
    own.reset(seed=11)
    uni.reset(seed=11)
    view = universal_view(own.unwrapped.scenario)
    rng = np.random.default_rng(0)
    for _ in range(400):
        agent = own.agent_selection
        assert uni.agent_selection == agent
        if own.terminations[agent] or own.truncations[agent]:
            break
        mask = own.observe(agent)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        name = own.unwrapped.action_name(action)
        assert uni.unwrapped.action_name(int(view.action_index[action])) == name
        own.step(action)
        uni.step(int(view.action_index[action]))
        assert uni.unwrapped.get_state() == own.unwrapped.get_state()


@pytest.mark.parametrize("backend", BACKENDS)
def test_er_uni_3_a_padded_or_illegal_action_is_refused_and_nothing_changes(backend: str) -> None:
    env = earth_reborn_v0.env(scenario="corridor_duel", backend=backend, layout="universal")
    env.reset(seed=2)
    before = env.unwrapped.get_state()
    activate_c9 = UNIVERSAL_CODEC.encode("ACTIVATE", 9)  # the duel has two characters
    with pytest.raises(IllegalActionError, match=r"slot this scenario does not have.*legal: 0 "):
        env.step(activate_c9)
    keep_hand = UNIVERSAL_CODEC.encode("KEEP_HAND")  # a real action, not legal at the mulligan
    with pytest.raises(IllegalActionError, match=rf"illegal action {keep_hand} = KEEP_HAND"):
        env.step(keep_hand)
    assert env.unwrapped.get_state() == before
    with pytest.raises(ValueError, match="layout 'padded': choose one of 'scenario', 'universal'"):
        earth_reborn_v0.env(layout="padded")


def test_er_uni_5_turns_count_down_to_the_last_entry() -> None:
    for name, turns in (("corridor_duel", 4), ("vault_raid", 6)):
        env = earth_reborn_v0.env(scenario=name, layout="universal")
        env.reset(seed=0)
        turn = UNIVERSAL_LAYOUT.view(env.observe("norad")["observation"])["turn"]
        assert int(np.argmax(turn)) == MAX_TURNS - turns  # turn 1 of `turns`: `turns` left


def test_er_uni_6_scenario_names_expand_generated_ranges() -> None:
    assert scenario_names("generated:7..9") == ["generated:7", "generated:8", "generated:9"]
    assert scenario_names(["vault_raid", "generated:3..3"]) == ["vault_raid", "generated:3"]
    for bad in ("generated:9..3", "generated:x..3"):
        with pytest.raises(ValueError, match="generated:<first>..<last>"):
            scenario_names(bad)
    with pytest.raises(ValueError, match="an empty list"):
        scenario_names([])


def test_er_uni_6_an_aec_env_of_several_scenarios_plays_seed_mod_count() -> None:
    env = earth_reborn_v0.env(scenario=MIXED, layout="universal")
    assert env.unwrapped.scenario is None  # it changes from game to game
    for seed in range(len(MIXED) + 1):
        env.reset(seed=seed)
        assert env.unwrapped.get_state()["scenario"] == MIXED[seed % len(MIXED)]
    position = env.unwrapped.get_state()
    env.reset(seed=0)
    env.reset(options={"position": position})
    assert env.unwrapped.get_state() == position
    clone = pickle.loads(pickle.dumps(env))
    assert clone.unwrapped.get_state() == position


def test_er_uni_6_the_universal_env_passes_pettingzoos_api_test() -> None:
    api_test(earth_reborn_v0.env(scenario=MIXED[:2], layout="universal"), num_cycles=60)


@pytest.mark.parametrize("backend", BACKENDS)
def test_er_uni_6_a_mixed_vector_plays_each_scenarios_games_exactly(backend: str) -> None:
    """Slot i plays MIXED[i % 4]; its rows are its scenario vector's rows, mapped."""
    n, k = 8, len(MIXED)
    mixed = MixedVectorEnv(n, 3, backend=backend, scenarios=MIXED)
    alone = [VectorEnv(n // k, 3 + j * SEED_STRIDE, backend=backend, scenario=name)
             for j, name in enumerate(MIXED)]  # fmt: skip
    views = [universal_view(v.rules.scenario) for v in alone]
    obs, mask, agent = mixed.reset()
    for v in alone:
        v.reset()
    rng = np.random.default_rng(1)
    for step in range(600):
        for j, (v, view) in enumerate(zip(alone, views, strict=True)):
            rows = np.arange(j, n, k)
            np.testing.assert_array_equal(obs[np.ix_(rows, view.obs_index)], v.obs)
            np.testing.assert_array_equal(mask[np.ix_(rows, view.action_index)], v.mask)
            np.testing.assert_array_equal(agent[rows], v.agent)
        own = [np.array([rng.choice(np.flatnonzero(m)) for m in v.mask]) for v in alone]
        actions = np.empty(n, dtype=np.int64)
        for j, view in enumerate(views):
            actions[j::k] = view.action_index[own[j]]
        if step == 300:
            copied = copy.deepcopy(mixed)
            np.testing.assert_array_equal(copied.obs, mixed.obs)
        obs, mask, agent, rewards, terminated, _ = mixed.step(actions)
        for j, v in enumerate(alone):
            v.step(own[j])
            np.testing.assert_array_equal(rewards[j::k], v.rewards)
            np.testing.assert_array_equal(terminated[j::k], v.terminated)
    assert mixed.get_state(5) == alone[1].get_state(1)


def test_er_uni_6_a_mixed_vector_refuses_a_bad_action_and_changes_nothing() -> None:
    mixed = MixedVectorEnv(4, 0, scenarios=MIXED)
    mixed.reset()
    before = [mixed.get_state(i) for i in range(4)]
    actions = np.array([int(np.flatnonzero(m)[0]) for m in mixed.mask])
    actions[2] = UNIVERSAL_CODEC.encode("ACTIVATE", 15)
    with pytest.raises(IllegalActionError, match=r"game 2 \(compound\): universal action"):
        mixed.step(actions)
    assert [mixed.get_state(i) for i in range(4)] == before
    with pytest.raises(ValueError, match="several scenarios needs layout='universal'"):
        earth_reborn_v0.vector_env(4, scenario=MIXED)


def test_er_uni_7_the_scripted_bot_plays_a_mixed_vector_as_in_each_scenario() -> None:
    n, k = 8, len(MIXED)
    mixed = MixedVectorEnv(n, 0, scenarios=MIXED)
    obs, mask, agent = mixed.reset()
    seeds = list(range(100, 100 + n))
    universal = batched_bot(GAME, "heuristic", seeds, scenario=MIXED, layout="universal")
    own = [batched_bot(GAME, "heuristic", seeds[j::k], scenario=name)
           for j, name in enumerate(MIXED)]  # fmt: skip
    slots = np.arange(n)
    for _ in range(300):
        chosen = universal.act(slots, obs, mask)
        for j, (part, view) in enumerate(zip(mixed.parts, mixed.views, strict=True)):
            expected = own[j].act(np.arange(n // k), part.obs, part.mask)
            np.testing.assert_array_equal(chosen[j::k], view.action_index[expected])
        obs, mask, agent, _, terminated, truncated = mixed.step(chosen)
        for i in np.flatnonzero(terminated | truncated):
            universal.reset(int(i))
            own[i % k].reset(int(i) // k)


def test_er_uni_7_the_ppo_recipe_trains_on_mixed_maps_and_plays_any_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Imitation, PPO against the heuristic, evaluation: all in the universal layout on two maps;
    the policy then plays a third map, where a scenario-layout policy is refused by name."""
    from training.bench.evaluate import main as evaluate_main
    from training.ppo.config import load_config
    from training.ppo.train import train

    config = tmp_path / "mixed.yaml"
    config.write_text(
        "env: earth_reborn_v0\n"
        "env_kwargs: {layout: universal, scenario: [corridor_duel, 'generated:5..6']}\n"
        "total_steps: 512\nnum_envs: 6\nnum_steps: 32\nnum_minibatches: 2\nupdate_epochs: 1\n"
        "hidden_sizes: [32]\nimitation_games: 6\nimitation_epochs: 1\n"
        "bot_opponents: [heuristic]\nbot_opponent_prob: 0.5\n"
        "eval_every: 2\neval_games: 3\neval_opponents: [heuristic]\ncheckpoint_every: 2\n"
        f"checkpoint_dir: {tmp_path / 'ckpt'}\nrun_name: mixed\n"
    )
    train(load_config(config), log_dir=str(tmp_path / "runs"))
    assert "imitation: 6/6 teacher games" in capsys.readouterr().out
    policy = str(tmp_path / "ckpt" / "policy.pt")
    argv = ["--checkpoint", policy, "--opponent", "heuristic", "--games", "2", "--greedy"]
    assert evaluate_main([*argv, "--scenario", "compound"]) == 0
    assert "scenario compound" in capsys.readouterr().out
    shipped = str(Path(__file__).resolve().parents[2] / "checkpoints" / "earth_reborn_ppo.pt")
    assert evaluate_main(["--checkpoint", shipped, "--scenario", "compound"]) == 2
    assert "scenario 'compound' gives 1784 and 215" in capsys.readouterr().err
