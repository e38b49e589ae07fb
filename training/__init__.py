"""Trainers and the evaluation bench for the games of ``reborn_env`` (the library never imports
this).

One package per job, each importing only those above it in this list: ``common`` (games, command
line, progress bar), ``runs`` (checkpoints, run folders, curves), ``bench`` (matches, evaluation,
tournament, ratings), ``warmstart`` (imitation), then the algorithms ``ppo``, ``nfsp`` and
``rllib``, and ``exploit`` (best responses, exploitability) on top.
"""
