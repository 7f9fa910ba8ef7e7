"""The Claude stream-json parser against the reference, real logs, and the shapes they lack."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_claude import create_stdout_parser, parse_stdout_line, sniff
from linewise_contracts import entry_problem
from support import (
    assert_valid_and_deterministic,
    corpus_json,
    corpus_path,
    json_values,
    numbered_lines,
    parse_all,
)

TS = "2026-01-01T00:00:00.000Z"


_parse_all = partial(parse_all, create_stdout_parser, ts=TS)


def _real_logs() -> list[Path]:
    return sorted(corpus_path("real-logs", "claude").glob("*.jsonl"))


# -- the reference -----------------------------------------------------------------------


def test_reference_ui_parser_cases_match_exactly() -> None:
    cases = corpus_json("paperclip", "claude-local", "expected.json")["ui_parser"]
    assert cases
    for case in cases:
        assert case["output_asserted_exactly"]
        assert parse_stdout_line(case["line"], case["ts"]) == case["output"], case["fixture"]


_ABSENT = object()


def _undo_deliberate(
    ours: list[dict[str, Any]], event: dict[str, Any]
) -> tuple[list[dict[str, Any]], set[str]]:
    """Our entries with each deliberate difference from the reference undone, and which applied.

    Each is listed in plugins/claude/README.md ("Differences from the reference").
    """
    labels: set[str] = set()
    undone: list[dict[str, Any]] = []
    for original in ours:
        entry = dict(original)
        if entry["ts"] != TS:
            labels.add("real timestamp")
            entry["ts"] = TS
        if entry.pop("parentToolUseId", None) is not None:
            labels.add("parentToolUseId")
        if entry.pop("startsSubagent", None) is not None:
            labels.add("subagent marker")  # contract 1.5, newer than the reference
        if entry["kind"] == "result":
            for field in ("usage", "costSource", "outcome", "sessionId"):
                if entry.pop(field, _ABSENT) is not _ABSENT:
                    labels.add("result usage, cost source, outcome, session")  # contract 1.5
        if entry["kind"] == "diff":
            labels.add("edit diff")
            continue
        subtype = str(event.get("subtype", ""))
        if (
            event["type"] == "system"
            and entry["kind"] == "system"
            and subtype.startswith(("task_", "hook_response"))
        ):
            labels.add("fuller system text")
        if event["type"] == "result" and entry["kind"] == "system":
            labels.add("denials and terminal reason")
            continue
        if event["type"] == "result" and entry["kind"] == "run_terminal":
            labels.add("run terminal state")  # contract 1.3's kind, after the result
            continue
        if event["type"] == "control_request" and entry["kind"] == "runtime_request":
            labels.add("permission prompt as a runtime request")
            entry = {"kind": "system", "ts": entry["ts"], "text": entry["prompt"]}
        if event["type"] == "user" and event.get("isSynthetic") and entry["kind"] == "system":
            labels.add("synthetic user turn")
            entry["kind"] = "user"
        undone.append(entry)
    return undone, labels


def _same_result(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """The result entry: the same but for isError (true for error_* subtypes here)."""
    keys = ("kind", "text", "inputTokens", "outputTokens", "cachedTokens", "costUsd", "subtype")
    return all(ours[key] == theirs[key] for key in keys)


def compare_with_reference() -> Counter[str]:
    """Every real line the reference has output for: agreements and each kind of difference."""
    figures = Counter[str]()
    for path in _real_logs():
        baseline_path = corpus_path("paperclip-on-real-logs", "claude") / path.name.replace(
            ".jsonl", ".paperclip.jsonl"
        )
        if not baseline_path.exists():
            continue  # a newer capture the reference was not run on
        baseline = {
            row["line"]: row["entries"]
            for row in map(json.loads, baseline_path.read_text(encoding="utf-8").splitlines())
        }
        lines = numbered_lines(path)
        for (number, line), ours in zip(
            lines, _parse_all([text for _, text in lines]), strict=True
        ):
            figures["lines"] += 1
            theirs = [{k: v for k, v in e.items() if k != "toolName"} for e in baseline[number]]
            # init's cwd (contract 1.2) is newer than the reference: compared without it.
            ours_plain = [
                {k: v for k, v in e.items() if k not in ("toolName", "cwd")} for e in ours
            ]
            if [e["kind"] for e in theirs] == ["stdout"]:
                assert "stdout" not in {e["kind"] for e in ours}, f"{path.name}:{number}"
                figures["improved: raw stdout in the reference"] += 1
                continue
            if ours_plain == theirs:
                figures["agree"] += 1
                continue
            event = json.loads(line)
            undone, labels = _undo_deliberate(ours_plain, event)
            if event["type"] == "result":
                assert len(undone) == len(theirs) == 1 and _same_result(undone[0], theirs[0])
                if undone[0] != theirs[0]:
                    labels.add("result isError")
            elif event["type"] == "user" and undone != theirs:
                # tool_use_result details: stderr or "(interrupted)" added to the content.
                assert [e["kind"] for e in undone] == [e["kind"] for e in theirs]
                for mine, ref in zip(undone, theirs, strict=True):
                    assert mine["content"].startswith(ref["content"]), f"{path.name}:{number}"
                labels.add("tool result details")
            elif "fuller system text" in labels:
                assert [e["kind"] for e in undone] == [e["kind"] for e in theirs]
            else:
                assert undone == theirs, f"{path.name}:{number}"
            assert labels, f"{path.name}:{number}"
            figures["improved"] += 1
            for label in labels:
                figures[f"improved: {label}"] += 1
    return figures


def test_matches_the_reference_on_real_logs_except_for_documented_improvements() -> None:
    """Every line the reference turned into entries gives the same entries here, or entries
    that differ only in the deliberate ways the plugin README lists."""
    figures = compare_with_reference()
    assert figures["lines"] > 1500
    assert (
        figures["agree"] + figures["improved"] + figures["improved: raw stdout in the reference"]
        == figures["lines"]
    )
    assert figures["agree"] > figures["lines"] // 3


def test_every_real_line_is_recognised_and_valid() -> None:
    for path in _real_logs():
        lines = [line for _, line in numbered_lines(path)]
        for (number, line), entries in zip(numbered_lines(path), _parse_all(lines), strict=True):
            event = json.loads(line)
            kinds = [entry["kind"] for entry in entries]
            assert "stdout" not in kinds, f"{path.name}:{number} fell back to raw stdout"
            for entry in entries:
                assert entry_problem(entry) is None, f"{path.name}:{number}: {entry_problem(entry)}"
            expected = {
                "system": {"init"} if event.get("subtype") == "init" else {"system"},
                "rate_limit_event": {"system"},
                "control_request": {"runtime_request"},
                "result": {"result", "system", "run_terminal"},
                "assistant": {"assistant", "thinking", "tool_call", "system", "stderr"},
                "user": {"user", "tool_result", "system", "diff", "runtime_request"},
            }[event["type"]]
            assert set(kinds) <= expected, f"{path.name}:{number}: {kinds}"
            assert entries or event["type"] in ("assistant", "user"), f"{path.name}:{number}"


def test_tool_results_carry_the_id_and_name_of_their_call() -> None:
    paired = 0
    for path in _real_logs():
        calls: dict[str, str] = {}
        for entries in _parse_all([line for _, line in numbered_lines(path)]):
            for entry in entries:
                if entry["kind"] == "tool_call":
                    calls[entry["toolUseId"]] = entry["name"]
                elif entry["kind"] == "tool_result" and entry["toolUseId"] in calls:
                    assert entry["toolName"] == calls[entry["toolUseId"]]
                    paired += 1
    assert paired > 500


def test_a_run_cut_off_without_a_result_still_gives_a_transcript() -> None:
    path = corpus_path("real-logs", "claude", "trackgentic-mp9ygklz-incomplete-no-result.jsonl")
    kinds = Counter(
        e["kind"]
        for entries in _parse_all([line for _, line in numbered_lines(path)])
        for e in entries
    )
    assert kinds["init"] == 1 and kinds["tool_call"] > 0 and kinds["result"] == 0


def test_init_carries_the_working_directory_of_every_real_init() -> None:
    inits = 0
    for path in _real_logs():
        lines = [line for _, line in numbered_lines(path)]
        for line, entries in zip(lines, _parse_all(lines), strict=True):
            event = json.loads(line)
            if event.get("subtype") == "init":
                assert entries[0]["kind"] == "init" and entries[0]["cwd"] == event["cwd"], path
                inits += 1
    assert inits >= 30


@pytest.mark.parametrize("cwd", ["", None, 7, ["/srv"]])
def test_an_init_without_a_usable_cwd_names_none(cwd: object) -> None:
    event = {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "cwd": cwd}
    (init,) = parse_stdout_line(json.dumps(event), TS)
    assert init == {"kind": "init", "ts": TS, "model": "m", "sessionId": "s"}
    assert entry_problem(init) is None


# -- shapes the corpus lacks (written from Anthropic's documented stream-json) ------------


def test_thinking_variants() -> None:
    line = json.dumps(
        {
            "type": "assistant",
            "message": {
                "id": "msg_1",
                "content": [
                    {"type": "thinking", "thinking": "", "signature": "Eq0..."},
                    {"type": "redacted_thinking", "data": "EmwK..."},
                    {"type": "thinking", "thinking": "plan: read file"},
                ],
            },
        }
    )
    assert parse_stdout_line(line, TS) == [
        {
            "kind": "thinking",
            "ts": TS,
            "text": "(thinking omitted: the API returned only its signature)",
        },
        {"kind": "thinking", "ts": TS, "text": "(redacted thinking)"},
        {"kind": "thinking", "ts": TS, "text": "plan: read file"},
    ]


def test_user_messages_and_tool_result_content_shapes() -> None:
    line = json.dumps(
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Please fix the bug"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_9",
                        "content": [
                            {"type": "text", "text": "line one"},
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": "iVBOR",
                                },
                            },
                        ],
                        "is_error": True,
                    },
                    {"type": "tool_result", "tool_use_id": "toolu_10"},
                ],
            },
        }
    )
    assert parse_stdout_line(line, TS) == [
        {"kind": "user", "ts": TS, "text": "Please fix the bug"},
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "toolu_9",
            "content": "line one\n[image: image/png]",
            "isError": True,
        },
        {"kind": "tool_result", "ts": TS, "toolUseId": "toolu_10", "content": "", "isError": False},
    ]
    assert parse_stdout_line('{"type":"user","message":{"content":"plain prompt"}}', TS) == [
        {"kind": "user", "ts": TS, "text": "plain prompt"}
    ]


def test_result_with_structured_errors() -> None:
    line = json.dumps(
        {
            "type": "result",
            "subtype": "error_during_execution",
            "is_error": True,
            "result": "",
            "errors": ["plain", {"type": "overloaded_error", "message": "Overloaded"}, {"code": 7}],
            "usage": {"input_tokens": 3, "output_tokens": 1, "cache_read_input_tokens": 2},
            "total_cost_usd": 0.01,
        }
    )
    assert parse_stdout_line(line, TS) == [
        {
            "kind": "result",
            "ts": TS,
            "text": "",
            "inputTokens": 3,
            "outputTokens": 1,
            "cachedTokens": 2,
            "costUsd": 0.01,
            "subtype": "error_during_execution",
            "isError": True,
            "errors": ["plain", "Overloaded", '{"code":7}'],
            "usage": {
                "uncachedInput": 3,
                "cacheRead": 2,
                "cacheWrite": None,
                "output": 1,
                "reasoning": None,
            },
            "costSource": "reported",
            "outcome": "failed",
        },
        {
            "kind": "run_terminal",
            "ts": TS,
            "turnState": "failed",
            "runState": "failed",
            "disposition": "blocked",
            "stopReason": "error_during_execution",
        },
    ]


def _stream(event: dict[str, Any]) -> str:
    return json.dumps(
        {"type": "stream_event", "event": event, "session_id": "s", "parent_tool_use_id": None}
    )


PARTIAL_RUN = [
    _stream(
        {"type": "message_start", "message": {"id": "msg_A", "role": "assistant", "content": []}}
    ),
    _stream(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": ""},
        }
    ),
    _stream(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "Let me "},
        }
    ),
    _stream(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "look."},
        }
    ),
    _stream(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "x"},
        }
    ),
    _stream({"type": "content_block_stop", "index": 0}),
    json.dumps(
        {
            "type": "assistant",
            "message": {
                "id": "msg_A",
                "content": [{"type": "thinking", "thinking": "Let me look.", "signature": "x"}],
            },
        }
    ),
    _stream(
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}
    ),
    _stream(
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "text_delta", "text": "Reading "},
        }
    ),
    _stream(
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "text_delta", "text": "the file."},
        }
    ),
    _stream({"type": "content_block_stop", "index": 1}),
    json.dumps(
        {
            "type": "assistant",
            "message": {"id": "msg_A", "content": [{"type": "text", "text": "Reading the file."}]},
        }
    ),
    _stream(
        {
            "type": "content_block_start",
            "index": 2,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {}},
        }
    ),
    _stream(
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": '{"file_path":'},
        }
    ),
    _stream(
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": ' "a.py"}'},
        }
    ),
    _stream({"type": "content_block_stop", "index": 2}),
    json.dumps(
        {
            "type": "assistant",
            "message": {
                "id": "msg_A",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "Read",
                        "input": {"file_path": "a.py"},
                    }
                ],
            },
        }
    ),
    _stream(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 40},
        }
    ),
    _stream({"type": "message_stop"}),
    json.dumps(
        {
            "type": "user",
            "message": {
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "print(1)"}
                ]
            },
        }
    ),
]


def test_partial_messages_stream_as_deltas_without_repeating_the_final_message() -> None:
    entries = [e for batch in _parse_all(PARTIAL_RUN) for e in batch]
    assert entries == [
        {"kind": "thinking", "ts": TS, "text": "Let me ", "delta": True},
        {"kind": "thinking", "ts": TS, "text": "look.", "delta": True},
        {"kind": "assistant", "ts": TS, "text": "Reading ", "delta": True},
        {"kind": "assistant", "ts": TS, "text": "the file.", "delta": True},
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "Read",
            "input": {"file_path": "a.py"},
            "toolUseId": "toolu_1",
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "toolu_1",
            "toolName": "Read",
            "content": "print(1)",
            "isError": False,
        },
    ]


def test_reset_forgets_streamed_messages_and_tool_names() -> None:
    parser = create_stdout_parser()
    for line in PARTIAL_RUN[:4]:
        parser.parse_line(line, TS)
    parser.reset()
    # After a reset the complete message is shown again rather than lost.
    assert parser.parse_line(PARTIAL_RUN[6], TS) == [
        {"kind": "thinking", "ts": TS, "text": "Let me look."}
    ]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {
                "type": "system",
                "subtype": "api_retry",
                "attempt": 2,
                "max_retries": 10,
                "retry_delay_ms": 1500,
                "error_status": 529,
                "error": "overloaded",
            },
            "API retry 2/10 in 1.5s (HTTP 529 overloaded)",
        ),
        (
            {
                "type": "system",
                "subtype": "compact_boundary",
                "compact_metadata": {"trigger": "manual", "pre_tokens": 900, "post_tokens": 100},
            },
            "context compacted (manual): 900 → 100 tokens",
        ),
        (
            {
                "type": "system",
                "subtype": "hook_response",
                "hook_name": "Stop",
                "outcome": "error",
                "exit_code": 2,
                "stderr": "lint failed",
            },
            "hook Stop finished (error, exit 2)\nlint failed",
        ),
        (
            {"type": "system", "subtype": "brand_new_event", "detail": 1},
            'brand_new_event: {"detail":1}',
        ),
        (
            {
                "type": "rate_limit_event",
                "rate_limit_info": {
                    "status": "rejected",
                    "rateLimitType": "five_hour",
                    "utilization": 1.0,
                    "resetsAt": 1790788200,
                },
            },
            "rate limit rejected: five_hour window 100% used, resets 2026-09-30T17:10:00.000Z",
        ),
    ],
)
def test_system_events_read_as_sentences(event: dict[str, Any], text: str) -> None:
    assert parse_stdout_line(json.dumps(event), TS) == [{"kind": "system", "ts": TS, "text": text}]


@pytest.mark.parametrize(
    "line", ["plain text banner", "[1, 2]", '{"no_type": true}', '{"type": "mystery"}', "{broken"]
)
def test_lines_that_are_not_claude_events_are_raw_stdout(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


field_names = st.sampled_from(
    [
        "type",
        "subtype",
        "message",
        "content",
        "text",
        "thinking",
        "id",
        "name",
        "input",
        "tool_use_id",
        "is_error",
        "usage",
        "result",
        "errors",
        "event",
        "delta",
        "rate_limit_info",
        "compact_metadata",
        "session_id",
        "model",
        "parent_tool_use_id",
        "timestamp",
        "error",
        "request",
        "response",
        "tool_use_result",
        "modelUsage",
        "permission_denials",
        "isSynthetic",
        "heartbeat",
    ]
)


@st.composite
def claude_like_events(draw: st.DrawFn) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": draw(
            st.sampled_from(
                [
                    "assistant",
                    "user",
                    "system",
                    "result",
                    "stream_event",
                    "rate_limit_event",
                    "control_request",
                    "control_response",
                    "tool_progress",
                    "auth_status",
                ]
            )
        )
    }
    for _ in range(draw(st.integers(0, 5))):
        event[draw(field_names)] = draw(json_values)
    if draw(st.booleans()):
        event["message"] = {
            "id": draw(st.text(max_size=3)),
            "content": draw(
                st.lists(
                    st.fixed_dictionaries(
                        {
                            "type": st.sampled_from(
                                [
                                    "text",
                                    "thinking",
                                    "tool_use",
                                    "tool_result",
                                    "image",
                                    "redacted_thinking",
                                    "x",
                                ]
                            )
                        },
                        optional=dict.fromkeys(
                            [
                                "text",
                                "thinking",
                                "id",
                                "name",
                                "input",
                                "content",
                                "is_error",
                                "tool_use_id",
                            ],
                            json_values,
                        ),
                    ),
                    max_size=3,
                )
            ),
        }
    return event


@given(st.lists(claude_like_events(), max_size=6))
def test_never_raises_and_always_returns_valid_entries_deterministically(
    events: list[dict[str, Any]],
) -> None:
    lines = [json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)


def test_2026_results_show_structured_output_startup_failures_and_api_errors() -> None:
    path = corpus_path("field-samples", "claude-code", "result-structured-output-fixtures.jsonl")
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert sniff(lines) >= 0.8  # structured_output and api_error_status are Claude's own
    entries = [entry for line in lines for entry in parse_stdout_line(line, "2026-01-01T00:00:00Z")]
    notes = [entry["text"] for entry in entries if entry["kind"] == "system"]
    assert notes[0].startswith("structured output:\n{") and '"domain": "visa"' in notes[0]
    failed, end = entries[-2:]  # the result, then its run_terminal (contract 1.3)
    assert failed["kind"] == "result" and failed["isError"] is True
    assert (end["kind"], end["runState"]) == ("run_terminal", "failed")
    assert failed["errors"] == ["API error 401: Not logged in"]
    startup = '{"type":"result","subtype":"error_during_execution","is_error":true,"startup_failure_reason":"mcp_config_invalid"}'
    assert parse_stdout_line(startup, "t")[0] == {
        "kind": "stderr",
        "ts": "t",
        "text": "Claude Code did not start: mcp_config_invalid",
    }


@pytest.mark.parametrize(
    ("origin", "kind", "text"),
    [
        ({"kind": "human"}, "user", "fix it"),
        (None, "user", "fix it"),
        ({"kind": "channel"}, "system", "(channel) fix it"),
        (
            {"kind": "task-notification", "subkind": "scheduled-trigger"},
            "system",
            "(task-notification) fix it",
        ),
        ("auto-continuation", "system", "(auto-continuation) fix it"),
    ],
)
def test_only_a_human_origin_is_the_persons_turn(origin: object, kind: str, text: str) -> None:
    event: dict[str, object] = {"type": "user", "message": {"role": "user", "content": "fix it"}}
    if origin is not None:
        event["origin"] = origin
    (entry,) = parse_stdout_line(json.dumps(event), "t")
    assert (entry["kind"], entry["text"]) == (kind, text)
