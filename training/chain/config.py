"""What a chain runs: its stages in order, each a trainer, the config of the command that ran and
the file that command made; and the folder the chain writes. The YAML keys are these fields."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from training.common.rules import Rule, names, non_empty
from training.common.schema import ConfigError, Schema, read_config_mapping, setting
from training.league.config import LeagueConfig
from training.mmd.config import MMDConfig
from training.ppo.config import TrainConfig

TRAINERS: dict[str, type[Schema]] = {"ppo": TrainConfig, "mmd": MMDConfig, "league": LeagueConfig}
"""Each trainer a stage may name (``python -m training.<trainer>``) and its config schema."""
STAGE_KEYS = ("trainer", "config", "makes")
STAGE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def _is_stage(name: Any, stage: Any) -> bool:
    return (
        isinstance(name, str)
        and STAGE_NAME.fullmatch(name) is not None
        and isinstance(stage, dict)
        and sorted(stage) == sorted(STAGE_KEYS)
        and stage["trainer"] in TRAINERS
        and all(isinstance(stage[k], str) and stage[k] for k in ("config", "makes"))
    )


STAGES = Rule(
    lambda v: (
        bool(v)
        and all(_is_stage(n, s) for n, s in v.items())
        and len({os.path.normpath(s["makes"]) for s in v.values()}) == len(v)
    ),
    "must map each stage's name (lower-case letters, digits, _ and -), in the order they run, to "
    f"{{trainer: one of {names(list(TRAINERS))}, config: the YAML file of the command that ran, "
    "makes: the file that command made}, no two stages making the same file",
)


@dataclass(frozen=True, kw_only=True)
class ChainConfig(Schema):
    """Everything that defines a chain."""

    stages: dict[str, Any] = setting(rule=STAGES, required="stage name: {trainer, config, makes}")
    """the stages in order; a later stage's config that names the file an earlier stage
    ``makes`` reads the chain's own output of that stage instead"""
    out: str = setting(rule=non_empty("path"), required="the chain's folder")
    """the chain's folder: each stage's config, run and record in ``<out>/<stage>/``, the last
    stage's policy as ``<out>/policy.pt`` and the summary as ``<out>/chain.json``"""


def load_chain_config(path: str | os.PathLike[str]) -> ChainConfig:
    """Read and check a chain's YAML config, and every stage's config by its trainer's schema
    (each is a command that ran, so a mistake in the last stage stops the chain before the first
    starts); :class:`ConfigError` says what is wrong."""
    cfg = ChainConfig.from_dict(read_config_mapping(path), source=str(path))
    for name, stage in cfg.stages.items():
        try:
            TRAINERS[stage["trainer"]].load(stage["config"])
        except ConfigError as exc:
            raise ConfigError(f"{path}: stage {name!r}: {exc}") from exc
    return cfg
