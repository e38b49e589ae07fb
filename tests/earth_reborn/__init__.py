"""Tests of Earth Reborn: rules by id, section-20 cases, sight, positions, env, render, bots."""
