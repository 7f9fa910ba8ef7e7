"""The Gemini run summary and classifiers, against the reference and real runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_gemini
import pytest
from linewise_contracts import Usage
from linewise_gemini import (
    is_auth_required,
    is_session_unrecoverable_error,
    is_transient_network_error,
    is_turn_limit_result,
    summarize_run,
)
from support import corpus_json, corpus_path

LONG_RUN = Path(linewise_gemini.__file__).parent / "samples" / "long-run.jsonl"


def _server_cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "gemini-local", "expected.json")["server_parse"]
    return [case for case in cases if case["fn"] == fn]


def _real(name: str) -> list[str]:
    return corpus_path("real-logs", "gemini", name).read_text(encoding="utf-8").splitlines()


def test_summary_matches_the_reference_jsonl_parse() -> None:
    cases = _server_cases("parseGeminiJsonl")
    assert len(cases) == 9
    for case in cases:
        summary = summarize_run(case["args"][0].splitlines())
        expected = case["output"]
        usage = expected["usage"]
        assert summary.session_id == expected["sessionId"], case["test"]
        assert (summary.final_text or "") == expected["summary"], case["test"]
        assert summary.usage == Usage(
            input_tokens=usage["inputTokens"],
            output_tokens=usage["outputTokens"],
            cached_tokens=usage["cachedInputTokens"],
        ), case["test"]
        assert summary.cost_usd == pytest.approx(expected["costUsd"]), case["test"]
        # The reference keeps the last error message; the summary lists them all.
        last_error = summary.errors[-1] if summary.errors else None
        assert last_error == expected["errorMessage"], case["test"]
        assert summary.details.get("question") == expected["question"], case["test"]
        assert summary.complete == (expected["resultEvent"] is not None), case["test"]


@pytest.mark.parametrize(
    ("fn", "classifier"),
    [
        ("isGeminiSessionUnrecoverableError", is_session_unrecoverable_error),
        ("isGeminiTransientNetworkError", is_transient_network_error),
        ("isGeminiTurnLimitResult", is_turn_limit_result),
    ],
)
def test_classifiers_match_the_reference(fn: str, classifier: Any) -> None:
    cases = _server_cases(fn)
    assert cases
    for case in cases:
        assert classifier(*case["args"]) is case["output"], case["test"]


def test_auth_detection_matches_the_reference() -> None:
    (case,) = _server_cases("detectGeminiAuthRequired")
    (args,) = case["args"]
    assert is_auth_required(args["stdout"], args["stderr"]) is case["output"]["requiresAuth"]
    assert not is_auth_required("Some other error", "Error: getaddrinfo EAI_AGAIN host")


def test_streamed_fragments_join_into_one_message() -> None:
    """The reference trims and joins each fragment with a blank line; here they join as sent."""
    summary = summarize_run(_real("oneshot-websearch-with-stderr.txt"))
    assert summary.final_text == "Bogotá is the capital and largest city of Colombia."
    assert summary.session_id == "b35ecd66-4ed8-43cd-b73b-9dd2eb9b2f4e"
    assert summary.model == "auto-gemini-2.5"
    assert summary.usage == Usage(input_tokens=32282, output_tokens=76, cached_tokens=13673)
    assert summary.cost_usd is None  # Gemini CLI reports no cost
    # The stderr notices at the top are not errors.
    assert summary.errors == () and not summary.is_error and summary.complete
    assert summary.outcome == "completed"
    assert summary.details["status"] == "success"  # Gemini's own word


def test_per_model_stats_of_newer_versions() -> None:
    summary = summarize_run(_real("amux-0.53.1-shell-run.jsonl"))
    assert summary.model == "auto"
    assert summary.details["models"] == ["gemini-3.1-flash-lite", "gemini-3.5-flash"]
    assert summary.usage == Usage(input_tokens=22915, output_tokens=74, cached_tokens=8115)
    assert summary.details["durationMs"] == 7175 and summary.details["toolCalls"] == 1


def test_a_turn_limit_error_result_is_a_turn_limit() -> None:
    """The reference reads only a string ``error``; Gemini sends ``{type: FatalTurnLimitedError}``."""
    summary = summarize_run(_real("cyrus-schemas-doc-fragments.jsonl"))
    assert summary.details["turnLimit"] is True
    assert summary.is_error and summary.outcome == "max_turns"
    assert summary.errors == ("Rate limit exceeded", "Reached max session turns...")
    assert summary.details["toolErrors"] == [
        "File path must be within...",
        'Invalid parameters: Only one task can be "in_progress" at a time.',
    ]


def test_a_long_run() -> None:
    summary = summarize_run(LONG_RUN.read_text(encoding="utf-8").splitlines())
    assert summary.complete and not summary.is_error and summary.outcome == "completed"
    assert summary.session_id == "5b0f7c3e-2d1a-4c8e-9f6b-a1e2d3c4b5a6"
    assert summary.usage == Usage(input_tokens=183950, output_tokens=2146, cached_tokens=141208)
    assert summary.details["toolCalls"] == 14
    assert summary.details["durationMs"] == 48211
    assert summary.details["warnings"] == [
        "Agent execution blocked: hook 'pre-shell' asked for confirmation; continuing in YOLO mode"
    ]
    assert len(summary.details["toolErrors"]) == 1  # type: ignore[arg-type]
    assert summary.final_text is not None
    messages = summary.final_text.split("\n\n")
    assert len(messages) == 5
    assert messages[-1].startswith("Fixed. The CSV writer now writes UTF-8")


def test_a_run_cut_off_before_its_result_is_incomplete() -> None:
    lines = LONG_RUN.read_text(encoding="utf-8").splitlines()
    summary = summarize_run(line for line in lines if '"type":"result"' not in line)
    assert not summary.complete and summary.outcome == "cut_off"
    assert summary.usage == Usage()  # Gemini reports usage only in its result
    assert summary.token_usage.is_empty  # unknown, not zero
    assert summary.session_id == "5b0f7c3e-2d1a-4c8e-9f6b-a1e2d3c4b5a6"
    assert summary.details["toolCalls"] == 14 and summary.details["runs"] == 1
    assert summary.final_text is not None and summary.final_text.startswith("I'll start by")


def test_a_failed_resume_is_an_unknown_session() -> None:
    lines = [
        "Loaded cached credentials.",
        'Error resuming session: Invalid session identifier "9f1c". Use --list-sessions to see '
        "available sessions.",
    ]
    summary = summarize_run(lines)
    assert summary.unknown_session and summary.is_error and not summary.complete
    assert summary.errors == (lines[1],)


def test_an_unrecoverable_session_is_detected_in_a_result_error() -> None:
    result = {
        "type": "result",
        "status": "error",
        "error": {
            "type": "ApiError",
            "message": "The input token count exceeds the maximum number of tokens allowed",
        },
    }
    summary = summarize_run([json.dumps(result)])
    assert summary.unknown_session and summary.is_error and summary.complete


def test_an_error_after_the_result_fails_the_run() -> None:
    lines = [
        '{"type":"init","session_id":"s1","model":"gemini-2.5-pro"}',
        '{"type":"result","status":"success","stats":{"input_tokens":3,"output_tokens":1}}',
        '{"type":"error","severity":"error","message":"model access denied"}',
    ]
    summary = summarize_run(lines)
    assert summary.is_error and summary.complete and summary.errors == ("model access denied",)


def test_auth_and_network_failures_are_flagged() -> None:
    auth = summarize_run(
        ["Error authenticating: FatalAuthenticationError: Manual authorization is required"]
    )
    assert auth.details["authRequired"] is True and auth.is_error
    network = summarize_run(["_GaxiosError: getaddrinfo ENOTFOUND oauth2.googleapis.com"])
    assert network.details["transientNetworkError"] is True
    assert not network.unknown_session


def _assistant(text: str, *, delta: bool = False) -> str:
    event = {"type": "message", "role": "assistant", "content": text}
    if delta:
        event["delta"] = True
    return json.dumps(event)


def test_a_huge_run_keeps_its_latest_text_and_counts_what_it_let_go() -> None:
    from linewise_gemini.final_text import KEPT_CHARS

    message = "x" * 1000
    count = 3 * KEPT_CHARS // 1000
    lines = [_assistant(f"{index:04d}{message}") for index in range(count)]
    lines.append(_assistant("the answer"))
    summary = summarize_run(lines)
    assert summary.final_text is not None
    assert summary.final_text.endswith("\n\nthe answer")  # the end of the run is what is kept
    kept = summary.final_text.count("x" * 1000)
    assert KEPT_CHARS // 2 < kept * 1004 <= KEPT_CHARS  # the blank lines between come on top
    omitted = summary.details["finalTextOmitted"]
    assert isinstance(omitted, int)
    # Every message is either in the final text or counted as let go.
    assert omitted == (count - kept) * 1004


def test_one_endless_streamed_message_keeps_its_end() -> None:
    from linewise_gemini.final_text import KEPT_CHARS

    piece = "abcdefghij" * 100
    pieces = 3 * KEPT_CHARS // len(piece)
    lines = [_assistant(piece, delta=True) for _ in range(pieces)]
    lines.append(_assistant("END", delta=True))
    summary = summarize_run(lines)
    assert summary.final_text is not None and summary.final_text.endswith("abcdefghijEND")
    assert len(summary.final_text) <= 2 * KEPT_CHARS
    omitted = summary.details["finalTextOmitted"]
    assert omitted == pieces * len(piece) + 3 - len(summary.final_text)


def test_a_short_run_says_nothing_was_omitted() -> None:
    summary = summarize_run(LONG_RUN.read_text(encoding="utf-8").splitlines())
    assert not [key for key in summary.details if key.endswith("Omitted")]


def test_errors_beyond_those_kept_are_counted_and_still_classified() -> None:
    from linewise_gemini.summary import KEPT_MESSAGES

    lines = [json.dumps({"type": "error", "message": f"boom {n}"}) for n in range(KEPT_MESSAGES)]
    lines.append(json.dumps({"type": "error", "message": "getaddrinfo ENOTFOUND example.com"}))
    lines.append(json.dumps({"type": "error", "message": "please authenticate"}))
    summary = summarize_run(lines)
    assert len(summary.errors) == KEPT_MESSAGES and summary.errors[0] == "boom 0"
    assert summary.details["errorsOmitted"] == 2
    assert summary.details["transientNetworkError"] is True
    assert summary.details["authRequired"] is True
