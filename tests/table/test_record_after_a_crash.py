"""`companion record` ended by a power cut (here kill -9) mid-evening, then run again on the same --out, as a
person does after switching the Pi back on: what was recorded is never written over, and the refusal says what is
there and what to do (a new folder; the game goes on from the journal)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

from tests.conftest import NO_SETTINGS


def lines(path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_record_run_again_after_a_kill_keeps_the_recording_and_says_to_record_on_into_a_new_folder(tmp_path,
                                                                                                     run_cli):
    camera, out, games = tmp_path / "filmed", tmp_path / "evening", tmp_path / "games"
    code, _, err = run_cli("record", "--out", str(camera), "--synthetic", "matterhorn", "--frames")
    assert code == 0, err
    env = {**os.environ, "COMPANION_SETTINGS": str(NO_SETTINGS), "COMPANION_SERVICE_MDNS": "off",
           "COMPANION_SENSORS_BACKEND": "none", "COMPANION_CAMERA_SOURCE": str(camera)}
    command = [sys.executable, "-m", "companion", "record", "--out", str(out), "--host", "127.0.0.1", "--port", "0",
               "--state-dir", str(games)]
    recording = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = recording.stdout.readline()
        assert " is on " in said, said + recording.stdout.read()
        while lines(out / "events.jsonl") < 3 or lines(out / "frames.jsonl") < 3:
            assert recording.poll() is None, recording.stdout.read()
            time.sleep(0.2)
    finally:
        recording.send_signal(signal.SIGKILL)
        recording.wait(20)
    kept = files(out)
    events = lines(out / "events.jsonl")

    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 2
    assert files(out) == kept, "the recording cut short is left exactly as it was"
    message = again.stderr
    assert re.search(rf"{out} holds a recording already \({events} events, \d+ camera frames\)", message), message
    assert f"kept as it is: to record, give a new folder (e.g. --out {out}-2)" in message
    assert "After a power cut or a crash, the game goes on from the journal" in message

    replayed = subprocess.run([sys.executable, "-m", "companion", "replay", str(out), "--fast"], env=env,
                              capture_output=True, text=True, timeout=300)
    assert replayed.returncode == 0 and f"replayed {events} events" in replayed.stdout, replayed.stderr
