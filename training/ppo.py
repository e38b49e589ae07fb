"""PPO for any PettingZoo AEC environment with action masks (after CleanRL's ppo.py): self-play
for competitive games, one shared policy for cooperative ones.

Run: ``python -m training.ppo --config configs/quickstart.yaml [--resume | --overwrite]``.
Everything a run needs is checked before it trains (:func:`preflight`): the config (with its env
built once), its opponents' files, and its folders (``training/run_files.py``: a run never writes
over an earlier one unless told ``--overwrite``). A user's mistake ends the command with one line
``error: ...`` and status 2 (``training/cli.py``).

Read top to bottom: seeding, environments, network, then the loop of rollout -> GAE -> PPO update
-> snapshot / evaluation / checkpoint. Every environment is stepped in lockstep and all decisions
of one policy are batched into one forward pass. Who the learner plays is the run's *seating*
(``training/seating.py``): in a competitive game it takes one seat at random and the other seat is
played by the current policy, a past snapshot from the pool or a scripted bot; in a cooperative
game it plays every agent. Only the learner's decisions are trained on, and each learner agent's
decisions form their own trajectory (a GAE stream): what happens between two of its decisions (the
opponent's or its partner's moves) is part of the environment, and the rewards that agent receives
meanwhile belong to its last decision; the team reward at the end of a cooperative game reaches
every agent's last decision.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from . import checkpoint
from .checkpoint import CheckpointError, check_network, load_checkpoint, save_checkpoint
from .cli import fail
from .config import ConfigError, TrainConfig, load_config
from .envs import COOPERATIVE, env_version, make_env
from .model import MaskedActorCritic, build_model
from .run_files import CURVE, LATEST, POLICY, RunDirError, prepare_run_dirs
from .seating import Seating, seating_for

RESUME_KEYS = (
    "optimizer",
    "pool",
    "rng",
    "envs",
    "global_step",
    "env_steps",
    "update",
    "history",
    "wall_time",
)
"""What a checkpoint needs beyond a policy's entries to continue a run (``latest.pt``)."""


def compute_stream_gae(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    links: torch.Tensor,
    bootstrap: torch.Tensor,
    gamma: float,
    gae_lambda: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimation over [T, N] tensors whose rows form streams; (advantages,
    returns).

    Column ``n`` holds the decisions made in env ``n`` in time order, possibly of several agents;
    ``links[t, n]`` is the row of the same agent's next decision in that column, or -1 if it is not
    in this rollout; then ``bootstrap[t, n]`` stands for that decision's value (the value at the
    decision the agent will take next, or 0). ``dones[t, n]`` is 1 when the episode ended after
    decision ``t``: nothing of what follows flows back.
    """
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    for t in reversed(range(steps)):
        linked = links[t] >= 0
        row = links[t].clamp(min=0).unsqueeze(0)
        following_value = torch.where(linked, values.gather(0, row)[0], bootstrap[t])
        following_adv = torch.where(linked, advantages.gather(0, row)[0], 0.0)
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * following_value * nonterminal - values[t]
        advantages[t] = delta + gamma * gae_lambda * nonterminal * following_adv
    return advantages, advantages + values


def compute_gae(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    next_value: torch.Tensor,
    gamma: float,
    gae_lambda: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE when each column is one stream: decision ``t`` is followed by ``t + 1``, the last one by
    the decision each env is parked at, whose value is ``next_value``."""
    steps = rewards.shape[0]
    links = torch.arange(1, steps + 1).unsqueeze(1).expand_as(rewards).clone()
    links[-1] = -1
    bootstrap = torch.zeros_like(rewards)
    bootstrap[-1] = next_value
    return compute_stream_gae(rewards, values, dones, links, bootstrap, gamma, gae_lambda)


def stream_links(agents: np.ndarray) -> torch.Tensor:
    """``links`` for :func:`compute_stream_gae` from the [T, N] agent index of every row: each row
    points at the next row of the same agent in its column (-1: none in this rollout).

    Rows of different episodes may be linked; the ``dones`` of the earlier one cut the link.
    """
    links = np.full(agents.shape, -1, dtype=np.int64)
    for n in range(agents.shape[1]):
        following: dict[int, int] = {}
        for t in range(agents.shape[0] - 1, -1, -1):
            agent = int(agents[t, n])
            links[t, n] = following.get(agent, -1)
            following[agent] = t
    return torch.from_numpy(links)


@dataclass
class Seat:
    """One environment's episode: which agents the learner plays and who plays the others."""

    learners: tuple[str, ...] = ()  # the agents whose decisions are trained on
    opponent: str = ""  # "self" (current policy), "pool<k>" (a snapshot), "bot:<name>"; "": none
    episode: int = 0
    last_row: dict[str, int] = field(default_factory=dict)  # agent -> row of its last decision
    episode_return: float = 0.0  # mean over the learner agents


@dataclass
class Timers:
    """Where the wall time goes: simulation, inference, learning."""

    simulation: float = 0.0
    inference: float = 0.0
    learning: float = 0.0
    evaluation: float = 0.0
    imitation: float = 0.0

    def split(self) -> str:
        total = self.simulation + self.inference + self.learning or 1.0
        return (
            f"sim {100 * self.simulation / total:.0f}% / infer {100 * self.inference / total:.0f}%"
            f" / learn {100 * self.learning / total:.0f}%"
        )


@dataclass
class Trainer:
    """The whole training state, so a checkpoint can restore it and nothing is lost."""

    cfg: TrainConfig
    model: MaskedActorCritic
    optimizer: torch.optim.Optimizer
    envs: list[Any]
    seats: list[Seat]
    np_rng: np.random.Generator
    seating: Seating
    pool: list[dict[str, torch.Tensor]] = field(default_factory=list)
    global_step: int = 0  # learner decisions
    env_steps: int = 0  # decisions of every agent
    update: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    wall_time: float = 0.0
    finished_returns: list[float] = field(default_factory=list)
    timers: Timers = field(default_factory=Timers)
    _pool_models: dict[int, nn.Module] = field(default_factory=dict)
    _bots: dict[int, dict[str, Any]] = field(default_factory=dict)

    # --- episodes and opponents -----------------------------------------------------------------

    def start_episode(self, i: int) -> None:
        """Reset env ``i`` with a fresh seed and seat the learner (and an opponent, if any)."""
        env, seat = self.envs[i], self.seats[i]
        seed = self.cfg.seed * 1_000_003 + i * 100_003 + seat.episode
        env.reset(seed=seed)
        seat.episode += 1
        seat.learners, seat.opponent = self.seating.seat(self, env)
        if seat.opponent.startswith("bot:"):
            self.bot(i, seat.opponent).reset()
        seat.last_row, seat.episode_return = {}, 0.0

    def draw_opponent(self) -> str:
        """A scripted bot with ``bot_opponent_prob``, else the current policy or a snapshot."""
        cfg = self.cfg
        if cfg.bot_opponents and self.np_rng.random() < cfg.bot_opponent_prob:
            return "bot:" + cfg.bot_opponents[int(self.np_rng.integers(len(cfg.bot_opponents)))]
        if self.pool and self.np_rng.random() >= cfg.latest_opponent_prob:
            return f"pool{int(self.np_rng.integers(len(self.pool)))}"
        return "self"

    def bot(self, i: int, key: str) -> Any:
        """Env ``i``'s own instance of a scripted opponent (bots may keep per-game state)."""
        from .evaluate import make_opponent

        bots = self._bots.setdefault(i, {})
        if key not in bots:
            bots[key] = make_opponent(key[4:], self.cfg.env, seed=self.cfg.seed + i)
        return bots[key]

    def opponent_model(self, key: str) -> nn.Module:
        """The network behind "self" or "pool<k>"."""
        if key == "self":
            return self.model
        index = int(key[4:])
        if index not in self._pool_models:
            net = build_model(self.model.obs_size, self.model.n_actions, self.cfg.hidden_sizes)
            net.load_state_dict(self.pool[index])
            self._pool_models[index] = net
        return self._pool_models[index]

    def add_snapshot(self) -> None:
        """Self-play pool: keep the latest ``pool_size`` snapshots of the policy."""
        self.pool.append({k: v.detach().clone() for k, v in self.model.state_dict().items()})
        self.pool = self.pool[-self.cfg.pool_size :]
        self._pool_models.clear()

    # --- rollout --------------------------------------------------------------------------------

    def settle(self, i: int) -> None:
        """Step dead agents out of a finished game and start the next episode."""
        env = self.envs[i]
        while env.agents and (
            env.terminations[env.agent_selection] or env.truncations[env.agent_selection]
        ):
            env.step(None)
        if not env.agents:
            self.finished_returns.append(self.seats[i].episode_return)
            self.start_episode(i)

    def after_step(self, i: int, buffers: dict[str, torch.Tensor]) -> None:
        """Credit each learner agent's last decision with the reward this step gave that agent
        (``env.rewards`` holds every agent's reward of the last step, whoever moved); close the
        episode if the game ended."""
        env, seat = self.envs[i], self.seats[i]
        ended = False
        for agent in seat.learners:
            reward = env.rewards.get(agent, 0.0)
            seat.episode_return += reward / len(seat.learners)
            if agent in seat.last_row:
                buffers["rewards"][seat.last_row[agent], i] += reward
            ended = ended or bool(env.terminations.get(agent) or env.truncations.get(agent))
        if ended:
            for row in seat.last_row.values():
                buffers["dones"][row, i] = 1.0
            self.settle(i)

    def act(self, model: nn.Module, idxs: list[int], agents: list[str]):
        """One batched forward pass: observations of envs ``idxs`` for ``agents``."""
        start = time.perf_counter()
        observations = [self.envs[i].observe(a) for i, a in zip(idxs, agents, strict=True)]
        obs = torch.from_numpy(np.stack([o["observation"] for o in observations]))
        mask = torch.from_numpy(np.stack([o["action_mask"] for o in observations]).astype(bool))
        middle = time.perf_counter()
        with torch.no_grad():
            action, logprob, _, value = model.get_action_and_value(obs, mask)
        self.timers.simulation += middle - start
        self.timers.inference += time.perf_counter() - middle
        return obs, mask, action, logprob, value

    def collect(self) -> tuple[dict[str, torch.Tensor], torch.Tensor]:
        """Run every env until it holds ``num_steps`` learner decisions and waits at its next.

        Returns the buffers and the ``bootstrap`` values of :func:`compute_stream_gae`: for each
        learner agent's last decision of an unfinished episode, the value of that agent's view of
        the position its env is parked at.
        """
        cfg, n = self.cfg, len(self.envs)
        steps, obs_size, n_actions = cfg.num_steps, self.model.obs_size, self.model.n_actions
        buffers = {
            "obs": torch.zeros(steps, n, obs_size),
            "masks": torch.zeros(steps, n, n_actions, dtype=torch.bool),
            "actions": torch.zeros(steps, n, dtype=torch.long),
            "logprobs": torch.zeros(steps, n),
            "values": torch.zeros(steps, n),
            "rewards": torch.zeros(steps, n),
            "dones": torch.zeros(steps, n),
            "agents": torch.zeros(steps, n, dtype=torch.long),  # index in possible_agents
        }
        count = [0] * n
        for seat in self.seats:
            seat.last_row = {}
        while True:
            learners, opponents = [], {}
            for i, env in enumerate(self.envs):
                if env.agent_selection in self.seats[i].learners:
                    if count[i] < steps:
                        learners.append(i)
                else:
                    opponents.setdefault(self.seats[i].opponent, []).append(i)
            if not learners and not opponents:
                break
            if learners:
                agents = [self.envs[i].agent_selection for i in learners]
                obs, mask, action, logprob, value = self.act(self.model, learners, agents)
                rows = (torch.tensor([count[i] for i in learners]), torch.tensor(learners))
                buffers["obs"][rows], buffers["masks"][rows] = obs, mask
                buffers["actions"][rows], buffers["logprobs"][rows] = action, logprob
                buffers["values"][rows] = value
                buffers["agents"][rows] = torch.tensor(
                    [
                        self.envs[i].possible_agents.index(self.envs[i].agent_selection)
                        for i in learners
                    ]
                )
                for i, agent, chosen in zip(learners, agents, action.tolist(), strict=True):
                    self.seats[i].last_row[agent] = count[i]
                    count[i] += 1
                    self.step_env(i, chosen, buffers)
                self.global_step += len(learners)
            for key, idxs in opponents.items():
                if key.startswith("bot:"):
                    for i in idxs:
                        self.step_env(i, self.bot_action(i, key), buffers)
                    continue
                agents = [self.envs[i].agent_selection for i in idxs]
                action = self.act(self.opponent_model(key), idxs, agents)[2]
                for i, chosen in zip(idxs, action.tolist(), strict=True):
                    self.step_env(i, chosen, buffers)
        return buffers, self.bootstrap_values(buffers["values"])

    def bootstrap_values(self, like: torch.Tensor) -> torch.Tensor:
        """[T, N]: at each learner agent's open last row, the value of its parked view; else 0.

        The agent need not be the one to move (a cooperative partner): its observation is still
        its view of the position, and only the value head is read (the mask does not enter it).
        """
        bootstrap = torch.zeros_like(like)
        open_rows = [
            (i, agent, row)
            for i, seat in enumerate(self.seats)
            for agent, row in seat.last_row.items()
        ]
        if not open_rows:
            return bootstrap
        start = time.perf_counter()
        obs = np.stack([self.envs[i].observe(agent)["observation"] for i, agent, _ in open_rows])
        mask = torch.ones(len(open_rows), self.model.n_actions, dtype=torch.bool)
        middle = time.perf_counter()
        with torch.no_grad():
            _, value = self.model(torch.from_numpy(obs), mask)
        for (i, _, row), v in zip(open_rows, value, strict=True):
            bootstrap[row, i] = v
        self.timers.simulation += middle - start
        self.timers.inference += time.perf_counter() - middle
        return bootstrap

    def bot_action(self, i: int, key: str) -> int:
        """A scripted opponent's move in env ``i`` (timed as inference)."""
        env = self.envs[i]
        start = time.perf_counter()
        observed = env.observe(env.agent_selection)
        action = self.bot(i, key).act(observed["observation"], observed["action_mask"])
        self.timers.inference += time.perf_counter() - start
        return int(action)

    def step_env(self, i: int, action: int, buffers: dict[str, torch.Tensor]) -> None:
        """Step env ``i`` by whoever decides there, then credit rewards (counted as simulation)."""
        self.env_steps += 1
        start = time.perf_counter()
        self.envs[i].step(action)
        self.after_step(i, buffers)
        self.timers.simulation += time.perf_counter() - start

    # --- learning -------------------------------------------------------------------------------

    def learn(self, buffers: dict[str, torch.Tensor], bootstrap: torch.Tensor) -> dict[str, float]:
        """PPO: clipped objective, value clipping, advantage normalisation, entropy bonus."""
        cfg = self.cfg
        start = time.perf_counter()
        if cfg.anneal_lr:
            frac = 1.0 - self.update / cfg.num_updates
            self.optimizer.param_groups[0]["lr"] = frac * cfg.learning_rate
        advantages, returns = compute_stream_gae(
            buffers["rewards"],
            buffers["values"],
            buffers["dones"],
            stream_links(buffers["agents"].numpy()),
            bootstrap,
            cfg.gamma,
            cfg.gae_lambda,
        )
        b_obs = buffers["obs"].reshape(-1, self.model.obs_size)
        b_masks = buffers["masks"].reshape(-1, self.model.n_actions)
        b_actions, b_logprobs = buffers["actions"].reshape(-1), buffers["logprobs"].reshape(-1)
        b_adv, b_returns = advantages.reshape(-1), returns.reshape(-1)
        b_values = buffers["values"].reshape(-1)
        stats: dict[str, float] = {}
        order = np.arange(cfg.batch_size)
        clipfracs = []
        for _ in range(cfg.update_epochs):
            self.np_rng.shuffle(order)
            for begin in range(0, cfg.batch_size, cfg.minibatch_size):
                mb = torch.from_numpy(order[begin : begin + cfg.minibatch_size])
                _, newlogprob, entropy, newvalue = self.model.get_action_and_value(
                    b_obs[mb], b_masks[mb], b_actions[mb]
                )
                logratio = newlogprob - b_logprobs[mb]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs.append(((ratio - 1.0).abs() > cfg.clip_coef).float().mean().item())
                mb_adv = b_adv[mb]
                if cfg.norm_adv:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(
                    -mb_adv * ratio, -mb_adv * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)
                ).mean()
                if cfg.clip_vloss:
                    unclipped = (newvalue - b_returns[mb]) ** 2
                    clipped_value = b_values[mb] + (newvalue - b_values[mb]).clamp(
                        -cfg.clip_coef, cfg.clip_coef
                    )
                    v_loss = 0.5 * torch.max(unclipped, (clipped_value - b_returns[mb]) ** 2).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                entropy_loss = entropy.mean()
                loss = pg_loss - cfg.ent_coef * entropy_loss + cfg.vf_coef * v_loss
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
                self.optimizer.step()
        var_y = b_returns.var()
        explained = float("nan") if var_y == 0 else float(1 - (b_returns - b_values).var() / var_y)
        stats.update(
            policy_loss=pg_loss.item(),
            value_loss=v_loss.item(),
            entropy=entropy_loss.item(),
            approx_kl=approx_kl.item(),
            clipfrac=float(np.mean(clipfracs)),
            explained_variance=explained,
            learning_rate=self.optimizer.param_groups[0]["lr"],
        )
        self.update += 1
        self.timers.learning += time.perf_counter() - start
        return stats

    # --- checkpoints ----------------------------------------------------------------------------

    def payload(self, full: bool = True) -> dict[str, Any]:
        """What a checkpoint holds; ``full=False`` keeps only what a bot needs (small files)."""
        env = self.envs[0]
        data: dict[str, Any] = {
            "format": checkpoint.FORMAT,
            "version": checkpoint.VERSION,
            "env": {
                "name": self.cfg.env,
                "version": env_version(self.cfg.env),
                "obs_size": self.model.obs_size,
                "n_actions": self.model.n_actions,
                "agents": list(env.possible_agents),
            },
            "config": self.cfg.to_dict(),
            "model": {k: v.detach().clone() for k, v in self.model.state_dict().items()},
            "global_step": self.global_step,
            "env_steps": self.env_steps,
            "update": self.update,
            "history": copy.deepcopy(self.history),
            "wall_time": self.wall_time,
        }
        if full:
            data["optimizer"] = self.optimizer.state_dict()
            data["pool"] = self.pool
            data["rng"] = {
                "torch": torch.get_rng_state(),
                "numpy": self.np_rng.bit_generator.state,
                "python": random.getstate(),
            }
            data["envs"] = [
                self.parked_env(e, s) for e, s in zip(self.envs, self.seats, strict=True)
            ]
        return data

    @staticmethod
    def parked_env(env: Any, seat: Seat) -> dict[str, Any]:
        """An env waiting at a learner decision: its position (if it has positions) and seat."""
        saved: dict[str, Any] = {"learners": list(seat.learners), "opponent": seat.opponent}
        saved["episode"] = seat.episode
        if hasattr(env.unwrapped, "get_state"):
            saved["position"] = env.unwrapped.get_state()
        return saved

    @staticmethod
    def unpark_env(env: Any, seat: Seat, saved: dict[str, Any]) -> None:
        """Put ``env`` and ``seat`` back as :meth:`parked_env` saved them."""
        env.reset(options={"position": saved["position"]})
        # Checkpoints written before cooperative training name the learner's one agent.
        seat.learners = tuple(saved["learners"]) if "learners" in saved else (saved["agent"],)
        seat.opponent, seat.episode = saved["opponent"], saved["episode"]
        seat.last_row, seat.episode_return = {}, 0.0

    def restore(self, data: dict[str, Any], path: Path) -> None:
        """Continue a run exactly where its checkpoint at ``path`` left it (``--resume``);
        :class:`CheckpointError` if it cannot continue this config's run."""
        self.check_resumable(data, path)
        self.model.load_state_dict(data["model"])
        self.optimizer.load_state_dict(data["optimizer"])
        self.pool = list(data["pool"])
        self._pool_models.clear()
        self.global_step, self.update = data["global_step"], data["update"]
        self.env_steps = data["env_steps"]
        self.history, self.wall_time = list(data["history"]), data["wall_time"]
        torch.set_rng_state(data["rng"]["torch"])
        self.np_rng.bit_generator.state = data["rng"]["numpy"]
        random.setstate(data["rng"]["python"])
        for i, (env, seat, saved) in enumerate(
            zip(self.envs, self.seats, data["envs"], strict=True)
        ):
            try:
                self.unpark_env(env, seat, saved)
            except ValueError as exc:  # PositionError, ScenarioError: the env refuses it
                raise CheckpointError(
                    f"{path}: env {i}'s saved position is refused: {exc}"
                ) from exc

    def check_resumable(self, data: dict[str, Any], path: Path) -> None:
        """The checkpoint holds a whole run whose networks and env count fit this config."""
        missing = [key for key in RESUME_KEYS if key not in data]
        if missing:
            raise CheckpointError(
                f"{path}: not a checkpoint to resume from (a policy file?): it lacks "
                f"{', '.join(missing)}"
            )
        sizes = (self.model.obs_size, self.model.n_actions, self.cfg.hidden_sizes)
        check_network(path, "model", data["model"], *sizes)
        for i, snapshot in enumerate(data["pool"]):
            check_network(path, f"pool[{i}]", snapshot, *sizes)
        if len(data["envs"]) != len(self.envs):
            raise CheckpointError(
                f"{path}: the run played {len(data['envs'])} envs; this config's num_envs is "
                f"{len(self.envs)}: resume with the run's num_envs"
            )


# --- evaluation, logging, the main loop ---------------------------------------------------------


def evaluate_policy(trainer: Trainer) -> list[dict[str, Any]]:
    """Evaluate the current policy as the run's seating does; one history record per line."""
    start = time.perf_counter()
    records = trainer.seating.evaluate(trainer)
    trainer.timers.evaluation += time.perf_counter() - start
    return records


def imitate_teacher(trainer: Trainer) -> None:
    """Optional warm start: clone the heuristic bot before PPO (training/imitation.py); in a
    cooperative run the teacher plays, and is imitated in, every seat."""
    from .evaluate import make_opponent
    from .imitation import warm_start

    cfg = trainer.cfg
    warm_start(
        trainer.model,
        lambda: make_env(cfg.env, **cfg.env_kwargs),
        make_opponent("heuristic", cfg.env, seed=cfg.seed),
        cfg.imitation_games,
        cfg.imitation_epochs,
        seed=cfg.seed * 7919,
        gamma=cfg.gamma,
        learning_rate=cfg.learning_rate * 4,
        vf_coef=cfg.vf_coef,
        rng=trainer.np_rng,
        chunk=cfg.imitation_chunk,
        team=trainer.seating.mode == COOPERATIVE,
    )
    if trainer.seating.uses_pool:
        trainer.add_snapshot()  # the imitated policy is the pool's first opponent


def build_trainer(cfg: TrainConfig) -> Trainer:
    """Seed everything, make the envs and the network (CleanRL's opening lines)."""
    random.seed(cfg.seed)
    np_rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    envs = [make_env(cfg.env, **cfg.env_kwargs) for _ in range(cfg.num_envs)]
    probe = envs[0]
    agent = probe.possible_agents[0]
    obs_size = int(probe.observation_space(agent)["observation"].shape[0])
    n_actions = int(probe.action_space(agent).n)
    model = build_model(obs_size, n_actions, cfg.hidden_sizes)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate, eps=1e-5)
    seats = [Seat() for _ in envs]
    trainer = Trainer(cfg, model, optimizer, envs, seats, np_rng, seating_for(cfg))
    for i in range(len(envs)):
        trainer.start_episode(i)
    return trainer


def preflight(
    cfg: TrainConfig, log_dir: str | None = None, resume: bool = False, overwrite: bool = False
) -> Path:
    """Check everything a run needs before it trains; the log folder to write to.

    The env is built once from ``env_kwargs`` (:meth:`TrainConfig.check_env`), every opponent
    file is loaded and verified once (a damaged one would otherwise stop the run at its first
    game against it), and the folders are checked (:func:`training.run_files.prepare_run_dirs`,
    which deletes an earlier run's files only with ``overwrite``, and only after the other checks
    passed). Raises :class:`ConfigError`, :class:`CheckpointError`, ``OpponentError`` or
    :class:`RunDirError`.
    """
    from .evaluate import make_opponent

    cfg.check_env()
    for spec in dict.fromkeys([*cfg.bot_opponents, *cfg.eval_opponents]):
        make_opponent(spec, cfg.env, seed=cfg.seed)
    return prepare_run_dirs(cfg, log_dir, resume=resume, overwrite=overwrite)


def train(
    cfg: TrainConfig,
    resume: bool = False,
    log_dir: str | None = None,
    stop_after: int | None = None,
    overwrite: bool = False,
) -> Trainer:
    """The loop: rollout, update, then snapshots, evaluation and checkpoints on schedule.

    :func:`preflight` runs first: a fresh run refuses a ``checkpoint_dir`` holding an earlier run
    unless ``overwrite``; ``log_dir`` replaces ``runs/<run_name>`` (and is the caller's to keep
    apart). ``stop_after`` ends the run after that many updates in this call, as if it were killed
    after its checkpoint (tests use it to check that ``--resume`` loses nothing).
    """
    from torch.utils.tensorboard import SummaryWriter

    from .plots import plot_learning_curve

    logs = preflight(cfg, log_dir, resume=resume, overwrite=overwrite)
    trainer = build_trainer(cfg)
    out = Path(cfg.checkpoint_dir)
    latest = out / LATEST
    if resume:
        obs_size, n_actions = trainer.model.obs_size, trainer.model.n_actions
        trainer.restore(load_checkpoint(latest, cfg.env, obs_size, n_actions), latest)
        print(f"resumed {latest} at update {trainer.update}, step {trainer.global_step}")
    elif cfg.imitation_games:
        start = time.perf_counter()
        imitate_teacher(trainer)
        trainer.timers.imitation = time.perf_counter() - start
    writer = SummaryWriter(str(logs))
    begun = time.perf_counter() - trainer.wall_time
    last = (
        cfg.num_updates if stop_after is None else min(cfg.num_updates, trainer.update + stop_after)
    )
    while trainer.update < last:
        buffers, bootstrap = trainer.collect()
        stats = trainer.learn(buffers, bootstrap)
        trainer.wall_time = time.perf_counter() - begun
        sps = trainer.global_step / max(trainer.wall_time, 1e-9)
        env_sps = trainer.env_steps / max(trainer.wall_time, 1e-9)
        for key, value in stats.items():
            writer.add_scalar(f"losses/{key}", value, trainer.global_step)
        writer.add_scalar("charts/SPS", sps, trainer.global_step)
        writer.add_scalar("charts/env_SPS", env_sps, trainer.global_step)
        recent = trainer.finished_returns[-200:]
        if recent:
            writer.add_scalar("charts/selfplay_return", float(np.mean(recent)), trainer.global_step)
        if trainer.seating.uses_pool and trainer.update % cfg.snapshot_every == 0:
            trainer.add_snapshot()
        line = (
            f"update {trainer.update}/{cfg.num_updates}  step {trainer.global_step}  "
            f"SPS {sps:.0f} learner / {env_sps:.0f} env ({trainer.timers.split()})  "
            f"entropy {stats['entropy']:.2f}  "
            f"value loss {stats['value_loss']:.3f}"
        )
        due = trainer.update % cfg.eval_every == 0 or trainer.update == cfg.num_updates
        if due and cfg.eval_opponents:
            records = evaluate_policy(trainer)
            trainer.history += records
            for r in records:
                tag, text = trainer.seating.describe(r)
                writer.add_scalar(tag, r["win_rate"], r["step"])
                line += f"\n    {text}"
            seating = trainer.seating
            plot_learning_curve(
                trainer.history, out / CURVE, None, seating.legend, seating.reference
            )
        print(line, flush=True)
        if trainer.update % cfg.checkpoint_every == 0 or trainer.update == cfg.num_updates:
            save_checkpoint(latest, trainer.payload())
            save_checkpoint(out / POLICY, trainer.payload(full=False))
    writer.close()
    rate = trainer.global_step / max(trainer.wall_time, 1e-9)
    env_rate = trainer.env_steps / max(trainer.wall_time, 1e-9)
    imitation = (
        f" after {trainer.timers.imitation:.0f} s of imitation" if trainer.timers.imitation else ""
    )
    print(
        f"done: {trainer.update} updates, {trainer.global_step} learner decisions in "
        f"{trainer.wall_time:.0f} s of PPO{imitation} ({rate:.0f} learner / {env_rate:.0f} env "
        f"decisions per s; {trainer.timers.split()}); checkpoint {out / POLICY}"
    )
    return trainer


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; the exit status (2, with one ``error:`` line, on a user's mistake)."""
    from .evaluate import OpponentError

    parser = argparse.ArgumentParser(
        prog="python -m training.ppo",
        description="PPO with action masks: self-play, or one policy for a cooperative team",
    )
    parser.add_argument("--config", required=True, help="YAML file in configs/")
    again = parser.add_mutually_exclusive_group()
    again.add_argument(
        "--resume", action="store_true", help="continue from <checkpoint_dir>/latest.pt"
    )
    again.add_argument(
        "--overwrite",
        action="store_true",
        help="start again, deleting the earlier run's checkpoints, curve and TensorBoard events",
    )
    args = parser.parse_args(argv)
    try:
        train(load_config(args.config), resume=args.resume, overwrite=args.overwrite)
    except (ConfigError, CheckpointError, OpponentError, RunDirError) as exc:
        return fail(exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
