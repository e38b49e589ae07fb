"""No module imports a private name (``_x``) of another package: what a package keeps private may
change without notice, so a second package that needs it needs a public name instead.

Every ``from ... import`` of ``reborn_env``, ``training`` and ``benchmarks`` counts, relative ones
resolved; a module may import private names of its own package's modules (a package's modules
share its internals). Tests are free to reach into what they test.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("reborn_env", "training", "benchmarks")


def package_of(path: Path) -> str:
    """The dotted package a module belongs to (an ``__init__`` belongs to its own package)."""
    return ".".join(path.relative_to(ROOT).parent.parts)


def private_imports(path: Path) -> list[str]:
    """``path:line: from origin import _name`` for each private name ``path`` imports from a
    module outside its own package."""
    package = package_of(path)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        origin = node.module or ""
        if node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            origin = ".".join([*base, origin] if origin else base)
        for alias in node.names:
            private = alias.name.startswith("_") and not alias.name.startswith("__")
            folder = ROOT / Path(*origin.split("."))
            submodule = (folder / alias.name).is_dir() or any(folder.glob(f"{alias.name}.*"))
            home = origin if not submodule else f"{origin}.{alias.name}"
            if private and not submodule and home != package and home.rpartition(".")[0] != package:
                found.append(
                    f"{path.relative_to(ROOT)}:{node.lineno}: from {origin} import {alias.name}"
                )
    return found


def test_no_module_imports_a_private_name_of_another_package() -> None:
    paths = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    assert paths
    assert [found for path in paths for found in private_imports(path)] == []
