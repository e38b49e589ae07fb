"""haven's rules (pure Python, no RL library): rounds, turns, attacks, monster AI, as generators.

Every rule is given a :class:`~.context.RuleContext` (scenario, options, state, event log) and
imports only the rule modules it uses; :mod:`.engine`, the driver, runs them and no rule imports
it, so each module can be read on its own.
"""
