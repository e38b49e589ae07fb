"""Where a run writes, checked before it trains, and why a new run never mixes with an old one.

A run writes :data:`RUN_FILES` into its config's ``checkpoint_dir`` and TensorBoard event files
into its log folder, ``runs/<run_name>``. Started again without ``--resume``, it would replace the
first run's checkpoints and add a second event file next to the first, which TensorBoard draws as
one run. So a fresh run refuses a ``checkpoint_dir`` that is not empty, or a ``runs/<run_name>``
that holds event files, unless ``overwrite`` is given: then it deletes the earlier run's files
(:data:`RUN_FILES`, temporary files of their killed writes, the event files) and nothing else. A
resumed run needs ``<checkpoint_dir>/latest.pt``. A log folder given explicitly (``log_dir``, as
tests and sweeps do to share one) is the caller's: it is neither checked for event files nor
cleared.

Both folders are created and proved writable up front, so a path that cannot be written is found
at start-up, not at the first checkpoint after an hour of training.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from reborn_env.core.files import check_writable_dir, remove_stale_temp_files

LATEST = "latest.pt"
POLICY = "policy.pt"
CURVE = "learning_curve.png"
RUN_FILES = (LATEST, POLICY, CURVE)
"""What a run writes into its ``checkpoint_dir``."""
EVENT_GLOB = "events.out.tfevents.*"
"""TensorBoard's event files (``SummaryWriter`` writes one per run)."""
SHOWN = 4
"""Names listed in a refusal before "and N more"."""


class RunConfig(Protocol):
    """What a run's folders are read from: any algorithm's config."""

    checkpoint_dir: str
    run_name: str


class RunDirError(ValueError):
    """A run that cannot start with these folders; the message says why and what to do."""


def default_log_dir(cfg: RunConfig) -> Path:
    """The log folder of a run: ``runs/<run_name>``."""
    return Path("runs") / cfg.run_name


def prepare_run_dirs(
    cfg: RunConfig, log_dir: str | None = None, resume: bool = False, overwrite: bool = False
) -> Path:
    """Check the run's folders (and with ``overwrite`` delete an earlier run's files); the log
    folder to write to. :class:`RunDirError` says what is wrong."""
    out = Path(cfg.checkpoint_dir)
    logs = Path(log_dir) if log_dir is not None else default_log_dir(cfg)
    if resume and overwrite:
        raise RunDirError(
            "--resume continues the run in checkpoint_dir and --overwrite deletes it; give one"
        )
    if resume and not (out / LATEST).is_file():
        raise RunDirError(
            f"nothing to resume: {out / LATEST} does not exist; start the run without --resume"
        )
    if not resume:
        earlier = _earlier_run(out, logs if log_dir is None else None)
        if earlier and not overwrite:
            raise RunDirError(
                f"{' and '.join(earlier)}: a run there would replace or mix with it; pass "
                f"--resume to continue that run, or --overwrite to delete its files "
                f"({', '.join(RUN_FILES)} and TensorBoard event files) and start again"
            )
    for what, folder in (("checkpoint_dir", out), ("log folder", logs)):
        try:
            check_writable_dir(folder)
        except OSError as exc:
            raise RunDirError(
                f"{what} {folder}: cannot create it or write in it: {exc.strerror or exc}"
            ) from exc
    if overwrite:
        _delete_run_files(out, logs if log_dir is None else None)
    return logs


def _earlier_run(out: Path, logs: Path | None) -> list[str]:
    """What an earlier run left: a non-empty ``checkpoint_dir``, event files in ``logs``."""
    found = []
    if out.is_dir():
        names = sorted(entry.name for entry in out.iterdir())
        if names:
            more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
            found.append(
                f"checkpoint_dir {out} is not empty (holds {', '.join(names[:SHOWN])}{more})"
            )
    if logs is not None and logs.is_dir() and any(logs.glob(EVENT_GLOB)):
        found.append(f"log folder {logs} holds TensorBoard event files of an earlier run")
    return found


def _delete_run_files(out: Path, logs: Path | None) -> None:
    """``--overwrite``: the earlier run's files, and nothing else of the folders."""
    for name in RUN_FILES:
        (out / name).unlink(missing_ok=True)
        remove_stale_temp_files(out / name)
    if logs is not None:
        for events in logs.glob(EVENT_GLOB):
            events.unlink(missing_ok=True)
