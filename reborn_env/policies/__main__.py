"""``python -m reborn_env.policies verify|upgrade FILE...``: check policy files, upgrade old ones.

``verify`` reads each file as every consumer does (schema, checksum, finite weights) and builds
its network (the weights must fit it); ``upgrade`` re-saves version-1 files (no checksum) as the
current version, weights bit for bit. Exit status 2 on the first file that fails, with why.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .artifact import (
    CHECKSUM_KEY,
    VERSION,
    CheckpointError,
    load_checkpoint,
    policy_network,
    upgrade_checkpoint,
)

USAGE_ERROR = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv``; returns the exit status (2 on a policy file error)."""
    parser = argparse.ArgumentParser(
        prog="python -m reborn_env.policies",
        description="Verify policy files, or upgrade version-1 files (no checksum) to "
        f"version {VERSION}.",
    )
    parser.add_argument("command", choices=("upgrade", "verify"))
    parser.add_argument("files", nargs="+", metavar="FILE", help="policy files (.pt)")
    args = parser.parse_args(argv)
    for name in args.files:
        try:
            if args.command == "upgrade":
                payload = upgrade_checkpoint(name)
            else:
                payload = load_checkpoint(name)
                policy_network(payload, name)
        except CheckpointError as exc:
            print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
            return USAGE_ERROR
        print(f"{name}: version {payload['version']}, {payload[CHECKSUM_KEY]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
