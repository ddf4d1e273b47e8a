"""How many seeded random games each playout test plays per player count (and variant).

CI plays the full thousand; `COMPANION_PLAYOUTS=50 ./dev test` makes a quick local run."""
import os

PLAYOUTS = int(os.environ.get("COMPANION_PLAYOUTS", "1000"))
