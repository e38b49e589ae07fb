"""Who plays the learner's other seat in self-play: the current policy, a past snapshot or a bot.

The pool keeps the latest ``pool_size`` snapshots of the policy (taken every ``snapshot_every``
updates, 0: never, and once after the imitation warm start); each new game draws its opponent
(:meth:`OpponentPool.draw`) for the seat the learner took. An opponent is named by a key:
``"self"`` (the current policy), ``"pool<id>"`` (the snapshot numbered ``id``, numbers counting up
as snapshots are taken) or ``"bot:<name>"`` (a scripted or saved bot of ``bot_opponents``, one
instance per slot since bots may keep per-game state). A game whose snapshot has left the pool
goes on against the oldest snapshot kept.

Every finished game scores the learner against its opponent in its seat (1 a win, 0.5 a draw or
a game cut at ``max_steps``, 0 a loss), kept as a moving average per opponent and seat
(:attr:`OpponentPool.scores`, the last ~50 games). With ``opponent_sampling: pfsp`` the draw is
prioritised fictitious self-play (AlphaStar's ``f_hard``): the current policy with
``latest_opponent_prob``, else a snapshot or a bot with weight ``(1 - score) ** pfsp_power``, so
the opponents that still beat the learner in that seat are met most. ``uniform`` draws a bot with
``bot_opponent_prob``, else the current policy or a snapshot uniformly. With ``seat_sampling:
pfsp`` the scores also choose the learner's seat (:meth:`OpponentPool.seat_weights`): the seat
that loses most to the bots is played most. The snapshots, their numbers, the scores and the bots'
generators are saved in a run's checkpoint; the networks and bots are made again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from reborn_env.bots.batched import KeepsRngState, Views, act_batch
from reborn_env.policies.network import (
    MaskedActorCritic,
    build_model,
    host_state,
    to_host,
    to_network,
)
from training.bench.matches import outcome, player

if TYPE_CHECKING:
    from reborn_env.bots.batched import BatchedBot

SELF = "self"
POOL = "pool"
BOT = "bot:"
SCORE_RATE = 0.02
"""Weight of each finished game in an opponent's moving-average score (about the last 50)."""
PRIOR_SCORE = 0.5
"""An opponent's score before the learner has finished a game against it."""


@dataclass(frozen=True, kw_only=True)
class League:
    """What the opponent pool reads: the keys of a run's config of the same names
    (``training.common.schema.settings_of`` takes them from it)."""

    env: str
    env_kwargs: dict[str, Any]
    seed: int
    num_envs: int
    """slots of the game vector: one instance of each bot opponent per slot"""
    hidden_sizes: list[int]
    """the snapshots' network"""
    pool_size: int
    latest_opponent_prob: float
    bot_opponents: list[str]
    bot_opponent_prob: float
    opponent_sampling: str
    seat_sampling: str
    torch_threads: int
    """the run's threads, set again after a policy file's bot is made (it sets one)"""
    pfsp_power: float


@dataclass
class OpponentPool:
    """The snapshots of the policy, the learner's scores against each opponent, and the networks
    and bots that play as opponents."""

    league: League
    snapshots: list[dict[str, torch.Tensor]] = field(default_factory=list)  # oldest first
    ids: list[int] = field(default_factory=list)  # the number of each snapshot
    scores: dict[str, list[float]] = field(default_factory=dict)  # key -> score per seat
    taken: int = 0  # snapshots taken so far (the next one's number)
    _models: dict[int, MaskedActorCritic] = field(default_factory=dict)
    _bots: dict[str, BatchedBot] = field(default_factory=dict)  # key -> every slot's bots

    # --- drawing -----------------------------------------------------------------------------

    def draw(self, rng: np.random.Generator, seat: int) -> str:
        """The opponent of a new game in which the learner plays ``seat``."""
        league = self.league
        if league.opponent_sampling == "pfsp":
            return self._draw_pfsp(rng, seat)
        if league.bot_opponents and rng.random() < league.bot_opponent_prob:
            return BOT + league.bot_opponents[int(rng.integers(len(league.bot_opponents)))]
        if self.snapshots and rng.random() >= league.latest_opponent_prob:
            return f"{POOL}{self.ids[int(rng.integers(len(self.snapshots)))]}"
        return SELF

    def _draw_pfsp(self, rng: np.random.Generator, seat: int) -> str:
        """Prioritised fictitious self-play: see the module docstring. The pool counts as one
        opponent (its weight the mean of its snapshots'), then a snapshot is drawn within it by
        the same weights, so a big pool does not crowd out the bots."""
        pool = [f"{POOL}{i}" for i in self.ids]
        groups = [[BOT + b] for b in self.league.bot_opponents] + ([pool] if pool else [])
        if not groups or rng.random() < self.league.latest_opponent_prob:
            return SELF
        weights = [self._pfsp_weights(group, seat) for group in groups]
        chosen = self._pick(rng, np.array([w.mean() for w in weights]))
        return groups[chosen][self._pick(rng, weights[chosen])]

    def _pfsp_weights(self, keys: list[str], seat: int) -> np.ndarray:
        """``(1 - score) ** pfsp_power`` of each key in ``seat``, each keeping a small chance."""
        losing = np.array([1.0 - self.score(key, seat) for key in keys])
        return losing**self.league.pfsp_power + 1e-3

    @staticmethod
    def _pick(rng: np.random.Generator, weights: np.ndarray) -> int:
        return int(rng.choice(len(weights), p=weights / weights.sum()))

    def seat_weights(self, seats: int) -> np.ndarray:
        """With ``seat_sampling: pfsp``, how often the learner takes each seat: ``1.1 - score``
        against the bots (their mean) in that seat, so the seat that still loses to them is
        trained most and no seat is dropped; uniform otherwise or before any bot game."""
        bots = [BOT + b for b in self.league.bot_opponents if BOT + b in self.scores]
        if self.league.seat_sampling != "pfsp" or not bots:
            return np.full(seats, 1.0 / seats)
        scores = np.mean([self.scores[key] for key in bots], axis=0)
        weights = 1.1 - scores
        return weights / weights.sum()

    # --- scores ------------------------------------------------------------------------------

    def score(self, key: str, seat: int) -> float:
        """The learner's moving-average score against ``key`` in ``seat``."""
        scores = self.scores.get(key)
        return PRIOR_SCORE if scores is None else scores[seat]

    def record(
        self, key: str, learner: np.ndarray, rewards: np.ndarray, terminated: bool | np.bool_
    ) -> None:
        """Score a finished game of the learner (its seats ``learner``, a bool row) against
        ``key``, from its last step's rewards as a match reads them (``vector_match.outcome``:
        a win 1, a draw or a game cut at ``max_steps`` 0.5, a loss 0)."""
        seats = np.flatnonzero(learner)
        if not key or len(seats) != 1 or len(learner) != 2:
            return  # cooperative: no opponent
        seat = int(seats[0])
        result = (outcome(rewards, seat, bool(terminated)) + 1.0) / 2.0
        scores = self.scores.setdefault(key, [PRIOR_SCORE] * len(learner))
        scores[seat] += SCORE_RATE * (result - scores[seat])

    def summary(self, agents: list[str]) -> str:
        """``vs heuristic norad 0.95 salemite 0.40; self ...``: the learner's scores per seat
        against the bots, the current policy and (averaged) the snapshots."""
        keys = [k for k in self.scores if not k.startswith(POOL)]
        parts = [self._scores_text(k.removeprefix(BOT), self.scores[k], agents) for k in keys]
        pool = [self.scores[k] for k in self.scores if k.startswith(POOL)]
        if pool:
            parts.append(self._scores_text("pool", list(np.mean(pool, axis=0)), agents))
        return "; ".join(parts)

    @staticmethod
    def _scores_text(name: str, scores: list[float], agents: list[str]) -> str:
        seats = " ".join(f"{a} {s:.2f}" for a, s in zip(agents, scores, strict=True))
        return f"{name} {seats}"

    # --- playing -----------------------------------------------------------------------------

    def start(self, slot: int, key: str) -> None:
        """Slot ``slot`` starts a game against ``key``: a bot forgets the last game."""
        if key.startswith(BOT):
            self.bots(key).reset(slot)

    def act(
        self,
        key: str,
        slots: np.ndarray,
        obs: np.ndarray,
        mask: np.ndarray,
        current: MaskedActorCritic,
        views: Views | None = None,
    ) -> np.ndarray:
        """The moves of opponent ``key`` in ``slots`` (their observations and masks as rows):
        one batched call, a network's forward pass or the bots' (compiled where the game has
        them; through ``act_batch``, with ``views`` for bots that see the public view)."""
        if key.startswith(BOT):
            return act_batch(self.bots(key), slots, obs, mask, views)  # type: ignore[arg-type]
        net = self.model(key, current)
        obs_t = to_network(net, torch.from_numpy(obs))
        with torch.no_grad():
            legal = to_network(net, torch.from_numpy(mask.view(np.bool_)))
            action = net.get_action_and_value(obs_t, legal)[0]
        return to_host(action).numpy()

    def bots(self, key: str) -> BatchedBot:
        """The bots of opponent ``key`` (``bot:<name>``) for every slot, slot ``i``'s seeded
        ``seed + i``: one instance per slot, since bots may keep per-game state."""
        if key not in self._bots:
            name, league = key[len(BOT) :], self.league
            make = player(name, league.env, league.seed, env_kwargs=league.env_kwargs)
            self._bots[key] = make(league.num_envs)
            torch.set_num_threads(league.torch_threads)  # a policy file's bot plays on one thread
        return self._bots[key]

    def model(self, key: str, current: MaskedActorCritic) -> MaskedActorCritic:
        """The network behind ``"self"`` (``current``) or ``"pool<id>"`` (the oldest snapshot
        kept, if that one has left the pool)."""
        if key == SELF:
            return current
        number = int(key[len(POOL) :])
        index = self.ids.index(number) if number in self.ids else 0
        if index not in self._models:
            net = build_model(
                current.obs_size,
                current.n_actions,
                self.league.hidden_sizes,
                current.record_sets,
                current.record_embed,
            )
            net.load_state_dict(self.snapshots[index])
            self._models[index] = net.to(next(current.parameters()))  # where the learner is
        return self._models[index]

    # --- the pool ----------------------------------------------------------------------------

    def add_snapshot(self, model: MaskedActorCritic) -> None:
        """Keep a copy of ``model``'s weights, and only the latest ``pool_size`` snapshots; the
        new one starts with the learner's score against itself."""
        self.snapshots.append(host_state(model))
        self.ids.append(self.taken)
        if SELF in self.scores:
            self.scores[f"{POOL}{self.taken}"] = list(self.scores[SELF])
        self.taken += 1
        keep = self.league.pool_size
        self.restore(self.snapshots[-keep:], self.ids[-keep:], self.scores, self.taken)

    def restore(
        self,
        snapshots: list[dict[str, torch.Tensor]],
        ids: list[int] | None = None,
        scores: dict[str, list[float]] | None = None,
        taken: int | None = None,
    ) -> None:
        """Replace the snapshots (a resumed run's ``pool``: numbered 0.. if ``ids`` are not
        given) and the scores; their networks are built anew."""
        self.snapshots = snapshots
        self.ids = list(range(len(snapshots))) if ids is None else list(ids)
        self.taken = len(snapshots) if taken is None else taken
        kept = {f"{POOL}{i}" for i in self.ids}
        self.scores = {
            k: list(v) for k, v in (scores or {}).items() if not k.startswith(POOL) or k in kept
        }
        self._models.clear()

    def rebuild(self, indices: list[int], current: MaskedActorCritic) -> None:
        """Build the snapshots' networks at ``indices`` (the ``built`` that :meth:`state` saved)
        now: building one draws its first weights from torch's generator, so a resumed run
        builds them before its generators are put back, not at their first game after (which
        the uninterrupted run, having built them already, would not have drawn)."""
        for index in indices:
            self.model(f"{POOL}{self.ids[index]}", current)

    def restore_bots(self, states: dict[str, list[Any]]) -> None:
        """Put back the bots' generators as :meth:`state` saved them (``bots``): a game in
        progress goes on drawing what it would have, and a bot's stream runs on."""
        for key, saved in states.items():
            if key.removeprefix(BOT) in self.league.bot_opponents:  # not a bot the config dropped
                self.bots(key).set_rng_state(saved)  # type: ignore[attr-defined]

    def state(self) -> dict[str, Any]:
        """What a checkpoint saves besides the snapshots: their numbers, the scores, which of
        their networks are built (:meth:`rebuild`) and the generators of the bots made so far
        (those that keep any, ``KeepsRngState``)."""
        bots = {k: b.rng_state() for k, b in self._bots.items() if isinstance(b, KeepsRngState)}
        return {"ids": list(self.ids), "scores": {k: list(v) for k, v in self.scores.items()},
                "taken": self.taken, "built": sorted(self._models), "bots": bots}  # fmt: skip
