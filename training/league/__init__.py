"""A league: the main policy trains against exploiters trained against it, round after round."""
