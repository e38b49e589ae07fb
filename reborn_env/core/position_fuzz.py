"""Mutated positions: each must be refused cleanly, or accepted and then play on soundly.

Why: ``set_state()`` and ``reset(options={"position": ...})`` take data from users, files and
front-ends. A position validator is only as good as the states it keeps out, so this module takes
real positions (from games of any players), breaks them in the ways data gets broken (wrong types,
numbers out of range, deleted or extra keys, duplicated or moved items, values swapped between
fields, ids borrowed from elsewhere) and requires, for every mutation, one of two outcomes:

- **refused**: ``PositionError`` and nothing else, the environment's previous game intact;
- **accepted**: the game saved again reloads to the same position, the loader kept no reference to
  the caller's data, and random legal play from there reaches the end with the ruleset's
  invariants holding and the position round-tripping along the way.

Anything else (another exception, a broken invariant, a position that does not reload) is a
**crash**: the report keeps the mutation's description and the error.
"""

from __future__ import annotations

import copy
import math
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from .errors import PositionError
from .round_trip import Player, check_restores

Path = tuple[Any, ...]

# Values of every JSON type (and the non-finite floats a Python caller can pass) for retyping.
FOREIGN_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    7,
    2**31,
    2**64,
    -(2**63) - 1,
    10**40,
    0.5,
    1.0,
    -3.25,
    math.inf,
    math.nan,
    "",
    "x",
    "0",
    "ffffffffffffffffff",
    [],
    [0],
    ["x"],
    [[[]]],
    {},
    {"x": 1},
)
EXTREME_INTS = (-1, 0, 1, 2, 5, 6, 99, 100, 255, 1000, 10**6, 10**9, 2**63, 2**64, 10**30)


@dataclass
class MutationReport:
    """Counts per outcome, and the crashes with what caused them."""

    tried: int = 0
    refused: int = 0
    accepted: int = 0
    crashes: list[str] = field(default_factory=list)
    by_operator: dict[str, list[int]] = field(default_factory=dict)  # [tried, refused, accepted]

    @property
    def crashed(self) -> int:
        return len(self.crashes)

    def add(self, operator: str, outcome: str, detail: str = "") -> None:
        self.tried += 1
        counts = self.by_operator.setdefault(operator, [0, 0, 0])
        counts[0] += 1
        if outcome == "refused":
            self.refused += 1
            counts[1] += 1
        elif outcome == "accepted":
            self.accepted += 1
            counts[2] += 1
        else:
            self.crashes.append(detail)


# --- Walking JSON data ----------------------------------------------------------------------------


def paths(node: Any, prefix: Path = ()) -> list[Path]:
    """Every path below ``node`` (dict keys and list indices), containers included, root not."""
    out: list[Path] = []
    children = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, child in children:
        out.append((*prefix, key))
        out.extend(paths(child, (*prefix, key)))
    return out


def value_at(node: Any, path: Path) -> Any:
    for key in path:
        node = node[key]
    return node


def _parent(node: Any, path: Path) -> tuple[Any, Any]:
    return value_at(node, path[:-1]), path[-1]


def _show(path: Path) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path) or "."


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --- Mutation operators ---------------------------------------------------------------------------
# Each takes (position, rng) and changes the position in place, returning what it did, or None
# when it found nothing to work on.


def _pick(rng: np.random.Generator, items: list[Any]) -> Any:
    return items[int(rng.integers(len(items)))]


def retype(data: Any, rng: np.random.Generator) -> str | None:
    """Replace any value by one of another JSON type (or a non-finite float)."""
    path = _pick(rng, paths(data))
    parent, key = _parent(data, path)
    new = copy.deepcopy(_pick(rng, list(FOREIGN_VALUES)))
    parent[key] = new
    return f"retype {_show(path)} = {_short(new)}"


def nudge(data: Any, rng: np.random.Generator) -> str | None:
    """Move an integer a little or to an extreme (ranges and off-by-one bounds)."""
    ints = [p for p in paths(data) if _is_int(value_at(data, p))]
    if not ints:
        return None
    path = _pick(rng, ints)
    parent, key = _parent(data, path)
    old = parent[key]
    if rng.random() < 0.6:
        parent[key] = old + int(_pick(rng, [-2, -1, 1, 2]))
    else:
        parent[key] = int(_pick(rng, list(EXTREME_INTS))) * int(_pick(rng, [1, 1, -1]))
    return f"nudge {_show(path)} {old} -> {parent[key]}"


def flip(data: Any, rng: np.random.Generator) -> str | None:
    """Negate a boolean."""
    bools = [p for p in paths(data) if isinstance(value_at(data, p), bool)]
    if not bools:
        return None
    path = _pick(rng, bools)
    parent, key = _parent(data, path)
    parent[key] = not parent[key]
    return f"flip {_show(path)} -> {parent[key]}"


def delete(data: Any, rng: np.random.Generator) -> str | None:
    """Remove a dict key or a list element."""
    path = _pick(rng, paths(data))
    parent, key = _parent(data, path)
    del parent[key]
    return f"delete {_show(path)}"


def extra_key(data: Any, rng: np.random.Generator) -> str | None:
    """Add a key no schema defines to some object."""
    dicts = [()] + [p for p in paths(data) if isinstance(value_at(data, p), dict)]
    path = _pick(rng, dicts)
    value_at(data, path)[_pick(rng, ["extra", "Extra", "_", "0"])] = _pick(rng, [0, "x", None])
    return f"extra key in {_show(path)}"


def duplicate(data: Any, rng: np.random.Generator) -> str | None:
    """Repeat an element of a non-empty list (a card, a tile, a figure twice)."""
    lists = [p for p in paths(data) if isinstance(value_at(data, p), list) and value_at(data, p)]
    if not lists:
        return None
    path = _pick(rng, lists)
    items = value_at(data, path)
    i = int(rng.integers(len(items)))
    items.insert(int(rng.integers(len(items) + 1)), copy.deepcopy(items[i]))
    return f"duplicate {_show(path)}[{i}]"


def move_item(data: Any, rng: np.random.Generator) -> str | None:
    """Move an element from one list to another list of the same element type (a tile from the
    bag to a hand, a card from one pile to another): conservation and cross-field checks."""
    lists = [p for p in paths(data) if isinstance(value_at(data, p), list)]
    sources = [p for p in lists if value_at(data, p)]
    if not sources:
        return None
    src = _pick(rng, sources)
    items = value_at(data, src)
    item = items[int(rng.integers(len(items)))]
    targets = [
        p for p in lists if p != src and all(type(x) is type(item) for x in value_at(data, p))
    ]
    if not targets:
        return None
    dst = _pick(rng, targets)
    destination = value_at(data, dst)  # before the removal, which may shift the path's indices
    items.remove(item)
    destination.append(item)
    return f"move {_short(item)} from {_show(src)} to {_show(dst)}"


def swap_values(data: Any, rng: np.random.Generator) -> str | None:
    """Exchange the values of two fields of the same type (two squares, two counts, ...)."""
    every = paths(data)
    a = _pick(rng, every)
    kind = type(value_at(data, a))
    same = [
        p
        for p in every
        if p != a
        and type(value_at(data, p)) is kind
        and p[: len(a)] != a
        and a[: len(p)] != p
        and value_at(data, p) != value_at(data, a)
    ]
    if not same:
        return None
    b = _pick(rng, same)
    pa, ka = _parent(data, a)
    pb, kb = _parent(data, b)
    pa[ka], pb[kb] = pb[kb], pa[ka]
    return f"swap {_show(a)} <-> {_show(b)}"


def borrow(data: Any, rng: np.random.Generator) -> str | None:
    """Replace a string by another string of the position: a valid id in the wrong place."""
    strings = [p for p in paths(data) if isinstance(value_at(data, p), str)]
    if len(strings) < 2:
        return None
    path = _pick(rng, strings)
    parent, key = _parent(data, path)
    old = parent[key]
    parent[key] = value_at(data, _pick(rng, strings))
    return f"borrow {_show(path)} {_short(old)} -> {_short(parent[key])}"


def rekey(data: Any, rng: np.random.Generator) -> str | None:
    """Rename a dict key to another key of the position (a field under a neighbour's name)."""
    dicts = [()] + [p for p in paths(data) if isinstance(value_at(data, p), dict)]
    dicts = [p for p in dicts if value_at(data, p)]
    keys = sorted({str(p[-1]) for p in paths(data) if isinstance(p[-1], str)})
    path = _pick(rng, dicts)
    node = value_at(data, path)
    old = _pick(rng, list(node))
    new = _pick(rng, keys)
    node[new] = node.pop(old)
    return f"rekey {_show((*path, old))} -> {new}"


OPERATORS: dict[str, Callable[[Any, np.random.Generator], str | None]] = {
    "retype": retype,
    "nudge": nudge,
    "flip": flip,
    "delete": delete,
    "extra_key": extra_key,
    "duplicate": duplicate,
    "move_item": move_item,
    "swap_values": swap_values,
    "borrow": borrow,
    "rekey": rekey,
}


def mutate(position: dict[str, Any], rng: np.random.Generator) -> tuple[str, str, dict[str, Any]]:
    """(operator, description, mutated copy): one operator, or two or three stacked ("stack")."""
    data = copy.deepcopy(position)
    stacked = rng.random() < 0.2
    done: list[str] = []
    names = list(OPERATORS)
    while len(done) < (int(rng.integers(2, 4)) if stacked else 1):
        name = _pick(rng, names)
        what = OPERATORS[name](data, rng)
        if what is not None:
            done.append(what)
            operator = name
    return ("stack" if stacked else operator), "; ".join(done), data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- Judging one mutation -------------------------------------------------------------------------


def _scramble(node: Any) -> None:
    """Empty every list and dict inside ``node``: a loader that kept references would notice."""
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in list(children):
        _scramble(child)
    if isinstance(node, dict | list):
        node.clear()


def judge(
    env: AECEnv,
    twin: AECEnv,
    base: dict[str, Any],
    mutated: dict[str, Any],
    check: Callable[[AECEnv], None],
    rng: np.random.Generator,
    round_trip_every: int = 10,
) -> tuple[str, str]:
    """("refused" | "accepted" | "crashed", detail) for loading ``mutated`` into ``env``.

    ``env`` holds ``base`` first; a refusal must leave it there. An accepted position is played
    to the end by uniform legal moves, with ``check`` at every decision and a round trip through
    ``twin`` every ``round_trip_every`` decisions.
    """
    env.unwrapped.set_state(copy.deepcopy(base))
    before = env.unwrapped.get_state()
    given = copy.deepcopy(mutated)
    try:
        env.unwrapped.set_state(given)
    except PositionError as err:
        if env.unwrapped.get_state() != before:
            return "crashed", f"refused ({err}) but the previous game changed"
        if not str(err):
            return "crashed", "refused with an empty message"
        return "refused", str(err)
    except Exception as err:  # anything but PositionError is what this fuzzer looks for
        return "crashed", f"set_state raised {type(err).__name__}: {err}"
    try:
        saved = env.unwrapped.get_state()
        _scramble(given)
        if env.unwrapped.get_state() != saved:
            return "crashed", "the loaded game shares data with the caller's position"
        twin.unwrapped.set_state(copy.deepcopy(saved))
        if twin.unwrapped.get_state() != saved:
            return "crashed", "accepted, but saved again it does not reload to itself"
        _play_out(env, twin, check, rng, round_trip_every)
    except Exception as err:
        frame = traceback.extract_tb(err.__traceback__)[-1]
        where = f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}"
        return "crashed", f"accepted, then {type(err).__name__} at {where}: {err}"
    return "accepted", ""


def _play_out(
    env: AECEnv,
    twin: AECEnv,
    check: Callable[[AECEnv], None],
    rng: np.random.Generator,
    round_trip_every: int,
) -> None:
    """Uniform legal play to the end, checking invariants and round-tripping now and then."""
    for decision, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        check(env)
        if decision % round_trip_every == 0:
            check_restores(env, twin)
        legal = np.flatnonzero(obs["action_mask"])
        if not len(legal):
            raise AssertionError(f"{agent} must decide but has no legal action")
        env.step(int(rng.choice(legal)))


def collect_positions(
    make_env: Callable[[], AECEnv],
    players: Callable[[int], Mapping[str, Player]],
    games: int,
    per_game: int,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Positions from ``games`` seeded games of ``players(game)`` (agent -> bot): ``per_game``
    decisions drawn at random from each, and its final position."""
    rng = np.random.default_rng(seed)
    env = make_env()
    out: list[dict[str, Any]] = []
    for game in range(games):
        env.reset(seed=seed + game)
        bots = players(game)
        for bot in bots.values():
            bot.reset()
        seen = []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seen.append(env.unwrapped.get_state())
            env.step(int(bots[agent].act(obs["observation"], obs["action_mask"])))
        picks = rng.choice(len(seen), size=min(per_game, len(seen)), replace=False)
        out += [seen[int(i)] for i in sorted(picks)] + [env.unwrapped.get_state()]
    return out


def _loadable(
    env: AECEnv, positions: list[dict[str, Any]], report: MutationReport
) -> list[dict[str, Any]]:
    """The positions that load; one the game itself saved and cannot load is a crash too."""
    good = []
    for position in positions:
        try:
            env.unwrapped.set_state(copy.deepcopy(position))
        except Exception as err:
            report.crashes.append(f"an unmutated position is refused: {type(err).__name__}: {err}")
        else:
            good.append(position)
    if not good:
        raise ValueError("no position loads: nothing to mutate")
    return good


def fuzz_positions(
    make_env: Callable[[], AECEnv],
    positions: list[dict[str, Any]],
    mutations: int,
    check: Callable[[AECEnv], None],
    seed: int = 0,
    progress: Callable[[MutationReport], None] | None = None,
) -> MutationReport:
    """Try ``mutations`` mutations of positions drawn from ``positions``; count the outcomes."""
    rng = np.random.default_rng(seed)
    env, twin = make_env(), make_env()
    env.reset(seed=seed)
    twin.reset(seed=seed)
    report = MutationReport()
    positions = _loadable(env, positions, report)
    for i in range(mutations):
        base = positions[int(rng.integers(len(positions)))]
        operator, what, mutated = mutate(base, rng)
        outcome, detail = judge(env, twin, base, mutated, check, rng)
        report.add(operator, outcome, f"{what}: {detail}")
        if progress is not None and (i + 1) % 500 == 0:
            progress(report)
    return report
