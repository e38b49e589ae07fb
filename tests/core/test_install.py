"""The base install plays without torch; training, tests and export come as extras.

Why: the environments, the bots and ONNX play are what a front-end or another trainer needs, and
a plain ``pip install torch`` on Linux is a multi-GB CUDA build. ``pip install reborn_env`` must
give numpy, gymnasium and pettingzoo and nothing that pulls torch in.

The proof is a fresh virtual environment (a new one, not one that sees this one's site-packages)
holding exactly the files of the base requirements and of onnxruntime, with their dependencies as
their own metadata declares them, and this repository on its path: there both registered games
are played to the end, an exported ONNX policy plays a game and every module of ``reborn_env``
imports, with torch not installed at all. Likewise the base install and the ``train`` extra alone
import every module of ``training/``. Linking the installed distributions' files keeps each venv
a second's work without a network (a real ``pip install .`` into a fresh venv downloads them; it
was run by hand).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
import venv
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRAS = PROJECT["optional-dependencies"]
TRAINING_ONLY = {"torch", "tensorboard", "matplotlib", "pyyaml"}
"""Distributions only training needs (the ``train`` extra); none may come with the base install."""
TRAINING_MODULES = ("torch", "tensorboard", "matplotlib", "yaml")
ONNX_PLAY = "onnxruntime"
EXTRA_MODULES = {
    "reborn_env.web": "web",
    "reborn_env.interop.openspiel": "interop",
    "reborn_env.policies.": "train",
    "training.rllib.": "rllib",
}
"""Module name prefixes that need an extra: the base install leaves them out; a venv with that
extra imports them (test_each_extra_imports_its_modules). The policy modules need torch, the
train extra (``load_bot`` imports them only for a ``.pt`` file; their package itself imports
without it)."""
SHIPPED_CHECKPOINT = ROOT / "checkpoints" / "earth_reborn_ppo.pt"


def names_of(requirements: Iterable[str]) -> set[str]:
    return {canonicalize_name(Requirement(r).name) for r in requirements}


def requirement_closure(roots: Iterable[str]) -> set[str]:
    """The installed distributions ``roots`` need (requirement strings: a name, or a name with
    extras such as ``ray[rllib]``), with everything they require in turn, their markers read for
    this interpreter and the extras asked for."""
    seen: set[tuple[str, str]] = set()
    todo = [
        (canonicalize_name(r.name), e) for r in map(Requirement, roots) for e in {"", *r.extras}
    ]
    while todo:
        name, extra = todo.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        environment = {**default_environment(), "extra": extra}
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate(environment):
                if extra and requirement.marker is None:
                    continue  # already followed for the distribution itself
                todo += [
                    (canonicalize_name(requirement.name), e) for e in {"", *requirement.extras}
                ]
    return {name for name, _ in seen}


def top_level_owners() -> dict[str, set[str]]:
    """Each top-level entry of the installed site-packages, with the distributions having files
    there (a namespace package such as ``google`` has several)."""
    owners: dict[str, set[str]] = {}
    for distribution in metadata.distributions():
        name = canonicalize_name(distribution.metadata["Name"])
        for file in distribution.files or []:
            if file.parts[0] != "..":
                owners.setdefault(file.parts[0], set()).add(name)
    return owners


def link_distributions(names: Iterable[str], site_packages: Path) -> None:
    """Put the installed distributions ``names`` into ``site_packages`` as symbolic links: a
    top-level entry that only they have files in as one link, any other file by file. The venv
    then has those packages and nothing else."""
    chosen = set(names)
    owners = top_level_owners()
    for name in sorted(chosen):
        distribution = metadata.distribution(name)
        for file in distribution.files or []:
            top = file.parts[0]
            if top == ".." or "__pycache__" in file.parts:
                continue  # scripts outside site-packages; bytecode is rebuilt on import
            whole = owners[top] <= chosen
            relative = Path(top) if whole else Path(file)
            target = site_packages / relative
            if target.is_symlink() or target.exists():
                continue
            source = Path(distribution.locate_file(relative)).resolve()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(source)


def fresh_venv(path: Path, distributions: Iterable[str]) -> Path:
    """A new virtual environment at ``path`` with ``distributions`` and this repository on its
    path (as an editable install puts it); its python."""
    venv.create(path, with_pip=False, system_site_packages=False, clear=True)
    python = path / "bin" / "python"
    where = subprocess.run(
        [str(python), "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    site_packages = Path(where.stdout.strip())
    link_distributions(distributions, site_packages)
    (site_packages / "reborn_env_repository.pth").write_text(f"{ROOT}\n")
    return python


IMPORT_ALL = """
import importlib, pkgutil


def unimportable(package, skip=(), only=""):
    failed = {}
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if any(module.name.startswith(s) for s in skip) or not module.name.startswith(only):
            continue
        try:
            importlib.import_module(module.name)
        except Exception as exc:
            failed[module.name] = repr(exc)
    return failed
"""
"""Every module of a package imported; those that fail, with why."""


def run_isolated(python: Path, script: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """``script`` run by ``python`` in isolated mode (no PYTHONPATH, no user site, not the
    current folder on the path), so only the venv's site-packages are seen."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return subprocess.run(
        [str(python), "-I", "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**env, "PYTHONDONTWRITEBYTECODE": "1", "OMP_NUM_THREADS": "1"},
    )


SMOKE = (
    IMPORT_ALL
    + """
import importlib.util, json, sys

assert importlib.util.find_spec("torch") is None, "torch is installed in the fresh venv"
import reborn_env
from reborn_env.bots import RandomBot
from reborn_env.bots.arena import play_game
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry


class Counting:
    def __init__(self, bot):
        self.bot, self.decisions = bot, 0

    def act(self, observation, action_mask):
        self.decisions += 1
        return self.bot.act(observation, action_mask)

    def reset(self):
        self.bot.reset()


def play(env, first):
    seats = {a: RandomBot(seed=i) for i, a in enumerate(env.possible_agents)}
    seats[env.possible_agents[0]] = first
    returns = play_game(env, seats, seed=3)
    assert not env.agents, "the game did not end"
    return returns


report = {"games": {}, "unimportable": unimportable(reborn_env, json.loads(sys.argv[3]))}
for name in registry.names():
    report["games"][name] = play(registry.get(name).make_env(), Counting(RandomBot(seed=9)))
onnx = load_bot(sys.argv[1], greedy=True, seed=0, env_name=sys.argv[2])
counted = Counting(onnx)
report["onnx"] = play(registry.get(sys.argv[2]).make_env(), counted)
report["onnx_decisions"] = counted.decisions
report["bot_class"] = type(onnx).__name__
report["loaded"] = sorted({m.split(".")[0] for m in sys.modules})
print(json.dumps(report))
"""
)


@pytest.fixture(scope="module")
def onnx_policy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The shipped policy exported to ONNX (this needs torch: it runs here, not in the venv)."""
    from training.export import export_policy

    out = tmp_path_factory.mktemp("onnx") / "earth_reborn_ppo.onnx"
    return out, export_policy(SHIPPED_CHECKPOINT, "onnx", out).env_name


def test_base_requirements_are_numpy_gymnasium_pettingzoo() -> None:
    assert names_of(PROJECT["dependencies"]) == {"numpy", "gymnasium", "pettingzoo"}
    gymnasium = next(r for r in map(Requirement, PROJECT["dependencies"]) if r.name == "gymnasium")
    assert str(gymnasium.specifier) == "<2,>=1.0"


def test_train_extra_pins_torch_exactly_and_brings_the_training_libraries() -> None:
    train = {Requirement(r).name.lower(): Requirement(r) for r in EXTRAS["train"]}
    assert set(train) == TRAINING_ONLY
    assert str(train["torch"].specifier) == "==2.13.0"  # a range resolves to a CUDA build


def test_yaml_is_read_by_training_only() -> None:
    """PyYAML goes in the ``train`` extra because nothing outside training/ imports it."""
    importers = {
        str(path.relative_to(ROOT))
        for folder in ("reborn_env", "training")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"^\s*(import yaml|from yaml)", path.read_text(), re.M)
    }
    assert importers and all(p.startswith("training/") for p in importers), importers


def test_test_extra_includes_train_and_export() -> None:
    (itself,) = (Requirement(r) for r in EXTRAS["test"] if Requirement(r).name == PROJECT["name"])
    assert {"train", "export"} <= itself.extras
    assert names_of(EXTRAS["export"]) == {"onnx", "onnxscript", "onnxruntime"}


def test_nothing_the_base_install_or_onnx_play_needs_pulls_torch() -> None:
    needed = requirement_closure([*names_of(PROJECT["dependencies"]), ONNX_PLAY])
    assert {"numpy", "gymnasium", "pettingzoo", ONNX_PLAY} <= needed
    assert not needed & TRAINING_ONLY, needed & TRAINING_ONLY


def test_a_fresh_venv_without_torch_plays_both_envs_and_the_onnx_bot(
    tmp_path: Path, onnx_policy: tuple[Path, str]
) -> None:
    needed = requirement_closure([*names_of(PROJECT["dependencies"]), ONNX_PLAY])
    python = fresh_venv(tmp_path / "venv", needed)
    policy, env_name = onnx_policy
    skipped = json.dumps(list(EXTRA_MODULES))
    run = run_isolated(python, SMOKE, tmp_path, str(policy), env_name, skipped)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.splitlines()[-1])
    packaged = {
        p.name for p in (ROOT / "reborn_env" / "games").iterdir() if (p / "__init__.py").is_file()
    }
    assert len(report["games"]) == len(packaged) >= 2
    for returns in report["games"].values():
        assert all(r in (-1.0, 0.0, 1.0) for r in returns.values()), returns
    assert report["bot_class"] == "OnnxBot" and report["onnx_decisions"] > 0
    assert not set(report["loaded"]) & set(TRAINING_MODULES), report["loaded"]
    assert report["unimportable"] == {}


def test_the_train_extra_is_all_that_training_imports(tmp_path: Path) -> None:
    """Every module of training/ imports in a fresh venv with the base install and the train
    extra alone (no test or export extra)."""
    needed = requirement_closure([*names_of(PROJECT["dependencies"]), *names_of(EXTRAS["train"])])
    assert "torch" in needed and "onnx" not in needed and "pytest" not in needed
    python = fresh_venv(tmp_path / "venv", needed)
    script = (
        IMPORT_ALL
        + "import json, sys, training\n"
        + "print(json.dumps(unimportable(training, json.loads(sys.argv[1]))))\n"
    )
    run = run_isolated(python, script, tmp_path, json.dumps(list(EXTRA_MODULES)))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == {}


@pytest.mark.parametrize("prefix", sorted(EXTRA_MODULES))
def test_each_extra_imports_its_modules(tmp_path: Path, prefix: str) -> None:
    """Modules the base install leaves out import with the base install, the train extra and
    their own extra."""
    extra = EXTRAS[EXTRA_MODULES[prefix]]
    roots = [*names_of(PROJECT["dependencies"]), *names_of(EXTRAS["train"]), *extra]
    python = fresh_venv(tmp_path / "venv", requirement_closure(roots))
    script = (
        IMPORT_ALL
        + "import importlib, json, pkgutil, sys\n"
        + "top = importlib.import_module(sys.argv[1].split('.')[0])\n"
        + "names = [m.name for m in pkgutil.walk_packages(top.__path__, top.__name__ + '.')]\n"
        + "print(json.dumps([unimportable(top, only=sys.argv[1]), names]))\n"
    )
    run = run_isolated(python, script, tmp_path, prefix)
    assert run.returncode == 0, run.stderr
    failed, names = json.loads(run.stdout.splitlines()[-1])
    assert failed == {}
    assert any(name.startswith(prefix) for name in names), f"no module starts with {prefix}"


def test_the_suite_runs_on_the_gymnasium_ray_pins() -> None:
    """The test extra brings the rllib extra, so this suite runs with the gymnasium Ray's RLlib
    pins (1.2.2 for Ray 2.60), inside our own range: the project is proven to work with it."""
    (itself,) = (Requirement(r) for r in EXTRAS["test"] if Requirement(r).name == PROJECT["name"])
    assert "rllib" in itself.extras
    pins = [
        Requirement(text)
        for text in metadata.requires("ray") or []
        if Requirement(text).name == "gymnasium"
        and Requirement(text).marker.evaluate({**default_environment(), "extra": "rllib"})
    ]
    assert pins, "ray[rllib] no longer names gymnasium"
    installed = metadata.version("gymnasium")
    assert all(installed in pin.specifier for pin in pins), (installed, pins)
    ours = next(r for r in map(Requirement, PROJECT["dependencies"]) if r.name == "gymnasium")
    assert installed in ours.specifier
