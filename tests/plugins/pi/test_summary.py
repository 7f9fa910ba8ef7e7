"""The Pi run summary and unknown-session check, against the reference and realistic runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_pi
import pytest
from linewise_contracts import Usage
from linewise_pi import is_unknown_session_error, summarize_run
from support import corpus_json, corpus_path

FIXTURES = Path(linewise_pi.__file__).parent / "samples"


def _server_cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "pi-local", "expected.json")["server_parse"]
    return [case for case in cases if case["fn"] == fn]


def _fixture(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines()


def test_summary_matches_the_reference_parse() -> None:
    """Every parsePiJsonl case: final message, errors, usage, cost and tool calls."""
    cases = _server_cases("parsePiJsonl")
    assert len(cases) == 12
    for case in cases:
        fixture = case["fixture"]
        stdout = corpus_path("paperclip", "pi-local", fixture).read_text(encoding="utf-8")
        assert stdout.strip() == case["args"][0].strip()
        summary = summarize_run(stdout.splitlines())
        expected = case["output"]
        assert summary.final_text == expected["finalMessage"], fixture
        assert summary.errors == tuple(expected["errors"]), fixture
        assert summary.is_error is bool(expected["errors"]), fixture
        usage = expected["usage"]
        assert summary.usage == Usage(
            input_tokens=usage["inputTokens"],
            output_tokens=usage["outputTokens"],
            cached_tokens=usage["cachedInputTokens"],
        ), fixture
        # The reference says 0 where nothing reported a cost; here that is unknown.
        assert summary.cost_usd == (pytest.approx(usage["costUsd"]) if usage["costUsd"] else None)
        tools = expected["toolCalls"]
        assert summary.details["toolCalls"] == len(tools), fixture
        assert summary.details["failedToolCalls"] == sum(tool["isError"] for tool in tools)
        assert summary.session_id == expected["sessionId"]


def test_unknown_session_check_matches_the_reference() -> None:
    cases = _server_cases("isPiUnknownSessionError")
    assert len(cases) == 5
    for case in cases:
        assert is_unknown_session_error(*case["args"]) is case["output"], case["args"]


def test_a_run() -> None:
    summary = summarize_run(_fixture("pi-json-run.jsonl"))
    assert summary.session_id == "0199c2d4-8a1e-7c3b-9f1a-2d5e6f7a8b9c"
    assert summary.model == "claude-sonnet-4-5" and summary.details["provider"] == "anthropic"
    # Each message once, although Pi repeats it in message_end, turn_end and agent_end.
    assert summary.usage == Usage(
        input_tokens=1840 + 1536 + 212, output_tokens=137, cached_tokens=3376
    )
    assert summary.cost_usd == pytest.approx(0.0149838)
    assert summary.final_text and summary.final_text.startswith("There are 3 Python files")
    assert summary.outcome == "completed" and summary.details["turnsEnded"] == 2
    assert summary.turns is None  # Pi reports no count: its turn_end events are counted
    assert summary.details["stopReason"] == "stop"  # Pi's own word
    assert summary.complete and not summary.is_error and not summary.unknown_session


def test_a_retry_that_recovered_is_not_an_error() -> None:
    summary = summarize_run(_fixture("pi-json-retry-compaction.jsonl"))
    assert summary.errors == () and not summary.is_error and summary.complete
    assert summary.details == {
        "provider": "anthropic",
        "toolCalls": 1,
        "failedToolCalls": 1,
        "retries": 1,
        "compactions": 1,
        "extensionErrors": 1,
        "cutOffMessage": False,
        "stopReason": "stop",
        "turnsEnded": 3,
    }


def _end(message: dict[str, Any]) -> str:
    return json.dumps({"type": "turn_end", "message": {"role": "assistant", **message}})


@pytest.mark.parametrize(
    ("lines", "errors"),
    [
        # The same failure reported by message_end, turn_end and agent_end counts once.
        (
            [
                json.dumps(
                    {
                        "type": "message_end",
                        "message": {
                            "role": "assistant",
                            "stopReason": "error",
                            "errorMessage": "400 Context limit exceeded",
                        },
                    }
                ),
                _end({"stopReason": "error", "errorMessage": "400 Context limit exceeded"}),
            ],
            ("400 Context limit exceeded",),
        ),
        ([_end({"stopReason": "error"})], ("Pi provider request failed.",)),
        # Every attempt failed: each failure, and the final one once.
        (
            [
                _end({"stopReason": "error", "errorMessage": "timed out"}),
                _end({"stopReason": "error", "errorMessage": "ERROR_NOT_LOGGED_IN"}),
                '{"type":"auto_retry_end","success":false,"finalError":"ERROR_NOT_LOGGED_IN"}',
            ],
            ("timed out", "ERROR_NOT_LOGGED_IN"),
        ),
        # A failure after an answer is an error again.
        (
            [
                _end({"stopReason": "error", "errorMessage": "timed out"}),
                _end({"stopReason": "stop", "content": "ok"}),
                _end({"stopReason": "error", "errorMessage": "context limit"}),
            ],
            ("context limit",),
        ),
    ],
)
def test_failed_requests(lines: list[str], errors: tuple[str, ...]) -> None:
    summary = summarize_run(lines)
    assert summary.errors == errors and summary.is_error and summary.outcome == "failed"


def test_a_run_cut_off_mid_message() -> None:
    lines = _fixture("pi-json-run.jsonl")
    last_delta = max(i for i, line in enumerate(lines) if '"text_delta"' in line)
    summary = summarize_run(lines[: last_delta + 1])
    assert not summary.complete and summary.details["cutOffMessage"] is True
    assert (
        summary.final_text
        == "There are 3 Python files in src:\n- src/shop/__init__.py\n- src/shop/cart.py\n- src/shop/pricing.py"
    )
    # The unfinished message reported no usage yet: only the first turn counts.
    assert summary.usage.output_tokens == 96


def test_rpc_session_and_an_unknown_session_printed_in_the_stream() -> None:
    lines = [
        '{"type":"response","command":"get_state","success":true,"data":{"sessionId":"abc123"}}',
        "Error: session not found: /home/dev/.pi/paperclips/abc123.jsonl",
        '{"type":"response","command":"prompt","success":false,"error":"Agent is not ready"}',
    ]
    summary = summarize_run(lines)
    assert summary.session_id == "abc123" and summary.unknown_session
    assert summary.errors == ("prompt failed: Agent is not ready",)
    assert not summary.complete
