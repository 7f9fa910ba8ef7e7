"""The shared ``acpx.*`` event parser against the reference and the engine's documented records."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.acpx import parse_acpx_event
from support import corpus_json

TS = "2026-01-01T00:00:00.000Z"


def _parse(event: dict[str, Any]) -> list[dict[str, Any]] | None:
    return parse_acpx_event(event, TS)  # type: ignore[return-value]


# -- the reference -----------------------------------------------------------------------


def test_reference_ui_parser_case_matches_exactly() -> None:
    cases = corpus_json("paperclip", "acpx-engine", "expected.json")["ui_parser"]
    assert cases
    for case in cases:
        assert case["output_asserted_exactly"]
        assert parse_acpx_event(json.loads(case["line"]), case["ts"]) == case["output"]


def test_reference_tool_call_status_cards_match() -> None:
    """The streamed tool calls of the reference's transcript view tests, line by line.

    A call is shown at every status change with the status (and progress text)
    merged into its input; completed adds the tool_result.
    """
    cases = corpus_json("paperclip", "acpx-engine", "expected.json")["derived_not_asserted"]
    assert len(cases["ui_parser"]) == 6
    for case in cases["ui_parser"]:
        assert parse_acpx_event(json.loads(case["line"]), case["ts"]) == case["output"], case[
            "fixture"
        ]


# -- what is not an acpx event --------------------------------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        {},
        {"type": "assistant"},
        {"type": "acpx"},
        {"type": "acpxtext_delta"},
        {"type": "item.completed", "item": {"type": "acpx.tool_call"}},
        {"type": ["acpx.text_delta"]},
        {"type": None, "text": "hi"},
    ],
)
def test_other_events_are_left_to_the_caller(event: dict[str, Any]) -> None:
    assert _parse(event) is None


# -- each event type, as Paperclip's ACP engine writes it ----------------------------------------


def test_session_becomes_init_with_the_agent_and_its_modes() -> None:
    event = {
        "type": "acpx.session",
        "agent": "codex",
        "sessionId": "backend-1",
        "acpSessionId": "backend-1",
        "agentSessionId": "thread-9",
        "runtimeSessionName": "paperclip-agent-1",
        "mode": "persistent",
        "permissionMode": "approve-all",
        "model": None,
    }
    assert _parse(event) == [
        {
            "kind": "init",
            "ts": TS,
            "model": "codex (persistent / approve-all)",
            "sessionId": "backend-1",
        }
    ]
    assert _parse({"type": "acpx.session", "runtimeSessionName": "name-only"}) == [
        {"kind": "init", "ts": TS, "model": "acpx", "sessionId": "name-only"}
    ]


@pytest.mark.parametrize(
    ("extra", "kind"),
    [
        ({"channel": "output", "tag": "agent_message_chunk"}, "assistant"),
        ({"channel": "thought", "tag": "agent_thought_chunk"}, "thinking"),
        ({"stream": "thinking"}, "thinking"),
        ({"tag": "agent_thought_chunk"}, "thinking"),
        ({"channel": "thought", "provenance": "assistant"}, "thinking"),
        ({}, "assistant"),
    ],
)
def test_text_deltas_are_assistant_or_thinking_fragments(extra: dict[str, Any], kind: str) -> None:
    assert _parse({"type": "acpx.text_delta", "text": "step", **extra}) == [
        {"kind": kind, "ts": TS, "text": "step", "delta": True}
    ]


def test_transport_diagnostics_are_never_shown_as_the_agents_words() -> None:
    event = {
        "type": "acpx.text_delta",
        "text": "Model metadata not found, defaulting to fallback metadata",
        "channel": "output",
        "provenance": "transport",
    }
    assert _parse(event) == [
        {
            "kind": "system",
            "ts": TS,
            "text": "Model metadata not found, defaulting to fallback metadata",
        }
    ]


def test_an_empty_delta_gives_nothing() -> None:
    assert _parse({"type": "acpx.text_delta", "text": ""}) == []
    assert _parse({"type": "acpx.text_delta"}) == []


@pytest.mark.parametrize("status", ["failed", "cancelled"])
def test_a_tool_call_that_did_not_complete_gives_an_error_result(status: str) -> None:
    event = {
        "type": "acpx.tool_call",
        "name": "Terminal",
        "toolCallId": "call_1",
        "status": status,
        "text": "exit 1",
        "tag": "tool_call_update",
    }
    assert _parse(event) == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "Terminal",
            "toolUseId": "call_1",
            "input": {"text": "exit 1", "status": status},
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "call_1",
            "toolName": "Terminal",
            "content": "exit 1",
            "isError": True,
        },
    ]


def test_a_tool_call_keeps_its_own_status_and_non_object_inputs() -> None:
    own = {"type": "acpx.tool_call", "status": "pending", "input": {"status": "mine"}}
    assert _parse(own) == [
        {"kind": "tool_call", "ts": TS, "name": "acp_tool", "input": {"status": "mine"}}
    ]
    listed = {"type": "acpx.tool_call", "name": "x", "id": "i", "status": "running", "input": [1]}
    assert _parse(listed) == [
        {"kind": "tool_call", "ts": TS, "name": "x", "toolUseId": "i", "input": [1]}
    ]
    bare = {"type": "acpx.tool_call"}
    assert _parse(bare) == [{"kind": "tool_call", "ts": TS, "name": "acp_tool", "input": {}}]


def test_a_finished_tool_call_without_an_id_is_paired_by_name() -> None:
    entries = _parse({"type": "acpx.tool_call", "name": "read", "status": "completed"})
    assert entries is not None
    assert entries[1] == {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "read",
        "toolName": "read",
        "content": "completed",
        "isError": False,
    }


@pytest.mark.parametrize(
    ("extra", "content", "is_error"),
    [
        ({"content": "42 lines"}, "42 lines", False),
        ({"output": {"lines": 42}}, '{\n  "lines": 42\n}', False),
        ({"error": "denied"}, "denied", True),
        ({"content": "partial", "isError": True}, "partial", True),
        ({}, "", False),
    ],
)
def test_tool_results(extra: dict[str, Any], content: str, is_error: bool) -> None:
    event = {"type": "acpx.tool_result", "toolUseId": "t1", "name": "read", **extra}
    assert _parse(event) == [
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "t1",
            "toolName": "read",
            "content": content,
            "isError": is_error,
        }
    ]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {"text": "compacting", "tag": "x", "used": 1200, "size": 200000},
            "compacting (1200/200000 ctx)",
        ),
        ({"tag": "usage_update", "used": 10.5, "size": 100}, "usage_update (10.5/100 ctx)"),
        ({"tag": "plan"}, "plan"),
        ({"used": 5, "size": 0}, "status"),
    ],
)
def test_status_reads_as_a_sentence(event: dict[str, Any], text: str) -> None:
    assert _parse({"type": "acpx.status", **event}) == [{"kind": "system", "ts": TS, "text": text}]


def test_result_of_a_turn() -> None:
    completed = {"type": "acpx.result", "summary": "completed", "stopReason": "end_turn"}
    assert _parse(completed) == [
        {
            "kind": "result",
            "ts": TS,
            "text": "completed",
            "inputTokens": 0,
            "outputTokens": 0,
            "cachedTokens": 0,
            "costUsd": 0,
            "subtype": "end_turn",
            "isError": False,
            "errors": [],
        }
    ]
    detailed = {
        "type": "acpx.result",
        "stopReason": "max_tokens",
        "inputTokens": 10,
        "outputTokens": 3,
        "cachedTokens": 4,
        "costUsd": 0.5,
        "isError": True,
        "errors": ["too long", {"code": 1}, None, ""],
    }
    assert _parse(detailed) == [
        {
            "kind": "result",
            "ts": TS,
            "text": "max_tokens",
            "inputTokens": 10,
            "outputTokens": 3,
            "cachedTokens": 4,
            "costUsd": 0.5,
            "subtype": "max_tokens",
            "isError": True,
            "errors": ["too long", '{\n  "code": 1\n}'],
        }
    ]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {"message": "Timed out after 600s", "phase": "turn", "category": "runtime"},
            "Timed out after 600s",
        ),
        # The engine's closing record of a cancelled turn has no message.
        ({"summary": "cancelled", "stopReason": "cancelled", "message": None}, "cancelled"),
        ({"code": 7}, '{"type":"acpx.error","code":7}'),
    ],
)
def test_errors_go_to_stderr(event: dict[str, Any], text: str) -> None:
    assert _parse({"type": "acpx.error", **event}) == [{"kind": "stderr", "ts": TS, "text": text}]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {
                "type": "acpx.permission_observed",
                "sessionId": "s",
                "toolCallId": "call_1",
                "method": "session/request_permission",
                "toolKind": "execute",
                "stage": "requested",
                "permissionMode": "approve-all",
                "transport": "local",
            },
            "permission requested for execute tool call call_1 (approve-all)",
        ),
        (
            {
                "type": "acpx.permission_settled",
                "toolCallId": "call_1",
                "outcome": "completed",
                "ageMs": 1250,
            },
            "permission for tool call call_1 settled: completed after 1.2s",
        ),
        (
            {
                "type": "acpx.permission_unsettled",
                "toolCallId": "call_2",
                "stage": "pending",
                "ageMs": 60000,
            },
            "permission for tool call call_2 never settled (last stage pending) after 60.0s",
        ),
        (
            {
                "type": "acpx.permission_observer_truncated",
                "suppressedObservedEvents": 3,
                "suppressedLedgerEntries": 0,
            },
            "permission observer truncated: 3 observed events suppressed",
        ),
    ],
)
def test_permission_observer_records_read_as_sentences(event: dict[str, Any], text: str) -> None:
    assert _parse(event) == [{"kind": "system", "ts": TS, "text": text}]


def test_unknown_acpx_types_are_named_in_a_system_entry() -> None:
    assert _parse({"type": "acpx.attempt.started", "agent": "codex"}) == [
        {"kind": "system", "ts": TS, "text": "acpx.attempt.started"}
    ]
    assert _parse({"type": "acpx.plan", "message": "3 steps"}) == [
        {"kind": "system", "ts": TS, "text": "acpx.plan: 3 steps"}
    ]


def test_hostile_nesting_never_breaks_the_entry_or_the_caller() -> None:
    deep: object = 1
    for _ in range(600):
        deep = {"x": deep}
    [call] = _parse({"type": "acpx.tool_call", "name": "read", "input": deep}) or []
    assert call["input"] == "(input not shown: it is nested deeper than 512 levels)"
    for _ in range(400):
        deep = {"x": deep}
    # Deeper than any JSON encoder goes: the value is named, not shown.
    assert _parse({"type": "acpx.error", "code": deep}) == [
        {"kind": "stderr", "ts": TS, "text": "<dict nested too deeply to show>"}
    ]


# -- the rules every parser lives by --------------------------------------------------------

# Events are parsed JSON objects, which never hold NaN or infinities.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
acpx_types = st.sampled_from(
    [
        "acpx.session",
        "acpx.text_delta",
        "acpx.tool_call",
        "acpx.tool_result",
        "acpx.status",
        "acpx.result",
        "acpx.error",
        "acpx.permission_observed",
        "acpx.permission_settled",
        "acpx.permission_unsettled",
        "acpx.permission_observer_truncated",
        "acpx.anything",
    ]
)
field_names = st.sampled_from(
    [
        "agent", "mode", "permissionMode", "sessionId", "acpSessionId", "runtimeSessionName",
        "text", "channel", "stream", "tag", "provenance", "name", "toolCallId", "toolUseId", "id",
        "status", "input", "content", "output", "error", "isError", "used", "size", "summary",
        "stopReason", "subtype", "inputTokens", "outputTokens", "cachedTokens", "costUsd",
        "errors", "message", "outcome", "stage", "ageMs", "toolKind", "suppressedLedgerEntries",
    ]
)  # fmt: skip


@given(acpx_types, st.dictionaries(field_names, json_values, max_size=6))
def test_never_raises_and_always_returns_valid_entries_deterministically(
    kind: str, fields: dict[str, Any]
) -> None:
    event = {**fields, "type": kind}
    before = copy.deepcopy(event)
    first = parse_acpx_event(event, TS)
    assert first is not None
    assert first == parse_acpx_event(event, TS)
    assert event == before, "the caller's event must not be changed"
    for entry in first:
        assert entry_problem(entry) is None, entry
