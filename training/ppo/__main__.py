"""``python -m training.ppo``: the command line of :mod:`training.ppo.train`."""

import sys

from training.ppo.train import main

if __name__ == "__main__":
    sys.exit(main())
