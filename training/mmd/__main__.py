"""``python -m training.mmd``: the command line of :mod:`training.mmd.train`."""

import sys

from training.mmd.train import main

if __name__ == "__main__":
    sys.exit(main())
