"""Other photos of the same kinds (`companion.vision.photo_variants`, `evaluate --vary`): the labels move with
the dice, and the reader is scored on the varied photos."""
from pathlib import Path

import pytest

import numpy as np

from companion.vision.evaluate import LabelledDie, SetScore, main, match  # noqa: E402
from companion.vision.photo_variants import VARIANTS, vary  # noqa: E402
from companion.vision.readers import get_reader  # noqa: E402

from pips_drawing import draw_die, table  # noqa: E402

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real"
FACES = {(40, 40, 220): (150, 120), (40, 200, 40): (470, 140), (220, 60, 40): (300, 360)}  # BGR face: centre


def drawn_photo():
    """Three 4s of three face colours at known places (no pip at a 4's centre), with their labels."""
    frame = table()
    labels = []
    for face, centre in FACES.items():
        draw_die(frame, 4, centre, 56, 15, face=face)
        labels.append(LabelledDie(4, (centre[0] - 28, centre[1] - 28, centre[0] + 28, centre[1] + 28)))
    return frame, tuple(labels)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_label_stays_on_its_die(name):
    frame, labels = drawn_photo()
    varied, moved = vary(frame, labels, name)
    assert varied.ndim == 3 and varied.shape[2] == 3
    for face, label in zip(FACES, moved):
        x, y = (int(round(v)) for v in label.center)
        assert 0 <= x < varied.shape[1] and 0 <= y < varied.shape[0]
        pixel = varied[y, x].astype(int)
        assert int(np.argmax(pixel)) == int(np.argmax(face)), f"{name}: the label of the die {face} lies on {pixel}"


def test_turns_and_scales_move_the_labels_with_the_frame():
    frame, labels = drawn_photo()
    height, width = frame.shape[:2]
    turned, moved = vary(frame, labels, "turn90")
    assert turned.shape[:2] == (width, height)
    assert moved[0].box == (height - labels[0].box[3], labels[0].box[0], height - labels[0].box[1], labels[0].box[2])
    back, returned = vary(*vary(turned, moved, "turn270"), "turn180")
    assert np.array_equal(vary(frame, labels, "turn180")[0], back) and returned == vary(frame, labels, "turn180")[1]
    smaller, shrunk = vary(frame, labels, "smaller")
    assert smaller.shape[:2] == (round(height * 0.7), round(width * 0.7))
    assert shrunk[0].size == pytest.approx(labels[0].size * 0.7, rel=0.01)


@pytest.fixture(scope="module")
def generated_photos():
    """Six of the scene generator's photos, 30 dice in all, seen nearly straight down."""
    from companion.vision import scene
    from companion.vision.evaluate_scenes import labelled

    photos = []
    for seed in range(6):
        camera = scene.CameraModel(640, 480, tilt_deg=10.0)
        frame, truth = scene.render_scene(300 + seed, dice=5, camera=camera, style=list(scene.STYLES)[seed % 3])
        photos.append((frame, labelled(truth.dice)))
    return photos


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_reader_is_scored_on_every_variant(name, generated_photos):
    """Measured: all 30 dice right in every variant but darker (29); wrongly moved labels would score none."""
    reader = get_reader("pips")
    score = SetScore([])
    for frame, labels in generated_photos:
        varied, moved = vary(frame, labels, name)
        score.images.append(match(moved, reader.read(varied)))
    assert score.dice == 30
    assert score.dice_right >= 28, f"{name}: {score.dice_right} of 30 dice right"
    assert score.extra == 0


def test_an_unknown_variant_is_named():
    frame, labels = drawn_photo()
    with pytest.raises(ValueError, match="sideways.*turn90"):
        vary(frame, labels, "sideways")


def test_the_command_scores_the_varied_photos(capsys):
    folder = DATA / "nell-byler-d6"
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    assert main([str(folder), "--split", "kept-out", "--vary", "turn180"]) == 0
    turned = capsys.readouterr().out
    assert turned.startswith("nell-byler-d6 [kept-out, turn180]: 18 photos, 172 dice\n  per die: ")
    with pytest.raises(SystemExit):
        main([str(folder), "--vary", "sideways"])
    assert "invalid choice: 'sideways'" in capsys.readouterr().err


def test_the_command_scores_every_variant_in_one_table(capsys):
    folder = DATA / "matteop65-d6"
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    assert main([str(folder), "--split", "holdout", "--vary", "jpeg"]) == 0
    jpeg = capsys.readouterr().out.splitlines()[1].split()[2]  # "  per die:   98.3% right ..."
    assert main([str(folder), "--split", "holdout", "--vary", "all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "matteop65-d6 [holdout]"
    rows = {line[:18].strip(): line[18:].split() for line in lines[2:]}
    assert list(rows) == ["as taken", *VARIANTS]
    assert all(row[:2] == ["40", "118"] for row in rows.values())
    assert rows["jpeg"][2] == jpeg
