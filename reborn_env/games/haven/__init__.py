"""The haven ruleset: Gloomhaven-style turn execution (spec: haven.md)."""
