"""Every `companion ...` command the documents show is one the command line takes, as written: its options,
its choices and the arguments it requires; every `python -m companion...` tool they show has the options they
give it. A contributor, a hobbyist or a family copies them to the letter."""
from __future__ import annotations

import contextlib
import importlib
import io
import re
from pathlib import Path

import pytest

from companion.cli import COMMANDS, OneLineParser
from companion.games.registry import game_module

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *ROOT.glob("hardware/*.md"), *ROOT.glob("firmware/*.md"),
                    *ROOT.glob("models/*.md"), *ROOT.glob("systemd/*")])
COMMAND = re.compile(r"`(companion (?:%s)\b[^`]*)`|^(companion (?:%s)\b.*)$" % (("|".join(COMMANDS),) * 2), re.M)
# What stands for something else: [optional] parts, a|b choices, "and so on".
PLACEHOLDER = re.compile(r"[\[|{]|\.\.\.|…")
TOOL = re.compile(r"python3? -m (companion(?:\.\w+)+)([^`\n]*)")


def shown_commands() -> list[tuple[str, str]]:
    found = []
    for path in DOCUMENTS:
        for match in COMMAND.finditer(path.read_text(encoding="utf-8")):
            line = (match.group(1) or match.group(2)).split(" #")[0].strip()
            if len(line.split()) > 2 and not PLACEHOLDER.search(line):  # `companion teach` names the command only
                found.append((path.relative_to(ROOT).as_posix(), line))
    return found


def refusal(words: list[str]) -> str | None:
    """The parser's complaint about `companion WORDS...`, or None when it takes them."""
    name, rest = words[1], words[2:]
    parser = OneLineParser(prog=f"companion {name}")
    importlib.import_module(COMMANDS[name][0]).add_arguments(parser)
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            if name != "odds":
                parser.parse_intermixed_args(rest)
                return None
            args = parser.parse_args(rest)
            game = OneLineParser(prog=f"companion odds {args.game}")
            game_module(args.game).add_odds_arguments(game)
            game.add_argument("--json", action="store_true")
            game.parse_args(args.rest)
    except SystemExit as exc:
        return err.getvalue().strip() if exc.code else None
    return None


def test_the_documents_show_commands():
    shown = {path for path, _ in shown_commands()}
    assert {"README.md", "hardware/ASSEMBLY.md", "models/symbols-card.md"} <= shown


@pytest.mark.parametrize("path, line", shown_commands())
def test_a_command_a_document_shows_is_taken_as_written(path, line):
    words = line.split()
    problem = refusal(words)
    if problem and words[-1].startswith("--") and "expected one argument" in problem:
        return  # `companion read --rotate`: the text names an option, and says its value around it
    assert problem is None, f"{path}: `{line}`: {problem}"


def shown_tools() -> dict[str, set[str]]:
    """{module: the options the documents give it}."""
    tools: dict[str, set[str]] = {}
    for path in DOCUMENTS:
        for match in TOOL.finditer(path.read_text(encoding="utf-8")):
            options = re.findall(r"(?<![\w-])--[a-z][\w-]*", match.group(2).split(" #")[0])
            tools.setdefault(match.group(1), set()).update(options)
    return tools


@pytest.mark.parametrize("module", sorted(shown_tools()))
def test_a_tool_a_document_shows_takes_the_options_it_gives(module):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0 and "usage:" in done.stdout, done.stderr
    offered = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", done.stdout))
    assert sorted(shown_tools()[module] - offered) == []
