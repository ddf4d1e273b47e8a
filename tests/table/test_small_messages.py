"""Small messages a person reads: a recording's impossible die, the replay's readers, a mistyped camera.tray."""
from __future__ import annotations

import pytest


def test_the_replays_unknown_reader_message_lists_every_reader(tmp_path):
    from companion.table.reread import RereadError, make_reader

    with pytest.raises(RereadError) as caught:
        make_reader("pipz", tmp_path)
    message = str(caught.value)
    assert "'pipz'" in message and all(kind in message for kind in ("pips", "fruit", "matcho", "truth")), message
