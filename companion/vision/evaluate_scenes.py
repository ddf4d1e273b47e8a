"""Score a dice reader on the repo's own synthetic scenes, swept over camera tilt, dice style and touching dice.

    python -m companion.vision.evaluate_scenes [--scenes 300] [--seed 91] [--renderer warped|traced]
        [--dice pips] [--classifier ONNX...] [--close-look ONNX] [--detector ONNX]

The labelled photos in shared/data/dice-real show two kinds of table; the reader is also measured on
scenes from renderers this repo never sees. This sweep is the nearest check the repo can run on itself:
fresh scenes from `companion.vision.scene`, each with its own camera (tilted 0–10°, 25–35° or 50–60°, in
turn; 640×480 or 1280×720; field of view 45–70°), dice style (the generator's seven, in turn), 2–6 resting
dice and, in half the scenes, two dice lying flush. The seed fixes every scene, so two readers (or two
versions of one) are compared on the same frames. The classifier's training scenes came from other seeds.

`--renderer traced` draws the scenes with `companion.vision.scene_traced` instead: sphere-traced dice with
rounded edges, dimpled pips, glare and soft shadows, ten dice styles of its own and felt, wood or paper
tables, which no network here was trained on (the same cameras; about 1 s a scene).

Scored as `companion.vision.evaluate` scores photos: each die is matched to the nearest reported centre
within MATCH_RADIUS of its size. A die's centre is its top face's projected centre and its size the larger
side of the whole die's projected box (the side faces a tilted camera sees are part of what it looks at).
"""
from __future__ import annotations

import argparse
import sys
from typing import Iterator

import numpy as np

from .evaluate import LabelledDie, SetScore, add_reader_options, match, reader_for, report, table

TILTS = ((0.0, 10.0), (25.0, 35.0), (50.0, 60.0))
FRAME_SIZES = ((640, 480), (1280, 720))


RENDERERS = ("warped", "traced")


def scenes(count: int, seed: int, renderer: str = "warped") -> Iterator[tuple[list[str], np.ndarray, tuple[LabelledDie, ...]]]:
    """(groups the scene belongs to, frame, labelled dice) for `count` scenes drawn from `seed`."""
    from . import scene, scene_traced

    if renderer not in RENDERERS:
        raise ValueError(f"unknown renderer {renderer!r}; choose from: {', '.join(RENDERERS)}")
    rng = np.random.default_rng(seed)
    styles = list(scene.STYLES if renderer == "warped" else scene_traced.STYLES)
    for i in range(count):
        low, high = TILTS[i % len(TILTS)]
        style = styles[i // len(TILTS) % len(styles)]
        touching = bool(rng.random() < 0.5)
        width, height = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))]
        camera = scene.CameraModel(width, height, tilt_deg=float(rng.uniform(low, high)), hfov_deg=float(rng.uniform(45, 70)))
        seed_i, count_i = int(rng.integers(1 << 31)), int(rng.integers(2, 7))
        if renderer == "warped":
            frame, truth = scene.render_scene(seed_i, dice=count_i, camera=camera, style=style, touching=touching)
            dice = truth.dice
        else:
            table = scene_traced.TABLES[int(rng.integers(len(scene_traced.TABLES)))]
            frame, dice = scene_traced.render_traced(seed_i, dice=count_i, camera=camera, style=style, table=table, flush=touching)
        groups = ["all", f"tilt {low:.0f}-{high:.0f}°", "two dice flush" if touching else "no dice touching", style]
        yield groups, frame, labelled(dice)


def labelled(dice) -> tuple[LabelledDie, ...]:
    """The generator's dice (`DieTruth`) as labels: centred on the top face, sized by the whole die's box."""
    labels = []
    for die in dice:
        half = max(die.box[2] - die.box[0], die.box[3] - die.box[1]) / 2
        x, y = die.center
        labels.append(LabelledDie(die.value, (x - half, y - half, x + half, y + half)))
    return tuple(labels)


def score_scenes(reader, count: int, seed: int, renderer: str = "warped") -> dict[str, SetScore]:
    """Scores per group: "all", each tilt range, flush or not, each style (in that order)."""
    by_kind: list[dict[str, SetScore]] = [{}, {}, {}, {}]
    for names, frame, dice in scenes(count, seed, renderer):
        score = match(dice, reader.read(frame))
        for kind, name in zip(by_kind, names):
            kind.setdefault(name, SetScore([])).images.append(score)
    return {name: score for kind in by_kind for name, score in sorted(kind.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.evaluate_scenes", description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=300, help="how many scenes (default 300, about a minute)")
    parser.add_argument("--seed", type=int, default=91, help="draws every scene (default 91)")
    parser.add_argument("--renderer", choices=RENDERERS, default="warped",
                        help="warped: companion.vision.scene, whose look the networks were trained on (default); "
                             "traced: companion.vision.scene_traced, a look they never saw")
    add_reader_options(parser)
    args = parser.parse_args(argv)
    if args.scenes < 1:
        print(f"evaluate_scenes: --scenes must be at least 1, got {args.scenes}", file=sys.stderr)
        return 2
    try:
        reader = reader_for(args)
    except (OSError, ValueError) as exc:
        print(f"evaluate_scenes: {exc}", file=sys.stderr)
        return 2

    groups = score_scenes(reader, args.scenes, args.seed, args.renderer)
    title = "synthetic scenes" if args.renderer == "warped" else "traced scenes"
    print(report(groups["all"], f"{title} (seed {args.seed})"))
    print(table(groups, "scenes", "frames"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
