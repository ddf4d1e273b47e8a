"""Reading the dice tray: frame sources, die finding, face reading, settling and zones."""
