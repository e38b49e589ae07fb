"""The PettingZoo contract of haven_v0: API, seeding, rendering, illegal actions, fixtures,
positions, the event feed, rewards and termination.

Rule ids: HV-API-1 (who is selected), HV-API-3 (serialised secret selection), HV-API-5 (illegal
actions), HV-API-6 (rewards), HV-API-7 (termination), HV-API-8 (events, HV-SEL-3), HV-API-9
(seeding), HV-API-10 (fixtures), HV-EXH-4 (exhausted agents stay).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from reborn_env import haven_v0
from reborn_env.core.errors import IllegalActionError
from reborn_env.games.haven.observation import observation_size
from tests.haven.helpers import ACTIONS, BUNDLED, fixture_env

AGENTS = ["bulwark", "conjurer"]


def card(k: int) -> int:
    return ACTIONS.card_action(k)


def hexa(col: int, row: int) -> int:
    return ACTIONS.hex_action(9 * row + col)


def play_random(env: haven_v0.raw_env, seed: int, max_steps: int = 20_000) -> dict[str, float]:
    """Play masked random actions to the end; the total reward each agent saw through last()."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for step, agent in enumerate(env.agent_iter()):
        assert step < max_steps
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


# HV-TEST-06: the Bulwark alone loots a coin and the treasure at the end of its turn; no monster
# is left, so the round ends with a win.
TEST_06 = {
    "round": 1,
    "phase": "turns",
    "sequence": ["bulwark"],
    "characters": {
        "bulwark": {"cell": [6, 0], "hp": 5, "gold": 0, "played": ["B02", "B01"]},
    },
    "coins": [[7, 0], [8, 0]],
    "treasures": [{"number": 1, "cell": [8, 0]}],
}

# HV-TEST-03 setup: Bulwark next to Marauder #1, B03 (lead) + B07 played, Bulwark AMD +0 on top.
TEST_03 = {
    "round": 1,
    "phase": "turns",
    "sequence": ["bulwark"],
    "characters": {
        "bulwark": {"cell": [3, 2], "hp": 10, "played": ["B03", "B07"], "amd": ["+0"]},
    },
    "monsters": [{"type": "marauder", "rank": "normal", "standee": 1, "cell": [4, 2], "hp": 5}],
}


# --- PettingZoo's own tests ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "config",
    [{}, {"auto_forced": False, "hide_other_piles": True}, {"reveal_second_card_at_turn": True}],
)
def test_pettingzoo_api_test_passes(config):
    """PettingZoo's api_test on env() (AEC contract, spaces, masks, last(), dead steps)."""
    api_test(haven_v0.env(**config), num_cycles=1000)


def test_pettingzoo_seed_test_passes():
    """PettingZoo's seed_test: the same seed gives the same game (HV-API-9)."""
    seed_test(haven_v0.env, num_cycles=300)


def test_pettingzoo_render_test_passes():
    """PettingZoo's render_test on every render mode (human, ansi, rgb_array)."""
    render_test(haven_v0.env)


# --- Card promises -------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", BUNDLED)
def test_metadata_spaces_and_agents(scenario):
    """HV-API-1, HV-MAP-1, 16.3, 16.5: agents, one action per answer (87 on the 9 x 7 grid, one
    more HEX per extra cell), Dict observation with an int8 mask, on each bundled scenario, whose
    sizes the env card gives."""
    env = haven_v0.env(scenario=scenario)
    assert env.metadata["name"] == "haven_v0"
    assert env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"human", "ansi", "rgb_array"}
    assert env.possible_agents == AGENTS
    size = observation_size(env.unwrapped.scenario)
    assert f"({size},)" in haven_v0.__doc__
    n_actions = 87 + env.unwrapped.scenario.map.grid.cells - 63
    assert f"Discrete({n_actions})" in haven_v0.__doc__
    for agent in AGENTS:
        assert env.action_space(agent).n == n_actions
        space = env.observation_space(agent)
        assert space["observation"].shape == (size,)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (n_actions,)
        assert space["action_mask"].dtype == np.int8
    env.reset(seed=3)
    for agent in AGENTS:
        assert env.observation_space(agent).contains(env.observe(agent))


def test_first_prompt_is_the_bulwarks_secret_selection():
    """HV-API-1/3, 16.4 SELECT_LEAD: bulwark picks first from its 9 cards; conjurer's mask is 0."""
    env = haven_v0.env()
    env.reset(seed=11)
    assert env.agent_selection == "bulwark"
    legal = {env.action_name(a) for a in np.flatnonzero(env.observe("bulwark")["action_mask"])}
    assert legal == {f"CARD({k})" for k in range(9)}
    assert not env.observe("conjurer")["action_mask"].any()
    env.step(card(0))
    assert env.agent_selection == "bulwark"  # SELECT_SECOND
    mask = env.observe("bulwark")["action_mask"]
    assert set(np.flatnonzero(mask)) == {card(k) for k in range(1, 9)}
    env.step(card(1))
    assert env.agent_selection == "conjurer"
    legal = set(np.flatnonzero(env.observe("conjurer")["action_mask"]))
    assert legal == {card(k) for k in range(8)}


@pytest.mark.parametrize("auto_forced", [True, False])
def test_forced_prompts_are_answered_by_the_engine_unless_disabled(auto_forced):
    """HV-API-4: with auto_forced a prompt with one legal action never reaches an agent (it is
    logged as AUTO_ACTION); with auto_forced=False such prompts are shown. HV-API-2: the
    selected agent is the one whose prompt is pending, and only its mask is non-zero."""
    env = haven_v0.env(auto_forced=auto_forced, event_feed=True)
    shown_forced = auto_events = 0
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            auto_events += sum(e["type"] == "AUTO_ACTION" for e in info["events"])
            if term or trunc:
                env.step(None)
                continue
            game = env.unwrapped.game
            assert env.possible_agents[game.prompt.agent] == agent
            other = [a for a in env.possible_agents if a != agent][0]
            assert not env.observe(other)["action_mask"].any()
            legal = np.flatnonzero(obs["action_mask"])
            shown_forced += len(legal) == 1
            env.step(int(rng.choice(legal)))
    if auto_forced:
        assert shown_forced == 0 and auto_events > 0
    else:
        assert shown_forced > 0 and auto_events == 0


def test_action_names_round_trip():
    env = haven_v0.env()
    for a in range(87):
        assert env.unwrapped.action_from_name(env.unwrapped.action_name(a)) == a
    assert env.unwrapped.action_name(73) == "BOX(lead,top,printed)"
    assert env.unwrapped.action_from_name("HEX(4,2)") == 22


def test_constructor_rejects_bad_options():
    """16.8: every config key is checked with a clear error."""
    with pytest.raises(ValueError, match="render_mode"):
        haven_v0.env(render_mode="video")
    with pytest.raises(ValueError, match="illegal_action"):
        haven_v0.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="max_rounds"):
        haven_v0.env(max_rounds=0)
    with pytest.raises(ValueError, match="max_rounds"):
        haven_v0.env(max_rounds="30")
    for key in (
        "allow_damage_negation",
        "auto_forced",
        "hide_other_piles",
        "reward_shaping",
        "reveal_second_card_at_turn",
    ):
        with pytest.raises(ValueError, match=key):
            haven_v0.env(**{key: "yes"})
    with pytest.raises(TypeError):
        haven_v0.env(colour="red")
    env = haven_v0.env(max_rounds=5, auto_forced=False, hide_other_piles=True)
    assert env.unwrapped.config.max_rounds == 5
    assert env.unwrapped.config.auto_forced is False


def test_reset_refuses_a_fixture_and_a_position_together():
    env = haven_v0.env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="exclude"):
        env.reset(seed=0, options={"fixture": {}, "position": env.unwrapped.get_state()})


def test_step_before_reset_is_a_clear_error():
    with pytest.raises(RuntimeError, match="reset"):
        haven_v0.env().step(0)


# --- Illegal actions (HV-API-5) ------------------------------------------------------------------


def test_illegal_action_is_refused_naming_the_prompt_and_state_is_unchanged():
    """HV-API-5: an error naming the prompt and the legal actions; nothing changes."""
    env = haven_v0.env()
    env.reset(seed=5)
    before = env.unwrapped.get_state()
    obs_before = env.observe("bulwark")["observation"].copy()
    with pytest.raises(IllegalActionError) as err:
        env.step(ACTIONS.YES)
    message = str(err.value)
    assert "SELECT_LEAD" in message and "bulwark" in message
    assert "YES" in message and "CARD(0)" in message and "CARD(8)" in message
    assert env.unwrapped.get_state() == before
    assert env.observe("bulwark")["observation"].tobytes() == obs_before.tobytes()
    for bad in (-1, 87, 10**9, None, 1.5, "CARD(0)", True):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.unwrapped.get_state() == before
    env.step(card(0))  # the game goes on normally
    assert env.agent_selection == "bulwark"


def test_penalize_mode_ends_the_game_with_minus_one_for_the_offender():
    """HV-API-5 option: PettingZoo's convention, the game ends and the offender gets -1."""
    env = haven_v0.env(illegal_action="penalize")
    env.reset(seed=5)
    env.step(card(0))
    env.step(card(1))
    assert env.agent_selection == "conjurer"
    env.step(ACTIONS.LONG_REST)  # discard is empty: illegal (HV-SEL-2)
    assert all(env.terminations.values())
    assert env._cumulative_rewards == {"bulwark": 0.0, "conjurer": -1.0}
    assert "LONG_REST" in env.infos["conjurer"]["illegal_action"]
    for _agent in env.agent_iter():
        env.step(None)
    assert env.agents == []


# --- Fixtures, rewards, termination --------------------------------------------------------------


def test_fixture_reset_win_gives_every_agent_plus_one():
    """HV-TEST-06 through the env (HV-API-10, HV-CEND-1, HV-END-1, HV-API-6/7): loot at the end
    of the turn, win at the end of the round, +1 for both agents, all terminated."""
    env = fixture_env(TEST_06)
    game = env.unwrapped.game
    assert env.agent_selection == "bulwark"
    assert game.prompt.kind == "WINDOW_0"
    env.step(ACTIONS.box_action(0, 1, 0))  # 75: B02 bottom, Move 3
    assert game.prompt.kind == "MOVE_DEST"
    env.step(hexa(8, 0))
    assert game.state.coins == {7: 1, 8: 1}  # nothing looted while moving (cells (7,0), (8,0))
    env.step(ACTIONS.box_action(1, 0, 1))  # 78: B01 top as default Attack 2, auto-skipped
    assert game.prompt.kind == "WINDOW_2"
    env.step(ACTIONS.NO)
    bulwark = game.state.characters[0]
    assert game.outcome == "win"
    assert bulwark.gold == 7 and bulwark.hp == 8
    assert game.state.coins == {7: 1} and game.state.treasures == {}
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env._cumulative_rewards == {"bulwark": 1.0, "conjurer": 1.0}
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        assert term
        totals[agent] += reward
        env.step(None)
    assert totals == {"bulwark": 1.0, "conjurer": 1.0}


def test_loss_when_both_characters_are_exhausted_at_round_start():
    """HV-EXH-1, HV-END-3, HV-API-6/7: both exhausted by cards -> loss, -1 for both at once."""
    fixture = {
        "round": 2,
        "phase": "select",
        "characters": {
            "bulwark": {"hand": ["B01"], "lost": [f"B0{k}" for k in range(2, 10)]},
            "conjurer": {"hand": ["C01"], "lost": [f"C0{k}" for k in range(2, 9)]},
        },
        "monsters": [{"type": "marauder", "rank": "normal", "standee": 1, "cell": [8, 6]}],
    }
    env = fixture_env(fixture)
    assert env.unwrapped.game.outcome == "loss"
    assert all(env.terminations.values())
    assert env.agents == AGENTS  # HV-EXH-4: exhausted characters stay until the end
    assert env._cumulative_rewards == {"bulwark": -1.0, "conjurer": -1.0}
    for agent in AGENTS:
        assert not env.observe(agent)["action_mask"].any()


def test_truncation_at_the_round_cap_gives_zero():
    """HV-END-4, HV-API-6/7: past max_rounds every agent is truncated with reward 0."""
    env = haven_v0.env(max_rounds=1)
    env.reset(seed=2)
    totals = play_random(env, seed=2)
    assert env.unwrapped.game.outcome == "truncated"
    assert totals == {"bulwark": 0.0, "conjurer": 0.0}


def test_reward_shaping_counts_monster_hp_lost_shared():
    """HV-API-6 shaping: +0.02 per monster HP lost, given to both agents."""
    env = fixture_env(TEST_03, reward_shaping=True)
    env.step(ACTIONS.box_action(0, 0, 1))  # 74: B03 top as default Attack 2
    assert env.unwrapped.game.prompt.kind == "ATTACK_TARGET"
    env.step(hexa(4, 2))
    assert env.unwrapped.game.state.monsters[0].hp == 3
    assert env.rewards["bulwark"] == pytest.approx(0.04)
    assert env.rewards["conjurer"] == pytest.approx(0.04)


def test_no_shaping_by_default():
    """HV-API-6: the default reward is sparse."""
    env = fixture_env(TEST_03)
    env.step(ACTIONS.box_action(0, 0, 1))
    env.step(hexa(4, 2))
    assert env.rewards == {"bulwark": 0.0, "conjurer": 0.0}


def test_exhausted_character_stays_in_agents_and_is_never_selected():
    """HV-EXH-4, HV-API-7: the Bulwark is exhausted by wound damage at its turn start; it stays in
    agents, is never selected again, and gets the same final reward as the Conjurer."""
    fixture = {
        "round": 1,
        "phase": "turns",
        "sequence": ["bulwark"],
        "characters": {
            "bulwark": {"cell": [2, 2], "hp": 1, "conditions": ["wound"], "played": ["B01", "B02"]}
        },
        "monsters": [{"type": "marauder", "rank": "normal", "standee": 1, "cell": [8, 6]}],
    }
    env = fixture_env(fixture, allow_damage_negation=False, event_feed=True)
    game = env.unwrapped.game
    assert game.state.characters[0].exhausted
    assert env.agents == AGENTS
    assert env.agent_selection == "conjurer"
    assert not env.observe("bulwark")["action_mask"].any()
    assert any(e["type"] == "EXHAUSTED" for e in env.infos["bulwark"]["events"])
    rng = np.random.default_rng(7)
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert agent == "conjurer"
        assert env.agents == AGENTS
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert game.outcome in ("win", "loss")
    assert totals["bulwark"] == totals["conjurer"] == (1.0 if game.outcome == "win" else -1.0)


# --- Events (HV-API-8) ---------------------------------------------------------------------------


def test_events_of_the_other_selection_are_withheld_until_the_reveal():
    """HV-API-8, HV-SEL-3: the Conjurer does not get the Bulwark's picks before the reveal, then
    gets them; the Bulwark sees its own picks at once."""
    env = haven_v0.env(event_feed=True)
    env.reset(seed=0)
    env.step(card(0))
    env.step(card(1))
    bulwark_played = [
        e for e in env.infos["bulwark"]["events"] if e["type"] == "CARD_TO" and e["to"] == "played"
    ]
    assert [e["card"] for e in bulwark_played] == ["B01", "B02"]
    assert env.agent_selection == "conjurer"
    seen = env.infos["conjurer"]["events"]
    assert not any(e.get("figure") == "bulwark" and e.get("to") == "played" for e in seen)
    assert not any(e["type"] == "REVEAL" for e in seen)
    env.step(card(0))
    assert not any(
        e.get("figure") == "bulwark" and e.get("to") == "played"
        for e in env.infos["conjurer"]["events"]
    )
    env.step(card(1))  # the last pick: reveal
    seen = env.infos["conjurer"]["events"]
    revealed = [e["card"] for e in seen if e.get("figure") == "bulwark" and e.get("to") == "played"]
    assert revealed == ["B01", "B02"]
    assert any(e["type"] == "REVEAL" for e in seen)
    # The Bulwark learns the Conjurer's picks only with the reveal as well.
    theirs = [e for e in env.infos["bulwark"]["events"] if e.get("figure") == "conjurer"]
    assert [e["card"] for e in theirs if e.get("to") == "played"] == ["C01", "C02"]


def test_events_are_plain_dicts_with_a_type():
    """HV-API-8: each event is ``{"type": ..., **data}``, JSON-ready."""
    env = haven_v0.env(event_feed=True)
    env.reset(seed=1)
    env.step(card(2))
    for event in env.infos["bulwark"]["events"]:
        assert isinstance(event, dict) and isinstance(event["type"], str)
        json.dumps(event)


# --- Positions -----------------------------------------------------------------------------------


def test_positions_round_trip_through_json_and_continue_alike():
    """get_state/set_state and reset(options={"position": ...}) restore the game exactly."""
    env = haven_v0.env()
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(25):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    text = json.dumps(env.unwrapped.get_state())
    other = haven_v0.env()
    other.reset(options={"position": json.loads(text)})
    assert json.dumps(other.unwrapped.get_state()) == text
    assert other.agent_selection == env.agent_selection
    for agent in AGENTS:
        a, b = env.observe(agent), other.observe(agent)
        assert a["observation"].tobytes() == b["observation"].tobytes()
        assert a["action_mask"].tobytes() == b["action_mask"].tobytes()
    for _ in range(25):
        if env.unwrapped.game.outcome != "running":
            break
        action = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        env.step(action)
        other.step(action)
        assert other.unwrapped.get_state() == env.unwrapped.get_state()
    env.unwrapped.set_state(json.loads(text))
    assert json.dumps(env.unwrapped.get_state()) == text


def _reveal_second_game(second: int) -> haven_v0.raw_env:
    """reveal_second_card_at_turn: Bulwark B01 (14) + ``second``, Conjurer C04 (9) + C01, so
    the Conjurer acts first while the Bulwark's second card is still secret."""
    env = haven_v0.env(reveal_second_card_at_turn=True, event_feed=True)
    env.reset(seed=0)
    for k in (0, second, 3, 0):
        env.step(card(k))
    return env


def test_second_card_events_wait_for_the_owners_turn_in_the_variant():
    """16.8 reveal_second_card_at_turn with HV-API-8: at the reveal the Conjurer learns the
    Bulwark's leading card only; the second one from a public REVEAL when the Bulwark's turn
    starts (the selection event naming it is never shown to the Conjurer)."""
    env = _reveal_second_game(5)
    assert env.agent_selection == "conjurer"
    assert env.unwrapped.game.prompt.kind == "WINDOW_0"
    shown = [e["card"] for e in env.infos["conjurer"]["events"] if e.get("to") == "played"]
    assert "B01" in shown and "B06" not in shown
    for _ in range(100):
        if env.agent_selection == "bulwark":
            break
        env.step(min(env.unwrapped.game.legal_actions()))
    assert env.agent_selection == "bulwark"
    events = env.infos["conjurer"]["events"]
    assert [e["card"] for e in events if e["type"] == "REVEAL"] == ["B06"]
    assert not [e for e in events if e.get("to") == "played"]
