"""What the command-line tools of ``training/`` do with a user's mistake: one line, status 2.

A bad config, a missing or damaged checkpoint, a refused position or an unusable output folder is
the user's to fix, not a bug: the tool prints ``error: <what was wrong and what is allowed>`` as
one line on stderr and exits with status 2, the status argparse gives its own usage errors. No
traceback: it would bury the one line that matters. Anything else (a bug) still raises.
"""

from __future__ import annotations

import argparse
import sys

USAGE_ERROR = 2
"""Exit status of a user error (argparse's for a bad command line)."""
MAX_SEED = 2**63 - 1
"""Largest seed: every generator a tool seeds (torch, numpy, Python) takes it, with room for the
small offsets added per bot, env and game."""


def fail(error: BaseException | str) -> int:
    """Print ``error: <message>`` on one line of stderr (line breaks folded); returns 2."""
    message = " ".join(str(error).split())
    print(f"error: {message}", file=sys.stderr)
    return USAGE_ERROR


def seed_arg(text: str) -> int:
    """argparse ``type`` of a seed: an integer in 0..:data:`MAX_SEED`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{value} is outside 0..2**63-1 ({MAX_SEED})")
    return value
