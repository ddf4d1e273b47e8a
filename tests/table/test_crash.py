"""SIGKILL at random moments of a replayed game: after each restart the game goes on, and nothing that was
acknowledged is lost."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys

from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import replay, write_events
from companion.table.sessions import playout


def replay_cli(session, state_dir, resume):
    argv = [sys.executable, "-m", "companion", "replay", str(session), "--state-dir", str(state_dir), "--json",
            "--speed", "40"]
    return subprocess.Popen(argv + (["--resume"] if resume else []), stdout=subprocess.PIPE, text=True)


def test_killed_and_restarted_the_game_loses_nothing_acknowledged(tmp_path):
    events, final = playout("mountain-goats", 1)
    write_events(tmp_path / "session", events)
    state_dir = tmp_path / "state"
    rng = random.Random(2024)
    kills = 0
    resume = False
    while True:
        process = replay_cli(tmp_path / "session", state_dir, resume)
        kill_after = rng.randint(3, 30)
        acknowledged = -1
        result = None
        for line in process.stdout:
            data = json.loads(line)
            if data.get("done"):
                result = data
                break
            assert data["ok"], data
            acknowledged = data["position"]
            if kills < 4 and kill_after == 0:
                os.kill(process.pid, signal.SIGKILL)
                break
            kill_after -= 1
        process.stdout.close()
        process.wait(30)
        if result is not None:
            break
        kills += 1
        assert process.returncode == -signal.SIGKILL
        journal = Journal(state_dir)
        try:
            assert int(journal.meta("replay_position") or -1) >= acknowledged
        finally:
            journal.close()
        resume = True
    assert kills == 4
    assert result["over"] and result["scores"] == final.scores()
    table = Table(Journal(state_dir))
    assert table.game.state.to_json() == final.to_json()
    assert len(table.game.history) == len(final.history())
    table.journal.close()
