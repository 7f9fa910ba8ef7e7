"""The Cursor parser against the reference, real logs, and the shapes they lack."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import linewise
import linewise_contracts.extract
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_cursor import create_stdout_parser, parse_stdout_line
from linewise_cursor.parser import normalize_line
from scaling import assert_linear_time
from support import (
    assert_valid_and_deterministic,
    corpus_json,
    corpus_path,
    numbered_lines,
    parse_all,
    parse_flat,
    small_json_values,
)

TS = "2026-01-01T00:00:00.000Z"


_parse_all = partial(parse_all, create_stdout_parser, ts=TS)
_flat = partial(parse_flat, create_stdout_parser, ts=TS)


def _real_logs() -> list[Path]:
    return sorted(corpus_path("real-logs", "cursor").glob("*.jsonl"))


def _with_tool_names(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reference's entries as the stateful parser gives them: results name their tool."""
    names: dict[str, str] = {}
    named = []
    for entry in entries:
        if entry["kind"] == "tool_call" and "toolUseId" in entry:
            names[entry["toolUseId"]] = entry["name"]
        if entry["kind"] == "tool_result" and entry["toolUseId"] in names:
            named.append({"toolName": names[entry["toolUseId"]], **entry})
        else:
            named.append(entry)
    return named


# -- the reference -----------------------------------------------------------------------


@pytest.mark.parametrize("adapter", ["cursor-local", "cursor-cloud"])
def test_reference_ui_parser_cases_match_exactly(adapter: str) -> None:
    """Every line the reference tests feed its parsers, asserted exactly or not."""
    cases = corpus_json("paperclip", adapter, "expected.json")["ui_parser"]
    assert sum(case["output_asserted_exactly"] for case in cases) >= 11
    for case in cases:
        ours = [_as_reference(entry) for entry in parse_stdout_line(case["line"], case["ts"])]
        assert ours == case["output"], case["fixture"]


#: A result's run-summary fields (contracts 1.5 and 1.9), newer than the reference.
_SUMMARY_FIELDS = ("usage", "costSource", "outcome", "sessionId", "turns", "modelUsage")


def _without_summary_fields(entry: dict[str, Any]) -> dict[str, Any]:
    """A result entry as the reference (contract 1.4) writes it: without the summary fields."""
    if entry["kind"] != "result":
        return entry
    return {key: value for key, value in entry.items() if key not in _SUMMARY_FIELDS}


def _as_reference(entry: dict[str, Any]) -> dict[str, Any]:
    """Our entry as the reference shows it: the reference keeps only a shell call's command,
    linewise keeps what else the agent said (issue 25: description, workingDirectory, timeout),
    a documented difference; results carry the run-summary fields (contracts 1.5, 1.9)."""
    entry = _without_summary_fields(entry)
    if entry["kind"] == "tool_call" and entry["name"] in ("shellToolCall", "shell"):
        arguments = entry["input"]
        if isinstance(arguments, dict) and "command" in arguments:
            return {**entry, "input": {"command": arguments["command"]}}
    return entry


def test_a_shell_calls_description_and_other_arguments_are_kept() -> None:
    line = json.dumps(
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "c1",
            "tool_call": {
                "shellToolCall": {
                    "args": {
                        "command": "npm test",
                        "description": "Run the test suite",
                        "workingDirectory": "/repo",
                        "timeout": 30000,
                        "simpleCommands": ["npm"],
                        "parsingResult": {"parsingFailed": False},
                        "toolCallId": "c1",
                    }
                }
            },
        }
    )
    (call,) = parse_stdout_line(line, "t")
    assert call["input"] == {
        "command": "npm test",
        "description": "Run the test suite",
        "workingDirectory": "/repo",
        "timeout": 30000,
    }


def test_reference_output_over_the_server_fixtures_matches() -> None:
    cases = corpus_json("paperclip", "cursor-local", "expected.json")["derived_not_asserted"]
    assert len(cases["ui_parser"]) == 7
    for case in cases["ui_parser"]:
        ours = [_without_summary_fields(e) for e in parse_stdout_line(case["line"], case["ts"])]
        assert ours == case["output"], case["fixture"]


@pytest.mark.parametrize(
    ("fixture", "adapter"),
    [
        ("chunks-01.jsonl", "cursor"),
        ("chunks-02.jsonl", "cursor"),
        ("chunks-03.jsonl", "cursor_cloud"),
    ],
)
def test_transcript_builder_cases(fixture: str, adapter: str) -> None:
    """The reference transcript builder's Cursor cases, through the host.

    Consecutive text deltas merge into prose blocks split by the tool call; the
    one difference is deliberate: the stateful parser names the tool in results.
    """
    case = next(
        case
        for case in corpus_json("paperclip", "transcript-builder", "expected.json")[
            "transcript_builder"
        ]
        if case["fixture"] == fixture
    )
    transcript = linewise.build_transcript(case["chunks"], adapter)
    entries = [_without_summary_fields(entry) for entry in transcript.entries]
    assert entries == _with_tool_names(case["output"])
    prose = [e["text"] for e in transcript.entries if e["kind"] == "assistant"]
    assert prose == {"chunks-02.jsonl": ["foo bar baz"]}.get(fixture, ["Hello world", "Done"])
    # Cloud events parse the same under the local adapter type.
    assert linewise.build_transcript(case["chunks"], "cursor").entries == transcript.entries


def _as_we_differ(event: dict[str, Any], entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reference's entries with this parser's deliberate differences applied.

    - an event's ``timestamp_ms`` is its entries' ``ts`` (the reference stamps the caller's);
    - a tool id's newline (``call_X\\nfc_Y``) becomes a space, so it prints on one line;
    - ``init`` carries the event's ``cwd`` (contract 1.2, newer than the reference).
    """
    moment = event.get("timestamp_ms")
    cwd = event.get("cwd")
    ts = linewise_contracts.extract.iso_timestamp(moment) if moment is not None else None
    changed = []
    for original in entries:
        entry = {**original, "ts": ts} if ts else dict(original)
        if "\n" in entry.get("toolUseId", ""):
            entry["toolUseId"] = entry["toolUseId"].replace("\n", " ")
        if entry["kind"] == "init" and isinstance(cwd, str) and cwd:
            entry["cwd"] = cwd
        changed.append(entry)
    return changed


def test_matches_the_reference_on_every_real_log_line() -> None:
    """The stateless parser gives the reference's entries for all 335 real lines it has
    output for, but for its own times (309 lines carry one) and one-line tool ids (12 lines).

    Logs added to the corpus after the reference outputs were recorded have none.
    """
    compared = timed = ids = 0
    for path in _real_logs():
        baseline_path = corpus_path("paperclip-on-real-logs", "cursor").joinpath(
            path.name.replace(".jsonl", ".paperclip.jsonl")
        )
        if not baseline_path.exists():
            continue
        baseline = {
            row["line"]: row["entries"]
            for row in map(json.loads, baseline_path.read_text(encoding="utf-8").splitlines())
        }
        for number, line in numbered_lines(path):
            event = json.loads(line)
            expected = _as_we_differ(event, baseline[number])
            ours = [_as_reference(entry) for entry in parse_stdout_line(line, TS)]
            assert ours == expected, f"{path.name}:{number}"
            compared += 1
            timed += "timestamp_ms" in event
            ids += "\n" in event.get("call_id", "")
    assert (compared, timed, ids) == (335, 309, 12)


def test_init_carries_the_working_directory_where_the_event_names_one() -> None:
    for path in _real_logs():
        for _, line in numbered_lines(path):
            event = json.loads(line)
            if event.get("subtype") == "init":
                (init,) = parse_stdout_line(line, TS)
                assert init["kind"] == "init" and init["cwd"] == event["cwd"], path.name
    event = {"type": "system", "subtype": "init", "session_id": "s", "model": "Auto", "cwd": ""}
    assert parse_stdout_line(json.dumps(event), TS) == [
        {"kind": "init", "ts": TS, "model": "Auto", "sessionId": "s"}
    ]


def test_every_real_line_is_recognised_and_valid() -> None:
    kinds_seen = Counter[str]()
    for path in _real_logs():
        lines = [line for _, line in numbered_lines(path)]
        for (number, line), entries in zip(numbered_lines(path), _parse_all(lines), strict=True):
            event = json.loads(line)
            kinds = [entry["kind"] for entry in entries]
            kinds_seen.update(kinds)
            assert "stdout" not in kinds, f"{path.name}:{number} fell back to raw stdout"
            for entry in entries:
                assert entry_problem(entry) is None, f"{path.name}:{number}: {entry_problem(entry)}"
            expected = {
                ("system", "init"): ["init"],
                ("user", None): ["user"],
                ("assistant", None): ["assistant"],
                ("thinking", "delta"): ["thinking"],
                ("thinking", "completed"): [],  # closes a phase, carries no text
                ("tool_call", "started"): ["tool_call"],
                ("tool_call", "completed"): ["tool_result"],
                ("result", "success"): ["result"],
            }[event["type"], event.get("subtype")]
            assert kinds == expected, f"{path.name}:{number}: {kinds}"
    assert kinds_seen["thinking"] == 295 and kinds_seen["tool_call"] == 8


def test_tool_results_carry_the_id_and_name_of_their_call() -> None:
    paired = 0
    for path in _real_logs():
        calls: dict[str, str] = {}
        for entry in _flat([line for _, line in numbered_lines(path)]):
            if entry["kind"] == "tool_call":
                calls[entry["toolUseId"]] = entry["name"]
            elif entry["kind"] == "tool_result":
                assert entry["toolName"] == calls[entry["toolUseId"]]
                paired += 1
    assert paired == 8


def test_thinking_streams_as_deltas_that_merge_into_one_block() -> None:
    path = corpus_path("real-logs", "cursor", "cursor-hack-direct-sleep.jsonl")
    entries = linewise.merge_deltas(_flat([line for _, line in numbered_lines(path)]))
    thinking = [e for e in entries if e["kind"] == "thinking"]
    assert len(thinking) == 1 and thinking[0]["delta"] is True
    assert thinking[0]["text"].startswith("**Planning sequential commands**\n\nI need to")


def test_parallel_tool_calls_pair_by_id_whatever_order_they_finish_in() -> None:
    path = corpus_path("real-logs", "cursor", "cursor-hack-parallel-sleep.jsonl")
    entries = _flat([line for _, line in numbered_lines(path)])
    tools = [e["kind"] for e in entries if e["kind"].startswith("tool")]
    calls = {e["toolUseId"]: e["input"]["command"] for e in entries if e["kind"] == "tool_call"}
    finished = [calls[e["toolUseId"]] for e in entries if e["kind"] == "tool_result"]
    assert tools == ["tool_call", "tool_call", "tool_result", "tool_result"]
    assert finished == ["sleep 4", "sleep 6"]  # the shorter sleep finished first


def test_a_run_cut_off_without_a_result_still_gives_a_transcript() -> None:
    path = corpus_path("real-logs", "cursor", "cursor-hack-direct-sleep.jsonl")
    lines = [line for _, line in numbered_lines(path)]
    cut = lines[: lines.index(next(line for line in lines if '"shellToolCall"' in line)) + 1]
    kinds = Counter(e["kind"] for e in _flat(cut))
    assert kinds["init"] == 1 and kinds["tool_call"] == 1 and kinds["tool_result"] == 0
    assert kinds["result"] == 0 and kinds["stdout"] == 0


# -- shapes the corpus lacks (written from Cursor's documented stream-json) --------------


def _assistant(text: str, **fields: Any) -> str:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return json.dumps({"type": "assistant", "message": message, "session_id": "s1", **fields})


# --stream-partial-output: fragments carry timestamp_ms but no model_call_id; each
# segment ends with a recap repeating it, before the tool call and at the end.
PARTIAL_RUN = [
    _assistant("Let me ", timestamp_ms=1),
    _assistant("check the ", timestamp_ms=2),
    _assistant("tests.", timestamp_ms=3),
    _assistant("Let me check the tests.", model_call_id="m-0", timestamp_ms=4),
    json.dumps(
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "call_1",
            "tool_call": {"shellToolCall": {"args": {"command": "pytest -q"}}},
        }
    ),
    json.dumps(
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "call_1",
            "tool_call": {
                "shellToolCall": {
                    "args": {"command": "pytest -q"},
                    "result": {
                        "success": {
                            "exitCode": 1,
                            "stdout": "1 failed",
                            "stderr": "E  assert 2 == 3",
                        }
                    },
                }
            },
        }
    ),
    _assistant("One test ", timestamp_ms=5),
    _assistant("fails.", timestamp_ms=6),
    _assistant("One test fails."),
]


def test_partial_output_streams_fragments_as_deltas_and_drops_the_recaps() -> None:
    entries = linewise.merge_deltas(_flat(PARTIAL_RUN))
    assert [(e["kind"], e.get("text")) for e in entries] == [
        ("assistant", "Let me check the tests."),
        ("tool_call", None),
        ("tool_result", None),
        ("assistant", "One test fails."),
    ]
    assert entries[2] == {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "call_1",
        "toolName": "shellToolCall",
        "content": "exit 1\n<stdout>\n1 failed\n<stderr>\nE  assert 2 == 3",
        "isError": True,  # a non-zero exit is a failed tool call (the reference says false)
    }


def test_the_stateless_parser_marks_fragments_but_cannot_know_a_recap() -> None:
    assert parse_stdout_line(PARTIAL_RUN[1], TS) == [
        {"kind": "assistant", "ts": TS, "text": "check the ", "delta": True}
    ]
    assert parse_stdout_line(PARTIAL_RUN[3], TS) == [
        {"kind": "assistant", "ts": TS, "text": "Let me check the tests."}
    ]


def test_a_complete_message_that_is_not_a_recap_is_kept() -> None:
    lines = [_assistant("Draft", timestamp_ms=1), _assistant("Something else entirely.")]
    assert [e["text"] for e in _flat(lines)] == ["Draft", "Something else entirely."]


def test_reset_forgets_streamed_fragments() -> None:
    parser = create_stdout_parser()
    for line in PARTIAL_RUN[:3]:
        parser.parse_line(line, TS)
    parser.reset()
    # After a reset the recap is shown rather than lost.
    assert parser.parse_line(PARTIAL_RUN[3], TS) == [
        {"kind": "assistant", "ts": TS, "text": "Let me check the tests."}
    ]


def _completed(tool: str, payload: dict[str, Any]) -> str:
    return json.dumps(
        {"type": "tool_call", "subtype": "completed", "call_id": "c9", "tool_call": {tool: payload}}
    )


@pytest.mark.parametrize(
    ("tool", "payload", "content", "failed"),
    [
        (
            "deleteToolCall",
            {
                "args": {"path": "gone.txt"},
                "result": {"error": {"error": "File not found: gone.txt"}},
            },
            '{\n  "error": {\n    "error": "File not found: gone.txt"\n  }\n}',
            True,
        ),
        (
            "shellToolCall",
            {"args": {"command": "rm -rf /"}, "result": {"rejected": {"reason": "denied by user"}}},
            '{\n  "rejected": {\n    "reason": "denied by user"\n  }\n}',
            True,
        ),
        (
            "shellToolCall",
            {"result": {"failure": {"exitCode": 127, "stderr": "sh: nope: not found"}}},
            "exit 127\n<stderr>\nsh: nope: not found",
            True,
        ),
        (
            "editToolCall",
            {
                "args": {"path": "a.txt", "streamContent": "hi"},
                "result": {"success": {"path": "a.txt", "linesAdded": 1, "linesRemoved": 1}},
            },
            '{\n  "success": {\n    "path": "a.txt",\n    "linesAdded": 1,\n    "linesRemoved": 1\n  }\n}',
            False,
        ),
        ("globToolCall", {"args": {"globPattern": "*.py"}}, "globToolCall completed", False),
    ],
)
def test_tool_results_say_when_the_tool_failed(
    tool: str, payload: dict[str, Any], content: str, failed: bool
) -> None:
    assert _flat([_completed(tool, payload)]) == [
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "c9",
            "toolName": tool,
            "content": content,
            "isError": failed,
        }
    ]


def test_long_shell_output_is_kept_whole() -> None:
    """The reference cuts shell output at 2,000 characters; the host's renderer shortens instead."""
    output = "\n".join(f"line {n}" for n in range(1000))
    line = _completed("shellToolCall", {"result": {"success": {"exitCode": 0, "stdout": output}}})
    assert parse_stdout_line(line, TS)[0]["content"] == f"exit 0\n<stdout>\n{output}"


def test_mcp_and_grep_calls_keep_their_arguments() -> None:
    mcp_args = {"name": "gh-list_issues", "args": {"repo": "a/b"}, "toolName": "list_issues"}
    line = json.dumps(
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "c2",
            "tool_call": {"mcpToolCall": {"args": mcp_args}},
        }
    )
    assert parse_stdout_line(line, TS) == [
        {"kind": "tool_call", "ts": TS, "name": "mcpToolCall", "toolUseId": "c2", "input": mcp_args}
    ]


@pytest.mark.parametrize(
    "line",
    [
        'stdout: {"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}',
        'STDERR= {"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}',
        '  stdout{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}  ',
    ],
)
def test_multiplexed_stream_prefixes_are_removed(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "user", "ts": TS, "text": "hi"}]


def test_a_multiplexing_prefix_followed_by_endless_spaces_costs_linear_time() -> None:
    """A regex with two runs of optional spaces once made this quadratic (regex audit)."""
    assert normalize_line("stdout  :  {}") == "{}"
    assert normalize_line("STDERR={}") == "{}"
    assert normalize_line("stdout   x") == "stdout   x"
    assert_linear_time(lambda n: normalize_line("stdout" + " " * (40 * n) + "x"))


CALL_ID = "call_TmghxdonG3nRdxdHLvDahJLL\nfc_08e010c756ec9025"


def test_a_tool_id_with_a_newline_is_one_line_and_still_pairs() -> None:
    """cursor-agent joins two ids with a newline; shown as one line, the call and result pair."""
    shell = {"args": {"command": "sleep 8", "toolCallId": CALL_ID}}
    lines = [
        json.dumps(
            {
                "type": "tool_call",
                "subtype": "started",
                "call_id": CALL_ID,
                "tool_call": {"shellToolCall": shell},
            }
        ),
        json.dumps(
            {
                "type": "tool_call",
                "subtype": "completed",
                "call_id": CALL_ID,
                "tool_call": {"shellToolCall": {**shell, "result": {"success": {"exitCode": 0}}}},
            }
        ),
    ]
    call, result = _flat(lines)
    assert (
        call["toolUseId"]
        == result["toolUseId"]
        == "call_TmghxdonG3nRdxdHLvDahJLL fc_08e010c756ec9025"
    )
    assert result["toolName"] == "shellToolCall" and not result["isError"]
    assert all("\n" not in entry["toolUseId"] for entry in (call, result))


def test_events_with_timestamp_ms_carry_their_own_time() -> None:
    line = '{"type":"thinking","subtype":"delta","text":"hm","session_id":"s","timestamp_ms":1786427200353}'
    assert parse_stdout_line(line, TS) == [
        {"kind": "thinking", "ts": "2026-08-11T05:46:40.353Z", "text": "hm", "delta": True}
    ]
    assert _flat([line])[0]["ts"] == "2026-08-11T05:46:40.353Z"
    # No time of its own: the caller's stands.
    assert parse_stdout_line('{"type":"user","message":"hi"}', TS)[0]["ts"] == TS


def test_cursor_2026_08_results_report_tokens_with_cache_reads() -> None:
    line = (
        '{"type":"result","subtype":"success","duration_ms":2002,"is_error":false,"result":"OK",'
        '"session_id":"S","request_id":"R","usage":{"inputTokens":8274,"outputTokens":39,'
        '"cacheReadTokens":8000,"cacheWriteTokens":0}}'
    )
    (result,) = parse_stdout_line(line, TS)
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (
        8274,
        39,
        8000,
    )


def test_an_init_without_a_model_leaves_it_unknown() -> None:
    line = '{"type":"system","subtype":"init","session_id":"s1"}'
    assert parse_stdout_line(line, TS) == [
        {"kind": "init", "ts": TS, "model": "", "sessionId": "s1"}
    ]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {
                "type": "cursor_cloud.git",
                "branches": [
                    {
                        "repoUrl": "https://github.com/a/b",
                        "branch": "fix-1",
                        "prUrl": "https://github.com/a/b/pull/7",
                    }
                ],
            },
            "git: fix-1 in https://github.com/a/b (PR https://github.com/a/b/pull/7)",
        ),
        (
            {
                "type": "cursor_cloud.tool",
                "phase": "started",
                "toolName": "bash",
                "summary": "npm test",
            },
            "tool bash started: npm test",
        ),
        ({"type": "cursor_cloud.heartbeat", "at": 3}, 'heartbeat: {"at":3}'),
        (
            {"type": "cursor_cloud.message", "message": {"type": "status", "status": "running"}},
            "status: running",
        ),
    ],
)
def test_cloud_events_the_reference_leaves_raw_read_as_sentences(
    event: dict[str, Any], text: str
) -> None:
    assert parse_stdout_line(json.dumps(event), TS) == [{"kind": "system", "ts": TS, "text": text}]


@pytest.mark.parametrize(
    "line",
    [
        "plain text banner",
        "stdout: plain text",
        "[1, 2]",
        '{"no_type": true}',
        '{"type": "mystery"}',
        "{broken",
    ],
)
def test_lines_that_are_not_cursor_events_are_raw_stdout(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


field_names = st.sampled_from(
    [
        "subtype",
        "message",
        "text",
        "delta",
        "call_id",
        "tool_call",
        "result",
        "usage",
        "errors",
        "error",
        "is_error",
        "session_id",
        "model",
        "timestamp_ms",
        "model_call_id",
        "part",
        "status",
        "branches",
    ]
)
event_types = st.sampled_from(
    [
        "system",
        "user",
        "assistant",
        "thinking",
        "tool_call",
        "result",
        "error",
        "text",
        "tool_use",
        "step_finish",
        "cursor_cloud.init",
        "cursor_cloud.message",
        "cursor_cloud.result",
        "cursor_cloud.git",
    ]
)


@st.composite
def cursor_like_events(draw: st.DrawFn) -> dict[str, Any]:
    event: dict[str, Any] = {"type": draw(event_types)}
    for _ in range(draw(st.integers(0, 5))):
        event[draw(field_names)] = draw(small_json_values)
    if draw(st.booleans()):
        tool = draw(st.sampled_from(["shellToolCall", "readToolCall", "shell", "x"]))
        event["tool_call"] = {
            tool: {
                key: draw(small_json_values)
                for key in draw(
                    st.sets(
                        st.sampled_from(
                            ["args", "result", "command", "function", "error", "status"]
                        )
                    )
                )
            }
        }
    if draw(st.booleans()):
        parts = st.fixed_dictionaries(
            {
                "type": st.sampled_from(
                    ["text", "output_text", "thinking", "tool_call", "tool_result", "tool_use", "x"]
                )
            },
            optional=dict.fromkeys(
                ["text", "name", "input", "id", "output", "result", "status"], small_json_values
            ),
        )
        event["message"] = {
            "type": draw(
                st.sampled_from(["assistant", "user", "tool_call", "tool_result", "thinking"])
            ),
            "content": draw(st.lists(parts, max_size=3)),
        }
    return event


@given(st.lists(cursor_like_events(), max_size=6), st.sampled_from(["", "stdout", "stderr: "]))
def test_never_raises_and_always_returns_valid_entries_deterministically(
    events: list[dict[str, Any]], prefix: str
) -> None:
    lines = [prefix + json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)


def test_a_deeply_nested_read_result_does_not_balloon() -> None:
    # Found by `linewise check cursor`: past orjson's 255 levels the pretty text grew
    # with the square of the depth (1.36 MB of text for a 4 KB line).
    value: object = "x"
    for depth in range(300):
        value = [{"x": value}] if depth % 2 else {"x": value}
    line = json.dumps(
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "c1",
            "tool_call": {
                "readToolCall": {
                    "args": {"path": "a.py"},
                    "result": {"success": {"content": value}},
                }
            },
        }
    )
    entries = parse_stdout_line(line, TS)
    assert sum(len(json.dumps(entry)) for entry in entries) <= 4 * len(line)
