"""Renderers: tool calls grouped with their results, thinking folded, colour only when asked."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise.render import (
    JsonlRenderer,
    TextRenderer,
    use_color,
)
from linewise.render.text import MAX_PENDING_CALLS
from support import TS, VALID_ENTRIES, Drawn, corpus_path

# Every escape sequence the renderer itself may write: SGR colours from its palette.
OUR_SGR = re.compile(r"\x1b\[(?:0|1|2;90|1;3[23]|3[1-6]|90)m")


def _text(entries: list[dict[str, Any]], **options: Any) -> str:
    out = io.StringIO()
    renderer = TextRenderer(out, **options)
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


def call(ident: str | None, name: str = "Read", **arguments: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"kind": "tool_call", "ts": TS, "name": name, "input": arguments}
    if ident is not None:
        entry["toolUseId"] = ident
    return entry


def result(
    ident: str, content: str = "done", *, error: bool = False, **extra: Any
) -> dict[str, Any]:
    return {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": ident,
        "content": content,
        "isError": error,
        **extra,
    }


def say(text: str, kind: str = "assistant", **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "ts": TS, "text": text, **extra}


# -- every kind ------------------------------------------------------------------


def test_every_kind_renders_with_its_label() -> None:
    text = _text(VALID_ENTRIES, thinking=True)
    for label in (
        "assistant",
        "thinking",
        "user",
        "tool_call",
        "tool_result",
        "init",
        "result",
        "stderr",
        "system",
        "stdout",
        "diff",
    ):
        assert f"\n{label}" in "\n" + text
    assert "\x1b" not in text


def test_colour_follows_the_reference_convention_when_enabled() -> None:
    text = _text(
        [
            {"kind": "init", "ts": TS, "model": "m", "sessionId": "s"},
            say("hi"),
            say("hmm", "thinking"),
            call("1", "bash", command="ls"),
            result("1", "files"),
            call("2", "bash"),
            result("2", "boom", error=True),
            say("retrying", "system"),
            {
                "kind": "result",
                "ts": TS,
                "text": "done",
                "inputTokens": 1,
                "outputTokens": 2,
                "cachedTokens": 0,
                "costUsd": 0.5,
                "subtype": "success",
                "isError": False,
                "errors": [],
            },
            say("oops", "stderr"),
        ],
        color=True,
        thinking=True,
    )
    assert "\x1b[34minit" in text  # init, lifecycle and usage: blue
    assert "\x1b[34msystem      \x1b[0m\x1b[34mretrying" in text
    assert "\x1b[32mfinished · success" in text  # a run that succeeded: green
    # usage: blue, labelled as the CLI's own counts, and a 0 (maybe unreported) left out
    assert "\x1b[34mthis result, in the CLI's own counts: input 1 · output 2 · cost $0.5000" in text
    assert "\x1b[32massistant   \x1b[0m\x1b[32mhi" in text  # assistant: green
    assert "\x1b[90mthinking    \x1b[0m\x1b[2;90mhmm" in text  # thinking: grey, dimmed
    assert "\x1b[33mtool_call" in text  # tool calls: yellow
    assert '\x1b[90m{"command":"ls"}' in text  # tool input: grey
    assert "\x1b[36mtool_result " in text and "\x1b[36mok · bash" in text  # success: cyan
    assert "\x1b[31mtool_result " in text and "\x1b[31mboom" in text  # errors: red
    assert "\x1b[31mstderr" in text


def test_no_colour_means_no_escape_at_all() -> None:
    assert "\x1b" not in _text(VALID_ENTRIES, thinking=True)


# -- grouping a tool call with its result -----------------------------------------


def test_a_result_directly_under_its_call_needs_no_link() -> None:
    text = _text([call("t1", file_path="/src/app.py"), result("t1", "1 line")])
    assert text.splitlines() == [
        "tool_call   #1 Read  [t1]",
        '            {"file_path":"/src/app.py"}',
        "tool_result ok · Read  [t1]",
        "            1 line",
    ]


def test_parallel_calls_are_paired_by_id_and_linked_back_not_by_position() -> None:
    text = _text(
        [
            call("a", "Read", file_path="/src/a.py"),
            call("b", "Bash", command="pytest -q"),
            call("c", "Grep", pattern="TODO"),
            result("b", "2 passed"),  # out of order, as real runs do
            result("a", "print('a')"),
            result("c", "", error=True),
        ]
    )
    lines = text.splitlines()
    assert "tool_result ok · Bash  [b]  ← #2 $ pytest -q" in lines
    assert "tool_result ok · Read  [a]  ← #1 a.py" in lines
    assert "tool_result error · Grep  [c]  ← #3 TODO" in lines
    # each result's content follows its own header
    assert (
        lines[lines.index("tool_result ok · Bash  [b]  ← #2 $ pytest -q") + 1].strip() == "2 passed"
    )


def test_the_last_of_parallel_calls_answered_first_sits_under_its_call() -> None:
    lines = _text([call("a"), call("b"), result("b"), result("a")]).splitlines()
    assert lines == [
        "tool_call   #1 Read  [a]",
        "tool_call   #2 Read  [b]",
        "tool_result ok · Read  [b]",
        "            done",
        "tool_result ok · Read  [a]  ← #1",
        "            done",
    ]


def test_anything_between_a_call_and_its_result_brings_the_link() -> None:
    lines = _text([call("a", "Task", description="explore"), say("sub-agent work"), result("a")])
    assert "tool_result ok · Task  [a]  ← #1 explore" in lines.splitlines()


def test_orphan_results_are_drawn_plainly() -> None:
    lines = _text([result("nobody", "lost"), result("also", toolName="Bash")]).splitlines()
    assert lines == [
        "tool_result ok  [nobody]",
        "            lost",
        "tool_result ok · Bash  [also]",
        "            done",
    ]


def test_a_result_pairs_once_and_a_second_one_is_an_orphan() -> None:
    lines = _text([call("a"), say("x"), result("a"), result("a")]).splitlines()
    assert lines.count("tool_result ok · Read  [a]  ← #1") == 1
    assert lines.count("tool_result ok · Read  [a]") == 0  # the orphan has no name to borrow
    assert "tool_result ok  [a]" in lines


def test_calls_without_an_id_are_shown_and_never_paired() -> None:
    lines = _text([call(None, "noop"), result("x")]).splitlines()
    assert lines == ["tool_call   #1 noop", "tool_result ok  [x]", "            done"]


def test_unanswered_calls_are_listed_at_close() -> None:
    lines = _text([call("a", "Bash"), call("b"), result("a")]).splitlines()
    assert lines[-1] == "unanswered  no result for #2 Read"


def test_pending_calls_are_bounded() -> None:
    entries = [call(f"id{n}", "Bash") for n in range(MAX_PENDING_CALLS + 5)]
    entries.append(result("id0"))  # forgotten: the oldest went first
    entries.append(result(f"id{MAX_PENDING_CALLS + 4}"))
    lines = _text(entries).splitlines()
    assert "tool_result ok  [id0]" in lines
    assert (
        f"tool_result ok · Bash  [id{MAX_PENDING_CALLS + 4}]  ← #{MAX_PENDING_CALLS + 5}" in lines
    )
    assert lines[-1].endswith(" and 1013 more")


def test_the_result_header_borrows_the_call_name_when_the_parser_gave_none() -> None:
    assert "tool_result ok · shell  [a]" in _text([call("a", "shell"), result("a")])


def test_long_tool_inputs_and_results_are_shortened_unless_full() -> None:
    entries = [call("a", "Write", content="x" * 1000), result("a", "\n".join(map(str, range(100))))]
    short = _text(entries)
    assert "… (1014 chars)" in short
    assert "… 88 more lines (--full shows all)" in short
    assert "99" in _text(entries, full=True) and "chars)" not in _text(entries, full=True)
    assert "… 1 more line (" in _text([result("b", "\n".join(map(str, range(13))))])


# -- thinking and deltas -------------------------------------------------------------


def test_thinking_is_folded_to_one_marker_per_run_unless_asked_for() -> None:
    entries = [
        say("first thought", "thinking"),
        say("second thought", "thinking"),
        say("answer"),
        say("str", "thinking", delta=True),
        say("eamed", "thinking", delta=True),
    ]
    folded = _text(entries)
    assert folded.splitlines() == [
        "thinking    ⋯ (hidden; --thinking shows it)",
        "assistant   answer",
        "thinking    ⋯ (hidden; --thinking shows it)",
    ]
    assert "thought" not in folded
    shown = _text(entries, thinking=True).splitlines()
    assert shown == [
        "thinking    first thought",
        "thinking    second thought",
        "assistant   answer",
        "thinking    streamed",
    ]


def test_consecutive_deltas_of_one_kind_merge_into_one_block() -> None:
    text = _text(
        [
            say("Hel", delta=True),
            say("lo\nwor", delta=True),
            say("ld", delta=True),
            say("hm", "thinking", delta=True),
            say("m", "thinking", delta=True),
            say("again", delta=True),
            say("done", "system"),
        ],
        thinking=True,
    )
    assert text.splitlines() == [
        "assistant   Hello",
        "            world",
        "thinking    hmm",
        "assistant   again",
        "system      done",
    ]


def test_a_delta_block_is_ended_at_close() -> None:
    assert _text([say("open", delta=True)]) == "assistant   open\n"


# -- the escaping guarantee -------------------------------------------------------


EVIL = (
    "\x1b]0;owned\x07\x1b[2J\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\\x9b1Asafe\r\x08"
)


def _every_kind_carrying(text: str) -> list[dict[str, Any]]:
    return [
        say(text),
        say(text, delta=True),
        say(text, "thinking"),
        say(text, "thinking", delta=True),
        say(text, "user"),
        call(text, text, **{text: text}),
        result(text, text, toolName=text),
        result(text, text, error=True),
        {"kind": "init", "ts": TS, "model": text, "sessionId": text},
        {
            "kind": "result",
            "ts": TS,
            "text": text,
            "inputTokens": 1,
            "outputTokens": 1,
            "cachedTokens": 1,
            "costUsd": 0,
            "subtype": text,
            "isError": True,
            "errors": [text],
        },
        say(text, "stderr"),
        say(text, "system"),
        say(text, "stdout"),
        {"kind": "diff", "ts": TS, "changeType": "add", "text": text},
        call("pending", text),
    ]


def _assert_inert(rendered: str) -> None:
    ours_removed = OUR_SGR.sub("", rendered)
    controls = re.findall(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", ours_removed)
    assert controls == []


def test_agent_text_cannot_reach_the_terminal_raw() -> None:
    for options in ({}, {"color": True}, {"color": True, "thinking": True, "full": True}):
        rendered = _text(_every_kind_carrying(EVIL), **options)
        _assert_inert(rendered)
        # The sequences are neutralised, their payload shown: nothing is hidden from the reader.
        assert "␛]0;owned␇␛]8;;https://evil.example␛\\click" in rendered
        assert "safe␍␈" in rendered


@given(st.text(alphabet="\x1b\x07\x9b\x9d\x9c\r\x08\x00\u202e\\[];0123456789Jmab\n\t", max_size=40))
def test_no_text_an_agent_writes_yields_a_control_character(text: str) -> None:
    _assert_inert(_text(_every_kind_carrying(text), color=True, thinking=True))


# -- JSON lines, colour choice --------------------------------------------------


def test_jsonl_is_the_entries_exactly() -> None:
    out = io.BytesIO()
    renderer = JsonlRenderer(out)
    for entry in VALID_ENTRIES:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.write({"kind": "stdout", "ts": "t", "text": "lone \ud800"})
    renderer.close()
    lines = out.getvalue().decode().splitlines()
    assert [json.loads(line) for line in lines[:-1]] == VALID_ENTRIES
    assert json.loads(lines[-1])["text"] == "lone \ud800"


@pytest.mark.parametrize(
    ("choice", "tty", "no_color", "expected"),
    [
        ("auto", True, None, True),
        ("auto", False, None, False),
        ("auto", True, "1", False),
        ("always", False, "1", True),
        ("never", True, None, False),
    ],
)
def test_use_color(
    monkeypatch: pytest.MonkeyPatch, choice: str, tty: bool, no_color: str | None, expected: bool
) -> None:
    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    monkeypatch.delenv("TERM", raising=False)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert use_color(Stream(), choice) is expected


# -- the pipeline: session and renderer together ------------------------------------


class LineRecorder:
    """A renderer that wants raw lines, recording what it is given."""

    wants_lines = True

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.entries: list[dict[str, Any]] = []
        self.closed = False

    def write_line(self, line: str, entries: Any) -> None:
        self.lines.append(line)

    def write(self, entry: Any) -> None:
        self.entries.append(entry)

    def close(self) -> None:
        self.closed = True


def test_a_line_renderer_gets_the_lines_the_parser_saw_in_any_cut() -> None:
    data = "\ufeff first \r\n\n second\nthi".encode() + "rd é".encode()
    for size in (1, 2, 3, len(data)):
        recorder = LineRecorder()
        pipeline = Drawn("process", recorder)
        session = pipeline.session
        for start in range(0, len(data), size):
            pipeline.receive("stdout", data[start : start + size])
        pipeline.receive("stderr", b"warning\n")
        pipeline.close()
        assert recorder.lines == ["first", "second", "third é"]
        assert [e["text"] for e in recorder.entries] == ["warning\n"]
        assert recorder.closed
        assert session.diagnostics.lines == 3 and session.diagnostics.blank_lines == 1


def test_a_line_longer_than_the_limit_reaches_a_line_renderer_as_the_cut_entry() -> None:
    recorder = LineRecorder()
    pipeline = Drawn("process", recorder, max_line_chars=10)
    session = pipeline.session
    for _ in range(100):
        pipeline.receive("stdout", b"x" * 50)  # a line that never ends is not kept whole
    pipeline.receive("stdout", b"\nshort\n")
    pipeline.close()
    assert recorder.lines == ["short"]
    assert [e["text"][:10] for e in recorder.entries] == ["x" * 10]
    assert "line cut" in recorder.entries[0]["text"]
    assert session.diagnostics.truncated_lines == 1


def test_other_renderers_get_the_session_entries() -> None:
    out = io.StringIO()
    pipeline = Drawn("process", TextRenderer(out))
    pipeline.receive("stdout", b"one\ntw")
    pipeline.close()
    assert out.getvalue() == "stdout      one\nstdout      tw\n"


# -- real logs ---------------------------------------------------------------------

_HEADER = re.compile(r"^tool_(call|result) +(?:#(\d+) )?.*?\[([^\]]*)\](?:  ← #(\d+))?")


def _render_file(path: Path, **options: Any) -> str:
    out = io.StringIO()
    pipeline = Drawn("claude_local", TextRenderer(out, **options))
    with path.open("rb") as log:
        while chunk := log.read(65536):
            pipeline.receive("stdout", chunk)
    pipeline.close()
    return out.getvalue()


def test_real_claude_logs_pair_every_result_with_its_own_call() -> None:
    logs = sorted(corpus_path("real-logs", "claude").glob("*.jsonl"))
    linked = adjacent = 0
    for path in logs:
        text = _render_file(path)
        _assert_inert(text)
        calls: dict[str, str] = {}  # number -> id
        previous_call: str | None = None
        for line in text.splitlines():
            match = _HEADER.match(line)
            if match is None:
                if not line.startswith(" "):
                    previous_call = None
                continue
            kind, number, ident, link = match.groups()
            if kind == "call":
                calls[number] = ident
                previous_call = ident
                continue
            if link is not None:
                assert calls[link] == ident, (path.name, line)  # the link names its own call
                linked += 1
            elif ident in calls.values() and previous_call is not None:
                assert previous_call == ident, (path.name, line)
                adjacent += 1
            previous_call = None
    assert linked > 50 and adjacent > 300  # the corpus has many of both


def test_real_claude_logs_fold_thinking_unless_asked() -> None:
    path = corpus_path("real-logs", "claude", "hivemind-2.1.284-subagent-thinking-tokens.jsonl")
    assert "thinking    ⋯ (hidden; --thinking shows it)" in _render_file(path)
    shown = _render_file(path, thinking=True)
    assert "⋯ (hidden" not in shown and "\nthinking    " in shown


def test_entries_of_other_adapters_render_in_every_style() -> None:
    from linewise.render.compact import CompactRenderer

    folder = corpus_path("paperclip-on-real-logs")
    count = 0
    for path in sorted(folder.glob("*/*.jsonl")):
        entries = [e for line in path.read_text().splitlines() for e in json.loads(line)["entries"]]
        count += len(entries)
        _assert_inert(_text(entries, color=True))
        out = io.StringIO()
        compact = CompactRenderer(out, color=True)
        for entry in entries:
            compact.write(entry)
        compact.close()
        _assert_inert(out.getvalue())
    assert count > 1000


# -- what users see: long lines, failures, the run summary, subagents ---------------------


def _result_entry(**changes: Any) -> dict[str, Any]:
    return {
        "kind": "result",
        "ts": TS,
        "text": "",
        "inputTokens": 1686,
        "outputTokens": 914,
        "cachedTokens": 8700,
        "costUsd": 0,
        "subtype": "success",
        "isError": False,
        "errors": [],
        **changes,
    }


def test_a_long_line_is_cut_to_the_width_and_says_what_was_hidden() -> None:
    hook = "hook output " + "x" * 2000
    lines = _text([say(hook, "system")], width=100).splitlines()
    assert len(lines) == 1 and len(lines[0]) < 160
    assert lines[0].endswith("more characters; --full shows all)")
    hidden = int(lines[0].rsplit("(", 1)[1].split()[0].replace(",", ""))
    assert hidden == len(hook) - (100 - 12)  # what is shown plus what is hidden is all of it
    assert hook in _text([say(hook, "system")], width=100, full=True)


def test_prose_is_left_for_the_terminal_to_wrap() -> None:
    prose = "word " * 400
    assert prose.strip() in _text([say(prose)], width=100)


@pytest.mark.parametrize(
    "changes",
    [
        {"isError": True},
        {"subtype": "error_max_turns"},
        {"subtype": "error_during_execution"},
        {"errors": ["usage limit reached"]},
    ],
)
def test_a_failed_result_never_looks_like_success(changes: dict[str, Any]) -> None:
    text = _text([_result_entry(**changes)], color=True)
    assert "\x1b[31mresult" in text and "\x1b[31mfailed · " in text
    assert "\x1b[32m" not in text
    plain = _text([_result_entry(**changes)])
    assert "failed · " in plain and "finished" not in plain


def test_result_tokens_are_labelled_and_no_cost_is_not_zero() -> None:
    text = _text([_result_entry()])
    assert "this result, in the CLI's own counts: input 1,686 · cached 8,700 · output 914\n" in text
    assert "$0" not in text and "cost" not in text  # a 0 cost may be unreported: not shown


def test_the_final_message_is_not_repeated_by_the_result() -> None:
    final = "All tests pass.\n" + "Details follow. " * 50
    text = _text([say(final), _result_entry(text=final)])
    assert text.count("Details follow.") == 50
    assert "final message: the assistant message above" in text
    other = _text([say("first"), _result_entry(text="a different summary")])
    assert "a different summary" in other


def test_close_with_a_run_summary_shows_outcome_tokens_and_unknown_cost() -> None:
    from linewise_contracts.summary import RunSummary, Usage

    out = io.StringIO()
    renderer = TextRenderer(out)
    renderer.close(
        summary=RunSummary(
            outcome="error_max_turns",
            complete=True,
            is_error=True,
            usage=Usage(input_tokens=10386, output_tokens=1206, cached_tokens=5),
        )
    )
    shown = out.getvalue()
    assert shown.startswith("run         error_max_turns\n")
    assert (
        "whole run: tokens in the CLI's own counts: input 10,386 · cached 5 · output 1,206" in shown
    )
    assert "cost unknown" in shown and "$0" not in shown
    assert "model" not in shown  # never invented


def test_a_run_that_never_finished_says_cut_off() -> None:
    from linewise_contracts.summary import RunSummary

    out = io.StringIO()
    TextRenderer(out, color=True).close(summary=RunSummary(outcome="success", complete=False))
    assert "\x1b[31mrun" in out.getvalue() and "cut off (success)" in out.getvalue()


SUBAGENT = [
    call("task-1", "Task", subagent_type="Explore", description="map the tests"),
    say("Looking around.", parentToolUseId="task-1"),
    call("r1", "Read", file_path="/repo/a.py", parentToolUseId="task-1"),
    result("r1", "print(1)", parentToolUseId="task-1"),
    call("task-2", "Agent", subagent_type="Plan", parentToolUseId="task-1"),
    say("deeper", parentToolUseId="task-2"),
    result("task-1", "Found 3 test files."),
    say("Done."),
]


def _nested(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # call() puts keywords into the input: the parent belongs on the entry.
    for entry in entries:
        if entry["kind"] == "tool_call" and "parentToolUseId" in entry["input"]:
            entry["parentToolUseId"] = entry["input"].pop("parentToolUseId")
    return entries


def test_subagent_entries_are_indented_under_their_call() -> None:
    lines = _text(_nested(SUBAGENT)).splitlines()
    assert lines == [
        "tool_call   #1 Task  subagent Explore: map the tests  [task-1]",
        '            {"subagent_type":"Explore","description":"map the tests"}',
        "⤷ #1 Explore: map the tests",
        "  │ assistant   Looking around.",
        "  │ tool_call   #2 Read  [r1]",
        '  │             {"file_path":"/repo/a.py"}',
        "  │ tool_result ok · Read  [r1]",
        "  │             print(1)",
        "  │ tool_call   #3 Agent  subagent Plan  [task-2]",
        '  │             {"subagent_type":"Plan"}',
        "  │ ⤷ #3 Plan",
        "  │   │ assistant   deeper",
        "tool_result ok · Task  [task-1]  ← #1 map the tests",
        "            Found 3 test files.",
        "assistant   Done.",
        "unanswered  no result for #3 Agent",
    ]
