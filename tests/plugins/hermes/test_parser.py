"""The Hermes text-output parser against the reference, the contract's example and real output."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import linewise
import linewise_hermes
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_hermes import create_stdout_parser, parse_stdout_line, parse_tool_line, sniff
from scaling import assert_linear
from support import (
    assert_valid_and_deterministic,
    corpus_json,
    corpus_path,
    parse_all,
    parse_flat,
    specs_path,
)

TS = "2026-01-01T00:00:00.000Z"
ESC = "\x1b"

HERE = Path(__file__).parent
# `hermes chat -q` piped through a Paperclip-style adapter, written from Hermes's
# display code (agent/display.py: the non-TTY spinner's `[tool]`/`[done]` lines,
# `┊ {emoji} {verb:9} {detail}  {duration}` with failure suffixes, the inline
# `┊ review diff` block and its colours, the Reasoning box) and the adapter's
# `[hermes]` lines.
PIPED_RUN_FILE = Path(linewise_hermes.__file__).parent / "samples" / "hermes-piped-run.txt"


def _host_lines(path: Path) -> list[str]:
    """The file's lines as a host passes them to a parser: trimmed, blank ones skipped."""
    text = path.read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


PIPED_RUN = _host_lines(PIPED_RUN_FILE)


def _contract_example() -> list[str]:
    """The Hermes transcript in the contract document's "The Problem" section.

    Read from ../shared/specs (third-party text, not copied here); the test
    using it skips when the specs are absent.
    """
    path = specs_path("adapter-ui-parser-contract.md")
    section = path.read_text(encoding="utf-8").split("## The Problem", 1)[1]
    block = section.split("```", 2)[1]
    return [line.strip() for line in block.splitlines() if line.strip()]


_parse_all = partial(parse_all, create_stdout_parser, ts=TS)
_flat = partial(parse_flat, create_stdout_parser, ts=TS)


def _transcript(lines: list[str]) -> list[dict[str, Any]]:
    chunk = "\n".join(lines) + "\n"
    transcript = linewise.build_transcript(
        [{"ts": TS, "stream": "stdout", "chunk": chunk}], "hermes_local"
    )
    assert transcript.adapter_type == "hermes_local"
    assert transcript.diagnostics.fallback_lines == transcript.diagnostics.dropped_entries == 0
    return transcript.entries  # type: ignore[return-value]


def _real_logs() -> list[Path]:
    return sorted(corpus_path("real-logs", "hermes").glob("*.txt"))


def _real_lines(path: Path) -> list[str]:
    return _host_lines(path)


# -- the reference ----------------------------------------------------------------------


def test_reference_cases_asserted_exactly_match() -> None:
    cases = corpus_json("paperclip", "hermes", "expected.json")["ui_parser"]
    exact = [case for case in cases if case["output_asserted_exactly"]]
    assert len(exact) == 5
    for case in exact:
        assert parse_stdout_line(case["line"], case["ts"]) == case["output"], case["test"]


def test_reference_ansi_cases_hold_their_assertions() -> None:
    """The rest are asserted loosely upstream: no escape left, the tool names, two entries."""
    cases = {
        case["line"]: case
        for case in corpus_json("paperclip", "hermes", "expected.json")["ui_parser"]
    }
    for line, case in cases.items():
        ours = parse_stdout_line(line, case["ts"])
        assert not any(ESC in json.dumps(entry) for entry in ours)
        if case["output_asserted_exactly"]:
            continue
        if ours[0]["kind"] == "assistant":
            assert ours == case["output"]  # the text with its colours stripped
        else:
            assert len(ours) == 2 and ours[0]["name"] == case["output"][0]["name"]
            assert ours[0]["input"] == case["output"][0]["input"]
            assert ours[1]["toolUseId"] == ours[0]["toolUseId"]


def test_the_reference_ansi_lines_read_the_same_through_the_stateful_parser() -> None:
    for case in corpus_json("paperclip", "hermes", "expected.json")["ui_parser"]:
        if case["output_asserted_exactly"] and case["output"]:
            entries = create_stdout_parser().parse_line(case["line"], case["ts"])
            # The stateful parser marks answer lines as deltas so the host joins them.
            assert entries == [{**case["output"][0], "delta": True}]


# -- the contract's own example -------------------------------------------------------------


def test_the_contract_example_renders_as_the_contract_says() -> None:
    """Thinking, tool cards with results and durations, then the answer as one entry."""
    assert _transcript(_contract_example()) == [
        {"kind": "system", "ts": TS, "text": "[hermes] Session resumed: abc123"},
        {
            "kind": "thinking",
            "ts": TS,
            "text": "Thinking about how to approach this...",
            "delta": True,
        },
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "shell",
            "input": {"detail": "ls /home/user/project"},
            "toolUseId": "hermes-tool-1",
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "hermes-tool-1",
            "toolName": "shell",
            "content": "/src /README.md  0.3s",
            "isError": False,
        },
        {
            "kind": "thinking",
            "ts": TS,
            "text": "I see the project structure. Let me read the README.",
            "delta": True,
        },
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "read",
            "input": {"detail": "/home/user/project/README.md"},
            "toolUseId": "hermes-tool-2",
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "hermes-tool-2",
            "toolName": "read",
            "content": "Project Overview: A CLI tool for...  1.2s",
            "isError": False,
        },
        {
            "kind": "assistant",
            "ts": TS,
            "text": "The project is a CLI tool. Here's what I found:\n- It uses TypeScript\n- Tests are in /tests",
            "delta": True,
        },
    ]


# -- real output -------------------------------------------------------------------------


def test_every_real_line_gives_entries_of_the_right_kind() -> None:
    # Per file, the kinds each non-blank line gives, in order.
    expected = {
        # `hermes chat -Q -q` failing: the session footer, then the warning.
        "issue-62480-chat-Q-failure.txt": [["system"], ["stderr"]],
        # `hermes chat -q`: two tool lines, the response box, the footer.
        "issue-62480-chat-q-tool-progress.txt": [
            ["tool_call", "tool_result"],
            ["tool_call", "tool_result"],
            [],
            ["assistant"],
            [],
            ["system"],
        ],
        # Quiet mode before PR 11024: a boxed answer, the plain answer, the session footer.
        "pr-11024-quiet-before-fix.txt": [
            [],
            ["assistant"],
            [],
            ["assistant"],
            ["assistant"],
            ["system"],
        ],
    }
    for path in _real_logs():
        lines = _real_lines(path)
        parsed = _parse_all(lines)
        assert [[entry["kind"] for entry in entries] for entries in parsed] == expected[path.name]
        for entries in parsed:
            for entry in entries:
                assert entry_problem(entry) is None
    assert len(_real_logs()) == 3


def test_real_tool_lines_pair_by_generated_ids() -> None:
    path = corpus_path("real-logs", "hermes", "issue-62480-chat-q-tool-progress.txt")
    entries = _flat(_real_lines(path))
    assert [e for e in entries if e["kind"] in ("tool_call", "tool_result")] == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "skill",
            "input": {"detail": "delegation-review"},
            "toolUseId": "hermes-tool-1",
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "hermes-tool-1",
            "toolName": "skill",
            "content": "0.0s",
            "isError": False,
        },
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "shell",
            "input": {"detail": "python3 /opt/.../review_queue.py"},
            "toolUseId": "hermes-tool-2",
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "hermes-tool-2",
            "toolName": "shell",
            "content": "0.2s",
            "isError": False,
        },
    ]


def test_a_boxed_answer_loses_its_borders() -> None:
    path = corpus_path("real-logs", "hermes", "pr-11024-quiet-before-fix.txt")
    texts = [e["text"] for e in _flat(_real_lines(path)) if e["kind"] == "assistant"]
    assert texts == [
        "There once was a coder named...",
        # No entry between the box and the plain answer, so the lines join.
        "\nThere once was a coder named Bree",
        "\nWho argued with AI over tea...",
    ]


# -- Hermes's documented shapes the corpus lacks -------------------------------------------------


def test_a_piped_run_reads_as_a_transcript() -> None:
    entries = _transcript(PIPED_RUN)
    assert [(e["kind"], e.get("text", e.get("name"))) for e in entries] == [
        ("system", PIPED_RUN[0]),
        ("system", PIPED_RUN[1]),
        ("system", PIPED_RUN[2]),
        ("user", "Fix the failing test in tests/test_math.py"),
        ("thinking", "Let me run the test suite first."),
        ("tool_call", "shell"),
        ("tool_result", None),
        # A 💬 message and the plain line continuing it.
        ("thinking", "One test fails: add() subtracts.\nIt returns a - b instead of a + b."),
        ("tool_call", "read"),
        ("tool_result", None),
        ("tool_call", "patch"),
        ("tool_result", None),
        ("diff", "a/src/math.py → b/src/math.py"),
        ("diff", "@@ -1,2 +1,2 @@"),
        ("diff", " def add(a, b):"),
        ("diff", "-    return a - b"),
        ("diff", "+    return a + b"),
        ("tool_call", "shell"),
        ("tool_result", None),
        ("thinking", "The fix is one character.\nTests pass now."),
        (
            "assistant",
            "Fixed `add` in src/math.py: it subtracted instead of adding.\nAll 13 tests pass.",
        ),
        ("system", "session_id: 20260712_101500_a1b2c3"),
        ("system", "[hermes] Exit code: 0, timed out: false"),
        ("system", "[hermes] Session: 20260712_101500_a1b2c3"),
    ]
    diffs = [e["changeType"] for e in entries if e["kind"] == "diff"]
    assert diffs == ["file_header", "hunk", "context", "remove", "add"]


def test_failure_markers_make_error_results() -> None:
    results = [e for e in _flat(PIPED_RUN) if e["kind"] == "tool_result"]
    assert [(r["toolUseId"], r["content"], r["isError"]) for r in results] == [
        ("hermes-tool-1", "2.1s [exit 1]", True),
        ("hermes-tool-2", "0.1s", False),
        ("hermes-tool-3", "0.2s", False),
        ("hermes-tool-4", "1.9s", False),
    ]


def test_ids_are_deterministic_and_per_parser() -> None:
    first = _parse_all(PIPED_RUN)
    assert first == _parse_all(PIPED_RUN)
    ids = Counter(e["toolUseId"] for batch in first for e in batch if e["kind"] == "tool_call")
    assert list(ids) == ["hermes-tool-1", "hermes-tool-2", "hermes-tool-3", "hermes-tool-4"]


@pytest.mark.parametrize(
    ("body", "parsed"),
    [
        (
            "💻 $         pytest -q  2.1s [exit 1] (2.3s)",
            ("shell", "pytest -q", "", "2.1s", ("exit 1",)),
        ),
        ("🔎 grep      TODO  0.4s", ("search", "TODO", "", "0.4s", ())),
        (
            '🧠 memory    +user: "likes tea"  0.0s [full]',
            ("memory", '+user: "likes tea"', "", "0.0s", ("full",)),
        ),
        (
            "📖 read      missing.py  0.1s [File not found: missing.py]",
            ("read", "missing.py", "", "0.1s", ("File not found: missing.py",)),
        ),
        ("🐍 exec      print(1)  1.0s", ("execute", "print(1)", "", "1.0s", ())),
        ("⚡ my_tool   arg [x]", ("my_tool", "arg [x]", "", "", ())),
        ("◀️  back      0.3s", ("browser", "", "", "0.3s", ())),
        ("⚙️  proc      ls processes  0.0s", ("process", "ls processes", "", "0.0s", ())),
        ("read — Project Overview  1.2s", ("read", "", "Project Overview", "1.2s", ())),
        ("(｡◕‿◕｡) 🔍 search    kittens  0.5s", ("search", "kittens", "", "0.5s", ())),
    ],
)
def test_tool_lines_are_taken_apart(
    body: str, parsed: tuple[str, str, str, str, tuple[str, ...]]
) -> None:
    tool = parse_tool_line(body)
    assert tool is not None
    assert (tool.name, tool.detail, tool.result, tool.duration, tool.problems) == parsed


def test_an_unfinished_start_line_still_shows_the_call() -> None:
    entries = _flat(["┊ 💻 $ npm test"])
    assert entries == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "shell",
            "input": {"detail": "npm test"},
            "toolUseId": "hermes-tool-1",
        }
    ]


def test_a_completion_pairs_with_the_announced_call_of_the_same_tool() -> None:
    entries = _flat(["┊ 📖 read a.py", "┊ 💻 $ make", "┊ 💻 $ make  3.0s", "┊ 📖 read a.py  0.1s"])
    pairs = [(e["kind"], e["toolUseId"]) for e in entries]
    assert pairs == [
        ("tool_call", "hermes-tool-1"),
        ("tool_call", "hermes-tool-2"),
        ("tool_result", "hermes-tool-2"),
        ("tool_result", "hermes-tool-1"),
    ]


def test_a_traceback_is_stderr_down_to_its_exception() -> None:
    lines = [
        "Traceback (most recent call last):",
        'File "/opt/hermes/run_agent.py", line 812, in run_conversation',
        "response = client.chat(messages)",
        "RuntimeError: provider returned 401",
        "Sorry, the provider refused the key.",
    ]
    assert [e["kind"] for e in _flat(lines)] == [
        "stderr",
        "stderr",
        "stderr",
        "stderr",
        "assistant",
    ]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("[paperclip] Hermes maxTokensPerRun budget exhausted", "system"),
        ("[2026-03-25T10:40:53.941Z] INFO: MCP server ready", "stderr"),
        ("Session not found: 20260101_000000_deadbe", "system"),
        ("Resume this session with:", "system"),
        ("hermes --resume 20260326_005750_16250b", "system"),
        ('hermes -c "Slash Command Differences Clarified"', "system"),
        ("Session:        20260326_005750_16250b", "system"),
        ("Duration:       1h 48m 26s", "system"),
        ("Title:          Slash Command Differences Clarified", "system"),
        ("Warning: Unknown toolsets: webb", "system"),
        ("paperclip_stop_reason: max_turns_exhausted", "system"),
        ("(clarify timed out after 120s — agent will decide)", "system"),
        ("Error: model not found", "stderr"),
        ("❌ Provider error: 429", "stderr"),
        ("💭 Considering the options", "thinking"),
        ("[thinking] weighing two fixes", "thinking"),
        ("Title: my essay", "assistant"),
        ("Warning: this answer is long", "assistant"),
    ],
)
def test_cli_lines_read_as_their_kind(line: str, kind: str) -> None:
    assert [entry["kind"] for entry in parse_stdout_line(line, TS)] == [kind]


@pytest.mark.parametrize(
    "line", ["[tool] (｡◕‿◕｡) 💻 ls", "💻 Completed", "💻", "─────────", f"{ESC}[0m"]
)
def test_decoration_and_redundant_lines_give_nothing(line: str) -> None:
    assert parse_stdout_line(line, TS) == []


def test_a_closing_border_glued_to_the_last_box_line_is_dropped() -> None:
    lines = [
        "┌─ Reasoning ───┐",
        "weighing it",
        "lead with the answer.└──────┘",
        "Final answer text",
    ]
    assert [(e["kind"], e["text"]) for e in _flat(lines)] == [
        ("thinking", "weighing it"),
        ("thinking", "\nlead with the answer."),
        ("assistant", "Final answer text"),
    ]


def test_a_diff_ends_at_the_first_plain_line() -> None:
    lines = ["┊ review diff", f"{ESC}[38;2;20;90;20m+new{ESC}[0m", "- It uses TypeScript"]
    assert [e["kind"] for e in _flat(lines)] == ["diff", "assistant"]


def test_reset_forgets_boxes_messages_pending_calls_and_ids() -> None:
    parser = create_stdout_parser()
    for line in ["┌─ Reasoning ───┐", "┊ 💻 $ make"]:
        parser.parse_line(line, TS)
    parser.reset()
    assert parser.parse_line("plain answer", TS) == [
        {"kind": "assistant", "ts": TS, "text": "plain answer", "delta": True}
    ]
    assert parser.parse_line("┊ 💻 $ make  1.0s", TS)[0]["toolUseId"] == "hermes-tool-1"


def test_stateless_ids_come_from_the_line_so_different_lines_differ() -> None:
    one = parse_stdout_line("┊ 💻 $ ls  0.1s", TS)
    again = parse_stdout_line("┊ 💻 $ ls  0.1s", TS)
    other = parse_stdout_line("┊ 💻 $ pwd  0.1s", TS)
    assert one == again and one[0]["toolUseId"] != other[0]["toolUseId"]
    assert one[0]["toolUseId"] == one[1]["toolUseId"]


# -- sniffing --------------------------------------------------------------------------------


def test_sniff_is_sure_of_every_real_hermes_log() -> None:
    for path in _real_logs():
        assert sniff(_real_lines(path)) >= 0.8, path.name
    assert sniff(PIPED_RUN) == 1.0
    assert sniff(_contract_example()) == 1.0


def test_sniff_gives_every_other_cli_a_low_score() -> None:
    scored = 0
    folders: set[str] = set()
    for path in sorted(corpus_path("real-logs").glob("*/*")):
        if path.parent.name == "hermes" or path.suffix == ".md":
            continue
        lines = [
            line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        assert sniff(lines[:40]) < 0.5, path.name
        scored += 1
        folders.add(path.parent.name)
    # Every other CLI's logs, the newer Qwen Code stream and raw ACP traffic among them.
    assert scored >= 71
    assert {"claude", "codex", "gemini", "cursor", "opencode", "qwen", "acp"} <= folders


def test_the_host_detects_hermes_output_by_itself() -> None:
    detection = linewise.detect_adapter(PIPED_RUN)
    assert detection.detected and detection.adapter_type == "hermes_local", detection.reason


def test_sniff_ignores_plain_prose() -> None:
    assert sniff(["Here is the answer.", "It has two lines."]) == 0.0


# -- never raises, deterministic, valid ----------------------------------------------------

hermes_pieces = st.sampled_from(
    [
        "┊",
        "💬",
        "💻",
        "$",
        "[done]",
        "[tool]",
        "review diff",
        "╭─ ⚕ Hermes ─╮",
        "╰──╯",
        "┌─ Reasoning ─┐",
        "└─┘",
        "│",
        "0.3s",
        "(0.5s)",
        "[exit 1]",
        " — ",
        "session_id:",
        "Traceback",
        "ValueError:",
        "[hermes]",
        f"{ESC}[38;2;20;90;20m",
        f"{ESC}[0m",
        f"{ESC}]0;title\a",
        "+",
        "-",
        "@@",
        "(｡◕‿◕｡)",
        " ",
        "  ",
    ]
)
hermes_lines = st.lists(hermes_pieces | st.text(max_size=6), max_size=6).map("".join)


@given(st.lists(hermes_lines, max_size=10))
def test_never_raises_and_always_returns_valid_entries_deterministically(lines: list[str]) -> None:
    first = assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)
    for entries in first:
        for entry in entries:
            assert ESC not in json.dumps(entry)
    assert 0.0 <= sniff(lines) <= 1.0


# -- time on hostile lines (issue #13: 80 KB tool lines with runs of spaces took 18-24 s) ----

_HOSTILE_TOOL_LINES = {
    "spaces before a non-total": lambda n: "┊ 💻 $ ls" + " " * n + "x)",
    "spaces before a non-suffix": lambda n: "┊ 💻 $ ls" + " " * n + "x]",
    "bracket runs": lambda n: "┊ 💻 $ " + "a  [" * (n // 4) + "]",
    "digit runs": lambda n: "┊ 💻 $ ls " + "1" * n + " x",
    "parentheses": lambda n: "┊ 💻 $ ls " + "(" * n + "1s)",
    "a response box of spaces": lambda n: "╭─" + " " * n + "x",
}


@pytest.mark.parametrize("make", _HOSTILE_TOOL_LINES.values(), ids=_HOSTILE_TOOL_LINES.keys())
def test_hostile_lines_take_linear_time(make: Any) -> None:
    parser = create_stdout_parser()
    assert_linear(lambda line: parser.parse_line(line, TS), make, 4_000)
    assert_linear(lambda line: parse_stdout_line(line, TS), make, 4_000)


def _tool_line_by_regex(body: str) -> tuple[str, str, str, tuple[str, ...]] | None:
    """(rest, duration, detail source, problems) as the previous release's regexes read them.

    Those regexes were quadratic on runs of spaces; on short lines they are
    the oracle the string-method reading must agree with.
    """
    text = re.sub(r"^\S{0,2}\([^()]{1,20}\)\S{0,2}\s+", "", body.strip(), count=1)
    if text.startswith("[done]"):
        text = text[6:].lstrip()
    rest = re.sub(r"\s*\((\d+(?:\.\d+)?s)\)$", "", text)
    problems: list[str] = []
    while len(problems) < 4 and (match := re.search(r"\s*\[([^\[\]]*)\]$", rest)) is not None:
        problems.insert(0, match.group(1).strip())
        rest = rest[: match.start()]
    duration = re.search(r"\s(\d+(?:\.\d+)?s)$", rest)
    if duration is None:
        return text, "", text, ()
    return rest[: duration.start()], duration.group(1), text, tuple(problems)


_TOOL_LINE_PIECES = ["💻", "$", "ls", " ", "  ", "\t", "1", "0.5", "s", "[", "]", "(", ")", "x"]


@given(st.lists(st.sampled_from(_TOOL_LINE_PIECES), max_size=14).map("".join))
def test_tool_lines_read_as_the_previous_regexes_read_them(body: str) -> None:
    tool = parse_tool_line(body)
    rest, duration, _, problems = _tool_line_by_regex(body)
    words = rest.split(None, 1)
    if words and all(ord(c) > 127 and not c.isalnum() for c in words[0]):
        words = words[1].split(None, 1) if len(words) > 1 else []
    if not words:
        assert tool is None
        return
    assert tool is not None
    assert (tool.verb, tool.duration, tool.problems) == (words[0], duration, problems)
