"""What a comparison runs: the algorithms, the seeds, the one training budget they share, and the
budgets of the three measures (against the heuristic, the exploitability protocol, the round
robin); the YAML keys are these field names."""

from __future__ import annotations

import os
from dataclasses import dataclass

from training.common.rules import (
    COUNT,
    ENV,
    POSITIVE,
    POSITIVE_NUMBER,
    SEED,
    Rule,
    integer,
    non_empty,
)
from training.common.schema import ConfigError, Schema, setting
from training.exploit.exploiters import FAMILIES
from training.league.config import LeagueConfig
from training.mmd.config import MMDConfig
from training.nfsp.config import NFSPConfig
from training.ppo.config import TrainConfig

SCHEMAS: dict[str, type[Schema]] = {
    "ppo": TrainConfig,
    "mmd": MMDConfig,
    "league": LeagueConfig,
    "nfsp": NFSPConfig,
}
"""Each algorithm's config schema."""
MAX_WORKERS = 64

SEED_LIST = Rule(
    lambda v: bool(v) and len(set(v)) == len(v) and all(0 <= s < 2**63 for s in v),
    "must be a non-empty list of distinct seeds, each in 0..2**63-1",
)
METHOD_FILES = Rule(
    lambda v: bool(v) and all(k in SCHEMAS and isinstance(p, str) and p for k, p in v.items()),
    f"must map one or more of {', '.join(SCHEMAS)} to its config file",
)


@dataclass(frozen=True, kw_only=True)
class CompareConfig(Schema):
    """Everything that defines a comparison."""

    env: str = setting(rule=ENV, required="the game's registered name")
    """the game, a registered two-seat competitive one"""
    seeds: list[int] = setting([0, 1, 2], SEED_LIST)
    """every algorithm trains once from each seed"""
    methods: dict[str, str] = setting(rule=METHOD_FILES, required="algorithm: config file")
    """each algorithm compared (``ppo``, ``mmd``, ``league``, ``nfsp``) and the config its runs
    start from; the comparison overrides its seed, budget, warm start and folders"""
    minutes: float = setting(rule=POSITIVE_NUMBER, required="minutes of learning a run")
    """the equal budget: minutes of learning a run, on one core, after the warm start (a league
    gives half to its exploiters, half to its main policy)"""
    updates_per_minute: float = setting(60.0, POSITIVE_NUMBER)
    """PPO updates a minute that a PPO-family run's ``total_steps`` (and so its learning-rate
    and magnet schedules) assumes: set above what any run makes, so that the clock, not the
    schedule, ends every run and each gets the whole budget"""
    warm_start_games: int = setting(300, COUNT)
    """games of ``warm_start_teacher`` every run imitates first (PPO's, MMD's and the league's
    share one clone a seed; NFSP seeds its reservoir and average policy with as many)"""
    warm_start_teacher: str = setting("saw_hunter", non_empty("bot name"))
    """the bot the warm start imitates"""
    heuristic: str = setting("heuristic", non_empty("bot name"))
    """the scripted bot every policy is measured against"""
    heuristic_games: int = setting(500, POSITIVE)
    """greedy games a seat against ``heuristic``"""
    exploit_minutes: float = setting(0.5, POSITIVE_NUMBER)
    """the exploitability protocol's PPO minutes per learned exploiter"""
    exploit_games: int = setting(200, POSITIVE)
    """the protocol's games per exploiter per seat"""
    exploit_imitation_games: int = setting(200, COUNT)
    """the protocol's teacher games per clone"""
    exploit_skip: list[str] = setting(["search"], Rule(
        lambda v: all(s in FAMILIES or ":" in s for s in v),
        f"must list exploiter families ({', '.join(FAMILIES)}) or exploiters (clone:heuristic)",
    ))  # fmt: skip
    """exploiter families or exploiters the protocol leaves out"""
    tournament_games: int = setting(40, POSITIVE)
    """greedy games a seating in the round robin of every trained policy and ``heuristic``"""
    seed: int = setting(0, SEED)
    """seed of the measures (the same deals for every policy)"""
    workers: int = setting(2, integer(1, MAX_WORKERS))
    """runs and measures played at once, one process (and one core) each"""
    out: str = setting("runs/compare", non_empty("path"))
    """folder of every run, measure and log; a rerun skips what is already there"""
    report: str = setting(rule=non_empty("path"), required="the JSON report's path")
    """the report, written atomically after every finished job"""

    def check_together(self) -> None:
        """A competitive game of two seats, and bots it registers."""
        from reborn_env.core import registry

        spec = registry.get(self.env)
        if spec.facts.cooperative:
            raise ConfigError(
                f"{self.origin}: key 'env': {self.env} is cooperative; "
                "a comparison measures exploitability, which needs two opponents"
            )
        for key in ("warm_start_teacher", "heuristic"):
            if getattr(self, key) not in spec.bots:
                raise ConfigError(
                    f"{self.origin}: key '{key}': {getattr(self, key)!r} is not a bot of "
                    f"{self.env}; its bots: {', '.join(spec.bots)}"
                )

    def check_env(self) -> tuple[int, int]:
        """Load every method's config (each names its own mistakes); the env's sizes."""
        from training.common.envs import env_sizes

        for method, path in self.methods.items():
            config = SCHEMAS[method].load(path)
            if config.env != self.env:
                raise ConfigError(
                    f"{self.origin}: key 'methods.{method}': {path} trains {config.env}, "
                    f"the comparison is of {self.env}"
                )
        return env_sizes(self.env)


def load_compare_config(path: str | os.PathLike[str]) -> CompareConfig:
    """Read and check a comparison's YAML config; :class:`ConfigError` says what is wrong."""
    return CompareConfig.load(path)
