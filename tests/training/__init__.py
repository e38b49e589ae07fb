"""Tests of training: the PPO loop, its infrastructure, checkpoints, export, shipped policies."""
