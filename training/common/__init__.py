"""What every trainer and bench tool shares: the games they train on, the config schema each
trainer declares its keys with (and the rules they share), the command line's error rule, a
progress bar, compact observation rows."""
