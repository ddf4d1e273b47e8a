"""The body colour check (SymbolReader.off_colour) against ordinary light: a room light a little warmer or
cooler than when the dice were taught, or one whose colour drifts across the tray, leaves real dice read;
a hand over the dice stays unsure however it is cut into die-sized blobs."""
import dataclasses

import numpy as np
import pytest

from companion.vision.symbols import SymbolReader
from companion.vision.symbols.evaluate import SKIN_TONES, Tally, score, teach_examples
from companion.vision.symbols.icons import STYLES
from companion.vision.symbols.render import ZONES, SceneOptions, render_table

STYLE, FRUIT, MATCHO, TRAY, SEED = STYLES["ink"], "mint", "cream", "walnut", 2


def _options() -> SceneOptions:
    opts = SceneOptions()
    side = np.random.default_rng([SEED, 2]).uniform(*opts.die_px)
    return dataclasses.replace(opts, die_px=(side * .97, side * 1.03))


def _unsure_in(kind: str, colour: str, relight) -> Tally:
    """Teach in the generator's light, read two tables relit by `relight(image, zone)`."""
    opts = _options()
    reader = SymbolReader(kind, teach_examples(STYLE, kind, colour, 3, SEED, TRAY, opts))
    tally = Tally()
    for n in range(2):
        scene = render_table(SEED * 100_000 + 7 + n, STYLE, FRUIT, MATCHO, TRAY, opts)
        image = np.clip(relight(scene.image.astype(np.float32), ZONES[kind]), 0, 255).astype(np.uint8)
        tally.add(score(reader.read(image, ZONES[kind]), [d for d in scene.dice if d.kind == kind]))
    return tally


@pytest.mark.parametrize("kind, colour", [("fruit", FRUIT), ("matcho", MATCHO)])
@pytest.mark.parametrize("blue, red", [(1.10, 0.90), (1.12, 0.88), (0.88, 1.12)], ids=["cooler10", "cooler12", "warmer12"])
def test_a_light_warmer_or_cooler_than_when_taught_keeps_dice_sure(kind, colour, blue, red):
    """Daylight against the evening lamp the dice were taught under (auto white balance is rarely better):
    10 % cooler made 8 of 18 fruit dice unsure through the body colour check alone."""
    tally = _unsure_in(kind, colour, lambda image, zone: image * np.array([blue, 1.0, red]))
    assert tally.unsure == 0 and tally.right == tally.total, (tally.total, tally.right, tally.unsure, tally.wrong)


@pytest.mark.parametrize("kind, colour", [("fruit", FRUIT), ("matcho", MATCHO)])
def test_a_light_whose_colour_drifts_across_the_zone_keeps_dice_sure(kind, colour):
    """A window on one side, a lamp on the other: the light's colour drifts +-4 % per channel across a zone."""
    def drift(image, zone):
        x0, _, x1, _ = zone
        w = image.shape[1]
        ramp = np.clip((np.arange(w) - x0) / max(1, x1 - x0), 0, 1) * 2 - 1
        gain = np.stack([1 + .04 * ramp, np.ones(w), 1 - .04 * ramp], axis=1)[None, :, :]
        return image * gain * np.array([1.10, 1.0, 0.90])
    tally = _unsure_in(kind, colour, drift)
    assert tally.unsure == 0 and tally.right == tally.total, (tally.total, tally.right, tally.unsure, tally.wrong)


# The palest tone lies 0.127 from these cream bodies, inside even the narrow limit (models/symbols-card.md).
@pytest.mark.parametrize("skin", [tone for tone in SKIN_TONES if tone != (150, 175, 225)])
def test_a_hand_cut_into_die_sized_blobs_over_the_matcho_dice_is_unsure(skin):
    """A hand over all three Matcho dice, seen as three die-sized skin blobs read as sure blanks by their face
    and alike in colour as dice under one light are: that alone must not widen the taught colour's limit."""
    import cv2

    opts = _options()
    reader = SymbolReader("matcho", teach_examples(STYLE, "matcho", MATCHO, 3, SEED, TRAY, opts))
    scene = render_table(SEED * 100_000 + 7, STYLE, FRUIT, MATCHO, TRAY, opts)
    image = scene.image.copy()
    for die in (d for d in scene.dice if d.kind == "matcho"):
        axis = int(die.side * 0.9)
        cv2.ellipse(image, tuple(map(int, die.center)), (axis, int(axis * 0.8)), 20.0, 0, 360, skin, -1)
    readings = reader.read(image, ZONES["matcho"])
    assert readings and all(r.unsure for r in readings), [(r.value, r.unsure) for r in readings]
