"""The incremental event feed against the HV-API-8 / HV-SEL-3 rule worked out from the whole log.

Rule ids: HV-API-8 (each seat's events since its previous step), HV-SEL-3 (the other character's
selection withheld until the REVEAL), 16.8 ``reveal_second_card_at_turn`` (private events).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from reborn_env import haven_v0
from reborn_env.games.haven.event_feed import EventFeed
from reborn_env.games.haven.rules.prompts import Event


class ReferenceFeed:
    """HV-API-8 straight from the rule: at every read, the seat's pending events (the withheld
    ones, then everything since its step) filtered by visibility against the whole log."""

    def __init__(self, log: list[Event], seats: int) -> None:
        self.log = log
        self.cursor = [0] * seats
        self.held: list[list[int]] = [[] for _ in range(seats)]

    def visible(self, me: int, index: int) -> bool:
        event = self.log[index]
        if event.secret_of is None or event.secret_of == me:
            return True
        reveals = [i for i, e in enumerate(self.log) if e.type == "REVEAL"]
        return not event.private and bool(reveals) and reveals[-1] > index

    def pending(self, seat: int) -> list[int]:
        return self.held[seat] + list(range(self.cursor[seat], len(self.log)))

    def shown(self, seat: int) -> list[dict[str, Any]]:
        return [
            {"type": self.log[i].type, **self.log[i].data}
            for i in self.pending(seat)
            if self.visible(seat, i)
        ]

    def step(self, seat: int, env: Any, action: int) -> None:
        before = len(self.log)
        held = [
            i for i in self.pending(seat) if not self.visible(seat, i) and not self.log[i].private
        ]
        env.step(action)
        self.held[seat], self.cursor[seat] = held, before


@pytest.mark.parametrize("variant", [False, True], ids=["default", "reveal_second_at_turn"])
def test_the_feed_equals_the_rule_worked_out_from_the_whole_log(variant: bool) -> None:
    """HV-API-8, HV-SEL-3: over random games, after every step and for every seat, the feed the
    environment hands over equals the reference, and at least one event was withheld."""
    env = haven_v0.env(event_feed=True, reveal_second_card_at_turn=variant)
    withheld = 0
    for seed in range(12):
        env.reset(seed=seed)
        game, rng = env.unwrapped.game, random.Random(seed)
        reference = ReferenceFeed(game.events, len(env.possible_agents))
        while game.prompt is not None:
            seat = game.prompt.agent
            reference.step(seat, env, rng.choice(game.legal_actions()))
            for s, agent in enumerate(env.possible_agents):
                expected = reference.shown(s)
                assert env.infos[agent]["events"] == expected
                withheld += len(reference.pending(s)) - len(expected)
    assert withheld > 0


def test_a_handed_over_feed_does_not_change_afterwards() -> None:
    """HV-API-8: the list a seat was given is its own; later events go into new lists."""
    env = haven_v0.env(event_feed=True)
    env.reset(seed=3)
    first = env.infos[env.possible_agents[1]]["events"]
    copy = list(first)
    for _ in range(6):
        env.step(min(env.unwrapped.game.legal_actions()))
    assert first == copy
    assert env.infos[env.possible_agents[1]]["events"] is not first


def test_a_feed_starts_empty_and_follows_its_log() -> None:
    """HV-API-8 on a bare log: public events reach every seat, a secret one its owner only
    until a REVEAL, a private one never the other seat."""
    log: list[Event] = []
    feed = EventFeed(log, 2)
    assert feed.shown(0) == [] and feed.shown(1) == []
    log.append(Event("A", {"x": 1}))
    log.append(Event("PICK", {"card": "B01"}, secret_of=0))
    log.append(Event("PICK2", {"card": "B02"}, secret_of=0, private=True))
    assert feed.shown(0) == [
        {"type": "A", "x": 1},
        {"type": "PICK", "card": "B01"},
        {"type": "PICK2", "card": "B02"},
    ]
    assert feed.shown(1) == [{"type": "A", "x": 1}]
    assert feed.still_held(1) == [1]
    log.append(Event("REVEAL", {}))
    assert feed.shown(1) == [
        {"type": "A", "x": 1},
        {"type": "PICK", "card": "B01"},
        {"type": "REVEAL"},
    ]
