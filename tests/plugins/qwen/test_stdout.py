"""qwen_local: Qwen Code's ``-o stream-json`` stdout read as a transcript."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_claude
import linewise_qwen
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from linewise_qwen import create_stdout_parser, parse_stdout_line, sniff, summarize_run
from session_checks import HOST_TS, render
from support import assert_valid_and_deterministic, corpus_path, json_values

SAMPLES = Path(linewise_qwen.__file__).parent / "samples"
FIXTURE = SAMPLES / "stream-json.jsonl"
FAILED = SAMPLES / "stream-json-error.jsonl"
REAL = ("real-logs", "qwen", "plannotator-qwen-0.25.0-stream-json-lines.jsonl")


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    return [dict(entry) for line in lines for entry in parser.parse_line(line, HOST_TS)]


@pytest.mark.parametrize("path", [FIXTURE, FAILED], ids=["run", "failed-run"])
def test_the_fixtures_render_auto_detected_with_no_raw_json(path: Path) -> None:
    stderr, entries = render(path)
    assert "detected qwen_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _lines(path), ts=HOST_TS
    )


def test_the_real_qwen_log_is_detected_as_qwen_not_claude() -> None:
    path = corpus_path(*REAL)
    stderr, entries = render(path)
    assert "detected qwen_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert linewise_claude.sniff(_lines(path)) == 0.0


def test_tool_calls_are_paired_and_thinking_streamed_as_deltas_is_shown_once() -> None:
    entries = _entries(_lines(FIXTURE))
    calls = [e for e in entries if e["kind"] == "tool_call"]
    results = [e for e in entries if e["kind"] == "tool_result"]
    assert [(c["toolUseId"], c["name"]) for c in calls] == [("call_cfg_1", "read_file")]
    assert [(r["toolUseId"], r["toolName"], r["isError"]) for r in results] == [
        ("call_cfg_1", "read_file", False)
    ]
    assert [e["text"] for e in entries if e["kind"] == "thinking"] == ["Read the config first."]


def test_an_idle_goal_and_tool_progress_add_nothing_but_a_goal_is_said() -> None:
    line = json.dumps(
        {
            "type": "stream_event",
            "uuid": "x",
            "session_id": "s",
            "parent_tool_use_id": None,
            "event": {
                "type": "goal_state",
                "goal_state": {"v": 2, "goal": "ship it", "activity": "working"},
            },
        }
    )
    assert [e["text"] for e in _entries([line])] == ["goal: ship it (working)"]
    assert [e for e in _entries(_lines(FIXTURE)) if e["kind"] == "system"] == []


def test_the_result_tokens_are_input_without_cache_reads() -> None:
    (result,) = [e for e in _entries(_lines(FIXTURE)) if e["kind"] == "result"]
    # Qwen's input_tokens 15800 include the 12288 read from the cache.
    assert (result["inputTokens"], result["cachedTokens"], result["outputTokens"]) == (
        3512,
        12288,
        74,
    )


def test_the_summary_maps_qwen_tokens_into_the_usage_vocabulary() -> None:
    summary = summarize_run(_lines(FIXTURE))
    expected = TokenUsage(uncached_input=3512, cache_read=12288, cache_write=0, output=74)
    assert summary.token_usage == TokenUsage(uncached_input=3512, cache_read=12288, output=74)
    assert summary.model_usage == {"qwen3-coder-plus": expected}
    assert summary.cost_usd is None
    assert (summary.outcome, summary.complete, summary.turns) == ("completed", True, 2)
    assert summary.final_text == "The app listens on port 8080."
    assert summary.model == "qwen3-coder-plus"


def test_a_failed_run_says_why() -> None:
    summary = summarize_run(_lines(FAILED))
    assert (summary.outcome, summary.is_error) == ("failed", True)
    assert summary.errors == ("No API key configured for provider",)
    (result,) = [e for e in _entries(_lines(FAILED)) if e["kind"] == "result"]
    assert result["errors"] == ["No API key configured for provider"]


def test_a_run_with_no_result_is_incomplete_with_usage_unknown() -> None:
    summary = summarize_run(_lines(FIXTURE)[:-1])
    assert summary.complete is False and summary.token_usage.is_empty


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ['{"type":"system","subtype":"init","session_id":"s","claude_code_version":"2.1.0"}'],
        ['{"type":"assistant","message":{"id":"msg_1","content":[]},"session_id":"s"}'],
        ['{"type":"thread.started","thread_id":"t"}'],
        ['{"type":"system","qwen_code_version":"0.6","parentUuid":"p"}'],  # a session record
    ],
)
def test_what_is_not_qwen_stdout_scores_zero(lines: list[str]) -> None:
    assert sniff(lines) == 0.0


def test_claude_logs_score_zero_and_claude_does_not_claim_qwens() -> None:
    paths = [p for p in corpus_path("real-logs", "claude").iterdir() if p.is_file()]
    assert {p.name: sniff(_lines(p)[:40]) for p in paths if sniff(_lines(p)[:40])} == {}
    assert linewise_claude.sniff(_lines(FIXTURE)) == 0.0


@given(st.lists(json_values, max_size=6))
def test_never_raises_on_hostile_lines(values: list[Any]) -> None:
    parser = create_stdout_parser()
    for value in values:
        lines = [
            json.dumps(
                {"type": "stream_event", "event": {"type": "goal_state", "goal_state": value}}
            ),
            json.dumps(
                {"type": "stream_event", "event": {"type": "active_goal", "active_goal": value}}
            ),
            json.dumps({"type": "result", "usage": value, "error": value, "modelUsage": value}),
            json.dumps({"type": "system", "subtype": "session_start", "session_id": value}),
        ]
        for line in lines:
            for entry in parser.parse_line(line, HOST_TS):
                assert entry_problem(entry) is None, entry
        summarize_run(lines)


def test_the_compliance_checks_pass() -> None:
    report = run_checks("qwen_local", examples=100)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]


def test_the_1_x_module_of_qwen_local_still_exports_the_stdout_parser() -> None:
    import linewise_qwen.stdout as old

    assert old.create_stdout_parser is create_stdout_parser
    assert (old.sniff, old.summarize_run, old.label) == (sniff, summarize_run, linewise_qwen.label)
