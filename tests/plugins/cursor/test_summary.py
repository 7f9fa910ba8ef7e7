"""The Cursor run summary and unknown-session check, against the reference and real runs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from linewise_contracts import Usage
from linewise_cursor import is_unknown_session_error, summarize_run
from linewise_cursor.cloud import summarize_run as summarize_cloud_run
from scaling import assert_linear_time
from support import corpus_json, corpus_path


def _server_cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "cursor-local", "expected.json")["server_parse"]
    return [case for case in cases if case["fn"] == fn]


def _real(name: str) -> list[str]:
    return corpus_path("real-logs", "cursor", name).read_text(encoding="utf-8").splitlines()


def test_summary_matches_the_reference_parse() -> None:
    """Session, final text, usage, cost and the error message of parseCursorJsonl."""
    cases = _server_cases("parseCursorJsonl")
    assert len(cases) == 2
    for case in cases:
        summary = summarize_run(case["args"][0].splitlines())
        expected = case["output"]
        assert summary.session_id == expected["sessionId"]
        assert summary.final_text == expected["summary"]
        assert summary.usage == Usage(
            input_tokens=expected["usage"]["inputTokens"],
            output_tokens=expected["usage"]["outputTokens"],
            cached_tokens=expected["usage"]["cachedInputTokens"],
        )
        assert summary.cost_usd == pytest.approx(expected["costUsd"])
        assert summary.errors == ((expected["errorMessage"],) if expected["errorMessage"] else ())
        assert summary.is_error is bool(expected["errorMessage"])
        assert summary.model == "gpt-5" and summary.complete
        assert summary.outcome == ("failed" if expected["errorMessage"] else "completed")
        assert summary.details["resultSubtype"] == "success"  # Cursor's own word


def test_unknown_session_check_matches_the_reference() -> None:
    cases = _server_cases("isCursorUnknownSessionError")
    assert cases
    for case in cases:
        assert is_unknown_session_error(*case["args"]) is case["output"], case["args"]
    assert not is_unknown_session_error("session started", "all good")
    assert is_unknown_session_error("", "Error: could not resume chat 42")


def test_real_runs() -> None:
    summary = summarize_run(_real("DOC-EXAMPLE-cursor-docs-output-format.jsonl"))
    assert summary.session_id == "c6b62c6f-7ead-4fd6-9922-e952131177ff"
    assert summary.model == "Claude 4 Sonnet"
    # The last message, not the result's run-together concatenation of every message.
    assert summary.final_text == "Done! I've created the summary in summary.txt"
    assert summary.usage == Usage() and summary.cost_usd is None  # Cursor reports neither
    assert summary.complete and summary.outcome == "completed" and not summary.is_error
    # No result reported tokens: the zero counts are unknown, and the summary says so.
    assert summary.details == {
        "sessions": 1,
        "results": 1,
        "usageBasis": "none",
        "durationMs": 5234,
        "resultSubtype": "success",
    }
    assert summary.token_usage.is_empty


def test_cursor_2026_08_reports_tokens_with_cache_reads_and_writes() -> None:
    """cursor-agent 2026.08 results carry inputTokens, outputTokens, cacheRead/WriteTokens."""
    summary = summarize_run(_real("vincent-cursor-success_2026.08.04.jsonl"))
    assert summary.usage == Usage(input_tokens=8274, output_tokens=39, cached_tokens=8000)
    assert summary.details["usageBasis"] == "per_result"
    assert "cacheWriteInputTokens" not in summary.details  # 0 written
    assert summary.cost_usd is None and summary.model == "Auto"
    lines = [
        '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}',
        '{"type":"result","subtype":"success","result":"ok","session_id":"s",'
        '"usage":{"inputTokens":10,"outputTokens":2,"cacheReadTokens":4,"cacheWriteTokens":6}}',
    ]
    written = summarize_run(lines)
    assert written.usage == Usage(input_tokens=10, output_tokens=2, cached_tokens=4)
    assert written.details["cacheWriteInputTokens"] == 6


def test_the_unknown_session_check_stays_linear_on_hostile_text() -> None:
    """ "session ... not found" is read as a head then a tail, never backtracking per start."""
    assert is_unknown_session_error("chat 42 was not   found")
    assert is_unknown_session_error("resume\tabc not found")
    assert not is_unknown_session_error("session not found")  # as the reference: needs an id
    assert_linear_time(lambda n: is_unknown_session_error("session " * n))


def test_every_real_run_is_complete_and_successful() -> None:
    for path in sorted(corpus_path("real-logs", "cursor").glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        summary = summarize_run(lines)
        init = json.loads(lines[0])
        assert summary.session_id == init["session_id"] and summary.model == init["model"]
        assert summary.complete and not summary.errors and summary.final_text, path.name


def test_a_run_cut_off_is_incomplete() -> None:
    lines = _real("cursor-hack-direct-sleep.jsonl")
    summary = summarize_run(lines[:-3])
    assert not summary.complete and summary.outcome == "cut_off"
    # The last message so far: the one before the tool calls.
    assert summary.final_text == json.loads(lines[-7])["message"]["content"][0]["text"]


def _assistant(text: str, **fields: Any) -> str:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return json.dumps({"type": "assistant", "message": message, **fields})


def test_partial_output_fragments_make_the_final_text_once() -> None:
    lines = [
        _assistant("All ", timestamp_ms=1),
        _assistant("done.", timestamp_ms=2),
        _assistant("All done."),
        json.dumps({"type": "result", "subtype": "success", "result": "All done."}),
    ]
    assert summarize_run(lines).final_text == "All done."
    # Cut off mid-stream, the fragments so far are the final text.
    assert summarize_run(lines[:2]).final_text == "All done."


def test_errors_and_a_resume_failure_printed_in_the_stream() -> None:
    lines = [
        "stderr: Error: unknown chat 7b1e",
        'stdout{"type":"error","message":"model access denied"}',
        '{"type":"result","subtype":"error","is_error":true,"error":{"message":"aborted"}}',
    ]
    summary = summarize_run(lines)
    assert summary.unknown_session and summary.is_error
    assert summary.errors == ("model access denied", "aborted")
    assert summary.complete and summary.outcome == "failed"


def test_cost_is_known_only_when_every_result_reports_it() -> None:
    paid = '{"type":"result","subtype":"success","total_cost_usd":0.25}'
    unpaid = '{"type":"result","subtype":"success"}'
    assert summarize_run([paid, paid]).cost_usd == pytest.approx(0.5)
    assert summarize_run([paid, unpaid]).cost_usd is None


def test_cloud_run() -> None:
    lines = corpus_path("paperclip", "cursor-cloud", "ui-lines.txt").read_text().splitlines()
    summary = summarize_cloud_run(lines[:8])
    assert summary.session_id == "agent-123" and summary.model == "gpt-5.4"
    assert summary.final_text == "Done" and summary.outcome == "completed"
    assert summary.complete and not summary.is_error


def test_a_failed_cloud_run_with_its_pull_request() -> None:
    lines = [
        '{"type":"cursor_cloud.init","sessionId":"bc-1","agentId":"bc-1","runId":"r1"}',
        '{"type":"cursor_cloud.git","runId":"r1","agentId":"bc-1","branches":[{"repoUrl":"https://github.com/a/b","branch":"cursor/fix","prUrl":"https://github.com/a/b/pull/9"}],"source":"sse_result"}',
        '{"type":"cursor_cloud.result","status":"error","error":"Run expired","durationMs":120000}',
    ]
    summary = summarize_cloud_run(lines)
    assert summary.is_error and summary.errors == ("Run expired",)
    assert summary.outcome == "failed" and summary.complete
    assert summary.details["prUrl"] == "https://github.com/a/b/pull/9"
    assert summary.details["durationMs"] == 120000
