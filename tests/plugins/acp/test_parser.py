"""The ACP parser on lines written from the ACP schema, for shapes the real captures lack.

The corpus holds two real captures of one simple turn (see test_real_logs.py);
tools, diffs, plans, permission requests, errors and limits are checked here
on lines written by us from the Agent Client Protocol schema (protocol 1).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import linewise_acp
import pytest
from linewise_acp import create_stdout_parser, parse_stdout_line
from scaling import assert_linear
from support import assert_valid_and_deterministic, corpus_path, parse_flat

TS = "2026-01-01T00:00:00.000Z"
SAMPLE = Path(linewise_acp.__file__).parent / "samples" / "acp-tool-run.jsonl"
_flat = partial(parse_flat, create_stdout_parser, ts=TS)


def _update(update: dict[str, Any]) -> str:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "session/update",
            "params": {"sessionId": "s1", "update": update},
        }
    )


def _chunk(text: str, kind: str = "agent_message_chunk") -> str:
    return _update({"sessionUpdate": kind, "content": {"type": "text", "text": text}})


def _response(result: object, ident: int = 3) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": ident, "result": result})


def test_the_sample_run_is_valid_deterministic_and_never_raw() -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    per_line = assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)
    entries = [entry for entries in per_line for entry in entries]
    # Only the bare status change of line 9 (pending -> in_progress) shows nothing.
    assert [n for n, got in enumerate(per_line, 1) if not got] == [9]
    assert not [e for e in entries if e["kind"] == "stdout"]
    calls = [e for e in entries if e["kind"] == "tool_call"]
    results = [e for e in entries if e["kind"] == "tool_result"]
    assert [c["toolUseId"] for c in calls] == ["call_1", "call_2", "call_3"]
    assert [(r["toolUseId"], r["isError"]) for r in results] == [
        ("call_1", False),
        ("call_2", False),
        ("call_3", True),
    ]
    assert calls[2]["name"] == "Run pytest -q"
    assert calls[2]["input"]["rawInput"] == {"command": ["pytest", "-q"], "cwd": "/repo"}
    assert results[2]["toolName"] == "Run pytest -q"
    assert "1 failed, 11 passed" in results[2]["content"]
    init = next(e for e in entries if e["kind"] == "init")
    assert init["model"] == "gpt-5-codex"  # named by session/new's models.currentModelId


def test_a_tool_diff_becomes_diff_entries() -> None:
    line = _update(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "c1",
            "status": "completed",
            "content": [{"type": "diff", "path": "/a.py", "oldText": None, "newText": "x = 1\n"}],
        }
    )
    entries = _flat(
        [_update({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Write a.py"}), line]
    )
    assert [(e["kind"], e.get("changeType"), e.get("text")) for e in entries[1:]] == [
        ("tool_result", None, None),
        ("diff", "file_header", "--- /dev/null"),
        ("diff", "file_header", "+++ /a.py"),
        ("diff", "hunk", "@@ -1,0 +1,1 @@"),
        ("diff", "add", "+x = 1"),
    ]
    assert entries[1]["content"] == "diff: /a.py"


def test_an_update_for_an_unannounced_call_shows_the_call_first() -> None:
    line = _update(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "c9",
            "title": "grep",
            "status": "failed",
            "content": [{"type": "content", "content": {"type": "text", "text": "no such file"}}],
        }
    )
    call, result = _flat([line])
    assert call["kind"] == "tool_call" and call["toolUseId"] == "c9"
    assert result == {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "c9",
        "content": "no such file",
        "isError": True,
        "toolName": "grep",
    }


def test_interim_updates_show_new_input_and_hide_bare_status_changes() -> None:
    start = _update(
        {"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Read", "status": "pending"}
    )
    status = _update(
        {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "in_progress"}
    )
    more = _update(
        {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "rawInput": {"path": "/x"}}
    )
    parser = create_stdout_parser()
    parser.parse_line(start, TS)
    assert parser.parse_line(status, TS) == []
    (note,) = parser.parse_line(more, TS)
    assert note["kind"] == "system" and '"path":"/x"' in note["text"]


def test_user_and_thought_chunks_and_media_blocks() -> None:
    image = _update(
        {
            "sessionUpdate": "user_message_chunk",
            "content": {"type": "image", "mimeType": "image/png", "data": "AAA"},
        }
    )
    entries = _flat(
        [_chunk("fix it", "user_message_chunk"), image, _chunk("hm", "agent_thought_chunk")]
    )
    assert entries == [
        {"kind": "user", "ts": TS, "text": "fix it"},
        {"kind": "user", "ts": TS, "text": "[image: image/png]"},
        {"kind": "thinking", "ts": TS, "text": "hm", "delta": True},
    ]


def test_a_plan_is_a_checklist() -> None:
    (entry,) = _flat(
        [
            _update(
                {
                    "sessionUpdate": "plan",
                    "entries": [
                        {"content": "a", "priority": "high", "status": "completed"},
                        {"content": "b", "priority": "low", "status": "pending"},
                    ],
                }
            )
        ]
    )
    assert entry == {"kind": "system", "ts": TS, "text": "plan:\n[x] a (high)\n[ ] b (low)"}


@pytest.mark.parametrize(
    ("stop", "is_error"),
    [
        ("end_turn", False),
        ("max_tokens", True),
        ("max_turn_requests", True),
        ("refusal", True),
        ("cancelled", True),
    ],
)
def test_prompt_results_carry_the_stop_reason(stop: str, is_error: bool) -> None:
    entries = _flat([_chunk("done"), _response({"stopReason": stop})])
    result = entries[-1]
    assert result["kind"] == "result" and result["subtype"] == stop
    assert result["isError"] is is_error and bool(result["errors"]) is is_error
    assert result["text"] == "done"
    assert (result["inputTokens"], result["costUsd"]) == (0, 0)


def test_reported_usage_reaches_the_result() -> None:
    usage = {"inputTokens": 100, "outputTokens": 20, "cachedReadTokens": 80, "totalTokens": 120}
    (result,) = _flat([_response({"stopReason": "end_turn", "usage": usage})])
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (100, 20, 80)


def test_an_error_during_a_turn_ends_it_and_one_outside_is_only_stderr() -> None:
    error = json.dumps(
        {"jsonrpc": "2.0", "id": 3, "error": {"code": -32603, "message": "Internal error"}}
    )
    _, stderr, result = _flat([_chunk("working"), error])
    assert stderr == {"kind": "stderr", "ts": TS, "text": "JSON-RPC error -32603: Internal error"}
    assert result["kind"] == "result" and result["isError"] and result["subtype"] == "error"
    assert _flat([error]) == [stderr]


def test_requests_of_the_agent_become_system_entries() -> None:
    lines = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "terminal/output",
                "params": {"sessionId": "s", "terminalId": "t1"},
            }
        ),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "session/prompt",
                "params": {"sessionId": "s", "prompt": [{"type": "text", "text": "hi"}]},
            }
        ),
        _response({"outcome": {"outcome": "selected", "optionId": "allow_once"}}),
        _response(None),
    ]
    assert [e["text"] for e in _flat(lines)] == [
        'terminal/output: {"terminalId":"t1"}',
        "hi",
        "permission answer: allow_once",
        "response #3: ok",
    ]


@pytest.mark.parametrize(
    "line",
    ["not json", '{"type":"assistant"}', "[1, 2]", '{"jsonrpc":"2.0"}'],
)
def test_lines_that_are_not_acp_stay_raw(line: str) -> None:
    assert _flat([line]) == [{"kind": "stdout", "ts": TS, "text": line}]


def test_a_repeat_needs_two_chunks_before_it() -> None:
    """ "ha" then "ha" is the agent laughing, not a bridge re-sending its message."""
    assert [e["text"] for e in _flat([_chunk("ha"), _chunk("ha")])] == ["ha", "ha"]


def test_reset_forgets_everything() -> None:
    parser = create_stdout_parser()
    parser.parse_line(_chunk("a"), TS)
    parser.parse_line(_update({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "x"}), TS)
    parser.reset()
    fresh = create_stdout_parser()
    for line in [_chunk("a"), _response({"stopReason": "end_turn"})]:
        assert parser.parse_line(line, TS) == fresh.parse_line(line, TS)


def test_a_long_streamed_message_is_linear() -> None:
    def run(lines: list[str]) -> None:
        parser = create_stdout_parser()
        for line in lines:
            parser.parse_line(line, TS)

    assert_linear(run, lambda n: [_chunk("word ")] * n, 500)


def test_a_proposed_diff_is_not_shown_again_when_the_edit_completes() -> None:
    diff = [{"type": "diff", "path": "/a.py", "oldText": "a\n", "newText": "b\n"}]
    call = {"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Edit", "content": diff}
    done = {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed"}
    same = _flat([_update(call), _update({**done, "content": diff})])
    assert [e["kind"] for e in same].count("diff") == 5  # header x2, hunk, remove, add: once
    other = [{**diff[0], "newText": "c\n"}]
    changed = _flat([_update(call), _update({**done, "content": other})])
    assert [e["kind"] for e in changed].count("diff") == 10  # the edit changed: both shown


def test_acp_1_21_and_v2_updates_and_vendor_notifications_are_read_not_raw() -> None:
    path = corpus_path("field-samples", "acp", "acp-rfd-examples-2026.jsonl")
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    parser = create_stdout_parser()
    entries = [entry for line in lines for entry in parser.parse_line(line, "t")]
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    texts = [entry.get("text", "") for entry in entries]
    assert "warning: MCP server unavailable: Continuing without it." in texts
    assert any(
        text.startswith("context compaction completed:\n## Retained context") for text in texts
    )
    assert any(text.startswith("terminal term_001: $ cargo test") for text in texts)
    calls = [entry for entry in entries if entry["kind"] == "tool_call"]
    assert calls[0]["name"] == "read_file"  # ACP 1.21's tool name, not its title
    kiro = '{"method":"_kiro.dev/metadata","params":{"sessionId":"s","contextUsagePercentage":12.5,"meteringUsage":[{"value":0.2,"unit":"credit"}]}}'
    assert create_stdout_parser().parse_line(kiro, "t") == [
        {"kind": "system", "ts": "t", "text": "Kiro: context 12.5% used, 0.2 credit metered"}
    ]


def test_a_whole_v2_message_repeating_its_streamed_chunks_is_shown_once() -> None:
    def update(body: dict[str, object]) -> str:
        return json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "session/update",
                "params": {"sessionId": "s", "update": body},
            }
        )

    parser = create_stdout_parser()
    lines = [
        update(
            {
                "sessionUpdate": "agent_message_chunk",
                "messageId": "m1",
                "content": {"type": "text", "text": "Hel"},
            }
        ),
        update(
            {
                "sessionUpdate": "agent_message_chunk",
                "messageId": "m1",
                "content": {"type": "text", "text": "lo"},
            }
        ),
        update(
            {
                "sessionUpdate": "agent_message",
                "messageId": "m1",
                "content": [{"type": "text", "text": "Hello"}],
            }
        ),
        update(
            {
                "sessionUpdate": "agent_message",
                "messageId": "m2",
                "content": [{"type": "text", "text": "Bye"}],
            }
        ),
    ]
    entries = [entry for line in lines for entry in parser.parse_line(line, "t")]
    assert [(entry["kind"], entry["text"]) for entry in entries] == [
        ("assistant", "Hel"),
        ("assistant", "lo"),
        ("assistant", "Bye"),
    ]
