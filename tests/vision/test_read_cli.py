"""`companion read IMAGE... [--json] [--tray] [--dice]` as a user runs it."""
import json

import pytest

import cv2  # noqa: E402

from pips_drawing import draw_die, table  # noqa: E402


@pytest.fixture
def two_dice(tmp_path):
    frame = table()
    draw_die(frame, 4, (150, 200), 50, 15)
    draw_die(frame, 2, (450, 260), 50, 30)
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), frame)
    return str(path)


def test_json_line_per_image_in_the_promised_shape(run_cli, two_dice):
    code, out, _ = run_cli("read", two_dice, "--json")
    assert code == 0
    (line,) = out.splitlines()
    record = json.loads(line)
    assert list(record) == ["image", "dice", "ms"]
    assert record["image"] == two_dice
    assert sorted(d["value"] for d in record["dice"]) == [2, 4]
    for die in record["dice"]:
        assert set(die) <= {"value", "center", "box", "confidence", "unsure"}
        assert len(die["center"]) == 2 and len(die["box"]) == 4 and 0 <= die["confidence"] <= 1
        assert die.get("unsure", True) is True


def test_a_missing_or_broken_image_is_an_error_line_and_the_rest_go_on(run_cli, two_dice, tmp_path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    empty = tmp_path / "empty.jpg"
    empty.touch()
    code, out, _ = run_cli("read", str(tmp_path / "missing.jpg"), str(broken), str(empty), two_dice, "--json")
    assert code == 0
    lines = [json.loads(l) for l in out.splitlines()]
    assert lines[0] == {"image": str(tmp_path / "missing.jpg"), "error": "no such file"}
    assert lines[1] == {"image": str(broken), "error": "cannot decode as an image"}
    assert lines[2] == {"image": str(empty), "error": "an empty file (a copy cut short?)"}
    assert len(lines[3]["dice"]) == 2


def test_a_folder_given_as_an_image_is_named_a_folder(run_cli, two_dice, tmp_path):
    code, out, _ = run_cli("read", str(tmp_path), two_dice, "--json")
    lines = [json.loads(l) for l in out.splitlines()]
    assert code == 0
    assert lines[0] == {"image": str(tmp_path), "error": "a folder, not an image file"}
    assert len(lines[1]["dice"]) == 2


def test_exit_code_1_when_no_image_could_be_read(run_cli, tmp_path):
    code, out, _ = run_cli("read", str(tmp_path / "missing.jpg"), "--json")
    assert code == 1 and "error" in json.loads(out)


def test_tray_limits_the_dice_read(run_cli, two_dice):
    code, out, _ = run_cli("read", two_dice, "--json", "--tray", "300,100,640,480")
    assert code == 0
    assert [d["value"] for d in json.loads(out)["dice"]] == [2]


def test_bad_tray_is_a_one_line_error(run_cli, two_dice):
    code, _, err = run_cli("read", two_dice, "--tray", "1,2,3")
    assert code == 2 and "--tray: bad tray '1,2,3': expected auto or x0,y0,x1,y1" in err


def test_text_output_names_the_values(run_cli, two_dice):
    code, out, _ = run_cli("read", two_dice)
    assert code == 0 and "2 dice" in out and two_dice in out


def test_nothing_to_read_is_an_error(run_cli):
    code, _, err = run_cli("read")
    assert code == 2 and "nothing to read" in err


def test_a_missing_network_is_a_one_line_error_that_says_how_to_restore_it(run_cli, two_dice, monkeypatch):
    from companion.vision.pips import classifier
    from companion.vision.pips.networks import ModelMissing

    def missing_panel(*args, **kwargs):
        raise ModelMissing("the network models/pips-classifier-2.onnx is missing (made by models/train_pips_classifier.py)")

    monkeypatch.setattr(classifier, "load_close_look", missing_panel)
    code, out, err = run_cli("read", two_dice, "--json")
    assert code == 2 and out == ""
    assert "pips-classifier-2.onnx is missing" in err and "install.sh" in err and "Traceback" not in err


@pytest.mark.parametrize("spec, says", [
    ("usb:63", "cannot open USB camera 63 (/dev/video63): check the USB cable"),
    ("usb:x", "bad camera spec 'usb:x'"),
    ("no-such-camera.mp4", "no camera or file 'no-such-camera.mp4'"),
])
def test_a_camera_that_cannot_be_opened_is_a_one_line_error_that_says_what_to_check(run_cli, spec, says):
    code, out, err = run_cli("read", "--camera", spec)
    assert code == 2 and out == ""
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("spec, says", [
    ("usb:63", "cannot open USB camera 63 (/dev/video63): check the USB cable"),
    ("broken.mp4", "not a video OpenCV can decode"),
])
def test_opencv_and_ffmpeg_print_nothing_above_the_one_line_that_says_what_to_check(tmp_path, spec, says):
    """Their lines come from C code, past Python's stderr, so the command runs in a process of its own."""
    import os
    import subprocess
    import sys

    (tmp_path / "broken.mp4").write_bytes(bytes(range(256)) * 20)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCV_")}
    done = subprocess.run([sys.executable, "-m", "companion", "read", "--camera", spec], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr, done.stderr


def test_an_empty_folder_or_a_file_without_frames_given_as_the_camera_is_named(run_cli, tmp_path):
    code, _, err = run_cli("read", "--camera", str(tmp_path))
    assert code == 2 and f"folder {tmp_path} has no images" in err
    broken = tmp_path / "broken.jpg"
    broken.write_text("not a picture")
    code, out, err = run_cli("read", "--camera", str(broken))
    assert code == 2 and out == "" and f"cannot read video file {broken}" in err


def test_a_tray_outside_an_image_is_that_images_error(run_cli, two_dice):
    code, out, _ = run_cli("read", two_dice, "--tray", "5000,5000,6000,6000", "--json")
    assert code == 1
    assert json.loads(out) == {"image": two_dice, "error": "the tray 5000,5000,6000,6000 lies outside this 640x480 image"}


def test_reading_a_recording_exits_0_after_printing_its_rolls_and_names_a_tray_outside_it(run_cli, tmp_path):
    from companion.vision.recording import FrameRecorder
    from companion.vision.scene import CameraModel, roll_sequence

    scenes = list(roll_sequence(57, rolls=2, dice=2, camera=CameraModel(320, 240), hand=False))
    with FrameRecorder(tmp_path / "session") as recorder:
        for scene in scenes:
            recorder.write(scene.frame)
    code, out, err = run_cli("read", "--camera", str(tmp_path / "session"), "--json")
    assert code == 0 and len(out.splitlines()) == 2 and err == ""
    code, out, err = run_cli("read", "--camera", str(tmp_path / "session"), "--tray", "5000,5000,6000,6000")
    assert code == 0 and len(out.splitlines()) == 2
    assert err == ("camera tray: the tray 5000,5000,6000,6000 lies outside the camera's 320x240 picture: "
                   "reading the whole picture. Set the tray again on the camera view.\n")


def test_a_settled_roll_cut_short_by_the_reader_of_the_output_ends_quietly(two_dice, tmp_path):
    """`companion read --camera ... --json | head -1` where head has gone: the closed pipe is not a camera
    frame that could not be read (it was caught as one, with a traceback per roll, and the reading went on)."""
    import os
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(8):
        shutil.copy(two_dice, folder / f"{i:02d}.png")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "read", "--camera", str(folder), "--json"],
                                stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err.decode()) == (141, "")


def test_a_name_that_is_not_utf8_is_read_like_any_other(run_cli, two_dice, tmp_path):
    """OpenCV's own file reading crashed the process (a segmentation fault) on such a name."""
    import os
    import shutil

    odd = os.path.join(os.fsencode(tmp_path), b"lat\xe9.png")
    shutil.copy(two_dice, odd)
    name = os.fsdecode(odd)
    code, out, _ = run_cli("read", name, two_dice, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 2
    assert sorted(d["value"] for d in lines[0]["dice"]) == [2, 4] == sorted(d["value"] for d in lines[1]["dice"])


def test_a_small_file_that_unpacks_to_a_huge_picture_is_refused_and_the_rest_go_on(run_cli, two_dice, tmp_path):
    import numpy as np

    bomb = tmp_path / "bomb.png"
    cv2.imwrite(str(bomb), np.zeros((12000, 12000), np.uint8))  # 144 megapixels, a few hundred kilobytes
    code, out, _ = run_cli("read", str(bomb), two_dice, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0] == {"image": str(bomb), "error": "too large to read: 12000x12000 pixels (at most 120 megapixels)"}
    assert code == 0 and len(lines[1]["dice"]) == 2


def test_each_line_reaches_the_output_before_the_next_image_is_read(two_dice, tmp_path):
    """A script reading the lines as they come gets an error line at once, not with the next image's."""
    import io

    from companion.vision.cli_read import read_images

    class Out(io.StringIO):
        unflushed = False

        def write(self, text):
            self.unflushed = True
            return super().write(text)

        def flush(self):
            self.unflushed = False

    out = Out()

    class Reader:
        calls = []

        def read(self, image, tray=None):
            self.calls.append(out.unflushed)
            return []

    read_images([str(tmp_path / "missing.png"), two_dice], Reader(), None, True, out)
    assert Reader.calls and not any(Reader.calls), "the error line was still in the buffer"


def test_the_time_of_the_first_image_leaves_out_loading_the_networks(two_dice, monkeypatch):
    """The reader's clock is the test's: loading takes 5 s of it, a read 1 ms, whatever the machine's load."""
    import io
    import types

    from companion.vision import cli_read

    clock = {"ns": 0}

    class SlowToLoad:
        loaded = False

        def read(self, image, tray=None):
            if not self.loaded:
                clock["ns"] += 5_000_000_000
                self.loaded = True
            clock["ns"] += 1_000_000
            return []

    monkeypatch.setattr(cli_read, "time", types.SimpleNamespace(perf_counter_ns=lambda: clock["ns"]))
    out = io.StringIO()
    cli_read.read_images([two_dice, two_dice], SlowToLoad(), None, True, out)
    assert [json.loads(line)["ms"] for line in out.getvalue().splitlines()] == [1.0, 1.0]


def test_a_video_whose_name_is_not_utf8_is_refused_by_name(run_cli, tmp_path):
    import os

    odd = os.path.join(os.fsencode(tmp_path), b"v\xe9.avi")
    with open(odd, "wb") as video:
        video.write(b"\0" * 64)
    code, _, err = run_cli("read", "--camera", os.fsdecode(odd))
    assert code == 2 and "its name is not UTF-8; rename it" in err
