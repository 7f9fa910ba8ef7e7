"""The linewise command: list, render, exit codes, stdout for entries and stderr for the rest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import requires
from pathlib import Path

import linewise_contracts
import pytest
from linewise.cli import main
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from support import REPO, FakeSite

SAMPLE = REPO / "examples" / "claude-sample.jsonl"


def _linewise(
    *args: str, env: dict[str, str] | None = None, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run the installed console script, as a user would."""
    script = Path(sys.executable).with_name("linewise")
    return subprocess.run(
        [str(script), *args],
        input=stdin,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=60,
        check=False,
    )


def test_render_the_bundled_sample() -> None:
    done = _linewise("render", str(SAMPLE), "--adapter", "claude_local")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "init        model claude-sonnet-4-6" in out
    assert "tool_result error · Bash  [toolu_02Bash]" in out
    assert "\x1b" not in out  # not a terminal: no colour, and the log's own escapes are gone
    assert "1 failed, 1 passed" in out
    err = done.stderr.decode()
    assert "claude_local: 18 lines, 19 entries, 0 fallbacks, 0 dropped" in err


TS = "2026-01-01T00:00:00.000Z"


def test_render_jsonl_is_one_valid_entry_per_line_on_stdout_only() -> None:
    done = _linewise("render", str(SAMPLE), "-a", "claude_local", "-f", "jsonl", "--ts", TS, "-q")
    assert done.returncode == 0
    assert done.stderr == b""
    entries = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(entries) == 19  # the result is followed by its run_terminal (contract 1.3)
    assert {e["ts"] for e in entries} == {TS}
    assert entries[2] == {
        "kind": "init",
        "ts": TS,
        "model": "claude-sonnet-4-6",
        "sessionId": "5b0e2f7c-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
        "cwd": "/home/dev/tinycalc",
    }


def test_render_from_stdin() -> None:
    done = _linewise(
        "render", "-", "-a", "process", "-f", "jsonl", "--ts", TS, stdin=b"hello\nworld"
    )
    assert done.returncode == 0
    assert [json.loads(line)["text"] for line in done.stdout.decode().splitlines()] == [
        "hello",
        "world",
    ]


def test_no_color_is_honoured_even_when_forced_by_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["render", str(SAMPLE), "-a", "claude_local"]) == 0
    assert "\x1b" not in capsys.readouterr().out


def test_color_always(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(SAMPLE), "-a", "claude_local", "--color", "always"]) == 0
    assert "\x1b[32massistant" in capsys.readouterr().out


def test_unknown_adapter_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["render", str(SAMPLE), "-a", "nope"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "unknown adapter type 'nope'" in err and "claude_local" in err


def test_a_mistyped_adapter_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["render", str(SAMPLE), "-a", "codex_locl"])
    assert caught.value.code == 2
    assert "Did you mean 'codex_local'?" in capsys.readouterr().err


def test_the_error_raised_for_an_unknown_adapter_suggests_what_to_install() -> None:
    from linewise import UnknownAdapterError
    from linewise.plugins.suggest import unknown_adapter

    error = unknown_adapter("codex_local", ["claude_local"])
    assert isinstance(error, UnknownAdapterError)
    assert (error.adapter_type, error.known) == ("codex_local", ["claude_local"])
    assert "pip install linewise-codex" in str(error)
    assert "Did you mean 'claude_local'?" in str(unknown_adapter("claude_locl", ["claude_local"]))


def test_the_error_class_made_without_a_message_names_the_installed_types() -> None:
    from linewise import UnknownAdapterError

    error = UnknownAdapterError("codex_local", ["claude_local", "process"])
    assert str(error) == "unknown adapter type 'codex_local'; installed: claude_local, process."
    assert str(UnknownAdapterError("x", [])) == "unknown adapter type 'x'; installed: none."


def test_unreadable_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["render", str(tmp_path / "missing.jsonl"), "-a", "process"])
    assert caught.value.code == 1
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        main(["render", str(tmp_path), "-a", "process"])
    assert caught.value.code == 1


@pytest.mark.parametrize(
    "args",
    [
        ["render"],
        ["render", "x", "-a", "process", "-f", "xml"],
        ["render", "x", "-a", "process", "--max-line-chars", "0"],
        ["frobnicate"],
        ["usage", "daily", "--bogus", "logs"],
        ["summarize", "a.jsonl", "--json", "b.jsonl", "--bogus"],
    ],
)
def test_bad_options_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code == 2


def test_paths_may_follow_the_options_of_a_command(tmp_path: Path) -> None:
    """``summarize A --json B`` and ``usage daily --json DIR`` read every path given."""
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    first.write_text("one\n", encoding="utf-8")
    second.write_text("two\n", encoding="utf-8")
    done = _linewise("summarize", str(first), "-a", "process", "--json", str(second))
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout)["runs"]
    assert [run["source"] for run in runs] == [str(first), str(second)]
    done = _linewise("usage", "daily", "--json", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "report" in json.loads(done.stdout)


def _claude_range() -> SpecifierSet:
    """The contract range linewise-claude declares (its Requires-Dist on linewise-contracts)."""
    wanted = [Requirement(text) for text in requires("linewise-claude") or []]
    (contracts,) = [each for each in wanted if each.name == "linewise-contracts"]
    return contracts.specifier


def test_list_shows_the_installed_claude_plugin() -> None:
    done = _linewise("list")
    assert done.returncode == 0
    out = done.stdout.decode()
    [row] = [line for line in out.splitlines() if line.startswith("claude_local ")]
    shown = [SpecifierSet(word) for word in row.split() if word.startswith(">=")]
    # Its distribution and the contract range it declares (a 1.x one).
    assert "linewise-claude" in row and shown == [_claude_range()]
    assert "2" in {spec.version for spec in _claude_range() if spec.operator == "<"}
    assert "claude_session" in out
    assert "process" in out and "built in" in out


def test_list_colours_each_status_from_the_one_colour_table() -> None:
    from linewise.render import COLOURS, STATUS_ROLES

    out = _linewise("list", "--color", "always").stdout.decode()
    row = next(line for line in out.splitlines() if line.startswith("claude_local "))
    status = "loaded" if "loaded" in row else "available"
    assert f"\x1b[{COLOURS[STATUS_ROLES[status]]}m{status}" in row


def test_list_json() -> None:
    done = _linewise("list", "--json")
    payload = json.loads(done.stdout)
    assert payload["contract"] == linewise_contracts.CONTRACT_VERSION
    claude = next(p for p in payload["parsers"] if p["adapterType"] == "claude_local")
    assert claude["status"] == "available"
    assert claude["distribution"] == "linewise-claude"
    assert SpecifierSet(claude["contract"]) == _claude_range()  # as the distribution declares
    assert claude["contractVerdict"] == "compatible"
    done = _linewise("list", "--json", "--load")
    claude = next(
        p for p in json.loads(done.stdout)["parsers"] if p["adapterType"] == "claude_local"
    )
    assert claude["status"] == "loaded" and claude["label"] == "Claude Code (local)"


def test_disabled_plugin_renders_with_the_generic_parser_and_a_warning() -> None:
    done = _linewise(
        "render",
        str(SAMPLE),
        "-a",
        "claude_local",
        "-f",
        "jsonl",
        env={"LINEWISE_DISABLE": "claude_local"},
    )
    assert done.returncode == 0
    kinds = {json.loads(line)["kind"] for line in done.stdout.decode().splitlines()}
    assert kinds == {"stdout"}
    assert "generic parser" in done.stderr.decode()


def test_a_broken_plugin_is_a_warning_and_a_fallback_not_an_error(fake_site: FakeSite) -> None:
    fake_site.add(
        "bad-parser",
        entry_points={"bad_agent": "bad_agent_mod"},
        requires=["linewise-contracts>=1,<2"],
        modules={"bad_agent_mod": "raise ImportError('missing native lib')\n"},
    )
    done = _linewise(
        "render", "-", "-a", "bad_agent", stdin=b"one\n", env={"PYTHONPATH": str(fake_site.root)}
    )
    assert done.returncode == 0
    assert "stdout      one" in done.stdout.decode()
    err = done.stderr.decode()
    assert "bad-parser 1.0.0" in err and "missing native lib" in err
    listing = _linewise("list", "--load", env={"PYTHONPATH": str(fake_site.root)}).stdout.decode()
    assert "bad_agent" in listing and "failed" in listing


def test_strict_mode_turns_a_broken_plugin_into_an_error(fake_site: FakeSite) -> None:
    fake_site.add(
        "bad-parser",
        entry_points={"bad_agent": "bad_agent_mod"},
        modules={"bad_agent_mod": "raise ImportError('nope')\n"},
    )
    done = _linewise(
        "render",
        "-",
        "-a",
        "bad_agent",
        stdin=b"one\n",
        env={"PYTHONPATH": str(fake_site.root), "LINEWISE_STRICT": "1"},
    )
    assert done.returncode == 1
    assert "nope" in done.stderr.decode()


def test_output_to_a_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    big.write_text("line\n" * 200_000)
    script = Path(sys.executable).with_name("linewise")
    done = subprocess.run(
        f"'{script}' render '{big}' -a process | head -n 1",
        shell=True,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.stdout == b"stdout      line\n"
    assert b"Traceback" not in done.stderr
