"""TorchRL's PettingZoo wrapper on every registered game: its spec check passes, and a rollout
whose policy reads the action mask plays a whole game exactly as the game's own env does.

TorchRL wraps an AEC env with ``use_mask=True``: one group per agent, a ``"mask"`` saying which
group acts at this step, the ``action_mask`` taken out of the observation into each group (all
True for a group that is not to act), and every agent's reward of the step.
"""

from __future__ import annotations

import warnings

import pytest
import torch
from tensordict import TensorDictBase
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

from reborn_env.core import registry

from .helpers import GAMES, SEED, Decision, assert_same_game, step_limit


def wrapped(name: str) -> PettingZooWrapper:
    """The game's AEC env as TorchRL wraps it (its warning that it is tested with another
    PettingZoo version silenced)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        return PettingZooWrapper(registry.get(name).make_env(), use_mask=True)


class MaskedRandomPolicy:
    """Each group's action drawn uniformly from its ``action_mask``: TorchRL's own random actions
    follow the mask only where the spec carries it (not through a batched env's workers)."""

    def __init__(self, env: PettingZooWrapper, seed: int) -> None:
        self.groups = list(env.group_map)
        self.generator = torch.Generator().manual_seed(seed)

    def __call__(self, td: TensorDictBase) -> TensorDictBase:
        for group in self.groups:
            mask = td.get((group, "action_mask")).float()
            td.set((group, "action"), torch.multinomial(mask, 1, generator=self.generator)[..., 0])
        return td


def decisions_of(env: PettingZooWrapper, rollout: TensorDictBase) -> list[Decision]:
    """The game's decisions, one per step of ``rollout``: the group whose ``mask`` is set."""
    decisions = []
    for step in rollout.unbind(0):
        acting = [g for g in env.group_map if step.get((g, "mask")).item()]
        assert len(acting) == 1, f"one group acts at each step of a turn-based game: {acting}"
        group = acting[0]
        decisions.append(
            Decision(
                agent=env.group_map[group][0],
                observation=step.get((group, "observation", "observation"))[0].numpy(),
                mask=step.get((group, "action_mask"))[0].numpy(),
                action=int(step.get((group, "action"))[0]),
                rewards={
                    env.group_map[g][0]: float(step.get(("next", g, "reward"))[0, 0])
                    for g in env.group_map
                },
            )
        )
    return decisions


@pytest.mark.parametrize("name", GAMES)
def test_check_env_specs(name: str) -> None:
    """TorchRL's own check: a short random rollout (its actions drawn from the spec's mask)
    matches the specs. It starts at a seeded game and runs on through a game's end, because
    TorchRL draws one more action after its rollout from the mask of the last state, which is
    empty where the game ended (docs/interop.md)."""
    env = wrapped(name)
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        check_env_specs(env, tensordict=env.reset(seed=SEED), break_when_any_done=False)


@pytest.mark.parametrize("name", GAMES)
def test_a_masked_rollout_plays_a_whole_game(name: str) -> None:
    env = wrapped(name)
    rollout = env.rollout(
        step_limit(name),
        policy=MaskedRandomPolicy(env, SEED),
        auto_reset=False,
        tensordict=env.reset(seed=SEED),
        break_when_any_done=True,
    )
    done = rollout.get(("next", "done"))[:, 0]
    assert done[-1] and not done[:-1].any(), "the rollout stops at the game's end, not before"
    returns = assert_same_game(name, SEED, decisions_of(env, rollout))
    for group, (agent,) in env.group_map.items():
        paid = rollout.get(("next", group, "reward")).sum().item()
        assert paid == pytest.approx(returns[agent]), (group, paid, returns)
    last = rollout[-1].get("next")
    assert all(
        last.get((g, "terminated")).all() or last.get((g, "truncated")).all() for g in env.group_map
    )
