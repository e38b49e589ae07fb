"""Every rule id of the Earth Reborn spec is cited by at least one test (issue: done criteria).

The spec is vendored at docs/rules/earth_reborn.md. A test cites a rule in its name, docstring or
comments, singly (``ER-ACT-9``), as a range (``ER-ACT-4..8``) or as a list (``ER-DOOR-3, -4``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_DEFINED = re.compile(r"\*\*(ER-[A-Z]+-\d+)\*\*")
_CITED = re.compile(r"ER-([A-Z]+)-(\d+)(?:\.\.(\d+))?((?:,\s*-\d+(?:\.\.\d+)?)*)")


def defined_rule_ids() -> set[str]:
    return set(_DEFINED.findall((ROOT / "docs/rules/earth_reborn.md").read_text()))


def cited_rule_ids(text: str) -> set[str]:
    """Expand every citation form in ``text`` into single ids."""
    cited = set()
    for family, first, last, more in _CITED.findall(text):
        spans = [(int(first), int(last or first))]
        for a, b in re.findall(r"-(\d+)(?:\.\.(\d+))?", more):
            spans.append((int(a), int(b or a)))
        for low, high in spans:
            cited.update(f"ER-{family}-{n}" for n in range(low, high + 1))
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


def test_every_rule_id_is_cited_by_a_test():
    defined = defined_rule_ids()
    assert len(defined) > 100, "the spec's rule ids were not found"
    cited: set[str] = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        if path.name != "test_rule_coverage.py":
            cited |= cited_rule_ids(path.read_text())
    missing = sorted(defined - cited, key=lambda r: (r.rsplit("-", 1)[0], int(r.rsplit("-", 1)[1])))
    assert not missing, f"{len(missing)} rule ids no test cites: {', '.join(missing)}"
