"""amp_local and amp_session: Amp's Claude-compatible stream-json and its thread files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import linewise_amp
import pytest
from linewise_amp import check_environment, session, sniff, summarize_run
from linewise_claude import sniff as claude_sniff
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from session_checks import render, session_entries
from support import check_levels, corpus_path, fake_executable

NEWS = ("field-samples", "amp", "ampcode-news-streaming-json.jsonl")
THREAD = ("field-samples", "amp", "agentsview-amp-thread-fixture.json")


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_amps_output_is_amps_not_claudes() -> None:
    for name in ("ampcode-news-streaming-json.jsonl", "sandbox-agent-pr153-capture.jsonl"):
        lines = _lines(corpus_path("field-samples", "amp", name))
        assert sniff(lines) == 0.95
        assert claude_sniff(lines) == 0.0
        stderr, entries = render(corpus_path("field-samples", "amp", name))
        assert "detected amp_local" in stderr, stderr
        assert not [entry for entry in entries if entry["kind"] == "stdout"]


def test_the_bundled_sample_is_an_amp_run_read_whole() -> None:
    # samples/ is what `linewise check` mangles and the compiled-path tests render.
    lines = _lines(Path(linewise_amp.__file__).parent / "samples" / "amp-stream-json-run.jsonl")
    assert (sniff(lines), claude_sniff(lines)) == (0.95, 0.0)
    summary = summarize_run(lines)
    assert summary.session_id == "T-5d1e7c20-3b8a-4f6e-9c41-7a2d0e8b6f13"
    assert (summary.outcome, summary.cost_usd) == ("completed", None)  # Amp reports no cost
    assert summary.token_usage == TokenUsage(
        uncached_input=21, cache_read=16650, cache_write=506, output=64
    )


def test_claude_codes_own_logs_are_not_amps() -> None:
    for path in corpus_path("real-logs", "claude").glob("*"):
        assert sniff(_lines(path)[:40]) == 0.0, path.name


def test_amps_input_tokens_include_the_cache() -> None:
    summary = summarize_run(_lines(corpus_path(*NEWS)))
    assert summary.token_usage == TokenUsage(
        uncached_input=0, cache_read=12416, cache_write=367, output=8
    )
    assert summary.session_id == "T-2775dc92-90ed-4f85-8b73-8f9766029e83"
    assert (summary.outcome, summary.final_text) == ("completed", "2 + 2 equals 4.")
    assert summary.details["usageBasis"] == "assistant messages"


def test_a_thread_file_in_the_store_reads_as_a_paired_transcript(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    assert store.root == tmp_path / ".local" / "share" / "amp" / "threads"
    (moved,) = session.session_stores({"AMP_DIR": str(tmp_path / "amp")}, tmp_path)
    assert moved.root == tmp_path / "amp" / "threads"
    store.root.mkdir(parents=True)
    path = store.root / "T-tooluse.json"
    shutil.copy(corpus_path(*THREAD), path)
    assert [p for pattern in store.patterns for p in store.root.glob(pattern)] == [path]
    records = list(session.session_records(path))
    assert json.loads(records[0])["session_id"] == "T-tooluse"
    entries = session_entries(session.create_stdout_parser, records)
    assert entries[0]["kind"] == "init" and entries[0]["ts"] == "2024-01-01T00:00:00.000Z"
    kinds = [entry["kind"] for entry in entries[1:]]
    assert kinds == ["user", "thinking", "assistant", "tool_call", "tool_result"]
    assert entries[-1]["toolName"] == "Read"
    stderr, rendered = render(path)
    assert "amp_session" in stderr
    assert not [entry for entry in rendered if entry["kind"] == "stdout"]


def test_a_damaged_thread_file_is_shown_as_its_lines_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "T-x.json"
    cut = '{"v": 1, "id": "T-x", "messages": [{"role": "user", "content": "find the bug"'
    path.write_text(cut + "\n")
    assert list(session.session_records(path)) == [cut]
    entries = session_entries(session.create_stdout_parser, list(session.session_records(path)))
    assert [entry["kind"] for entry in entries] == ["stdout"]
    assert "find the bug" in entries[0]["text"]
    path.write_text("[1, 2]")
    assert list(session.session_records(path)) == ["[1, 2]"]


def test_an_unreadable_thread_file_is_an_error_naming_it_not_an_empty_session(
    tmp_path: Path,
) -> None:
    path = tmp_path / "T-gone.json"
    with pytest.raises(OSError, match=r"T-gone\.json"):
        list(session.session_records(path))


def test_the_compliance_checks_pass() -> None:
    report = run_checks("amp_local", examples=100)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]


def test_the_environment_check_names_the_key_but_never_its_value(tmp_path: Path) -> None:
    fake_executable(tmp_path, "amp")
    environ = {"PATH": str(tmp_path), "AMP_API_KEY": "sgamp_secret"}
    assert check_levels(check_environment(environ)) == {
        "amp_command_found": "info",
        "amp_api_key_present": "info",
    }
    assert "sgamp_secret" not in str([check.to_json() for check in check_environment(environ)])
