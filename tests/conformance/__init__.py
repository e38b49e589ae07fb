"""The conformance suite: what every registered game must pass, parametrised over the registry.

Each test takes the game's name from ``registry.names()`` (the bundled games and those of
tests/games/) and never names one; a game brings its own checks through its ``GameSpec`` hooks.
"""
