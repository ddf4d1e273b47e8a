"""The companion as systemd/install.sh installs it on the Pi (`pip install .` into a venv, not an editable
checkout) still finds the pip reader's networks, which live in models/ beside their training scripts."""
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from companion.vision.pips.networks import models_folder

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted(path.name for path in (REPO / "models").glob("*.onnx"))


def test_a_checkout_reads_its_own_models_folder():
    assert models_folder() == REPO / "models"


def test_an_installed_package_reads_the_copy_in_its_environment(tmp_path):
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    code = site / "companion" / "vision" / "pips" / "networks.py"
    assert models_folder(code, str(tmp_path / "venv")) == tmp_path / "venv" / "share" / "companion" / "models"


def source_copy(folder: Path) -> Path:
    """What the wheel is built from, copied: setuptools builds in the source folder, and its build/ and
    companion.egg-info/ left in the checkout would be shipped, stale, by a later `pip install` of it."""
    folder.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, folder / name)
    shutil.copytree(REPO / "companion", folder / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "models").mkdir()
    for network in (REPO / "models").glob("*.onnx"):
        shutil.copy(network, folder / "models" / network.name)
    return folder


@pytest.mark.slow
def test_the_installed_companion_reads_dice_with_its_networks(tmp_path):
    wheels, venv = tmp_path / "wheels", tmp_path / "venv"
    leftovers = {path for path in (REPO / "build", REPO / "companion.egg-info") if path.exists()}
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source_copy(tmp_path / "source")), "--no-deps", "-q",
                    "-w", str(wheels)], check=True, capture_output=True)
    assert {path for path in (REPO / "build", REPO / "companion.egg-info") if path.exists()} == leftovers
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", *map(str, wheels.glob("*.whl"))],
                   check=True, capture_output=True)
    installed = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                    check=True, capture_output=True, text=True).stdout.strip())
    (installed / "libraries.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # numpy, OpenCV, ONNX Runtime
    assert sorted(path.name for path in (venv / "share" / "companion" / "models").glob("*.onnx")) == SHIPPED

    photos = REPO.parent / "shared" / "data" / "dice-real" / "matteop65-d6"
    if not photos.is_dir():
        pytest.skip(f"the real photos are not at {photos}")
    labels = [json.loads(line) for line in (photos / "labels.jsonl").read_text().splitlines() if line.strip()]
    image = str(photos / next(label["image"] for label in labels if len(label["dice"]) >= 4))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([str(venv / "bin" / "companion"), "read", image, "--json"], cwd=tmp_path, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    installed_dice = json.loads(result.stdout)["dice"]
    from companion.vision.readers import get_reader

    import cv2
    checkout_dice = [die.to_json() for die in get_reader("pips").read(cv2.imread(image))]
    assert len(installed_dice) >= 4 and [d["value"] for d in installed_dice] == [d["value"] for d in checkout_dice]
