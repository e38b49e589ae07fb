"""A training run's files: its folder and file names, its learning curves and the plot command."""
