"""Batched bots give and take back their generators' state (``KeepsRngState``), so a trainer's
checkpoint resumes its opponents mid-game: a batch put back to a saved state plays on exactly as
the batch that never stopped."""

from __future__ import annotations

import numpy as np
import pytest

from reborn_env.bots.batched import KeepsRngState, batched_bot
from reborn_env.core import registry

BOTS = [(game, bot) for game in registry.names() for bot in [*registry.get(game).bots, "random"]]
SLOTS = 3


def positions(game: str, steps: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``steps`` rounds of ``SLOTS`` games of ``game`` played by the random bot: each round's
    (slots, observations, masks) as a batched bot is asked them."""
    venv = registry.get(game).make_vector_env(SLOTS, 4)
    player = batched_bot(game, "random", [7, 8, 9])
    venv.reset()
    rounds = []
    for _ in range(steps):
        slots = np.arange(SLOTS, dtype=np.int64)
        obs, mask = venv.obs.copy(), venv.mask.copy()
        rounds.append((slots, obs, mask))
        venv.step(player.act(slots, obs, mask))
    venv.close()
    return rounds


@pytest.mark.parametrize(("game", "bot"), BOTS)
def test_a_batch_put_back_to_its_saved_state_plays_on_as_the_one_that_never_stopped(
    game: str, bot: str
) -> None:
    rounds = positions(game, 30)
    straight = batched_bot(game, bot, [1, 2, 3])
    assert isinstance(straight, KeepsRngState)
    for slots, obs, mask in rounds[:10]:
        straight.act(slots, obs, mask)
    saved = straight.rng_state()
    expected = [straight.act(*row).tolist() for row in rounds[10:]]
    resumed = batched_bot(game, bot, [1, 2, 3])
    resumed.set_rng_state(saved)
    assert [resumed.act(*row).tolist() for row in rounds[10:]] == expected


def test_a_state_for_another_number_of_slots_is_refused() -> None:
    """Bad input: a clear error, and the batch's generators unchanged."""
    game = registry.default_name()
    batch = batched_bot(game, "random", [1, 2, 3])
    before = batch.rng_state()
    with pytest.raises(ValueError, match="a list of 3 slots' states, got 2"):
        batch.set_rng_state(before[:2])
    assert batch.rng_state() == before
