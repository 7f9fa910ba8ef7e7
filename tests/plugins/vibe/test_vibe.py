"""vibe_local and vibe_session: Mistral Vibe's streaming messages and its session logs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import linewise_vibe
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from linewise_kimi import sniff as kimi_sniff
from linewise_vibe import create_stdout_parser, session, sniff, summarize_run
from session_checks import HOST_TS, render, session_entries
from support import corpus_path, parse_flat

RUN = Path(linewise_vibe.__file__).parent / "samples" / "vibe-streaming-run.jsonl"
SAMPLE = ("field-samples", "mistral-vibe", "vibe-test-load-session-messages.jsonl")


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_a_streamed_run_pairs_every_tool_call_and_shows_reasoning() -> None:
    entries = parse_flat(create_stdout_parser, _lines(RUN), ts=HOST_TS)
    kinds = [entry["kind"] for entry in entries]
    assert kinds[:4] == ["user", "thinking", "assistant", "tool_call"]
    calls = [e["toolUseId"] for e in entries if e["kind"] == "tool_call"]
    results = [(e["toolUseId"], e["toolName"]) for e in entries if e["kind"] == "tool_result"]
    assert results == [(calls[0], "bash"), (calls[1], "search_replace")]
    assert entries[3]["input"] == {"command": "python -m pytest tests/test_invoice.py -q"}
    summary = summarize_run(_lines(RUN))
    assert summary.token_usage.is_empty and summary.outcome is None
    assert (
        summary.final_text == "Totals now round half up (10.005 -> 10.01); the failing test passes."
    )


def test_vibes_messages_are_vibes_not_kimis() -> None:
    for lines in (_lines(RUN), _lines(corpus_path(*SAMPLE))):
        assert sniff(lines) == 0.95
        assert kimi_sniff(lines) == 0.0
    stderr, entries = render(corpus_path(*SAMPLE))
    assert "detected vibe_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]


def test_a_session_log_with_its_meta_has_an_id_time_and_tokens(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    folder = store.root / "session_20261201_100000_8c1f0d2e"
    folder.mkdir(parents=True)
    shutil.copy(RUN, folder / "messages.jsonl")
    meta = {
        "session_id": "8c1f0d2e-4b7a-4e59-9a33-1f6c2d0b7e51",
        "start_time": "2026-12-01T10:00:00+00:00",
        "end_time": "2026-12-01T10:03:12+00:00",
        "git_commit": "4f2a9c1",
        "git_branch": "fix/rounding",
        "environment": {"working_directory": "/home/ana/src/billing"},
        "username": "ana",
        "title": "Fix invoice rounding",
        "stats": {"session_prompt_tokens": 18422, "session_completion_tokens": 611},
    }
    (folder / "meta.json").write_text(json.dumps(meta))
    path = folder / "messages.jsonl"
    assert [p for pattern in store.patterns for p in store.root.glob(pattern)] == [path]
    records = list(session.session_records(path))
    entries = session_entries(session.create_stdout_parser, records)
    assert entries[0]["sessionId"] == meta["session_id"]
    assert entries[0]["ts"] == "2026-12-01T10:00:00.000Z"
    assert entries[0]["cwd"] == "/home/ana/src/billing"
    summary = session.summarize_run(records)
    assert summary.token_usage == TokenUsage(uncached_input=18422, output=611)
    assert (summary.outcome, summary.complete) == ("completed", True)
    assert summary.details["git_branch"] == "fix/rounding"
    assert session.sniff(records[:40]) >= 0.9
    assert session.sniff(_lines(path)) == 0.0


def test_the_compliance_checks_pass() -> None:
    report = run_checks("vibe_local", examples=100)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]
