"""Claude Code 2.1.x events beside the messages, and the fields older parsers lost.

Events marked "documented type" have no real capture in the corpus: their
lines are written here from the Claude Agent SDK's published TypeScript types
(``SDKMessage`` in ``sdk.d.ts``: SDKToolProgressMessage, SDKToolUseSummaryMessage,
SDKAuthStatusMessage, SDKPromptSuggestionMessage, SDKConversationResetMessage,
the SDKSystemMessage subtypes, SDKAssistantMessage.error, SDKResultMessage with
terminal_reason / permission_denials / modelUsage, and the control protocol's
can_use_tool request), field for field.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from linewise_claude import create_stdout_parser, parse_stdout_line, sniff
from linewise_contracts import entry_problem
from support import corpus_path, numbered_lines, parse_flat

TS = "2026-01-01T00:00:00.000Z"


def _one(event: dict[str, Any]) -> list[dict[str, Any]]:
    entries = parse_stdout_line(json.dumps(event), TS)
    for entry in entries:
        assert entry_problem(entry) is None
    return entries  # type: ignore[return-value]


def _text(event: dict[str, Any]) -> str:
    entries = _one(event)
    assert len(entries) == 1, entries
    return str(entries[0]["text"])


# -- defects found on real logs -----------------------------------------------------------


def test_hook_output_is_kept_whole_in_the_entry() -> None:
    path = corpus_path("real-logs", "claude", "trackgentic-mp9xlpc0-api-retry-23.jsonl")
    number, line = numbered_lines(path)[1]
    output = json.loads(line)["output"]
    assert len(output) > 20_000
    [entry] = parse_stdout_line(line, TS)
    assert output.strip() in entry["text"], f"line {number}"


def test_a_finished_compaction_is_not_reported_as_idle() -> None:
    event = {"type": "system", "subtype": "status", "status": None, "compact_result": "success"}
    assert _text(event) == "compaction succeeded"
    failed = {**event, "compact_result": "failed", "compact_error": "prompt too long"}
    assert _text(failed) == "compaction failed; compaction error: prompt too long"


def test_a_task_notification_keeps_its_output_file_and_token_totals() -> None:
    text = _text(
        {
            "type": "system",
            "subtype": "task_notification",
            "task_id": "a1",
            "tool_use_id": "toolu_A",
            "status": "completed",
            "output_file": "/tmp/tasks/a1.output",
            "summary": "all done",
            "usage": {"total_tokens": 13205, "tool_uses": 1, "duration_ms": 25345},
        }
    )
    assert text == (
        "task completed (1 tool uses, 13205 tokens, 25.3s); output in /tmp/tasks/a1.output\n"
        "all done"
    )


def test_a_rate_limit_event_keeps_the_overage_status_and_every_window() -> None:
    text = _text(
        {
            "type": "rate_limit_event",
            "rate_limit_info": {
                "status": "allowed",
                "resetsAt": 1790678400,
                "rateLimitType": "five_hour",
                "overageStatus": "rejected",
                "overageDisabledReason": "org_level_disabled",
                "isUsingOverage": False,
                "unifiedWindows": {
                    "five_hour": {"utilization": 0.07, "resetsAt": 1790678400},
                    "seven_day": {"utilization": 0.72, "resetsAt": 1790679600},
                },
            },
        }
    )
    assert text == (
        "rate limit allowed: five_hour window 7% used, resets 2026-09-29T10:40:00.000Z; "
        "overage rejected (org_level_disabled); seven_day 72% used, resets 2026-09-29T11:00:00.000Z"
    )


def test_internal_diagnostics_are_not_shown_as_errors() -> None:
    [system, result, terminal] = _one(
        {
            "type": "result",
            "subtype": "error_during_execution",
            "is_error": True,
            "errors": ["[ede_diagnostic] result_type=user last_content_type=n/a"],
            "terminal_reason": "aborted_tools",
            "total_cost_usd": 0.24,
            "num_turns": 15,
            "usage": {"input_tokens": 10, "output_tokens": 2},
        }
    )
    assert system["text"] == "run ended: aborted_tools"
    assert result["errors"] == [] and result["isError"] is True
    # Contract 1.3: an aborted run is interrupted, not failed, in its terminal state.
    assert terminal == {
        "kind": "run_terminal",
        "ts": TS,
        "turnState": "interrupted",
        "runState": "cancelled",
        "disposition": "yielded",
        "stopReason": "aborted_tools",
    }


def test_a_max_turns_result_is_an_error() -> None:
    [system, result, terminal] = _one(
        {
            "type": "result",
            "subtype": "error_max_turns",
            "is_error": False,
            "errors": [],
            "terminal_reason": "max_turns",
            "total_cost_usd": 1.0,
        }
    )
    assert result["isError"] is True and system["text"] == "run ended: max_turns"
    assert (terminal["turnState"], terminal["runState"], terminal["disposition"]) == (
        "failed",
        "failed",
        "blocked",
    )
    assert terminal["stopReason"] == "max_turns"


def test_result_tokens_are_the_wires_main_loop_usage() -> None:
    """documented type: the entry keeps the result's own ``usage`` (as the reference does);
    the run summary's totals come from modelUsage (every model call, subagents included)."""
    [denials, result, _terminal] = _one(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": "done",
            "total_cost_usd": 0.5,
            "usage": {"input_tokens": 1, "output_tokens": 2, "cache_read_input_tokens": 3},
            "modelUsage": {
                "claude-opus-4-5": {
                    "inputTokens": 10,
                    "outputTokens": 20,
                    "cacheReadInputTokens": 30,
                    "cacheCreationInputTokens": 5,
                    "costUSD": 0.4,
                },
                "claude-haiku-4-5": {
                    "inputTokens": 1,
                    "outputTokens": 2,
                    "cacheReadInputTokens": 3,
                    "cacheCreationInputTokens": 0,
                    "costUSD": 0.1,
                },
            },
            "permission_denials": [
                {"tool_name": "Bash", "tool_use_id": "toolu_9", "tool_input": {"command": "rm"}}
            ],
        }
    )
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (1, 2, 3)
    assert denials["text"] == "tool calls denied (1): Bash (toolu_9)"


# -- documented types (Claude Agent SDK sdk.d.ts) --------------------------------------------


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {
                "type": "tool_progress",
                "tool_use_id": "toolu_1",
                "tool_name": "Bash",
                "parent_tool_use_id": None,
                "elapsed_time_seconds": 12.4,
            },
            "Bash running for 12s",
        ),
        (
            {"type": "tool_use_summary", "summary": "Read 3 files", "preceding_tool_use_ids": []},
            "tool summary: Read 3 files",
        ),
        (
            {"type": "prompt_suggestion", "suggestion": "Run the tests"},
            "suggested next prompt: Run the tests",
        ),
        (
            {"type": "conversation_reset", "new_conversation_id": "c-2"},
            "conversation reset; new conversation c-2",
        ),
        (
            {"type": "auth_status", "isAuthenticating": True, "output": ["Opening browser"]},
            "authenticating\nOpening browser",
        ),
        (
            {
                "type": "system",
                "subtype": "permission_denied",
                "tool_name": "Bash",
                "tool_use_id": "toolu_2",
                "decision_reason_type": "rule",
                "message": "Bash(rm:*) is denied",
            },
            "permission denied: Bash (rule): Bash(rm:*) is denied",
        ),
        (
            {
                "type": "system",
                "subtype": "informational",
                "content": "Stop hook prevented continuation",
                "level": "warning",
                "prevent_continuation": True,
            },
            "warning: Stop hook prevented continuation (execution stops here)",
        ),
        (
            {
                "type": "system",
                "subtype": "model_refusal_fallback",
                "trigger": "refusal",
                "direction": "retry",
                "original_model": "claude-opus-4-5",
                "fallback_model": "claude-sonnet-4-5",
                "request_id": None,
                "content": "Retrying with another model",
            },
            "model claude-opus-4-5 refused; falling back to claude-sonnet-4-5 (retry)\n"
            "Retrying with another model",
        ),
        (
            {
                "type": "system",
                "subtype": "hook_progress",
                "hook_id": "h1",
                "hook_name": "PreToolUse:Bash",
                "hook_event": "PreToolUse",
                "stdout": "checking",
                "stderr": "",
                "output": "checking",
            },
            "hook PreToolUse:Bash running\nchecking",
        ),
        (
            {"type": "system", "subtype": "session_state_changed", "state": "requires_action"},
            "session requires_action",
        ),
        (
            {"type": "system", "subtype": "task_summary", "detail": "Reading the tests"},
            "task summary: Reading the tests",
        ),
        (
            {
                "type": "system",
                "subtype": "post_turn_summary",
                "summarizes_uuid": "u1",
                "status_category": "thinking_it_over",
                "status_detail": "waiting for a choice",
                "needs_action": "Pick X or Y",
            },
            "turn summary (thinking_it_over): waiting for a choice\nneeds action: Pick X or Y",
        ),
        (
            {"type": "system", "subtype": "worker_shutting_down", "reason": "host_exit"},
            "worker shutting down (host_exit)",
        ),
        (
            {
                "type": "system",
                "subtype": "files_persisted",
                "files": [{"filename": "a.txt", "file_id": "f1"}],
                "failed": [{"filename": "b.txt", "error": "too big"}],
                "processed_at": "2026-01-01T00:00:00Z",
            },
            "files persisted: a.txt, failed: b.txt (too big)",
        ),
        (
            {"type": "system", "subtype": "local_command_output", "content": "Total cost: $0.12"},
            "Total cost: $0.12",
        ),
        (
            {
                "type": "system",
                "subtype": "plugin_install",
                "status": "failed",
                "name": "lint",
                "error": "not found",
            },
            "plugin lint install failed: not found",
        ),
    ],
)
def test_documented_event_types_read_as_sentences(event: dict[str, Any], text: str) -> None:
    event = {**event, "uuid": "u", "session_id": "s"}
    assert _one(event) == [{"kind": "system", "ts": TS, "text": text}]


def test_heartbeats_give_no_entry() -> None:
    """documented type: tool_progress with heartbeat, and an empty task_summary."""
    heartbeat = {"type": "tool_progress", "tool_name": "Bash", "heartbeat": True}
    assert _one(heartbeat) == []
    assert _one({"type": "system", "subtype": "task_summary", "detail": None}) == []
    assert _one({"type": "keep_alive"}) == []


def test_failures_among_side_events_are_errors() -> None:
    """documented types: a refusal without fallback, a mirror error, a failed login."""
    refusal = {
        "type": "system",
        "subtype": "model_refusal_no_fallback",
        "original_model": "claude-opus-4-5",
        "request_id": None,
        "api_refusal_category": "cyber",
        "content": "The model declined.",
    }
    assert _one(refusal) == [
        {
            "kind": "stderr",
            "ts": TS,
            "text": "model claude-opus-4-5 refused; no fallback\ncategory cyber\nThe model declined.",
        }
    ]
    auth = {"type": "auth_status", "isAuthenticating": False, "output": [], "error": "expired"}
    assert [e["kind"] for e in _one(auth)] == ["system", "stderr"]


def test_an_assistant_error_is_an_error_not_assistant_text() -> None:
    """documented type: SDKAssistantMessage.error (authentication_failed, billing_error, ...)."""
    entries = _one(
        {
            "type": "assistant",
            "message": {
                "id": "m1",
                "model": "<synthetic>",
                "content": [{"type": "text", "text": "Invalid API key · Please run /login"}],
            },
            "parent_tool_use_id": None,
            "error": "authentication_failed",
            "timestamp": "2026-08-08T08:42:34.962Z",
        }
    )
    assert entries == [
        {
            "kind": "stderr",
            "ts": "2026-08-08T08:42:34.962Z",
            "text": "API error: authentication_failed",
        },
        {
            "kind": "stderr",
            "ts": "2026-08-08T08:42:34.962Z",
            "text": "Invalid API key · Please run /login",
        },
    ]


def test_a_permission_prompt_and_its_answer() -> None:
    """The can_use_tool request is real (Claude Code 2.1.226); the answer is the documented
    control_response shape."""
    request = {
        "type": "control_request",
        "request_id": "r1",
        "request": {
            "subtype": "can_use_tool",
            "tool_name": "Write",
            "display_name": "Write",
            "input": {"file_path": "hello.txt", "content": "hi"},
            "description": "hello.txt",
            "permission_suggestions": [
                {"type": "setMode", "mode": "acceptEdits", "destination": "session"}
            ],
            "tool_use_id": "toolu_1",
        },
    }
    prompt = (
        "permission requested: Write (hello.txt)\n"
        "suggested: setMode acceptEdits session\n"
        'input: {"file_path":"hello.txt","content":"hi"}'
    )
    # Contract 1.3: the prompt is a pending runtime_request; its text is what the system
    # line of 1.2 said.
    pending = {
        "kind": "runtime_request",
        "ts": TS,
        "requestId": "r1",
        "requestKind": "permission_approval",
        "turnId": None,
        "requestType": "permission",
        "status": "pending",
        "prompt": prompt,
        "choices": [{"key": "allow", "label": "Allow"}, {"key": "deny", "label": "Deny"}],
        "fields": [],
        "questionSet": None,
        "resolvedAction": None,
        "response": None,
    }
    assert _one(request) == [pending]
    answer = {
        "type": "control_response",
        "response": {
            "subtype": "success",
            "request_id": "r1",
            "response": {"behavior": "deny", "message": "not now"},
        },
    }
    # On its own (stateless) the answer is a sentence; after its request, the request's
    # answered snapshot.
    assert _text(answer) == "permission deny: not now"
    parser = create_stdout_parser()
    assert parser.parse_line(json.dumps(request), TS) == [pending]
    assert parser.parse_line(json.dumps(answer), TS) == [
        {**pending, "status": "cancelled", "resolvedAction": "deny"}
    ]
    error = {
        "type": "control_response",
        "response": {"subtype": "error", "request_id": "r2", "error": "boom"},
    }
    assert _one(error) == [{"kind": "stderr", "ts": TS, "text": "control request r2 failed: boom"}]


def test_an_edit_result_shows_its_diff_and_an_interrupted_command_says_so() -> None:
    lines = [
        json.dumps(
            {
                "type": "assistant",
                "message": {
                    "id": "m",
                    "content": [
                        {"type": "tool_use", "id": "t1", "name": "Edit", "input": {}},
                        {"type": "tool_use", "id": "t2", "name": "Bash", "input": {}},
                    ],
                },
            }
        ),
        json.dumps(
            {
                "type": "user",
                "message": {
                    "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "updated"}]
                },
                "tool_use_result": {
                    "filePath": "a.py",
                    "structuredPatch": [
                        {
                            "oldStart": 1,
                            "oldLines": 1,
                            "newStart": 1,
                            "newLines": 1,
                            "lines": ["-x = 1", "+x = 2"],
                        }
                    ],
                },
            }
        ),
        json.dumps(
            {
                "type": "user",
                "message": {
                    "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "partial"}]
                },
                "tool_use_result": {"stdout": "partial", "stderr": "", "interrupted": True},
            }
        ),
    ]
    entries = parse_flat(create_stdout_parser, lines, ts=TS)
    assert [
        (e["kind"], e.get("changeType"), e.get("text", e.get("content"))) for e in entries[2:]
    ] == [
        ("tool_result", None, "updated"),
        ("diff", "file_header", "--- a.py"),
        ("diff", "file_header", "+++ a.py"),
        ("diff", "hunk", "@@ -1,1 +1,1 @@"),
        ("diff", "remove", "-x = 1"),
        ("diff", "add", "+x = 2"),
        ("tool_result", None, "partial\n(interrupted)"),
    ]


def test_a_subagent_line_nests_under_its_call_and_the_stateless_parser_agrees() -> None:
    line = json.dumps(
        {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": "Explore the repo"}]},
            "parent_tool_use_id": "toolu_T",
            "timestamp": "2026-09-29T06:31:49.604Z",
        }
    )
    expected = [
        {
            "kind": "user",
            "ts": "2026-09-29T06:31:49.604Z",
            "text": "Explore the repo",
            "parentToolUseId": "toolu_T",
        }
    ]
    assert parse_stdout_line(line, TS) == expected
    assert create_stdout_parser().parse_line(line, TS) == expected


def test_a_log_with_the_new_event_types_is_still_recognised_as_claude() -> None:
    lines = [
        json.dumps({"type": "system", "subtype": "init", "session_id": "s", "tools": []}),
        json.dumps({"type": "tool_progress", "tool_name": "Bash", "elapsed_time_seconds": 1}),
        json.dumps({"type": "system", "subtype": "post_turn_summary", "status_detail": "ok"}),
        json.dumps({"type": "prompt_suggestion", "suggestion": "next"}),
    ]
    assert sniff(lines) >= 0.9


def test_task_events_nest_under_a_subagent_call_but_not_under_a_background_command() -> None:
    """documented type: task_notification also reports background Bash commands."""
    call = {
        "type": "assistant",
        "message": {
            "id": "m",
            "content": [
                {"type": "tool_use", "id": "toolu_A", "name": "Agent", "input": {}},
                {"type": "tool_use", "id": "toolu_B", "name": "Bash", "input": {}},
            ],
        },
    }
    done = {"type": "system", "subtype": "task_notification", "status": "completed"}
    lines = [
        json.dumps(call),
        json.dumps({**done, "task_id": "a", "tool_use_id": "toolu_A", "summary": "found it"}),
        json.dumps({**done, "task_id": "b", "tool_use_id": "toolu_B", "summary": "exit 0"}),
    ]
    subagent, command = parse_flat(create_stdout_parser, lines, ts=TS)[2:]
    assert subagent["parentToolUseId"] == "toolu_A"
    assert "parentToolUseId" not in command


def test_an_unknown_event_in_claudes_envelope_is_a_system_entry_not_raw_json() -> None:
    line = json.dumps({"type": "brand_new", "detail": 1, "uuid": "u", "session_id": "s"})
    assert parse_stdout_line(line, TS) == [
        {"kind": "system", "ts": TS, "text": 'brand_new: {"detail":1}'}
    ]


def test_an_api_retry_with_a_nested_error_status_reads_as_no_status() -> None:
    status: object = 529
    for _ in range(600):
        status = [status]
    line = json.dumps(
        {
            "type": "system",
            "subtype": "api_retry",
            "attempt": 1,
            "max_retries": 3,
            "error_status": status,
            "error": "overloaded",
            "session_id": "s",
        }
    )
    (entry,) = parse_stdout_line(line, TS)
    assert (
        entry["kind"] == "system" and "HTTP" not in entry["text"] and "overloaded" in entry["text"]
    )
    ok = json.dumps(
        {
            "type": "system",
            "subtype": "api_retry",
            "attempt": 1,
            "max_retries": 3,
            "error_status": 529,
            "error": "overloaded",
            "session_id": "s",
        }
    )
    assert "HTTP 529" in parse_stdout_line(ok, TS)[0]["text"]


def test_a_turn_summary_of_a_known_category_is_the_run_result_it_claims() -> None:
    [claimed] = _one(
        {
            "type": "system",
            "subtype": "post_turn_summary",
            "status_category": "blocked",
            "status_detail": "waiting for a choice",
            "needs_action": "Pick X or Y",
        }
    )
    assert claimed == {
        "kind": "run_result",
        "ts": TS,
        "disposition": "blocked",
        "summary": "waiting for a choice",
        "objectiveSatisfied": None,
        "verification": [],
        "remainingWork": [{"description": "Pick X or Y", "blocksCompletion": True}],
        "blocker": None,
        "artifacts": [],
    }


def test_a_question_and_its_answer_are_an_input_request_resolved_with_the_choice() -> None:
    path = corpus_path("real-logs", "claude", "vincent-stream_question_2.1.226.jsonl")
    entries = parse_flat(create_stdout_parser, path.read_text(encoding="utf-8").splitlines(), ts=TS)
    pending, answered = [e for e in entries if e["kind"] == "runtime_request"]
    assert (pending["requestType"], pending["status"]) == ("input", "pending")
    [question] = pending["questionSet"]["questions"]
    assert (question["header"], question["prompt"], question["answerMode"]) == (
        "Color",
        "Which color do you prefer?",
        "single_select",
    )
    assert [option["label"] for option in question["options"]] == ["Red", "Blue"]
    assert (answered["status"], answered["resolvedAction"]) == ("resolved", "submit")
    assert answered["response"]["answers"] == {
        "Which color do you prefer?": {"selectedOptionIds": ["Red"]}
    }
    assert entries.index(answered) < next(
        i for i, e in enumerate(entries) if e["kind"] == "tool_result"
    )


def test_a_refused_tool_call_resolves_its_permission_prompt_as_denied() -> None:
    request = {
        "type": "control_request",
        "request_id": "r9",
        "request": {"subtype": "can_use_tool", "tool_name": "Bash", "tool_use_id": "t9"},
    }
    refusal = {
        "type": "user",
        "message": {
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t9",
                    "is_error": True,
                    "content": "The user doesn't want to proceed with this tool use.",
                }
            ]
        },
    }
    parser = create_stdout_parser()
    parser.parse_line(json.dumps(request), TS)
    answered, result = parser.parse_line(json.dumps(refusal), TS)
    assert (answered["status"], answered["resolvedAction"]) == ("cancelled", "deny")
    assert result["kind"] == "tool_result"
    # Answered once: a second result for the same call does not answer again.
    assert [e["kind"] for e in parser.parse_line(json.dumps(refusal), TS)] == ["tool_result"]
