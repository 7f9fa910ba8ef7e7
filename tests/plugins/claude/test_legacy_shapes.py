"""Claude Code's older outputs: the pre-1.0 stream of bare messages, the json document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from linewise_claude import create_stdout_parser, parse_stdout_line, sniff, summarize_run
from linewise_contracts import entry_problem
from session_checks import HOST_TS, render
from support import assert_valid_and_deterministic, json_values

SESSION = "sess-legacy-1"
# Written from the pre-1.0 shape (bare Anthropic messages, then a system line with cost_usd).
LEGACY = [
    {"role": "user", "content": [{"type": "text", "text": "What directory am I in?"}]},
    {
        "id": "msg_01Leg",
        "type": "message",
        "role": "assistant",
        "model": "claude-3-7-sonnet-20250219",
        "content": [
            {"type": "text", "text": "I'll check."},
            {"type": "tool_use", "id": "toolu_L1", "name": "Bash", "input": {"command": "pwd"}},
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 120, "output_tokens": 30, "cache_read_input_tokens": 0},
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_L1", "content": "/srv/app"}],
    },
    {
        "id": "msg_02Leg",
        "type": "message",
        "role": "assistant",
        "model": "claude-3-7-sonnet-20250219",
        "content": [{"type": "text", "text": "You are in /srv/app."}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 160, "output_tokens": 12},
    },
    {
        "role": "system",
        "cost_usd": 0.0042,
        "duration_ms": 3100,
        "duration_api_ms": 2900,
        "num_turns": 2,
        "result": "You are in /srv/app.",
        "session_id": SESSION,
    },
]
MODERN = [
    {
        "type": "system",
        "subtype": "init",
        "session_id": SESSION,
        "model": "claude-sonnet-4-5",
        "tools": ["Bash"],
    },
    {
        "type": "assistant",
        "session_id": SESSION,
        "parent_tool_use_id": None,
        "message": {
            "id": "msg_A",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [
                {"type": "tool_use", "id": "toolu_A", "name": "Bash", "input": {"command": "ls"}}
            ],
            "usage": {"input_tokens": 10, "output_tokens": 5},
        },
    },
    {
        "type": "user",
        "session_id": SESSION,
        "parent_tool_use_id": None,
        "message": {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "README.md"}],
        },
    },
    {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 900,
        "duration_api_ms": 800,
        "num_turns": 1,
        "result": "done",
        "session_id": SESSION,
        "total_cost_usd": 0.001,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    },
]


def _jsonl(events: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(event) for event in events]


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    return [dict(entry) for line in lines for entry in parser.parse_line(line, HOST_TS)]


def _write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_pre_1_0_stream_renders_auto_detected_with_calls_paired(tmp_path: Path) -> None:
    stderr, entries = render(_write(tmp_path, "legacy.jsonl", _jsonl(LEGACY)))
    assert "detected claude_local" in stderr, stderr
    assert not [e for e in entries if e["kind"] == "stdout"]
    # (The run's terminal state, a contract 1.3 entry, follows its result.)
    kinds = [
        (e["kind"], e.get("text") or e.get("toolUseId"))
        for e in entries
        if e["kind"] != "run_terminal"
    ]
    assert kinds == [
        ("user", "What directory am I in?"),
        ("assistant", "I'll check."),
        ("tool_call", "toolu_L1"),
        ("tool_result", "toolu_L1"),
        ("assistant", "You are in /srv/app."),
        ("result", "You are in /srv/app."),
    ]
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _jsonl(LEGACY), ts=HOST_TS
    )


def test_the_pre_1_0_result_carries_the_cost_and_the_messages_tokens() -> None:
    (result,) = [e for e in _entries(_jsonl(LEGACY)) if e["kind"] == "result"]
    assert (result["costUsd"], result["inputTokens"], result["outputTokens"]) == (0.0042, 280, 42)
    summary = summarize_run(_jsonl(LEGACY))
    assert (summary.cost_usd, summary.usage.input_tokens, summary.usage.output_tokens) == (
        0.0042,
        280,
        42,
    )
    assert (summary.session_id, summary.outcome, summary.complete) == (SESSION, "completed", True)
    assert summary.final_text == "You are in /srv/app."


def test_a_pre_1_0_error_line_is_a_failed_result() -> None:
    line = json.dumps(
        {"role": "system", "cost_usd": 0.0, "duration_ms": 10, "is_error": True, "result": "boom"}
    )
    (result,) = [e for e in _entries([line]) if e["kind"] == "result"]
    assert result["isError"] is True


def test_the_json_documents_array_reads_like_the_stream(tmp_path: Path) -> None:
    document = json.dumps(MODERN)
    stderr, entries = render(_write(tmp_path, "run.json", [document]))
    assert "detected claude_local" in stderr, stderr
    shown = [e["kind"] for e in entries if e["kind"] != "run_terminal"]
    assert shown == ["init", "tool_call", "tool_result", "result"]
    assert entries[2]["toolName"] == "Bash"
    assert summarize_run([document]).cost_usd == 0.001
    assert [e["kind"] for e in _entries([document])] == [
        e["kind"] for e in _entries(_jsonl(MODERN))
    ]


def test_the_json_documents_single_result_object_is_read(tmp_path: Path) -> None:
    stderr, entries = render(_write(tmp_path, "result.json", [json.dumps(MODERN[-1])]))
    assert "detected claude_local" in stderr, stderr
    assert [(e["kind"], e["text"]) for e in entries if e["kind"] != "run_terminal"] == [
        ("result", "done")
    ]


def test_bare_messages_alone_without_claudes_marks_are_not_claimed() -> None:
    # A generic chat transcript (no msg_ ids, no cost line) is no evidence of Claude Code.
    lines = _jsonl([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}])
    assert sniff(lines) < 0.5


@given(st.lists(json_values, max_size=5))
def test_never_raises_on_hostile_old_shapes(values: list[Any]) -> None:
    parser = create_stdout_parser()
    lines = []
    for value in values:
        lines += [
            json.dumps(
                {"role": "system", "cost_usd": value, "duration_ms": value, "result": value}
            ),
            json.dumps(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": value,
                    "usage": value,
                    "id": value,
                }
            ),
            json.dumps([{"role": "user", "content": value}, value]),
            json.dumps([{"type": "result", "usage": value}]),
        ]
    for line in lines:
        for entry in parser.parse_line(line, HOST_TS):
            assert entry_problem(entry) is None, entry
    summarize_run(lines)
    sniff(lines)
