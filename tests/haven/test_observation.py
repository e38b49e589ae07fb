"""The haven observation (16.5): layout, value range, egocentric blocks and hidden information.

Rule ids: HV-SEL-3 (secret selection: the other's hand and unrevealed picks never influence an
observation), HV-API-3 (serialised selection), 16.5 (contents), 16.8 (hide_other_piles).
"""

from __future__ import annotations

import copy
from types import SimpleNamespace

import numpy as np
import pytest

from reborn_env import haven_v0
from reborn_env.core.observation_views import ObservationView
from reborn_env.games.haven.observation import Observer, layout_for, observation_size, observer_for
from reborn_env.games.haven.rules.engine import HavenGame, new_game
from reborn_env.games.haven.rules.prompts import PROMPT_KINDS, Prompt
from reborn_env.games.haven.scenario.loader import load_scenario
from tests.haven.helpers import ACTIONS, fixture_env

SCN = load_scenario()
LAYOUT = layout_for(SCN)


def card(k: int) -> int:
    return ACTIONS.card_action(k)


def view(obs: np.ndarray) -> ObservationView:
    return LAYOUT.view(obs)


def cards_in(obs: np.ndarray, who: str, zone: str) -> set[int]:
    """The card indices set in a character block's card bitmask ``zone``."""
    return set(view(obs)[who].indices(zone))


def scalar(obs: np.ndarray, who: str, name: str) -> float:
    return float(view(obs)[who][name])


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.tobytes() == b.tobytes()


# --- Layout ------------------------------------------------------------------------------------


def test_layout_blocks_are_contiguous_and_cover_the_vector():
    """16.5: the named blocks tile the observation exactly, in the egocentric order."""
    start = 0
    for field in LAYOUT:
        assert field.offset == start and field.width > 0
        start += field.width
    assert start == LAYOUT.size == observation_size(SCN) == Observer(SCN).size
    assert LAYOUT.names == (
        "agent",
        "board",
        "round",
        "elements",
        "pending_infusions",
        "turn_sequence",
        "monster_decks",
        "monster_modifiers",
        "me",
        "other",
        "prompt",
    )
    assert LAYOUT["board"].shape == (63,) and LAYOUT["board"].item.size == 26
    assert LAYOUT["prompt"].width >= len(PROMPT_KINDS) + 63
    assert LAYOUT["me"].item.names == LAYOUT["other"].item.names


def test_board_features_name_the_five_figure_kinds():
    """16.5 public board: figure kind one-hot over Bulwark, Conjurer, Wisp, Marauder, Slinger."""
    cell = LAYOUT["board"].item
    assert cell["figure"].labels == ("bulwark", "conjurer", "ember_wisp", "marauder", "slinger")
    assert len(cell["conditions"].labels) == 8
    assert cell.entry_names()[:4] == ("terrain:floor", "terrain:obstacle", "terrain:wall", "coins")


def test_observer_and_layout_are_cached_per_scenario():
    assert observer_for(SCN) is observer_for(SCN)
    assert layout_for(SCN) is layout_for(SCN) is observer_for(SCN).layout


def test_start_board_shows_terrain_tokens_and_figures():
    """16.5 public board at the start of Raider Camp (15.1)."""
    game = new_game(seed=0)
    board = view(observer_for(SCN).observe(game, 0))["board"]
    assert board[9 * 2 + 6].label("terrain") == "wall"
    assert board[9 * 1 + 4].label("terrain") == "obstacle"
    assert board[8].flag("treasure")
    assert board[9 * 5 + 0]["coins"] > 0
    bulwark = board[9 * 2 + 1]
    assert bulwark.label("figure") == "bulwark" and bulwark.flag("mine")
    assert bulwark["hp"] == bulwark["max_hp"] == 1.0
    conjurer = board[9 * 4 + 1]
    assert conjurer.label("figure") == "conjurer" and not conjurer.flag("mine")
    elite = board[9 * 4 + 7]  # M3: elite marauder with Shield 1 on its stat line
    assert elite.label("figure") == "marauder" and elite.flag("elite")
    assert elite.amount("shield") == 1
    assert board[9 * 3 + 8].label("figure") == "slinger"


def test_observations_are_float32_in_unit_range_along_a_random_game():
    """16.5: scaled to [0, 1], float32, the right size, for both agents at every step."""
    env = haven_v0.env()
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    space = env.observation_space("bulwark")
    for _agent in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        for who in env.possible_agents:
            o = env.observe(who)
            assert space.contains(o)
            assert o["observation"].dtype == np.float32
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_observation_is_egocentric():
    """16.5: the "me" block is the observer's own character, the "other" block the teammate."""
    env = haven_v0.env()
    env.reset(seed=0)
    bulwark, conjurer = (
        env.observe("bulwark")["observation"],
        env.observe("conjurer")["observation"],
    )
    assert view(bulwark)["agent"].tolist() == [1.0, 0.0]
    assert view(conjurer)["agent"].tolist() == [0.0, 1.0]
    assert not same(view(bulwark)["me"].array, view(conjurer)["other"].array)  # hand is private
    assert scalar(bulwark, "me", "max_hp") == scalar(conjurer, "other", "max_hp") == 1.0
    assert scalar(conjurer, "me", "max_hp") == pytest.approx(0.7)
    assert cards_in(bulwark, "me", "hand") == set(range(9))
    assert cards_in(conjurer, "other", "hand") == set()  # the other's hand: size only
    assert scalar(conjurer, "other", "hand_size") == pytest.approx(0.9)


# --- Hidden information (HV-SEL-3) -------------------------------------------------------------


def _selected(picks: tuple[int, int], seed: int = 0) -> haven_v0.raw_env:
    env = haven_v0.env()
    env.reset(seed=seed)
    env.step(card(picks[0]))
    env.step(card(picks[1]))
    return env


@pytest.mark.parametrize("seed", [0, 7])
def test_the_others_picks_do_not_change_my_observation(seed):
    """HV-SEL-3, HV-API-3: games differing only in which cards the Bulwark picked give the
    Conjurer byte-identical observations and masks at both its selection prompts."""
    a, b = _selected((0, 1), seed), _selected((3, 5), seed)
    assert a.agent_selection == b.agent_selection == "conjurer"
    for kind in ("SELECT_LEAD", "SELECT_SECOND"):
        assert a.unwrapped.game.prompt.kind == b.unwrapped.game.prompt.kind == kind
        oa, ob = a.observe("conjurer"), b.observe("conjurer")
        assert same(oa["observation"], ob["observation"])
        assert same(oa["action_mask"], ob["action_mask"])
        a.step(card(2) if kind == "SELECT_LEAD" else card(4))
        b.step(card(2) if kind == "SELECT_LEAD" else card(4))
    assert a.unwrapped.game.state.phase == "turns"  # the reveal: now the picks are public
    assert not same(a.observe("conjurer")["observation"], b.observe("conjurer")["observation"])
    # The test can fail: the Bulwark's own view does differ.
    assert not same(a.observe("bulwark")["observation"], b.observe("bulwark")["observation"])


def test_own_picks_are_visible_before_the_reveal_and_the_others_after():
    """16.5 own private state: my picks even before the reveal; the other's once revealed."""
    env = haven_v0.env()
    env.reset(seed=0)
    env.step(card(3))
    obs = env.observe("bulwark")["observation"]  # at my SELECT_SECOND: the lead is shown
    assert cards_in(obs, "me", "lead") == {3}
    env.step(card(5))
    obs = env.observe("bulwark")["observation"]
    assert cards_in(obs, "me", "lead") == {3} and cards_in(obs, "me", "second") == {5}
    assert cards_in(env.observe("conjurer")["observation"], "other", "lead") == set()
    env.step(card(0))
    env.step(card(1))  # reveal
    obs = env.observe("conjurer")["observation"]
    assert cards_in(obs, "other", "lead") == {3} and cards_in(obs, "other", "second") == {5}
    assert view(obs)["turn_sequence"].array.any()


def test_a_hidden_long_rest_looks_like_a_pick():
    """HV-SEL-3 ("long rests are revealed too", i.e. only at the reveal): during selection the
    Conjurer cannot tell whether the Bulwark declared a long rest or picked two cards."""
    fixture = {
        "round": 2,
        "phase": "select",
        "characters": {"bulwark": {"discard": ["B08", "B09"]}, "conjurer": {}},
        "monsters": [{"type": "marauder", "rank": "normal", "standee": 1, "cell": [8, 6]}],
    }
    rest, pick = fixture_env(fixture, event_feed=True), fixture_env(fixture)
    rest.step(ACTIONS.LONG_REST)
    pick.step(card(0))
    pick.step(card(1))
    assert rest.agent_selection == pick.agent_selection == "conjurer"
    assert same(rest.observe("conjurer")["observation"], pick.observe("conjurer")["observation"])
    assert not any(e["type"] == "LONG_REST" for e in rest.infos["conjurer"]["events"])


def _piles_fixture(discard: list[str]) -> dict:
    return {
        "round": 2,
        "phase": "turns",
        "sequence": ["conjurer", "bulwark"],
        "characters": {
            "bulwark": {"cell": [1, 2], "played": ["B01", "B02"], "discard": discard},
            "conjurer": {"cell": [1, 4], "played": ["C04", "C01"]},
        },
        "monsters": [{"type": "marauder", "rank": "normal", "standee": 1, "cell": [8, 6]}],
    }


def test_hide_other_piles_hides_the_others_hand_through_its_piles():
    """16.8 hide_other_piles: the other's piles count only, so two games whose Bulwark holds
    different hands (and discards) with the same counts look alike to the Conjurer."""
    first, second = _piles_fixture(["B03", "B04"]), _piles_fixture(["B05", "B06"])
    a = fixture_env(first, hide_other_piles=True)
    b = fixture_env(second, hide_other_piles=True)
    assert a.agent_selection == "conjurer"
    assert sorted(a.unwrapped.game.state.characters[0].hand) != sorted(
        b.unwrapped.game.state.characters[0].hand
    )
    assert same(a.observe("conjurer")["observation"], b.observe("conjurer")["observation"])
    assert scalar(a.observe("conjurer")["observation"], "other", "discard_count") == pytest.approx(
        0.2
    )
    # Without the flag the piles are public (16.5), so the views differ.
    a, b = fixture_env(first), fixture_env(second)
    assert not same(a.observe("conjurer")["observation"], b.observe("conjurer")["observation"])
    assert cards_in(a.observe("conjurer")["observation"], "other", "discard") == {2, 3}


def test_modifier_deck_order_is_hidden():
    """16.5: modifier decks are shown as compositions; the order of a draw pile never shows."""
    first = _piles_fixture(["B03", "B04"])
    second = copy.deepcopy(first)
    first["characters"]["bulwark"]["amd"] = ["x2", "null", "+0"]
    second["characters"]["bulwark"]["amd"] = ["null", "+0", "x2"]
    first["monster_amd"] = ["+2", "-2"]
    second["monster_amd"] = ["-2", "+2"]
    a, b = fixture_env(first), fixture_env(second)
    for agent in ("bulwark", "conjurer"):
        assert same(a.observe(agent)["observation"], b.observe(agent)["observation"])


# --- Prompt block ------------------------------------------------------------------------------


def _with_prompt(game, prompt: Prompt) -> SimpleNamespace:
    return SimpleNamespace(state=game.state, config=game.config, prompt=prompt)


def test_other_agents_selection_prompt_shows_its_kind_only():
    """HV-SEL-3: of the other's selection prompt only the kind and whose it is are shown."""
    game = new_game(seed=0)
    observer = observer_for(SCN)
    plain = Prompt("SELECT_SECOND", 0, (card(1), card(2)))
    hinted = Prompt("SELECT_SECOND", 0, (card(1), card(2)), card=4, value=3)
    a = observer.observe(_with_prompt(game, plain), 1)
    b = observer.observe(_with_prompt(game, hinted), 1)
    assert same(a, b)
    prompt = view(a)["prompt"]
    assert prompt.label("kind") == "SELECT_SECOND" and prompt["kind"].sum() == 1.0
    assert prompt.label("whose") == "other" and prompt.array.sum() == 2.0


def test_short_rest_card_is_shown_to_its_owner_only():
    """16.5: the randomly chosen short-rest card is context for its owner only."""
    game = new_game(seed=0)
    observer = observer_for(SCN)
    with_card = Prompt("SHORT_REST_REROLL", 1, (ACTIONS.YES, ACTIONS.NO), rest_card=3)
    without = Prompt("SHORT_REST_REROLL", 1, (ACTIONS.YES, ACTIONS.NO))
    mine_a = observer.observe(_with_prompt(game, with_card), 1)
    mine_b = observer.observe(_with_prompt(game, without), 1)
    assert not same(mine_a, mine_b)
    other_a = observer.observe(_with_prompt(game, with_card), 0)
    other_b = observer.observe(_with_prompt(game, without), 0)
    assert same(other_a, other_b)


def test_prompt_context_shows_targets_and_pending_damage():
    """16.5 prompt context: targets already chosen (63 bits) and the pending damage amount."""
    game = new_game(seed=0)
    observer = observer_for(SCN)
    prompt = Prompt("ATTACK_TARGET", 0, (ACTIONS.NO,), card=2, half=0, ability="attack", value=4,
                    targets=(22,))  # fmt: skip
    obs = observer.observe(_with_prompt(game, prompt), 0)
    p = view(obs)["prompt"]
    assert p.label("kind") == "ATTACK_TARGET" and p.label("whose") == "mine"
    assert (p.index("card"), p.label("half"), p.label("ability")) == (2, "top", "attack")
    assert p.indices("targets") == (22,) and p.amount("value") == 4
    damage = Prompt("DAMAGE_RESPONSE", 0, (ACTIONS.NO,), value=2)
    more = Prompt("DAMAGE_RESPONSE", 0, (ACTIONS.NO,), value=3)
    assert not same(
        observer.observe(_with_prompt(game, damage), 0),
        observer.observe(_with_prompt(game, more), 0),
    )


def test_second_card_stays_hidden_until_the_owners_turn_in_the_variant():
    """16.8 reveal_second_card_at_turn: after the reveal only the Bulwark's leading card is
    public, so games differing in its second card look alike to the Conjurer until then."""
    views = []
    for second in (1, 5):
        env = haven_v0.env(reveal_second_card_at_turn=True)
        env.reset(seed=0)
        for k in (0, second, 3, 0):
            env.step(card(k))
        assert env.unwrapped.game.prompt.kind == "WINDOW_0"
        obs = env.observe("conjurer")["observation"]
        assert cards_in(obs, "other", "lead") == {0}
        assert cards_in(obs, "other", "second") == set()
        assert cards_in(obs, "other", "played") == {0}
        views.append(obs)
    assert same(views[0], views[1])


def _variant_selection(game, rng: np.random.Generator):
    """The same position with the Bulwark's selection answers this round replaced by other
    random legal ones (a long rest included; the Conjurer's answers kept), or None if the
    Bulwark is still selecting or nothing changed."""
    pos = game.to_position()
    answers = list(pos["answers"])
    original = HavenGame.from_position({**pos, "answers": []}, scenario=game.scenario)
    replay = original.clone()
    mine = 0  # how many of the answers are the Bulwark's
    while mine < len(answers) and original.prompt.agent == 0:
        original.apply(answers[mine])
        mine += 1
    if original.prompt.agent == 0:
        return None
    picks = []
    while replay.prompt.agent == 0:
        picks.append(int(rng.choice(replay.legal_actions())))
        replay.apply(picks[-1])
    for answer in answers[mine:]:
        replay.apply(answer)
    return replay if picks != answers[:mine] else None


@pytest.mark.parametrize("seed", range(4))
def test_hidden_selection_holds_along_random_games(seed):
    """HV-SEL-3 along play: at every Conjurer selection prompt, replacing the Bulwark's secret
    picks of this round by other legal ones never changes the Conjurer's observation or mask."""
    game = new_game(seed=seed)
    observer = observer_for(SCN)
    rng = np.random.default_rng(seed)
    checked = 0
    while game.prompt is not None:
        if game.state.phase == "select" and game.prompt.agent == 1:
            variant = _variant_selection(game, rng)
            if variant is not None:
                assert variant.prompt.kind == game.prompt.kind
                assert variant.legal_actions() == game.legal_actions()
                assert same(observer.observe(game, 1), observer.observe(variant, 1))
                checked += 1
        game.apply(int(rng.choice(game.legal_actions())))
    assert checked > 0
