"""The ISMCTS search bot (reborn_env.bots.ismcts) on Earth Reborn, with tiny budgets.

It cannot see hidden information: two games that differ only in the opponent's tiles and the
bag's order (hidden.hidden_variant, ER-HID-12) give the same search, root visits and move, under
the same seed. It plays legal whole games in both seats against random and heuristic play, through
every driver (the arena, the batched bots over the game vector, the bot server), within its
budget, and its spec is checked option by option.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
import torch

from reborn_env.bots import decide
from reborn_env.bots.arena import play_match
from reborn_env.bots.batched import act_batch, batched_bot, vector_view
from reborn_env.bots.ismcts import ISMCTSBot, Settings, parse_options
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from reborn_env.core.public_view import view_of
from reborn_env.frontends.botd import BotServer
from reborn_env.games.earth_reborn.hidden import hidden_variant
from reborn_env.games.earth_reborn.match import EarthRebornRules

GAME = "earth_reborn_v0"


def mid_game_matches(rules: EarthRebornRules, seed: int, every: int = 15):
    """Matches along a seeded random game where the seat to move has a real choice."""
    rng = np.random.default_rng(seed)
    match = rules.new_match(seed, {})
    step = 0
    while match.status() == "running":
        legal = match.legal_actions()
        if step % every == every - 1 and len(legal) > 1:
            yield match
        match.apply(legal[int(rng.integers(len(legal)))])
        step += 1


def mask_of(match, n_actions: int) -> np.ndarray:
    mask = np.zeros(n_actions, dtype=np.int8)
    mask[list(match.legal_actions())] = 1
    return mask


@pytest.mark.parametrize("prior", ["heuristic", "none"])
def test_it_cannot_see_what_is_hidden_from_it(prior: str) -> None:
    """Hidden information stays hidden (ER-HID-12, ER-HID-13): the same seed gives the same
    root visits and the same move in a game and in its hidden variant (other opponent tiles,
    other bag order, other generator), at several decisions and seeds."""
    rules = EarthRebornRules()
    rng = np.random.default_rng(0)
    compared = 0
    for match in mid_game_matches(rules, seed=3):
        seat = int(match.to_move())
        variant = hidden_variant(match, seat, rng)
        if variant is None:
            continue
        assert variant.to_position() != match.to_position()
        obs, mask = match.observe(seat), mask_of(match, rules.n_actions)
        searches = []
        for game in (match, variant):
            bot = ISMCTSBot(GAME, Settings(sims=12, prior=prior), seed=compared)
            action = bot.act_public(view_of(rules, game.to_position(), seat), obs, mask)
            searches.append((action, bot.last_visits))
        assert searches[0] == searches[1]
        assert sum(searches[0][1].values()) == 12
        compared += 1
        if compared == 4:
            break
    assert compared == 4


def test_it_is_seeded_and_its_searches_differ_between_seeds() -> None:
    """The same seed repeats a search exactly; another seed deals other games."""
    rules = EarthRebornRules()
    match = next(mid_game_matches(rules, seed=5))
    seat = int(match.to_move())
    view = view_of(rules, match.to_position(), seat)

    def visits(seed: int) -> dict[int, int]:
        settings = Settings(sims=30, rollout="random", prior="none")
        return ISMCTSBot(GAME, settings, seed=seed).search(view)

    assert visits(1) == visits(1)
    assert any(visits(1) != visits(s) for s in (2, 3, 4))


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_it_plays_whole_legal_games_in_both_seats(opponent: str) -> None:
    """Through arena.play_match (the env refuses an illegal action, ER-ENV-8): one game a seat."""
    spec = registry.get(GAME)
    bot = load_bot("ismcts:sims=3", GAME, seed=1)
    result = play_match(spec.make_env, bot, load_bot(opponent, GAME, seed=2), games=1, seed=40)
    assert [record.games for record in result.seats.values()] == [1, 1]


def test_the_budget_is_kept() -> None:
    """``sims`` is an exact count of simulations; ``ms`` ends the search near its deadline."""
    rules = EarthRebornRules()
    match = next(mid_game_matches(rules, seed=8))
    seat = int(match.to_move())
    view = view_of(rules, match.to_position(), seat)
    bot = ISMCTSBot(GAME, Settings(sims=9), seed=0)
    bot.search(view)
    assert bot.last_simulations == 9 == sum(bot.last_visits.values())
    timed = ISMCTSBot(GAME, Settings(ms=60.0), seed=0)
    start = time.perf_counter()
    timed.search(view)
    elapsed = time.perf_counter() - start
    assert timed.last_simulations > 1
    assert elapsed < 0.06 + 0.25  # the deadline, and the simulation under way when it passed
    both = ISMCTSBot(GAME, Settings(sims=2, ms=10_000.0), seed=0)
    both.search(view)
    assert both.last_simulations == 2


def test_a_forced_move_is_played_without_search() -> None:
    rules = EarthRebornRules()
    match = rules.new_match(0, {})
    mask = np.zeros(rules.n_actions, dtype=np.int8)
    mask[5] = 1
    bot = ISMCTSBot(GAME, Settings(sims=50), seed=0)
    view = view_of(rules, match.to_position(), int(match.to_move()))
    assert bot.act_public(view, match.observe(int(match.to_move())), mask) == 5
    assert bot.last_simulations == 0


def test_it_needs_the_public_view() -> None:
    """A driver with only an observation and a mask gets a clear refusal."""
    bot = load_bot("ismcts:sims=1", GAME, seed=0)
    obs, mask = np.zeros(4, np.float32), np.ones(3, np.int8)
    with pytest.raises(ValueError, match="public view"):
        bot.act(obs, mask)
    with pytest.raises(ValueError, match="public view"):
        decide(bot, obs, mask, None)


def test_spec_options_parse() -> None:
    assert parse_options("") == Settings(ms=1000.0)
    assert parse_options("sims=200") == Settings(sims=200)
    assert parse_options(" ms=150 , rollout=random,c=1.5") == Settings(
        ms=150.0, rollout="random", c=1.5
    )
    bot = load_bot("ismcts:sims=7,rollout=random", GAME, seed=0)
    assert isinstance(bot, ISMCTSBot) and bot.settings == Settings(sims=7, rollout="random")
    default = load_bot("ismcts", GAME)
    assert default.rollout == "heuristic" and default.prior
    assert not load_bot("ismcts:prior=none", GAME).prior


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ("depth=3", "one of: sims"),
        ("sims", "key=value"),
        ("sims=0", "integer >= 1"),
        ("sims=2.5", "integer >= 1"),
        ("ms=0", "number > 0"),
        ("ms=nan", "number > 0"),
        ("c=-1", "number >= 0"),
        ("rollout=greedy", "heuristic, random"),
        ("prior=policy", "heuristic, none or a policy file"),
        ("prior=missing.onnx", "missing.onnx"),
        ("sims=2,sims=3", "twice"),
        ("value=policy.onnx", "a policy checkpoint"),
        ("value=policy.pt,rollout=random", "judged by one of them"),
    ],
)
def test_a_bad_spec_names_what_is_allowed(options: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        load_bot(f"ismcts:{options}", GAME)


def test_a_policy_file_can_be_the_prior() -> None:
    """``prior=FILE``: the shipped checkpoint's probabilities steer the tree (PUCT)."""
    shipped = registry.get(GAME).policy
    bot = load_bot(f"ismcts:sims=6,prior={shipped}", GAME, seed=0)
    rules = EarthRebornRules()
    match = next(mid_game_matches(rules, seed=8))
    visits = bot.search(view_of(rules, match.to_position(), int(match.to_move())))
    assert sum(visits.values()) == 6 and set(visits) <= set(match.legal_actions())


def test_a_policy_prior_is_asked_once_a_node(monkeypatch) -> None:
    """``prior=FILE``: the network answers once for each node where the tree chooses (its first
    determinization there), and every later pass through the node reuses that answer, so the
    root is asked once although every simulation starts there."""
    shipped = registry.get(GAME).policy
    bot = load_bot(f"ismcts:sims=30,prior={shipped}", GAME, seed=0)
    asked = []
    probabilities = bot._prior_policy.probabilities
    monkeypatch.setattr(
        bot._prior_policy, "probabilities", lambda *a: asked.append(1) or probabilities(*a)
    )
    rules = EarthRebornRules()
    match = next(m for m in mid_game_matches(rules, seed=8, every=3) if len(m.legal_actions()) > 4)
    root = []
    descend = type(bot)._descend_puct
    monkeypatch.setattr(
        type(bot),
        "_descend_puct",
        lambda self, node, m: root.append(node) or descend(self, node, m),
    )
    bot.search(view_of(rules, match.to_position(), int(match.to_move())))

    def kept(node) -> int:
        return (node.policy is not None) + sum(kept(child) for child in node.children.values())

    assert root[0].policy is not None and len(set(map(id, root))) == 1 and len(root) == 30
    assert len(asked) == kept(root[0]) < 30


def test_in_a_lost_position_the_prior_still_steers_the_visits(monkeypatch) -> None:
    """First-play urgency: an untried action is worth what the tried ones are worth, so when
    every playout is lost for the seat to move the search keeps to the prior's choice instead
    of trying every other legal action first (an untried action counted as a draw, 0, outranked
    each lost one, and the visits spread over all of them)."""
    bot = load_bot("ismcts:sims=12,prior=heuristic", GAME, seed=0)
    rules = EarthRebornRules()
    match = next(m for m in mid_game_matches(rules, seed=8, every=3) if len(m.legal_actions()) > 8)
    seat = int(match.to_move())
    lost = [1.0, 1.0]
    lost[seat] = -1.0
    monkeypatch.setattr(bot, "_play_out", lambda match: lost)
    visits = bot.search(view_of(rules, match.to_position(), seat))
    assert sum(visits.values()) == 12
    assert max(visits.values()) >= 10, visits  # the prior's 0.75 keeps the visits together


def test_a_value_head_judges_the_leaves_instead_of_rollouts(monkeypatch) -> None:
    """``value=FILE``: no rollout is played; a new leaf's result is the checkpoint's value of
    the position for the seat to move there, clipped to [-1, 1], and its negation for the
    other seat."""
    shipped = registry.get(GAME).policy
    bot = load_bot(f"ismcts:sims=12,value={shipped}", GAME, seed=0)
    monkeypatch.setattr(bot, "_play_out", lambda match: pytest.fail("a rollout was played"))
    rules = EarthRebornRules()
    match = next(mid_game_matches(rules, seed=8))
    visits = bot.search(view_of(rules, match.to_position(), int(match.to_move())))
    assert sum(visits.values()) == 12 and set(visits) <= set(match.legal_actions())
    seat = int(match.to_move())
    net = load_bot(shipped, GAME).model
    obs = torch.from_numpy(np.asarray(match.observe(seat), dtype=np.float32)[None])
    mask = torch.from_numpy(mask_of(match, net.n_actions)[None] != 0)
    with torch.inference_mode():
        _, value = net(obs, mask)
    judged = bot._judge(match)
    expected = max(-1.0, min(1.0, float(value[0])))
    assert judged[seat] == pytest.approx(expected, abs=1e-6) and judged[1 - seat] == -judged[seat]


def test_a_game_without_public_views_is_refused() -> None:
    """The bot is generic, and a game without the hooks says which games have them."""
    without = [n for n in registry.names() if not registry.get(n).determinizer]
    assert without
    with pytest.raises(ValueError, match=f"{without[0]} has none.*{GAME}"):
        load_bot("ismcts:sims=1", without[0])


def test_the_unknown_spec_error_lists_it() -> None:
    with pytest.raises(ValueError, match="'ismcts\\[:options\\]'"):
        load_bot("nonsense", GAME)


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_it_plays_in_the_game_vector_through_per_slot_bots(backend: str) -> None:
    """batched_bot gives PerSlotBots, and act_batch hands it each slot's public view from the
    vector (vector_match's loop, on either backend of the vector)."""
    spec = registry.get(GAME)
    venv = spec.make_vector_env(3, seed=2, backend=backend)
    bots = batched_bot(GAME, "ismcts:sims=2,rollout=random", [0, 1, 2])
    assert bots.sees_public_view
    venv.reset()
    asked: list[int] = []

    def views(i: int) -> object:
        asked.append(i)
        return vector_view(venv, int(venv.agent[i]), i)

    for _ in range(5):
        actions = act_batch(bots, np.arange(3), venv.obs, venv.mask, views)
        assert all(venv.mask[i, a] for i, a in enumerate(actions))
        venv.step(actions)
    assert sorted(set(asked)) == [0, 1, 2]


def test_vector_match_plays_it() -> None:
    """training.bench.matches passes the views: a short match against random, both seats."""
    from training.bench.matches import play_vector_match, player

    make = player("ismcts:sims=2,rollout=random", GAME, seed=0)
    result = play_vector_match(GAME, {}, make, player("random", GAME, 1), games=1, seed=3)
    assert result.overall.games == 2


def test_the_bot_server_plays_it_on_a_kept_game_and_refuses_a_raw_observation() -> None:
    server = BotServer(load_bot("ismcts:sims=2", GAME, seed=0), "ismcts:sims=2", GAME)
    first = server.handle('{"cmd": "new_game", "seat": "norad", "seed": 3}')
    game = server.handle(f'{{"cmd": "new_game", "seat": "{first["to_play"]}", "seed": 3}}')
    assert game["bot_turn"]
    reply = server.handle('{"cmd": "best_action"}')
    assert reply["ok"] and reply["name"] in game["legal"], reply
    rules = server.template.unwrapped.rules
    obs, mask = [0.0] * rules.obs_size, [1] + [0] * (rules.n_actions - 1)
    raw = {"cmd": "observation", "observation": obs, "action_mask": mask}
    assert server.handle(json.dumps(raw))["ok"]
    refused = server.handle('{"cmd": "best_action"}')
    assert not refused["ok"] and "public view" in refused["error"]


def test_terminal_play_gives_it_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """frontends.play: a whole game against it, the person's moves scripted (first legal)."""
    from reborn_env.frontends import play

    monkeypatch.setattr(play, "ask_human", lambda env, seat, mask: int(np.flatnonzero(mask)[0]))
    env = registry.get(GAME).make_env()
    env.reset(seed=9)
    log = play.new_log(env, GAME)
    play.play_game(env, "norad", load_bot("ismcts:sims=2,rollout=random", GAME, seed=0), log)
    assert play.is_over(env)
    assert any(move["agent"] == "salemite" for move in log["moves"])


def test_it_is_the_opponent_of_the_single_agent_wrapper() -> None:
    """wrappers.SingleAgentEnv plays its opponent through decide: a whole episode."""
    from reborn_env.wrappers import SingleAgentEnv

    env = SingleAgentEnv(GAME, agent="salemite", opponent="ismcts:sims=2,rollout=random")
    env.reset(seed=2)
    done, steps = False, 0
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        _, _, terminated, truncated, _ = env.step(action)
        done, steps = terminated or truncated, steps + 1
    assert steps > 1
