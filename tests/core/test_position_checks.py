"""Positions of both rulesets, checked two ways (a round trip and a mutation fuzz), at CI size.

Rule ids: ER-GEN-3 and HV-STATE-1..7 (a position is the whole game state), ER-TILE-11 and HV-EXH-3
(conservation the loader enforces), ER-ENV-8 / HV-API-5 (bad input changes nothing).

- Round trip at every decision of games between every ordered pair of players (random, scripted,
  the shipped policy): the restored game gives the same position, observations, masks, and after
  the same action the same position and rewards.
- Mutation fuzz: positions from such games, broken in many ways, are each refused with
  PositionError (the previous game intact) or accepted and then played to the end soundly.

``benchmarks/round_trip.py`` and ``benchmarks/position_fuzz.py`` run the same checks at scale.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import torch

from reborn_env import earth_reborn_v0, haven_v0
from reborn_env.bots.loading import load_bot
from reborn_env.core.position_fuzz import collect_positions, fuzz_positions
from reborn_env.core.round_trip import play_round_trip_game
from reborn_env.games.earth_reborn import fuzz_policies as er_fuzz
from reborn_env.games.haven import fuzz_policies as haven_fuzz

torch.set_num_threads(1)

CHECKPOINTS = Path(__file__).resolve().parents[2] / "checkpoints"
# env name -> (factory, per-step check of the agent to move, shipped policy)
GAMES = {
    "earth_reborn_v0": (earth_reborn_v0.env, er_fuzz.check_step, "earth_reborn_ppo.pt"),
    "haven_v0": (haven_v0.env, haven_fuzz.check_step, "haven_ppo.pt"),
}
KINDS = ("random", "heuristic", "policy")


def _players(name: str, kinds: tuple[str, ...], seed: int) -> dict:
    make, _, policy = GAMES[name]
    agents = make().possible_agents
    specs = {k: str(CHECKPOINTS / policy) if k == "policy" else k for k in KINDS}
    return {
        a: load_bot(specs[k], name, seed=seed + i)
        for i, (a, k) in enumerate(zip(agents, kinds, strict=True))
    }


def _check(name: str):
    check_step = GAMES[name][1]
    return lambda env: check_step(env, env.agent_selection)


@pytest.mark.parametrize("game", range(3))
@pytest.mark.parametrize("kinds", list(itertools.product(KINDS, repeat=2)), ids="-".join)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_decision_round_trips_for_every_pair_of_players(name, kinds, game):
    """ER-GEN-3 / HV-STATE: before every decision, the position restored into a twin env is the
    same game (heuristic play reaches deaths, policy play its own lines, random play the rest)."""
    seed = 100 + 10 * game + KINDS.index(kinds[0]) * 3 + KINDS.index(kinds[1])
    report = play_round_trip_game(GAMES[name][0], _players(name, kinds, seed), seed, _check(name))
    assert report.decisions > 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_mutated_positions_are_refused_cleanly_or_play_on_soundly(name):
    """Mutations of real positions (types, ranges, deletions, duplicates, extra keys, moved
    items, swapped fields, borrowed ids) are refused with PositionError and the previous game
    intact, or accepted and played to the end with the invariants holding: nothing crashes."""
    make = GAMES[name][0]
    positions = collect_positions(
        make, lambda g: _players(name, (KINDS[g % 3],) * 2, g), games=9, per_game=8, seed=1
    )
    report = fuzz_positions(make, positions, mutations=1500, check=_check(name), seed=2)
    assert report.crashes == []
    assert report.tried == 1500 and report.refused > 0 and report.accepted > 0
