"""Claude's compact format (format_stdout_line): every row of stream-formatter-design.md's tables.

Moved from the host with assertions unchanged: the host no longer reads Claude's
stream-json, this plugin does. The host prints these lines neutralised and coloured
(tests/host/test_compact.py).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from linewise_claude import format_stdout_line
from linewise_claude.formatter import tool_label
from linewise_contracts.protocols import COMPACT_ROLES
from support import corpus_path


def format_claude_line(line: str) -> str:
    """The specification's ``FormatLine``: the compact text of one line (``""`` when filtered)."""
    return "".join(text + "\n" for _, text in format_stdout_line(line))


SESSION = "3f2a9c1e-77aa-4b1c-9d0e-123456789abc"


def line(event: dict[str, Any]) -> str:
    return json.dumps(event)


def assistant(*blocks: dict[str, Any]) -> str:
    return line({"type": "assistant", "message": {"role": "assistant", "content": list(blocks)}})


def tool_use(name: str, **arguments: Any) -> str:
    return assistant({"type": "tool_use", "id": "toolu_1", "name": name, "input": arguments})


def tool_result(content: Any, *, is_error: bool | None = None, envelope: Any = None) -> str:
    block: dict[str, Any] = {"tool_use_id": "toolu_1", "type": "tool_result", "content": content}
    if is_error is not None:
        block["is_error"] = is_error
    event: dict[str, Any] = {"type": "user", "message": {"role": "user", "content": [block]}}
    if envelope is not None:
        event["tool_use_result"] = envelope
    return line(event)


LONG = "x" * 130
CUT = "x" * 120 + "…"

# -- the output table, row by row ------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        pytest.param(
            line({"type": "system", "subtype": "init", "session_id": SESSION, "model": "claude-x"}),
            "[session 3f2a9c1e · claude-x]\n",
            id="system/init",
        ),
        pytest.param(
            line({"type": "system", "subtype": "api_retry", "attempt": 2, "error": "overloaded"}),
            "[Retrying API call...]\n",
            id="system/api_retry",
        ),
        pytest.param(line({"type": "system", "subtype": "hook_started"}), "", id="system/hook"),
        pytest.param(
            line({"type": "system", "subtype": "compact_boundary"}), "", id="system/other"
        ),
        pytest.param(line({"type": "system"}), "", id="system/no-subtype"),
        pytest.param(
            assistant({"type": "text", "text": "Let me look."}), "Let me look.\n", id="text"
        ),
        pytest.param(
            assistant({"type": "text", "text": "two\nlines"}), "two\nlines\n", id="text-raw"
        ),
        pytest.param(tool_use("Read", file_path="/a/b/c.py"), "[Read] c.py\n", id="tool_use"),
        pytest.param(
            assistant({"type": "thinking", "thinking": "secret", "signature": "s"}),
            "",
            id="thinking",
        ),
        pytest.param(tool_result("all good"), "→ all good\n", id="tool_result"),
        pytest.param(
            line({"type": "result", "subtype": "success", "result": "Done."}),
            "\n--- Result ---\nDone.\n",
            id="result",
        ),
        pytest.param("not json at all", "not json at all\n", id="parse-failure"),
        pytest.param(
            '{"type": "assistant", "message":', '{"type": "assistant", "message":\n', id="cut-json"
        ),
        pytest.param(
            line({"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}}),
            line({"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}}) + "\n",
            id="unrecognised-type",
        ),
        pytest.param("[1, 2]", "[1, 2]\n", id="json-not-an-object"),
    ],
)
def test_output_table(raw: str, shown: str) -> None:
    assert format_claude_line(raw) == shown


def test_an_assistant_message_with_n_blocks_gives_n_lines_in_one_string() -> None:
    raw = assistant(
        {"type": "text", "text": "I'll read it."},
        {"type": "thinking", "thinking": "filtered"},
        {"type": "tool_use", "id": "a", "name": "Read", "input": {"file_path": "x/y.md"}},
        {"type": "tool_use", "id": "b", "name": "Bash", "input": {"command": "ls"}},
    )
    assert format_claude_line(raw) == "I'll read it.\n[Read] y.md\n[Bash] $ ls\n"


def test_each_tool_result_block_of_a_user_message_gives_its_line() -> None:
    raw = line(
        {
            "type": "user",
            "message": {
                "content": [
                    {"type": "tool_result", "tool_use_id": "a", "content": "first"},
                    {"type": "text", "text": "user text is not a tool result"},
                    {"type": "tool_result", "tool_use_id": "b", "content": "", "is_error": False},
                ]
            },
        }
    )
    assert format_claude_line(raw) == "→ first\n→ ok\n"


# -- tool label + arg ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arguments", "shown"),
    [
        ("Read", {"file_path": "/home/u/src/app.py"}, "[Read] app.py"),
        ("Write", {"file_path": "/tmp/new.txt", "content": "x"}, "[Write] new.txt"),
        ("Edit", {"file_path": "C:\\repo\\main.go", "old_string": "a"}, "[Edit] main.go"),
        ("NotebookEdit", {"file_path": "nb/analysis.ipynb"}, "[NotebookEdit] analysis.ipynb"),
        ("Bash", {"command": "pytest -q", "description": "run"}, "[Bash] $ pytest -q"),
        ("PowerShell", {"command": "Get-ChildItem"}, "[Bash] $ Get-ChildItem"),
        ("Bash", {"command": LONG}, f"[Bash] $ {CUT}"),
        ("Bash", {"command": "y" * 120}, "[Bash] $ " + "y" * 120),
        ("Grep", {"pattern": "def main", "path": "src"}, '[Grep] "def main"'),
        ("Glob", {"pattern": "**/*.ts"}, "[Glob] **/*.ts"),
        ("Task", {"subagent_type": "Explore", "description": "map it"}, "[Task: Explore] map it"),
        ("Agent", {"subagent_type": "general", "description": LONG}, f"[Task: general] {CUT}"),
        ("WebFetch", {"url": "https://example.org/a"}, "[WebFetch] https://example.org/a"),
        ("WebSearch", {"query": "python 3.14"}, '[WebSearch] "python 3.14"'),
        ("TodoWrite", {"todos": [{"content": "x"}]}, "[TodoWrite]"),
        ("LS", {"path": "/src"}, "[LS]"),
        ("mcp__github__get_issue", {"number": 3}, "[mcp__github__get_issue]"),
    ],
)
def test_tool_labels(name: str, arguments: dict[str, Any], shown: str) -> None:
    assert tool_label(name, arguments) == shown
    assert format_claude_line(tool_use(name, **arguments)) == shown + "\n"


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Read", "[Read]"),
        ("Write", "[Write]"),
        ("Edit", "[Edit]"),
        ("NotebookEdit", "[NotebookEdit]"),
        ("Bash", "[Bash]"),
        ("PowerShell", "[Bash]"),
        ("Grep", "[Grep]"),
        ("Glob", "[Glob]"),
        ("Task", "[Task]"),
        ("Agent", "[Task]"),
        ("WebFetch", "[WebFetch]"),
        ("WebSearch", "[WebSearch]"),
        ("TodoWrite", "[TodoWrite]"),
    ],
)
def test_missing_or_empty_input_fields_give_the_label_only(name: str, shown: str) -> None:
    for arguments in ({}, {"file_path": "", "command": "", "pattern": "", "query": "", "url": ""}):
        assert tool_label(name, arguments) == shown
    assert tool_label(name, None) == shown
    assert tool_label(name, {"file_path": 3, "command": ["ls"], "url": None}) == shown


def test_a_task_without_subagent_type_keeps_its_description() -> None:
    assert tool_label("Task", {"description": "find tests"}) == "[Task] find tests"
    assert tool_label("Agent", {"subagent_type": "Plan"}) == "[Task: Plan]"


# -- tool_result summary -------------------------------------------------------------


FILE = {"file": {"filePath": "/src/a.py", "content": "...", "numLines": 42, "startLine": 1}}


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        # 1. is_error: the first non-empty line, trimmed, at most 120 characters
        (
            tool_result("\n\n   EISDIR: illegal operation  \nmore", is_error=True),
            "→ error: EISDIR: illegal operation",
        ),
        (tool_result(LONG + "\nsecond", is_error=True), f"→ error: {CUT}"),
        (tool_result("Error: x", is_error=True, envelope=FILE), "→ error: Error: x"),  # 1 before 2
        (tool_result("", is_error=True), "→ error"),
        # 2. the envelope's tool_use_result.file.numLines
        (tool_result("     1\tdef a():", envelope=FILE), "→ 42 lines"),
        (tool_result("", envelope={"file": {"numLines": 0}}), "→ 0 lines"),  # 2 before 3
        (tool_result("x", is_error=False, envelope={"file": {"filePath": "a"}}), "→ x"),
        (tool_result("x", envelope={"numLines": 9}), "→ x"),  # only file.numLines counts
        (tool_result("x", envelope="Error: not a dict"), "→ x"),
        # 3. empty or whitespace content
        (tool_result(""), "→ ok"),
        (tool_result("  \n\t\n"), "→ ok"),
        (tool_result([]), "→ ok"),
        (tool_result(None), "→ ok"),
        # 4. the first non-empty line, at most 120 characters, then …
        (tool_result("\n\nfirst line\nsecond"), "→ first line"),
        (tool_result(LONG), f"→ {CUT}"),
        (tool_result("z" * 120), "→ " + "z" * 120),
        # content as an array: the text of its text blocks, joined
        (
            tool_result(
                [
                    {"type": "image", "source": {"data": "…"}},
                    {"type": "text", "text": "from blocks"},
                    {"type": "text", "text": "and more"},
                ]
            ),
            "→ from blocks",
        ),
        (tool_result([{"type": "image", "source": {}}]), "→ ok"),
        (tool_result([{"type": "text", "text": ""}, {"type": "text", "text": "late"}]), "→ late"),
    ],
)
def test_tool_result_summary_priority(raw: str, shown: str) -> None:
    assert format_claude_line(raw) == shown + "\n"


# -- malformed envelopes and terminal safety --------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        line({"type": "assistant"}),
        line({"type": "assistant", "message": {"content": None}}),
        line({"type": "assistant", "message": {"content": [1, "two", None, {"type": 5}]}}),
        line({"type": "user", "message": "nope"}),
        line({"type": "user", "message": {"content": "a prompt"}}),
        line({"type": "assistant", "message": {"content": [{"type": "tool_use"}]}}),
    ],
)
def test_a_broken_envelope_never_raises(raw: str) -> None:
    assert format_claude_line(raw) in ("", "[tool]\n")


def test_missing_session_fields_show_a_question_mark() -> None:
    assert format_claude_line(line({"type": "system", "subtype": "init"})) == "[session ? · ?]\n"


def test_a_result_without_text_still_marks_the_end() -> None:
    raw = line({"type": "result", "subtype": "error_max_turns", "is_error": True})
    assert format_claude_line(raw) == "\n--- Result ---\n\n"


def test_partial_message_deltas_are_filtered() -> None:
    raw = line({"type": "stream_event", "event": {"type": "content_block_delta"}})
    assert format_claude_line(raw) == ""


# -- real Claude logs ----------------------------------------------------------------


def _render_log(path: Path) -> str:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return "".join(format_claude_line(line.strip()) for line in lines if line.strip())


def _events(path: Path) -> list[dict[str, Any]]:
    events = []
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(raw)
        except ValueError:
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


def test_real_claude_logs_give_one_line_per_event() -> None:
    logs = sorted(corpus_path("real-logs", "claude").glob("*.jsonl"))
    for path in logs:
        shown = _render_log(path)
        assert "\x1b" not in shown
        lines = Counter(shown.splitlines())
        events = _events(path)
        inits = sum(e.get("type") == "system" and e.get("subtype") == "init" for e in events)
        retries = sum(e.get("type") == "system" and e.get("subtype") == "api_retry" for e in events)
        results = sum(e.get("type") == "result" for e in events)
        assert sum(n for text, n in lines.items() if text.startswith("[session ")) == inits
        assert lines["[Retrying API call...]"] == retries, path.name
        assert lines["--- Result ---"] == results, path.name
        uses: Counter[str] = Counter()
        counted: Counter[str] = Counter()
        for event in events:
            content = (event.get("message") or {}).get("content")
            for block in content if isinstance(content, list) else []:
                if not isinstance(block, dict):
                    continue
                if event["type"] == "assistant" and block.get("type") == "tool_use":
                    uses[tool_label(block["name"], block["input"]).split("]")[0] + "]"] += 1
                if block.get("type") == "tool_result" and not block.get("is_error"):
                    numbers = (event.get("tool_use_result") or {}).get("file") or {}
                    if isinstance(numbers, dict) and "numLines" in numbers:
                        counted[f"→ {numbers['numLines']} lines"] += 1
        for label, count in uses.items():
            assert sum(n for text, n in lines.items() if text.startswith(label)) >= count
        for summary, count in counted.items():
            assert lines[summary] >= count, (path.name, summary)


def test_a_real_log_reads_as_the_specification_shows() -> None:
    path = corpus_path("real-logs", "claude", "trackgentic-mp9xupi7-long-58tools.jsonl")
    assert _render_log(path).splitlines()[:14] == [
        "[session 4d7456fa · glm-5.1]",
        "I'll start by retrieving the issue context.",
        "[Bash] $ trackgentic view mp9xevrbwj",
        "[Bash] $ trackgentic comments list mp9xevrbwj",
        "[Bash] $ trackgentic blockages list mp9xevrbwj",
        "→ {",
        "→ [",
        "→ {",
        "[Retrying API call...]",
        "[Retrying API call...]",
        "The issue is assigned to me, status is `todo`, and blockages are resolved. "
        "Let me read the spec and review comments.",
        "[Read] cap-upward-promotion-spec.md",
        "[Bash] $ trackgentic comments list mp9xemq9mv",
        "[Bash] $ trackgentic comments list mp9xemy1j3",
    ]


def test_real_logs_end_with_the_result() -> None:
    path = corpus_path("real-logs", "claude", "gleam-golden-basic-query-2.1.7.jsonl")
    shown = _render_log(path)
    assert "\n--- Result ---\n" in shown
    result = next(e for e in _events(path) if e.get("type") == "result")
    assert shown.endswith("\n--- Result ---\n" + result["result"] + "\n")


def test_roles_are_the_contracts_and_failed_results_are_marked() -> None:
    rows = [
        line({"type": "system", "subtype": "init", "session_id": SESSION, "model": "m"}),
        assistant({"type": "text", "text": "hi"}),
        tool_use("Bash", command="ls"),
        tool_result("fine"),
        tool_result("bad", is_error=True),
        line({"type": "result", "subtype": "error_max_turns", "is_error": True}),
        "plain text",
    ]
    lines = [pair for raw in rows for pair in format_stdout_line(raw)]
    assert all(role in COMPACT_ROLES and isinstance(text, str) for role, text in lines)
    assert [role for role, _ in lines] == [
        "lifecycle",
        "assistant",
        "tool",
        "result",
        "error",
        "plain",
        "error",  # the heading of a failed run is red; its text is the specification's
        "plain",
        "plain",
    ]
    ok = format_stdout_line(line({"type": "result", "subtype": "success", "result": "x"}))
    assert ok[1] == ("heading", "--- Result ---")


def test_agent_text_is_passed_on_for_the_host_to_neutralise() -> None:
    # The formatter returns text, not terminal output; the host neutralises and colours it.
    evil = "\x1b]0;title\x07"
    assert format_stdout_line(assistant({"type": "text", "text": evil})) == [("assistant", evil)]
