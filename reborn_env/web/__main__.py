"""Serve the play page: ``python -m reborn_env.web [--env NAME] [--bot SPEC] [--port 8000]
[--host 127.0.0.1]``.

Why a loopback default: the page plays games and loads bots on this machine, so only this
machine may reach it unless the user names another address with ``--host`` (with a warning).
``--bot`` takes any spec ``load_bot`` takes (a policy file too); the page offers it for ``--env``.
A bad command line prints one ``error:`` line and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys

from reborn_env.bots.loading import load_bot
from reborn_env.core import registry

from .server import MAX_MESSAGE, create_app

LOOPBACK = "127.0.0.1"
USAGE_ERROR = 2
HARD_LIMIT_FACTOR = 4


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", choices=registry.names(), default=registry.default_name())
    parser.add_argument("--bot", help="a bot spec load_bot takes, offered on the page for --env")
    parser.add_argument("--port", type=int, default=8000, help="port (default %(default)s)")
    parser.add_argument(
        "--host", default=LOOPBACK, help="address to listen on (default %(default)s)"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be in 0..65535, got {args.port}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.bot:
        try:
            load_bot(args.bot, env_name=args.env, seed=0)
        except (ValueError, OSError) as err:
            reason = " ".join(str(err).split())
            print(f"error: --bot {args.bot!r} does not load: {reason}", file=sys.stderr)
            return USAGE_ERROR
    if args.host != LOOPBACK:
        print(
            f"warning: listening on {args.host}: other machines may reach this server and make it "
            "play games and run bots; use the default 127.0.0.1 unless you mean that",
            file=sys.stderr,
        )
    import uvicorn

    app = create_app(bot=args.bot, env=args.env)
    print(f"serving on http://{args.host}:{args.port}/ (Ctrl-C stops)")
    # a frame a little over the limit hears why; one far over it closes the socket (1009)
    frame_limit = HARD_LIMIT_FACTOR * MAX_MESSAGE
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=frame_limit, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
