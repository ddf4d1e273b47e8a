"""`companion teach fruit|matcho`: teach the companion the symbol dice of the box on the table.

    companion teach fruit --face banana IMAGE...     photos with one or more dice, banana face up
    companion teach matcho --camera usb:0            asks for each face in turn and takes a frame
    companion teach fruit --status                   what is taught, what is missing
    companion teach fruit --forget banana            drop one face's examples (or `all`)

Examples live in the state directory (--state-dir, default the companion's). Re-teaching
a face replaces its examples (--add keeps them). A refused teach changes nothing.
"""
from __future__ import annotations

import sys

from ..cli import CliError, is_live_camera, require_hardware_free

KINDS = ("fruit", "matcho")


def add_arguments(parser) -> None:
    parser.add_argument("kind", choices=KINDS, help="which dice: fruit or matcho")
    parser.add_argument("--face", nargs="+", action="append", metavar=("FACE", "IMAGE"),
                        help="a face (a fruit name, matcho or blank), then photos of dice showing it; one face "
                             "per command")
    parser.add_argument("--add", action="store_true", help="add to the face's examples instead of replacing them")
    parser.add_argument("--camera", metavar="SOURCE", help="teach live: picamera2, usb:N, a video or a folder")
    parser.add_argument("--shots", type=int, default=1, help="frames taken per face with --camera (default 1)")
    parser.add_argument("--status", action="store_true", help="show what is taught and what is missing")
    parser.add_argument("--forget", metavar="FACE", help="drop the examples of FACE, or `all`")
    parser.add_argument("--state-dir", help="where taught dice are kept (default: the companion's state directory)")


def _store(args):
    from pathlib import Path

    from ..config import load_settings, settings_file
    from .symbols.store import TeachStore

    try:
        state_dir = Path(args.state_dir or load_settings(settings_file()).state_dir)
        # A file where the folder should be (`--state-dir a.jpg`) reads as a folder with nothing taught.
        there = next((p for p in [state_dir, *state_dir.parents] if p.exists()), None)
        if there is not None and not there.is_dir():
            what = "" if there == state_dir else f" ({there} is a file)"
            raise CliError(f"the state directory {state_dir} is not a directory{what}")
        return TeachStore(state_dir)
    except ValueError as exc:  # a bad settings file
        raise CliError(str(exc)) from None


def _load_images(paths: list[str]):
    from .image_files import read_image

    out = []
    for path in paths:
        image, error = read_image(path)
        if image is None:
            raise CliError(f"cannot read image {path}: {error}; nothing was changed")
        out.append((path, image))
    return out


def _status(store, kind: str) -> int:
    from .symbols.faces import faces_of
    from .symbols.teach import missing_faces

    examples = store.load(kind)
    for face in faces_of(kind):
        print(f"{face}: {len(examples.get(face, []))} example(s)")
    missing = missing_faces(kind, examples)
    print(f"still to teach: {', '.join(missing)}" if missing else f"all {kind} faces taught")
    return 0


def _forget(store, kind: str, face: str) -> int:
    from .symbols.faces import check_face

    examples = store.load(kind)
    if face == "all":
        examples = {}
    else:
        check_face(kind, face)
        examples.pop(face, None)
    store.save(kind, examples)
    print(f"forgot {'every face' if face == 'all' else face} of the {kind} dice")
    return 0


def _camera(store, args) -> int:
    from .sources import CameraFailed, SourceError, open_source
    from .symbols.teach import teach_interactive

    kept = "what was taught so far is kept"
    if is_live_camera(args.camera):
        require_hardware_free("the camera")
    try:
        source = open_source(args.camera)
    except SourceError as exc:
        raise CliError(str(exc)) from None
    frames = (frame.image for frame in source)
    try:
        next(frames)  # opens the camera now, so a missing camera is said before any question
        missing = teach_interactive(store, args.kind, frames, input, print, shots=args.shots)
    except StopIteration:
        raise CliError(f"the camera {args.camera} gave no more frames; {kept}") from None
    except (SourceError, CameraFailed) as exc:
        raise CliError(f"{exc}; {kept}") from None
    except EOFError:
        raise CliError(f"no one answered at the terminal (end of input); {kept}") from None
    finally:
        close = getattr(source, "close", None)
        if close:
            close()
    return 1 if missing else 0


def run(args) -> int:
    from .symbols.faces import UnknownFace, check_face
    from .symbols.store import DamagedStore, StoreNotWritable
    from .symbols.teach import TeachError, teach_face

    modes = sum(bool(x) for x in (args.face, args.camera, args.status, args.forget))
    if modes != 1:
        raise CliError("give one of: --face FACE IMAGE..., --camera SOURCE, --status, --forget FACE")
    if args.face and len(args.face) > 1:  # a second --face replaced the first without a word
        raise CliError(f"one --face per command (got {', '.join(f[0] for f in args.face)}): teach each face in "
                       "its own `companion teach` command; nothing was changed")
    args.face = args.face[0] if args.face else None
    if args.shots < 1:
        raise CliError("--shots must be at least 1")
    store = _store(args)
    try:
        if args.status:
            return _status(store, args.kind)
        if args.forget:
            return _forget(store, args.kind, args.forget)
        if args.camera:
            return _camera(store, args)
        face, images = check_face(args.kind, args.face[0]), args.face[1:]
        if not images:
            raise CliError(f"no images of the {face} face given: `--face {face} IMAGE...`, or use --camera")
        report = teach_face(store, args.kind, face, _load_images(images), add=args.add)
    except (TeachError, UnknownFace, DamagedStore) as exc:
        raise CliError(str(exc)) from None
    except StoreNotWritable as exc:
        raise CliError(f"{exc}: on a Pi the service reads them from its folder, which is open to the group "
                       f"companion: add yourself with `sudo usermod -aG companion $USER` and log in again "
                       f"(systemd/install.sh does it for the user who ran it), or give --state-dir") from None
    for line in report.lines():
        print(line)
    sys.stdout.flush()
    return 0
