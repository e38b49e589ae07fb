"""A chain of training runs as one command: each stage is a trainer's command that ran once (its
config file names the files it read), and each later stage reads the chain's own output wherever
its config named the file an earlier stage made, so a shipped policy is retrained from scratch by
``python -m training.chain --config configs/<chain>.yaml``."""
