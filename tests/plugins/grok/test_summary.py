"""The Grok run summary and unknown-session classifier, against the reference and real shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_grok
import pytest
from linewise_contracts import Usage
from linewise_grok import is_unknown_session_error, summarize_run, usage_from
from support import corpus_json

TOOL_RUN = Path(linewise_grok.__file__).parent / "samples" / "grok-1.0-tool-run.jsonl"


def _server_cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "grok-local", "expected.json")["server_parse"]
    return [case for case in cases if case["fn"] == fn]


def _tool_run() -> list[str]:
    return TOOL_RUN.read_text(encoding="utf-8").splitlines()


def test_summary_matches_the_reference_parse_of_each_fixture() -> None:
    """``parseGrokJsonl``'s session id, summary, thought, error, stop reason and request id."""
    cases = _server_cases("parseGrokJsonl")
    assert len(cases) == 4
    for case in cases:
        expected = case["output"]
        summary = summarize_run(case["args"][0].splitlines())
        assert summary.session_id == expected["sessionId"], case["test"]
        assert (summary.final_text or "") == expected["summary"], case["test"]
        assert summary.details["thought"] == expected["thought"], case["test"]
        assert (summary.errors[-1] if summary.errors else None) == expected["errorMessage"]
        assert summary.details["stopReason"] == expected["stopReason"], case["test"]
        assert summary.details["requestId"] == expected["requestId"], case["test"]


def test_unknown_session_classifier_matches_the_reference() -> None:
    cases = _server_cases("isGrokUnknownSessionError")
    assert len(cases) == 2
    for case in cases:
        assert is_unknown_session_error(*case["args"]) is case["output"], case["args"]


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("Error: unknown session 019fe742", True),
        ("session 019fe742-5b1c not found", True),
        ("could not resume 'my title': not found", True),
        ("Invalid session id", True),
        ("the file was not found", False),
        ("sessions: 3", False),
    ],
)
def test_unknown_session_phrasings(text: str, unknown: bool) -> None:
    assert is_unknown_session_error("", text) is unknown


def test_a_finished_run_with_tools() -> None:
    summary = summarize_run(_tool_run())
    assert summary.complete and not summary.is_error
    assert summary.session_id == "019fe742-5b1c-7c3e-9d1a-2f6b8e4c0a11"
    assert summary.model == "grok-4.6-build"
    assert summary.usage == Usage(input_tokens=2950, output_tokens=131, cached_tokens=1600)
    assert summary.cost_usd == pytest.approx(0.0137)
    assert summary.turns == 3
    assert summary.outcome == "completed"
    assert summary.details["stopReason"] == "end_turn"
    assert summary.details["toolCalls"] == 3 and summary.details["usageBasis"] == "end"
    assert summary.details["thought"] == (
        "The user wants the failing test fixed.\nThe add function returns a - b.\nFix it."
    )


def test_the_final_text_is_the_last_response_not_every_response_glued() -> None:
    """Improvement: the reference joins all text, so a preamble before a tool leaks in."""
    summary = summarize_run(_tool_run())
    assert summary.final_text == "Fixed `add` in src/math.py."


def test_a_run_cut_off_is_summarised_from_its_response_usage() -> None:
    cut = _tool_run()[:16]
    summary = summarize_run(cut)
    assert not summary.complete and summary.session_id is None
    assert summary.cost_usd is None and summary.turns is None
    assert summary.usage == Usage(input_tokens=1832, output_tokens=97, cached_tokens=800)
    assert summary.details["usageBasis"] == "responses"
    assert summary.details["unfinishedRun"] is True
    assert summary.final_text == "I'll run the tests first."


def test_concatenated_runs_add_up() -> None:
    run = _tool_run()
    summary = summarize_run(run + run)
    assert summary.complete and summary.details["runs"] == 2
    assert summary.usage == Usage(input_tokens=5900, output_tokens=262, cached_tokens=3200)
    assert summary.cost_usd == pytest.approx(0.0274)
    assert summary.turns == 6


def test_an_error_run_is_an_error_with_its_message() -> None:
    lines = [
        '{"type":"error","message":"Not signed in. To authenticate without a browser, run:\\n'
        '  grok login --device-code"}'
    ]
    summary = summarize_run(lines)
    assert summary.is_error and not summary.complete
    assert summary.errors == (
        "Not signed in. To authenticate without a browser, run:\n  grok login --device-code",
    )
    assert not summary.unknown_session


def test_a_stale_resume_is_detected_from_the_error_event_or_stderr_text() -> None:
    lines = ['{"type":"error","message":"session 0a1b not found"}', "not json at all"]
    assert summarize_run(lines).unknown_session
    assert summarize_run(["Error: unknown session abc"]).unknown_session


@pytest.mark.parametrize(
    ("stop", "flag", "outcome"),
    [
        ("max_turn_requests", "maxTurns", "max_turns"),
        ("max_tokens", "maxTokens", "max_tokens"),
        ("refusal", "refusal", "refused"),
    ],
)
def test_stop_reasons_are_classified(stop: str, flag: str, outcome: str) -> None:
    summary = summarize_run([json.dumps({"type": "end", "stopReason": stop, "sessionId": "s"})])
    assert summary.details[flag] is True
    assert summary.is_error is (stop == "refusal")
    assert summary.outcome == outcome
    assert summary.details["stopReason"] == stop


def test_max_turns_reached_event_is_noticed() -> None:
    summary = summarize_run(['{"type":"max_turns_reached","limit":5}', '{"type":"end"}'])
    assert summary.details["maxTurns"] is True


def test_usage_counts_cache_writes_as_input() -> None:
    usage = {
        "input_tokens": 10,
        "cache_creation_input_tokens": 5,
        "cache_read_input_tokens": 7,
        "output_tokens": 3,
        "reasoning_tokens": 2,
    }
    assert usage_from(usage) == Usage(input_tokens=15, output_tokens=3, cached_tokens=7)
    assert usage_from("nonsense") == Usage()


def test_an_end_without_usage_falls_back_to_the_response_usage() -> None:
    lines = [
        '{"type":"usage","messageId":"r1","usage":{"input_tokens":4,"output_tokens":2}}',
        '{"type":"end","stopReason":"end_turn","sessionId":"s"}',
    ]
    summary = summarize_run(lines)
    assert summary.usage == Usage(input_tokens=4, output_tokens=2)
    assert summary.details["usageBasis"] == "responses"
