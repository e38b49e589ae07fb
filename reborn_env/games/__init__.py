"""The games, one package each: rules, scenario data, positions, observation, render, env, bots."""
