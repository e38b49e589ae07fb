"""Per-rule tests of the haven rules engine, one file per section of the spec (haven.md).

One small fixture-based test (or parametrised group) per rule id, each docstring starting with the
id(s) it checks. The section-17 cases live in tests/haven/test_tc_*.py, the map rules in
tests/haven/test_hexgrid.py and the AEC interface in tests/haven/test_env_api.py; these files cover
the remaining rule ids and add independent checks of the others. Every expected number is worked
out from the spec text (map of 15.1, content of 15.2-15.6) in the comments next to it.

Fixture conventions (HV-API-10): a TURNS fixture starts at the first slot of its sequence; an
unlisted character stands at its start hex and takes no turn (it is still on the map, so tests
with acting monsters list both characters and put the uninvolved one out of reach).
"""
