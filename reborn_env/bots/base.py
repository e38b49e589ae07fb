"""The bot interface and the one bot every game has: uniform random legal play.

Why a module of its own: the match runner (:mod:`.arena`) and the package that gathers the bots
both need the interface, so it lives below them both (no import cycle).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from ..core.public_view import PublicView


@runtime_checkable
class Bot(Protocol):
    """A player for one seat: sees (observation, action_mask), answers with a legal action."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action to play; ``action_mask[action]`` must be 1."""
        ...

    def reset(self) -> None:
        """Forget the previous game; called before each new game."""
        ...


@runtime_checkable
class SeesPublicView(Protocol):
    """Optional, for bots that plan on the game's public state (a search bot): the drivers (the
    arena, the batched bots, the bot server, terminal play) give such a bot the public view of
    its seat's position (``reborn_env.core.public_view``: what the seat may know, never the
    hidden part) with the observation and the mask, through :func:`decide`."""

    def act_public(self, view: PublicView, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action to play, from ``view`` as well; ``action_mask[action]`` must be 1."""
        ...


def sees_public_view(bot: object) -> bool:
    """Whether ``bot`` wants the public view (:class:`SeesPublicView`): it has ``act_public``.
    Asked at every decision, so it reads the attribute (~0.1 us) rather than ``isinstance`` of
    the runtime Protocol (~30 us for a bot without it)."""
    return callable(getattr(bot, "act_public", None))


def decide(
    bot: Bot,
    observation: np.ndarray,
    action_mask: np.ndarray,
    view: Callable[[], PublicView] | None = None,
) -> int:
    """``bot``'s action: ``act_public(view(), ...)`` for a bot that sees the public view, else
    ``act``. ``view`` builds the view only when asked; a driver that has none (a raw observation
    from a client) passes None, and a bot that needs it gets a ValueError saying so."""
    if sees_public_view(bot):
        if view is None:
            raise ValueError(
                f"{type(bot).__name__} plans on the game's public view, and this driver has "
                "only an observation and a mask; give it a game (a position) to play"
            )
        return int(bot.act_public(view(), observation, action_mask))
    return int(bot.act(observation, action_mask))


class RandomBot:
    """Uniform among the legal actions, from its own generator (reproducible with ``seed``)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask)))

    def reset(self) -> None:
        """Nothing to forget: the generator runs on, so successive games differ."""
