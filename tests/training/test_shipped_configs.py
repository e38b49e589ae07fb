"""Every config in configs/ loads with the loader of its trainer: its keys known, its values in
range, its env built with its env_kwargs (so a config naming a scenario the game does not bundle,
or sizes that disagree, fails here rather than minutes into a run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from training.chain.config import ChainConfig, load_chain_config
from training.chain.run import stage_configs
from training.compare.config import load_compare_config
from training.league.config import load_league_config
from training.mmd.config import load_mmd_config
from training.nfsp.config import load_nfsp_config
from training.ppo.config import load_config
from training.rllib.config import load_rllib_config

CONFIGS = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.yaml"))


def loader_of(path: Path):
    """The trainer a config file is for, by the suffix of its name (``_nfsp``, ``_rllib``,
    ``_mmd``, ``_league``, ``_compare``, ``_chain``)."""
    if path.stem.endswith("_chain"):
        return load_chain_config
    if path.stem.endswith("_compare"):
        return load_compare_config
    if path.stem.endswith("_mmd"):
        return load_mmd_config
    if path.stem.endswith("_league"):
        return load_league_config
    if path.stem.endswith("_nfsp"):
        return load_nfsp_config
    if path.stem.endswith("_rllib"):
        return load_rllib_config
    return load_config


def test_there_are_configs():
    assert len(CONFIGS) >= 6, CONFIGS


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_every_shipped_config_loads(path: Path):
    config = loader_of(path)(path)
    if isinstance(config, ChainConfig):
        # every stage's config loaded with it; stage_configs refuses a stage that reads a policy
        # no earlier stage trains
        assert list(stage_configs(config)) == list(config.stages)
        return
    assert config.env, path
    env_kwargs = getattr(config, "env_kwargs", {})
    if env_kwargs.get("scenario") is not None:  # a bundled or generated map, or a list of them
        from training.common.envs import make_env

        make_env(config.env, **env_kwargs).close()
