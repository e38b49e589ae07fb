"""Tests of the front-ends: the bot server, the terminal player, animations, every CLI's errors."""
