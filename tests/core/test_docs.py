"""The README's and the docs' code runs as written, and every file and command they cite is there.

Why: a doc whose example fails is worse than none (the README once showed
``engine.apply_action(state, "PASS")``, refused on a new game). So every fenced ``python`` block
of README.md and docs/*.md (the vendored rules specs of docs/rules/ aside) runs in its own
interpreter from the repository root. A block that is not to run (a shell command, a transcript,
a partial excerpt) says so just above it, ``<!-- not run: reason -->``, and :data:`NOT_RUN` lists
every such block, so none goes quiet unseen. Every path into the repository that a doc or a
model card names (``reborn_env/...``, ``tests/...``, ``docs/...``, ``configs/...``,
``checkpoints/...``, ``benchmarks/...``, ``training/...``, relative links included) exists, and
every dotted name of ours (``reborn_env.bots.loading.load_bot``, ``training.ppo``) is a module,
or a name a module defines. In README.md and docs/*.md, every path-like word of a code span
(``setup.py``, ``.ci/run``, ``fast/src/*.c``, ``design.md``) also names something in the
repository, whole or as the end of a path there (a stale root such as ``shared/rules/`` fails),
and every ``python -m MODULE`` of ours is a module that runs.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""The docs whose code blocks run (docs/rules/ holds the vendored specs, which are not ours)."""
CITING_DOCS = [*DOCS, *sorted((ROOT / "checkpoints").glob("*.md"))]
"""The docs whose citations of repository files are checked (the model cards too)."""
BLOCK_TIMEOUT_S = 180

NOT_RUN = [
    ("README.md", "shell, the quick start (test_quick_start_commands checks them)"),
    ("docs/architecture.md", "diagram"),
    ("docs/bot_protocol.md", "shell session, botd's command-line errors"),
    ("docs/bot_protocol.md", "protocol transcript, a scenario named by a path is refused"),
    ("docs/bot_protocol.md", "protocol transcript, the example session"),
    ("docs/bot_protocol.md", "protocol transcript, the end of the example session"),
    ("docs/bot_protocol.md", "protocol transcript, a front-end sends the bot's view"),
    ("docs/bot_protocol.md", "protocol transcript, the errors"),
    ("docs/policy_artifact.md", "shell commands, needing a policy file of version 1"),
]
"""Every code block not run, as (doc, the reason its marker gives)."""

NOT_IN_REPOSITORY = {
    "checkpoints/quickstart/": "the quick start's run writes it (configs/quickstart.yaml)",
    "checkpoints/haven_ppo_run/train.log": "the shipped haven run's log, not committed",
}
"""Paths the docs name on purpose that a clone does not hold: what running something writes."""

WRITTEN = {
    ".venv/": "the quick start's virtual environment",
    "runs/": "training logs and tournament results, written by runs",
    "rllib/": "the RLlib checkpoint a run writes in its checkpoint_dir",
}
"""Folders a code span names that commands write (a path under one is not checked)."""

FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[^`\s]*)\s*$")
NOT_RUN_MARKER = re.compile(r"^\s*<!--\s*not run:\s*(?P<reason>.*?)\s*-->\s*$")
REPOSITORY_PATH = re.compile(
    r"(?<![\w./-])(?:reborn_env|tests|docs|configs|checkpoints|benchmarks|training)/[\w./<>*-]*"
)
MARKDOWN_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
DOTTED_NAME = re.compile(r"(?<![\w.\"'/])(?:reborn_env|training)(?:\.\w+)+\b(?<!\.md)")
"""``reborn_env.x.y`` or ``training.x``; one in quotes is a string (a position's format name),
one ending in ``.md`` a doc (``training.md``)."""
CODE_SPAN = re.compile(r"`([^`]+)`")
SLASHED_PATH = re.compile(r"^\.?[\w<>*-][\w.<>*-]*(?:/[\w.<>*-]*)*(?:/|/[\w<>*-]*\.[\w.<>*-]+)$")
"""A folder (``fast/src/``) or a file with a suffix (``.ci/run``, from the root, is seen by its
first name); not ``save/restore`` or ``HV-AI-5/6``."""
BARE_FILE = re.compile(r"^[\w<>*-]+\.(?:md|py|c|h|toml|yaml)$")
"""A file named alone in a code span: a doc, a source or a config (not what a command writes)."""
RUN_MODULE = re.compile(
    r"python3? -m ((?:reborn_env|training|tests|benchmarks)(?:\.\w+)*)(?![.\w<])"
)
"""``python -m`` with a module of ours; ``training.<algo>``, a placeholder, is left out."""
SKIPPED_FOLDERS = {".git", ".venv", "runs", "__pycache__", "build", ".pytest_cache", ".ruff_cache"}
"""Not the repository's content: version control, environments, run outputs, caches."""


@dataclass(frozen=True)
class Block:
    """A fenced code block of a doc."""

    doc: str  # relative to the repository root
    line: int  # of the opening fence, 1-based
    lang: str
    code: str
    not_run: str | None  # the reason its marker gives, if it is marked


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def code_blocks(path: Path) -> list[Block]:
    """The fenced blocks of ``path``, each with its language and its ``not run`` marker."""
    lines = path.read_text().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent = opening["indent"]
        end = next(
            (j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"),
            None,
        )
        assert end is not None, f"{relative(path)}:{i + 1}: code block never closed"
        body = [line.removeprefix(indent) for line in lines[i + 1 : end]]
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = NOT_RUN_MARKER.match(before)
        blocks.append(
            Block(
                relative(path),
                i + 1,
                opening["lang"],
                "\n".join(body) + "\n",
                marker["reason"] if marker else None,
            )
        )
        i = end + 1
    return blocks


ALL_BLOCKS = [block for doc in DOCS for block in code_blocks(doc)]
RUNNABLE = [b for b in ALL_BLOCKS if b.not_run is None and b.lang == "python"]


def test_every_block_runs_or_says_why_not() -> None:
    """A block without a language, or one that is not Python and not marked, is a mistake: the
    reader cannot tell whether it is meant to run."""
    unclear = [
        f"{b.doc}:{b.line} ({b.lang or 'no language'})"
        for b in ALL_BLOCKS
        if not b.lang or (b.lang != "python" and b.not_run is None)
    ]
    assert not unclear, f"mark these <!-- not run: reason --> or make them python: {unclear}"
    assert all(b.not_run for b in ALL_BLOCKS if b.not_run is not None), "a marker gives no reason"


def test_the_blocks_not_run_are_the_listed_ones() -> None:
    marked = Counter((b.doc, b.not_run) for b in ALL_BLOCKS if b.not_run is not None)
    assert marked == Counter(NOT_RUN)


def test_there_are_python_blocks_to_run() -> None:
    """The README's examples are among them (a parser that found none would pass everything)."""
    assert {b.doc for b in RUNNABLE} >= {
        "README.md",
        "docs/haven_position_format.md",
        "docs/interop.md",
        "docs/policy_artifact.md",
    }
    assert len(RUNNABLE) >= 5


@pytest.mark.parametrize("block", RUNNABLE, ids=[f"{b.doc}:{b.line}" for b in RUNNABLE])
def test_python_block_runs_as_written(block: Block) -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", block.code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
    )
    assert run.returncode == 0, f"{block.doc}:{block.line} failed:\n{run.stderr[-3000:]}"


def test_quick_start_commands() -> None:
    """The first command installs the train extra and runs the main job; the second is CI's."""
    quick_start = next(b for b in ALL_BLOCKS if b.doc == "README.md" and b.lang == "bash")
    train, tests = quick_start.code.strip().splitlines()
    ci_command = [
        line for line in (ROOT / ".ci" / "run").read_text().splitlines() if "pip install" in line
    ]
    assert ci_command == [tests]
    assert 'pip install -e ".[train]"' in train
    config = shlex.split(train)[shlex.split(train).index("--config") + 1]
    assert "-m training.ppo --config" in train and (ROOT / config).is_file()


def cited_paths(path: Path) -> list[str]:
    """The repository paths ``path`` names (placeholders like ``<name>`` kept) and its relative
    links, each relative to the repository root."""
    text = path.read_text()
    found = [m.group().rstrip(".,:;") for m in REPOSITORY_PATH.finditer(text)]
    for link in MARKDOWN_LINK.finditer(text):
        target = link["target"].split("#")[0]
        if target and not re.match(r"^[a-z]+:", target):
            resolved = (path.parent / target).resolve()
            found.append(relative(resolved) if resolved.is_relative_to(ROOT) else target)
    return found


def exists(cited: str) -> bool:
    """Whether ``cited`` names something in the repository (``<name>`` and ``*`` match any)."""
    pattern = re.sub(r"<[^>]*>", "*", cited.rstrip("/"))
    return any(ROOT.glob(pattern)) if "*" in pattern else (ROOT / pattern).exists()


ALLOWED_MISSING = NOT_IN_REPOSITORY


@pytest.mark.parametrize("doc", CITING_DOCS, ids=relative)
def test_cited_files_exist(doc: Path) -> None:
    missing = sorted({c for c in cited_paths(doc) if c not in ALLOWED_MISSING and not exists(c)})
    assert not missing, f"{relative(doc)} cites files that are not in the repository: {missing}"


def test_the_paths_not_in_the_repository_are_still_cited() -> None:
    cited = {c for doc in CITING_DOCS for c in cited_paths(doc)}
    assert set(ALLOWED_MISSING) <= cited, set(ALLOWED_MISSING) - cited


def repository_entries() -> list[str]:
    """Every file and folder of the repository, relative to its root (outputs and caches aside)."""
    entries, todo = [], [ROOT]
    while todo:
        folder = todo.pop()
        for child in folder.iterdir():
            if child.name in SKIPPED_FOLDERS or child.name.endswith(".egg-info"):
                continue
            entries.append(relative(child))
            if child.is_dir():
                todo.append(child)
    return entries


ENTRIES = repository_entries()
TOP_LEVEL = {entry for entry in ENTRIES if "/" not in entry}


def prose(text: str) -> str:
    """``text`` without its fenced code blocks (a block runs, or is a diagram or a transcript)."""
    kept, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return "\n".join(kept)


def path_words(text: str) -> list[str]:
    """The words of ``text``'s code spans that look like paths: with a slash (not a URL, not an
    absolute path, not starting with a placeholder) or a doc, source or config file named alone."""
    words = []
    for span in CODE_SPAN.finditer(prose(text)):
        for word in span[1].split():
            word = word.strip("(),;:").rstrip(".")
            if "://" in word or word.startswith(("/", "<", "-", "~")) or "=" in word:
                continue
            if word.startswith(tuple(WRITTEN)) or word.split("/")[0].isupper():
                continue  # written by a command, or under a placeholder (`DIR/x.toml`)
            from_root = "/" in word and word.split("/")[0] in TOP_LEVEL
            if SLASHED_PATH.match(word) or BARE_FILE.match(word) or from_root:
                words.append(word)
    return words


def test_the_written_folders_are_still_named() -> None:
    spans = [span[1] for doc in DOCS for span in CODE_SPAN.finditer(prose(doc.read_text()))]
    named = {w for w in WRITTEN for span in spans for word in span.split() if word.startswith(w)}
    assert named == set(WRITTEN), set(WRITTEN) - named


def names_an_entry(word: str) -> bool:
    """Whether ``word`` is a repository path from the root, or the end of one (a path relative
    to a package, ``fast/src/*.c``; a file named alone, ``event_feed.py``); ``<x>`` and ``*``
    match any name."""
    if word in ALLOWED_MISSING or exists(word):
        return True
    pattern = "".join(
        "[^/]*" if piece == "*" or piece.startswith("<") else re.escape(piece)
        for piece in re.split(r"(<[^>]*>|\*)", word.rstrip("/"))
    )
    end = re.compile(rf"(?:^|/){pattern}$")
    return any(end.search(entry) for entry in ENTRIES)


@pytest.mark.parametrize("doc", DOCS, ids=relative)
def test_path_words_name_repository_files(doc: Path) -> None:
    unknown = sorted({w for w in path_words(doc.read_text()) if not names_an_entry(w)})
    assert not unknown, f"{relative(doc)} names paths that are nowhere in the repository: {unknown}"


def test_path_words_are_found() -> None:
    """The check sees what it must refuse: a stale root, a doc that is gone, a missing config."""
    text = "`shared/rules/haven.md` (`design.md`), `python setup.py build_ext`, `.ci/walk`"
    assert path_words(text) == ["shared/rules/haven.md", "design.md", "setup.py", ".ci/walk"]
    assert [names_an_entry(w) for w in path_words(text)] == [False, False, True, False]
    assert path_words("`save/restore` `HV-AI-5/6` `runs/<run_name>` `DIR/a.toml` `http://x/`") == []
    assert names_an_entry("fast/src/*.c") and names_an_entry("reborn_env/games/<game>/")


def runs_as_module(module: str) -> bool:
    """Whether ``python -m module`` finds a module of ours to run: a file, or a package with a
    ``__main__``."""
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__main__.py").is_file()


@pytest.mark.parametrize("doc", DOCS, ids=relative)
def test_commands_run_modules_that_exist(doc: Path) -> None:
    commands = {m[1] for m in RUN_MODULE.finditer(" ".join(doc.read_text().split()))}
    unknown = sorted(c for c in commands if not runs_as_module(c))
    assert not unknown, f"{relative(doc)} runs modules that are not there: {unknown}"


def test_run_commands_are_found() -> None:
    assert runs_as_module("training.ppo") and runs_as_module("reborn_env.frontends.play")
    assert not runs_as_module("reborn_env.bots")  # a package without __main__
    assert not runs_as_module("training.no_such_trainer")


def top_level_names(module: Path) -> set[str]:
    """The names a module binds at its top level (definitions, assignments, imports), nested
    ``if`` and ``try`` blocks included."""
    names: set[str] = set()
    todo = list(ast.parse(module.read_text()).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.If | ast.Try):
            todo += [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
            todo += [n for handler in getattr(node, "handlers", []) for n in handler.body]
    return names


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module of ours, or a module and a name it defines."""
    first, *parts = dotted.split(".")
    package = ROOT / first
    for i, part in enumerate(parts):
        if (package / part / "__init__.py").is_file():
            package = package / part
        elif (package / f"{part}.py").is_file():
            names = parts[i + 1 :]
            return not names or names[0] in top_level_names(package / f"{part}.py")
        else:
            return part in top_level_names(package / "__init__.py")
    return (package / "__init__.py").is_file()


@pytest.mark.parametrize("doc", CITING_DOCS, ids=relative)
def test_cited_modules_exist(doc: Path) -> None:
    dotted = {m.group().rstrip(".") for m in DOTTED_NAME.finditer(doc.read_text())}
    unknown = sorted(d for d in dotted if not resolves(d))
    assert not unknown, f"{relative(doc)} names modules or names that do not exist: {unknown}"
