"""Start-up of the linewise command: a subcommand imports its own module only, help lists all."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest
from linewise import render as renderers
from linewise.cli import COMMANDS, build_parser, chosen_command, main


def _modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_list_imports_no_other_subcommand() -> None:
    loaded = _modules_after(
        "from linewise.cli import main\ntry:\n    main(['list'])\nexcept SystemExit:\n    pass"
    )
    others = {
        f"linewise.cli.commands.{module}" for name, module in COMMANDS.items() if name != "list"
    }
    assert "linewise.cli.commands.listing" in loaded
    assert not loaded & others


def test_render_jsonl_imports_neither_the_text_renderers_nor_other_subcommands() -> None:
    loaded = _modules_after(
        "import os, tempfile\nfrom linewise.cli import main\n"
        "path = os.path.join(tempfile.mkdtemp(), 'one.log')\n"
        "open(path, 'w').write('hello\\n')\n"
        "main(['render', path, '-a', 'process', '-f', 'jsonl', '-q'])"
    )
    assert "linewise.render.jsonl" in loaded
    assert not loaded & {"linewise.render.text", "linewise.render.compact"}
    assert not loaded & {
        "linewise.cli.commands.listing",
        "linewise.cli.commands.exporting",
        "linewise.cli.commands.running",
    }
    # A named adapter type needs no detection, nor pluggy, which serves the sniffers.
    assert not loaded & {"linewise.stream.detect", "pluggy", "packaging"}


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert f"\n    {name} " in out, name


def test_each_table_line_names_the_command_its_module_registers() -> None:
    for name, module in COMMANDS.items():
        parser = build_parser(name)
        subparsers = next(
            action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
        )
        assert list(subparsers.choices) == [name]
        command = subparsers.choices[name]
        handlers = [command.get_default("handler")]
        if handlers == [None]:  # a command of commands (`linewise js add`): each has one
            nested = next(
                action
                for action in command._actions
                if isinstance(action, argparse._SubParsersAction)
            )
            handlers = [sub.get_default("handler") for sub in nested.choices.values()]
        for handler in handlers:
            assert handler.__module__.startswith("linewise.cli."), name
        assert f"linewise.cli.commands.{module}" in sys.modules


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["list"], "list"),
        (["-v", "render", "x"], "render"),
        (["--verbose", "list", "--json"], "list"),
        (["-h", "list"], None),  # the full help, with every command
        (["--version"], None),
        (["nonsense"], None),  # argparse names every choice
        ([], None),
    ],
)
def test_the_chosen_command_is_the_first_word(argv: list[str], command: str | None) -> None:
    assert chosen_command(argv) == command


def test_an_unknown_command_names_every_known_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["nonsense"])
    err = capsys.readouterr().err
    assert all(repr(name) in err for name in COMMANDS)


def test_every_renderer_name_resolves_lazily() -> None:
    for name in renderers.__all__:
        assert getattr(renderers, name) is not None, name
    assert set(renderers.__all__) <= set(dir(renderers))
    with pytest.raises(AttributeError):
        renderers.nothing_here  # noqa: B018


def _freeze_count_after(code: str) -> int:
    probe = f"{code}\nimport gc, sys\nprint(gc.get_freeze_count(), file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    return int(done.stderr.strip().splitlines()[-1])


def test_the_command_line_freezes_start_up_objects_but_a_host_calling_main_keeps_its_own() -> None:
    # The linewise command (argv from sys.argv) spares the collector its start-up objects;
    # a host app calling main(argv) in its own process keeps its collector as it was.
    command = "import sys\nfrom linewise.cli import main\nsys.argv = ['linewise', 'list']\nmain()"
    assert _freeze_count_after(command) > 1000
    assert _freeze_count_after("from linewise.cli import main\nmain(['list'])") == 0
