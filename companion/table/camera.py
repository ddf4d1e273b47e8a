"""The camera feature of the service: the vision pipeline (companion.vision.live.DicePipeline) feeding the
table, and the pictures the page shows (the annotated live view, the photo of the last roll)."""
from __future__ import annotations

import importlib
from typing import Any, Callable


class CameraUnavailable(RuntimeError):
    pass


def open_camera(settings, sink: Callable[[Any], Any]):
    try:
        live = importlib.import_module("companion.vision.live")
    except ModuleNotFoundError as exc:
        raise CameraUnavailable(f"the camera pipeline is not part of this build ({exc.name} is missing)") from None
    if not hasattr(live, "open_pipeline"):
        raise CameraUnavailable("the camera pipeline of this build cannot be started by the service")
    return live.open_pipeline(settings, sink)
