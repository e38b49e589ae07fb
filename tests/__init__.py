"""The test suite: by game, by layer, and one conformance suite over every registered game."""
