"""``python -m training.compare``: the command line of :mod:`training.compare.run`."""

import sys

from training.compare.run import main

if __name__ == "__main__":
    sys.exit(main())
