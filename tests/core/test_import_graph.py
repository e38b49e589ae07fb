"""The import graph of ``reborn_env``, ``training`` and the test games (``tests/games/``): no cycle
between modules or packages, rules code that needs no RL or array library (house rule: the rules
engine imports no gymnasium, pettingzoo or torch), no game importing another, the library never
importing the trainers (``training`` builds on ``reborn_env``, not the other way round), and no
module importing a private name (``_x``) of another package.

Every ``import`` statement of every module counts: at module level, inside ``if TYPE_CHECKING:``
and inside functions (a lazy import that only dodges a cycle is still a cycle in what a reader
must hold in mind). Relative imports are resolved. ``from package import name`` is an edge to the
submodule ``package.name`` when there is one, otherwise to the package's ``__init__``, which is a
module of the graph like any other (so an ``__init__`` that re-exports a submodule which imports
a name back from the ``__init__`` is a cycle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("reborn_env", "training", "tests/games")
ALL_CODE = (*PACKAGES, "tests", "benchmarks")
"""Every folder of our Python: the private-name rule holds for tests and benchmarks too."""
LIBRARY = "reborn_env"
TRAINERS = "training"
GAME_PACKAGES = ("reborn_env.games", "tests.games")  # each subpackage of these is one game
RULES_FREE_OF = ("gymnasium", "pettingzoo", "torch", "numpy")

Graph = dict[str, dict[str, int]]  # module -> {imported module: line of the first such import}


def module_name(path: Path) -> str:
    """``reborn_env/games/haven/rules/engine.py`` -> ``reborn_env.games.haven.rules.engine``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules(folders: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``folders`` (by default the packages of the graph), by dotted name."""
    found = {}
    for package in folders:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def sources_of(folders: tuple[str, ...] = PACKAGES) -> dict[str, tuple[str, bool]]:
    """``{module: (source, is_package)}`` of every module of ``folders``."""
    return {n: (p.read_text(), p.name == "__init__.py") for n, p in modules(folders).items()}


def imported_names(source: str, module: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Each absolute dotted name an import statement of ``module`` names, with its line:
    ``import a.b`` names ``a.b``, ``from a import b`` names ``a.b`` (a submodule or not)."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            origin = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([origin] if origin else []))
            for alias in node.names:
                yield f"{origin}.{alias.name}" if origin else alias.name, node.lineno


def imports_of(name: str) -> Iterator[tuple[str, int]]:
    """:func:`imported_names` of one module of the packages."""
    path = modules()[name]
    return imported_names(path.read_text(), name, path.name == "__init__.py")


def resolve(dotted: str, known: dict[str, Path] | set[str]) -> str | None:
    """The module an imported name lands in: itself, or the closest package holding it
    (``package.function``); None outside the graph."""
    while dotted:
        if dotted in known:
            return dotted
        dotted = dotted.rpartition(".")[0]
    return None


def build_graph(sources: dict[str, tuple[str, bool]]) -> Graph:
    """The graph of ``{module: (source, is_package)}``; self-imports are dropped."""
    edges: Graph = {}
    for name, (source, is_package) in sources.items():
        targets: dict[str, int] = {}
        for dotted, line in imported_names(source, name, is_package):
            target = resolve(dotted, sources.keys())
            if target is not None and target != name:
                targets.setdefault(target, line)
        edges[name] = targets
    return edges


@cache
def graph() -> Graph:
    """The import graph of the packages."""
    return build_graph(sources_of())


def tangles(edges: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each
    sorted; every module of one imports every other, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = stack[stack.index(v) :]
            del stack[stack.index(v) :]
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def shortest_cycle(edges: Graph, component: list[str]) -> list[str]:
    """One shortest cycle through the component's first module, start repeated at the end."""
    start = component[0]
    came_from = {start: start}
    queue = [start]
    for v in queue:
        for w in sorted(edges[v]):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if w in component and w not in came_from:
                came_from[w] = v
                queue.append(w)
    raise AssertionError(f"{start} is on no cycle")  # every module of a component is


def describe(edges: Graph, component: list[str]) -> str:
    """The component's modules and one cycle through them, each hop with its import's line."""
    cycle = shortest_cycle(edges, component)
    hops = [f"{a} (line {edges[a][b]})" for a, b in zip(cycle, cycle[1:], strict=False)]
    return (
        f"{len(component)} modules import each other: {', '.join(component)}\n"
        f"  for example {' -> '.join([*hops, cycle[-1]])}"
    )


def test_no_import_cycle_between_modules() -> None:
    edges = graph()
    found = tangles(edges)
    assert not found, "import cycles:\n" + "\n".join(describe(edges, c) for c in found)


def package_of(name: str) -> str:
    """The package a module belongs to in the package graph: ``training.ppo.loss`` ->
    ``training.ppo``, a game's module -> its game (``reborn_env.games.haven``)."""
    parts = name.split(".")
    deep = parts[0] == "tests" or parts[:2] == ["reborn_env", "games"]
    return ".".join(parts[: 3 if deep else 2])


def package_graph(edges: Graph) -> Graph:
    """The module graph folded into packages: an edge where some module of one imports some
    module of the other (with that import's module and line as the edge's label)."""
    folded: Graph = {package_of(name): {} for name in edges}
    for name, targets in edges.items():
        for target, line in targets.items():
            a, b = package_of(name), package_of(target)
            if a != b:
                folded[a].setdefault(b, line)
    return folded


def test_no_import_cycle_between_packages() -> None:
    """No package imports in a circle: ``training``'s packages stack (common, runs, bench,
    warmstart, then the algorithms and exploit) and the library's parts do too, so each can be
    read knowing only those below it."""
    folded = package_graph(graph())
    found = tangles(folded)
    assert not found, "package cycles:\n" + "\n".join(describe(folded, c) for c in found)


def test_a_package_cycle_is_found_through_modules_of_different_packages() -> None:
    """Two packages whose modules import each other's, with no module cycle, are a cycle."""
    sources = {
        "training.low.a": ("from training.high import b", False),
        "training.high.b": ("", False),
        "training.high.c": ("from training.low import d", False),
        "training.low.d": ("", False),
    }
    edges = build_graph(sources)
    assert not tangles(edges)
    assert tangles(package_graph(edges)) == [["training.high", "training.low"]]


def game_and_part(name: str) -> tuple[str | None, str]:
    """The game a module belongs to and the module's name inside the game's package:
    ``reborn_env.games.haven.rules.engine`` -> ``("haven", "rules.engine")``; (None, "") for a
    module outside the games."""
    for root in GAME_PACKAGES:
        if name.startswith(f"{root}."):
            game, _, part = name.removeprefix(f"{root}.").partition(".")
            return game, part
    return None, ""


def rules_modules() -> list[str]:
    """Every game's rules: its module ``rules`` or the modules of its package ``rules/``."""
    return [name for name in modules() if game_and_part(name)[1].partition(".")[0] == "rules"]


@pytest.mark.parametrize("name", rules_modules())
def test_rules_import_no_rl_or_array_library(name: str) -> None:
    """The rules read like the rulebook in plain Python: no gymnasium, pettingzoo, torch or
    numpy, imported by a rules module itself or by any module of ours it imports in turn."""
    seen = {name}
    todo = [name]
    while todo:
        module = todo.pop()
        for dotted, line in imports_of(module):
            top = dotted.partition(".")[0]
            assert top not in RULES_FREE_OF, f"{name} reaches {top}: {module} line {line}"
        for target in graph()[module]:
            if target not in seen:
                seen.add(target)
                todo.append(target)


def game_of(name: str) -> str | None:
    """The game a module belongs to (``reborn_env.games.<game>...``, ``tests.games.<game>...``)."""
    return game_and_part(name)[0]


def test_no_game_imports_another_game() -> None:
    """What two games share lives in the core (haven's render once borrowed Earth Reborn's font;
    it is ``reborn_env.core.drawing`` now)."""
    crossings = [
        f"{module} imports {target}"
        for module, targets in graph().items()
        for target in targets
        if game_of(module) and game_of(target) and game_of(module) != game_of(target)
    ]
    assert not crossings


def test_interop_bridges_reach_games_only_through_the_registry() -> None:
    """``reborn_env.interop`` (bridges other libraries import) imports the core, the bots and the
    registry, never a trainer nor a game's package: every registered game is bridged alike."""
    bridges = [name for name in modules() if name.startswith("reborn_env.interop")]
    assert "reborn_env.interop.openspiel" in bridges
    crossings = [
        f"{module} imports {target}"
        for module in bridges
        for target in graph()[module]
        if target.startswith("training") or game_of(target)
    ]
    assert not crossings


def imports_of_trainers(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Each import of ``training`` by a module of the library, as ``module line N: name``."""
    return [
        f"{module} line {line}: {dotted}"
        for module, (source, is_package) in sources.items()
        if module.partition(".")[0] == LIBRARY
        for dotted, line in imported_names(source, module, is_package)
        if dotted.partition(".")[0] == TRAINERS
    ]


def test_the_library_never_imports_the_trainers() -> None:
    """``reborn_env`` plays policy files through ``reborn_env.policies``; ``training`` builds on
    the library, so a library module that imports ``training`` (at any level, lazily or not)
    would tie every install and every front-end to the trainers."""
    found = imports_of_trainers(sources_of())
    assert not found, "the library imports training:\n" + "\n".join(found)


def test_an_import_of_the_trainers_is_found_at_any_level() -> None:
    """Module level, function level, TYPE_CHECKING, ``import training`` and ``from training``."""
    sources = {
        "reborn_env.bots.a": ("def f():\n    from training.runs import plots\n", False),
        "reborn_env.bots.b": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import training.ppo\n",
            False,
        ),
        "reborn_env.c": ("import training\n", False),
        "reborn_env.d": ("from .policies import artifact\n", False),
        "training.e": ("from training.common import cli\n", False),
    }
    assert imports_of_trainers(sources) == [
        "reborn_env.bots.a line 2: training.runs.plots",
        "reborn_env.bots.b line 3: training.ppo",
        "reborn_env.c line 1: training",
    ]


def is_private(part: str) -> bool:
    """``_x`` is private; ``__init__``-style dunder names are not."""
    return part.startswith("_") and not part.startswith("__")


def private_imports(sources: dict[str, tuple[str, bool]]) -> set[tuple[str, str, int]]:
    """``(module, name, line)`` for each private name of ours (a module or a name whose dotted
    path has a ``_x`` part) that a module imports from another package (:func:`package_of`)."""
    found = set()
    for module, (source, is_package) in sources.items():
        for dotted, line in imported_names(source, module, is_package):
            if dotted.partition(".")[0] not in (LIBRARY, TRAINERS, "tests", "benchmarks"):
                continue
            if any(map(is_private, dotted.split("."))) and package_of(dotted) != package_of(module):
                found.add((module, dotted, line))
    return found


def test_no_module_imports_a_private_name_of_another_package() -> None:
    """A package's ``_x`` names are its own: another package that needs one needs a public
    name for it."""
    found = sorted(f"{m} line {n}: {d}" for m, d, n in private_imports(sources_of(ALL_CODE)))
    assert not found, "private names imported from another package:\n" + "\n".join(found)


def test_a_private_import_across_packages_is_found() -> None:
    """``from x import _y``, ``import x._y`` and relative imports count; a package's own private
    names (a game's compiled ``_core`` read by its own modules) and dunder names do not."""
    sources = {
        "training.nfsp.config": ("from training.ppo.config import _short, TrainConfig\n", False),
        "training.bench.a": ("def f():\n    import reborn_env.games.haven._core\n", False),
        "reborn_env.games.haven.env": ("from . import _core\nfrom .rules import _x\n", False),
        "reborn_env.core.b": ("from ..games.haven.rules import _step\n", False),
        "reborn_env.core.c": ("from ._private import thing\nfrom .d import __all__\n", False),
    }
    assert private_imports(sources) == {
        ("training.nfsp.config", "training.ppo.config._short", 1),
        ("training.bench.a", "reborn_env.games.haven._core", 2),
        ("reborn_env.core.b", "reborn_env.games.haven.rules._step", 1),
    }


# --- The checker itself ---------------------------------------------------------------------------

TOY = {
    "pkg": ("from .a import helper\n", True),
    "pkg.a": ("def helper():\n    from .b import late\n", False),
    "pkg.b": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n", False),
    "pkg.c": ("import pkg.d\nfrom pkg import a\n", False),
    "pkg.d": ("import numpy\nfrom .. import pkg\n", False),
}


def test_every_kind_of_import_is_an_edge() -> None:
    """Function level, TYPE_CHECKING, relative (``.`` and ``..``), ``import a.b`` and ``from pkg
    import name``: a submodule when there is one, else the package's ``__init__``."""
    edges = build_graph(TOY)
    assert edges == {
        "pkg": {"pkg.a": 1},
        "pkg.a": {"pkg.b": 2},
        "pkg.b": {"pkg.c": 3},
        "pkg.c": {"pkg.d": 1, "pkg.a": 2},
        "pkg.d": {"pkg": 2},
    }


def test_a_cycle_is_reported_with_its_modules_and_lines() -> None:
    edges = build_graph(TOY)
    assert tangles(edges) == [["pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"]]
    assert shortest_cycle(edges, ["pkg.a", "pkg.b", "pkg.c"]) == [
        "pkg.a",
        "pkg.b",
        "pkg.c",
        "pkg.a",
    ]
    assert "pkg.a (line 2) -> pkg.b (line 3) -> pkg.c (line 2) -> pkg.a" in describe(
        edges, ["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg"]
    )
    del edges["pkg.c"]["pkg.a"], edges["pkg.d"]["pkg"]
    assert tangles(edges) == []


def test_the_real_graph_resolves_imports_to_our_modules() -> None:
    edges = graph()
    assert "reborn_env.games.haven.actions" in edges["reborn_env.games.haven.rules.character_turn"]
    assert "reborn_env.games.haven.rules.state" in edges["reborn_env.games.haven.rules.engine"]
    assert resolve("reborn_env.games.haven.rules.state.HavenState", modules()) == (
        "reborn_env.games.haven.rules.state"
    )
    assert resolve("numpy.random", modules()) is None
    assert {
        "reborn_env.games.haven.rules.engine",
        "reborn_env.games.earth_reborn.rules.engine",
    } <= (set(rules_modules()))


def test_a_module_is_placed_in_its_game_shipped_or_defined_in_the_tests() -> None:
    assert game_and_part("reborn_env.games.haven.rules.engine") == ("haven", "rules.engine")
    assert game_and_part("tests.games.toy.rules") == ("toy", "rules")
    assert game_and_part("tests.games.toy") == ("toy", "")
    assert game_and_part("reborn_env.games") == game_and_part("reborn_env.core.rng") == (None, "")
