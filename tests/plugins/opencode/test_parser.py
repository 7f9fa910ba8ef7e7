"""The OpenCode JSON parser against the reference, real logs, and the shapes they lack."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import linewise_opencode
import pytest
from hypothesis import given
from hypothesis import strategies as st
from line_fields import fields_in_no_entry
from linewise import merge_deltas
from linewise_contracts import entry_problem
from linewise_contracts.extract import iso_timestamp
from linewise_opencode import create_stdout_parser, diff_entries, parse_stdout_line, sniff
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
LONG_RUN = Path(linewise_opencode.__file__).parent / "samples" / "long-run.jsonl"


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
    return sorted(corpus_path("real-logs", "opencode").glob("*.jsonl"))


def _tool(state: dict[str, Any], tool: str = "bash", call: str = "call_1") -> str:
    return json.dumps(
        {
            "type": "tool_use",
            "sessionID": "ses_1",
            "part": {"id": "prt_1", "type": "tool", "callID": call, "tool": tool, "state": state},
        }
    )


# -- the reference -----------------------------------------------------------------------


def test_reference_ui_parser_cases_match_exactly() -> None:
    cases = corpus_json("paperclip", "opencode-local", "expected.json")["ui_parser"]
    assert len(cases) == 3
    for case in cases:
        assert case["output_asserted_exactly"]
        ours = _wire(parse_stdout_line(case["line"], case["ts"]))
        assert ours == case["output"], case["fixture"]


def _with_reference() -> list[tuple[Path, dict[int, list[dict[str, Any]]]]]:
    """The real logs the reference was run on, each with its entries by line number."""
    logs = []
    for path in _real_logs():
        baseline = (
            corpus_path("paperclip-on-real-logs", "opencode") / f"{path.stem}.paperclip.jsonl"
        )
        if baseline.exists():  # logs added later have no reference output
            rows = map(json.loads, baseline.read_text(encoding="utf-8").splitlines())
            logs.append((path, {row["line"]: row["entries"] for row in rows}))
    return logs


def test_matches_the_reference_on_real_logs_except_the_tool_result_header() -> None:
    """The same entries as the reference, but for one deliberate change and real times.

    The reference writes every metadata value into the tool result's header,
    so bash's copy of its own output appears twice (and objects would show as
    "[object Object]"); here the header holds one-line scalar values only.
    Entries carry the event's own time (epoch milliseconds) instead of the host's.
    """
    changed = agreed = 0
    logs = _with_reference()
    assert len(logs) == 2
    for path, baseline in logs:
        for number, line in numbered_lines(path):
            stamped, theirs = parse_stdout_line(line, TS), baseline[number]
            when = iso_timestamp(json.loads(line)["timestamp"])
            assert when is not None and all(e["ts"] == when for e in stamped)
            ours = [{**e, "ts": TS} for e in _wire(stamped)]
            if ours == theirs:
                agreed += 1
                continue
            changed += 1
            assert theirs[1]["content"] == (
                "status: completed\noutput: hello\n\nexit: 0\n"
                "description: Print hello to stdout\n\nhello"
            )
            assert ours == [
                theirs[0],
                {
                    **theirs[1],
                    "content": "status: completed\nexit: 0\n"
                    "description: Print hello to stdout\n\nhello",
                },
            ]
    assert (agreed, changed) == (8, 1)


def test_every_real_line_is_recognised_and_valid() -> None:
    expected = {
        "step_start": {"system"},
        "step_finish": {"result"},
        "text": {"assistant"},
        "tool_use": {"tool_call", "tool_result", "diff"},
    }
    for path in [*_real_logs(), LONG_RUN]:
        numbered = numbered_lines(path)
        results = _parse_all([line for _, line in numbered])
        for (number, line), entries in zip(numbered, results, strict=True):
            kinds = {entry["kind"] for entry in entries}
            assert entries and "stdout" not in kinds, f"{path.name}:{number}"
            for entry in entries:
                assert entry_problem(entry) is None, f"{path.name}:{number}: {entry_problem(entry)}"
            kind = json.loads(line)["type"]
            assert kinds <= expected.get(kind, {"system", "thinking"}), f"{path.name}:{number}"


# Fields of an OpenCode event the contract has no place for (listed in the plugin
# README); every other value of every real line must be in some entry.
_NO_PLACE_IN_THE_CONTRACT = {
    "type",
    "timestamp",
    "sessionID",
    "part.id",
    "part.messageID",
    "part.sessionID",
    "part.type",
    "part.snapshot",
    "part.time.start",
    "part.time.end",
    "part.state.time.start",
    "part.state.time.end",
    "part.state.metadata.preview",
    "part.tokens.total",
    # Summed into the result's outputTokens (output + reasoning), so not found verbatim.
    "part.tokens.output",
    "part.tokens.reasoning",
}


def test_every_value_of_every_real_line_is_in_an_entry_or_has_no_place() -> None:
    """Issue #10: nothing in a line is lost, except the fields the README lists."""
    for path in _real_logs():
        numbered = numbered_lines(path)
        for (number, line), entries in zip(
            numbered, _parse_all([text for _, text in numbered]), strict=True
        ):
            lost = fields_in_no_entry(line, entries) - _NO_PLACE_IN_THE_CONTRACT
            assert not lost, f"{path.name}:{number}: {sorted(lost)}"


def test_tool_results_carry_the_id_and_name_of_their_call() -> None:
    paired = 0
    for path in [*_real_logs(), LONG_RUN]:
        calls: dict[str, str] = {}
        for entry in _flat([line for _, line in numbered_lines(path)]):
            if entry["kind"] == "tool_call":
                calls[entry["toolUseId"]] = entry["name"]
            elif entry["kind"] == "tool_result":
                assert entry["toolName"] == calls[entry["toolUseId"]]
                paired += 1
    assert paired == 1 + 9 + 10  # takopi, sandcastle, the long fixture


def test_a_run_cut_off_mid_line_still_gives_a_transcript() -> None:
    lines = [
        line
        for _, line in numbered_lines(
            corpus_path("real-logs", "opencode", "takopi-stream-success.jsonl")
        )
    ]
    cut = [*lines[:4], lines[4][:60]]  # the stream stops inside the final text
    entries = _flat(cut)
    assert [e["kind"] for e in entries] == [
        "system",
        "tool_call",
        "tool_result",
        "result",
        "system",
        "stdout",
    ]
    assert entries[-1]["text"] == lines[4][:60]  # shown raw, not lost


# -- a long run written from OpenCode's documented event shapes ------------------------------


def test_a_long_run_reads_as_a_conversation() -> None:
    entries = _flat([line for _, line in numbered_lines(LONG_RUN)])
    kinds = Counter(entry["kind"] for entry in entries)
    assert kinds == {
        "system": 7,  # six steps started, and the run finished
        "thinking": 2,
        "assistant": 3,
        "tool_call": 10,
        "tool_result": 10,
        "diff": 10,
        "result": 6,
    }
    failed = [
        (e["toolName"], e["content"])
        for e in entries
        if e["kind"] == "tool_result" and e["isError"]
    ]
    assert failed == [
        ("edit", "status: error\n\noldString not found in content"),
        (
            "bash",
            "status: error\n\nThe user rejected permission to use this specific tool call. "
            "You may try again with different parameters.",
        ),
    ]
    assert entries[-1] == {
        "kind": "system",
        "ts": "2026-03-02T09:00:16.671Z",  # the event's own time, not the host's
        "text": "run finished (idle); permissions auto-rejected: bash",
    }


def test_an_edit_shows_its_diff_after_the_result() -> None:
    entries = _flat([line for _, line in numbered_lines(LONG_RUN)])
    start = next(i for i, e in enumerate(entries) if e["kind"] == "diff")
    assert entries[start - 1]["kind"] == "tool_result" and entries[start - 1]["toolName"] == "edit"
    diff = [(e["changeType"], e["text"]) for e in entries[start : start + 10]]
    assert diff[3:] == [
        ("file_header", "+++ /repo/src/net/retry.ts"),
        ("hunk", "@@ -11,5 +11,5 @@"),
        ("context", " "),
        ("context", " export function shouldRetry(status: number) {"),
        ("remove", "-  return status >= 400"),
        ("add", "+  return status === 408 || status === 429 || status >= 500"),
        ("context", " }"),
    ]


def test_a_long_diff_is_cut_with_a_marker() -> None:
    diff = "@@ -1,500 +1,500 @@\n" + "\n".join(f"+line {n}" for n in range(500))
    entries = diff_entries(diff, TS)
    assert len(entries) == 401
    assert entries[-1] == {
        "kind": "diff",
        "ts": TS,
        "changeType": "truncation",
        "text": "… 101 more lines",
    }


# -- shapes the corpus lacks -----------------------------------------------------------------


def _text(text: str, end: int | None, part: str = "prt_t1", kind: str = "text") -> str:
    """A text (or reasoning) event as OpenCode's TextPart declares it: ``time.end`` once done."""
    time: dict[str, int] = {"start": 1767036064000}
    if end is not None:
        time["end"] = end
    return json.dumps(
        {
            "type": kind,
            "timestamp": 1767036064265,
            "sessionID": "ses_1",
            "part": {"id": part, "type": kind, "text": text, "time": time},
        }
    )


def test_a_text_part_resent_as_growing_snapshots_is_one_growing_message() -> None:
    """Written from OpenCode's TextPart type (no real capture re-sends a part)."""
    when = "2025-12-29T19:21:04.265Z"
    parser = create_stdout_parser()
    snapshots = [
        _text("Hello", None),
        _text("Hello world", None),
        _text("Hello world", None),  # re-sent unchanged: nothing new to show
        _text("Hello world, done.", 1767036064300),
        _text("Hello world, done.", 1767036064300),  # the finished part once more
    ]
    shown = [parser.parse_line(line, TS) for line in snapshots]
    assert shown == [
        [{"kind": "assistant", "ts": when, "text": "Hello", "delta": True}],
        [{"kind": "assistant", "ts": when, "text": " world", "delta": True}],
        [],
        [{"kind": "assistant", "ts": when, "text": ", done.", "delta": True}],
        [],
    ]
    merged = merge_deltas([entry for entries in shown for entry in entries])  # type: ignore[arg-type]
    assert [e["text"] for e in merged] == ["Hello world, done."]


def test_reasoning_snapshots_grow_the_same_way_and_parts_stay_apart() -> None:
    parser = create_stdout_parser()
    lines = [
        _text("Let me", None, part="prt_r", kind="reasoning"),
        _text("Let me check.", 1767036064300, part="prt_r", kind="reasoning"),
        _text("Done.", 1767036064400, part="prt_t"),
    ]
    entries = [entry for line in lines for entry in parser.parse_line(line, TS)]
    merged = merge_deltas(entries)  # type: ignore[arg-type]
    assert [(e["kind"], e["text"]) for e in merged] == [
        ("thinking", "Let me check."),
        ("assistant", "Done."),
    ]


def test_a_rewritten_text_part_is_shown_whole_again() -> None:
    parser = create_stdout_parser()
    parser.parse_line(_text("Helo", None), TS)
    assert [e["text"] for e in parser.parse_line(_text("Hello", 1), TS)] == ["Hello"]


def test_a_pending_call_without_input_waits_for_its_input() -> None:
    """ToolStatePending carries ``input: {}`` before the model has written it."""
    parser = create_stdout_parser()
    assert parser.parse_line(_tool({"status": "pending", "input": {}}), TS) == []
    running = parser.parse_line(_tool({"status": "running", "input": {"command": "ls"}}), TS)
    assert [(e["kind"], e.get("input")) for e in running] == [("tool_call", {"command": "ls"})]
    # Read alone, the pending line still says a call started.
    assert [e["kind"] for e in parse_stdout_line(_tool({"status": "pending"}), TS)] == ["tool_call"]


def test_a_call_updated_while_running_is_shown_once() -> None:
    running = _tool({"status": "running", "input": {"command": "make"}, "title": "make"})
    completed = _tool(
        {
            "status": "completed",
            "input": {"command": "make"},
            "output": "ok\n",
            "metadata": {"exit": 0},
        }
    )
    parser = create_stdout_parser()
    first = parser.parse_line(running, TS)
    second = parser.parse_line(completed, TS)
    assert first == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "bash",
            "input": {"command": "make"},
            "toolUseId": "call_1",
        }
    ]
    assert second == [
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "call_1",
            "content": "status: completed\nexit: 0\n\nok",
            "isError": False,
            "toolName": "bash",
        }
    ]
    # The stateless parser cannot know the call was shown and repeats it, like the reference.
    assert [e["kind"] for e in parse_stdout_line(completed, TS)] == ["tool_call", "tool_result"]
    parser.reset()
    assert [e["kind"] for e in parser.parse_line(completed, TS)] == ["tool_call", "tool_result"]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {
                "type": "error",
                "sessionID": "ses_1",
                "error": {"name": "APIError", "data": {"message": "Overloaded", "statusCode": 529}},
            },
            "Overloaded",
        ),
        (
            {"type": "error", "error": {"name": "MessageOutputLengthError", "data": {}}},
            "MessageOutputLengthError",
        ),
        (
            {"error": {"type": "unknown", "message": "Command cancelled"}, "content": []},
            "Command cancelled",
        ),
        ({"type": "error", "message": "model access denied"}, "model access denied"),
    ],
)
def test_errors_become_stderr(event: dict[str, Any], text: str) -> None:
    assert parse_stdout_line(json.dumps(event), TS) == [{"kind": "stderr", "ts": TS, "text": text}]


def test_reasoning_and_a_failed_step() -> None:
    reasoning = {"type": "reasoning", "part": {"type": "reasoning", "text": "  think first \n"}}
    assert parse_stdout_line(json.dumps(reasoning), TS) == [
        {"kind": "thinking", "ts": TS, "text": "think first"}
    ]
    failed = {
        "type": "step_finish",
        "part": {
            "reason": "error",
            "cost": 0,
            "tokens": {"input": 5, "output": 0, "reasoning": 0, "cache": {"read": 0, "write": 0}},
        },
    }
    (result,) = parse_stdout_line(json.dumps(failed), TS)
    assert result["isError"] is True and result["subtype"] == "error"


def test_object_metadata_stays_out_of_the_header() -> None:
    line = _tool(
        {
            "status": "completed",
            "input": {"todos": []},
            "output": "[]",
            "metadata": {"todos": [{"id": "1"}], "count": 1, "ok": True, "note": None},
        },
        tool="todowrite",
    )
    (_, result) = parse_stdout_line(line, TS)
    assert result["content"] == "status: completed\ncount: 1\nok: true\n\n[]"


@pytest.mark.parametrize(
    "line", ["plain text", "[1, 2]", '{"no_type": true}', '{"type": "session.idle"}', "{broken"]
)
def test_lines_that_are_not_opencode_events_are_raw_stdout(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


# -- sniffing --------------------------------------------------------------------------------


def _first_lines(path: Path) -> list[str]:
    return [line for _, line in numbered_lines(path)][:40]


def test_sniff_recognises_every_real_opencode_log_and_no_other_cli() -> None:
    for path in [*_real_logs(), LONG_RUN]:
        assert sniff(_first_lines(path)) >= 0.8, path.name
    others = [
        path
        for folder in corpus_path("real-logs").iterdir()
        if folder.is_dir() and folder.name != "opencode"
        for path in folder.iterdir()
    ]
    assert len(others) > 30
    for path in others:
        assert sniff(_first_lines(path)) < 0.5, f"{path.parent.name}/{path.name}"


def test_sniff_is_unsure_of_bare_events() -> None:
    assert sniff([]) == 0
    assert sniff(['{"type":"error","message":"boom"}']) < 0.5
    assert sniff(['{"type":"text","part":{"type":"text","text":"hi"}}']) >= 0.8


def test_sniff_scores_a_type_that_is_not_a_string_instead_of_raising() -> None:
    # Found by `linewise check opencode_local --examples 5000`: unhashable in a frozenset.
    assert sniff(['{"type":[]}']) == 0
    assert sniff(['{"type":"step_start","sessionID":"s","part":{"type":[]}}']) >= 0.8


# -- never raises --------------------------------------------------------------------------------


part_fields = st.sampled_from(
    ["type", "text", "tool", "callID", "id", "state", "reason", "cost", "tokens", "sessionID"]
)
state_fields = st.sampled_from(["status", "input", "output", "error", "title", "metadata"])


@st.composite
def opencode_like_events(draw: st.DrawFn) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": draw(
            st.sampled_from(
                ["step_start", "step_finish", "text", "reasoning", "tool_use", "error", "done", "x"]
            )
        )
    }
    if draw(st.booleans()):
        event["part"] = draw(st.dictionaries(part_fields, json_values, max_size=5))
        if draw(st.booleans()):
            state = draw(st.dictionaries(state_fields, json_values, max_size=5))
            state["status"] = draw(st.sampled_from(["pending", "running", "completed", "error"]))
            if draw(st.booleans()):
                state["metadata"] = {"diff": draw(st.text(max_size=40)), "exit": draw(json_values)}
            event["part"]["state"] = state
    for key in draw(
        st.lists(st.sampled_from(["sessionID", "error", "message", "rejected"]), max_size=2)
    ):
        event[key] = draw(json_values)
    return event


@given(st.lists(opencode_like_events() | st.text(max_size=20), max_size=6))
def test_never_raises_and_always_returns_valid_entries_deterministically(
    events: list[dict[str, Any] | str],
) -> None:
    lines = [event if isinstance(event, str) else json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)
