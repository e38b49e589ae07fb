"""Earth Reborn's rules (pure Python, no RL library): one module per part of the rulebook."""
