"""The config schema every trainer declares its fields with (training/common/schema.py).

A field is declared once (type, default, rule, docstring); the schema reads, checks and writes
it, and every mistake is a ConfigError naming where the values came from, the key and what is
allowed. The trainers' own configs are checked in test_training_infra, test_nfsp and test_rllib;
here the schema itself, on a config of its own, and the rules the trainers share.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from training.common.rules import LAYER_WIDTHS, POSITIVE, PROBABILITY, choice, non_empty
from training.common.schema import ConfigError, Schema, rules, setting
from training.nfsp.config import NFSPConfig
from training.ppo.config import TrainConfig
from training.rllib.config import RllibConfig


@dataclass(frozen=True, kw_only=True)
class Toy(Schema):
    """A config of four ruled keys, one required, and one free flag."""

    total: int = setting(rule=POSITIVE, required="things to count")
    """how many things (required)"""
    rate: float = setting(1, PROBABILITY)
    """a probability, given as an integer by default"""
    widths: list[int] = setting([4, 4], LAYER_WIDTHS)
    """layer widths"""
    kind: str = setting("a", choice(("a", "b")))
    """one of two kinds"""
    label: str = setting("toy", non_empty("label"))
    """a name"""
    loud: bool = setting(False)
    """a flag with no rule"""

    def check_together(self) -> None:
        if self.kind == "b" and self.loud:
            raise ConfigError(f"{self.origin}: keys 'kind'/'loud': a 'b' is never loud")


def error_of(data: dict, source: str = "toy.yaml") -> str:
    with pytest.raises(ConfigError) as info:
        Toy.from_dict(data, source=source)
    assert str(info.value).startswith(f"{source}: ")
    return str(info.value)


def test_a_config_keeps_its_declared_order_defaults_and_types() -> None:
    toy = Toy.from_dict({"total": 3, "loud": True})
    assert list(toy.to_dict()) == ["total", "rate", "widths", "kind", "label", "loud"]
    assert toy.to_dict() == {
        "total": 3,
        "rate": 1.0,
        "widths": [4, 4],
        "kind": "a",
        "label": "toy",
        "loud": True,
    }
    assert isinstance(toy.rate, float)  # an integer where a number is expected becomes a float
    toy.to_dict()["widths"].append(9)
    other = Toy(total=1)
    assert toy.widths == other.widths == [4, 4] and toy.widths is not other.widths
    assert Toy.from_dict(toy.to_dict()) == toy
    with pytest.raises(dataclasses.FrozenInstanceError):
        toy.total = 4  # type: ignore[misc]


def test_unknown_keys_are_each_named_with_the_closest_known_one() -> None:
    message = error_of({"total": 1, "rat": 0.5, "zzz": 1})
    assert "unknown key 'rat'; did you mean 'rate'? known keys: total, rate," in message
    assert "unknown key 'zzz'; known keys:" in message
    assert "unknown key 'source'" in error_of({"total": 1, "source": "x"})  # never a key


def test_a_missing_required_key_says_what_it_means_and_may_be() -> None:
    assert error_of({"rate": 0.5}).endswith(
        "missing required key 'total' (things to count, an integer > 0)"
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"total": True}, "key 'total': expected an integer (not a boolean), got bool True"),
        ({"total": 0}, "key 'total': must be an integer > 0, got 0"),
        ({"total": 2**64}, "key 'total': 18446744073709551616 does not fit in 64 bits"),
        ({"total": 1, "rate": "1e-2"}, "write it with a dot, e.g. 0.01"),
        ({"total": 1, "rate": float("nan")}, "key 'rate': must be a probability in [0, 1]"),
        ({"total": 1, "widths": [4, "x"]}, "key 'widths': expected a list of integers"),
        ({"total": 1, "widths": []}, "key 'widths': must be a non-empty list of at most 8"),
        ({"total": 1, "kind": "c"}, "key 'kind': must be one of 'a', 'b', got 'c'"),
        ({"total": 1, "label": ""}, "key 'label': must be a non-empty label, got ''"),
        ({"total": 1, "loud": 1}, "key 'loud': expected true or false, got int 1"),
        ({"total": 1, "kind": "b", "loud": True}, "keys 'kind'/'loud': a 'b' is never loud"),
    ],
)
def test_each_mistake_names_the_key_and_what_is_allowed(data: dict, words: str) -> None:
    assert words in error_of(data)


def test_a_long_value_is_shown_short() -> None:
    message = error_of({"total": "x" * 7000})
    assert "key 'total': expected an integer (not a boolean), got str 'xxx" in message
    assert len(message) < 300


def test_a_config_built_in_python_is_checked_and_named_by_its_class() -> None:
    with pytest.raises(ConfigError, match=r"^<Toy>: key 'rate'"):
        Toy(total=1, rate=2.0)
    assert issubclass(ConfigError, ValueError)  # CLIs that catch ValueError still catch it


def test_rules_lists_every_ruled_field() -> None:
    assert rules(Toy) == {
        "total": POSITIVE,
        "rate": PROBABILITY,
        "widths": LAYER_WIDTHS,
        "kind": Toy.__dataclass_fields__["kind"].metadata["rule"],
        "label": Toy.__dataclass_fields__["label"].metadata["rule"],
    }


@pytest.mark.parametrize("config", [TrainConfig, NFSPConfig, RllibConfig])
@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("hidden_sizes", [], "must be a non-empty list of at most 8 layer widths, each an integer"),
        ("torch_threads", 0, "must be an integer > 0 and at most 256, got 0"),
        ("max_grad_norm", float("inf"), "must be a finite number > 0, got inf"),
        ("total_steps", 2**63, f"{2**63} does not fit in 64 bits; integers here are at most"),
    ],
)
def test_the_trainers_refuse_a_shared_key_in_the_same_words(
    config: type[Schema], key: str, value: object, words: str
) -> None:
    """Before, RLlib's config wrote the rules again in its own words ("must be 1..8 widths of
    1..2048", "must be 1..256", "must be a number > 0")."""
    with pytest.raises(ConfigError) as info:
        config.from_dict({"total_steps": 10, key: value}, source="run.yaml")
    assert str(info.value).startswith(f"run.yaml: key {key!r}: {words}")
