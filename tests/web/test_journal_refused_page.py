"""A journal refused at start (the memory card damaged it, or lost it beside its write-ahead log): `companion serve`
ended and systemd started it again every 3 s, so every phone at the table said "cannot connect" and no one saw
why. It stays up and every phone is told what was found, that nothing was deleted and what to do; no game can be
started, and nothing is written to the refused journal."""
from __future__ import annotations

import json
import shutil
import sqlite3
import urllib.error
import urllib.request

import pytest

from companion.table.journal import Journal
from companion.table.owner import Table
from tests.table.test_journal_damage import play_a_game, zero_page
from tests.web.conftest import CompanionProcess
from tests.web.test_browser import browser, open_page  # noqa: F401

START = {"do": "start", "game": "matterhorn", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def damaged(games) -> None:
    play_a_game(games)
    zero_page(games / Journal.FILE_NAME, "middle")


def emptied_beside_its_log(games) -> None:
    """As the power went with the companion running, and the card kept the log but not the journal file."""
    live = games.parent / "live"
    table = Table(Journal(live)).start()
    assert table.request(START).ok
    table.stop()
    games.mkdir()
    shutil.copy(live / "journal.sqlite3-wal", games)
    table.journal.close()
    (games / Journal.FILE_NAME).write_bytes(b"")


def from_a_newer_companion(games) -> None:
    """A companion put back to an older version (a backup of the memory card) on the games a newer one wrote."""
    Journal(games).close()
    db = sqlite3.connect(games / Journal.FILE_NAME)
    db.execute("PRAGMA user_version=2")
    db.close()


def answer(url: str, command: dict | None = None) -> tuple[int, str]:
    data = None if command is None else json.dumps(command).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name.startswith(Journal.FILE_NAME)}


@pytest.mark.parametrize("harm, found, fix", [
    (damaged, "is damaged", "Move it away"),
    (emptied_beside_its_log, "is empty, but its write-ahead log", "Keep a copy of the folder first"),
    (from_a_newer_companion, "was written by a newer companion", "Update the companion")])
def test_a_refused_journal_is_said_on_the_page_and_the_api_and_nothing_is_written(tmp_path, harm, found, fix):
    companion = CompanionProcess(tmp_path)
    games = tmp_path / "games"
    harm(games)
    before = files(games)
    process = companion.start()
    try:
        status, page = answer(companion.base + "/")
        assert status == 503 and "The game journal could not be opened" in page
        assert f"{games / Journal.FILE_NAME} {found}" in page
        assert "Nothing was deleted" in page and fix in page and "sudo systemctl restart companion" in page
        status, body = answer(companion.base + "/api/state")
        assert status == 503 and found in json.loads(body)["message"]
        status, body = answer(companion.base + "/api/command", START)
        assert status == 503 and "no game can be played" in json.loads(body)["message"]
        assert process.poll() is None, "the companion stays up to say so"
        assert files(games) == before, "the refused journal is left exactly as it was"
    finally:
        process.terminate()
        assert process.wait(20) == 0
    assert files(games) == before


def test_a_page_open_at_the_table_says_it_when_the_companion_comes_back_with_a_damaged_journal(browser, tmp_path):
    """The power went mid-game, and the card damaged the journal: the phone left open on the game tells the
    family, and a phone opening the page fresh too, with no game to start."""
    companion = CompanionProcess(tmp_path)
    games = tmp_path / "games"
    play_a_game(games)
    process = companion.start()
    page = None
    try:
        page, errors = open_page(browser, companion.base, "phone")
        page.wait_for_selector("#live:not([hidden])")
        process.terminate()
        process.wait(20)
        zero_page(games / Journal.FILE_NAME, "middle")
        process = companion.start()
        page.wait_for_selector("text=The game journal could not be opened", timeout=30_000)
        assert "is damaged" in page.text_content("#found")
        assert "Nothing was deleted" in page.text_content("main")
        assert errors == []
        fresh, errors = open_page(browser, companion.base, "phone", ready="#refused")
        assert fresh.locator("button").count() == 0, "no game can be started"
        assert "sudo systemctl restart companion" in fresh.text_content("#fix")
        fresh.close()
        assert errors == []
    finally:
        if page is not None:
            page.close()
        process.terminate()
        process.wait(20)
