"""What every trainer and bench tool shares: the games they train on, the command line's error
rule, a progress bar, compact observation rows."""
