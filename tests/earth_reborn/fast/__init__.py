"""Tests of the compiled Earth Reborn core (issue 11): the backends, the vector API, and the
core held to the reference engine."""
