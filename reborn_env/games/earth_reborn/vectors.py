"""The registered vector of Earth Reborn games: one scenario in its own layout, or any scenarios
in the universal one (ER-UNI-6)."""

from __future__ import annotations

from typing import Any

from .fast.mixed_vector import MixedVectorEnv
from .fast.vector import VectorEnv
from .universal_match import LAYOUTS


def vector_env(
    num_envs: int = 256,
    seed: int = 0,
    num_threads: int = 1,
    backend: str | None = None,
    layout: str = "scenario",
    **options: Any,
) -> VectorEnv | MixedVectorEnv:
    """``num_envs`` Earth Reborn games stepped at once; ``options`` as env(): ``scenario``,
    ``mp_shaping``, ``max_steps`` (ER-ENV-9), ``illegal_action`` (only ``"raise"``). With
    ``layout="universal"`` the games show the universal observation and take universal actions,
    and ``scenario`` may be a list of names, slot ``i`` playing the ``i % len``-th."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout {layout!r}: choose one of {', '.join(map(repr, LAYOUTS))}")
    scenario = options.pop("scenario", "vault_raid")
    if layout == "universal":
        return MixedVectorEnv(num_envs, seed, num_threads, backend, scenario, **options)
    if not isinstance(scenario, str):
        raise ValueError(
            f"scenario {scenario!r}: a vector of several scenarios needs layout='universal', "
            "the one observation every scenario shares"
        )
    return VectorEnv(num_envs, seed, num_threads, backend, scenario, **options)
