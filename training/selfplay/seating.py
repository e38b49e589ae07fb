"""Who plays which agent while PPO trains: the one thing competitive and cooperative runs differ in.

Everything else in the loop of ``training/ppo/train.py`` (lockstep rollouts, one GAE stream per
agent, the PPO update, checkpoints and resume) is the same for every env. A *seating* decides

- at the start of each episode, which agents the learner plays (their decisions are recorded and
  trained on, each agent's decisions forming its own trajectory) and who plays the others;
- how the policy is evaluated, and what each evaluation record says in the log;
- whether the opponent pool is kept and whose decisions the imitation warm start records.

:class:`Competitive` (self-play): the learner takes one seat at random and the other
is played by the current policy, a snapshot from the pool or a scripted bot; it is evaluated in
matches against ``eval_opponents`` in both seats.

:class:`Cooperative` (one team sharing every reward): one policy plays every agent, so every
decision of the game is a learner decision; there is no opponent and no pool. It is evaluated by
the team's win rate over seeded games, playing greedily and sampling, logged next to the win rates
of teams of ``eval_opponents`` bots (e.g. random play and the scripted bot) on the same seeds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from training.common.envs import COMPETITIVE, COOPERATIVE

if TYPE_CHECKING:
    import numpy as np

    from training.bench.evaluate import TeamResult
    from training.selfplay.opponents import OpponentPool


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """What a seating's evaluation reads: the keys of a run's config of the same names (PPO's and
    NFSP's, ``training.common.schema.settings_of`` takes them from either)."""

    env: str
    env_kwargs: dict[str, Any]
    seed: int
    num_envs: int
    eval_games: int
    eval_greedy: bool
    eval_opponents: list[str]


class Trainer(Protocol):
    """What a seating reads of the trainer (``training.ppo.state.Trainer``) when it evaluates: the
    run's progress counters, which every evaluation record carries."""

    global_step: int
    update: int


class Competitive:
    """Self-play: the learner in one random seat; the other seat is an opponent."""

    mode = COMPETITIVE
    uses_pool = True  # past policies are opponents
    legend = "opponent"  # learning curve: one line per opponent, dotted at an even match
    reference: float | None = 0.5

    def __init__(self, evaluation: Evaluation, learner_seat: str = "") -> None:
        self.evaluation = evaluation
        self.learner_seat = learner_seat
        """the agent the learner plays in every game; empty: drawn per game"""

    def seat(
        self, agents: list[str], rng: np.random.Generator, opponents: OpponentPool
    ) -> tuple[tuple[int, ...], str]:
        """(the learner's one seat: ``learner_seat`` if the config fixes it, else drawn with
        ``rng`` by ``opponents.seat_weights``, uniform unless ``seat_sampling: pfsp``; the
        opponent ``opponents.draw(rng, seat)`` names)."""
        if self.learner_seat:
            seat = agents.index(self.learner_seat)
        else:
            weights = opponents.seat_weights(len(agents))
            seat = int(rng.choice(len(agents), p=weights))
        return (seat,), opponents.draw(rng, seat)

    def evaluate(self, trainer: Trainer, payload: dict[str, Any]) -> list[dict[str, Any]]:
        """Play the policy of ``payload`` (the current one, as a policy file holds it; sampling,
        or greedy with ``eval_greedy``) against each evaluation opponent, ``eval_games`` seeded
        games per seat in the game vector (``training/bench/matches.py``); one history record
        each."""
        from training.bench.matches import play_vector_match, player

        evaluation = self.evaluation
        records = []
        for name in evaluation.eval_opponents:
            result = play_vector_match(
                evaluation.env,
                evaluation.env_kwargs,
                player(payload, evaluation.env, evaluation.seed, evaluation.eval_greedy),
                player(name, evaluation.env, evaluation.seed + 1, env_kwargs=evaluation.env_kwargs),
                evaluation.eval_games,
                evaluation.seed,
                num_envs=min(evaluation.num_envs, evaluation.eval_games),
                label=f"evaluation vs {name}",
            )
            low, high = result.wilson()
            record = {"step": trainer.global_step, "update": trainer.update, "opponent": name}
            record["greedy"] = evaluation.eval_greedy
            record.update(win_rate=result.overall.win_rate, low=low, high=high)
            for seat, seat_record in result.seats.items():
                record[f"win_rate_{seat}"] = seat_record.win_rate
            record["score"] = result.score_line()
            records.append(record)
        return records

    def describe(self, record: dict[str, Any]) -> tuple[str, str]:
        """(TensorBoard tag, log line) of an evaluation record."""
        tag = f"eval/win_rate_vs_{Path(record['opponent']).stem}"
        play = "greedy" if record.get("greedy") else "sampled"
        return tag, f"vs {record['opponent']} ({play}): {record['score']}"


class Cooperative:
    """One policy plays every agent and learns from the shared team reward."""

    mode = COOPERATIVE
    uses_pool = False
    legend = "team"  # learning curve: the policy and each baseline team; no even match
    reference: float | None = None

    def __init__(self, evaluation: Evaluation) -> None:
        self.evaluation = evaluation
        self._baselines: dict[str, TeamResult] = {}  # bots do not learn: evaluated once

    def seat(
        self, agents: list[str], rng: np.random.Generator, opponents: OpponentPool
    ) -> tuple[tuple[int, ...], str]:
        """(every seat, no opponent): nothing is drawn."""
        return tuple(range(len(agents))), ""

    def evaluate(self, trainer: Trainer, payload: dict[str, Any]) -> list[dict[str, Any]]:
        """The team of the policy of ``payload`` (greedy, then sampled) and each baseline team,
        ``eval_games`` games each on the same seeds; one history record per team."""
        from training.bench.evaluate import evaluate_team

        evaluation = self.evaluation
        play = (evaluation.env, evaluation.eval_games, evaluation.seed)
        records = []
        for greedy in (True, False):
            name = f"policy ({'greedy' if greedy else 'sampled'})"
            result = evaluate_team(
                payload,
                *play,
                greedy=greedy,
                env_kwargs=evaluation.env_kwargs,
                label=f"evaluation {name}",
            )
            records.append(self._record(trainer, name, result))
        for spec in evaluation.eval_opponents:
            if spec not in self._baselines:
                self._baselines[spec] = evaluate_team(
                    spec, *play, env_kwargs=evaluation.env_kwargs, label=f"evaluation {spec}"
                )
            records.append(self._record(trainer, Path(spec).stem, self._baselines[spec]))
        return records

    @staticmethod
    def _record(trainer: Trainer, series: str, result: TeamResult) -> dict[str, Any]:
        low, high = result.wilson()
        return {
            "step": trainer.global_step,
            "update": trainer.update,
            "series": series,
            "win_rate": result.win_rate,
            "low": low,
            "high": high,
            "mean_rounds": result.mean_rounds,
            "mean_steps": result.mean_steps,
            "score": result.summary(),
        }

    def describe(self, record: dict[str, Any]) -> tuple[str, str]:
        """(TensorBoard tag, log line) of an evaluation record."""
        slug = re.sub(r"[^a-z0-9]+", "_", record["series"].lower()).strip("_")
        return f"eval/win_rate_{slug}", f"{record['series']}: {record['score']}"


Seating = Competitive | Cooperative
