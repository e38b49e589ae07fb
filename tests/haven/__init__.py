"""Tests of haven: rules by id, section-17 cases, hex grid, positions, env, render, bots."""
