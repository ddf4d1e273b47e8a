"""The synthetic-scene sweep scores readers the way the photo evaluation does, on the same frames each run."""
import hashlib

import numpy as np
import pytest

from companion.events import DieReading
from companion.vision.evaluate_scenes import main, scenes, score_scenes

COUNT, SEED = 6, 3


def _key(frame: np.ndarray) -> bytes:
    return hashlib.blake2b(frame.tobytes(), digest_size=16).digest()


class _LabelReader:
    """Reports each scene's labelled dice, with every value moved on by `shift` (0: the truth)."""

    def __init__(self, shift: int = 0):
        self.dice = {_key(frame): dice for _, frame, dice in scenes(COUNT, SEED)}
        self.shift = shift

    def read(self, frame, tray=None):
        return [DieReading((d.value - 1 + self.shift) % 6 + 1, d.center, d.box, 0.99)
                for d in self.dice.get(_key(frame), ())]


def test_the_same_seed_draws_the_same_scenes():
    first, again = list(scenes(COUNT, SEED)), list(scenes(COUNT, SEED))
    assert all(np.array_equal(a[1], b[1]) and a[2] == b[2] for a, b in zip(first, again))
    assert not np.array_equal(first[0][1], next(scenes(1, SEED + 1))[1])


def test_the_scenes_sweep_tilt_style_and_touching_dice():
    groups = [names for names, _, _ in scenes(COUNT, SEED)]
    assert [names[1] for names in groups[:3]] == ["tilt 0-10°", "tilt 25-35°", "tilt 50-60°"]
    assert {names[3] for names in groups} == {"white", "black"}
    assert all(names[0] == "all" and names[2] in ("two dice flush", "no dice touching") for names in groups)


def test_a_reader_that_reports_the_truth_reads_every_die_right():
    groups = score_scenes(_LabelReader(), COUNT, SEED)
    assert list(groups)[:4] == ["all", "tilt 0-10°", "tilt 25-35°", "tilt 50-60°"]
    every = groups["all"]
    assert every.dice >= 2 * COUNT and every.dice_right == every.dice and every.extra == 0
    assert sum(len(groups[tilt].images) for tilt in list(groups)[1:4]) == COUNT


def test_wrong_values_and_missing_dice_are_scored_as_such():
    wrong = score_scenes(_LabelReader(shift=1), COUNT, SEED)["all"]
    assert wrong.dice_right == 0 and wrong.wrong == wrong.dice

    class Blind:
        def read(self, frame, tray=None):
            return []

    missed = score_scenes(Blind(), COUNT, SEED)["all"]
    assert missed.missed == missed.dice and missed.extra == 0


def test_the_command_prints_the_score_per_group(capsys):
    assert main(["--scenes", "3", "--seed", str(SEED)]) == 0
    out = capsys.readouterr().out
    assert "synthetic scenes (seed 3): 3 photos" in out
    assert "tilt 50-60°" in out and "extra/100" in out


def test_the_command_refuses_no_scenes(capsys):
    assert main(["--scenes", "0"]) == 2
    assert "--scenes must be at least 1" in capsys.readouterr().err


def test_the_command_names_a_network_it_cannot_find(capsys, tmp_path):
    missing = tmp_path / "close.onnx"
    assert main(["--scenes", "3", "--close-look", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err


def test_the_traced_renderer_sweeps_its_own_styles(capsys):
    groups = [names for names, _, _ in scenes(3, SEED, "traced")]
    assert [names[1] for names in groups] == ["tilt 0-10°", "tilt 25-35°", "tilt 50-60°"]
    assert {names[3] for names in groups} == {"ivory"}
    assert main(["--scenes", "1", "--seed", str(SEED), "--renderer", "traced"]) == 0
    assert "traced scenes (seed 3): 1 photos" in capsys.readouterr().out


def test_an_unknown_renderer_is_named():
    with pytest.raises(ValueError, match="unknown renderer 'painted'.*traced"):
        next(scenes(1, SEED, "painted"))
