"""The live table: one event queue, one thread that owns the game, the journal, recording and replay."""
