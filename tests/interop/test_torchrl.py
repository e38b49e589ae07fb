"""TorchRL's PettingZoo wrapper on every registered game: its spec check passes, and a rollout
whose policy reads the action mask plays a whole game exactly as the game's own env does.

TorchRL wraps an AEC env with ``use_mask=True``: one group per agent, a ``"mask"`` saying which
group acts at this step, the ``action_mask`` taken out of the observation into each group (all
True for a group that is not to act), and every agent's reward of the step.
"""

from __future__ import annotations

import functools
import warnings

import pytest
import torch
from tensordict import TensorDictBase
from torchrl.envs import SerialEnv
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

from reborn_env.core import registry

from .helpers import GAMES, SEED, Decision, assert_same_game, step_limit

BATCH = 2  # the envs of a batched env


def wrapped(name: str) -> PettingZooWrapper:
    """The game's AEC env as TorchRL wraps it (its warning that it is tested with another
    PettingZoo version silenced)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        return PettingZooWrapper(registry.get(name).make_env(), use_mask=True)


class MaskedRandomPolicy:
    """Each group's action drawn uniformly from its ``action_mask``: TorchRL's own random actions
    follow the mask only where the spec carries it (not through a batched env)."""

    def __init__(self, group_map: dict[str, list[str]], seed: int) -> None:
        self.groups = list(group_map)
        self.generator = torch.Generator().manual_seed(seed)

    def __call__(self, td: TensorDictBase) -> TensorDictBase:
        for group in self.groups:
            mask = td.get((group, "action_mask")).float()
            drawn = torch.multinomial(mask.flatten(0, -2), 1, generator=self.generator)
            td.set((group, "action"), drawn.reshape(mask.shape[:-1]))
        return td


def decision_at(group_map: dict[str, list[str]], step: TensorDictBase) -> Decision:
    """The decision a step of one env records: that of the group whose ``mask`` is set."""
    acting = [g for g in group_map if step.get((g, "mask")).item()]
    assert len(acting) == 1, f"one group acts at each step of a turn-based game: {acting}"
    group = acting[0]
    return Decision(
        agent=group_map[group][0],
        observation=step.get((group, "observation", "observation"))[0].numpy(),
        mask=step.get((group, "action_mask"))[0].numpy(),
        action=int(step.get((group, "action"))[0]),
        rewards={
            agents[0]: float(step.get(("next", g, "reward"))[0, 0])
            for g, agents in group_map.items()
        },
    )


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
        policy=MaskedRandomPolicy(env.group_map, SEED),
        auto_reset=False,
        tensordict=env.reset(seed=SEED),
        break_when_any_done=True,
    )
    done = rollout.get(("next", "done"))[:, 0]
    assert done[-1] and not done[:-1].any(), "the rollout stops at the game's end, not before"
    decisions = [decision_at(env.group_map, step) for step in rollout.unbind(0)]
    returns = assert_same_game(name, SEED, decisions)
    for group, (agent,) in env.group_map.items():
        paid = rollout.get(("next", group, "reward")).sum().item()
        assert paid == pytest.approx(returns[agent]), (group, paid, returns)
    last = rollout[-1].get("next")
    assert all(
        last.get((g, "terminated")).all() or last.get((g, "truncated")).all() for g in env.group_map
    )


@pytest.mark.parametrize("name", GAMES)
def test_a_batched_env_plays_whole_games_with_a_policy_that_reads_the_mask(name: str) -> None:
    """A ``SerialEnv`` keeps no per-step mask in its spec, so its own random actions ignore the
    mask (docs/interop.md); with a policy that reads each group's ``action_mask`` it plays, and
    the first game of each env (env ``i`` reset with ``SEED + i``) is the game its own env plays.
    An env whose game ended is reset at once and plays on until every env has ended one."""
    group_map = wrapped(name).group_map
    env = SerialEnv(BATCH, functools.partial(wrapped, name))
    policy = MaskedRandomPolicy(group_map, SEED)
    td = env.reset(list_of_kwargs=[{"seed": SEED + i} for i in range(BATCH)])
    games: list[list[Decision]] = [[] for _ in range(BATCH)]
    playing = set(range(BATCH))
    while playing:
        stepped, td = env.step_and_maybe_reset(policy(td))
        for i in sorted(playing):
            games[i].append(decision_at(group_map, stepped[i]))
            if stepped.get(("next", "done"))[i].item():
                playing.discard(i)
            assert len(games[i]) <= step_limit(name)
    for i, decisions in enumerate(games):
        assert_same_game(name, SEED + i, decisions)
