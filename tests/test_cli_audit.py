"""The command line's audit: bad input is one line on stderr and a non-zero exit, never a traceback; output
cut short by its reader ends quietly; a refused command leaves nothing behind."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _one_line(err: str) -> bool:
    return err.strip() != "" and "\n" not in err.strip() and "Traceback" not in err


# 1. A reader gone before anything was written (`... | head -0`).
@pytest.mark.parametrize("argv", [["odds", "mountain-goats", "--json"],
                                  ["explain", "mountain-goats", "1", "2", "3", "4", "--json"]])
def test_output_cut_short_before_any_write_ends_quietly(argv):
    """Small outputs were only written at interpreter exit, outside main's BrokenPipeError handler: exit
    code 120 and "Exception ignored ... BrokenPipeError". (Buffered as from a shell: PYTHONUNBUFFERED, set in
    some test runs, wrote at once and hid it.)"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "companion", *argv], stdout=write_end,
                                stderr=subprocess.PIPE, cwd=ROOT, env=env)
    finally:
        os.close(write_end)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err.decode()) == (141, "")


# 2. A tray of inf or 1e309.
@pytest.mark.parametrize("text", ["0,0,inf,1", "0,0,1e309,100", "-inf,0,1,1"])
def test_a_tray_that_is_not_finite_is_refused_by_name(text):
    from companion.vision.tray import parse_tray

    with pytest.raises(ValueError, match=rf"bad tray '{text}': every corner must be a finite number"):
        parse_tray(text)


def test_read_with_a_tray_of_inf_is_one_line(run_cli, tmp_path):
    import cv2
    import numpy as np

    image = tmp_path / "a.png"
    cv2.imwrite(str(image), np.full((60, 80, 3), 200, np.uint8))
    code, out, err = run_cli("read", str(image), "--tray", "0,0,1e309,100", "--json")
    assert code == 2 and out == "" and _one_line(err) and "bad tray '0,0,1e309,100'" in err, err


# 3. Ports out of range, a host that does not resolve.
@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_replay_port_out_of_range_is_refused(run_cli, tmp_path, port):
    from companion.table.recording import write_events
    from companion.table.sessions import playout

    write_events(tmp_path / "s", playout("magic-mountain", 1)[0])
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--serve", "--port", port)
    assert code == 2 and out == "" and _one_line(err), err
    assert f"argument --port: must be from 0 to 65535 (0: any free port), got {port}" in err


def test_serve_port_out_of_range_is_refused_as_it_parses(run_cli, tmp_path):
    code, _, err = run_cli("serve", "--demo", "--port", "99999", "--state-dir", str(tmp_path))
    assert code == 2 and _one_line(err) and "argument --port: must be from 0 to 65535" in err, err


def test_serve_on_a_host_that_does_not_resolve_names_it(tmp_path, monkeypatch):
    import argparse

    from companion.cli import CliError
    from companion.web import cli_serve

    monkeypatch.setenv("COMPANION_SERVICE_MDNS", "off")
    parser = argparse.ArgumentParser()
    cli_serve.add_arguments(parser)
    args = parser.parse_args(["--demo", "--host", "nonsense.invalid", "--port", "0", "--state-dir",
                              str(tmp_path / "state"), "--settings", ""])
    with pytest.raises(CliError, match=r"cannot listen on nonsense\.invalid:0"):
        cli_serve.run(args)


# 4. A refused recording leaves nothing behind, and says nothing was recorded.
def test_a_refused_record_leaves_no_directory_and_the_retry_is_not_refused(run_cli, tmp_path):
    out = tmp_path / "recx"
    code, text, err = run_cli("record", "--out", str(out), "--port", "99999")
    assert code == 2 and text == "" and _one_line(err) and not out.exists(), err
    settings = tmp_path / "s.toml"
    settings.write_text("[service]\nmax_streams = 8\nthreads = 4\n")  # refused once the service is built
    code, text, err = run_cli("record", "--out", str(out), "--settings", str(settings), "--host", "127.0.0.1",
                              "--port", "0", "--state-dir", str(tmp_path / "state"))
    assert code == 2 and "recorded" not in text and _one_line(err) and "max_streams" in err, err
    assert not out.exists()
    out.mkdir()  # given empty: emptied again, kept
    code, text, err = run_cli("record", "--out", str(out), "--settings", str(settings), "--host", "127.0.0.1",
                              "--port", "0", "--state-dir", str(tmp_path / "state"))
    assert code == 2 and "recorded" not in text and out.is_dir() and not any(out.iterdir())
    code, _, err = run_cli("record", "--out", str(tmp_path / "f"), "--frames")
    assert code == 2 and "--frames goes with --synthetic" in err and not (tmp_path / "f").exists()
    code, _, err = run_cli("record", "--out", str(out), "--synthetic", "matterhorn")
    assert code == 0, err


# 5. Speeds and times that are not finite numbers above 0.
@pytest.mark.parametrize("value", ["nan", "1e309", "inf", "0", "-2", "soon"])
def test_serve_demo_speed_must_be_finite_and_positive(run_cli, tmp_path, value):
    code, out, err = run_cli("serve", "--demo", "--demo-speed", value, "--state-dir", str(tmp_path))
    assert code == 2 and out == "" and _one_line(err) and "argument --demo-speed: must be a" in err, err


@pytest.mark.parametrize("value", ["nan", "1e309", "0"])
def test_sensors_seconds_must_be_finite_and_positive(run_cli, value):
    code, out, err = run_cli("sensors", "test", "--backend", "none", "--seconds", value)
    assert code == 2 and out == "" and _one_line(err) and "argument --seconds: must be a" in err, err


# 6. Players out of the game's range.
@pytest.mark.parametrize("players", ["-1", "0", "9"])
def test_record_players_out_of_range_names_the_number_given(run_cli, tmp_path, players):
    code, _, err = run_cli("record", "--out", str(tmp_path / "o"), "--synthetic", "matterhorn", "--players", players)
    assert code == 2 and _one_line(err) and f"Matterhorn takes 2–4 players, got {players}" in err, err
    assert not (tmp_path / "o").exists()


# 7. explain: only games that have one, and only their own options.
def test_explain_help_offers_only_games_with_an_explain(run_cli):
    code, out, _ = run_cli("explain", "--help")
    assert code == 0 and "mountain-goats" in out and "magic-mountain" not in out
    code, _, err = run_cli("explain", "magic-mountain", "3")
    assert code == 2 and "explain is not available for magic-mountain" in err


@pytest.mark.parametrize("game, values, title", [("matterhorn", ["1"], "Matterhorn"),
                                                  ("banana-matcho", ["banana"] * 6, "Banana Matcho")])
def test_explain_refuses_the_big_mountain_for_other_games(run_cli, game, values, title):
    code, out, err = run_cli("explain", game, *values, "--big-mountain")
    assert code == 2 and out == "" and _one_line(err), err
    assert err.strip() == f"companion explain: --big-mountain is for Mountain Goats, not {title}"
    code, _, _ = run_cli("explain", "mountain-goats", "1", "2", "3", "4", "--big-mountain")
    assert code == 0


# 8. sensors test: failures are a failure.
def test_sensors_that_cannot_be_opened_fail_the_test(run_cli, monkeypatch):
    import gpiozero

    def refuse(*_, **__):
        raise gpiozero.BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(gpiozero, "DigitalInputDevice", refuse)
    code, out, _ = run_cli("sensors", "test", "--backend", "gpio", "--seconds", "0.3")
    lines = out.splitlines()
    assert code == 1
    assert "8 sensors could not be opened (banana, gate1" in lines[-1] and lines[-1].startswith("stopped:")
    times = [float(line.split(" s  ", 1)[0]) for line in lines if " s  " in line]
    assert len(times) == 9 and min(times) >= 0, out  # what to do, once under gpio, then each sensor


def test_sensors_with_no_hub_say_it_is_not_connected(run_cli, tmp_path):
    code, out, _ = run_cli("sensors", "test", "--backend", "hub", "--hub-port", str(tmp_path / "no-such-tty"),
                           "--seconds", "0.5")
    lines = out.splitlines()
    assert code == 1 and "=idle" not in out, out
    assert any(line.strip() == "hub not connected: no sensor can be seen" for line in lines)
    assert lines[-1].endswith("FAILED: the hub is not connected, so no sensor was seen")


# 9. teach: a state dir that is a file.
@pytest.mark.parametrize("below", ["", "sub"])
def test_teach_refuses_a_state_dir_that_is_a_file(run_cli, tmp_path, below):
    (tmp_path / "a.jpg").write_bytes(b"not a folder")
    state_dir = tmp_path / "a.jpg" / below if below else tmp_path / "a.jpg"
    code, out, err = run_cli("teach", "fruit", "--status", "--state-dir", str(state_dir))
    assert code == 2 and out == "" and _one_line(err) and f"{state_dir} is not a directory" in err, err


def test_the_games_explain_lists_are_those_with_an_explain():
    import importlib

    from companion.games.cli_explain import EXPLAINED
    from companion.games.registry import GAME_MODULES

    assert set(EXPLAINED) == {name for name, module in GAME_MODULES.items()
                              if hasattr(importlib.import_module(module), "explain")}
