"""A league's configuration: the main policy's MMD run (every key of ``training.mmd``'s config,
applied to each round) and the league's own keys: how many rounds, and each round's exploiters'
budget (the exploitability protocol's, ``training.exploit``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any

from training.common.rules import COUNT, POSITIVE, POSITIVE_NUMBER, Rule, choice
from training.common.schema import ConfigError, setting
from training.exploit.exploiters import FAMILIES
from training.mmd.config import MMDConfig

SKIPPABLE = Rule(
    lambda v: isinstance(v, list) and all(x in FAMILIES for x in v),
    f"must be a list of exploiter families ({', '.join(FAMILIES)})",
)
ROUNDS = "rounds"
CONTINUOUS = "continuous"
SEATS_TO_EXPLOITERS = Rule(
    lambda v: all(isinstance(x, list) and all(isinstance(n, str) for n in x) for x in v.values()),
    "must map a seat of the main policy to a list of learned exploiter names of the "
    "exploitability protocol (clone:<bot>, clone:target)",
)


@dataclass(frozen=True, kw_only=True)
class LeagueConfig(MMDConfig):
    """Everything that defines a league run (the YAML keys are these field names)."""

    rounds: int = setting(1, POSITIVE)
    """rounds of (exploiters trained against the main policy, then the main policy trained
    against the field and them)"""
    exploiter_minutes: float = setting(3.0, POSITIVE_NUMBER)
    """PPO training of each learned exploiter, a round and a seat"""
    exploiter_updates: int = setting(0, COUNT)
    """if > 0, each learned exploiter's PPO updates instead of ``exploiter_minutes``: the same
    adversary on any machine, as the protocol's ``--updates``"""
    exploiter_workers: int = setting(1, POSITIVE)
    """processes that train and measure the exploiters at once, as the protocol's
    ``--workers`` (the main policy trains after them, so a round can give them every core)"""
    exploiter_games: int = setting(200, POSITIVE)
    """games a seat in which each exploiter is measured against the main policy"""
    exploiter_imitation_games: int = setting(500, POSITIVE)
    """teacher games each bot's clone imitates before its PPO"""
    exploiter_skip: list[str] = setting(["search"], SKIPPABLE)
    """exploiter families left out (the search bot is slow and learns nothing to keep)"""
    exploiter_ppo: dict[str, Any] = setting({})
    """overrides of the learned exploiters' PPO keys (``training/exploit/best_response.py``'s
    ``SETTINGS``), as the protocol's ``--ppo KEY=VALUE``"""

    schedule: str = setting(ROUNDS, choice((ROUNDS, CONTINUOUS)))
    """``rounds``: each round's exploiters learn against that round's main policy, then the main
    policy learns against them, frozen; ``continuous``: ``main_exploiters`` keep learning
    against the current main policy while it learns against them and their past selves, the
    two exchanging weights every ``phase_updates`` (AlphaStar's main exploiters)"""
    main_exploiters: dict[str, Any] = setting({}, SEATS_TO_EXPLOITERS)
    """continuous: for a seat of the main policy, the protocol's learned exploiters that attack
    it from the other seat (``clone:<bot>``: the bot's clone; ``clone:target``: from the main
    policy's starting weights); a seat not named is attacked by ``clone:target``"""
    phase_updates: int = setting(16, POSITIVE)
    """continuous: the main policy's MMD updates between two exchanges of weights"""
    exploiter_phase_updates: int = setting(16, POSITIVE)
    """continuous: each main exploiter's PPO updates between two exchanges"""
    exploiter_warmup_updates: int = setting(64, POSITIVE)
    """continuous: each main exploiter's PPO updates against the starting main policy before
    the main policy starts learning, so that its first opponents already attack it"""
    exploiter_snapshot_every: int = setting(8, COUNT)
    """continuous: every this many phases, a frozen copy of each main exploiter joins the main
    policy's opponents for good (0: never), so that what an exploiter found stays met"""
    exploiter_reset_every: int = setting(0, COUNT)
    """continuous: every this many phases, each main exploiter (frozen into the field first)
    starts again from its warm start (0: never), as AlphaStar resets its main exploiters"""

    def check_together(self) -> None:
        """MMD's cross-key rules, and a main policy to start from."""
        super().check_together()
        if not self.init_policy:
            raise ConfigError(
                f"{self.origin}: key 'init_policy': a league starts from a main policy; give a "
                "policy file of this env (a shipped policy, or a warm start's policy.pt)"
            )

    def main_config(self, **changes: object) -> MMDConfig:
        """The MMD run of one round: this config's MMD keys with ``changes``."""
        own = {f.name for f in fields(LeagueConfig)} - {f.name for f in fields(MMDConfig)}
        keys = {k: v for k, v in self.to_dict().items() if k not in own}
        return MMDConfig.from_dict({**keys, **changes}, source=self.origin)


def load_league_config(path: str | os.PathLike[str]) -> LeagueConfig:
    """Read and check a league's YAML config; :class:`ConfigError` says what is wrong."""
    return LeagueConfig.load(path)
