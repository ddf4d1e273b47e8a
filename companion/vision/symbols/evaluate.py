"""Teach on synthetic dice, then read synthetic tables: the accuracy figures of the model card and tests.

A die counts as read right when a reading lies within half a die side of its true centre, carries its true
face and is not marked unsure. Unsure readings, wrong faces and dice not found are counted apart.
"""
from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np

from .faces import faces_of
from .icons import IconStyle
from .render import ZONES, SceneOptions, render_table, render_teach_image
from .teach import examples_from_image


@dataclasses.dataclass
class Tally:
    total: int = 0
    right: int = 0
    unsure: int = 0
    wrong: int = 0
    missed: int = 0
    extra: int = 0
    confusion: Counter = dataclasses.field(default_factory=Counter)  # (truth, read) -> count

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0

    def add(self, other: "Tally") -> None:
        for name in ("total", "right", "unsure", "wrong", "missed", "extra"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.confusion.update(other.confusion)


def teach_examples(style: IconStyle, kind: str, die_colour: str, per_face: int = 3, seed: int = 0,
                   tray: str = "felt-green", options: SceneOptions = SceneOptions()) -> dict:
    """`per_face` teach photos of one die for every face of `kind`, as the teach flow would take them."""
    taught = {}
    for i, face in enumerate(faces_of(kind)):
        taught[face] = []
        for k in range(per_face):
            scene = render_teach_image(seed * 1000 + i * 10 + k, style, kind, face, die_colour, tray=tray,
                                       options=options)
            taught[face] += examples_from_image(scene.image)
    return taught


def score(readings, truth) -> Tally:
    tally = Tally(total=len(truth))
    used = set()
    for die in truth:
        near = [(np.hypot(r.center[0] - die.center[0], r.center[1] - die.center[1]), i)
                for i, r in enumerate(readings) if i not in used]
        near = [(d, i) for d, i in near if d < die.side / 2]
        if not near:
            tally.missed += 1
            tally.confusion[(die.face, "(missed)")] += 1
            continue
        _, i = min(near)
        used.add(i)
        reading = readings[i]
        if reading.unsure:
            tally.unsure += 1
            tally.confusion[(die.face, "(unsure)")] += 1
        elif reading.value == die.face:
            tally.right += 1
            tally.confusion[(die.face, die.face)] += 1
        else:
            tally.wrong += 1
            tally.confusion[(die.face, reading.value)] += 1
    tally.extra = len(readings) - len(used)
    return tally


def evaluate_style(style: IconStyle, scenes: int, fruit_colour: str = "ivory", matcho_colour: str = "cream",
                   tray: str = "felt-green", options: SceneOptions = SceneOptions(), seed: int = 0,
                   per_face: int = 3) -> dict[str, Tally]:
    """Teach both kinds in `style`, then read `scenes` tables; a Tally per kind."""
    from . import SymbolReader

    # One camera height per run: the dice are taught and read at the same size, which differs run to run.
    side = np.random.default_rng([seed, 2]).uniform(*options.die_px)
    options = dataclasses.replace(options, die_px=(side * 0.97, side * 1.03))
    teach_options = dataclasses.replace(options, motion_blur=None)
    readers = {kind: SymbolReader(kind, teach_examples(style, kind, colour, per_face, seed, tray, teach_options))
               for kind, colour in (("fruit", fruit_colour), ("matcho", matcho_colour))}
    tallies = {kind: Tally() for kind in readers}
    for n in range(scenes):
        scene = render_table(seed * 100_000 + 7 + n, style, fruit_colour, matcho_colour, tray, options)
        for kind, reader in readers.items():
            truth = [d for d in scene.dice if d.kind == kind]
            tallies[kind].add(score(reader.read(scene.image, ZONES[kind]), truth))
    return tallies


# The held-out test set of the model card: every held-out style on two dice/tray colourings.
HELD_OUT_SETUPS = (
    ("pastel", "cream", "blush", "felt-blue"),
    ("pastel", "ivory", "ivory", "felt-green"),
    ("bold", "sky", "ivory", "slate"),
    ("bold", "ivory", "cream", "walnut"),
    ("ink", "mint", "cream", "walnut"),
    ("ink", "ivory", "ivory", "felt-green"),
)
BLUR = SceneOptions(motion_blur=(6, 14))


def held_out(scenes: int, options: SceneOptions = SceneOptions(), setups=HELD_OUT_SETUPS,
             seed: int = 1) -> dict[tuple[str, str], Tally]:
    """(setup name, kind) -> Tally, teaching 3 examples per face in each setup."""
    from .icons import STYLES

    out = {}
    for i, (style, fruit_colour, matcho_colour, tray) in enumerate(setups):
        tallies = evaluate_style(STYLES[style], scenes, fruit_colour, matcho_colour, tray, options, seed + i)
        for kind, tally in tallies.items():
            out[(f"{style} ({fruit_colour}/{matcho_colour} dice, {tray})", kind)] = tally
    return out


SKIN_TONES = ((130, 160, 212), (100, 130, 190), (150, 175, 225), (90, 110, 160), (110, 140, 200))  # BGR


def fingertips(scenes: int, options: SceneOptions = SceneOptions(), seed: int = 1) -> dict[str, Counter]:
    """A fingertip over a die: a skin-coloured ellipse 55-90 % of a die's side over one die of each zone, in
    the held-out and development setups. Counts the blobs under a finger read sure or unsure, by the face
    alone ("face") and by the reader with its body colour check ("reader"), and the zones' other dice."""
    import cv2

    from . import SymbolReader
    from .features import CROP_PX, extract
    from .find import canonical_crop, find_dice
    from .icons import DEV_STYLES, STYLES

    setups = [(STYLES[s], f, m, t) for s, f, m, t in HELD_OUT_SETUPS]
    setups += [(style, "ivory", "cream", "felt-green") for style in DEV_STYLES]
    counts = {"face": Counter(), "reader": Counter(), "other dice": Counter()}
    for i, (style, fruit_colour, matcho_colour, tray) in enumerate(setups):
        side = np.random.default_rng([seed + i, 2]).uniform(*options.die_px)
        run = dataclasses.replace(options, die_px=(side * 0.97, side * 1.03))
        teach = dataclasses.replace(run, motion_blur=None)
        for kind, colour in (("fruit", fruit_colour), ("matcho", matcho_colour)):
            reader = SymbolReader(kind, teach_examples(style, kind, colour, 3, seed + i, tray, teach))
            for n in range(scenes):
                scene = render_table((seed + i) * 100_000 + 7 + n, style, fruit_colour, matcho_colour, tray, run)
                rng = np.random.default_rng(n)
                dice = [d for d in scene.dice if d.kind == kind]
                under = dice[rng.integers(len(dice))]
                image = scene.image.copy()
                axis = int(under.side * rng.uniform(0.55, 0.9))
                light = rng.uniform(0.55, 1.0)
                skin = tuple(int(v * light) for v in SKIN_TONES[n % len(SKIN_TONES)])
                cv2.ellipse(image, tuple(map(int, under.center)), (axis, int(axis * 0.8)),
                            float(rng.uniform(0, 180)), 0, 360, skin, -1)
                found = find_dice(image, ZONES[kind], reader.side_hint)
                by_face = [reader.recogniser.decide(extract(canonical_crop(image, d, CROP_PX))) for d in found]
                for die, face, read in zip(found, by_face, reader.read(image, ZONES[kind])):
                    if np.hypot(die.center[0] - under.center[0], die.center[1] - under.center[1]) < 0.6 * under.side:
                        counts["face"]["unsure" if face.unsure else "sure"] += 1
                        counts["reader"]["unsure" if read.unsure else "sure"] += 1
                    else:
                        counts["other dice"]["unsure" if read.unsure else "sure"] += 1
    return counts


def confusion_table(tally: Tally, faces: tuple[str, ...]) -> list[str]:
    columns = list(faces) + ["(unsure)", "(missed)"]
    lines = ["| truth \\ read | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for face in faces:
        lines.append(f"| {face} | " + " | ".join(str(tally.confusion.get((face, c), 0)) for c in columns) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="accuracy of the symbol reader on held-out icon styles")
    parser.add_argument("--scenes", type=int, default=40, help="tables per setup (default 40)")
    parser.add_argument("--fingertips", action="store_true", help="count fingertips over dice read as a sure face")
    parser.add_argument("--cast", type=float, nargs=2, default=(1.0, 1.0), metavar=("BLUE", "RED"),
                        help="read the tables under another light than the teaching: blue and red gain, e.g. 1.1 0.9")
    parser.add_argument("--drift", type=float, default=0.0,
                        help="and let its colour drift +-DRIFT per channel across each zone, e.g. 0.04")
    args = parser.parse_args(argv)
    light = {"cast": tuple(args.cast), "drift": args.drift}
    clean, blurred = SceneOptions(**light), dataclasses.replace(BLUR, **light)
    if args.fingertips:
        for title, options in (("clean frames", clean), ("motion blur 6-14 px", blurred)):
            counts = fingertips(args.scenes, options)
            print(f"{title}: " + "; ".join(f"{what}: {dict(c)}" for what, c in counts.items()))
        return 0
    for title, options in (("clean frames", clean), ("motion blur 6-14 px", blurred)):
        results = held_out(args.scenes, options)
        print(f"\n### {title}\n")
        print("| setup | dice | die read | right | unsure | wrong | missed | extra | accuracy |")
        print("|---|---|---|---|---|---|---|---|---|")
        totals = {kind: Tally() for kind in ("fruit", "matcho")}
        for (setup, kind), t in results.items():
            totals[kind].add(t)
            print(f"| {setup} | {kind} | {t.total} | {t.right} | {t.unsure} | {t.wrong} | {t.missed} | {t.extra} "
                  f"| {t.accuracy:.2%} |")
        for kind, t in totals.items():
            print(f"| **all** | {kind} | {t.total} | {t.right} | {t.unsure} | {t.wrong} | {t.missed} | {t.extra} "
                  f"| **{t.accuracy:.2%}** |")
        for kind, t in totals.items():
            print(f"\nconfusion, {kind} dice, {title}:\n")
            print("\n".join(confusion_table(t, faces_of(kind))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
