"""A join code that cannot be saved (a full card, join.json gone) leaves the service up with a code for tonight."""
from __future__ import annotations

import argparse
import errno
import os

from companion.table.journal import Journal
from companion.web import cli_serve, joincode


def test_a_full_card_without_a_join_code_file_starts_with_a_code_kept_for_tonight_only(tmp_path, monkeypatch):
    """Before: `companion serve` died with an OSError traceback from joincode.py, and systemd restarted it into
    the same traceback for ever."""
    Journal(tmp_path).close()  # the journal was made on an earlier evening

    def no_room(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(joincode, "write_json", no_room)
    parser = argparse.ArgumentParser()
    cli_serve.add_arguments(parser)
    args = parser.parse_args(["--host", "127.0.0.1", "--port", "0", "--state-dir", str(tmp_path), "--settings", ""])
    _settings, service, app, _watchdog = cli_serve.build(args)
    try:
        codes = app.extensions["companion_join_codes"]
        assert codes.code.isdigit() and len(codes.code) == joincode.CODE_DIGITS
        assert codes.check(codes.code, "192.0.2.7")
        said = "\n".join(cli_serve.join_code_lines(codes))
        assert f"Join code: {codes.code}" in said
        assert "no room left where the games are kept" in said and "join again" in said, said
    finally:
        service.stop()
