"""Every real Claude log, whole: nothing lost, every result paired, subagents nested, real times."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linewise_claude import create_stdout_parser
from linewise_contracts.extract import iso_timestamp
from support import corpus_path, numbered_lines, parse_all

TS = "2026-01-01T00:00:00.000Z"

# Fields whose text has no place in the contract, listed in plugins/claude/README.md
# ("What is not in the entries"): identifiers, routing, the session's configuration
# lists, signatures, and values the entries carry in another form (a timestamp, a
# tool_use_result that repeats the tool result's text).
NOT_IN_ENTRIES = frozenset(
    {
        "type",
        "subtype",
        "uuid",
        "session_id",
        "request_id",
        "id",
        "signature",
        "timestamp",
        "model",
        "role",
        "stop_reason",
        "stop_sequence",
        "service_tier",
        "inference_geo",
        "speed",
        "caller",
        "hook_id",
        "task_id",
        "tools",
        "slash_commands",
        "terminal_slash_commands",
        "agents",
        "skills",
        "plugins",
        "capabilities",
        "memory_paths",
        "fast_mode_state",
        "fast_mode_disabled_reason",
        "view_mode",
        "wire_tool_inputs",
        "tool_use_result",
        "local_command_source",
        "usage",
        "modelUsage",
        "permission_denials",
        "stop_details",
        "diagnostics",
        "context_management",
        "container",
        "input_transformations",
        "logical_parent_uuid",
        "subagent_stats",
        "parent_tool_use_id",
        "terminal_reason",
        "key",
        "priority",
        "tool_use_id",
        "messaging_socket_path",
        "preserved_segment",
        "preserved_messages",
        "cwd",
        "claude_code_version",
        "permissionMode",
        "output_style",
        "apiKeySource",
        "mcp_servers",
    }
)


def _real_logs() -> list[Path]:
    return sorted(corpus_path("real-logs", "claude").glob("*.jsonl"))


def _transcript(path: Path) -> list[tuple[int, dict[str, Any], list[dict[str, Any]]]]:
    lines = numbered_lines(path)
    batches = parse_all(create_stdout_parser, [line for _, line in lines], ts=TS)
    return [
        (number, json.loads(line), entries)
        for (number, line), entries in zip(lines, batches, strict=True)
    ]


def _strings(value: object, key: str = "") -> list[str]:
    if key in NOT_IN_ENTRIES:
        return []
    if type(value) is str:
        return [value.strip()] if value.strip() else []
    if type(value) is dict:
        return [text for k, v in value.items() for text in _strings(v, k)]
    if type(value) is list:
        return [text for item in value for text in _strings(item, key)]
    return []


def _leaves(value: object) -> list[str]:
    if type(value) is str:
        return [value]
    if type(value) is dict:
        return [text for item in value.values() for text in _leaves(item)]
    if type(value) is list:
        return [text for item in value for text in _leaves(item)]
    return []


def _entry_text(entries: list[dict[str, Any]]) -> str:
    return "\n".join(_leaves(entries))


def test_no_text_of_a_real_line_is_missing_from_the_transcript() -> None:
    for path in _real_logs():
        transcript = _transcript(path)
        everything = _entry_text([entry for _, _, entries in transcript for entry in entries])
        for number, event, _ in transcript:
            for text in _strings(event):
                assert text in everything, f"{path.name}:{number}: {text[:120]!r} is in no entry"


def test_every_tool_result_is_paired_with_its_call() -> None:
    results = 0
    for path in _real_logs():
        calls: set[str] = set()
        for number, _, entries in _transcript(path):
            for entry in entries:
                if entry["kind"] == "tool_call":
                    calls.add(entry["toolUseId"])
                elif entry["kind"] == "tool_result":
                    results += 1
                    assert entry["toolUseId"] in calls, f"{path.name}:{number}"
                    assert "toolName" in entry, f"{path.name}:{number}"
    assert results > 550


def test_subagent_entries_carry_the_call_that_started_them() -> None:
    """Real runs with Task/Agent subagents: each subagent entry names its parent call, which is
    in the transcript before it; no main-thread entry carries one."""
    runs = [
        "perfectsnake-run1-max-turns.jsonl",
        "perfectsnake-run2-max-turns.jsonl",
        "perfectsnake-run3-max-turns.jsonl",
        "claude-clean-mcp-diagnostic-47.jsonl",
        "hivemind-2.1.284-subagent-thinking-tokens.jsonl",
    ]
    nested = 0
    for name in runs:
        delegates: set[str] = set()
        for number, event, entries in _transcript(corpus_path("real-logs", "claude", name)):
            parent = event.get("parent_tool_use_id") or (
                event.get("tool_use_id")
                if str(event.get("subtype", "")).startswith("task_")
                else None
            )
            for entry in entries:
                assert entry.get("parentToolUseId") == parent, f"{name}:{number}"
                if parent:
                    nested += 1
                    assert parent in delegates, f"{name}:{number}: parent call not seen"
                if entry["kind"] == "tool_call" and entry["name"] in ("Task", "Agent"):
                    delegates.add(entry["toolUseId"])
            if event["type"] == "user" and event.get("parent_tool_use_id"):
                # The subagent's prompt is the subagent's, not a message the person typed.
                assert all(e.get("parentToolUseId") for e in entries if e["kind"] == "user")
    assert nested > 200


def test_the_delegate_call_result_carries_the_subagents_final_answer() -> None:
    path = corpus_path("real-logs", "claude", "hivemind-2.1.284-subagent-thinking-tokens.jsonl")
    transcript = _transcript(path)
    agent_calls = [
        entry["toolUseId"]
        for _, _, entries in transcript
        for entry in entries
        if entry["kind"] == "tool_call" and entry["name"] == "Agent"
    ]
    results = [
        entry
        for _, _, entries in transcript
        for entry in entries
        if entry["kind"] == "tool_result" and entry["toolUseId"] in agent_calls
    ]
    assert len(results) == 1 and "agent-done" in results[0]["content"]
    assert "parentToolUseId" not in results[0]  # the result belongs to the main thread


def test_entries_carry_the_time_of_their_event() -> None:
    stamped = 0
    for path in _real_logs():
        for number, event, entries in _transcript(path):
            own = iso_timestamp(event.get("timestamp"))
            for entry in entries:
                assert entry["ts"] == (own or TS), f"{path.name}:{number}"
            stamped += bool(own)
    assert stamped > 200
