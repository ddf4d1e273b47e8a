"""Taught fruit and Matcho dice, the real zones as the service builds them, and trays drawn per moment:
for tests that run Banana Matcho's camera side end to end."""
from __future__ import annotations

import functools

from companion.config import load_settings
from companion.table.camera import dice_zones
from companion.vision.symbols.evaluate import teach_examples
from companion.vision.symbols.icons import DEV_STYLES
from companion.vision.symbols.render import ZONES, SceneOptions, render_dice
from companion.vision.symbols.store import TeachStore

S = 1_000_000_000
MS = 1_000_000
STYLE = DEV_STYLES[0]
ZONE_TEXT = ";".join(f"{k}:{k}:{','.join(map(str, v))}" for k, v in ZONES.items())
STILL = SceneOptions(noise=(2.0, 2.0), light=(0.9, 0.9), touching=0.0)


def teach(state_dir) -> None:
    store = TeachStore(state_dir)
    store.save("fruit", teach_examples(STYLE, "fruit", "ivory", 2, seed=3))
    store.save("matcho", teach_examples(STYLE, "matcho", "cream", 2, seed=5))


def tracker(state_dir, sink=None):
    """The zones `dice_zones` builds from settings naming the drawn trays' fruit and Matcho zones."""
    events: list = []
    settings = load_settings(env={}, overrides={"service": {"state_dir": str(state_dir)},
                                                "camera": {"zones": ZONE_TEXT}})
    zones = dice_zones(settings, sink or events.append)
    assert zones != (), events
    return zones


@functools.lru_cache(maxsize=64)
def _render(seed, fruit, matcho, options=STILL):
    return render_dice(seed, STYLE, [("fruit", list(fruit), "ivory", ZONES["fruit"]),
                                     ("matcho", list(matcho), "cream", ZONES["matcho"])], options=options).image


def table_image(seed, fruit, matcho, options=STILL):
    """The tray with these faces (the same seed: the same places)."""
    return _render(seed, tuple(fruit), tuple(matcho), options).copy()
