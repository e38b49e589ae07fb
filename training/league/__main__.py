"""``python -m training.league``: the command line of :mod:`training.league.train`."""

import sys

from training.league.train import main

if __name__ == "__main__":
    sys.exit(main())
