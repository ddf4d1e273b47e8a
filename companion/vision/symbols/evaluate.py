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
    args = parser.parse_args(argv)
    for title, options in (("clean frames", SceneOptions()), ("motion blur 6-14 px", BLUR)):
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
