"""Commands other distributions add to `linewise`, through the `linewise.commands` entry points."""

from __future__ import annotations

import sys
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from linewise.cli import COMMAND_GROUP, main

HELLO = """
def register(commands):
    hello = commands.add_parser("hello", help="say hello")
    hello.add_argument("--name", default="world")
    hello.set_defaults(handler=run)


def run(args, registry):
    print(f"hello {args.name}")
    return 0
"""


@pytest.fixture
def commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[EntryPoint]:
    """The installed `linewise.commands` entries, as the test sets them."""
    (tmp_path / "hello_command.py").write_text(textwrap.dedent(HELLO), encoding="utf-8")
    (tmp_path / "broken_command.py").write_text("raise RuntimeError('never imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    points: list[EntryPoint] = []
    monkeypatch.setattr(
        "linewise.plugins.discovery.installed_entry_points",
        lambda group: ([point for point in points if point.group == group], []),
    )
    yield points
    for name in ("hello_command", "broken_command"):
        sys.modules.pop(name, None)


def test_a_command_the_host_does_not_know_runs_from_its_entry_point(
    commands: list[EntryPoint], capsys: pytest.CaptureFixture[str]
) -> None:
    commands.append(EntryPoint("hello", "hello_command:register", COMMAND_GROUP))
    commands.append(EntryPoint("other", "broken_command:register", COMMAND_GROUP))
    assert main(["hello", "--name", "ada"]) == 0
    assert capsys.readouterr().out == "hello ada\n"
    # Only the entry named was loaded: the other one's module would have raised.
    assert "broken_command" not in sys.modules


def test_serve_without_its_extra_says_what_to_install(
    commands: list[EntryPoint], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--port", "9000"])
    assert stopped.value.code == 2
    assert "pip install 'linewise[serve]'" in capsys.readouterr().err


def test_a_command_whose_distribution_fails_to_load_says_why(
    commands: list[EntryPoint], capsys: pytest.CaptureFixture[str]
) -> None:
    commands.append(EntryPoint("other", "broken_command:register", COMMAND_GROUP))
    with pytest.raises(SystemExit) as stopped:
        main(["other"])
    assert stopped.value.code == 1
    assert "RuntimeError: never imported" in capsys.readouterr().err


def test_an_unknown_command_without_an_entry_is_refused_as_before(
    commands: list[EntryPoint], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["nonsense"])
    assert stopped.value.code == 2
    assert "invalid choice: 'nonsense'" in capsys.readouterr().err


def test_the_serve_extra_installs_the_serve_command(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("linewise_serve", reason="linewise[serve] is not installed")
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--help"])
    assert stopped.value.code == 0
    assert "--token" in capsys.readouterr().out
