"""haven's rules (pure Python, no RL library): rounds, turns, attacks, monster AI, as generators."""
