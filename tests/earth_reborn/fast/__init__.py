"""Tests of the compiled Earth Reborn core: the backends, the vector API, and the
core held to the reference engine."""
