"""The worked examples of the 2026 transcript specification (§3), one test each.

Inputs and outputs are written here from the specification's text (its examples
are the upstream adapter's own test cases); every output is compared whole,
key order included, since ``linewise render -f jsonl`` writes the keys in order.
"""

from __future__ import annotations

import json
from typing import Any

from linewise_contracts import entry_problem
from linewise_paperclip_runner import create_stdout_parser, parse_stdout_line

TS = "2026-08-21T12:00:00.000Z"
TS1 = "2026-08-21T12:00:01.000Z"
PERMISSION_CHOICES = [
    {"key": "accept", "label": "Allow once"},
    {"key": "accept_for_session", "label": "Allow for session"},
    {"key": "decline", "label": "Deny"},
    {"key": "cancel", "label": "Cancel"},
]


def prp(event_type: str, payload: dict[str, Any], **fields: Any) -> str:
    event = {"eventType": event_type, **fields, "payload": payload}
    return json.dumps({"type": "paperclip.prp.event", "event": event})


def exactly(entries: list[Any], expected: list[dict[str, Any]]) -> None:
    assert [list(entry) for entry in entries] == [list(entry) for entry in expected]
    assert entries == expected
    for entry in entries:
        assert entry_problem(entry) is None, entry


def test_ex1_a_tool_use_item_started_is_a_tool_call() -> None:
    line = prp(
        "item.started",
        {"item": {"type": "tool_use", "id": "call-1", "name": "get_task_context", "input": {}}},
    )
    exactly(
        parse_stdout_line(line, TS),
        [
            {
                "kind": "tool_call",
                "ts": TS,
                "name": "get_task_context",
                "toolUseId": "call-1",
                "input": {},
            }
        ],
    )


def test_ex2_a_tool_result_item_completed_is_its_result_as_two_space_json() -> None:
    line = prp(
        "item.completed",
        {
            "item": {
                "type": "tool_result",
                "id": "call-1",
                "tool_use_id": "call-1",
                "result": {"ok": True},
            }
        },
    )
    exactly(
        parse_stdout_line(line, TS1),
        [
            {
                "kind": "tool_result",
                "ts": TS1,
                "toolUseId": "call-1",
                "toolName": "Tool",
                "content": '{\n  "ok": true\n}',
                "isError": False,
            }
        ],
    )


def test_ex3_a_reasoning_delta_is_a_thinking_delta_of_unknown_channel() -> None:
    parser = create_stdout_parser()
    line = prp(
        "item.delta", {"kind": "reasoning", "text": "Inspecting the runner"}, itemId="reason-1"
    )
    exactly(
        parser.parse_line(line, TS),
        [
            {
                "kind": "thinking",
                "ts": TS,
                "text": "Inspecting the runner",
                "delta": True,
                "channel": "unknown",
                "itemId": "reason-1",
            }
        ],
    )


def test_ex4_an_agent_message_delta_is_an_assistant_delta() -> None:
    parser = create_stdout_parser()
    line = prp("item.delta", {"kind": "agentMessage", "text": "Here is"}, itemId="message-1")
    exactly(
        parser.parse_line(line, TS),
        [
            {
                "kind": "assistant",
                "ts": TS,
                "text": "Here is",
                "delta": True,
                "channel": "unknown",
                "itemId": "message-1",
            }
        ],
    )


def test_ex5_a_command_execution_started_is_a_command_tool_call() -> None:
    item = {
        "id": "exec-1",
        "type": "commandExecution",
        "command": "pnpm test",
        "status": "inProgress",
    }
    line = prp("item.started", {"kind": "commandExecution", "item": item}, itemId="exec-1")
    exactly(
        create_stdout_parser().parse_line(line, TS),
        [
            {
                "kind": "tool_call",
                "ts": TS,
                "name": "command",
                "toolUseId": "exec-1",
                "input": {"command": "pnpm test"},
            }
        ],
    )


def test_ex6_a_usage_item_is_a_usage_result() -> None:
    usage = {"total": {"inputTokens": 120, "outputTokens": 30, "cachedInputTokens": 80}}
    line = prp("item.completed", {"kind": "usage", "usage": usage})
    exactly(
        create_stdout_parser().parse_line(line, TS),
        [
            {
                "kind": "result",
                "ts": TS,
                "text": "",
                "inputTokens": 120,
                "outputTokens": 30,
                "cachedTokens": 80,
                "costUsd": 0,
                "subtype": "paperclip.usage",
                "isError": False,
                "errors": [],
            }
        ],
    )


def test_ex7_an_explicit_progress_channel_needs_no_item_started() -> None:
    line = prp(
        "item.delta",
        {"kind": "agentMessage", "channel": "progress", "text": "Running it now."},
        itemId="p1",
    )
    exactly(
        create_stdout_parser().parse_line(line, TS),
        [
            {
                "kind": "assistant",
                "ts": TS,
                "text": "Running it now.",
                "delta": True,
                "channel": "progress",
                "itemId": "p1",
            }
        ],
    )


def test_ex8_an_empty_reasoning_item_still_marks_its_start_and_completion() -> None:
    item = {"id": "reason-empty", "type": "reasoning", "text": ""}
    started = prp(
        "item.started",
        {"kind": "reasoning", "channel": "summary", "item": item},
        itemId="reason-empty",
    )
    completed = prp(
        "item.completed",
        {"kind": "reasoning", "channel": "summary", "item": item},
        itemId="reason-empty",
    )
    marker = {
        "kind": "thinking",
        "ts": TS,
        "text": "",
        "lifecycle": "started",
        "channel": "summary",
    }
    parser = create_stdout_parser()
    exactly(parser.parse_line(started, TS), [{**marker, "itemId": "reason-empty"}])
    exactly(
        parser.parse_line(completed, TS),
        [{**marker, "lifecycle": "completed", "itemId": "reason-empty"}],
    )


def test_ex9_a_structured_final_result_envelope_is_hidden_with_its_later_deltas() -> None:
    parser = create_stdout_parser()
    first = prp(
        "item.delta",
        {"kind": "agentMessage", "channel": "final", "text": '{"schema":'},
        itemId="result-1",
    )
    assert parser.parse_line(first, TS) == []
    later = prp(
        "item.delta",
        {"kind": "agentMessage", "channel": "final", "text": "more"},
        itemId="result-1",
    )
    assert parser.parse_line(later, TS) == []


def _ex10_run_result() -> dict[str, Any]:
    return {
        "kind": "run_result",
        "ts": TS,
        "disposition": "done",
        "summary": "Finished the task",
        "objectiveSatisfied": None,
        "verification": [],
        "remainingWork": [],
        "blocker": None,
        "artifacts": [],
    }


def test_ex10_and_ex11_a_proposed_result_is_shown_once_not_again_when_accepted() -> None:
    parser = create_stdout_parser()
    proposed = prp("run.result.proposed", {"summary": "Finished the task"})
    exactly(parser.parse_line(proposed, TS), [_ex10_run_result()])
    accepted = prp("run.result.accepted", {"result": {"summary": "Finished the task"}})
    assert parser.parse_line(accepted, TS) == []


def test_ex12_a_plan_update_is_a_plan_card_with_its_payload_unchanged() -> None:
    payload = {"complete": True, "explanation": "Ship safely"}
    exactly(
        parse_stdout_line(prp("plan.updated", payload), TS),
        [
            {
                "kind": "provider_activity",
                "ts": TS,
                "family": "plan",
                "eventType": "plan.updated",
                "status": "completed",
                "title": "Plan",
                "summary": "plan.updated",
                "payload": payload,
            }
        ],
    )


def test_ex13_a_model_route_change_is_summarised_by_its_effective_model() -> None:
    payload = {"provider": "claude", "requestedModel": "claude", "effectiveModel": "Claude Sonnet"}
    exactly(
        parse_stdout_line(prp("model.route.changed", payload), TS1),
        [
            {
                "kind": "provider_activity",
                "ts": TS1,
                "family": "model_identity",
                "eventType": "model.route.changed",
                "status": "informational",
                "title": "Model",
                "summary": "Claude Sonnet",
                "payload": payload,
            }
        ],
    )


def test_ex14_a_recorded_diff_is_a_workspace_change() -> None:
    file = {
        "path": "ui/src/App.tsx",
        "operation": "modify",
        "previousPath": None,
        "additions": 3,
        "deletions": 1,
        "binary": False,
        "diff": "+hello",
    }
    payload = {
        "changeSetId": "changes-1",
        "revision": 2,
        "source": "runner_verified",
        "complete": True,
        "files": [file],
        "totals": {"files": 1, "additions": 3, "deletions": 1},
        "patchArtifactRef": None,
    }
    exactly(
        create_stdout_parser().parse_line(prp("workspace.diff.recorded", payload), TS),
        [{"kind": "workspace_change", "ts": TS, **payload}],
    )


def test_ex15_a_referenced_file_is_a_workspace_file_reference() -> None:
    payload = {
        "referenceId": "file-1",
        "source": "runner_verified",
        "path": "doc/protocol.md",
        "displayName": "protocol.md",
        "mediaType": "text/markdown",
        "presentation": "document",
        "line": 12,
        "preview": "# Protocol",
        "previewTruncated": False,
        "contentDigest": None,
    }
    exactly(
        create_stdout_parser().parse_line(prp("workspace.file.referenced", payload), TS),
        [{"kind": "workspace_file_reference", "ts": TS, **payload}],
    )


def test_ex16_an_unsafe_file_reference_is_a_system_line_not_the_path() -> None:
    line = prp("workspace.file.referenced", {"referenceId": "unsafe", "path": "../secrets.env"})
    exactly(
        create_stdout_parser().parse_line(line, TS),
        [
            {
                "kind": "system",
                "ts": TS,
                "text": "Runner: Ignored an unsafe workspace file reference",
            }
        ],
    )


def _ex17_request() -> dict[str, Any]:
    return {
        "kind": "runtime_request",
        "ts": TS,
        "requestId": "request-1",
        "requestKind": "command_approval",
        "turnId": "turn-1",
        "requestType": "permission",
        "status": "pending",
        "prompt": "Allow command?",
        "choices": PERMISSION_CHOICES,
        "fields": [],
        "questionSet": None,
        "resolvedAction": None,
        "response": None,
    }


def test_ex17_and_ex18_a_request_is_coalesced_through_its_lifecycle() -> None:
    parser = create_stdout_parser()
    request = {
        "requestId": "request-1",
        "requestKind": "command_approval",
        "type": "item/commandExecution/requestApproval",
        "status": "pending",
        "prompt": "Allow command?",
    }
    created = prp("runtime_request.created", {"request": request}, turnId="turn-1")
    exactly(parser.parse_line(created, TS), [_ex17_request()])
    resolved = prp("runtime_request.resolved", {"requestId": "request-1"}, turnId="turn-1")
    exactly(parser.parse_line(resolved, TS), [{**_ex17_request(), "status": "resolved"}])


def test_ex18_continued_an_input_request_through_answer_expiry_and_cancel() -> None:
    parser = create_stdout_parser()
    question_set = {
        "schema": "paperclip.question_set.v1",
        "questions": [
            {
                "id": "environment",
                "prompt": "Where?",
                "answerMode": "single_select",
                "options": [{"id": "staging", "label": "Staging"}],
            }
        ],
    }
    request = {
        "requestId": "request-2",
        "requestKind": "runtime",
        "type": "input",
        "prompt": "Choose",
        "input": question_set,
    }
    [created] = parser.parse_line(prp("runtime_request.created", {"request": request}), TS)
    assert (created["requestType"], created["status"], created["choices"]) == (
        "input",
        "pending",
        [],
    )
    assert created["questionSet"]["questions"][0]["options"] == [
        {"id": "staging", "label": "Staging"}
    ]
    response = {
        "schema": "paperclip.question_response.v1",
        "answers": {"environment": {"selectedOptionIds": ["staging"]}},
    }
    [resolved] = parser.parse_line(
        prp(
            "runtime_request.resolved",
            {"requestId": "request-2", "action": "submit", "response": response},
        ),
        TS,
    )
    assert (resolved["status"], resolved["resolvedAction"]) == ("resolved", "submit")
    assert resolved["response"] == response and resolved["prompt"] == "Choose"

    redacted = {
        **request,
        "requestId": "request-3",
        "input": {**question_set, "schema": "***REDACTED***"},
    }
    [recovered] = parser.parse_line(prp("runtime_request.created", {"request": redacted}), TS)
    assert recovered["questionSet"]["schema"] == "paperclip.question_set.v1"

    [expired] = parser.parse_line(prp("runtime_request.expired", {"requestId": "request-3"}), TS)
    assert (expired["status"], expired["prompt"], expired["requestType"]) == (
        "expired",
        "Choose",
        "input",
    )

    [cancelled] = parser.parse_line(
        prp("runtime_request.resolved", {"requestId": "request-3", "action": "cancel"}), TS
    )
    assert (cancelled["status"], cancelled["resolvedAction"]) == ("cancelled", "cancel")
    for entry in (created, resolved, recovered, expired, cancelled):
        assert entry_problem(entry) is None


def test_ex19_a_run_terminal_names_turn_run_disposition_and_stop_reason() -> None:
    payload = {
        "turnTerminalState": "interrupted",
        "runTerminalState": "cancelled",
        "reportedWorkDisposition": "yielded",
        "stopReason": {"code": "user_stop"},
    }
    exactly(
        create_stdout_parser().parse_line(prp("run.terminal", payload, turnId="turn-1"), TS),
        [
            {
                "kind": "run_terminal",
                "ts": TS,
                "turnState": "interrupted",
                "runState": "cancelled",
                "disposition": "yielded",
                "stopReason": "user_stop",
            }
        ],
    )


def test_ex20_mcp_app_tool_input_result_usage_and_failure() -> None:
    parser = create_stdout_parser()
    tool = {"callId": "mcp-1", "operationId": "paperclip.tasks.create"}
    denied = {**tool, "outcome": "denied", "code": "audience_denied"}
    exactly(
        parser.parse_line(prp("mcp_app.tool_result", {"semantic_tool": denied}), TS),
        [
            {
                "kind": "tool_result",
                "ts": TS,
                "toolUseId": "mcp-1",
                "toolName": "paperclip.tasks.create",
                "content": "audience_denied",
                "isError": True,
            }
        ],
    )
    called = {**tool, "content": {"references": [{"kind": "issue", "id": "PAP-2"}]}}
    exactly(
        parser.parse_line(prp("mcp_app.tool_input", {"semantic_tool": called}), TS),
        [
            {
                "kind": "tool_call",
                "ts": TS,
                "name": "paperclip.tasks.create",
                "toolUseId": "mcp-1",
                "input": {"reference": "issue:PAP-2"},
            }
        ],
    )
    usage = {"runDelta": {"inputTokens": 240, "outputTokens": 60, "cacheReadTokens": 120}}
    [result] = parser.parse_line(prp("usage.reported", usage), TS)
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (240, 60, 120)
    failed = {"code": "host_unavailable", "message": "Artifact host unavailable"}
    exactly(
        parser.parse_line(prp("mcp_app.failed", failed), TS),
        [{"kind": "system", "ts": TS, "text": "Runner: Artifact host unavailable"}],
    )


def test_a_line_that_is_not_json_goes_to_the_codex_fallback_as_stdout() -> None:
    assert create_stdout_parser().parse_line("hello", TS) == [
        {"kind": "stdout", "ts": TS, "text": "hello"}
    ]


def test_the_fourteen_canonical_activity_cases_give_the_derived_status_and_summary() -> None:
    cases = [
        (
            "plan.updated",
            {"complete": True, "explanation": "Ship safely"},
            "plan",
            "completed",
            "plan.updated",
        ),
        (
            "tool.execution.completed",
            {"status": "completed", "name": "tests"},
            "tool_execution",
            "completed",
            "tests",
        ),
        (
            "research.completed",
            {"status": "completed", "query": "PRP"},
            "research",
            "completed",
            "PRP",
        ),
        (
            "delegation.completed",
            {"status": "completed", "action": "spawn"},
            "delegation",
            "completed",
            "delegation.completed",
        ),
        (
            "model.route.changed",
            {"provider": "claude", "requestedModel": "claude", "effectiveModel": "Claude Sonnet"},
            "model_identity",
            "informational",
            "Claude Sonnet",
        ),
        (
            "context.compacted",
            {"reason": "window"},
            "context",
            "informational",
            "context.compacted",
        ),
        (
            "artifact.generated",
            {"status": "completed", "reference": "image.png"},
            "artifact",
            "completed",
            "artifact.generated",
        ),
        (
            "review.mode.changed",
            {"state": "entered"},
            "review",
            "informational",
            "review.mode.changed",
        ),
        (
            "hook.completed",
            {"status": "completed", "event": "post-tool"},
            "hook",
            "completed",
            "hook.completed",
        ),
        (
            "memory.citation.referenced",
            {"label": "Decision"},
            "memory",
            "informational",
            "memory.citation.referenced",
        ),
        (
            "safety.review.completed",
            {"status": "completed", "decision": "allowed"},
            "safety",
            "completed",
            "safety.review.completed",
        ),
        (
            "terminal.input.sent",
            {"byteCount": 1},
            "terminal",
            "informational",
            "terminal.input.sent",
        ),
        (
            "wait.completed",
            {"status": "completed", "reason": "timer"},
            "wait",
            "completed",
            "wait.completed",
        ),
        (
            "provider.notice.recorded",
            {"summary": "Provider warning"},
            "provider_notice",
            "informational",
            "Provider warning",
        ),
    ]
    for event_type, payload, family, status, summary in cases:
        [entry] = parse_stdout_line(prp(event_type, payload), TS)
        assert (entry["family"], entry["status"], entry["summary"]) == (family, status, summary), (
            event_type
        )
        assert entry["payload"] == payload and entry_problem(entry) is None


def test_run_terminal_does_not_match_the_terminal_prefix() -> None:
    [entry] = parse_stdout_line(prp("run.terminal", {}), TS)
    assert entry["kind"] == "run_terminal"
