"""Run a chain: each stage's command in turn, in its own process, on the chain's own files.

Before anything runs, every stage's config is written out as it will run (``<out>/<stage>/
config.yaml``): its file's keys, its run folder under ``<out>/<stage>/run`` and every file an
earlier stage ``makes`` replaced by that stage's policy in the chain. A stage config that still
names a policy file no earlier stage makes is refused: a chain trains from scratch. A finished
stage leaves ``stage.json``; a rerun skips it while its config is unchanged, and refuses a changed
one unless told ``--overwrite`` (which starts the chain again). The last stage's policy becomes
``<out>/policy.pt``; ``<out>/chain.json`` lists each stage's wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from reborn_env.core.files import atomic_copy, atomic_write
from training.chain.config import ChainConfig, load_chain_config
from training.common.cli import fail
from training.common.schema import ConfigError, read_config_mapping
from training.runs.run_files import POLICY, RunDirError

RECORD = "stage.json"
"""A finished stage's record, in its folder: what ran and how long it took."""
SUMMARY = "chain.json"
"""The chain's summary, in its folder."""
POLICY_SUFFIXES = (".pt", ".onnx")
"""What names a policy file in a stage's config (a shipped policy, a run's weights)."""


def stage_policy(out: Path, name: str) -> Path:
    """Where stage ``name`` leaves its policy: its run folder's ``policy.pt``."""
    return out / name / "run" / POLICY


def _replaced(value: Any, made: dict[str, str]) -> Any:
    """``value`` with every string that names a file in ``made`` replaced by the chain's file,
    in nested mappings and lists alike."""
    if isinstance(value, dict):
        return {k: _replaced(v, made) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(v, made) for v in value]
    if isinstance(value, str):
        return made.get(os.path.normpath(value), value)
    return value


def _strings(value: Any) -> list[str]:
    """Every string in ``value``, nested mappings and lists included."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def stage_configs(cfg: ChainConfig) -> dict[str, dict[str, Any]]:
    """Each stage's config as it will run, in order (see the module docstring); ConfigError for
    a stage that reads a policy file no earlier stage of the chain makes."""
    out = Path(cfg.out)
    made: dict[str, str] = {}
    configs = {}
    for name, stage in cfg.stages.items():
        keys = _replaced(read_config_mapping(stage["config"]), made)
        outside = sorted(
            {s for s in _strings(keys) if s.endswith(POLICY_SUFFIXES) and s not in made.values()}
        )
        if outside:
            raise ConfigError(
                f"{cfg.origin}: stage {name!r} ({stage['config']}) reads {', '.join(outside)}, "
                "which no earlier stage makes; a chain trains from scratch: add the stage whose "
                "command made it, or name it in that stage's 'makes'"
            )
        configs[name] = keys | {
            "checkpoint_dir": str(out / name / "run"),
            "run_name": f"{out.name}-{name}",
        }
        made[os.path.normpath(stage["makes"])] = str(stage_policy(out, name))
    return configs


def _written(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` atomically: as JSON for a ``.json`` file, as YAML otherwise."""
    text = json.dumps(data, indent=2) if path.suffix == ".json" else yaml.safe_dump(data)
    with atomic_write(path) as f:
        f.write(text.encode())


def _start_again(cfg: ChainConfig) -> None:
    """Delete what the chain wrote (each stage's folder, its policy and summary), nothing else
    of its folder."""
    out = Path(cfg.out)
    for name in cfg.stages:
        shutil.rmtree(out / name, ignore_errors=True)
    for made in (POLICY, SUMMARY):
        (out / made).unlink(missing_ok=True)


def _finished(folder: Path, keys: dict[str, Any]) -> dict[str, Any] | None:
    """The record of the stage in ``folder`` if it finished with ``keys``, None if it did not
    finish; RunDirError if it finished with other keys (its config, or an earlier stage's,
    changed since)."""
    path = folder / RECORD
    if not path.is_file():
        return None
    record = json.loads(path.read_text())
    ran = record["config"]
    if ran != keys:
        changed = sorted(k for k in set(ran) | set(keys) if ran.get(k) != keys.get(k))
        raise RunDirError(
            f"{folder} finished with another config (keys {', '.join(changed)} differ); "
            "--overwrite starts the chain again"
        )
    return record


def run_stage(trainer: str, config: Path) -> int:
    """The stage's command, ``python -m training.<trainer> --config <config> --overwrite``, in
    its own process (its lines go to this terminal); its exit status."""
    command = [sys.executable, "-m", f"training.{trainer}", "--config", str(config), "--overwrite"]
    return subprocess.run(command, check=False).returncode


def plan(cfg: ChainConfig) -> list[str]:
    """A line per stage: the command it will run, the stages whose policies it reads and its
    clock (``max_minutes``), for a look at a long chain before it starts; runs and writes
    nothing."""
    configs = stage_configs(cfg)
    out = Path(cfg.out)
    made_by = {str(stage_policy(out, name)): name for name in configs}
    lines = []
    for number, (name, keys) in enumerate(configs.items(), 1):
        stage = cfg.stages[name]
        reads = sorted({made_by[s] for s in _strings(keys) if s in made_by})
        line = f"stage {number}/{len(configs)} {name!r}: python -m training.{stage['trainer']} "
        line += f"--config {out / name / 'config.yaml'} (from {stage['config']}); reads "
        whose = "the policies of" if len(reads) > 1 else "the policy of"
        line += f"{whose} {', '.join(map(repr, reads))}" if reads else "no earlier policy"
        if "max_minutes" in keys:
            line += f"; max_minutes {keys['max_minutes']}"
        lines.append(line)
    return lines


def run_chain(cfg: ChainConfig, overwrite: bool = False) -> dict[str, Any]:
    """Run every unfinished stage in order (see the module docstring); the summary written to
    ``<out>/chain.json``. RunDirError when a stage fails, naming it."""
    out = Path(cfg.out)
    configs = stage_configs(cfg)
    if overwrite:
        _start_again(cfg)
    # a changed config stops the chain before anything runs
    done = {name: _finished(out / name, keys) for name, keys in configs.items()}
    summary: dict[str, Any] = {"stages": {}, "policy": str(out / POLICY)}
    for number, (name, keys) in enumerate(configs.items(), 1):
        stage, folder = cfg.stages[name], out / name
        where = f"chain: stage {number}/{len(configs)} {name!r} (python -m training."
        where += f"{stage['trainer']}, from {stage['config']})"
        record = done[name]
        if record is not None:
            print(f"{where}: done earlier in {record['wall_s']:.0f} s", flush=True)
        else:
            before = sum(s["wall_s"] for s in summary["stages"].values()) / 60
            print(f"{where}: starting after {before:.1f} min of earlier stages", flush=True)
            _written(folder / "config.yaml", keys)
            start = time.perf_counter()
            status = run_stage(stage["trainer"], folder / "config.yaml")
            if status != 0 or not stage_policy(out, name).is_file():
                raise RunDirError(
                    f"stage {name!r} failed (exit status {status}; its own lines above say why); "
                    "the stages before it are kept, and a rerun starts again from this one"
                )
            record = {
                "trainer": stage["trainer"],
                "source": stage["config"],
                "makes": stage["makes"],
                "policy": str(stage_policy(out, name)),
                "wall_s": round(time.perf_counter() - start, 1),
                "config": keys,
            }
            _written(folder / RECORD, record)
            print(f"{where}: done in {record['wall_s']:.0f} s", flush=True)
        summary["stages"][name] = {k: record[k] for k in ("trainer", "source", "policy", "wall_s")}
    atomic_copy(stage_policy(out, name), out / POLICY)
    summary["wall_s"] = round(sum(s["wall_s"] for s in summary["stages"].values()), 1)
    _written(out / SUMMARY, summary)
    print(f"chain: {len(configs)} stages, {summary['wall_s'] / 60:.1f} min of training in all")
    for name, done in summary["stages"].items():
        print(f"  {name:<16} {done['trainer']:<7} {done['wall_s']:>8.0f} s  {done['policy']}")
    print(f"chain: the policy is {out / POLICY}")
    return summary


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; the exit status (2, with one ``error:`` line, on a user's mistake or a
    stage that failed)."""
    parser = argparse.ArgumentParser(
        prog="python -m training.chain",
        description="Training runs as one command, each stage reading the chain's own files",
    )
    parser.add_argument("--config", required=True, help="YAML file in configs/")
    parser.add_argument(
        "--overwrite", action="store_true", help="start again, deleting what the chain wrote"
    )
    parser.add_argument(
        "--plan", action="store_true", help="print what each stage runs and reads; run nothing"
    )
    args = parser.parse_args(argv)
    try:
        cfg = load_chain_config(args.config)
        if args.plan:
            print("\n".join(plan(cfg)))
            return 0
        run_chain(cfg, overwrite=args.overwrite)
    except (ConfigError, RunDirError) as exc:
        return fail(exc)
    return 0
