"""Earth Reborn per-rule tests, one file per rule family; each test cites its rule ids first."""
