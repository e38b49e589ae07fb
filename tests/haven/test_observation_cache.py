"""The observer's speed-ups change no value (16.5): each observation starts from a per-seat blank
vector and modifier piles are counted once per composition (``Observer.pile_counts``).

Rule ids: 16.5 (contents: the agent one-hot, terrain and modifier deck counts), HV-AMD-1..4 (the
decks whose piles are counted).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from reborn_env.games.haven import observation
from reborn_env.games.haven.observation import Observer
from reborn_env.games.haven.rules.engine import HavenGame, new_game
from reborn_env.games.haven.scenario.loader import load_scenario

SCN = load_scenario()


def played_games(seeds: range, steps: int = 400) -> list[tuple[HavenGame, int]]:
    """Copies of the games of uniformly random play, one per decision, with the seat to move."""
    out = []
    for seed in seeds:
        game, rng = new_game(SCN, seed=seed), random.Random(seed)
        for _ in range(steps):
            if game.prompt is None:
                break
            out.append((game.clone(), game.prompt.agent))
            game.apply(rng.choice(game.legal_actions()))
    return out


def test_warm_pile_cache_gives_the_observation_a_cold_one_gives() -> None:
    """16.5 / HV-AMD-1..4: every decision of three games, seen by both seats, is the same vector
    from an observer whose pile counts are warm and from one that counts them anew each time."""
    warm, cold = Observer(SCN), Observer(SCN)
    seen = 0
    for game, _ in played_games(range(3)):
        for seat in (0, 1):
            cold.pile_counts.clear()
            assert warm.observe(game, seat).tobytes() == cold.observe(game, seat).tobytes()
            seen += 1
    assert seen > 200
    assert 0 < len(warm.pile_counts) <= observation.PILE_CACHE_SIZE


def test_pile_cache_stays_bounded_and_right_when_it_overflows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HV-AMD-1..4: with room for two compositions, the cache is emptied when full and the counts
    stay those of the piles (draw and discard per card name, scaled by the deck size)."""
    monkeypatch.setattr(observation, "PILE_CACHE_SIZE", 2)
    small, reference = Observer(SCN), Observer(SCN)
    for game, seat in played_games(range(2), steps=150):
        reference.pile_counts.clear()
        assert small.observe(game, seat).tobytes() == reference.observe(game, seat).tobytes()
        assert len(small.pile_counts) <= 2
    game = new_game(SCN, seed=5)
    deck = game.state.monster_amd
    vector = small.observe(game, 0)
    draw = small.start["monster_modifiers"] + small.modifiers_at["draw"]
    total = float(len(SCN.monster_modifier_deck))
    for k, name in enumerate(small.mod_names):
        assert vector[draw + k] == np.float32(min(deck.draw.count(name) / total, 1.0))
    assert sum(deck.draw.count(name) for name in small.mod_names) == len(deck.draw) > 0


def test_each_observation_is_a_new_array_over_an_untouched_blank() -> None:
    """16.5: the agent one-hot and the terrain come from the blank vector, copied: writing into
    one observation changes neither the next one nor the blank."""
    observer = Observer(SCN)
    game = new_game(SCN, seed=2)
    blank = [b.copy() for b in observer.blank]
    first = observer.observe(game, 0)
    first[:] = 7.0
    again = observer.observe(game, 0)
    assert not np.shares_memory(first, again)
    assert np.all(again <= 1.0)
    for kept, now in zip(blank, observer.blank, strict=True):
        assert kept.tobytes() == now.tobytes()
    agent = observer.start["agent"]
    assert again[agent] == 1.0 and again[agent + 1] == 0.0
    assert observer.observe(game, 1)[agent + 1] == 1.0
