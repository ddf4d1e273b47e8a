"""The pip reader on drawn dice: every value, any angle, both pip polarities, the tray region."""
import pytest

import numpy as np

from companion.vision.pips import PipReader  # noqa: E402
from companion.vision.pips.learned import LearnedPipReader  # noqa: E402
from companion.vision.readers import UnknownReader, get_reader  # noqa: E402

from pips_drawing import draw_die, table  # noqa: E402


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("angle", [0, 20, 45])
def test_reads_each_value_at_any_angle(value, angle):
    frame = table()
    draw_die(frame, value, (320, 240), 48, angle)
    dice = PipReader().read(frame)
    assert [d.value for d in dice] == [value]
    assert abs(dice[0].center[0] - 320) < 6 and abs(dice[0].center[1] - 240) < 6


def test_reads_light_pips_on_dark_dice_and_many_dice_at_once():
    frame = table(colour=(170, 170, 170))
    layout = {1: (100, 100), 2: (220, 110), 3: (340, 100), 4: (110, 300), 5: (240, 310), 6: (380, 300)}
    for value, centre in layout.items():
        draw_die(frame, value, centre, 44, 10 * value, face=(40, 30, 30), pip=(240, 240, 240))
    dice = PipReader().read(frame)
    found = {}
    for d in dice:
        nearest = min(layout, key=lambda v: (layout[v][0] - d.center[0]) ** 2 + (layout[v][1] - d.center[1]) ** 2)
        found[nearest] = d.value
    assert found == {v: v for v in layout}
    assert len(dice) == 6


def test_only_dice_inside_the_tray_count_and_keep_frame_coordinates():
    frame = table()
    draw_die(frame, 5, (120, 120), 48)
    draw_die(frame, 3, (480, 330), 48)
    dice = PipReader().read(frame, tray=(400, 250, 600, 450))
    assert [d.value for d in dice] == [3]
    assert abs(dice[0].center[0] - 480) < 6 and abs(dice[0].center[1] - 330) < 6


def test_an_empty_table_has_no_dice():
    assert PipReader().read(table()) == []


def test_readers_by_kind():
    assert isinstance(get_reader("pips"), LearnedPipReader)  # the classical reader stays for its tests
    with pytest.raises(UnknownReader, match="unknown dice kind 'd20'"):
        get_reader("d20")


def test_refuses_a_non_colour_image():
    with pytest.raises(ValueError, match="BGR"):
        PipReader().read(np.zeros((10, 10), np.uint8))
