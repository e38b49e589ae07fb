"""Learning while playing: the PPO loop's update on a second thread while the next rollout is
collected, so that a run uses two cores without torch's own threads.

With ``overlap`` (a run's config) the loop hands each update to a worker thread and collects the
next rollout meanwhile, played by :attr:`~training.ppo.state.Trainer.actor`, a copy of the
network as the update began. torch releases the GIL inside its operations and the compiled core
inside its steps, so on two cores the two run side by side; on a machine another job keeps busy
they share what is left, without the spinning that makes torch's second thread slow there
(``docs/training.md``, "Hardware").

The price is one update of policy lag, as in asynchronous PPO: update ``k + 1`` learns from games
that the weights before update ``k`` played, its ratio taken against the log-probabilities that
played them. At the shipped PPO recipe's settings (32 minibatch steps an update) that costs
learning: over the same 440 updates it reached 85.8% and 81.7% against the heuristic (seeds 8
and 9) where the same run without it reached 90.3% and 88.6% (``docs/measurements.md``), so no
shipped recipe turns it on and it is off by default.

An overlapped run is deterministic. The rollout alone draws from the run's generator and from
torch's; the update shuffles its minibatches with a generator of its own (:func:`update_rng`).
An update that ends on a checkpoint, and the run's last, runs alone, so a run resumed from any
checkpoint continues as the uninterrupted run does.
"""

from __future__ import annotations

import copy
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from training.ppo.rollout import Rollout, collect_rollout

if TYPE_CHECKING:
    from training.ppo.inputs import Batch, Update
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


def learn_while_collecting(
    trainer: Trainer, learn: Update, batch: Batch, collect: bool
) -> tuple[dict[str, float], Rollout | None]:
    """Run the update on ``batch``, and with ``collect`` the next rollout meanwhile; (the update's
    statistics, the rollout or None). The actor takes the updated weights at the end."""
    rng = update_rng(trainer.cfg.seed, trainer.update)

    def timed_update() -> tuple[dict[str, float], float]:
        start = time.perf_counter()
        stats = learn(trainer.model, trainer.optimizer, batch, rng, trainer.update)
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
