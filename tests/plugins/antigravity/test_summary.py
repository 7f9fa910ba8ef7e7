"""The run summary of an agy run: usage by step or from the result, outcome, errors."""

from __future__ import annotations

import json
from pathlib import Path

import linewise_antigravity
from linewise_antigravity import is_unknown_session_error, summarize_run
from linewise_contracts.usage import TokenUsage
from support import corpus_path

RUN = Path(linewise_antigravity.__file__).parent / "samples" / "agy-stream-json-run.jsonl"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_the_sample_run_adds_up_each_steps_latest_usage() -> None:
    summary = summarize_run(_lines(RUN))
    assert summary.session_id == "5d0c2a71-3f1e-4b8a-9c44-0e6f1b2d7a90"
    # steps 1 and 7 reported usage: 4210 + 9876 uncached input, 61 + 412 output
    assert (summary.usage.input_tokens, summary.usage.output_tokens) == (14086, 473)
    assert summary.usage.cached_tokens == 8192
    assert summary.details["usageBasis"] == "steps"
    assert summary.details["thinkingTokens"] == 58 + 233
    assert summary.details["conversationUsage"] == {
        "input_tokens": 14190,
        "output_tokens": 480,
        "thinking_tokens": 291,
        "cache_read_tokens": 8192,
        "total_tokens": 14670,
    }
    assert summary.token_usage == TokenUsage(
        uncached_input=14086, cache_read=8192, cache_write=None, output=473, reasoning=291
    )
    assert summary.cost_usd is None and summary.cost_source is None
    assert (summary.outcome, summary.is_error, summary.complete) == ("completed", False, True)
    assert summary.final_text == (
        "Invoice totals now round half up, so 10.005 becomes 10.01; both invoice tests pass."
    )
    assert summary.turns == 1
    assert summary.details["toolSteps"] == 5
    assert summary.details["failedToolSteps"] == 1
    assert summary.details["deniedActions"] == 1


def test_without_step_usage_the_results_usage_is_the_runs() -> None:
    path = corpus_path("field-samples", "antigravity", "agy-probe-report-2026-09.jsonl")
    summary = summarize_run(_lines(path))
    assert summary.details["usageBasis"] == "result"
    assert (summary.usage.input_tokens, summary.usage.output_tokens) == (23702, 275)
    assert summary.token_usage == TokenUsage(
        uncached_input=23702, cache_read=0, output=275, reasoning=253
    )
    assert summary.outcome == "failed" and summary.is_error
    assert summary.details["quotaExhausted"] is True
    assert "RESOURCE_EXHAUSTED" in summary.errors[-1]


def test_a_run_without_a_result_is_cut_off_and_keeps_its_streamed_text() -> None:
    lines = [
        json.dumps(
            {
                "event": "step_update",
                "step_update": {"step_index": 1, "step_type": "agent_response", "text_delta": part},
            }
        )
        for part in ("Half ", "way")
    ]
    summary = summarize_run(lines)
    assert (summary.complete, summary.outcome, summary.final_text) == (False, "cut_off", "Half way")
    assert summary.details["usageBasis"] is None
    assert summary.token_usage.is_empty  # nothing reported: unknown, not 0


def test_an_unknown_conversation_is_recognised() -> None:
    assert is_unknown_session_error("", "Error: conversation not found: 1234")
    assert is_unknown_session_error("failed to resume the conversation")
    assert not is_unknown_session_error("all good")
    line = json.dumps(
        {"event": "result", "result": {"status": "ERROR", "error": "unknown conversation abc"}}
    )
    assert summarize_run([line]).unknown_session is True
