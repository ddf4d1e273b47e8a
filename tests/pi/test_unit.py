"""The service unit: `systemd-analyze verify` clean (any warning fails), and the options the Pi needs."""
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

UNIT = (ROOT / "systemd" / "companion.service").read_text()


def test_systemd_analyze_verify_is_clean(tmp_path):
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.replace("@VENV@", str(Path(sys.executable).parent.parent)))
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr.strip() == "" and proc.stdout.strip() == "", proc.stderr + proc.stdout


def settings(text):
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))


def test_unit_keeps_the_devices_and_restarts_on_failure():
    options = settings(UNIT)
    assert options["Type"] == "notify" and int(options["WatchdogSec"]) > 0
    assert options["Restart"] == "on-failure"
    assert {"gpio", "video"} <= set(options["SupplementaryGroups"].split())
    assert options["StateDirectory"] == "companion" and options["RuntimeDirectory"] == "companion"
    assert "LG_WD=/run/companion" in UNIT and options["WorkingDirectory"] == "/run/companion"
    assert "PrivateDevices" not in options and "DevicePolicy" not in options and "DeviceAllow" not in options
    assert options["User"] == "companion"
