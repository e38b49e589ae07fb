"""The game contract: what every game offers, so one environment serves them all.

Why: the AEC environment (:mod:`.game_env`), the registry, the front-ends, the trainers and the
conformance tests see a game only through these two protocols, so none of them names a game and a
new game is one package that implements them and registers itself (:mod:`.registry`).

- :class:`Rules` is a game as configured (scenario and options): its agents, its action and
  observation sizes, how to start a match from a seed or from a saved position, and the readable
  names of its actions.
- :class:`Match` is one game in progress: who is to move, the legal actions, applying one, how it
  stands (running, terminated, truncated), the rewards, each player's observation and infos, its
  position, and its pictures.

A match may also offer optional methods, for speed; each has a default path that gives the
same, taken for the games without them (the toy games of the tests have none):

- :class:`WritesArrays`: the observation and the mask written into the environment's new arrays
  (a compiled game's fast path); without it they are built from :meth:`Match.observe`,
  :meth:`Match.to_move` and :meth:`Match.legal_actions`.
- :class:`Plays`: an action and what the environment asks after it, in one call; without it
  :meth:`Match.apply`, then :meth:`Match.status`, :meth:`Match.to_move`,
  :meth:`Match.shaped_rewards` and :meth:`Match.infos` of every seat.
- :class:`Peeks`: the game's state to read without taking the live one; without it readers take
  ``state``, the rules engine's own object that game-specific code may read and alter (see
  :attr:`.game_env.GameEnv.game`).

Both deep-copy and pickle, for :class:`~.game_env.GameEnv` copies by them (a deep copy of the
env shares its rules, a pickle holds them): a match with objects pickle cannot take (a compiled
core's, a generator) pickles as its :meth:`Match.to_position` and what it keeps beside it, through
:meth:`Rules.from_position` (``__reduce__``), and a copy plays on exactly as the original.

Players are seat indices ``0 .. len(agents) - 1``; actions are integers ``0 .. n_actions - 1``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

RUNNING, TERMINATED, TRUNCATED = "running", "terminated", "truncated"
STATUSES = (RUNNING, TERMINATED, TRUNCATED)


class Match(Protocol):
    """One game in progress."""

    def to_move(self) -> int | None:
        """The seat to select now: the one that must decide while the game runs; once it is over
        the seat the game names (or None: the environment keeps its selection)."""
        ...

    def legal_actions(self) -> Sequence[int]:
        """The legal actions of the decision in progress, sorted; empty once the rules ended."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action`` for the seat to move; IllegalActionError (naming the decision and the
        legal actions, nothing changed) if it is not legal."""
        ...

    def status(self) -> str:
        """:data:`RUNNING`, :data:`TERMINATED` (the rules ended it) or :data:`TRUNCATED`."""
        ...

    def final_rewards(self) -> Sequence[float]:
        """Per seat, the reward of the end (+1 / -1 / 0 ...); meaningful once not running."""
        ...

    def shaped_rewards(self) -> Sequence[float] | None:
        """Per seat, the shaping reward the last action earned, or None when shaping is off."""
        ...

    def observe(self, seat: int) -> np.ndarray:
        """What ``seat`` may see (float32, the observation space's shape); hides the others."""
        ...

    def infos(self, seat: int) -> Mapping[str, Any]:
        """What ``seat`` is told besides its observation since its last step (may be empty)."""
        ...

    def result(self) -> dict[str, Any]:
        """How a finished game ended, as JSON data for logs and protocols."""
        ...

    def describe(self) -> str:
        """The decision in progress and its legal actions by name, for error messages."""
        ...

    def to_position(self) -> dict[str, Any]:
        """The whole game as JSON data; :meth:`Rules.from_position` restores it exactly."""
        ...

    def render_ansi(self) -> str:
        """The public picture as text."""
        ...

    def render_rgb(self) -> np.ndarray:
        """The public picture as an RGB array (H, W, 3) of uint8."""
        ...


@runtime_checkable
class WritesArrays(Protocol):
    """Optional: the observation and the mask written into arrays the caller allocated, so an
    observation builds no intermediate list or array."""

    def observe_into(self, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        """Write :meth:`Match.observe` of ``seat`` into ``observation`` (float32,
        ``[obs_size]``); ``mask`` (int8, ``[n_actions]``) comes all zeros: if ``seat`` is the
        one :meth:`Match.to_move` names, set its legal actions (:meth:`Match.legal_actions`) to
        1, else leave it."""
        ...


@runtime_checkable
class Plays(Protocol):
    """Optional: :meth:`Match.apply` and the answers the environment needs after it, in one
    call."""

    def play(self, action: int) -> tuple[str, int | None, Sequence[float] | None, bool]:
        """:meth:`Match.apply` of ``action`` (the same refusal), then ``(status, to_move,
        shaped_rewards, tells)``: what :meth:`Match.status`, :meth:`Match.to_move` and
        :meth:`Match.shaped_rewards` answer now, and whether :meth:`Match.infos` may tell a seat
        anything (False: the environment does not ask)."""
        ...


@runtime_checkable
class Peeks(Protocol):
    """An optional Match method: the game's state to read, not to change. Without it a reader
    takes ``state``; a match that plays in a compiled core hands its game over to the reference
    engine when ``state`` is read (so that the object stays live), and ``peek`` spares that."""

    def peek(self) -> Any:
        """The rules engine's state of the game as it stands: the live object, or a copy that
        changing does not change the match."""
        ...


class Rules(Protocol):
    """A game as configured: sizes, names, and the ways a match starts."""

    name: str  # the environment's name, e.g. "earth_reborn_v0"
    agents: tuple[str, ...]  # seat order
    n_actions: int
    obs_size: int

    def new_match(self, seed: int, options: Mapping[str, Any]) -> Match:
        """A new match from ``seed``; ``options`` are ``reset``'s (a game may take its own)."""
        ...

    def from_position(self, position: Any, options: Mapping[str, Any] | None = None) -> Match:
        """The match ``position`` describes; PositionError naming the field if it is not one."""
        ...

    def action_name(self, action: int) -> str:
        """The readable name of an action integer."""
        ...

    def parse_action(self, name: str) -> int:
        """The action integer of a readable name; ValueError listing the forms if none."""
        ...
