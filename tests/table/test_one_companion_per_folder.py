"""One companion per games folder: a second one (started by hand beside the service, or a replay pointed at
the live folder) is refused in plain words, and the game in play goes on untouched."""
from __future__ import annotations

import os
import subprocess
import sys
import urllib.request

import pytest

from companion.table.journal import Journal, JournalError
from companion.table.owner import Table
from companion.table.recording import write_events
from companion.table.sessions import playout
from tests.conftest import NO_SETTINGS

START = {"do": "start", "game": "fake-race", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def test_a_second_journal_on_the_same_games_is_refused_until_the_first_is_closed(tmp_path):
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request(START).ok
        with pytest.raises(JournalError, match=rf"the games in {tmp_path} are open in another companion "
                                               rf"\(process {os.getpid()}\): stop it first"):
            Journal(tmp_path)
        assert table.request({"do": "dice", "values": [3, 4]}).ok, "the game in play goes on"
    finally:
        table.stop()
        table.journal.close()
    again = Table(Journal(tmp_path))
    try:
        assert len(again.view()["game"]["history"]) == 1
    finally:
        again.journal.close()


def test_the_demo_does_not_wipe_the_journal_of_a_demo_still_running(tmp_path):
    running = Journal(tmp_path, fresh=True)
    try:
        table = Table(running).start()
        assert table.request(START).ok
        with pytest.raises(JournalError, match="open in another companion"):
            Journal(tmp_path, fresh=True)
        assert table.request({"do": "dice", "values": [3, 4]}).ok, "the running demo's game goes on"
        table.stop()
    finally:
        running.close()
    kept = Table(Journal(tmp_path))  # what the running demo wrote is still in its folder
    try:
        assert kept.view()["game"]["name"] == "fake-race" and len(kept.view()["game"]["history"]) == 1
    finally:
        kept.journal.close()
    assert Table(Journal(tmp_path, fresh=True)).view()["game"] is None, "a demo that starts alone starts afresh"


def companion(*argv, env=None, **popen):
    return subprocess.Popen([sys.executable, "-m", "companion", *argv], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


def finished(process) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        raise AssertionError(f"still running after a minute: {err}") from None
    return process.returncode, err


def test_a_service_started_by_hand_beside_the_running_one_is_refused_and_the_page_stays_up(tmp_path):
    state = tmp_path / "games"
    env = {**os.environ, "COMPANION_SETTINGS": str(NO_SETTINGS), "COMPANION_SERVICE_HOST": "127.0.0.1",
           "COMPANION_SERVICE_MDNS": "off", "COMPANION_SERVICE_STATE_DIR": str(state),
           "COMPANION_CAMERA_SOURCE": str(tmp_path / "no-camera-here"), "COMPANION_SENSORS_BACKEND": "none"}
    first = companion("serve", "--port", "0", env=env)
    try:
        url = None
        while url is None:
            line = first.stdout.readline()
            assert line, first.stderr.read()
            if " is on " in line:
                url = line.split(" is on ")[1].split()[0]
        code, err = finished(companion("serve", "--port", "0", env=env))
        assert code == 2
        assert err.strip().endswith(f"companion serve: the games in {state} are open in another companion "
                                    f"(process {first.pid}): stop it first (on the Pi: `sudo systemctl stop "
                                    "companion`), or give this one another --state-dir"), err

        events, _ = playout("mountain-goats", 1)
        write_events(tmp_path / "session", events)
        code, err = finished(companion("replay", str(tmp_path / "session"), "--state-dir", str(state), "--fast",
                                       env=env))
        assert code == 2 and "are open in another companion" in err, err

        with urllib.request.urlopen(url + "api/health", timeout=10) as reply:
            assert reply.status == 200
    finally:
        first.terminate()
        first.wait(timeout=20)
