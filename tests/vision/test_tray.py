import numpy as np
import pytest

from companion.vision.tray import crop_to_tray, parse_tray


def test_parse_tray():
    assert parse_tray("auto") is None and parse_tray("") is None and parse_tray(None) is None
    assert parse_tray("1,2,30,40") == (1, 2, 30, 40)
    with pytest.raises(ValueError, match="expected auto or x0,y0,x1,y1"):
        parse_tray("1,2,3")
    with pytest.raises(ValueError, match="x0 must be below x1"):
        parse_tray("30,2,1,40")


def test_crop_to_tray_clips_to_the_frame_and_keeps_the_offset():
    frame = np.arange(10 * 20 * 3, dtype=np.uint8).reshape(10, 20, 3)
    image, ox, oy = crop_to_tray(frame, (-5, 2, 8, 50))
    assert (ox, oy) == (0, 2) and image.shape == (8, 8, 3)
    assert (image[0, 0] == frame[2, 0]).all()
    assert crop_to_tray(frame, None)[0] is frame
    assert crop_to_tray(frame, (25, 0, 40, 5)) is None
