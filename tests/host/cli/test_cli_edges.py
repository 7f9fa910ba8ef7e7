"""Rough edges of the CLI: binary input, --ts, summarize of stdin and directories, and a
named adapter whose parser recognises nothing."""

from __future__ import annotations

import io
import json
import os
import sys
import types
from pathlib import Path

import pytest
from linewise.cli import main
from linewise.sessions.inputs import looks_binary
from support import REPO

SAMPLE = REPO / "examples" / "claude-sample.jsonl"


def _fail(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    captured = capsys.readouterr()
    return caught.value.code, captured.out, captured.err


# -- binary input --------------------------------------------------------------------


def test_a_binary_file_is_refused_with_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "program"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40)
    code, out, err = _fail(["render", str(binary)], capsys)
    assert code == 1 and out == ""
    assert "looks like a binary file" in err and str(binary) in err


def test_the_system_ls_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.isfile("/bin/ls"):
        pytest.skip("no /bin/ls on this system")
    code, out, _ = _fail(["render", "/bin/ls", "-q"], capsys)
    assert code == 1 and out == ""


def test_binary_stdin_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(os.urandom(4096))))
    code, _, err = _fail(["render", "-", "-q"], capsys)
    assert code == 1 and "stdin looks like a binary file" in err


@pytest.mark.parametrize(
    "start",
    [
        b'{"type":"system"}\n',
        "caf\u00e9 \u2014 \u65e5\u672c\u8a9e\n".encode() * 40,
        b"\x1b[32mgreen\x1b[0m\tok\r\n",
        "\u00e9".encode()[:1],  # a character cut at the end of what is looked at
        b"",
    ],
)
def test_text_is_not_binary(start: bytes) -> None:
    assert not looks_binary(start)


def test_mostly_undecodable_bytes_are_binary() -> None:
    assert looks_binary(bytes(range(128, 256)) * 4)
    assert looks_binary(b"text\x00more")


# -- --ts ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["yesterday", "2026-13-01T00:00:00Z", "2026-01-31", ""])
def test_ts_must_be_an_iso_8601_date_and_time(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _fail(["render", str(SAMPLE), "--ts", value], capsys)
    assert code == 2 and out == ""
    assert "--ts" in err and repr(value) in err


def test_a_valid_ts_stamps_every_entry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(SAMPLE), "-f", "jsonl", "-q", "--ts", "2026-01-31T09:30:00Z"]) == 0
    stamps = {json.loads(line)["ts"] for line in capsys.readouterr().out.splitlines()}
    assert stamps == {"2026-01-31T09:30:00Z"}


# -- summarize -------------------------------------------------------------------------


def test_summarize_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(SAMPLE.read_bytes())))
    assert main(["summarize", "-", "--json"]) == 0
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    assert (run["source"], run["adapterType"], run["status"]) == (
        "stdin",
        "claude_local",
        "complete",
    )


def test_summarize_walks_directories_and_warns_on_unrecognised_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "runs" / "day1").mkdir(parents=True)
    (tmp_path / "runs" / "day1" / "a.jsonl").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "runs" / "notes.txt").write_text("just\nsome\nnotes\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    assert main(["summarize", str(tmp_path / "runs"), str(tmp_path / "empty"), "--json"]) == 0
    captured = capsys.readouterr()
    runs = json.loads(captured.out)["runs"]
    assert [Path(r["source"]).name for r in runs] == ["notes.txt", "a.jsonl"]
    assert "notes.txt: no parser recognised" in captured.err
    assert "a.jsonl" not in captured.err
    assert "empty: no files in this directory" in captured.err


def test_summarize_shows_unknown_tokens_for_a_log_that_reports_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.log"
    plain.write_text("hello\n", encoding="utf-8")
    assert main(["summarize", str(plain), "-a", "process"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[-6:] == ["unknown", "unknown", "unknown", "unknown", "unknown", "unknown"]


# -- a named adapter that recognises nothing --------------------------------------------


def test_a_wrong_adapter_is_warned_about_and_the_right_one_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["render", str(SAMPLE), "-a", "codex_local", "-q"]) == 0
    err = capsys.readouterr().err
    assert "the codex_local parser recognised almost nothing" in err
    assert "auto-detection picks claude_local" in err


def test_a_wrong_adapter_on_stdin_is_warned_about_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(SAMPLE.read_bytes())))
    assert main(["render", "-", "-a", "codex_local", "-q"]) == 0
    assert "auto-detection picks claude_local" in capsys.readouterr().err


def test_the_right_adapter_and_the_generic_one_get_no_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for adapter in ("claude_local", "process"):
        assert main(["render", str(SAMPLE), "-a", adapter, "-q"]) == 0
        assert "recognised almost nothing" not in capsys.readouterr().err
