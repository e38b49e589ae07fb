"""Self-play toward Nash on Kuhn poker, measured exactly (nash.py): the trainers and the exact
best response together. The comparison of the algorithms over seeds is ``python -m
tests.games.kuhn_poker.nash``; here, that a short run of each is measured and learns."""

from __future__ import annotations

import pytest
import torch

from reborn_env.policies.network import build_model

from . import nash

UNIFORM = 0.458
"""The uniform policy's exploitability in chips (KP-END-1)."""


def test_the_uniform_policy_is_measured_at_its_known_exploitability():
    """A network whose logits are all 0 plays uniformly: 0.458 chips (11/24)."""
    env = nash.registry.get(nash.GAME).make_env()
    env.reset(seed=0)
    obs_size = env.observation_space(env.agents[0])["observation"].shape[0]
    network = build_model(obs_size, env.action_space(env.agents[0]).n, [4])
    with torch.no_grad():
        network.policy.weight.zero_()
        network.policy.bias.zero_()
    assert nash.exploitability(network) == pytest.approx(11 / 24)


@pytest.mark.parametrize("algorithm", list(nash.ALGORITHMS))
def test_a_short_self_play_run_moves_toward_nash(tmp_path, algorithm):
    """20 updates of self-play take each algorithm's policy from about the uniform policy's
    exploitability to at least 0.1 chip below it."""
    found = nash.curve(algorithm, 0, updates=20, every=20, folder=tmp_path)
    assert found[-1] < UNIFORM - 0.1, found
