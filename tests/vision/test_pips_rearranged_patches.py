"""Rearranged real dice for the classifier's training (models/pips_rearranged_patches.py): a die's own pips,
laid out again as another value, must look like that value, and a face whose pips do not match its label
must not be used."""
import functools
import sys
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parents[2] / "models"
sys.path.insert(0, str(MODELS))

import pips_rearranged_patches as rearranged  # noqa: E402
from companion.vision.pips import classifier  # noqa: E402
from companion.vision.scene import CameraModel, render_scene  # noqa: E402

STYLES = ("white", "red", "blue", "green")


@functools.cache
def rendered_faces():
    """(canonical patch, value) of top-down rendered dice showing 3–6, whose pips give the grid; rendered
    once, read by every test (none changes them)."""
    faces = []
    for seed, style in enumerate(STYLES):
        image, truth = render_scene(700 + seed, dice=4, style=style, camera=CameraModel(640, 480, distance_mm=260),
                                    values=[3, 4, 5, 6])
        for die in truth.dice:
            size = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
            faces.append((classifier.canonical_patches(image, [die.center], [size])[0], die.value))
    return tuple(faces)


def read(patches):
    """The shipped close-look network's values for canonical patches (centred, at scale 1)."""
    network = classifier.load_classifier(classifier.CLOSE_LOOK_PATH)
    side = round(classifier.PATCH_PX * classifier.CONTEXT / classifier.PATCH_CONTEXT)
    lo = (classifier.PATCH_PX - side) // 2
    crops = np.stack([cv2.resize(p[lo:lo + side, lo:lo + side], (network.input_px,) * 2, interpolation=cv2.INTER_AREA)
                      for p in patches])
    return network.probabilities(crops)[:, 1:].argmax(axis=1) + 1


def test_a_die_rearranged_reads_as_each_new_value():
    faces = [(patch, value, rearranged.find_pips(patch, value)) for patch, value in rendered_faces()]
    found = [(patch, value, pips) for patch, value, pips in faces if pips is not None]
    assert len(found) >= 0.5 * len(faces)  # a die the colour of its tray is not told from it
    rng = np.random.default_rng(0)
    for patch, value, pips in found:
        assert len(pips.centres) == value
        assert read([patch])[0] == value
    made = [(rearranged.rearrange(patch, pips, new, rng), new) for patch, _, pips in found for new in range(1, 7)]
    values = np.array([new for _, new in made])
    right = read([patch for patch, _ in made]) == values
    assert right.mean() >= 0.9, f"read right: {right.mean():.0%}"
    for new in range(1, 7):
        assert right[values == new].mean() >= 0.75, f"rearranged into {new}: read right {right[values == new].mean():.0%}"


def test_another_dies_pips_replace_the_faces_own():
    found = [(patch, pips) for patch, value in rendered_faces()
             if (pips := rearranged.find_pips(patch, value)) is not None]
    (small, small_pips), (large, large_pips) = sorted(found, key=lambda face: face[1].spacing)[::len(found) - 1]
    assert large_pips.spacing > 1.1 * small_pips.spacing
    pip_colour = np.median(small[small_pips.masks[0]], axis=0)
    own_colour = np.median(large[large_pips.masks[0]], axis=0)
    assert np.abs(pip_colour - own_colour).sum() > 150  # the two dice's pips differ

    one = rearranged.rearrange(large, large_pips, 1, np.random.default_rng(1), donor=(small, small_pips))
    assert one.shape == large.shape and one.dtype == np.uint8
    x, y = np.round(large_pips.centre).astype(int)
    assert np.abs(one[y, x].astype(float) - pip_colour).sum() < 90  # the donor's pip in the middle
    for x, y in np.round(large_pips.centres).astype(int):  # its own pips are gone
        assert np.abs(one[y, x].astype(float) - own_colour).sum() > 150


def test_a_face_whose_pips_do_not_match_its_label_is_not_used():
    faces = rendered_faces()
    for patch, value in faces:
        for wrong in {value - 1, value + 1} & set(range(2, 7)):
            assert rearranged.find_pips(patch, wrong) is None, f"a {value} taken for a {wrong}"
    assert rearranged.find_pips(faces[0][0], 1) is None  # a 1 gives no grid direction
    table = np.full((classifier.PATCH_PX, classifier.PATCH_PX, 3), 120, np.uint8)
    assert rearranged.find_pips(table, 4) is None


def test_photos_kept_for_validation_are_never_read(monkeypatch):
    faces = rendered_faces()[:4]
    names = [f"photo{i}.jpg" for i in range(40)]
    validation = [n for n in names if rearranged.kept_out_of_training(n)]
    training = [n for n in names if not rearranged.kept_out_of_training(n)]
    assert validation and training
    photos = [training[0], validation[0]]
    crops = {
        "patches": np.stack([patch for patch, _ in faces] * 2),
        "value": np.array([value for _, value in faces] * 2, np.int8),
        "photo": np.array([0] * len(faces) + [1] * len(faces), np.int32),
        "oblique": np.zeros(2 * len(faces), bool),
        "photos": np.array(photos),
        "sets": np.array(["rendered", "rendered"]),
    }
    monkeypatch.setattr(rearranged, "load_dev_crops", lambda path: crops)
    arrays = rearranged.build(Path("unused.npz"), cross=2, seed=3)
    used = int(arrays["faces"])
    assert 0 < used <= len(faces)
    assert len(arrays["value"]) == used * (6 + 2)
    assert sorted(set(arrays["value"].tolist())) == [1, 2, 3, 4, 5, 6]
    assert arrays["patches"].shape[1:] == (classifier.PATCH_PX, classifier.PATCH_PX, 3)
