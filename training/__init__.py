"""Trainers and the evaluation bench for the games of ``reborn_env`` (the library never imports
this).

One package per job, each importing only those before it in this list: ``common`` (games, the
config schema, the one driver of the game vector, command line, progress bar), ``runs`` (run
folders, curves), ``bench`` (matches, evaluation, tournament, ratings), ``warmstart``
(imitation), ``selfplay`` (the opponent pool, PFSP, seatings), then the algorithms ``ppo``,
``nfsp``, ``rllib`` and ``mmd`` (PPO's loop with another update), and on top ``exploit`` (best
responses, exploitability) and ``league`` (exploiters and MMD, round after round).
"""
