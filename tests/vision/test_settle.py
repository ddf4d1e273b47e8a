"""Settled rolls on synthetic roll sequences, read by the generator's truth so only settling is tested."""
import dataclasses
import functools

import cv2
import numpy as np
import pytest

from companion.vision.scene import CameraModel, SceneFrame, TruthReader, roll_sequence
from companion.vision.settle import SettleDetector
from companion.vision.sources import Frame

SMALL = CameraModel(200, 150, tilt_deg=20)


@functools.lru_cache(maxsize=None)
def sequence(seed, **options):
    options.setdefault("camera", SMALL)
    return tuple(roll_sequence(seed, **options))


def replay(frames, **options):
    detector = SettleDetector(TruthReader(frames), tray=frames[0].truth.tray, **options)
    return [(event, scene.truth) for scene in frames if (event := detector.feed(scene.frame))]


CASES = [
    dict(seed=1, rolls=3, dice=2, style="white"),
    dict(seed=2, rolls=3, dice=5, style="black", touching=True),
    dict(seed=3, rolls=2, dice=1, style="translucent"),
    dict(seed=4, rolls=2, dice=3, style="marbled", camera=CameraModel(200, 150, tilt_deg=0)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['style']}-{c['dice']}dice")
def test_one_event_per_roll_with_the_right_values_and_none_while_moving(case):
    case = dict(case)
    frames = sequence(case.pop("seed"), **case)
    events = replay(frames)
    assert [truth.roll for _, truth in events] == list(range(case["rolls"]))
    for event, truth in events:
        assert truth.phase == "settled" and not truth.moving
        assert sorted(d.value for d in event.dice) == truth.values


def test_the_roll_is_read_after_settle_ms_of_stillness_by_frame_time():
    frames = sequence(5, rolls=2, dice=2)
    for settle_ms in (300, 600):
        events = replay(frames, settle_ms=settle_ms)
        assert [truth.roll for _, truth in events] == [0, 1], f"each roll is read once with settle_ms={settle_ms}"
        for event, truth in events:
            last_moving = max(s.frame.t for s in frames if s.truth.roll == truth.roll and s.truth.moving)
            waited_ms = (event.t - last_moving) / 1e6
            assert settle_ms <= waited_ms <= settle_ms + 2 * 1000 / 30 + 1


def test_dice_resting_shorter_than_settle_ms_are_not_read():
    frames = sequence(6, rolls=2, dice=2, rest_s=0.5)
    assert replay(frames, settle_ms=800) == []
    assert len(replay(frames, settle_ms=300)) == 2


def test_time_comes_from_the_frames_not_the_clock():
    frames = sequence(7, rolls=1, dice=2)
    slow = [dataclasses.replace(s, frame=Frame(s.frame.t * 10, s.frame.image)) for s in frames]
    fast_events, slow_events = replay(frames, settle_ms=1500), replay(slow, settle_ms=1500)
    assert fast_events == []
    assert len(slow_events) == 1


def test_the_same_dice_lying_still_do_not_fire_again():
    frames = sequence(8, rolls=1, dice=3, rest_s=4.0)
    assert len(replay(frames)) == 1


def test_lighting_flicker_and_sensor_noise_are_not_motion():
    frames = sequence(9, rolls=2, dice=2, noise=7.0, flicker=0.08, style="red")
    events = replay(frames)
    assert [truth.roll for _, truth in events] == [0, 1]


def test_a_hand_passing_over_still_dice_does_not_fire_a_new_roll():
    frames = sequence(10, rolls=1, dice=2)
    still = frames[-1].frame
    detector = SettleDetector(TruthReader(frames), tray=frames[0].truth.tray)
    t = still.t
    fired = []
    def feed(image):
        nonlocal t
        t += int(1e9 / 30)
        if event := detector.feed(Frame(t, image)):
            fired.append(event)
    for _ in range(15):
        feed(still.image)
    for step in range(20):  # a skin-coloured blob sweeps across the tray and out again
        image = still.image.copy()
        x = 10 + step * 9
        cv2.ellipse(image, (x, 75), (30, 22), 0, 0, 360, (120, 150, 205), -1)
        feed(image)
    for _ in range(20):
        feed(still.image)
    assert len(fired) == 1


def first_roll_then(frames, changes, then=(), taken=None):
    """The first roll of `frames` read, then each (image, dice) of `changes` held still for a second, then
    the frames `then`: the rolls fired, by their dice. Each changed picture reads as the dice given.
    `taken`: told by the table, as the service's camera is; True if it took the first roll, False if it asked."""
    first_settled = max(i for i, s in enumerate(frames) if s.truth.roll == 0 and s.truth.phase == "settled")
    reader = TruthReader(frames)
    detector = SettleDetector(reader, tray=frames[0].truth.tray)
    if taken is not None:
        detector.remember(())
    fired = [event for s in frames[:first_settled + 1] if (event := detector.feed(s.frame))]
    if taken:
        detector.remember(fired[0].dice)
    assert len(fired) == 1, "the first roll is read"
    t = frames[first_settled].frame.t
    truth = frames[first_settled].truth
    for image, dice in changes:
        reader.add(SceneFrame(Frame(0, image), dataclasses.replace(truth, dice=dice)))
        for _ in range(30):
            t += int(1e9 / 30)
            if event := detector.feed(Frame(t, image)):
                fired.append(event)
    for s in then:
        t += int(1e9 / 30)
        if event := detector.feed(Frame(t, s.frame.image)):
            fired.append(event)
    return fired


def brighter(image):
    return np.clip(image.astype(np.float32) * 1.3, 0, 255).astype(np.uint8)


def arm_shadow(image):
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.ellipse(mask, (image.shape[1] * 2 // 3, image.shape[0] // 2), (40, 60), 20, 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 8)
    return np.clip(image * (1 - 0.4 * mask[..., None]), 0, 255).astype(np.uint8)


def bumped(image):
    return cv2.warpAffine(image, np.float32([[1, 0, 1], [0, 1, 0]]), image.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("change", [brighter, arm_shadow, bumped], ids=["lamp on", "arm's shadow", "table bumped"])
def test_a_roll_read_is_not_read_again_when_the_light_changes_or_the_table_is_bumped(change):
    """The game waits for the next player's roll: the dice of the last one, lit another way or one pixel
    over, must not be played as it."""
    frames = sequence(13, rolls=1, dice=3, rest_s=1.0)
    still = frames[-1]
    shifted = tuple(dataclasses.replace(d, center=(d.center[0] + 1, d.center[1])) for d in still.truth.dice)
    fired = first_roll_then(frames, [(change(still.frame.image), shifted if change is bumped else still.truth.dice)])
    assert len(fired) == 1, [sorted(d.value for d in e.dice) for e in fired]


def nudged(image, die, pixels):
    """The picture with one die's patch moved `pixels` to the right, and that die's truth moved too."""
    x0, y0, x1, y1 = (int(round(v)) for v in die.box)
    out = image.copy()
    out[y0:y1, x0 + pixels:x1 + pixels] = image[y0:y1, x0:x1]
    return out, dataclasses.replace(die, center=(die.center[0] + pixels, die.center[1]))


def without(image, empty, die):
    """The picture with `die` gone (the empty tray's pixels where it lay)."""
    x0, y0, x1, y1 = (int(round(v)) for v in die.box)
    out = image.copy()
    out[y0:y1, x0:x1] = empty[y0:y1, x0:x1]
    return out


def test_a_die_nudged_after_the_read_or_some_dice_taken_out_is_not_a_new_roll():
    """A sleeve nudges a die a little, then a player takes one die out of the tray (Matterhorn's eliminated
    dice, or dice picked up in two grabs): the dice left lying are not a roll. The next throw is."""
    frames = sequence(14, rolls=2, dice=3, rest_s=1.0)
    first = [s for s in frames if s.truth.roll == 0 and s.truth.phase == "settled"][-1]
    dice = first.truth.dice
    image, moved = nudged(first.frame.image, dice[0], 2)
    empty = [s for s in frames if s.truth.phase == "empty"][0].frame.image
    taken = without(image, empty, dice[1])
    later = [s for s in frames if s.truth.roll == 1]
    fired = first_roll_then(frames, [(image, (moved, *dice[1:])), (taken, (moved, dice[2]))], then=later)
    assert [sorted(d.value for d in e.dice) for e in fired] == [first.truth.values, later[-1].truth.values]


def test_a_die_hidden_by_a_resting_hand_and_seen_again_is_still_part_of_the_roll():
    frames = sequence(15, rolls=1, dice=3, rest_s=1.0)
    still, empty = frames[-1], frames[0].frame.image
    dice = still.truth.dice
    fired = first_roll_then(frames, [(without(still.frame.image, empty, dice[0]), dice[1:]),
                                     (still.frame.image, dice)])
    assert len(fired) == 1, "the roll fired again once the hand lifted"


@pytest.mark.parametrize("taken", [True, False], ids=["roll taken", "roll asked about"])
def test_dice_left_after_the_tray_is_cleared_are_a_roll_only_if_the_game_did_not_take_the_one_before(taken):
    """Told by the table: the dice left of a roll it took are not a new roll (Matterhorn's eliminated dice
    taken out); the dice left once a person clears the tray of a roll it asked about ("I see 3 dice but
    expected 2") are the roll it waits for."""
    frames = sequence(16, rolls=1, dice=3, rest_s=1.0)
    still, empty = frames[-1], frames[0].frame.image
    dice = still.truth.dice
    fired = first_roll_then(frames, [(without(still.frame.image, empty, dice[2]), dice[:2])], taken=taken)
    assert [len(e.dice) for e in fired] == ([3] if taken else [3, 2])


def test_a_hand_still_moving_in_the_tray_produces_nothing():
    frames = [s for s in sequence(11, rolls=2, dice=2) if s.truth.phase in ("hand",)]
    assert frames
    assert replay(frames) == []


def test_an_empty_tray_is_not_a_roll():
    frames = [s for s in sequence(12, rolls=1, dice=2) if s.truth.phase == "empty"] * 20
    frames = [dataclasses.replace(s, frame=Frame(i * 33_000_000, s.frame.image)) for i, s in enumerate(frames)]
    assert replay(frames) == []


def test_negative_settle_time_is_refused():
    with pytest.raises(ValueError, match="settle_ms"):
        SettleDetector(TruthReader(), settle_ms=-1)
