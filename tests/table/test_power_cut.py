"""A power cut is not a kill: the card may keep the last write of the journal's write-ahead log cut at any byte, or
with its tail zeroed. The companion starts on what the card kept with every step acknowledged before that write,
and the game goes on from there to the same end."""
from __future__ import annotations

import shutil

import pytest

from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import replay
from companion.table.sessions import playout

EVENTS, _ = playout("mountain-goats", 1)
STEPS = 24
LOG = Journal.FILE_NAME + "-wal"


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The journal's files as the power found them after the last step, and what had been acknowledged when the
    log was each length: [(its length, the replay's position, the steps shown)]."""
    live = tmp_path_factory.mktemp("live")
    table = Table(Journal(live)).start()
    acknowledged = [((live / LOG).stat().st_size, -1, 0)]

    def ack(position, outcome):
        assert outcome.ok, outcome.message
        acknowledged.append(((live / LOG).stat().st_size, position, len(table.view()["game"]["history"])))

    replay(EVENTS[:STEPS], table, fast=True, on_ack=ack)
    table.stop()
    cut = tmp_path_factory.mktemp("as-the-power-went")
    for name in (Journal.FILE_NAME, LOG):
        shutil.copy(live / name, cut)
    table.journal.close()
    return cut, acknowledged, table.game.state.to_json()


def kept(cut, tmp_path, length, zeroed):
    """The folder as the card kept it: the log cut at `length`, or zeroed from there."""
    folder = tmp_path / f"{length}-{zeroed}"
    shutil.copytree(cut, folder)
    log = (cut / LOG).read_bytes()
    (folder / LOG).write_bytes(log[:length] + (b"\0" * (len(log) - length) if zeroed else b""))
    return folder


def lengths(acknowledged):
    """Each length the log had when a step was acknowledged, a byte either side, and halfway to the next."""
    ends = [length for length, _, _ in acknowledged]
    return sorted({n for a, b in zip(ends, ends[1:]) for n in (a - 1, a, a + 1, (a + b) // 2)} | {ends[-1]})


@pytest.mark.parametrize("zeroed", [False, True], ids=["cut", "zeroed"])
def test_every_step_acknowledged_before_the_torn_write_is_kept_and_nothing_after_it(evening, tmp_path, zeroed):
    cut, acknowledged, _ = evening
    for length in lengths(acknowledged):
        _, position, steps = max((a for a in acknowledged if a[0] <= length), default=(0, -1, 0))
        journal = Journal(kept(cut, tmp_path, length, zeroed))
        try:
            table = Table(journal)
            assert (table.replay_position, len(table.game.history) if table.game else 0) == (position, steps), length
        finally:
            journal.close()


def test_the_game_goes_on_after_a_torn_write_to_the_same_end(evening, tmp_path):
    cut, acknowledged, whole = evening
    for length, _, _ in acknowledged[1::5]:
        journal = Journal(kept(cut, tmp_path, length + 1, zeroed=False))
        table = Table(journal).start()
        try:
            refused = []
            replay(EVENTS[:STEPS], table, fast=True, after=table.replay_position,
                   on_ack=lambda position, outcome: refused.append(outcome.message) if not outcome.ok else None)
            assert not refused and table.game.state.to_json() == whole, length
        finally:
            table.stop()
            journal.close()
