"""MMD's configuration: PPO's keys (the loop, the league, the warm start are PPO's) and MMD's four.

``ent_coef`` must stay 0: with a uniform magnet the magnet term is the entropy bonus, and with a
policy as magnet an entropy bonus would pull toward uniform play instead.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from training.common.rules import NON_NEGATIVE_NUMBER, Rule
from training.common.schema import ConfigError, setting
from training.ppo.config import TrainConfig

UNIFORM = "uniform"
MAGNET = Rule(
    lambda v: isinstance(v, str) and (v == UNIFORM or os.path.isfile(v)),
    f'must be "{UNIFORM}" or an existing policy file',
)


@dataclass(frozen=True, kw_only=True)
class MMDConfig(TrainConfig):
    """A PPO run whose update is MMD's (the YAML keys are these field names and PPO's)."""

    ent_coef: float = setting(0.0, NON_NEGATIVE_NUMBER)
    """must be 0: the magnet term regularises instead (see ``magnet``)"""
    magnet: str = setting(UNIFORM, MAGNET)
    """the policy the update is pulled toward: "uniform" (uniform over the legal actions: an
    entropy bonus) or a policy file of this env (e.g. the teacher's clone or a shipped policy)"""
    magnet_coef: float = setting(0.05, NON_NEGATIVE_NUMBER)
    """alpha at the first update: the weight of KL(pi || magnet)"""
    magnet_coef_end: float = setting(0.01, NON_NEGATIVE_NUMBER)
    """alpha at the last update (linear in between): the regularisation fades toward the game's
    own equilibrium"""
    kl_coef: float = setting(0.1, NON_NEGATIVE_NUMBER)
    """1 / eta: the weight of KL(pi || pi_old), the mirror-descent step's proximity to the
    policy that played the rollout"""

    def check_together(self) -> None:
        """PPO's cross-key rules, and no entropy bonus beside the magnet."""
        super().check_together()
        if self.ent_coef:
            raise ConfigError(
                f"{self.origin}: key 'ent_coef': must be 0 in an MMD run (got {self.ent_coef}); "
                "the magnet term regularises instead: magnet: uniform is the entropy bonus"
            )


def load_mmd_config(path: str | os.PathLike[str]) -> MMDConfig:
    """Read and check an MMD run's YAML config; :class:`ConfigError` says what is wrong."""
    return MMDConfig.load(path)
