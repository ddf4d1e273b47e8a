"""A camera mounted on its side or upside down: `camera.rotate` and `companion read --rotate` turn its frames
upright before they are read, and positions come back in the camera's own pixels."""
import json
from pathlib import Path

import pytest

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.config import BadSettings, load_settings  # noqa: E402
from companion.events import DiceSettled, DieReading  # noqa: E402
from companion.vision.live import DicePipeline  # noqa: E402
from companion.vision.recording import FrameRecorder  # noqa: E402
from companion.vision.rotation import (ROTATIONS, parse_rotation, reading_back, turn_box, turn_point,  # noqa: E402
                                       upright)
from companion.vision.sources import Frame, open_source  # noqa: E402

MATTEO = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real" / "matteop65-d6" / "images"
# Oblique webcam photos (dev split) whose side faces a quarter-turned camera reads as extra dice: 5 dice read 9
# times and 2 read 4 times, turned; as taken, every die right and nothing extra.
OBLIQUE = ("train_dice_42.jpg", "train_dice_11.jpg")
CAMERA_TURNS = {90: cv2.ROTATE_90_COUNTERCLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_CLOCKWISE}


@pytest.mark.parametrize("degrees", ROTATIONS)
def test_points_and_boxes_land_where_the_turned_image_puts_their_pixels(degrees):
    image = np.zeros((30, 50), np.uint8)
    image[7, 11] = 255
    turned = upright(image, degrees)
    x, y = turn_point(11, 7, degrees, 50, 30)
    assert turned[int(y), int(x)] == 255
    box = turn_box((11, 7, 20, 9), degrees, 50, 30)
    assert box[0] <= x <= box[2] and box[1] <= y <= box[3]
    assert sorted((box[2] - box[0], box[3] - box[1])) == [2, 9]
    die = DieReading(4, (x, y), box, 0.9)
    assert reading_back(die, degrees, turned.shape).center == (11, 7)


@pytest.mark.parametrize("value", ["45", "-90", "upside down", "360"])
def test_other_rotations_are_refused_naming_the_choices(value):
    with pytest.raises(ValueError, match="0, 90, 180 or 270 degrees clockwise"):
        parse_rotation(value)


def test_the_setting_takes_quarter_turns_only(tmp_path):
    assert load_settings(env={"COMPANION_CAMERA_ROTATE": "270"})["camera"]["rotate"] == 270
    assert load_settings(env={})["camera"]["rotate"] == 0
    path = tmp_path / "companion.toml"
    path.write_text("[camera]\nrotate = 45\n")
    with pytest.raises(BadSettings, match=r"camera\.rotate must be one of 0, 90, 180, 270, got 45"):
        load_settings(path, env={})


def _photo(name):
    if not MATTEO.is_dir():
        pytest.skip(f"no photos at {MATTEO}")
    return cv2.imread(str(MATTEO / name))


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_a_turned_oblique_photo_reads_as_taken_with_rotate(run_cli, tmp_path, degrees):
    for name in OBLIQUE:
        photo = _photo(name)
        as_seen = cv2.rotate(photo, CAMERA_TURNS[degrees])  # what a camera hung that way sends
        paths = [str(tmp_path / f"taken-{name}"), str(tmp_path / f"turned-{name}")]
        cv2.imwrite(paths[0], photo)
        cv2.imwrite(paths[1], as_seen)
        code, out, _ = run_cli("read", paths[1], "--json", "--rotate", str(degrees))
        assert code == 0
        turned = json.loads(out)["dice"]
        code, out, _ = run_cli("read", paths[0], "--json")
        taken = json.loads(out)["dice"]
        assert sorted(d["value"] for d in turned) == sorted(d["value"] for d in taken)
        back = (360 - degrees) % 360
        height, width = photo.shape[:2]
        expected = sorted(turn_point(*d["center"], back, width, height) for d in taken)
        for (x, y), die in zip(expected, sorted(turned, key=lambda d: tuple(d["center"]))):
            assert abs(die["center"][0] - x) <= 0.2 and abs(die["center"][1] - y) <= 0.2


def test_without_rotate_a_quarter_turned_camera_reads_side_faces_as_dice(run_cli, tmp_path):
    """Why the setting exists: the same photos read turned, with no rotation, gain extra dice."""
    extra = 0
    for name in OBLIQUE:
        photo = _photo(name)
        path = tmp_path / name
        cv2.imwrite(str(path), cv2.rotate(photo, CAMERA_TURNS[90]))
        turned = json.loads(run_cli("read", str(path), "--json")[1])["dice"]
        cv2.imwrite(str(path), photo)
        taken = json.loads(run_cli("read", str(path), "--json")[1])["dice"]
        extra += len(turned) - len(taken)
    assert extra >= 3


def test_the_tray_is_given_in_the_image_as_taken(run_cli, tmp_path):
    photo = _photo(OBLIQUE[0])
    path = tmp_path / "turned.jpg"
    cv2.imwrite(str(path), cv2.rotate(photo, CAMERA_TURNS[90]))
    everything = json.loads(run_cli("read", str(path), "--json", "--rotate", "90")[1])["dice"]
    top_half = f"0,0,{photo.shape[0]},{photo.shape[1] // 2}"  # of the turned image, as the camera sent it
    code, out, _ = run_cli("read", str(path), "--json", "--rotate", "90", "--tray", top_half)
    assert code == 0
    inside = json.loads(out)["dice"]
    assert 0 < len(inside) < len(everything)
    assert all(d["center"][1] < photo.shape[1] // 2 for d in inside)


def test_a_bad_rotate_is_a_one_line_error(run_cli, tmp_path):
    code, _, err = run_cli("read", str(tmp_path / "x.jpg"), "--rotate", "45")
    assert code == 2 and "--rotate: bad rotation '45'" in err


def test_the_live_pipeline_reads_upright_frames_and_shows_them_upright(tmp_path):
    photo = _photo(OBLIQUE[0])
    folder = tmp_path / "camera"
    folder.mkdir()
    for i in range(8):  # the dice lie still for 800 ms
        cv2.imwrite(str(folder / f"{i:02}.png"), cv2.rotate(photo, CAMERA_TURNS[90]))
    events = []
    from companion.vision.readers import get_reader

    pipeline = DicePipeline.from_spec(str(folder), get_reader("pips"), rotate=90, on_event=events.append)
    pipeline.run()
    (settled,) = [e for e in events if isinstance(e, DiceSettled)]
    assert sorted(d.value for d in settled.dice) == sorted(d.value for d in get_reader("pips").read(photo))
    shown = cv2.imdecode(np.frombuffer(pipeline.latest_jpeg(), np.uint8), cv2.IMREAD_COLOR)
    assert shown.shape == photo.shape


def test_a_recording_is_stored_upright_and_not_turned_again(tmp_path):
    frame = np.zeros((48, 64, 3), np.uint8)
    with FrameRecorder(tmp_path / "s") as recorder:
        recorder.write(Frame(1_000_000, frame))
    (played,) = list(open_source(str(tmp_path / "s"), rotate=90))
    assert played.image.shape == frame.shape


def test_the_service_camera_turns_a_turned_camera_upright_and_records_it_so(tmp_path):
    from companion.table.camera import open_camera

    photo = _photo(OBLIQUE[0])
    folder = tmp_path / "camera"
    folder.mkdir()
    for i in range(8):
        cv2.imwrite(str(folder / f"{i:02}.png"), cv2.rotate(photo, CAMERA_TURNS[180]))
    settings = load_settings(env={}, overrides={"camera": {"source": str(folder), "rotate": 180}})
    events = []
    feed = open_camera(settings, events.append, record_dir=tmp_path / "recorded")
    feed._thread.join(60)
    feed.stop()
    (settled,) = [e for e in events if isinstance(e, DiceSettled)]
    assert len(settled.dice) == 5
    recorded = list(open_source(str(tmp_path / "recorded")))
    assert len(recorded) == 8 and np.array_equal(recorded[0].image, photo)
