"""Writing files atomically: a temporary file in the same folder, renamed over the target.

A reader (or a crash) never sees half a checkpoint, game log or picture: the new file replaces the
old one only once it is complete, flushed, fsynced and (optionally) checked. A write killed before
its rename leaves its temporary file (``.<name>.<random>.tmp`` next to the target); the next write
of the same target removes it, so killed runs do not pile up temporary files. One target has one
writer at a time: a second writer of the same target at the same moment loses its temporary file
and fails (the target is never left half written).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

TMP_SUFFIX = ".tmp"


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike[str], check: Callable[[Path], None] | None = None
) -> Iterator[BinaryIO]:
    """A binary file that becomes ``path`` only if the ``with`` block (and ``check``) succeeds.

    It is a temporary file in the same directory (created if missing); on success it is flushed,
    fsynced, passed to ``check``, given mode 0644 and renamed over ``path``. On any failure it is
    removed and ``path`` is untouched. Temporary files of earlier, killed writes of ``path`` are
    removed first (:func:`remove_stale_temp_files`).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_files(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if check is not None:
            check(tmp)
        tmp.chmod(0o644)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def atomic_copy(source: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Copy ``source`` to ``path`` by :func:`atomic_write`: a reader of ``path`` sees the old
    file or the whole copy, never half of it."""
    with atomic_write(path) as f, open(source, "rb") as original:
        shutil.copyfileobj(original, f)


def stale_temp_files(path: str | os.PathLike[str]) -> list[Path]:
    """The temporary files :func:`atomic_write` left next to ``path`` in writes that never ended
    (``.<name>.<mkstemp's random part>.tmp``, regular files only), sorted by name."""
    path = Path(path)
    pattern = re.compile(re.escape(f".{path.name}.") + r"[A-Za-z0-9_]+" + re.escape(TMP_SUFFIX))
    if not path.parent.is_dir():
        return []
    return sorted(
        entry
        for entry in path.parent.iterdir()
        if pattern.fullmatch(entry.name) and entry.is_file() and not entry.is_symlink()
    )


def remove_stale_temp_files(path: str | os.PathLike[str]) -> None:
    """Delete :func:`stale_temp_files` of ``path`` (one that vanished meanwhile is fine)."""
    for stale in stale_temp_files(path):
        stale.unlink(missing_ok=True)


def check_writable_dir(folder: str | os.PathLike[str]) -> None:
    """Create ``folder`` (and its parents) if missing and prove a file can be written in it.

    Raises ``OSError`` (its ``strerror`` says why) if the folder cannot be made or written, so a
    program can refuse at start-up what it would otherwise find out only when it saves.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=folder):
        pass


def _fsync_dir(directory: Path) -> None:
    """Make the rename durable (POSIX); a no-op where directories cannot be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
