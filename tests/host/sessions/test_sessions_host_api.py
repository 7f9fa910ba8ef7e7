"""What linewise.sessions offers host apps (linewise serve): the cache folder, a file's facts,
a listed session's summary and transcript."""

from __future__ import annotations

from pathlib import Path

from linewise import GENERIC_ADAPTER_TYPE, Registry
from linewise.sessions import (
    cache_folder,
    file_session,
    find_sessions,
    session_summary,
    transcribe_session,
)
from serve_homes import write_claude

SID = "11111111-1111-4111-8111-111111111111"


def test_the_cache_folder_is_linewise_cache_dir_and_off_when_empty(tmp_path: Path) -> None:
    assert cache_folder(environ={"LINEWISE_CACHE_DIR": str(tmp_path)}) == tmp_path
    assert cache_folder(environ={"LINEWISE_CACHE_DIR": ""}) is None
    assert cache_folder(environ={}, home=tmp_path) is not None


def test_a_files_facts_are_read_through_its_detected_parser(tmp_path: Path) -> None:
    path = write_claude(tmp_path / "logs", SID, tool_output="zebra")
    info = file_session(path, registry=Registry())
    assert (info.cli, info.id, info.tool_calls, info.messages) == ("claude", SID, 1, 2)
    assert info.token_usage.total == 30
    raw = tmp_path / "notes.txt"
    raw.write_text("just words\n", encoding="utf-8")
    assert file_session(raw, registry=Registry()).adapter_type == GENERIC_ADAPTER_TYPE


def test_a_listed_session_is_read_as_listed(tmp_path: Path) -> None:
    write_claude(tmp_path / "home", SID, answer="all done here")
    registry = Registry()
    (info,) = find_sessions(
        registry=registry,
        environ={"LINEWISE_CACHE_DIR": str(tmp_path / "c")},
        home=tmp_path / "home",
    )
    transcript = transcribe_session(info, registry=registry)
    assert any(entry.get("text") == "all done here" for entry in transcript.entries)
    summary = session_summary(info, registry=registry)
    assert summary is not None and summary.token_usage.total == info.token_usage.total
    assert summary.cost_usd == info.cost_usd  # estimated alike (Claude records no cost)
