"""Sessions recorded at a table, kept as tests: each folder of tests/table/recorded holds a recording's
events.jsonl (`companion record --out DIR`) and expected.json, what `companion replay DIR --fast --json` must end
with: any of its result's keys (game, over, scores, winners, steps, refused). The README's "A bug you saw, as a
test" says how a contributor adds one."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

RECORDED = Path(__file__).parent / "recorded"


def replay_result(run_cli, folder: Path) -> tuple[dict, list[str]]:
    """The replay's result line, and every event it refused, named by position as `--json` names them."""
    code, out, err = run_cli("replay", str(folder), "--fast", "--json")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    refused = [f"position {line['position']} ({line['type']}): {line['message']}" for line in lines[:-1]
               if not line["ok"]]
    return lines[-1], refused


@pytest.mark.parametrize("folder", sorted(p for p in RECORDED.iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_a_recorded_session_replays_as_expected(run_cli, folder):
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    result, refused = replay_result(run_cli, folder)
    unknown = sorted(set(expected) - set(result))
    assert not unknown, f"{folder.name}/expected.json: no such result {unknown}; the result has {sorted(result)}"
    assert {key: result[key] for key in expected} == expected, "\n".join(refused)


def test_a_session_that_ends_otherwise_than_expected_fails_with_the_refused_events(run_cli, tmp_path):
    """What a contributor sees while the bug is there: the test fails, naming the events the game refused."""
    import shutil

    folder = tmp_path / "bug"
    shutil.copytree(RECORDED / "magic-mountain-seed-1", folder)
    lines = (folder / "events.jsonl").read_text().splitlines(keepends=True)
    (folder / "events.jsonl").write_text("".join(lines[:2] + lines[1:]))  # the first ball drawn twice
    result, refused = replay_result(run_cli, folder)
    assert result["refused"] == 1 and len(refused) == 1 and refused[0].startswith("position 2 (player_action): ")
