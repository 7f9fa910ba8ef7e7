"""Claude's compact lines made from entries (``format_entries``, contract 1.7).

The specification's tables (stream-formatter-design.md) hold from the entries as
they held from the raw line. On every real Claude and Amp log the lines are the
raw-line formatter's, line for line, but for the differences the entries make
on purpose (listed in ``linewise_claude.formatter``'s docstring), each
recognised here by what it is; anything else fails.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import linewise_amp
import linewise_claude
import pytest
from linewise_claude import create_stdout_parser, format_entries, format_stdout_line
from linewise_contracts.compliance import run_checks
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.protocols import CompactLine
from support import corpus_path

TS = "2026-01-31T09:30:00.000Z"
SESSION = "3f2a9c1e-77aa-4b1c-9d0e-123456789abc"


def line(event: dict[str, Any]) -> str:
    return json.dumps(event)


def assistant(*blocks: dict[str, Any], **extra: Any) -> str:
    message = {"role": "assistant", "content": list(blocks)}
    return line({"type": "assistant", "message": message, **extra})


def user_result(content: Any, *, is_error: bool = False, envelope: Any = None) -> str:
    block = {"tool_use_id": "toolu_1", "type": "tool_result", "content": content}
    event: dict[str, Any] = {"type": "user", "message": {"role": "user", "content": [block]}}
    if is_error:
        block["is_error"] = True
    if envelope is not None:
        event["tool_use_result"] = envelope
    return line(event)


def shown(*lines: str) -> str:
    """The compact text of ``lines`` read in order by one parser, from their entries."""
    parser = create_stdout_parser()
    return "".join(
        text + "\n" for raw in lines for _, text in format_entries(parser.parse_line(raw, TS))
    )


READ = assistant(
    {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "/a/b.py"}}
)


@pytest.mark.parametrize(
    ("raw", "expected"),
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
        pytest.param(assistant({"type": "text", "text": "two\nlines"}), "two\nlines\n", id="text"),
        pytest.param(READ, "[Read] b.py\n", id="tool_use"),
        pytest.param(
            assistant({"type": "thinking", "thinking": "secret", "signature": "s"}),
            "",
            id="thinking",
        ),
        pytest.param(user_result("all good"), "→ all good\n", id="tool_result"),
        pytest.param(user_result("", is_error=True), "→ error\n", id="tool_result/error"),
        pytest.param(user_result("  \n"), "→ ok\n", id="tool_result/empty"),
        pytest.param(
            line({"type": "result", "subtype": "success", "result": "Done."}),
            "\n--- Result ---\nDone.\n",
            id="result",
        ),
        pytest.param("not json at all", "not json at all\n", id="parse-failure"),
        pytest.param(line({"type": "user", "message": {"content": "a prompt"}}), "", id="user"),
    ],
)
def test_the_specifications_output_table_from_entries(raw: str, expected: str) -> None:
    assert shown(raw) == expected


def test_a_read_result_counts_the_numbered_lines_its_entry_holds() -> None:
    numbered = "     1→import os\n     2→\n     3→print(os.sep)\n"
    assert shown(READ, user_result(numbered)) == "[Read] b.py\n→ 3 lines\n"
    tabbed = "1\tone\n2\ttwo\n\n<system-reminder>careful</system-reminder>"
    assert shown(READ, user_result(tabbed)) == "[Read] b.py\n→ 2 lines\n"
    # The envelope's numLines is the raw line's; the entry's content is the truth.
    assert shown(READ, user_result(numbered, envelope={"file": {"numLines": 3}})).endswith(
        "→ 3 lines\n"
    )
    assert shown(READ, user_result("Error: no such file", is_error=True)).endswith(
        "→ error: Error: no such file\n"
    )
    # Another tool's numbered output is its first line, as the specification says.
    assert shown(user_result(numbered)) == "→ 1→import os\n"


def test_an_api_error_is_an_error_line_never_assistant_text() -> None:
    raw = assistant({"type": "text", "text": "API Error: 529 overloaded"}, error="overloaded")
    parser = create_stdout_parser()
    assert format_entries(parser.parse_line(raw, TS)) == [
        ("error", "API error: overloaded"),
        ("error", "API Error: 529 overloaded"),
    ]


def test_a_permission_prompt_is_one_line_while_it_waits() -> None:
    request = line(
        {
            "type": "control_request",
            "request_id": "req-1",
            "request": {
                "subtype": "can_use_tool",
                "tool_name": "Write",
                "input": {"file_path": "hello.txt"},
                "tool_use_id": "toolu_1",
            },
        }
    )
    assert shown(request) == "[permission requested: Write]\n"
    rate = line({"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}})
    assert shown(rate) == ""  # a system fact, filtered as system events are


def test_never_raises_and_gives_the_contracts_pairs_on_odd_entries() -> None:
    odd: list[TranscriptEntry] = [
        {"kind": "init", "ts": TS, "model": "", "sessionId": ""},
        {"kind": "tool_call", "ts": TS, "name": "", "input": None},
        {"kind": "tool_call", "ts": TS, "name": "Bash", "input": [1, 2]},
        {"kind": "assistant", "ts": TS, "text": ""},
        {"kind": "stderr", "ts": TS, "text": ""},
        {"kind": "diff", "ts": TS, "changeType": "add", "text": "+x"},
    ]
    assert format_entries(odd) == [
        ("lifecycle", "[session ? · ?]"),
        ("tool", "[tool]"),
        ("tool", "[Bash]"),
    ]
    assert format_entries([]) == []


# -- every real Claude and Amp log ----------------------------------------------------------


def _logs() -> list[Path]:
    logs = sorted(corpus_path("real-logs", "claude").glob("*.jsonl"))
    logs += sorted(corpus_path("paperclip", "claude-local").glob("*.jsonl"))
    logs += sorted(corpus_path("field-samples", "amp").glob("*.jsonl"))
    logs += sorted(corpus_path("field-samples", "claude-code").glob("*.jsonl"))
    return logs


def _read_result(entry: TranscriptEntry | None) -> bool:
    return entry is not None and entry["kind"] == "tool_result" and entry.get("toolName") == "Read"


def _difference(
    raw: str, old: list[CompactLine], new: list[CompactLine], entries: list[TranscriptEntry]
) -> str | None:
    """Which of the documented fixes makes ``new`` differ from ``old``; None for none."""
    if old == [("plain", raw)] and raw.startswith("{") and new != old:
        return "an event the parser reads, no longer its raw JSON"
    if len(old) != len(new):
        return None
    results = [entry for entry in entries if entry["kind"] == "tool_result"]
    why = set()
    for (role, before), (again, after) in zip(old, new, strict=True):
        if (role, before) == (again, after):
            continue
        if (role, again) == ("assistant", "error") and before == after:
            why.add("an error's text, an error line")
        elif (
            before.startswith("[session")
            and before.endswith(" · ?]")
            and after.endswith(" · unknown]")
        ):
            why.add("the init entry's model, unknown")
        elif (
            role == again == "result"
            and after.endswith(" lines")
            and any(map(_read_result, results))
        ):
            elided = any("<elided" in r["content"] for r in results)
            why.add("a Read of an elided log counted" if elided else "a Read result counted")
        else:
            return None
    return " and ".join(sorted(why)) or None


def test_on_every_real_log_the_lines_from_entries_are_the_raw_lines_but_for_the_fixes() -> None:
    fixes: Counter[str] = Counter()
    unexplained: list[str] = []
    compared = 0
    for path in _logs():
        parser = create_stdout_parser()
        text = path.read_text(encoding="utf-8", errors="replace")
        for raw in filter(None, (piece.strip() for piece in text.splitlines())):
            entries = parser.parse_line(raw, TS)
            if entries and all(entry.get("delta") is True for entry in entries):
                continue  # drawn by the host, continued across lines
            old, new = format_stdout_line(raw), format_entries(entries)
            compared += 1
            if old == new:
                continue
            why = _difference(raw, old, new, entries)
            if why is None:
                unexplained.append(f"{path.name}: {raw[:120]}\n  {old}\n  {new}")
            else:
                fixes[why] += 1
    assert not unexplained, "\n".join(unexplained[:10])
    assert compared > 1500
    # What the corpus holds of each fix (every other line gives the same lines both ways).
    assert fixes == {
        "a Read result counted": 114,  # results without the envelope's numLines (subagents')
        "an event the parser reads, no longer its raw JSON": 7,  # 5 rate limits, 2 prompts
        "the init entry's model, unknown": 4,  # Amp's and two permission logs' init lines
        "a Read of an elided log counted": 3,  # the corpus cut the file's lines out
        "an error's text, an error line": 1,  # a failed /compact, coloured as an error
    }


# -- the declared formats -----------------------------------------------------------------


def test_claude_local_and_amp_local_give_format_entries_beside_the_1x_formatter() -> None:
    for agent, adapter_type in (
        (linewise_claude.agent, "claude_local"),
        (linewise_amp.agent, "amp_local"),
    ):
        fmt = agent.format(adapter_type)
        assert fmt.format_entries is format_entries
        assert fmt.format_stdout_line is format_stdout_line  # the 1.x export, deprecated


def test_linewise_check_passes_format_entries() -> None:
    report = run_checks("claude_local", examples=100)
    checks = {result.check: result for result in report.results}
    assert checks["format_entries"].status == "pass", checks["format_entries"].message
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]
