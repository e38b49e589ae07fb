"""The backends: the build of the compiled core, choosing it (the default when built,
one warning without it, a clear error when asked for and missing), and the AEC env on it,
byte-identical to the reference engine's: observations, masks, rewards, flags, positions and
the words of every refusal (ER-ENV-1, -8, -9, -10, ER-WIN-3).

The env tests run with :class:`ReferenceGames` standing in for ``_core.Games`` (``stand-in``,
which proves FastMatch's side of the contract everywhere) and on the compiled core (``fast``)
wherever it should have been built; a core that should be there and is not fails the test.
"""

from __future__ import annotations

import hashlib
import runpy
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.core.errors import IllegalActionError
from reborn_env.games.earth_reborn import fast
from reborn_env.games.earth_reborn.fast import match as fast_match
from reborn_env.games.earth_reborn.fast.match import FastMatch
from reborn_env.games.earth_reborn.fast.reference import ReferenceGames
from reborn_env.games.earth_reborn.match import EarthRebornMatch

ROOT = Path(__file__).resolve().parents[3]
CORES = ["stand-in"] + (["fast"] if fast.build_expected() or fast.AVAILABLE else [])


def test_the_core_is_built_wherever_its_sources_and_a_compiler_are() -> None:
    """setup.py's build is optional, so a failed compile only warns: this is where it fails."""
    if fast.build_expected():
        assert fast.AVAILABLE, f"the compiled core was not built: {fast.IMPORT_ERROR}"
        assert hasattr(fast.core, "Games")
    assert (fast.core is None) == (fast.IMPORT_ERROR is not None) == (not fast.AVAILABLE)


def test_setup_compiles_each_games_c_sources_into_one_optional_extension(tmp_path: Path) -> None:
    """setup.py: per game, the extension fast._core from every fast/src/*.c and the shared
    binding layer's C, its headers and the shared binding header as dependencies and include
    folders, -O3, C11 and threads, optional;
    nothing for a game whose src/ holds no C file."""
    setup = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")
    games = tmp_path / "reborn_env" / "games"
    src = games / "alpha" / "fast" / "src"
    src.mkdir(parents=True)
    (games / "beta" / "fast" / "src").mkdir(parents=True)
    assert setup["core_extensions"](tmp_path) == []
    for name in ("b.c", "a.c", "core.h", "notes.txt"):
        (src / name).write_text("")
    binding = tmp_path / "reborn_env" / "core" / "csrc"
    binding.mkdir(parents=True)
    (binding / "rb_binding.h").write_text("")
    (binding / "rb_pool.c").write_text("")
    (extension,) = setup["core_extensions"](tmp_path)
    assert extension.name == "reborn_env.games.alpha.fast._core"
    folder = "reborn_env/games/alpha/fast/src"
    assert extension.sources == [f"{folder}/a.c", f"{folder}/b.c", "reborn_env/core/csrc/rb_pool.c"]
    assert extension.depends == ["reborn_env/core/csrc/rb_binding.h", f"{folder}/core.h"]
    assert extension.include_dirs == [folder, "reborn_env/core/csrc"]
    assert extension.optional
    assert {"-O3", "-std=c11", "-pthread"} <= set(extension.extra_compile_args)
    (games / "beta" / "fast" / "src" / "x.c").write_text("")
    names = [e.name for e in setup["core_extensions"](tmp_path)]
    assert names == ["reborn_env.games.alpha.fast._core", "reborn_env.games.beta.fast._core"]


@pytest.fixture
def no_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package as it is without a built core."""
    monkeypatch.delenv(fast.DEFAULT_VARIABLE, raising=False)
    monkeypatch.setattr(fast, "AVAILABLE", False)
    monkeypatch.setattr(fast, "IMPORT_ERROR", "no _core extension was built")
    monkeypatch.setattr(fast, "_warned", False)


def test_without_the_core_the_default_is_the_reference_with_one_warning(no_core: None) -> None:
    """The package still imports and runs on the reference engine, with one warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        envs = [earth_reborn_v0.env(), earth_reborn_v0.env(), earth_reborn_v0.vector_env(2)]
    assert [e.backend for e in envs] == ["python"] * 3
    assert len(caught) == 1 and issubclass(caught[0].category, RuntimeWarning)
    assert "not built" in str(caught[0].message) and "reference" in str(caught[0].message)


def test_asking_for_the_missing_core_is_an_error_and_the_reference_is_silent(
    no_core: None,
) -> None:
    with pytest.raises(fast.CoreUnavailableError, match="backend='python'"):
        earth_reborn_v0.env(backend="fast")
    with pytest.raises(fast.CoreUnavailableError):
        earth_reborn_v0.vector_env(2, backend="fast")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert earth_reborn_v0.env(backend="python").backend == "python"
    with pytest.raises(ValueError, match="backend must be one of 'fast', 'python', got 'c'"):
        earth_reborn_v0.env(backend="c")


def test_the_environment_variable_sets_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast.DEFAULT_VARIABLE, "python")
    env = earth_reborn_v0.env()
    env.reset(seed=0)
    assert env.backend == "python" and isinstance(env.unwrapped.match, EarthRebornMatch)
    monkeypatch.setenv(fast.DEFAULT_VARIABLE, "quick")
    with pytest.raises(ValueError, match="REBORN_ENV_BACKEND must be one of fast, python"):
        earth_reborn_v0.env()


@pytest.fixture(params=CORES)
def fast_env(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Callable:
    """``fast_env(**options)``: earth_reborn_v0.env(backend="fast") on the parametrised core."""
    if request.param == "fast":
        assert fast.AVAILABLE, f"the core should have been built here: {fast.IMPORT_ERROR}"
    else:
        monkeypatch.setattr(fast, "AVAILABLE", True)
        monkeypatch.setattr(fast_match, "core", types.SimpleNamespace(Games=ReferenceGames))
    return lambda **options: earth_reborn_v0.env(backend="fast", **options)


def play(env: Any, seed: int, choose: Callable[[np.random.Generator, np.ndarray], int]) -> str:
    """A seeded game, hashed at every AEC step: each agent's observation and mask, the rewards,
    flags, selection, and every 25 steps the position and the decision described."""
    digest = hashlib.sha256()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for n, agent in enumerate(env.agent_iter(max_iter=4000)):
        for a in env.possible_agents:
            seen = env.observe(a)
            digest.update(seen["observation"].tobytes() + seen["action_mask"].tobytes())
        obs, reward, termination, truncation, info = env.last()
        digest.update(repr((agent, reward, termination, truncation, info)).encode())
        if n % 25 == 0:
            digest.update(repr(env.unwrapped.get_state()).encode())
            digest.update(env.unwrapped.match.describe().encode())
        done = termination or truncation
        env.step(None if done else choose(rng, obs["action_mask"]))
    digest.update(repr((env.unwrapped.match.result(), env.unwrapped.match.summary())).encode())
    return digest.hexdigest()


def random_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(
    "options",
    [{}, {"mp_shaping": 0.5}, {"max_steps": 90}],
    ids=["default", "mp-shaping", "truncated"],
)
def test_the_aec_env_is_the_same_on_either_backend(
    fast_env: Callable, options: dict[str, Any]
) -> None:
    """Every observation, mask, reward and flag of seeded games; MP shaping and ER-ENV-9."""
    for seed in (0, 1, 2):
        env = fast_env(**options)
        assert env.backend == "fast"
        reference = play(earth_reborn_v0.env(backend="python", **options), seed, random_choice)
        assert play(env, seed, random_choice) == reference
        assert isinstance(env.unwrapped.match, FastMatch)


def test_an_illegal_action_is_refused_in_the_same_words(fast_env: Callable) -> None:
    """ER-ENV-8: the engine's message, nothing changed; in penalize mode the same ending."""
    env, reference = fast_env(), earth_reborn_v0.env(backend="python")
    for e in (env, reference):
        e.reset(seed=4)
    before = env.unwrapped.get_state()
    unmasked = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    for bad in (unmasked, -3, 203, 10**30, True, 1.0):
        with pytest.raises(IllegalActionError) as expected:
            reference.step(bad)
        with pytest.raises(IllegalActionError) as refused:
            env.step(bad)
        assert str(refused.value) == str(expected.value)
        assert env.unwrapped.get_state() == before
    penalized = [
        fast_env(illegal_action="penalize"),
        earth_reborn_v0.env(backend="python", illegal_action="penalize"),
    ]
    outcomes = []
    for e in penalized:
        e.reset(seed=4)
        e.step(unmasked)
        outcomes.append((e.rewards, e.terminations, e.infos))
    assert outcomes[0] == outcomes[1]


def test_positions_load_into_the_core_and_play_on_alike(fast_env: Callable) -> None:
    """set_state and reset(options={"position": ...}) on the core: the same game afterwards."""
    reference = earth_reborn_v0.env(backend="python")
    reference.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(40):
        reference.step(
            random_choice(rng, reference.observe(reference.agent_selection)["action_mask"])
        )
    position = reference.unwrapped.get_state()
    env = fast_env()
    env.reset(options={"position": position})
    assert (
        env.unwrapped.get_state() == position and env.agent_selection == reference.agent_selection
    )
    for _ in range(40):
        mask = env.observe(env.agent_selection)["action_mask"]
        assert np.array_equal(mask, reference.observe(reference.agent_selection)["action_mask"])
        action = random_choice(rng, mask)
        env.step(action)
        reference.step(action)
        assert env.unwrapped.get_state() == reference.unwrapped.get_state()


def test_the_engine_state_read_from_the_env_stays_live(fast_env: Callable) -> None:
    """env.unwrapped.game is the rules engine's GameState, which game-specific code reads and
    alters (e.g. injected dice, ER-DICE-4); from that read on the match plays it, the same."""
    env, reference = fast_env(), earth_reborn_v0.env(backend="python")
    rng = np.random.default_rng(8)
    for e in (env, reference):
        e.reset(seed=8)
    game = env.unwrapped.game
    assert game.steps == 0 and game is env.unwrapped.game
    for _ in range(30):
        mask = reference.observe(reference.agent_selection)["action_mask"]
        action = random_choice(rng, mask)
        env.step(action)
        reference.step(action)
    assert game.steps == 30 and game.steps == reference.unwrapped.game.steps
    assert env.unwrapped.get_state() == reference.unwrapped.get_state()
    assert np.array_equal(
        env.observe(env.agent_selection)["observation"],
        reference.observe(reference.agent_selection)["observation"],
    )
