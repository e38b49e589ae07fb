"""``python -m training.chain``: the command line of :mod:`training.chain.run`."""

import sys

from training.chain.run import main

if __name__ == "__main__":
    sys.exit(main())
