"""`companion serve --demo` on a fresh machine: a live game at the printed address, no hardware needed."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

from tests.waiting import wait_for


def test_the_demo_shows_a_live_game_at_the_printed_address(tmp_path):
    argv = [sys.executable, "-m", "companion", "serve", "--demo", "--host", "127.0.0.1", "--port", "0",
            "--state-dir", str(tmp_path), "--demo-speed", "20"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"The companion demo is on (http://\S+)", line)
        assert match, line
        url = match.group(1)
        with urllib.request.urlopen(url, timeout=10) as page:
            assert b"The companion" in page.read()
        states = []

        def moved_on() -> bool:
            with urllib.request.urlopen(url + "api/state", timeout=10) as reply:
                state = json.load(reply)
            if state["game"] and state["game"]["history_count"] > 2:
                states.append(state)
            return len(states) > 1 and states[-1]["version"] > states[0]["version"]

        wait_for(moved_on, "the demo game to move on by itself", timeout=60)
        assert states[-1]["game"]["name"] == "matterhorn" and "<svg" in states[-1]["game"]["board"]
        assert (tmp_path / "demo-sessions-v1" / "matterhorn" / "events.jsonl").exists()
    finally:
        process.terminate()
        process.wait(10)
    assert process.returncode == 0


def test_a_huge_request_is_refused_before_it_is_read(tmp_path):
    """Anyone on the network could otherwise make the service spool a gigabyte to the memory card."""
    import http.client

    argv = [sys.executable, "-m", "companion", "serve", "--demo", "--host", "127.0.0.1", "--port", "0",
            "--state-dir", str(tmp_path)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = re.search(r"is on http://(\S+?)/", process.stdout.readline()).group(1)
        connection = http.client.HTTPConnection(url, timeout=20)
        connection.putrequest("POST", "/api/command")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(500 * 1024 * 1024))
        connection.endheaders()  # and not one byte of the body
        reply = connection.getresponse()
        assert reply.status == 413
        connection.close()
    finally:
        process.terminate()
        process.wait(10)
