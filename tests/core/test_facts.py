"""A game's facts (reborn_env.core.facts.GameFacts): one typed record, checked when it is made.

A record no game could have (an unknown kind, chance or information, a least reward above the
most, a zero-sum range without 0, a negative length bound, a length function that is not
``"module:function"``) is refused with an error naming the field and what is allowed, so such a
game never registers; every registered game's facts are the record, and its length bound per
configuration stays :meth:`GameSpec.decision_bound`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from reborn_env.core import registry
from reborn_env.core.facts import Chance, GameFacts, Information, Kind

GAMES = registry.names()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "zero_sum"}, r"GameFacts.kind: 'zero_sum' is not one of Kind.ZERO_SUM, Kind."),
        ({"kind": True}, "GameFacts.kind: True is not one of"),
        ({"chance": True}, "GameFacts.chance: True is not one of Chance.DETERMINISTIC, Chance."),
        ({"information": "perfect"}, "GameFacts.information: 'perfect' is not one of Informa"),
        ({"min_utility": 2.0, "max_utility": 1.0}, "min_utility 2.0 is above max_utility 1.0"),
        ({"min_utility": 0.5}, r"zero-sum game's .* range \[0.5, 1.0\] must hold 0"),
        ({"max_utility": -0.5}, r"zero-sum game's .* range \[-1.0, -0.5\] must hold 0"),
        ({"max_utility": float("nan")}, "GameFacts.max_utility: nan is not a finite number"),
        ({"min_utility": "-1"}, "GameFacts.min_utility: '-1' is not a number"),
        ({"max_game_length": -1}, r"GameFacts.max_game_length: -1 is not a count of decisions"),
        ({"max_game_length": 2.5}, r"GameFacts.max_game_length: 2.5 is not a count"),
        ({"max_game_length_of": "bound"}, r"max_game_length_of: 'bound' is not \"module:func"),
        ({"max_game_length_of": "m:"}, r"max_game_length_of: 'm:' is not \"module:function\""),
    ],
)
def test_an_impossible_record_is_refused_naming_the_field(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        GameFacts(**fields)


def test_a_team_may_have_a_range_without_zero() -> None:
    """Only a zero-sum game's rewards must sum to 0: a team's shared reward may be all positive."""
    facts = GameFacts(kind=Kind.IDENTICAL, min_utility=0.0, max_utility=1.0)
    assert facts.cooperative and (facts.min_utility, facts.max_utility) == (0.0, 1.0)
    assert not GameFacts(kind=Kind.ZERO_SUM).cooperative


def test_a_game_with_impossible_facts_never_registers() -> None:
    """The record checks itself when the game's registration makes it, and ``register`` refuses
    facts that are not the record: the registry is unchanged either way."""
    before = registry.names()
    with pytest.raises(ValueError, match="min_utility 3.0 is above max_utility 1.0"):
        registry.register(
            registry.GameSpec("bad_v0", "bad", "x:y", facts=GameFacts(min_utility=3.0))
        )
    untyped = registry.GameSpec("bad_v0", "bad", "x:y", facts={"kind": "zero_sum"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bad_v0: GameSpec.facts is a dict, not a reborn_env"):
        registry.register(untyped)
    assert registry.names() == before


@pytest.mark.parametrize("name", GAMES)
def test_every_registered_game_declares_its_facts(name: str) -> None:
    """Every game's facts are the typed record, with a known bound on the decisions of a game of
    each bundled scenario, the default one's within ``max_game_length``."""
    spec = registry.get(name)
    facts = spec.facts
    assert isinstance(facts, GameFacts)
    assert isinstance(facts.kind, Kind) and isinstance(facts.chance, Chance)
    assert isinstance(facts.information, Information)
    assert facts.max_game_length > 0
    for scenario in spec.scenario_names() or [""]:
        env = spec.make_env(scenario=scenario) if scenario else spec.make_env()
        assert spec.decision_bound(env.unwrapped.rules) > 0, scenario
    assert 0 < spec.decision_bound(spec.make_env().unwrapped.rules) <= facts.max_game_length


def test_decision_bound_is_the_configurations_bound_else_the_games() -> None:
    """``GameSpec.decision_bound``: the facts' per-configuration function where there is one,
    else ``max_game_length`` (0: not known)."""
    spec = registry.GameSpec("bounded_v0", "bounded", "x:y", facts=GameFacts(max_game_length=9))
    assert spec.decision_bound(rules=None) == 9
    assert registry.GameSpec("unbounded_v0", "unbounded", "x:y").decision_bound(None) == 0
    per_rules = replace(
        spec, facts=replace(spec.facts, max_game_length_of=f"{__name__}:length_of_rules")
    )
    assert per_rules.decision_bound(rules=4) == 8


def length_of_rules(rules: int) -> int:
    """A per-configuration bound for the test above: twice the rules' number."""
    return 2 * rules
