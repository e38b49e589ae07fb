"""Regularised self-play: magnetic mirror descent (MMD) as a policy-gradient step in PPO's loop."""
