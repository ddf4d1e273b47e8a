"""Score a dice reader against a labelled photo set (`labels.jsonl`, as in shared/data/dice-real).

    python -m companion.vision.evaluate /path/to/set [--split dev|holdout|all|kept-out|trained] [--dice pips]
        [--classifier ONNX] [--close-look ONNX] [--detector ONNX] [--no-red-look] [--vary turn90|...|jpeg]
        [--show-misses]

Scoring, as the sets' README says: each labelled die is matched to the nearest reported centre within
`MATCH_RADIUS` times its box size (each report matches at most one label); its value is right when it
equals the label. Reports that match no label are extra dice. A photo is right when every die in it is
read right and nothing extra is reported. A die reported `unsure` counts as not right (the table would
ask a person), and is counted apart.

The split is fixed by a hash of the image name, so the held-out quarter never changes and is never
used for tuning. Within the dev split, one photo in five is kept out of the pip classifiers' training
(`kept-out`; the rest is `trained`): the fairest dev figure for choosing between networks, which
`--classifier`, `--close-look` and `--detector` swap in for the shipped ones.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path

MATCH_RADIUS = 0.75
HOLDOUT_EVERY = 4  # one image in four is held out
KEPT_OUT_EVERY = 5  # one dev image in five is kept out of the pip classifiers' training
SPLITS = ("dev", "holdout", "all", "kept-out", "trained")


@dataclasses.dataclass(frozen=True)
class LabelledDie:
    value: int
    box: tuple[float, float, float, float]

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def size(self) -> float:
        x0, y0, x1, y1 = self.box
        return max(x1 - x0, y1 - y0)


@dataclasses.dataclass(frozen=True)
class LabelledImage:
    path: Path
    name: str
    dice: tuple[LabelledDie, ...]

    def read(self):
        """The photo as a BGR array; OSError naming the photo and why, when it cannot be read."""
        from .image_files import load_image

        return load_image(self.path)


def split_of(name: str) -> str:
    digest = hashlib.sha1(Path(name).name.encode()).digest()
    return "holdout" if digest[0] % HOLDOUT_EVERY == 0 else "dev"


def kept_out_of_training(name: str) -> bool:
    """Whether a dev image is one the pip classifiers never trained on (their validation; the training
    scripts in models/ keep the same images out)."""
    return hashlib.sha1(("val:" + name).encode()).digest()[0] % KEPT_OUT_EVERY == 0


def in_split(name: str, split: str) -> bool:
    if split == "all":
        return True
    if split in ("dev", "holdout"):
        return split_of(name) == split
    if split in ("kept-out", "trained"):
        return split_of(name) == "dev" and kept_out_of_training(name) == (split == "kept-out")
    raise ValueError(f"unknown split {split!r}; choose from: {', '.join(SPLITS)}")


def load_set(folder: str | Path, split: str = "all") -> list[LabelledImage]:
    folder = Path(folder)
    labels = folder / "labels.jsonl"
    if not labels.is_file():
        raise FileNotFoundError(f"no labels.jsonl in {folder}")
    images = []
    for line in labels.read_text().splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        if not in_split(record["image"], split):
            continue
        dice = tuple(LabelledDie(int(d["value"]), tuple(map(float, d["box"]))) for d in record["dice"])
        images.append(LabelledImage(folder / record["image"], record["image"], dice))
    return images


@dataclasses.dataclass
class ImageScore:
    name: str
    pairs: list[tuple[int, int | str | None, bool]]  # (label value, read value or None, unsure)
    extra: int

    @property
    def right(self) -> bool:
        return self.extra == 0 and all(read == label and not unsure for label, read, unsure in self.pairs)


def match(labelled: tuple[LabelledDie, ...], readings) -> ImageScore:
    """Greedy nearest-first matching of labels to reported centres within MATCH_RADIUS × box size."""
    candidates = []
    for i, die in enumerate(labelled):
        cx, cy = die.center
        for j, reading in enumerate(readings):
            dist = ((reading.center[0] - cx) ** 2 + (reading.center[1] - cy) ** 2) ** 0.5
            if dist <= MATCH_RADIUS * die.size:
                candidates.append((dist, i, j))
    candidates.sort()
    label_to_read: dict[int, int] = {}
    used: set[int] = set()
    for _, i, j in candidates:
        if i in label_to_read or j in used:
            continue
        label_to_read[i] = j
        used.add(j)
    pairs = []
    for i, die in enumerate(labelled):
        j = label_to_read.get(i)
        pairs.append((die.value, None if j is None else readings[j].value, False if j is None else readings[j].unsure))
    return ImageScore("", pairs, len(readings) - len(used))


@dataclasses.dataclass
class SetScore:
    images: list[ImageScore]

    @property
    def dice(self) -> int:
        return sum(len(s.pairs) for s in self.images)

    @property
    def dice_right(self) -> int:
        return sum(1 for s in self.images for label, read, unsure in s.pairs if read == label and not unsure)

    @property
    def unsure(self) -> int:
        return sum(1 for s in self.images for _, read, unsure in s.pairs if unsure)

    @property
    def wrong(self) -> int:
        """Dice read as another value and not marked unsure: the misreads nobody is asked to check."""
        return sum(1 for s in self.images for label, read, unsure in s.pairs
                   if read is not None and read != label and not unsure)

    @property
    def missed(self) -> int:
        return sum(1 for s in self.images for _, read, _ in s.pairs if read is None)

    @property
    def extra(self) -> int:
        return sum(s.extra for s in self.images)

    @property
    def die_accuracy(self) -> float:
        return self.dice_right / max(1, self.dice)

    @property
    def photo_accuracy(self) -> float:
        return sum(s.right for s in self.images) / max(1, len(self.images))

    @property
    def extra_per_100_photos(self) -> float:
        return 100 * self.extra / max(1, len(self.images))

    def per_value(self) -> dict[int, tuple[int, int]]:
        out: dict[int, list[int]] = {v: [0, 0] for v in range(1, 7)}
        for s in self.images:
            for label, read, unsure in s.pairs:
                out[label][1] += 1
                out[label][0] += int(read == label and not unsure)
        return {v: (r, n) for v, (r, n) in out.items()}

    def confusion(self) -> dict[int, dict[str, int]]:
        """label -> {read value as text, "miss" or "unsure": count}."""
        out: dict[int, dict[str, int]] = {v: {} for v in range(1, 7)}
        for s in self.images:
            for label, read, unsure in s.pairs:
                key = "miss" if read is None else "unsure" if unsure else str(read)
                out[label][key] = out[label].get(key, 0) + 1
        return out


def score_set(images: list[LabelledImage], reader, variant: str | None = None) -> SetScore:
    """`variant`: read each photo as `companion.vision.photo_variants` turns, rescales or darkens it."""
    from .photo_variants import vary

    scores = []
    for image in images:
        frame = image.read()
        dice = image.dice
        if variant:
            frame, dice = vary(frame, dice, variant)
        score = match(dice, reader.read(frame))
        score.name = image.name
        scores.append(score)
    return SetScore(scores)


def report(score: SetScore, title: str) -> str:
    lines = [
        f"{title}: {len(score.images)} photos, {score.dice} dice",
        f"  per die:   {score.die_accuracy:.1%} right ({score.dice_right}/{score.dice}), "
        f"{score.wrong} wrong and not marked unsure, {score.missed} missed, {score.unsure} unsure",
        f"  per photo: {score.photo_accuracy:.1%} all right with nothing extra",
        f"  extra dice: {score.extra} ({score.extra_per_100_photos:.1f} per 100 photos)",
        "  per value: " + ", ".join(f"{v}: {r}/{n}" for v, (r, n) in score.per_value().items()),
        "  confusion (label -> read):",
    ]
    columns = [str(v) for v in range(1, 7)] + ["unsure", "miss"]
    lines.append("         " + "".join(c.rjust(7) for c in columns))
    for label, row in score.confusion().items():
        lines.append(f"    {label}    " + "".join(str(row.get(c, 0)).rjust(7) for c in columns))
    return "\n".join(lines)


def table(groups: dict[str, SetScore], kind: str = "photos", unit: str = "photos") -> str:
    """One line per group of photos (or scenes): dice right, silently wrong, unsure, missed, extra dice."""
    lines = [f"{kind:<18}{unit:>7}{'dice':>6}{'right':>8}{'wrong':>7}{'unsure':>8}{'missed':>8}{'extra/100':>11}"]
    for name, score in groups.items():
        lines.append(f"{name:<18}{len(score.images):>7}{score.dice:>6}{score.die_accuracy:>8.1%}{score.wrong:>7}"
                     f"{score.unsure:>8}{score.missed:>8}{score.extra_per_100_photos:>11.1f}")
    return "\n".join(lines)


def add_reader_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", default="pips", help="reader kind (see companion.vision.readers)")
    parser.add_argument("--classifier", type=Path, nargs="+", metavar="NETWORK",
                        help="pip dice: these quick networks instead of the shipped ones (the first reads every "
                             "candidate, the others re-read the faces it is unsure of and are averaged with it)")
    parser.add_argument("--close-look", type=Path, help="pip dice: this close-look network instead of the shipped one")
    parser.add_argument("--detector", type=Path, help="pip dice: this detector network instead of the shipped one")
    parser.add_argument("--no-red-look", action="store_true",
                        help="pip dice: without the close look's view through a red filter (vision/pips/red_look.py)")


def reader_for(args: argparse.Namespace):
    """The reader `add_reader_options` asked for; ValueError or OSError (a missing network) names what is
    wrong. Networks come from models/train_pips_classifier.py and models/train_pips_detector.py."""
    from .readers import get_reader

    if args.classifier is None and args.close_look is None and args.detector is None and not args.no_red_look:
        return get_reader(args.dice)
    if args.dice != "pips":
        raise ValueError(f"--classifier, --close-look, --detector and --no-red-look choose the pip reader's networks "
                         f"and looks, not the {args.dice} reader's")
    from .pips import classifier as pips
    from .pips.detector import MODEL_PATH as DETECTOR_PATH, PipDetector

    first, *others = args.classifier or (pips.MODEL_PATH, *pips.PANEL_PATHS)
    networks = pips.load_close_look(first, args.close_look or pips.CLOSE_LOOK_PATH, tuple(others),
                                    red_look=not args.no_red_look)
    return get_reader("pips", classify=networks.classify, detector=PipDetector(args.detector or DETECTOR_PATH))


def main(argv: list[str] | None = None) -> int:
    from .photo_variants import VARIANTS

    parser = argparse.ArgumentParser(prog="python -m companion.vision.evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("folder", help="a labelled set: a folder with labels.jsonl and the images")
    parser.add_argument("--split", choices=SPLITS, default="all",
                        help="kept-out / trained: the dev images the pip classifiers did not / did train on")
    add_reader_options(parser)
    parser.add_argument("--vary", choices=[*VARIANTS, "all"],
                        help="read each photo turned, rescaled, darker, brighter or as rougher JPEG (the labels move along): "
                             "other photos of the same kinds; all: the photos as taken and every variant, one line each")
    parser.add_argument("--show-misses", action="store_true", help="list every photo that is not all right")
    args = parser.parse_args(argv)

    try:
        images = load_set(args.folder, args.split)
        reader = reader_for(args)
        if args.vary == "all":
            scores = {variant or "as taken": score_set(images, reader, variant) for variant in (None, *VARIANTS)}
        else:
            scores = {args.vary or "": score_set(images, reader, args.vary)}
    except (OSError, ValueError) as exc:
        print(f"evaluate: {exc}", file=sys.stderr)
        return 2
    if args.vary == "all":
        print(f"{Path(args.folder).name} [{args.split}]")
        print(table(scores, "variant"))
    else:
        score, = scores.values()
        print(report(score, f"{Path(args.folder).name} [{args.split}{', ' + args.vary if args.vary else ''}]"))
    if args.show_misses:
        for variant, score in scores.items():
            for s in score.images:
                if not s.right:
                    wrong = [(label, read) for label, read, unsure in s.pairs if read != label or unsure]
                    print(f"  {variant + ': ' if len(scores) > 1 else ''}{s.name}: wrong {wrong} extra {s.extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
