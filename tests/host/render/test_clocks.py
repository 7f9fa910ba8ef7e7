"""Clocks: the events' own times are shown as such; the file's time is marked, never mixed in."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from linewise.cli import main

#: The file's modification time: what entries without a time of their own are stamped with.
MTIME = datetime(2026, 11, 28, 9, 0, tzinfo=UTC).timestamp()


def _claude_log(tmp_path: Path, *, own_times: bool) -> Path:
    """A Claude stream-json log; its assistant lines carry times only when ``own_times``."""
    lines: list[dict[str, object]] = [
        {"type": "system", "subtype": "init", "session_id": "s1", "model": "claude-x"},
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "first"}]},
        },
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "second"}]},
        },
        {"type": "result", "subtype": "success", "is_error": False, "result": "second"},
    ]
    if own_times:
        lines[1]["timestamp"] = "2026-11-27T22:41:05.000Z"
        lines[2]["timestamp"] = "2026-11-27T23:05:40.000Z"
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    os.utime(path, (MTIME, MTIME))
    return path


def _render(path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["render", str(path), "-a", "claude_local", "-f", fmt, "-q"]) == 0
    return capsys.readouterr().out


def test_text_footer_states_the_runs_date_and_span_from_the_events_own_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _render(_claude_log(tmp_path, own_times=True), "text", capsys)
    assert "when: 2026-11-27 22:41–23:05 UTC, from the events' own times" in out  # noqa: RUF001
    # The init and result lines (and the run's end the result gives) had no time: they are
    # counted, not taken for the run's date.
    assert "3 entries without one not counted" in out
    assert "09:00" not in out


def test_text_footer_says_the_times_are_the_files_when_no_entry_had_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _render(_claude_log(tmp_path, own_times=False), "text", capsys)
    assert "when: not known, no entry had a time of its own (file time 2026-11-28 09:00 UTC)" in out
    assert "from the events' own times" not in out


def test_html_shows_event_times_as_clocks_and_marks_the_files_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _render(_claude_log(tmp_path, own_times=True), "html", capsys)
    assert '<time title="2026-11-27T22:41:05.000Z">22:41:05</time>' in page
    assert '<time title="2026-11-27T23:05:40.000Z">23:05:40</time>' in page
    # The init line had no time of its own: its clock says it is the file's.
    assert '<time class="file-time" datetime="2026-11-28T09:00:00.000Z"' in page
    assert "09:00:00 file time</time>" in page
    assert '<time title="2026-11-28T09:00:00.000Z">' not in page
    header = page[page.index('<header id="summary"') :]
    assert "<dt>When</dt><dd>2026-11-27 22:41 → 23:05 UTC</dd>" in header
    assert '<dd class="note">the events\' own times</dd>' in header
    assert "<dt>Duration</dt><dd>24m 35s</dd>" in header


def test_html_of_a_log_without_times_marks_every_clock_as_file_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _render(_claude_log(tmp_path, own_times=False), "html", capsys)
    assert "09:00:00 file time</time>" in page
    assert '<time title="' not in page  # no clock passed off as an event's
    header = page[page.index('<header id="summary"') :]
    assert "<dt>When</dt><dd>not known</dd>" in header
    assert "no entry has a time of its own; file time 2026-11-28 09:00 UTC" in header
    assert "<dt>Duration</dt>" not in header
