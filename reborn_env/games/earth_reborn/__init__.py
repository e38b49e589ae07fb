"""The Earth Reborn rules engine: pure Python, no gymnasium, pettingzoo or torch (design.md).

``engine.new_game``, ``engine.legal_actions`` and ``engine.apply_action`` play a game;
``positions`` saves and loads it; ``env`` (imported separately) wraps it for PettingZoo.
"""
