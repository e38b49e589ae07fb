"""Every rule id of both specs is cited by at least one test.

The specs are vendored at docs/rules/earth_reborn.md (``ER-*``) and docs/rules/haven.md
(``HV-*``). A test cites a rule in its name, docstring or comments, singly (``ER-ACT-9``), as a
range (``ER-ACT-4..8``) or as a list (``ER-DOOR-3, -4``); ``HV-BOX-1/5/8`` lists too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPECS = {"ER": "docs/rules/earth_reborn.md", "HV": "docs/rules/haven.md"}
_DEFINED = re.compile(r"\*\*((?:ER|HV)-[A-Z]+-\d+)\*\*")
_CITED = re.compile(r"(ER|HV)-([A-Z]+)-(\d+)(?:\.\.(\d+))?((?:(?:,\s*-|/)\d+(?:\.\.\d+)?)*)")


# "HV-LREST-1 .. HV-LREST-6" (possibly across a line break) is the range HV-LREST-1..6.
_LONG_RANGE = re.compile(r"(ER|HV)-([A-Z]+)-(\d+)\s*\.\.\s*(?:\1-\2-)?(\d+)")


def defined_rule_ids(prefix: str) -> set[str]:
    return set(_DEFINED.findall((ROOT / SPECS[prefix]).read_text()))


def cited_rule_ids(text: str) -> set[str]:
    """Expand every citation form in ``text`` into single ids."""
    text = _LONG_RANGE.sub(r"\1-\2-\3..\4", text)
    cited = set()
    for prefix, family, first, last, more in _CITED.findall(text):
        spans = [(int(first), int(last or first))]
        for a, b in re.findall(r"(?:-|/)(\d+)(?:\.\.(\d+))?", more):
            spans.append((int(a), int(b or a)))
        for low, high in spans:
            cited.update(f"{prefix}-{family}-{n}" for n in range(low, high + 1))
    return cited


def test_citation_forms_expand():
    assert cited_rule_ids("ER-ACT-4..6 and ER-DOOR-3, -4, -7..8") == {
        "ER-ACT-4",
        "ER-ACT-5",
        "ER-ACT-6",
        "ER-DOOR-3",
        "ER-DOOR-4",
        "ER-DOOR-7",
        "ER-DOOR-8",
    }


def test_haven_citation_forms_expand():
    assert cited_rule_ids("HV-BOX-1/5/8, HV-ELEM-2..4, HV-END-1 ..\n    HV-END-2") == {
        "HV-END-1",
        "HV-END-2",
        "HV-BOX-1",
        "HV-BOX-5",
        "HV-BOX-8",
        "HV-ELEM-2",
        "HV-ELEM-3",
        "HV-ELEM-4",
    }


@pytest.mark.parametrize("prefix", sorted(SPECS))
def test_every_rule_id_is_cited_by_a_test(prefix):
    defined = defined_rule_ids(prefix)
    assert len(defined) > 100, "the spec's rule ids were not found"
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        if path.name != "test_rule_coverage.py":
            cited |= {r for r in cited_rule_ids(path.read_text()) if r.startswith(prefix)}
    missing = sorted(defined - cited, key=lambda r: (r.rsplit("-", 1)[0], int(r.rsplit("-", 1)[1])))
    assert not missing, f"{len(missing)} rule ids no test cites: {', '.join(missing)}"


def seed_coverage_table() -> list[tuple[set[str], list[str]]]:
    """Section 18 of the haven spec: (rule ids, HV-TEST numbers) per row."""
    text = (ROOT / SPECS["HV"]).read_text()
    section = text.split("## 18. Coverage of `[SEED]` rules", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("HV-"):
            rows.append((cited_rule_ids(cells[0]), re.findall(r"\d\d", cells[2])))
    return rows


def _tests_by_case() -> dict[str, set[str]]:
    """HV-TEST number -> rule ids cited by the test functions of that case.

    The cases are split by subject over tests/haven/test_tc*.py; each file is read on its own, so
    one file's header (its docstring and imports) never counts toward the previous file's last case.
    """
    cases: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests/haven").glob("test_tc*.py")):
        for block in re.split(r"\n(?=def test_)", path.read_text())[1:]:
            for number in re.findall(r"HV-TEST-(\d\d)", block.split("\n", 3)[1] + block[:200]):
                cases.setdefault(number, set()).update(cited_rule_ids(block))
    return cases


def test_every_seed_rule_is_covered_by_the_cases_section_18_lists():
    """Section 18: each [SEED] rule is cited by every HV-TEST case the table names for it."""
    rows = seed_coverage_table()
    assert len(rows) >= 30, "section 18's table was not found"
    cases = _tests_by_case()
    missing = [
        f"{rule} in HV-TEST-{number}"
        for rules, numbers in rows
        for rule in sorted(rules)
        for number in numbers
        if rule not in cases.get(number, set())
    ]
    assert not missing, f"seed rules not covered where section 18 says: {', '.join(missing)}"
