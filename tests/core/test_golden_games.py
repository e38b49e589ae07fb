"""Golden games: seeded games of both rulesets and every bot hash to fixed values.

Why: the game contract and the new layout are a redesign with behaviour unchanged. This test was
written before the move and must pass unchanged after it: every observation and mask of every
agent, every reward, end flag and info, and the position at every decision of these games are
hashed, and the hashes are those recorded in ``golden_games.json`` when the test was written.
Bots: uniform random and the scripted (heuristic) bots; and the shipped policies, played
greedily (argmax, so the hash does not hang on sampling), whose games are in
``golden_policy_games.json`` with the checksum of the checkpoint they were recorded with: a new
shipped policy plays other games, so its hashes are recorded again, deliberately, with
``python -m tests.core.test_golden_games record-policies``. The rules' and bots' games stay as
written, except where a change alters a rule on purpose: then that game's are recorded again with
``python -m tests.core.test_golden_games record-rules NAME`` in the commit that changes the rule,
and the rule's own tests say what changed (as for haven's monster movement, HV-AI-5/6).
A game's other bundled scenarios have their own entries, ``NAME:SCENARIO`` (haven's
Mire Crossing, Walled Camp and Frost Keep, each with its own shipped policy), so a future fast
path is held to them too.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import torch

from reborn_env import earth_reborn_v0, haven_v0
from reborn_env.bots.loading import load_bot

torch.set_num_threads(1)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((Path(__file__).with_name("golden_games.json")).read_text())
POLICY_FILE = Path(__file__).with_name("golden_policy_games.json")
GOLDEN_POLICIES = json.loads(POLICY_FILE.read_text())
# haven's infos carry its event feed only when asked (trainers refuse lists of dicts): the
# recorded games were hashed with it, so the feed is held to them too
ENVS = {
    "earth_reborn_v0": earth_reborn_v0.env,
    "haven_v0": lambda: haven_v0.env(event_feed=True),
    "haven_v0:mire_crossing": lambda: haven_v0.env(scenario="mire_crossing", event_feed=True),
    "haven_v0:walled_camp": lambda: haven_v0.env(scenario="walled_camp", event_feed=True),
    "haven_v0:frost_keep": lambda: haven_v0.env(scenario="frost_keep", event_feed=True),
}
POLICIES = {
    "earth_reborn_v0": "earth_reborn_ppo.pt",
    "haven_v0": "haven_ppo.pt",
    "haven_v0:mire_crossing": "haven_mire_ppo.pt",
    "haven_v0:walled_camp": "haven_walled_ppo.pt",
    "haven_v0:frost_keep": "haven_frost_ppo.pt",
}
RULE_PAIRS = ("random-random", "heuristic-heuristic")
POLICY_PAIRS = ("policy-policy", "heuristic-policy")
PAIRS = RULE_PAIRS + POLICY_PAIRS
SEEDS = (0, 1, 2)


def _bot(name: str, kind: str, seed: int):
    """The bot ``kind`` for the game (and scenario) ``name``, greedy."""
    spec = str(ROOT / "checkpoints" / POLICIES[name]) if kind == "policy" else kind
    game, _, scenario = name.partition(":")
    return load_bot(spec, game, seed=seed, greedy=True, scenario=scenario or None)


def game_hash(name: str, pair: str, seed: int) -> str:
    """The SHA-256 of everything the environment gave out over one seeded game."""
    env = ENVS[name]()
    env.reset(seed=seed)
    seats = zip(env.agents, pair.split("-"), strict=True)
    bots = {a: _bot(name, kind, seed * 10 + i) for i, (a, kind) in enumerate(seats)}
    digest = hashlib.sha256()
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        for other in env.agents:
            seen = env.observe(other)
            digest.update(seen["observation"].tobytes() + seen["action_mask"].tobytes())
        record = [agent, reward, term, trunc, info, env.unwrapped.get_state()]
        digest.update(json.dumps(record, sort_keys=True, default=repr).encode())
        if term or trunc:
            env.step(None)
            continue
        env.step(bots[agent].act(obs["observation"], obs["action_mask"]))
    digest.update(json.dumps(env.rewards, sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("pair", RULE_PAIRS)
@pytest.mark.parametrize("name", sorted(ENVS))
def test_seeded_games_are_exactly_as_recorded(name, pair, seed):
    """Every output of the game (observations, masks, rewards, ends, infos, positions)."""
    assert game_hash(name, pair, seed) == GOLDEN[name][pair][str(seed)]


def shipped_checksum(name: str) -> str:
    """The checksum the shipped policy of ``name`` carries (reborn_env/policies/artifact.py)."""
    from reborn_env.policies.artifact import load_checkpoint

    return load_checkpoint(ROOT / "checkpoints" / POLICIES[name])["checksum"]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("pair", POLICY_PAIRS)
@pytest.mark.parametrize("name", sorted(ENVS))
def test_the_shipped_policies_play_their_recorded_games(name, pair, seed):
    """The same, for the shipped policy's games, recorded with that very checkpoint."""
    recorded = GOLDEN_POLICIES[name]
    assert recorded["checkpoint"] == shipped_checksum(name), (
        f"checkpoints/{POLICIES[name]} is not the policy these games were recorded with: a new "
        "shipped policy is recorded with `python -m tests.core.test_golden_games record-policies`"
    )
    assert game_hash(name, pair, seed) == recorded[pair][str(seed)]


def test_the_games_are_not_trivial():
    """The recorded games differ from one another (a hash of nothing would not)."""
    hashes = [h for env in GOLDEN.values() for pair in env.values() for h in pair.values()]
    hashes += [
        h for env in GOLDEN_POLICIES.values() for pair in POLICY_PAIRS for h in env[pair].values()
    ]
    assert len(set(hashes)) == len(hashes) == len(ENVS) * len(PAIRS) * len(SEEDS)
    assert all(len(h) == 64 for h in hashes)


def record_policies() -> None:
    """Write ``golden_policy_games.json`` for the policies shipped now (atomically)."""
    from reborn_env.core.files import atomic_write

    data = {
        name: {"checkpoint": shipped_checksum(name)}
        | {pair: {str(s): game_hash(name, pair, s) for s in SEEDS} for pair in POLICY_PAIRS}
        for name in sorted(ENVS)
    }
    with atomic_write(POLICY_FILE) as f:
        f.write((json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def record_rules(name: str) -> None:
    """Rewrite the rule games of ``name`` in ``golden_games.json`` (atomically), the others kept."""
    from reborn_env.core.files import atomic_write

    data = dict(GOLDEN)
    data[name] = {pair: {str(s): game_hash(name, pair, s) for s in SEEDS} for pair in RULE_PAIRS}
    with atomic_write(Path(__file__).with_name("golden_games.json")) as f:
        f.write((json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


if __name__ == "__main__":
    import sys

    USAGE = "usage: python -m tests.core.test_golden_games record-policies | record-rules NAME"
    if sys.argv[1:] == ["record-policies"]:
        record_policies()
    elif len(sys.argv) == 3 and sys.argv[1] == "record-rules" and sys.argv[2] in ENVS:
        record_rules(sys.argv[2])
    else:
        sys.exit(USAGE)
