"""kimi_local: print mode's stream-json and the --wire protocol, from samples and real docs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_kimi
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from linewise_kimi import create_stdout_parser, parse_stdout_line, sniff, summarize_run
from session_checks import HOST_TS, real_corpus_files, render, unpaired
from support import assert_valid_and_deterministic, corpus_path, json_values, parse_flat

SAMPLES = Path(linewise_kimi.__file__).parent / "samples"
PRINT = SAMPLES / "kimi-print-stream-json.jsonl"
WIRE = SAMPLES / "kimi-wire-session.jsonl"


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_print_mode_shows_thinking_text_and_every_tool_call_with_its_result() -> None:
    entries = parse_flat(create_stdout_parser, _lines(PRINT), ts=HOST_TS)
    assert [entry["kind"] for entry in entries[:4]] == [
        "user",
        "thinking",
        "assistant",
        "tool_call",
    ]
    assert entries[3]["input"] == {"command": "python -m pytest tests/test_invoice.py -q"}
    assert unpaired(entries) == set()
    names = [(e["toolUseId"], e["toolName"]) for e in entries if e["kind"] == "tool_result"]
    assert names == [
        ("Shell:0", "Shell"),
        ("StrReplaceFile:1", "StrReplaceFile"),
        ("Shell:2", "Shell"),
    ]


def test_wire_mode_shows_the_prompt_once_and_the_approval() -> None:
    entries = parse_flat(create_stdout_parser, _lines(WIRE), ts=HOST_TS)
    assert [entry["text"] for entry in entries if entry["kind"] == "user"] == [
        "Which Python files are here?"
    ]
    notes = [entry["text"] for entry in entries if entry["kind"] == "system"]
    assert "approval requested: run command — ls *.py" in notes
    assert unpaired(entries) == set()
    text = "".join(entry["text"] for entry in entries if entry["kind"] == "assistant")
    assert text == "Two: setup.py and invoice.py."


def test_wire_mode_usage_adds_up_each_steps_status_update() -> None:
    summary = summarize_run(_lines(WIRE))
    assert summary.token_usage == TokenUsage(
        uncached_input=2310 + 180, cache_read=6144 + 8448, cache_write=0, output=64 + 12
    )
    assert (summary.outcome, summary.complete) == ("completed", True)
    assert summary.final_text == "Two: setup.py and invoice.py."


def test_print_mode_reports_no_usage_so_it_is_unknown() -> None:
    summary = summarize_run(_lines(PRINT))
    assert summary.token_usage.is_empty
    assert summary.outcome is None
    assert (
        summary.final_text
        == "Totals now round half up (10.005 -> 10.01) and both invoice tests pass."
    )


def test_a_subagents_events_nest_under_the_tool_call_that_started_it() -> None:
    inner = {"type": "ContentPart", "payload": {"type": "text", "text": "found 3 files"}}
    line = json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "event",
            "params": {
                "type": "SubagentEvent",
                "payload": {"parent_tool_call_id": "Agent:4", "event": inner},
            },
        }
    )
    (entry,) = parse_stdout_line(line, HOST_TS)
    assert (entry["kind"], entry["text"], entry["parentToolUseId"]) == (
        "assistant",
        "found 3 files",
        "Agent:4",
    )


@pytest.mark.parametrize(
    "name", ["print-mode-docs-stream-json.jsonl", "wire-mode-docs-jsonrpc.jsonl"]
)
def test_the_documented_examples_render_auto_detected_with_no_raw_json(name: str) -> None:
    path = corpus_path("field-samples", "kimi", name)
    stderr, entries = render(path)
    assert "detected kimi_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _lines(path), ts=HOST_TS
    )


def test_the_wire_docs_errors_are_the_runs_errors() -> None:
    summary = summarize_run(
        _lines(corpus_path("field-samples", "kimi", "wire-mode-docs-jsonrpc.jsonl"))
    )
    assert summary.errors == ("LLM is not set", "No agent turn is in progress")


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ['{"role":"assistant","content":"hi"}'],  # a bare message proves nothing
        ['{"type":"message","role":"assistant","content":"x"}'],
        ['{"jsonrpc":"2.0","method":"session/update","params":{}}'],  # ACP
        ['{"jsonrpc":"2.0","method":"initialize","id":0,"params":{"protocolVersion":1}}'],
        ['{"role":"assistant","content":"x","tool_calls":[{"name":"a"}]}'],
    ],
)
def test_what_is_not_kimi_scores_zero(lines: list[str]) -> None:
    assert sniff(lines) == 0.0


def test_every_real_log_and_session_of_another_cli_scores_zero() -> None:
    paths = real_corpus_files()
    first = {path: _lines(path)[:40] for path in paths}
    assert {path.name: sniff(lines) for path, lines in first.items() if sniff(lines)} == {}


@given(st.lists(json_values, max_size=6))
def test_never_raises_on_hostile_lines(values: list[Any]) -> None:
    parser = create_stdout_parser()
    for value in values:
        body = value if isinstance(value, dict) else {"content": value}
        lines = [
            json.dumps({**body, "role": "assistant", "tool_calls": [value]}),
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "method": "event",
                    "params": {"type": "ToolResult", "payload": body},
                }
            ),
            json.dumps({"jsonrpc": "2.0", "id": 1, "result": value, "error": value}),
        ]
        for line in lines:
            for entry in parser.parse_line(line, HOST_TS):
                assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("kimi_local", examples=200)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]
