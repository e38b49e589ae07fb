"""Writing files atomically: a temporary file in the same folder, renamed over the target.

A reader (or a crash) never sees half a checkpoint, game log or picture: the new file replaces the
old one only once it is complete, flushed, fsynced and (optionally) checked.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike[str], check: Callable[[Path], None] | None = None
) -> Iterator[BinaryIO]:
    """A binary file that becomes ``path`` only if the ``with`` block (and ``check``) succeeds.

    It is a temporary file in the same directory (created if missing); on success it is flushed,
    fsynced, passed to ``check``, given mode 0644 and renamed over ``path``. On any failure it is
    removed and ``path`` is untouched.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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


def _fsync_dir(directory: Path) -> None:
    """Make the rename durable (POSIX); a no-op where directories cannot be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
