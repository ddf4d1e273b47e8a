"""Pure rules engines and odds, one package per game: no I/O, no clock, no randomness of their own."""
