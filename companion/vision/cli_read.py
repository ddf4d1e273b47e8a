"""`companion read [--dice pips|fruit|matcho] [--tray x0,y0,x1,y1] [--rotate DEG] [--json] IMAGE...` and
`companion read --camera picamera2|usb:N|FILE [--tray ...] [--rotate DEG]`.

With images: one line per image, in the order given. `--json` prints exactly
`{"image": ..., "dice": [{"value", "center", "box", "confidence"[, "unsure": true]}], "ms": ...}`
where `ms` is the time spent reading (decoding excluded). An image that is missing or cannot be decoded
gets `{"image": ..., "error": "..."}` and the others go on. Exit code: 0 when at least one image was
read, 1 when none could be. A `--tray` that lies wholly outside an image is that image's error.

`--tray auto` finds the dice tray in each picture (`companion.vision.tray_finder`; the whole picture counts
where it finds none); without `--tray` the whole picture counts.

`--rotate DEG` turns each image DEG degrees clockwise before reading, for a camera mounted on its side or
upside down (`companion.vision.rotation`). For images, `--tray` and the positions printed stay in the
image's own pixels; live, they are in the upright frame's, as on the page.

With `--camera`: prints each settled roll as it happens, through `companion.vision.live.run_camera`.
"""
from __future__ import annotations

import json
import sys
import time

from ..cli import CliError, is_live_camera, require_hardware_free
from .rotation import parse_rotation
from .tray import crop_to_tray, is_auto, parse_tray, tray_text

DICE_KINDS = ("pips", "fruit", "matcho")


def add_arguments(parser) -> None:
    parser.add_argument("images", nargs="*", metavar="IMAGE", help="image files to read")
    parser.add_argument("--dice", choices=DICE_KINDS, default="pips", help="which dice (default: pips)")
    parser.add_argument("--tray", metavar="x0,y0,x1,y1|auto",
                        help="only dice inside this region count; auto: find the dice tray in each picture")
    parser.add_argument("--rotate", metavar="DEG", default="0",
                        help="degrees clockwise that turn the pictures upright: 0, 90, 180 or 270 (default 0)")
    parser.add_argument("--json", action="store_true", help="one JSON line per image")
    parser.add_argument("--camera", metavar="SOURCE", help="read settled rolls live: picamera2, usb:N or a video file")


def _text_line(path: str, dice) -> str:
    if not dice:
        return f"{path}: no dice"
    parts = []
    for d in dice:
        mark = "?" if d.unsure else ""
        parts.append(f"{d.value}{mark} at ({d.center[0]:.0f}, {d.center[1]:.0f})")
    values = " ".join(f"{d.value}{'?' if d.unsure else ''}" for d in dice)
    return f"{path}: {len(dice)} dice: {values}  [" + "; ".join(parts) + "]"


def read_upright(reader, frame, tray, degrees: int):
    """The dice in `frame` read once it is turned `degrees` clockwise, placed back in `frame`'s pixels;
    `tray` is in `frame`'s pixels too."""
    if degrees == 0:
        return reader.read(frame, tray)
    from .rotation import reading_back, turn_box, upright

    height, width = frame.shape[:2]
    turned = upright(frame, degrees)
    tray = tuple(int(round(v)) for v in turn_box(tray, degrees, width, height)) if tray else None
    return [reading_back(d, degrees, turned.shape) for d in reader.read(turned, tray)]


def read_images(paths: list[str], reader, tray, as_json: bool, out=None, rotate: int = 0,
                auto_tray: bool = False) -> int:
    from .image_files import read_image
    from .tray_finder import FoundTrayReader, find_tray

    out = out or sys.stdout
    read_any = warmed = False
    for path in paths:
        frame, error = read_image(path)
        if frame is None:
            print(json.dumps({"image": path, "error": error}) if as_json else f"{path}: error: {error}", file=out,
                  flush=True)
            continue
        if tray is not None and crop_to_tray(frame, tray) is None:
            height, width = frame.shape[:2]
            error = f"the tray {tray_text(tray)} lies outside this {width}x{height} image"
            print(json.dumps({"image": path, "error": error}) if as_json else f"{path}: error: {error}", file=out,
                  flush=True)
            continue

        def read() -> list:
            if auto_tray:
                return read_upright(FoundTrayReader(reader), frame, find_tray(frame), rotate)
            return read_upright(reader, frame, tray, rotate)

        if not warmed:  # the networks load on the first read: that is not the time spent reading an image
            read()
            warmed = True
        start = time.perf_counter_ns()
        dice = read()
        ms = (time.perf_counter_ns() - start) / 1e6
        read_any = True
        if as_json:
            print(json.dumps({"image": path, "dice": [d.to_json() for d in dice], "ms": round(ms, 1)}), file=out)
        else:
            print(_text_line(path, dice) + f"  ({ms:.1f} ms)", file=out)
        out.flush()
    return 0 if read_any else 1


def run(args) -> int:
    from .pips.networks import ModelMissing
    from .sources import SourceError

    if args.camera and args.images:
        raise CliError("give either IMAGE... or --camera, not both")
    if not args.camera and not args.images:
        raise CliError("nothing to read: give IMAGE... or --camera SOURCE")
    try:
        tray = parse_tray(args.tray)
    except ValueError as exc:
        raise CliError(f"--tray: {exc}") from None
    try:
        args.rotate = parse_rotation(args.rotate)
    except ValueError as exc:
        raise CliError(f"--rotate: {exc}") from None
    try:  # the pip reader opens its detector here and its classifiers on the first frame
        return _read(args, tray)
    except ModelMissing as exc:
        raise CliError(f"{exc}; re-run the installer (sudo systemd/install.sh) or restore models/, "
                       "and `companion doctor` checks them all") from None
    except SourceError as exc:  # --camera: a camera missing at start, a bad spec, an empty folder
        raise CliError(str(exc)) from None


def _read(args, tray) -> int:
    from .readers import UnknownReader, reader_with_taught_dice

    try:
        reader = reader_with_taught_dice(args.dice)
    except UnknownReader as exc:
        raise CliError(str(exc)) from None
    if args.camera:
        if is_live_camera(args.camera):
            require_hardware_free("the camera")
        try:
            from .live import run_camera
        except ImportError:
            raise CliError("live reading from a camera is not available in this build yet") from None
        run_camera(args.camera, reader, sys.stdout, args.json, tray=tray, rotate=args.rotate,
                   auto_tray=is_auto(args.tray))
        return 0
    return read_images(args.images, reader, tray, args.json, rotate=args.rotate, auto_tray=is_auto(args.tray))
