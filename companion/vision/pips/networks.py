"""Opens the pip reader's networks (ONNX files in models/) in ONNX Runtime, on one thread.

ONNX Runtime runs the detector's network twice as fast as `cv2.dnn` (1.9 against 4.2 ms for a 1280×720
frame shrunk to 320×180, on the development machine) and the classifiers 1.6 to 2 times as fast as the hand-written numpy convolutions
that ran them before (see models/pips-classifier.md). One thread, because the networks are small: a
second thread only adds hand-offs, and on a Pi the other cores serve the camera and the page.
"""
from __future__ import annotations

import sys
from pathlib import Path


def models_folder(code: Path = Path(__file__), prefix: str = sys.prefix) -> Path:
    """Where the shipped networks are: models/ of the checkout this code runs from, or, when the companion is
    installed as a package (`pip install .`, as systemd/install.sh does on the Pi), the copy pyproject's
    data-files puts in the environment, <prefix>/share/companion/models."""
    checkout = code.resolve().parents[3] / "models"
    return checkout if checkout.is_dir() else Path(prefix) / "share" / "companion" / "models"


class ModelMissing(FileNotFoundError):
    pass


class Network:
    """One ONNX network: `network(x)` is its first output for the input array `x`; `metadata` holds the
    key-value pairs the file carries beside its graph (the classifiers' temperature, input size and crop
    context)."""

    def __init__(self, session):
        self._session = session
        self._input = session.get_inputs()[0].name
        self.metadata: dict[str, str] = dict(session.get_modelmeta().custom_metadata_map)

    def __call__(self, x):
        return self._session.run(None, {self._input: x})[0]


def open_network(path: str | Path, made_by: str) -> Network:
    """The ONNX file at `path` in ONNX Runtime. A missing file raises `ModelMissing` naming the script that
    makes it (`made_by`); a file that is not a readable network raises `ValueError` naming the file."""
    try:
        import onnxruntime
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError("ONNX Runtime (the onnxruntime package) runs the pip reader's networks and is "
                                  "not installed: re-run the installer (systemd/install.sh) or pip install "
                                  "onnxruntime", name=error.name) from error
    path = Path(path)
    if not path.is_file():
        raise ModelMissing(f"the network {path} is missing (made by {made_by})")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    try:
        session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # ONNX Runtime raises its own types for a damaged or foreign file
        raise ValueError(f"{path} is not a network ONNX Runtime can read ({made_by} makes it): {error}") from error
    return Network(session)
