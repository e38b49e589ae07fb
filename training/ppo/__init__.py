"""PPO with action masks (after CleanRL's ppo.py): self-play with a league of opponents, or one
policy for a cooperative team."""
