"""The saw-hunter bot (reborn_env.games.earth_reborn.saw_hunter): heuristic play whose Salemites
break into the vault that the heuristic NORAD hides in.

The two positions come from heuristic-NORAD games (``saw_hunter_positions.json`` says which). In
both, Bolter is in the vault behind the closed magnetic sliding door (4,1)|(4,2), which no Salemite
can open (ER-DOOR-3) and only Jack Saw can destroy (ER-ABIL-1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reborn_env import earth_reborn_v0
from reborn_env.bots import RandomBot
from reborn_env.games.earth_reborn.bots import EarthRebornHeuristicBot
from reborn_env.games.earth_reborn.saw_hunter import EarthRebornSawHunterBot

POSITIONS = json.loads((Path(__file__).with_name("saw_hunter_positions.json")).read_text())
VAULT = {(x, y) for x in range(3, 6) for y in range(2)}  # ER-SCN-2
DOOR_SQUARE = (4, 2)  # the hall square in front of the magnetic sliding door


def _env_at(name: str):
    env = earth_reborn_v0.env()
    env.reset(seed=0)
    env.unwrapped.set_state(POSITIONS[name])
    return env


def _plans(bot: EarthRebornHeuristicBot, observation) -> dict[str, set[tuple[int, int]]]:
    """Each Salemite's goal squares, by character id, as the bot plans them from its view."""
    plans, _ = bot._plans(bot.reader.read(observation))
    return {
        bot.scn.characters[c].id: {bot.board.xy(sq) for sq in plan.goals}
        for c, plan in plans.items()
    }


def test_jack_saw_cuts_the_vault_door_where_the_heuristic_walks_away():
    """ER-ABIL-1: activated in front of the closed magnetic door with Bolter behind it, the saw
    hunter's Jack Saw saws it (1 CP); the heuristic's walks back to guard O2."""
    env = _env_at("jack_saw_at_the_vault_door")
    obs = env.observe("salemite")
    hunter = EarthRebornSawHunterBot(seed=0).act(obs["observation"], obs["action_mask"])
    heuristic = EarthRebornHeuristicBot(seed=0).act(obs["observation"], obs["action_mask"])
    assert env.action_name(hunter) == "SAW_DOOR(N)"
    assert not env.action_name(heuristic).startswith("SAW_DOOR")


def test_jack_saw_hunts_and_friends_wait_beside_the_locked_door():
    """ER-DOOR-3, ER-ABIL-1: with Bolter locked in, Jack Saw's goals are the squares next to
    him in the vault and nobody else's goal is the square in front of the door; the heuristic
    instead keeps Jack Saw guarding O2 and sends Deeler to stand at the door."""
    env = _env_at("bolter_locked_in")
    obs = env.observe("salemite")["observation"]
    hunter = _plans(EarthRebornSawHunterBot(seed=0), obs)
    assert hunter["jack_saw"] and hunter["jack_saw"] <= VAULT
    assert DOOR_SQUARE not in hunter["deeler"] | hunter["zombie"]
    assert hunter["deeler"] == {(3, 2), (5, 2), (4, 3)}  # the squares beside (4,2)
    heuristic = _plans(EarthRebornHeuristicBot(seed=0), obs)
    assert heuristic["jack_saw"] == {(4, 4)}  # O2's guard post (ER-SCN-2 store door)
    assert heuristic["deeler"] <= VAULT  # walks up to the door and waits on (4,2)


def _play(bots: dict, seed: int, watch: tuple[str, EarthRebornHeuristicBot] | None = None):
    """One game; every action legal. ``watch``: (seat, bot) asked the same decisions as the
    seat's bot, which must answer the same. Returns the env at the end."""
    env = earth_reborn_v0.env()
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = bots[agent].act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1, env.action_name(action)
        if watch and agent == watch[0]:
            assert watch[1].act(obs["observation"], obs["action_mask"]) == action
        env.step(action)
    assert env.unwrapped.get_state()["phase"] == "over", "the game was truncated"
    return env


@pytest.mark.parametrize("seed", range(2))
def test_as_norad_it_plays_exactly_the_heuristic(seed):
    """Only the defenders' plans differ: as NORAD (the hacker) every decision is the
    heuristic's, tie-breaks included."""
    bots = {"norad": EarthRebornHeuristicBot(seed=seed), "salemite": RandomBot(seed)}
    _play(bots, seed, watch=("norad", EarthRebornSawHunterBot(seed=seed)))


@pytest.mark.parametrize("seed", range(2))
def test_it_plays_only_legal_actions_as_salemite(seed):
    bots = {
        "norad": EarthRebornHeuristicBot(seed=seed),
        "salemite": EarthRebornSawHunterBot(seed=seed),
    }
    _play(bots, seed)
    bots = {"norad": RandomBot(seed), "salemite": EarthRebornSawHunterBot(seed=seed)}
    _play(bots, seed)


def _salemite_wins(cls, games: int) -> int:
    wins = 0
    for seed in range(games):
        bots = {"norad": EarthRebornHeuristicBot(seed=seed), "salemite": cls(seed=seed)}
        env = _play(bots, seed)
        wins += env.unwrapped.get_state()["winner"] == "salemite"  # ER-WIN-2, ER-SCN-11
    return wins


def test_it_beats_the_heuristic_norad_far_more_often_than_the_heuristic_does():
    """ER-WIN-2/ER-SCN-11 over 40 seeded games against the heuristic NORAD. Measured with
    ``python benchmarks/endings.py --player saw_hunter --opponent heuristic --games 200``:
    64.5% Salemite wins against the heuristic Salemite's 34.5% on the same seeds (which draws
    41% of them 3-3); the floor of 8 more wins in 40 fails only if the saw hunt stops working."""
    hunter = _salemite_wins(EarthRebornSawHunterBot, 40)
    heuristic = _salemite_wins(EarthRebornHeuristicBot, 40)
    assert hunter >= heuristic + 8, (hunter, heuristic)
