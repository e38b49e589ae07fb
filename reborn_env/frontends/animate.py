"""Animate a saved game log of any registered game: an animated GIF or a folder of PNG frames.

Run: ``python -m reborn_env.frontends.animate LOG --out FILE.gif|DIR [--every K] [--fps N]
[--no-caption]``. The log (reborn_env.frontends.game_log) is replayed move by move and each
position is drawn with the environment's ``rgb_array`` render, the public picture every player may
see, so an animation never shows a hidden tile or hand. ``--every K`` keeps the start, every K-th
position and the final one. ``--out`` ending in ``.gif`` writes a GIF (``--fps`` frames per second,
the last frame held 2 s); anything else is a folder of ``frame_<moves applied, 5 digits>.png``.

Under each frame a caption strip says how many moves were applied, out of how many, and which
move led there (the mover's colour swatch, then its name); the last frame of a finished log adds
its result (``GameSpec.result_caption``: ``<AGENT> WINS`` or ``DRAW``; in a cooperative game
``TEAM WINS`` or ``TEAM LOSES``). The caption
also keeps every frame distinct: GIF writers merge identical consecutive frames, so with
``--no-caption`` a GIF may hold fewer frames than positions (the PNG folder always has them all).

Files are written atomically: the GIF goes to a temporary file renamed over ``--out``; the PNG
frames go to a temporary folder renamed to ``--out``, which replaces an existing folder only if it
holds nothing but ``frame_*.png`` files. Pillow is needed to write (``pip install -e .[viz]``) and
is imported only then; :func:`log_frames` itself is numpy alone.

A log that cannot be replayed, an ``--out`` that cannot be written or a missing Pillow prints one
line ``error: ...`` on stderr and exits with status 2, as argparse does for its usage errors.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ..core import registry
from ..core.drawing import ADVANCE, GLYPH, Colour, draw_text
from ..core.files import atomic_write
from ..core.game_env import GameEnv
from .game_log import GameLogError, load_log, log_env, replay
from .play import fail

CAPTION_H = 5 * GLYPH + 12  # one line of the core bitmap font, 6 px above and below
PAD = 8  # left margin of the caption's text
STRIP: Colour = (34, 36, 42)  # the caption's background, a status strip's
TRACK: Colour = (62, 65, 74)  # the rule above it
TEXT: Colour = (236, 236, 236)
HOLD_LAST_MS = 2000
FRAME_GLOB = "frame_*.png"


def frame_count(moves: int, every: int = 1) -> int:
    """Frames of a log of ``moves`` moves: positions 0, K, 2K, ... and the final one."""
    return math.ceil(moves / every) + 1


def log_frames(
    log: dict[str, Any], every: int = 1, caption: bool = True
) -> Iterator[tuple[int, np.ndarray]]:
    """``(moves applied, uint8 RGB image)`` for the start, every ``every``-th position and the
    last, replaying ``log``; with ``caption`` each image has a caption strip at the bottom."""
    if every < 1:
        raise ValueError(f"every must be a positive integer, got {every!r}")
    env = log_env(log, "rgb_array")
    game = registry.get(log["env"])
    moves = log["moves"]
    for i, _ in replay(log, env):
        if i % every and i != len(moves):
            continue
        image = env.render()
        yield i, (_with_caption(image, env, game, log, i) if caption else image)


def _with_caption(
    image: np.ndarray, env: GameEnv, game: registry.GameSpec, log: dict[str, Any], i: int
) -> np.ndarray:
    """``image`` over a strip: ``MOVE i/n``, the mover's swatch and the move; RESULT at the end."""
    moves = log["moves"]
    height, width, _ = image.shape
    out = np.empty((height + CAPTION_H, width, 3), dtype=np.uint8)
    out[:height] = image
    out[height:] = STRIP
    out[height : height + 2] = TRACK  # a rule between the status strip and the caption
    y = height + 6
    head = f"MOVE {i}/{len(moves)}" if i else f"START 0/{len(moves)}"
    draw_text(out, PAD, y, head, TEXT)
    x = PAD + (len(head) + 1) * ADVANCE
    if i:
        move = moves[i - 1]
        seat = env.possible_agents.index(move["agent"])
        out[y : y + 5 * GLYPH, x : x + 12] = game.agent_colours()[seat]
        x += 12 + ADVANCE
        draw_text(out, x, y, move["name"], TEXT)
        x += (len(move["name"]) + 1) * ADVANCE
    if i == len(moves) and log.get("result"):
        draw_text(out, x + ADVANCE, y, game.result_caption(log["result"]), TEXT)
    return out


# --- Writing ------------------------------------------------------------------------------------


def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(
            "writing animations needs Pillow: pip install -e .[viz] (or pip install pillow)"
        ) from None
    return Image


def write_gif(frames: Iterable[np.ndarray], path: str | os.PathLike[str], fps: float = 4) -> int:
    """Write ``frames`` as a looping GIF at ``fps``, the last held 2 s, atomically; the number
    of frames given. Frames are converted one at a time as Pillow asks for them."""
    if not fps > 0:
        raise ValueError(f"fps must be > 0, got {fps!r}")
    image_mod = _pillow()
    frame_ms = max(20, round(1000 / fps))  # GIF delays are in 10 ms; viewers floor tiny ones
    count = 0

    def timed() -> Iterator[Any]:
        """PIL images, each with its own duration; one frame of lookahead finds the last."""
        nonlocal count
        previous = None
        for frame in frames:
            image = image_mod.fromarray(np.ascontiguousarray(frame, dtype=np.uint8))
            image.info["duration"] = frame_ms
            count += 1
            if previous is not None:
                yield previous
            previous = image
        if previous is not None:
            previous.info["duration"] = max(frame_ms, HOLD_LAST_MS)
            yield previous

    images = timed()
    first = next(images, None)
    if first is None:
        raise ValueError("no frames to write")
    with atomic_write(path) as handle:
        first.save(handle, format="GIF", save_all=True, append_images=images, loop=0)
    return count


def write_png_frames(
    frames: Iterable[tuple[int, np.ndarray]], folder: str | os.PathLike[str]
) -> int:
    """Write ``(moves applied, image)`` pairs as ``frame_<moves:05d>.png`` in ``folder``,
    atomically (see the module docstring); the number of frames written."""
    image_mod = _pillow()
    target = Path(folder)
    if target.exists() and (
        not target.is_dir()
        or not all(p.is_file() and p.match(FRAME_GLOB) for p in target.iterdir())
    ):
        raise FileExistsError(
            f"{target} exists and is not a folder of {FRAME_GLOB} frames; not replacing it"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"))
    count = 0
    try:
        for i, frame in frames:
            image_mod.fromarray(np.ascontiguousarray(frame)).save(tmp / f"frame_{i:05d}.png")
            count += 1
        tmp.chmod(0o755)  # mkdtemp makes it 0o700
        if target.exists():
            old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.old."))
            os.replace(target, old / "frames")
            os.replace(tmp, target)
            shutil.rmtree(old)
        else:
            os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return count


def animate(
    log_path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    every: int = 1,
    fps: float = 4,
    caption: bool = True,
) -> int:
    """Animate the log at ``log_path`` into ``out`` (``*.gif``: a GIF, else a PNG folder);
    the number of frames written."""
    log = load_log(log_path)
    frames = log_frames(log, every=every, caption=caption)
    if str(out).lower().endswith(".gif"):
        return write_gif((image for _, image in frames), out, fps=fps)
    return write_png_frames(frames, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", help="a saved game log (JSON, reborn_env.frontends.game_log)")
    parser.add_argument("--out", required=True, help="FILE.gif, or a folder for PNG frames")
    parser.add_argument("--every", type=int, default=1, help="keep every K-th position (1)")
    parser.add_argument("--fps", type=float, default=4, help="GIF frames per second (4)")
    parser.add_argument("--no-caption", action="store_true", help="no caption strip")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error("--every must be >= 1")
    if not args.fps > 0:
        parser.error("--fps must be > 0")
    try:
        count = animate(args.log, args.out, args.every, args.fps, caption=not args.no_caption)
    except OSError as err:  # --out exists and is no frame folder, or cannot be written
        return fail(f"cannot write --out {args.out}: {err.strerror or err}")
    except (GameLogError, ImportError, ValueError, KeyError) as err:
        return fail(f"cannot animate {args.log}: {err}")
    print(f"wrote {count} frames to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
