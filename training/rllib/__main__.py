"""``python -m training.rllib``: the command line of :mod:`training.rllib.train`."""

import sys

from training.rllib.train import main

if __name__ == "__main__":
    sys.exit(main())
