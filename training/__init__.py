"""PPO self-play training for the PettingZoo AEC environments of ``reborn_env`` (action-masked)."""
