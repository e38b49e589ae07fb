"""``python -m training.nfsp``: the command line of :mod:`training.nfsp.train`."""

import sys

from training.nfsp.train import main

if __name__ == "__main__":
    sys.exit(main())
