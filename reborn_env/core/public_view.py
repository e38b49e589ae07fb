"""What one seat may know of a game in progress, and games dealt to agree with it (for search bots).

Why: a search bot (ISMCTS) plans on whole games, but it must never read what its seat may not
see. A game that allows it registers two hooks (``GameSpec.public_view``,
``GameSpec.determinizer``): the first strips a position to what the seat may know (the game's own
JSON, e.g. the opponent's hand as a count), the second deals the unseen part anew, consistently
with that view, into a playable match. Drivers (the arena, the batched bots, the bot server,
terminal play) build a :class:`PublicView` from the position they hold with :func:`view_of` and
give it to the bots that ask for one (``reborn_env.bots.base.SeesPublicView``); the bot sees only
the view and the rules, so no driver needs to trust it with the true game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import registry
from .contract import Match, Rules

Deal = Callable[[np.random.Generator], Match]
"""``deal(rng)``: one match consistent with a view, its hidden part drawn from ``rng``."""


@dataclass(frozen=True)
class PublicView:
    """A game in progress as ``seat`` may know it: ``position`` is the game's public view (its
    position with every part ``seat`` may not see removed), ``rules`` the game as configured."""

    rules: Rules
    seat: int
    position: Mapping[str, Any]


def offers_views(game_name: str) -> bool:
    """Whether the registered game ``game_name`` has both hooks (public view and determinizer)."""
    spec = registry.get(game_name)
    return bool(spec.public_view and spec.determinizer)


def require_views(game_name: str, who: str) -> None:
    """ValueError unless ``game_name`` offers public views; ``who`` (a bot's name) needs them."""
    if not offers_views(game_name):
        games = [name for name in registry.names() if offers_views(name)]
        raise ValueError(
            f"{who} needs the game's public view and determinizer (GameSpec.public_view, "
            f"GameSpec.determinizer); {game_name} has none; the games that have them: "
            f"{', '.join(games) or 'none'}"
        )


def view_of(rules: Rules, position: Mapping[str, Any], seat: int) -> PublicView:
    """The public view for ``seat`` of the game ``position`` holds (a position of ``rules``'s
    game, as ``Match.to_position`` gives it)."""
    require_views(rules.name, "a public view")
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
        raise ValueError(f"seat must be an integer 0..{len(rules.agents) - 1}, got {seat!r}")
    if not 0 <= seat < len(rules.agents):
        raise ValueError(f"seat must be 0..{len(rules.agents) - 1}, got {seat}")
    hook = registry.resolve(registry.get(rules.name).public_view)
    return PublicView(rules, int(seat), hook(position, int(seat)))


def env_view(env: Any, agent: str) -> PublicView:
    """The public view for ``agent`` of the game an AEC env (a ``GameEnv``, wrapped or not)
    plays now."""
    game = env.unwrapped
    return view_of(game.rules, game.get_state(), game.possible_agents.index(agent))


def dealer(view: PublicView) -> Deal:
    """``deal(rng)`` for ``view``: each call a new match that gives ``view.seat`` exactly the
    view (its observation and mask unchanged), the hidden part drawn from ``rng``. The game reads
    the view once here, so many deals cost little."""
    require_views(view.rules.name, "a determinization")
    hook = registry.resolve(registry.get(view.rules.name).determinizer)
    return hook(view.rules, view.position, view.seat)


def determinize(view: PublicView, rng: np.random.Generator) -> Match:
    """One match consistent with ``view`` (:func:`dealer` for a single deal)."""
    return dealer(view)(rng)
