"""Trainers and the evaluation bench for the games of ``reborn_env`` (the library never imports
this).

One package per job, each importing only those above it in this list: ``common`` (games, command
line, progress bar, the config schema, the one driver of the game vector), ``runs`` (run folders,
curves), ``bench`` (matches, evaluation,
tournament, ratings), ``warmstart`` (imitation), then the algorithms ``ppo``, ``nfsp``, ``rllib``
and ``mmd`` (PPO's loop with another update), ``exploit`` (best responses, exploitability) and
``league`` (exploiters and MMD, round after round) on top.
"""
