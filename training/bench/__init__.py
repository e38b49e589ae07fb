"""The evaluation bench: seeded matches in the game vector, evaluation tables, the tournament and
its ratings."""
