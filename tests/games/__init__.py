"""Games defined only in the tests, one package each; tests/conftest.py imports every one, whose
``__init__`` registers it, so the conformance suite runs it like the shipped games."""
