"""PPO on Ray RLlib's new API stack for any registered game, converted into our policy files."""
