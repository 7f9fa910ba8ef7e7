"""The Gemini stream-json parser against the reference, real logs, and the shapes they lack."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import linewise_gemini
import pytest
from hypothesis import given
from hypothesis import strategies as st
from line_fields import fields_in_no_entry
from linewise import merge_deltas
from linewise_contracts import entry_problem
from linewise_contracts.extract import dig, iso_timestamp
from linewise_gemini import create_stdout_parser, parse_stdout_line, sniff
from support import (
    assert_valid_and_deterministic,
    corpus_json,
    corpus_path,
    json_values,
    numbered_lines,
    parse_all,
    parse_flat,
)

TS = "2026-01-01T00:00:00.000Z"
LONG_RUN = Path(linewise_gemini.__file__).parent / "samples" / "long-run.jsonl"


_parse_all = partial(parse_all, create_stdout_parser, ts=TS)
_flat = partial(parse_flat, create_stdout_parser, ts=TS)


# Contract 1.5's and 1.9's fields on a result entry: newer than the reference.
_SUMMARY_FIELDS = frozenset({"usage", "costSource", "outcome", "sessionId", "turns", "modelUsage"})


def _wire(entries: list[Any]) -> list[dict[str, Any]]:
    """Entries as the reference writes them: a result without the summary fields."""
    return [
        {k: v for k, v in entry.items() if entry["kind"] != "result" or k not in _SUMMARY_FIELDS}
        for entry in entries
    ]


def _real_logs() -> list[Path]:
    return sorted(path for path in corpus_path("real-logs", "gemini").iterdir())


# -- the reference -----------------------------------------------------------------------


def test_reference_ui_parser_cases_match_except_the_kept_delta_flag() -> None:
    """Every reference UI case gives the reference's entries, with one deliberate change.

    The reference drops ``delta: true`` from streamed assistant fragments; here
    they keep it, so the host merges the fragments back into one message.
    """
    cases = corpus_json("paperclip", "gemini-local", "expected.json")["ui_parser"]
    assert len(cases) == 9
    for case in cases:
        ours = _wire(parse_stdout_line(case["line"], case["ts"]))
        event = json.loads(case["line"])
        if event.get("type") == "message" and event.get("delta") is True:
            assert case["output_asserted_exactly"]
            assert ours == [{**entry, "delta": True} for entry in case["output"]], case["fixture"]
        else:
            assert ours == case["output"], case["fixture"]


def test_acp_engine_events_go_through_the_shared_acpx_parser() -> None:
    cases = corpus_json("paperclip", "acpx-engine", "expected.json")["ui_parser"]
    for case in cases:
        assert parse_stdout_line(case["line"], case["ts"]) == case["output"]
    lines = [
        line
        for _, line in numbered_lines(corpus_path("paperclip", "acpx-engine", "acpx-lines.jsonl"))
    ]
    kinds = [entry["kind"] for entry in _flat(lines)]
    # Two calls, each finishing with a result paired by its toolCallId.
    assert kinds.count("tool_result") == 2 and set(kinds) == {"tool_call", "tool_result"}


def _with_reference() -> list[tuple[Path, dict[int, list[dict[str, Any]]]]]:
    """The real logs the reference was run on, each with its entries by line number."""
    logs = []
    for path in _real_logs():
        baseline = corpus_path("paperclip-on-real-logs", "gemini") / f"{path.stem}.paperclip.jsonl"
        if baseline.exists():  # logs added later have no reference output
            rows = map(json.loads, baseline.read_text(encoding="utf-8").splitlines())
            logs.append((path, {row["line"]: row["entries"] for row in rows}))
    return logs


def test_matches_the_reference_on_real_logs_wherever_the_reference_recognised_the_line() -> None:
    """Lines the reference read give the same entries; its raw-stdout lines are improved.

    The reference leaves the top-level ``init``, ``tool_use``, ``tool_result``
    and Gemini's stderr notices as raw stdout, drops the delta flag and trims
    each fragment (gluing "capital and" to "largest"); here fragments keep
    their text and flag. Entries carry the event's own ``timestamp`` where it
    has one, the host's time otherwise.
    """
    improved = Counter[str]()
    fragments = agreed = 0
    logs = _with_reference()
    assert len(logs) == 7
    for path, baseline in logs:
        numbered = numbered_lines(path)
        for (number, line), stamped in zip(
            numbered, _parse_all([line for _, line in numbered]), strict=True
        ):
            event = json.loads(line) if line.startswith("{") else {}
            assert all(e["ts"] == (iso_timestamp(event.get("timestamp")) or TS) for e in stamped)
            ours = [{**e, "ts": TS} for e in _wire(stamped)]
            theirs = baseline[number]
            if [e["kind"] for e in theirs] == ["stdout"]:
                assert len(ours) == 1 and ours[0]["kind"] != "stdout", f"{path.name}:{number}"
                improved[ours[0]["kind"]] += 1
                continue
            if any(e.get("delta") for e in ours):
                fragments += 1
                assert [{**e, "text": e["text"].strip()} for e in ours] == [
                    {**e, "delta": True} for e in theirs
                ], f"{path.name}:{number}"
                continue
            # toolName is an addition of the stateful parser.
            plain = [{k: v for k, v in e.items() if k != "toolName"} for e in ours]
            if plain != theirs and event.get("code") is not None:
                # An error event's code is kept ("Rate limit exceeded (code 429)").
                assert plain == [{**theirs[0], "text": f"{theirs[0]['text']} (code 429)"}]
                improved["stderr with its code"] += 1
                continue
            if plain != theirs and dig(event, "error", "type"):
                # A failed result's errors name the error's type.
                kind, message = event["error"]["type"], event["error"]["message"]
                assert plain == [{**theirs[0], "errors": [f"{kind}: {message}"]}]
                improved["result errors with their type"] += 1
                continue
            assert plain == theirs, f"{path.name}:{number}"
            agreed += 1
    assert improved == {
        "init": 7,
        "tool_call": 9,
        "tool_result": 18,
        "system": 3,
        "stderr with its code": 1,
        "result errors with their type": 1,
    }
    assert fragments == 8
    assert agreed == 12


def test_every_real_line_is_recognised_and_valid() -> None:
    expected = {
        "init": {"init"},
        "message": {"user", "assistant"},
        "tool_use": {"tool_call"},
        "tool_result": {"tool_result"},
        "error": {"stderr", "system"},
        "result": {"result"},
    }
    for path in _real_logs():
        numbered = numbered_lines(path)
        for (number, line), entries in zip(
            numbered, _parse_all([text for _, text in numbered]), strict=True
        ):
            kinds = {entry["kind"] for entry in entries}
            assert entries and "stdout" not in kinds, (
                f"{path.name}:{number} fell back to raw stdout"
            )
            for entry in entries:
                assert entry_problem(entry) is None, f"{path.name}:{number}: {entry_problem(entry)}"
            if line.startswith("{"):
                assert kinds <= expected[json.loads(line)["type"]], f"{path.name}:{number}"
            else:
                assert kinds == {"system"}, f"{path.name}:{number}: a stderr notice"


# Fields of a Gemini event the contract has no place for (listed in the plugin
# README); every other value of every real line must be in some entry.
_NO_PLACE_IN_THE_CONTRACT = {"type", "timestamp", "status", "stats.total_tokens", "stats.input"}
_NO_PLACE_PREFIXES = ("stats.duration_ms", "stats.tool_calls", "stats.models.")


def test_every_value_of_every_real_line_is_in_an_entry_or_has_no_place() -> None:
    """Issue #10: nothing in a line is lost, except the fields the README lists."""
    for path in _real_logs():
        numbered = numbered_lines(path)
        for (number, line), entries in zip(
            numbered, _parse_all([text for _, text in numbered]), strict=True
        ):
            glued = linewise_gemini.parser.glued_event(line)
            event_line = line[len(glued[0]) :] if glued else line
            if not event_line.startswith("{"):
                continue
            lost = {
                field
                for field in fields_in_no_entry(event_line, entries)
                if field not in _NO_PLACE_IN_THE_CONTRACT
                and not field.startswith(_NO_PLACE_PREFIXES)
            }
            assert not lost, f"{path.name}:{number}: {sorted(lost)}"


def test_tool_results_carry_the_id_and_name_of_their_call() -> None:
    paired = unpaired = 0
    for path in [*_real_logs(), LONG_RUN]:
        calls: dict[str, str] = {}
        for entry in _flat([line for _, line in numbered_lines(path)]):
            if entry["kind"] == "tool_call":
                calls[entry["toolUseId"]] = entry["name"]
            elif entry["kind"] == "tool_result":
                if entry["toolUseId"] in calls:
                    assert entry["toolName"] == calls[entry["toolUseId"]]
                    paired += 1
                else:  # the fragments file quotes results of calls it does not show
                    assert "toolName" not in entry and entry["toolUseId"]
                    unpaired += 1
    assert paired == 8 + 14 and unpaired == 10


def test_a_run_cut_off_mid_line_still_gives_a_transcript() -> None:
    lines = [
        line
        for _, line in numbered_lines(
            corpus_path("real-logs", "gemini", "amux-0.53.1-shell-run.jsonl")
        )
    ]
    cut = [*lines[:4], lines[4][:40]]  # the stream stops inside the assistant message
    entries = _flat(cut)
    assert [e["kind"] for e in entries] == ["init", "user", "tool_call", "tool_result", "stdout"]
    assert entries[-1]["text"] == lines[4][:40]  # the broken line is shown, not lost


# -- a long run written from Gemini CLI's documented stream-json ---------------------------


def test_a_long_run_reads_as_a_conversation() -> None:
    lines = [line for _, line in numbered_lines(LONG_RUN)]
    entries = _flat(lines)
    assert all(entry_problem(entry) is None for entry in entries)
    kinds = Counter(entry["kind"] for entry in entries)
    assert kinds == {
        "system": 3,  # two stderr notices and a warning event
        "init": 1,
        "user": 1,
        "assistant": 15,  # fragments of 5 messages
        "tool_call": 14,
        "tool_result": 14,
        "result": 1,
    }
    failed = [e for e in entries if e["kind"] == "tool_result" and e["isError"]]
    assert [e["toolName"] for e in failed] == ["replace"]
    assert failed[0]["content"].startswith("Failed to edit, 0 occurrences found")
    assert failed[0]["content"].endswith("No edits made.")  # the error's message is kept
    assert entries[-1] == {
        "kind": "result",
        "ts": "2026-03-02T09:15:34.357Z",  # the event's own time, not the host's
        "text": "",
        "inputTokens": 183950,
        "outputTokens": 2146,
        "cachedTokens": 141208,
        "costUsd": 0,
        "subtype": "success",
        "isError": False,
        "errors": [],
        # stats: input 42,742 (uncached), cached 141,208; thoughts are total - input - output
        "usage": {
            "uncachedInput": 42742,
            "cacheRead": 141208,
            "cacheWrite": None,
            "output": 2146 + 1316,
            "reasoning": 1316,
        },
        "costSource": None,  # Gemini reports no cost: costUsd 0 is none
        "outcome": "completed",
        "modelUsage": {
            "gemini-2.5-pro": {
                "uncachedInput": 36523,
                "cacheRead": 141208,
                "cacheWrite": None,
                "output": 1991 + 1281,
                "reasoning": 1281,
            },
            "gemini-2.5-flash-lite": {
                "uncachedInput": 6219,
                "cacheRead": 0,
                "cacheWrite": None,
                "output": 155 + 35,
                "reasoning": 35,
            },
        },
    }


def test_streamed_fragments_merge_into_whole_messages_in_the_host() -> None:
    entries = _flat([line for _, line in numbered_lines(LONG_RUN)])
    merged = merge_deltas(entries)  # type: ignore[arg-type]
    said = [e["text"] for e in merged if e["kind"] == "assistant"]
    assert said[0] == "I'll start by looking at the project layout and the export module."
    assert said[-1].startswith("Fixed. The CSV writer now writes UTF-8 with LF line endings")
    assert len(said) == 5


# -- shapes the corpus lacks -----------------------------------------------------------------


def test_entries_carry_the_time_of_their_event() -> None:
    """Gemini stamps every event; entries keep that time (UTC, milliseconds), else the host's."""
    parser = create_stdout_parser()
    stamped = (
        '{"type":"init","timestamp":"2026-04-11T22:35:47.989+02:00","session_id":"s","model":"m"}'
    )
    assert parser.parse_line(stamped, TS)[0]["ts"] == "2026-04-11T20:35:47.989Z"
    unstamped = '{"type":"init","session_id":"s","model":"m"}'
    assert parser.parse_line(unstamped, TS)[0]["ts"] == TS
    nonsense = '{"type":"init","timestamp":"yesterday","session_id":"s","model":"m"}'
    assert parser.parse_line(nonsense, TS)[0]["ts"] == TS


# Gemini 0.37+ prints "MCP issues detected ..." on stdout without a newline, so
# the next event is glued to it (shape as reported in issue #10, text written here).
GLUED = (
    "MCP issues detected. Run /mcp list for status."
    '{"type":"init","timestamp":"2026-05-01T08:00:00.000Z","session_id":"abc","model":"auto"}'
)


def test_an_event_glued_to_a_notice_is_recovered_with_the_notice_as_its_own_entry() -> None:
    for entries in (parse_stdout_line(GLUED, TS), create_stdout_parser().parse_line(GLUED, TS)):
        assert entries == [
            {
                "kind": "system",
                "ts": "2026-05-01T08:00:00.000Z",
                "text": "MCP issues detected. Run /mcp list for status.",
            },
            {"kind": "init", "ts": "2026-05-01T08:00:00.000Z", "model": "auto", "sessionId": "abc"},
        ]


def test_text_with_broken_json_after_it_stays_one_raw_line() -> None:
    line = 'I printed {"type": but never closed it'
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


def test_the_summary_and_the_sniffer_read_a_glued_event() -> None:
    lines = [
        GLUED,
        '{"type":"message","role":"assistant","content":"hi","delta":true}',
        '{"type":"result","status":"success","stats":{"input_tokens":5,"output_tokens":1}}',
    ]
    summary = linewise_gemini.summarize_run(lines)
    assert summary.session_id == "abc" and summary.final_text == "hi" and summary.complete
    assert sniff(lines) >= 0.85


@pytest.mark.parametrize(
    ("severity", "kind", "text"),
    [("warning", "system", "warning: Loop detected"), ("error", "stderr", "Loop detected")],
)
def test_error_events_by_severity(severity: str, kind: str, text: str) -> None:
    """``ErrorEvent`` {severity, message} as gemini-cli's output/types.ts declares it."""
    line = json.dumps(
        {
            "type": "error",
            "timestamp": "2026-05-01T08:00:01.000Z",
            "severity": severity,
            "message": "Loop detected",
        }
    )
    assert parse_stdout_line(line, TS) == [
        {"kind": kind, "ts": "2026-05-01T08:00:01.000Z", "text": text}
    ]


def test_an_error_event_keeps_its_code_and_a_failed_result_its_error_type() -> None:
    """Fields of gemini-cli's JsonError ({type, message, code}) that say what failed."""
    error = '{"type":"error","message":"Rate limit exceeded","code":429}'
    assert parse_stdout_line(error, TS)[0]["text"] == "Rate limit exceeded (code 429)"
    result = json.dumps(
        {
            "type": "result",
            "status": "error",
            "error": {"type": "FatalTurnLimitedError", "message": "Reached max session turns"},
        }
    )
    (entry,) = parse_stdout_line(result, TS)
    assert entry["kind"] == "result"
    assert entry["errors"] == ["FatalTurnLimitedError: Reached max session turns"]
    same = json.dumps(
        {
            "type": "tool_result",
            "tool_id": "t1",
            "status": "error",
            "output": "Path must be inside the workspace",
            "error": {
                "type": "invalid_tool_params",
                "message": "Path must be inside the workspace",
            },
        }
    )
    (result_entry,) = parse_stdout_line(same, TS)
    assert result_entry["kind"] == "tool_result"
    assert result_entry["content"] == "Path must be inside the workspace\n(invalid_tool_params)"


def test_a_failed_tool_result_keeps_its_error_object() -> None:
    """``ToolResultEntry`` with ``error: {type, message}`` and no output (gemini-cli types.ts)."""
    line = json.dumps(
        {
            "type": "tool_result",
            "tool_id": "read_file__1",
            "status": "error",
            "error": {"type": "FILE_NOT_FOUND", "message": "File not found: a.txt"},
        }
    )
    assert parse_stdout_line(line, TS) == [
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "read_file__1",
            "content": "FILE_NOT_FOUND: File not found: a.txt",  # the error's type leads
            "isError": True,
        }
    ]


def test_system_init_and_legacy_claude_style_events() -> None:
    line = json.dumps(
        {
            "type": "assistant",
            "message": {
                "content": [
                    {"type": "thinking", "text": "check the tests first"},
                    {"type": "text", "text": "Running them."},
                    {
                        "type": "tool_use",
                        "id": "call_7",
                        "name": "run_shell_command",
                        "input": {"command": "pytest"},
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_7",
                        "output": "3 passed",
                        "status": "success",
                    },
                    {
                        "type": "question",
                        "prompt": "Ship it?",
                        "choices": [{"key": "y", "label": "Yes"}],
                    },
                ]
            },
        }
    )
    assert parse_stdout_line(line, TS) == [
        {"kind": "thinking", "ts": TS, "text": "check the tests first"},
        {"kind": "assistant", "ts": TS, "text": "Running them."},
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "run_shell_command",
            "input": {"command": "pytest"},
            "toolUseId": "call_7",
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "call_7",
            "content": "3 passed",
            "isError": False,
        },
        {"kind": "assistant", "ts": TS, "text": "Question: Ship it?\n- y: Yes"},
    ]
    # No model named: "unknown", never an invented "gemini" (issue #12).
    assert parse_stdout_line('{"type":"system","subtype":"init","session_id":"s9"}', TS) == [
        {"kind": "init", "ts": TS, "model": "unknown", "sessionId": "s9"}
    ]


@pytest.mark.parametrize(
    ("event", "entry"),
    [
        (
            {
                "type": "error",
                "severity": "warning",
                "message": "Loop detected, stopping execution",
            },
            {"kind": "system", "ts": TS, "text": "warning: Loop detected, stopping execution"},
        ),
        (
            {"type": "error", "severity": "error", "message": "Maximum session turns exceeded"},
            {"kind": "stderr", "ts": TS, "text": "Maximum session turns exceeded"},
        ),
        (
            {
                "type": "tool_result",
                "tool_id": "t1",
                "status": "error",
                "error": {"type": "x", "message": "denied"},
            },
            {
                "kind": "tool_result",
                "ts": TS,
                "toolUseId": "t1",
                "content": "x: denied",
                "isError": True,
            },
        ),
        (
            {
                "type": "result",
                "status": "error",
                "error": {"type": "FatalTurnLimitedError", "message": "Reached max session turns"},
                "stats": {"input_tokens": 5, "output_tokens": 1},
            },
            {
                "kind": "result",
                "ts": TS,
                "text": "",
                "inputTokens": 5,
                "outputTokens": 1,
                "cachedTokens": 0,
                "costUsd": 0,
                "subtype": "error",
                "isError": True,
                "errors": ["FatalTurnLimitedError: Reached max session turns"],
                "usage": {
                    "uncachedInput": 5,
                    "cacheRead": None,
                    "cacheWrite": None,
                    "output": 1,
                    "reasoning": None,
                },
                "costSource": None,
                "outcome": "max_turns",
            },
        ),
        (
            {"type": "message", "role": "assistant", "content": "\n", "delta": True},
            {"kind": "assistant", "ts": TS, "text": "\n", "delta": True},
        ),
    ],
)
def test_gemini_events(event: dict[str, Any], entry: dict[str, Any]) -> None:
    assert parse_stdout_line(json.dumps(event), TS) == [entry]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Loaded cached credentials.", "system"),
        ("Data collection is disabled.", "system"),
        (
            "(node:6220) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.",
            "system",
        ),
        ("[ERROR] [IDEClient] Failed to connect to IDE companion extension.", "stderr"),
        ("Attempt 1 failed with status 429. Retrying with backoff...", "stderr"),
        (
            "Error authenticating: FatalAuthenticationError: Manual authorization is required",
            "stderr",
        ),
        ("\x1b[33mWarning: settings.json has an unknown key\x1b[0m", "stderr"),
        ("plain text nobody recognises", "stdout"),
    ],
)
def test_lines_that_are_not_json(line: str, kind: str) -> None:
    (entry,) = parse_stdout_line(line, TS)
    assert entry["kind"] == kind
    # Gemini's own notices lose their colours; unknown text is shown exactly.
    assert entry["text"] == (
        line if kind == "stdout" else line.replace("\x1b[33m", "").replace("\x1b[0m", "")
    )


@pytest.mark.parametrize("line", ["[1, 2]", '{"no_type": true}', '{"type": "mystery"}', "{broken"])
def test_json_that_is_not_a_gemini_event_is_raw_stdout(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


def test_reset_forgets_tool_names() -> None:
    parser = create_stdout_parser()
    parser.parse_line('{"type":"tool_use","tool_name":"glob","tool_id":"g1","parameters":{}}', TS)
    parser.reset()
    (result,) = parser.parse_line('{"type":"tool_result","tool_id":"g1","status":"success"}', TS)
    assert "toolName" not in result


# -- sniffing --------------------------------------------------------------------------------


def _first_lines(path: Path) -> list[str]:
    return [line for _, line in numbered_lines(path)][:40]


def test_sniff_recognises_every_real_gemini_log_and_no_other_cli() -> None:
    for path in _real_logs():
        assert sniff(_first_lines(path)) >= 0.8, path.name
    others = [
        path
        for folder in corpus_path("real-logs").iterdir()
        if folder.is_dir() and folder.name != "gemini"
        for path in folder.iterdir()
    ]
    assert len(others) > 30
    for path in others:
        assert sniff(_first_lines(path)) < 0.5, f"{path.parent.name}/{path.name}"
    assert sniff(_first_lines(LONG_RUN)) == 0.95


def test_sniff_is_unsure_of_generic_lines() -> None:
    assert sniff([]) == 0
    assert sniff(["Loaded cached credentials."]) == 0  # no event at all
    assert sniff(['{"type":"assistant","message":{"content":"hi"}}']) < 0.5


# -- never raises --------------------------------------------------------------------------------


field_names = st.sampled_from(
    [
        "type",
        "subtype",
        "role",
        "content",
        "delta",
        "tool_name",
        "tool_id",
        "parameters",
        "status",
        "output",
        "error",
        "severity",
        "message",
        "stats",
        "usage",
        "session_id",
        "model",
        "text",
        "result",
        "total_cost_usd",
        "name",
        "toolCallId",
        "input",
    ]
)


@st.composite
def gemini_like_events(draw: st.DrawFn) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": draw(
            st.sampled_from(
                [
                    "init",
                    "message",
                    "tool_use",
                    "tool_result",
                    "error",
                    "result",
                    "system",
                    "assistant",
                    "user",
                    "thinking",
                    "text",
                    "acpx.tool_call",
                    "acpx.text_delta",
                ]
            )
        )
    }
    for _ in range(draw(st.integers(0, 6))):
        event[draw(field_names)] = draw(json_values)
    if draw(st.booleans()):
        event["message"] = {
            "content": draw(
                st.lists(
                    st.dictionaries(
                        st.sampled_from(
                            ["type", "text", "id", "name", "input", "output", "choices"]
                        ),
                        json_values,
                        max_size=4,
                    ),
                    max_size=3,
                )
            )
        }
    return event


@given(st.lists(gemini_like_events() | st.text(max_size=20), max_size=6))
def test_never_raises_and_always_returns_valid_entries_deterministically(
    events: list[dict[str, Any] | str],
) -> None:
    lines = [event if isinstance(event, str) else json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)
