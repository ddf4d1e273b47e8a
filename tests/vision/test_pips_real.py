"""The pip reader on the real labelled photos (shared/data/dice-real), dev and held-out splits apart.

The floors are the accuracy measured when they were set, less a small margin, so a regression fails
here; they are not the product's targets (see the final report and `python -m companion.vision.evaluate`).
"""
from pathlib import Path

import pytest


from companion.vision.evaluate import kept_out_of_training, load_set, main, match, report, score_set, split_of  # noqa: E402
from companion.vision.pips import PipReader  # noqa: E402

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real"

# set: (dev floor, held-out floor) for the share of dice read right
FLOORS = {
    "nell-byler-d6": (0.50, 0.48),
    "matteop65-d6": (0.75, 0.75),
}
MAX_EXTRA_PER_PHOTO = {"nell-byler-d6": 3.0, "matteop65-d6": 2.0}


@pytest.fixture(scope="module")
def reader():
    return PipReader()


@pytest.mark.parametrize("name", sorted(FLOORS))
@pytest.mark.parametrize("split", ["dev", "holdout"])
def test_accuracy_floor_on_real_photos(name, split, reader):
    folder = DATA / name
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    score = score_set(load_set(folder, split), reader)
    floor = FLOORS[name][split == "holdout"]
    assert score.die_accuracy >= floor, f"{name} [{split}]: {score.die_accuracy:.1%} of dice right, floor {floor:.0%}"
    assert score.extra / len(score.images) <= MAX_EXTRA_PER_PHOTO[name]


def test_the_held_out_split_is_a_fixed_quarter():
    names = [f"images/IMG_{i}.jpg" for i in range(400)]
    held = [n for n in names if split_of(n) == "holdout"]
    assert 0.15 < len(held) / len(names) < 0.35
    assert held == [n for n in names if split_of(n) == "holdout"]


def test_the_dev_split_parts_into_kept_out_and_trained_photos():
    folder = DATA / "nell-byler-d6"
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    dev, kept_out, trained = ({i.name for i in load_set(folder, split)} for split in ("dev", "kept-out", "trained"))
    assert kept_out | trained == dev and not kept_out & trained
    assert 0.1 < len(kept_out) / len(dev) < 0.3
    assert all(kept_out_of_training(name) for name in kept_out)


def test_the_command_reads_with_the_networks_it_is_given(capsys):
    """The first quick network alone, as the close look too and without the red look, re-reads what it was
    unsure of with itself: the reader of that one network."""
    from companion.vision.pips.classifier import MODEL_PATH, load_classifier
    from companion.vision.pips.learned import LearnedPipReader

    folder = DATA / "nell-byler-d6"
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    assert main([str(folder), "--split", "kept-out"]) == 0
    shipped = capsys.readouterr().out
    assert main([str(folder), "--split", "kept-out", "--classifier", str(MODEL_PATH), "--close-look", str(MODEL_PATH),
                 "--no-red-look"]) == 0
    swapped = capsys.readouterr().out
    quick = score_set(load_set(folder, "kept-out"), LearnedPipReader(classify=load_classifier().classify))
    assert swapped.strip() == report(quick, "nell-byler-d6 [kept-out]")
    assert swapped != shipped


def test_the_command_names_what_is_wrong_with_the_networks(capsys, tmp_path):
    folder = DATA / "matteop65-d6"
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    missing = tmp_path / "close.onnx"
    assert main([str(folder), "--close-look", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err
    assert main([str(folder), "--dice", "fruit", "--close-look", str(missing)]) == 2
    assert "pip reader's networks" in capsys.readouterr().err
    assert main([str(folder), "--detector", str(tmp_path / "detector.onnx")]) == 2
    assert "detector.onnx" in capsys.readouterr().err


def test_scoring_matches_nearest_centre_and_counts_extras():
    from companion.events import DieReading
    from companion.vision.evaluate import LabelledDie

    labels = (LabelledDie(3, (0, 0, 40, 40)), LabelledDie(5, (100, 0, 140, 40)))
    reads = [DieReading(3, (21, 19), (0, 0, 40, 40), 0.9), DieReading(2, (118, 22), (0, 0, 1, 1), 0.9),
             DieReading(6, (300, 300), (0, 0, 1, 1), 0.9)]
    score = match(labels, reads)
    assert score.pairs == [(3, 3, False), (5, 2, False)]
    assert score.extra == 1 and not score.right


@pytest.mark.parametrize("broken, reason", [(None, "no such file"), (b"not a jpeg", "cannot decode as an image")])
def test_the_command_names_a_labelled_photo_it_cannot_read(capsys, tmp_path, broken, reason):
    (tmp_path / "images").mkdir()
    if broken is not None:
        (tmp_path / "images" / "a.jpg").write_bytes(broken)
    (tmp_path / "labels.jsonl").write_text('{"image": "images/a.jpg", "dice": [{"value": 3, "box": [0, 0, 9, 9]}]}\n')
    assert main([str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == f"evaluate: {tmp_path / 'images' / 'a.jpg'}: {reason}"
