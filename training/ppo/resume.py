"""What a run's checkpoints hold, and how ``--resume`` puts the run back exactly where it was.

:func:`run_payload` is the dict ``reborn_env/policies/artifact.py`` saves: with ``full=False``
only what a bot needs (``policy.pt``); in full (``latest.pt``) also the optimiser, the opponent
pool, every generator's state (the opponent bots' too), the restart positions, the recent
episodes' returns and every slot of the game vector parked at its next learner decision (its
position, its seed state and its seats), so :func:`restore_run` continues the run as if it had
never stopped. A checkpoint that cannot continue this config's run (a policy file, other network
sizes or env count, a position the env refuses, a run of the trainer before the game vector) is a
:class:`CheckpointError` that says so.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from reborn_env.policies import artifact
from reborn_env.policies.artifact import (
    CheckpointError,
    check_network,
    load_checkpoint,
    save_checkpoint,
)
from reborn_env.policies.network import host_state, network_entry, network_options
from training.common.envs import env_version
from training.ppo.state import RECENT_RETURNS
from training.runs.run_files import LATEST, POLICY

if TYPE_CHECKING:
    from training.ppo.state import Trainer

RESUME_KEYS = (
    "optimizer",
    "pool",
    "rng",
    "slots",
    "global_step",
    "env_steps",
    "update",
    "history",
    "wall_time",
)
"""What a checkpoint needs beyond a policy's entries to continue a run (``latest.pt``)."""


def on_host(value: Any) -> Any:
    """``value`` (an optimiser's state: nested dicts and lists of tensors) with every tensor on
    the CPU, so a checkpoint of a run on a GPU loads anywhere."""
    if isinstance(value, torch.Tensor):
        return value.cpu()
    if isinstance(value, dict):
        return {k: on_host(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(on_host(v) for v in value)
    return value


def run_payload(trainer: Trainer, full: bool = True) -> dict[str, Any]:
    """What a checkpoint holds; ``full=False`` keeps only what a bot needs (small files)."""
    data: dict[str, Any] = {
        "format": artifact.FORMAT,
        "version": artifact.VERSION,
        "env": {
            "name": trainer.cfg.env,
            "version": env_version(trainer.cfg.env),
            "obs_size": trainer.model.obs_size,
            "n_actions": trainer.model.n_actions,
            "agents": list(trainer.venv.agents),
        },
        "config": trainer.cfg.to_dict(),
        "model": host_state(trainer.model),
        "network": network_entry(trainer.model),
        "global_step": trainer.global_step,
        "env_steps": trainer.env_steps,
        "update": trainer.update,
        "history": copy.deepcopy(trainer.history),
        "wall_time": trainer.wall_time,
    }
    if full:
        data["optimizer"] = on_host(trainer.optimizer.state_dict())
        data["pool"] = trainer.opponents.snapshots
        data["opponents"] = trainer.opponents.state()
        data["rng"] = {
            "torch": torch.get_rng_state(),
            "numpy": trainer.np_rng.bit_generator.state,
            "python": random.getstate(),
        }
        data["finished_returns"] = trainer.finished_returns[-RECENT_RETURNS:]
        if trainer.restarts.probability:
            data["restarts"] = trainer.restarts.state()
        parked = [parked_slot(trainer, i) for i in range(trainer.venv.num_envs)]
        data["slots"] = json.dumps(parked, separators=(",", ":")).encode()
    return data


def parked_slots(data: dict[str, Any], path: Path | str = "") -> list[dict[str, Any]]:
    """The parked slots of a full checkpoint: JSON bytes, one field (its checksum is one hash
    update, not one per value of 256 positions: a third of a save's time went there), or the
    list of dicts that ``latest.pt`` files before that held."""
    slots = data["slots"]
    if isinstance(slots, list):
        return slots
    try:
        parked = json.loads(slots)
    except (TypeError, ValueError) as exc:  # bytes that are not JSON, or not bytes at all
        raise CheckpointError(f"{path}: its parked slots are not readable JSON: {exc}") from exc
    if not isinstance(parked, list) or not all(isinstance(p, dict) for p in parked):
        raise CheckpointError(f"{path}: its parked slots are not a list of slots")
    return parked


def save_run(trainer: Trainer, folder: Path) -> None:
    """Write the run's ``latest.pt`` (to resume from) and ``policy.pt`` (for bots) in ``folder``."""
    save_checkpoint(folder / LATEST, run_payload(trainer))
    save_checkpoint(folder / POLICY, run_payload(trainer, full=False))


def resume_run(trainer: Trainer, path: Path) -> None:
    """Continue the run whose checkpoint (its ``latest.pt``) is ``path``: :func:`restore_run`."""
    obs_size, n_actions = trainer.model.obs_size, trainer.model.n_actions
    restore_run(trainer, load_checkpoint(path, trainer.cfg.env, obs_size, n_actions), path)


def restore_run(trainer: Trainer, data: dict[str, Any], path: Path) -> None:
    """Continue a run exactly where its checkpoint at ``path`` left it (``--resume``);
    :class:`CheckpointError` if it cannot continue this config's run."""
    check_resumable(trainer, data, path)
    trainer.model.load_state_dict(data["model"])
    trainer.optimizer.load_state_dict(data["optimizer"])
    opponents = data.get("opponents", {})
    trainer.opponents.restore(
        list(data["pool"]), opponents.get("ids"), opponents.get("scores"), opponents.get("taken")
    )
    try:
        trainer.opponents.rebuild(opponents.get("built", []), trainer.model)
    except (IndexError, TypeError) as exc:
        raise CheckpointError(f"{path}: its list of built snapshots is refused: {exc}") from exc
    trainer.global_step, trainer.update = data["global_step"], data["update"]
    trainer.env_steps = data["env_steps"]
    trainer.history, trainer.wall_time = list(data["history"]), data["wall_time"]
    trainer.finished_returns = list(data.get("finished_returns", []))
    if "restarts" in data:
        try:
            trainer.restarts.restore(data["restarts"])
        except (TypeError, ValueError) as exc:  # not JSON, or not a reservoir
            raise CheckpointError(f"{path}: its restart positions are not readable: {exc}") from exc
    for i, saved in enumerate(parked_slots(data, path)):
        try:
            unpark_slot(trainer, i, saved)
        except ValueError as exc:  # PositionError, ScenarioError: the env refuses it
            raise CheckpointError(f"{path}: slot {i}'s saved position is refused: {exc}") from exc
    try:
        trainer.opponents.restore_bots(opponents.get("bots", {}))
    except (IndexError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{path}: its bots' generator states are refused: {exc}") from exc
    # last: making the opponents' networks and bots above draws from torch's generator
    torch.set_rng_state(data["rng"]["torch"])
    trainer.np_rng.bit_generator.state = data["rng"]["numpy"]
    random.setstate(data["rng"]["python"])


def check_resumable(trainer: Trainer, data: dict[str, Any], path: Path) -> None:
    """The checkpoint holds a whole run whose networks and env count fit this config."""
    missing = [key for key in RESUME_KEYS if key not in data]
    if "envs" in data and "slots" in missing:
        raise CheckpointError(
            f"{path}: written by the trainer before its game vector (it saved AEC envs, not "
            "vector slots): its policy still plays, but its run cannot be resumed; start the run "
            "again (--overwrite)"
        )
    if missing:
        raise CheckpointError(
            f"{path}: not a checkpoint to resume from (a policy file?): it lacks "
            f"{', '.join(missing)}"
        )
    network = network_options(network_entry(trainer.model))
    sizes = (trainer.model.obs_size, trainer.model.n_actions, trainer.cfg.hidden_sizes, network)
    check_network(path, "model", data["model"], *sizes)
    for i, snapshot in enumerate(data["pool"]):
        check_network(path, f"pool[{i}]", snapshot, *sizes)
    played = len(parked_slots(data, path))
    if played != trainer.venv.num_envs:
        raise CheckpointError(
            f"{path}: the run played {played} envs; this config's num_envs is "
            f"{trainer.venv.num_envs}: resume with the run's num_envs"
        )


def parked_slot(trainer: Trainer, i: int) -> dict[str, Any]:
    """Slot ``i`` waiting at a learner decision: its position, seed state and seats."""
    slots, venv = trainer.slots, trainer.venv
    return {
        "position": venv.get_state(i),
        "seed_state": venv.seed_state(i),
        "learners": [venv.agents[k] for k in map(int, slots.learner[i].nonzero()[0])],
        "opponent": slots.opponent[i],
        "episode_return": float(slots.episode_return[i]),
    }


def unpark_slot(trainer: Trainer, i: int, saved: dict[str, Any]) -> None:
    """Put slot ``i`` back as :func:`parked_slot` saved it."""
    slots, venv = trainer.slots, trainer.venv
    venv.set_state(i, saved["position"])
    venv.set_seed_state(i, saved["seed_state"])
    slots.learner[i] = [agent in saved["learners"] for agent in venv.agents]
    slots.opponent[i] = saved["opponent"]
    slots.episode_return[i] = saved["episode_return"]
    slots.last_row[i] = -1
    trainer.opponents.start(i, slots.opponent[i])
