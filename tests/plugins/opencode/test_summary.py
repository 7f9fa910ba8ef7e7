"""The OpenCode run summary and unknown-session classifier, against the reference and real runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_opencode
import pytest
from linewise_contracts import Usage
from linewise_opencode import is_unknown_session_error, summarize_run
from support import corpus_json, corpus_path

LONG_RUN = Path(linewise_opencode.__file__).parent / "samples" / "long-run.jsonl"


def _server_cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "opencode-local", "expected.json")["server_parse"]
    return [case for case in cases if case["fn"] == fn]


def test_summary_matches_the_reference_jsonl_parse() -> None:
    cases = _server_cases("parseOpenCodeJsonl")
    assert len(cases) == 3
    for case in cases:
        summary = summarize_run(case["args"][0].splitlines())
        expected = case["output"]
        usage = expected["usage"]
        assert summary.session_id == expected["sessionId"], case["test"]
        assert summary.final_text == expected["summary"], case["test"]
        assert summary.usage == Usage(
            input_tokens=usage["inputTokens"],
            output_tokens=usage["outputTokens"],
            cached_tokens=usage["cachedInputTokens"],
        ), case["test"]
        # The reference reports a cost of 0 when no step reported one; here it is unknown.
        if summary.cost_usd is None:
            assert expected["costUsd"] == 0, case["test"]
        else:
            assert summary.cost_usd == pytest.approx(expected["costUsd"]), case["test"]
        # The reference joins the run's errors with newlines, None when there are none.
        assert ("\n".join(summary.errors) or None) == expected["errorMessage"], case["test"]
        assert summary.is_error == (expected["errorMessage"] is not None), case["test"]
        # Failed tool calls are kept apart from the run's own errors.
        assert summary.details["toolErrors"] == expected["toolErrors"], case["test"]


def test_unknown_session_detection_matches_the_reference() -> None:
    cases = _server_cases("isOpenCodeUnknownSessionError")
    assert len(cases) == 4
    for case in cases:
        assert is_unknown_session_error(*case["args"]) is case["output"], case["test"]


def test_unknown_session_is_detected_from_stderr_lines_in_the_log() -> None:
    summary = summarize_run(
        [
            "Error: Session not found",
            json.dumps(
                {"error": {"name": "NotFoundError", "data": {"message": "Session not found"}}}
            ),
        ]
    )
    assert summary.unknown_session and summary.is_error and summary.complete


def test_a_real_run_with_a_tool_step() -> None:
    lines = (
        corpus_path("real-logs", "opencode", "takopi-stream-success.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    summary = summarize_run(lines)
    assert summary.session_id == "ses_494719016ffe85dkDMj0FPRbHK"
    assert summary.usage == Usage(
        input_tokens=21772 + 671, output_tokens=110 + 8, cached_tokens=21415
    )
    assert summary.cost_usd == pytest.approx(0.001)
    assert summary.final_text == "```\nhello\n```"
    assert summary.outcome == "completed" and summary.details["steps"] == 2
    assert summary.turns is None  # OpenCode reports no count of them: the steps are counted
    assert summary.details["finishReason"] == "stop"
    assert summary.complete and not summary.is_error
    assert summary.model is None  # `run --format json` never names the model


def test_reasoning_tokens_count_as_output() -> None:
    lines = (
        corpus_path("real-logs", "opencode", "llm-taste-evals-placeholder-prompt.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    summary = summarize_run(lines)
    assert summary.usage == Usage(input_tokens=12019, output_tokens=32 + 32, cached_tokens=0)
    assert summary.details["reasoningTokens"] == 32
    assert summary.cost_usd == pytest.approx(0.00183293)


def test_a_long_run() -> None:
    summary = summarize_run(LONG_RUN.read_text(encoding="utf-8").splitlines())
    steps = [
        json.loads(line)["part"]
        for line in LONG_RUN.read_text(encoding="utf-8").splitlines()
        if '"type":"step_finish"' in line
    ]
    assert summary.details["steps"] == len(steps) == 6
    assert summary.cost_usd == pytest.approx(sum(step["cost"] for step in steps))
    # Cache writes are billed input: they count with the input tokens.
    assert summary.usage == Usage(
        input_tokens=sum(s["tokens"]["input"] + s["tokens"]["cache"]["write"] for s in steps),
        output_tokens=sum(s["tokens"]["output"] + s["tokens"]["reasoning"] for s in steps),
        cached_tokens=sum(s["tokens"]["cache"]["read"] for s in steps),
    )
    assert summary.complete and not summary.is_error and summary.outcome == "completed"
    assert summary.details["rejectedPermissions"] == ["bash"]
    assert len(summary.details["toolErrors"]) == 2  # type: ignore[arg-type]
    assert summary.final_text is not None and summary.final_text.endswith(
        "All 4 network tests pass."
    )


def test_a_run_cut_off_between_steps_is_incomplete() -> None:
    lines = LONG_RUN.read_text(encoding="utf-8").splitlines()
    last_tool_step = max(i for i, line in enumerate(lines) if '"reason":"tool-calls"' in line)
    cut = summarize_run(lines[: last_tool_step + 1])
    assert not cut.complete and cut.outcome == "cut_off"  # it meant to go on
    assert cut.details["finishReason"] == "tool-calls"
    inside = summarize_run(lines[: last_tool_step + 2])  # a step started, never finished
    assert not inside.complete and inside.details["steps"] == 5


def test_a_run_that_ends_on_an_error_is_complete_and_failed() -> None:
    lines = [
        '{"type":"step_start","sessionID":"ses_9"}',
        '{"type":"error","sessionID":"ses_9","error":{"name":"ProviderAuthError","data":{"providerID":"anthropic","message":"invalid x-api-key"}}}',
    ]
    summary = summarize_run(lines)
    assert summary.complete and summary.is_error
    assert summary.errors == ("invalid x-api-key",)
    assert summary.cost_usd is None and summary.turns is None


def test_a_text_part_sent_as_growing_snapshots_is_one_message_of_the_final_text() -> None:
    """Snapshots shaped like OpenCode's TextPart; no real capture re-sends a part."""

    def text(part: str, body: str) -> str:
        return json.dumps({"type": "text", "part": {"id": part, "type": "text", "text": body}})

    lines = [text("p1", "Hel"), text("p1", "Hello"), text("p2", "Bye"), text("p1", "Hello!")]
    assert summarize_run(lines).final_text == "Hello!\n\nBye"
