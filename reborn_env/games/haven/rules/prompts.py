"""Decisions and events of a haven game: the prompt kinds of 16.2 and the event log of HV-API-8.

A :class:`Prompt` is the one pending decision (HV-API-2): who answers it, the exact legal actions
(16.4) and the context the observation shows. An :class:`Event` is one line of the log the
environment hands out in ``infos[agent]["events"]``. Rules pose a prompt with :func:`ask`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, NamedTuple

# 16.2, in table order (the observation's one-hot follows it).
PROMPT_KINDS = (
    "SELECT_LEAD",
    "SELECT_SECOND",
    "WINDOW_0",
    "WINDOW_1",
    "WINDOW_2",
    "MOVE_DEST",
    "ATTACK_TARGET",
    "HEAL_TARGET",
    "SUMMON_HEX",
    "CONSUME",
    "DAMAGE_RESPONSE",
    "PICK_DISCARD",
    "LONG_REST_LOSE",
    "SHORT_REST",
    "SHORT_REST_REROLL",
)
(
    SELECT_LEAD,
    SELECT_SECOND,
    WINDOW_0,
    WINDOW_1,
    WINDOW_2,
    MOVE_DEST,
    ATTACK_TARGET,
    HEAL_TARGET,
    SUMMON_HEX,
    CONSUME,
    DAMAGE_RESPONSE,
    PICK_DISCARD,
    LONG_REST_LOSE,
    SHORT_REST,
    SHORT_REST_REROLL,
) = PROMPT_KINDS

# HV-AOE-6: named only by the observations of scenarios with an area attack, after 16.2's kinds.
AREA_TARGET = "AREA_TARGET"
AREA_PROMPT_KINDS = (AREA_TARGET,)


class Prompt(NamedTuple):
    """The pending decision (HV-API-2) and its context for the observation (16.5); immutable,
    and a named tuple because a game poses several per decision.

    ``card``/``half`` name the card box being executed (-1 when none; at ``SELECT_SECOND`` the
    first pick, at a second ``PICK_DISCARD`` the card picked first), ``ability`` the ability's
    kind, ``value`` its remaining value (move points, attack or heal value) or the pending damage of
    a ``DAMAGE_RESPONSE``, ``targets`` the cells already targeted by this ability, ``rest_card`` the
    randomly chosen short-rest card (shown to its owner only; the prompt goes to no one else) and
    ``element`` the element index of a ``CONSUME``.
    """

    kind: str
    agent: int
    legal: tuple[int, ...]
    card: int = -1
    half: int = -1
    ability: str = ""
    value: int = 0
    targets: tuple[int, ...] = ()
    rest_card: int = -1
    element: int = -1


class Event(NamedTuple):
    """One log line (HV-API-8). ``secret_of`` names the character whose selection it tells about;
    such events are withheld from the other agents until the next ``REVEAL`` (HV-SEL-3), or for
    good when ``private`` (the second pick under ``reveal_second_card_at_turn``, which a public
    ``REVEAL`` event names when its owner's turn starts)."""

    type: str
    data: dict[str, Any]
    secret_of: int | None = None
    private: bool = False


def ask(kind: str, agent: int, legal: list[int], **context: object) -> Generator[Prompt, int, int]:
    """Pose a prompt (HV-API-2) and return the answer the driver sends back."""
    action = yield Prompt(kind, agent, tuple(sorted(legal)), **context)  # type: ignore[arg-type]
    return action
