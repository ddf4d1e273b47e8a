"""The demo's cached files (each game's events.jsonl, the filmed pictures and their `done` marker) after a
power cut during the first demo start: written durably with the marker last, and what a power cut left
damaged anyway (an empty picture, a cut-short session) is skipped or made again, never the end of the demo."""
from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from companion.events import DiceSettled
from companion.table.demo import DEMO_PLAYERS, DEMO_SEEDS, demo_sessions
from companion.table.recording import EVENTS_FILE, read_events, write_events
from companion.table.sessions import generate, playout

from companion.table.demo_camera import DONE_MARKER, DemoCamera, Film  # noqa: E402


@pytest.fixture
def short_session(tmp_path):
    """Two rolls of Mountain Goats: eight pictures."""
    events = playout("mountain-goats", 1)[0]
    rolls = [i for i, e in enumerate(events) if isinstance(e, DiceSettled)]
    events = events[:rolls[2]]
    directory = tmp_path / "mountain-goats"
    write_events(directory, events)
    return directory, events


class FsyncLog:
    """Every os.fsync (by the path of the file or folder synced) and os.replace, in order."""

    def __init__(self, monkeypatch):
        self.entries: list[tuple] = []
        real_fsync, real_replace = os.fsync, os.replace

        def fsync(fd):
            self.entries.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
            return real_fsync(fd)

        def replace(src, dst, **kwargs):
            self.entries.append(("replace", str(src), str(dst)))
            return real_replace(src, dst, **kwargs)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)

    def written_durably(self, path: Path) -> int:
        """Where `path` was renamed into place, after its data were synced; asserts the folder is synced
        after that; returns the position of that folder sync."""
        renames = [i for i, e in enumerate(self.entries) if e[0] == "replace" and e[2] == str(path)]
        assert renames, f"{path} was not renamed into place"
        at = renames[-1]
        source = self.entries[at][1]
        assert ("fsync", source) in self.entries[:at], f"{path}: its data were not synced before the rename"
        after = [i for i, e in enumerate(self.entries) if i > at and e == ("fsync", str(path.parent))]
        assert after, f"{path}: its folder was not synced after the rename"
        return after[0]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name the synced files")
def test_the_pictures_and_then_their_marker_are_written_durably(short_session, monkeypatch):
    directory, events = short_session
    log = FsyncLog(monkeypatch)
    film = Film(directory, events, 11)
    assert film.shoot() and film.done
    pictures = [film.path_of(shot) for shot in film.shots]
    assert len(pictures) == 8
    last_picture_safe = max(log.written_durably(p) for p in pictures)
    marker_renamed = [i for i, e in enumerate(log.entries) if e[0] == "replace"
                      and e[2] == str(film.folder / DONE_MARKER)][0]
    assert last_picture_safe < marker_renamed, "the marker only once every picture is on the card"
    log.written_durably(film.folder / DONE_MARKER)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name the synced files")
def test_the_demo_sessions_are_written_durably(tmp_path, monkeypatch):
    log = FsyncLog(monkeypatch)
    sessions = demo_sessions(tmp_path)
    assert sessions
    for directory in sessions:
        log.written_durably(directory / EVENTS_FILE)


@pytest.mark.parametrize("damage", [b"", b"\0" * 1024, b"not a picture"], ids=["empty", "zeros", "garbage"])
def test_a_picture_that_cannot_be_read_is_skipped_told_once_and_drawn_again(short_session, caplog, damage):
    directory, events = short_session
    film = Film(directory, events, 11)
    film.shoot()
    first, second, third = film.shots[:3]
    film.path_of(second).write_bytes(damage)   # what a power cut could leave of a picture renamed in unsynced
    film.path_of(third).write_bytes(damage)
    camera = DemoCamera()
    camera.show(film, first)
    shown = camera.latest_jpeg()
    assert shown
    with caplog.at_level(logging.WARNING, logger="companion.table.demo_camera"):
        camera.show(film, second)  # used to raise cv2.error on the demo thread, ending the demo for good
        camera.show(film, third)
        camera.show(film, second)
    assert camera.latest_jpeg() == shown and camera.shown() is first, "the picture before stays on view"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert str(film.path_of(second)) in warnings[0].getMessage()
    assert not film.done, "the film is drawn again at the next start"
    again = Film(directory, events, 11)
    assert again.shoot() and again.done
    camera.show(again, again.shots[1])
    assert camera.latest_jpeg() != shown and camera.shown() is again.shots[1]


def whole(name: str) -> list[dict]:
    return [e.to_json() for e in generate(name, DEMO_SEEDS[name], DEMO_PLAYERS[name])]


@pytest.mark.parametrize("damage", ["cut-short", "empty", "zeros", "lines-lost"])
def test_a_damaged_cached_session_is_made_again_and_its_film_with_it(tmp_path, damage, caplog):
    sessions = {d.name: d for d in demo_sessions(tmp_path)}
    damaged, kept = sessions["matterhorn"], sessions["mountain-goats"]
    events_file = damaged / EVENTS_FILE
    text = events_file.read_bytes()
    events_file.write_bytes({"cut-short": text[:len(text) // 2],     # ends inside a line
                             "empty": b"",
                             "zeros": b"\0" * len(text),
                             "lines-lost": text[:text.index(b"\n", len(text) // 2) + 1]}[damage])  # whole lines
    (damaged / "camera").mkdir()
    (damaged / "camera" / DONE_MARKER).write_text("12 frames\n")  # a film of the damaged session
    kept_written = (kept / EVENTS_FILE).stat().st_mtime_ns
    with caplog.at_level(logging.WARNING, logger="companion.table.demo"):
        again = {d.name: d for d in demo_sessions(tmp_path)}
    assert again == sessions
    assert [e.to_json() for e in read_events(damaged)] == whole("matterhorn")
    assert not (damaged / "camera" / DONE_MARKER).exists(), "its film is drawn again, from the whole session"
    assert (kept / EVENTS_FILE).stat().st_mtime_ns == kept_written, "a whole session is kept as it is"
    assert any("matterhorn" in r.getMessage() for r in caplog.records)


def test_the_demo_plays_on_whatever_showing_a_picture_raises(short_session, caplog):
    """The pictures are a nicety: the demo thread outlives any camera failure, told once."""
    import threading
    from concurrent.futures import Future
    from types import SimpleNamespace

    from companion.table.demo import DemoPlayer

    directory, events = short_session
    submitted: list = []
    all_played = threading.Event()

    def submit(event):
        submitted.append(event)
        if len(submitted) == 2 * len(events):
            all_played.set()
        done = Future()
        done.set_result(None)
        return done

    class BrokenCamera:
        def film(self, directory, events, seed):
            return SimpleNamespace(shots=[SimpleNamespace(t=e.t) for e in events[1:4]], shoot=lambda stop: True)

        def show(self, film, shot):
            raise RuntimeError("a camera that fails")

        def clear(self):
            pass

    table = SimpleNamespace(submit=submit, journal=SimpleNamespace(forget_finished_games=lambda keep: None))
    with caplog.at_level(logging.ERROR, logger="companion.table.demo"):
        player = DemoPlayer(table, [directory], speed=1e6, pause_s=0, camera=BrokenCamera()).start()
        try:
            assert all_played.wait(30), f"the demo stopped after {len(submitted)} events"
        finally:
            player.stop()
    assert len([r for r in caplog.records if "could not show" in r.getMessage()]) == 1
