"""ER-HID-13: the public view of a position and the determinizations dealt from it.

Along seeded games, at every decision and for both seats: the view holds none of the hidden
tiles, the bag's order or the generator; every deal gives the seat byte-identical observations and
masks (ER-HID-12) on both backends; two games that differ only in what the seat may not see
(``hidden.hidden_variant``) have the same view; games loaded from positions saved along play
have the views and deals of the played game; and a view that is not one is refused by name.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from reborn_env.core import registry
from reborn_env.core.errors import PositionError
from reborn_env.core.public_view import PublicView, dealer, env_view, view_of
from reborn_env.games.earth_reborn.hidden import hidden_variant
from reborn_env.games.earth_reborn.match import EarthRebornRules
from tests.earth_reborn.helpers import duel_scenario

GAME = "earth_reborn_v0"


def positions_of_games(rules: EarthRebornRules, seeds: range, rng: np.random.Generator):
    """Every match along random games from ``seeds`` (the match, live: copy what you keep)."""
    for seed in seeds:
        match = rules.new_match(seed, {})
        while match.status() == "running":
            yield match
            legal = match.legal_actions()
            match.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_every_deal_shows_the_seat_what_it_saw(backend: str) -> None:
    """ER-HID-12, ER-HID-13: observation and mask byte-identical, the same seat to move."""
    rules = EarthRebornRules(backend=backend)
    rng = np.random.default_rng(7)
    checked = 0
    for match in positions_of_games(rules, range(2), rng):
        for seat in (0, 1):
            deal = dealer(view_of(rules, match.to_position(), seat))(rng)
            assert deal.observe(seat).tobytes() == match.observe(seat).tobytes()
            assert deal.to_move() == match.to_move()
            if match.to_move() == seat:
                assert list(deal.legal_actions()) == list(match.legal_actions())
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_a_loaded_position_gives_the_view_and_deals_of_the_played_game(backend: str) -> None:
    """ER-HID-12, ER-HID-13 on games loaded from positions saved along play (as a driver that
    holds only a position has them): the loaded game saves the very position, has the same
    public view for each seat, shows each seat what the played game shows, and every deal from
    its view shows the seat that too."""
    rules = EarthRebornRules(backend=backend)
    rng = np.random.default_rng(5)
    checked = 0
    for i, match in enumerate(positions_of_games(rules, range(2), rng)):
        if i % 4:
            continue
        position = json.loads(json.dumps(match.to_position()))
        loaded = rules.from_position(copy.deepcopy(position))
        assert loaded.to_position() == position
        assert loaded.to_move() == match.to_move()
        for seat in (0, 1):
            view = view_of(rules, loaded.to_position(), seat)
            assert view.position == view_of(rules, position, seat).position
            assert loaded.observe(seat).tobytes() == match.observe(seat).tobytes()
            deal = dealer(view)(rng)
            assert deal.observe(seat).tobytes() == match.observe(seat).tobytes()
            if match.to_move() == seat:
                assert list(deal.legal_actions()) == list(loaded.legal_actions())
                assert list(loaded.legal_actions()) == list(match.legal_actions())
            checked += 1
    assert checked > 20


def test_the_view_holds_nothing_the_seat_may_not_see() -> None:
    """ER-HID-2, -6, -7, ER-HID-13: the opponent's hand, the bag, the discard and the generator
    are counts or gone; the unseen pool is exactly those tiles."""
    rules = EarthRebornRules()
    rng = np.random.default_rng(3)
    for i, match in enumerate(positions_of_games(rules, range(1), rng)):
        if i % 10:
            continue
        position = match.to_position()
        for seat, me in enumerate(rules.agents):
            other = rules.agents[1 - seat]
            view = view_of(rules, position, seat).position
            public = view["position"]
            assert public["players"][other]["hand"] == [] and public["bag"] == []
            assert public["rng"] is None and public["dice_queue"] == []
            assert public["players"][me]["hand"] == position["players"][me]["hand"]
            hidden = position["players"][other]["hand"] + position["bag"]
            if public["discard"] == []:
                hidden += position["discard"]
            assert view["unseen"] == sorted(hidden)
            assert view["hidden"]["hand"] == len(position["players"][other]["hand"])


def test_what_is_hidden_does_not_change_the_view() -> None:
    """ER-HID-12, ER-HID-13: a game that differs only in the opponent's tiles and the bag's
    order (hidden_variant) has the same public view."""
    rules = EarthRebornRules()
    rng = np.random.default_rng(11)
    compared = 0
    for i, match in enumerate(positions_of_games(rules, range(2), rng)):
        seat = int(match.to_move())
        variant = hidden_variant(match, seat, rng) if i % 5 == 0 else None
        if variant is None:
            continue
        assert variant.to_position() != match.to_position()
        view = view_of(rules, match.to_position(), seat).position
        assert view_of(rules, variant.to_position(), seat).position == view
        compared += 1
    assert compared > 10


def test_deals_differ_and_keep_the_counts() -> None:
    """ER-HID-13: the unseen pool is dealt anew each time (same counts, every tile once)."""
    rules = EarthRebornRules()
    match = rules.new_match(5, {})
    while match.peek().decision == "mulligan":
        match.apply(match.legal_actions()[0])
    position = match.to_position()
    deal = dealer(view_of(rules, position, 0))
    rng = np.random.default_rng(0)
    hands = set()
    for _ in range(20):
        dealt = deal(rng).to_position()
        other = dealt["players"]["salemite"]
        assert len(other["hand"]) == len(position["players"]["salemite"]["hand"])
        assert len(dealt["bag"]) == len(position["bag"])
        assert sorted(other["hand"] + dealt["bag"] + dealt["discard"]) == sorted(
            position["players"]["salemite"]["hand"] + position["bag"] + position["discard"]
        )
        hands.add(tuple(other["hand"]))
    assert len(hands) > 1


def test_env_view_reads_the_env_in_play() -> None:
    env = registry.get(GAME).make_env()
    env.reset(seed=4)
    agent = env.agent_selection
    view = env_view(env, agent)
    assert view.seat == env.possible_agents.index(agent)
    assert (
        view.position == view_of(env.unwrapped.rules, env.unwrapped.get_state(), view.seat).position
    )


def test_a_view_that_is_not_one_is_refused_by_name() -> None:
    """Bad input never loads: the format, the seat, the counts and the tiles are checked."""
    rules = EarthRebornRules()
    position = rules.new_match(1, {}).to_position()
    view = view_of(rules, position, 0).position
    short = {**view, "unseen": view["unseen"][1:]}
    twice = {**view, "unseen": [view["unseen"][0]] * len(view["unseen"])}
    for seat, bad, words in (
        (0, {}, "format"),
        (1, view, "seat"),
        (0, short, "add up"),
        (0, twice, "ER-TILE-11"),
    ):
        with pytest.raises(PositionError, match=words):
            dealer(PublicView(rules, seat, bad))
    with pytest.raises(ValueError, match="seat must be"):
        view_of(rules, position, 2)


def test_the_discard_is_seen_only_at_the_seats_own_choose_discard() -> None:
    """ER-HID-7, ER-HID-13: at his CHOOSE_DISCARD the decider sees the discard, so his deals
    keep it; the opponent's deals shuffle it with the other unseen tiles."""
    rules = EarthRebornRules()
    rng = np.random.default_rng(0)
    match = next(
        m
        for m in positions_of_games(rules, range(10), rng)
        if m.peek().decision == "choose_discard" and len(m.peek().discard) > 1
    )
    position, decider = match.to_position(), int(match.to_move())
    mine = view_of(rules, position, decider).position
    theirs = view_of(rules, position, 1 - decider).position
    assert mine["position"]["discard"] == position["discard"] and mine["hidden"]["discard"] is None
    assert theirs["position"]["discard"] == []
    assert theirs["hidden"]["discard"] == len(position["discard"])

    def discards(seat: int) -> set[tuple[str, ...]]:
        deal = dealer(view_of(rules, position, seat))
        return {tuple(deal(rng).to_position()["discard"]) for _ in range(10)}

    assert discards(decider) == {tuple(position["discard"])}
    assert len(discards(1 - decider)) > 1


def test_a_secret_duel_bid_is_dealt_from_the_askers_pool(tmp_path: Path) -> None:
    """ER-HID-10, ER-INI-8, ER-HID-13: at DUEL_ANSWER the holder does not see the asker's bid;
    his view drops it and each deal draws one in 1..the asker's pool, his observation unchanged."""
    duel_scenario(tmp_path)  # writes tmp_path/vault_raid.toml
    rules = EarthRebornRules(scenario=str(tmp_path / "vault_raid.toml"))
    assert rules.scenario.initiative_duel
    match = rules.new_match(2, {})
    while match.peek().decision == "mulligan":
        match.apply(rules.parse_action("MULLIGAN_KEEP"))
    assert match.peek().decision == "duel_ask"
    asker = int(match.to_move())
    match.apply(rules.parse_action("DUEL_BID(1)"))
    holder = int(match.to_move())
    assert match.peek().decision == "duel_answer" and holder == 1 - asker
    position = match.to_position()
    view = view_of(rules, position, holder).position
    assert view["hidden"]["bid"] and view["position"]["players"][rules.agents[asker]]["bid"] is None
    deal = dealer(view_of(rules, position, holder))
    rng = np.random.default_rng(1)
    bids = set()
    for _ in range(30):
        dealt = deal(rng)
        assert dealt.observe(holder).tobytes() == match.observe(holder).tobytes()
        bids.add(dealt.peek().bids[asker])
    assert bids <= set(range(1, match.peek().cp[asker] + 1)) and len(bids) > 1
    assert not view_of(rules, position, asker).position["hidden"]["bid"]  # his own bid he knows
