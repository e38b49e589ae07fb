"""Scripted players for the reborn_env games, behind one interface, and a match runner.

Why one interface: any bot can sit in any seat of any front-end (the arena, a GUI, a training
loop that needs opponents) because all it is ever given is what a seat sees, the observation
vector and the action mask of the decision in progress, and all it gives back is an action. A bot
that plans on the game's public state (a search bot) declares :class:`SeesPublicView` and every
driver also gives it the public view of its seat's position, through :func:`decide`.

:class:`Bot` and :class:`RandomBot` serve every game; each game's own bots live in its package
and are found through the registry (``reborn_env.core.registry.get(name).make_bot(kind, seed)``,
or by name with :func:`reborn_env.bots.loading.load_bot`).
"""

from __future__ import annotations

from .arena import MatchResult, play_match
from .base import Bot, RandomBot, SeesPublicView, decide

__all__ = ["Bot", "MatchResult", "RandomBot", "SeesPublicView", "decide", "play_match"]
