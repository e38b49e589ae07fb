"""The test session's games: every package under tests/games/ is imported, and so registers itself.

Why here: the conformance suite (tests/conformance/) is parametrised over ``registry.names()`` at
collection time, so a test game must be registered before any test module is collected; adding one
is then one folder under tests/games/ and nothing else.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module

from tests import games

for _game in pkgutil.iter_modules(games.__path__, f"{games.__name__}."):
    if _game.ispkg:
        import_module(_game.name)
