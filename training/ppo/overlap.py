"""Learning while playing: the PPO loop's update on a second thread while the next rollout is
collected, so that a run uses two cores without torch's own threads.

With ``overlap`` (a run's config) the loop hands each update to a worker thread and collects the
next rollout meanwhile, played by :attr:`~training.ppo.state.Trainer.actor`, a copy of the
network as the update began. torch releases the GIL inside its operations and the compiled core
inside its steps, so on two cores the two run side by side; on a machine another job keeps busy
they share what is left, without the spinning that makes torch's second thread slow there
(``docs/training.md``, "Hardware").

The price is one update of policy lag: update ``k + 1`` learns from games that the weights
before update ``k`` played. Taken as it comes, such a batch starts the update off its clip range
(the ratio is to the policy that played it), and the shipped recipe learnt less (the PPO model
card). So a lagged batch reaches the update as decoupled PPO hands it over (Hilton et al., 2022,
"Batch size-invariance for policy optimization"; :func:`as_played_now`): the ratio and its
clipping are taken against the weights the update begins with, the proximal policy, and each
advantage is weighted by the importance of the action under those weights to the weights that
played it.

An overlapped run is deterministic. The rollout alone draws from the run's generator and from
torch's; the update shuffles its minibatches with a generator of its own (:func:`update_rng`).
An update that ends on a checkpoint, and the run's last, runs alone, so a run resumed from any
checkpoint continues as the uninterrupted run does.
"""

from __future__ import annotations

import copy
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import torch

from reborn_env.policies.network import to_host, to_network
from training.ppo.rollout import Rollout, collect_rollout

if TYPE_CHECKING:
    from reborn_env.policies.network import MaskedActorCritic
    from training.ppo.loss import Batch, Update
    from training.ppo.state import Trainer


def update_rng(seed: int, update: int) -> np.random.Generator:
    """The generator an overlapped update shuffles its minibatches with: one stream per run and
    update, apart from the run's generator, which the rollout collected meanwhile draws from."""
    return np.random.default_rng([seed, update])


def start_acting(trainer: Trainer) -> None:
    """Give the run its :attr:`~training.ppo.state.Trainer.actor`: the network's copy, with no
    gradients, that the rollouts play from now on."""
    actor = copy.deepcopy(trainer.model)
    actor.requires_grad_(False)
    trainer.actor = actor


def runs_alone(trainer: Trainer, last: int) -> bool:
    """Whether the coming update runs without a rollout beside it: it ends on a checkpoint or is
    the run's ``last``, so nothing collected for the next update is left in flight there."""
    after = trainer.update + 1
    return after >= last or after % trainer.cfg.checkpoint_every == 0


def as_played_now(model: MaskedActorCritic, batch: Batch) -> Batch:
    """``batch``, played by the weights before the last update, as decoupled PPO hands it to an
    update that begins with ``model``'s: the log-probabilities of the actions taken under
    ``model`` (the proximal policy, which the ratio and its clipping are taken against; float32,
    as the rollout played), and each advantage times ``pi_model(a) / pi_played(a)``."""
    with torch.no_grad():
        obs, masks = to_network(model, batch.obs), to_network(model, batch.masks)
        log_probs, _ = model.log_probs_and_value(obs, masks)
        taken = to_network(model, batch.actions).unsqueeze(-1)
        proximal = to_host(log_probs.gather(-1, taken).squeeze(-1))
    importance = (proximal - batch.logprobs).exp()
    return replace(batch, logprobs=proximal, advantages=batch.advantages * importance)


def learn_while_collecting(
    trainer: Trainer, learn: Update, batch: Batch, collect: bool, lagged: bool
) -> tuple[dict[str, float], Rollout | None]:
    """Run the update on ``batch`` (``lagged``: played by the weights before the last update,
    then handed over by :func:`as_played_now`), and with ``collect`` the next rollout meanwhile;
    (the update's statistics, the rollout or None). The actor takes the updated weights at the
    end."""
    rng = update_rng(trainer.cfg.seed, trainer.update)

    def timed_update() -> tuple[dict[str, float], float]:
        start = time.perf_counter()
        played = as_played_now(trainer.model, batch) if lagged else batch
        stats = learn(trainer.model, trainer.optimizer, played, rng, trainer.update)
        return stats, time.perf_counter() - start

    rollout = None
    if collect:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ppo-update") as pool:
            future = pool.submit(timed_update)
            try:
                rollout = collect_rollout(trainer)
            finally:
                stats, took = future.result()
    else:
        stats, took = timed_update()
    trainer.timers.learning += took
    trainer.actor.load_state_dict(trainer.model.state_dict())
    return stats, rollout
