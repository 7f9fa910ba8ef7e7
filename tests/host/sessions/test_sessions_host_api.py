"""What linewise.sessions offers host apps (linewise serve): the cache folder, a file's facts,
a listed session's summary and transcript."""

from __future__ import annotations

import sys
from pathlib import Path

from linewise import GENERIC_ADAPTER_TYPE, Registry
from linewise.sessions import (
    cache_folder,
    file_session,
    find_sessions,
    session_summary,
    transcribe_session,
)
from linewise.transcript.run_report import summarize_log
from serve_homes import write_claude
from support import FakeSite

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


# A plugin whose result entry reports $0.50 while its second reading of the lines says $0.10.
_SECOND_READING = """
import json
from linewise_contracts.summary import RunSummary


def sniff(lines):
    return 1.0 if lines and lines[0].startswith('{"tally"') else 0.0


def parse_stdout_line(line, ts):
    record = json.loads(line)
    return [{
        "kind": "result", "ts": ts, "text": "done", "inputTokens": 3, "outputTokens": 4,
        "cachedTokens": 0, "costUsd": record["cost"], "subtype": "success",
        "isError": False, "errors": [], "costSource": "reported", "sessionId": "s-1",
    }]


def summarize_run(lines):
    for _ in lines:
        pass
    return RunSummary(session_id="s-1", cost_usd=0.10, cost_source="reported", complete=True)
"""


def test_a_sessions_summary_is_the_one_fold_summarize_and_the_listing_give(
    tmp_path: Path,
) -> None:
    site = FakeSite(tmp_path / "site")
    site.add(
        "linewise-tally-cost",
        entry_points={"tally_cost": "tally_cost_mod"},
        requires=["linewise-contracts>=1.5,<2"],
        modules={"tally_cost_mod": _SECOND_READING},
    )
    sys.path.insert(0, str(site.root))
    try:
        registry = Registry(entry_points=site.entry_points())
        path = tmp_path / "run.jsonl"
        path.write_text('{"tally": 1, "cost": 0.5}\n', encoding="utf-8")
        info = file_session(path, registry=registry)
        summary = session_summary(info, registry=registry)
        report = summarize_log(path, registry=registry)
    finally:
        sys.path.remove(str(site.root))
        sys.modules.pop("tally_cost_mod", None)
    assert report.summary_source == "plugin" and report.summary.cost_usd == 0.5
    assert info.cost_usd == 0.5
    assert summary == report.summary  # the entries' $0.50, not the second reading's $0.10
