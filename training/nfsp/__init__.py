"""Neural Fictitious Self-Play over the game vector: a DQN best response and a supervised average
policy."""
