"""What people and programs use the games through: the bot protocol server, terminal play,
game logs, animations and the demo."""
