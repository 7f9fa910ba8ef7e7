"""``render FILE`` of one JSON document pretty-printed over many lines (``claude -p --output-format json | jq .``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from linewise.cli import main
from linewise.cli.json_document import one_line_document

SESSION = "1f0c3b9e-0000-4000-8000-0000000000aa"
RESULT: dict[str, Any] = {
    "type": "result",
    "subtype": "success",
    "is_error": False,
    "duration_ms": 4200,
    "num_turns": 2,
    "result": "Renamed the helper and ran the tests: all pass.",
    "session_id": SESSION,
    "total_cost_usd": 0.0123,
    "usage": {"input_tokens": 12, "output_tokens": 40, "cache_read_input_tokens": 300},
}
VERBOSE: list[dict[str, Any]] = [
    {"type": "system", "subtype": "init", "session_id": SESSION, "model": "claude-sonnet-4-5",
     "tools": ["Bash"]},
    {"type": "assistant", "session_id": SESSION, "parent_tool_use_id": None,
     "message": {"id": "msg_1", "type": "message", "role": "assistant",
                 "model": "claude-sonnet-4-5",
                 "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                              "input": {"command": "pytest -q"}}],
                 "usage": {"input_tokens": 12, "output_tokens": 40}}},
    {"type": "user", "session_id": SESSION, "parent_tool_use_id": None,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                              "content": "3 passed"}]}},
    RESULT,
]  # fmt: skip


def _render(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> tuple[str, str]:
    assert main(["render", str(path), *options]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def _entries(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    out, _ = _render(path, capsys, "-f", "jsonl", "-q")
    return [json.loads(line) for line in out.splitlines()]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("document", [RESULT, VERBOSE], ids=["result", "verbose-array"])
def test_a_pretty_printed_document_renders_as_the_same_document_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: object
) -> None:
    pretty = _write(tmp_path, "pretty.json", json.dumps(document, indent=2) + "\n")
    compact = _write(tmp_path, "compact.json", json.dumps(document) + "\n")
    # Entries without a time of their own take the file's: the same for both files.
    same = pretty.stat().st_mtime_ns
    os.utime(compact, ns=(same, same))
    assert _entries(pretty, capsys) == _entries(compact, capsys)
    out, err = _render(pretty, capsys)
    lines = json.dumps(document, indent=2).count("\n") + 1
    assert f"pretty.json: one JSON document over {lines} lines, read whole" in err
    assert "detected claude_local" in err
    assert "stdout " not in out  # no line of it shown as raw text
    # The run summary reads the document too: the outcome and Claude's reported cost.
    assert "run         completed" in out and "$0.0123" in out


def test_a_cut_document_shows_every_one_of_its_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = json.dumps(VERBOSE, indent=2).splitlines()
    cut = _write(tmp_path, "cut.json", "\n".join(lines[: len(lines) // 2]) + "\n")
    shown = _entries(cut, capsys)
    assert [entry["text"] for entry in shown] == [line.strip() for line in lines[: len(lines) // 2]]


def test_a_document_no_parser_reads_keeps_its_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps({"theme": "dark", "size": [1, 2]}, indent=2)
    shown = _entries(_write(tmp_path, "settings.json", text), capsys)
    assert [entry["text"] for entry in shown] == [line.strip() for line in text.splitlines()]


def test_a_piped_document_is_never_held_back_for_its_end(tmp_path: Path) -> None:
    # stdin may be a live run: its lines are shown as they come, never buffered whole.
    pretty = json.dumps(RESULT, indent=2) + "\n"
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from linewise.cli import main; sys.exit(main())",
         "render", "-", "-f", "jsonl", "-q"],
        input=pretty, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert len(done.stdout.splitlines()) == len(pretty.splitlines())


def test_only_a_multi_line_document_within_the_line_limit_is_read_whole(tmp_path: Path) -> None:
    def document(text: str, most_chars: int = 10_000) -> bytes | None:
        path = _write(tmp_path, "log.json", text)
        with path.open("rb") as source:
            found = one_line_document(source, most_chars=most_chars)
            assert source.tell() == 0  # read by position: the render reads from the start
        return None if found is None else found.line

    assert document('{\n  "a": [1,\n 2]\n}\n') == b'{"a":[1,2]}\n'
    assert document('{"a": 1}\n{"b": 2}\n') is None  # JSON Lines
    assert document('{"a": 1}\n') is None  # one line: the plugin reads it as it is
    assert document('{\n  "a": 1\n}\n{\n}\n') is None  # two documents
    assert document("plain text\n{\n}\n") is None
    assert document('[\n  "x"\n]\n', most_chars=4) is None  # longer than a line may be
