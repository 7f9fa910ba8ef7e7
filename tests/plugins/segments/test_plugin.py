"""The model_stream parser plugin: stdout lines of raw model output to TranscriptEntries."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_segments import plugin
from linewise_segments.plugin import create_stdout_parser

TS = "2026-01-01T00:00:00.000Z"

STREAM = [
    "I'll add the helper.",
    "<think>It needs a test too.</think>",
    '<write_file path="/src/util.py">',
    "def double(x):",
    "return 2 * x",
    "</write_file>",
    "<tool name='run_bash'><arguments><arg name='command'>pytest -q</arg></arguments></tool>",
    "<tool name=\"search\"><arguments><arg name='query'>a &lt; b</arg></arguments></tool> Done.",
]


def parse(lines: list[str], **environ: str) -> list[dict[str, Any]]:
    parser = create_stdout_parser(environ or None)
    # The host hands a raw_lines parser every line with its newline.
    return [entry for line in lines for entry in parser.parse_line(line + "\n", TS)]  # type: ignore[misc]


def test_text_reasoning_and_tool_calls_become_entries() -> None:
    entries = parse(STREAM)
    assert [entry_problem(entry) for entry in entries] == [None] * len(entries)
    assert entries == [
        {"kind": "assistant", "ts": TS, "text": "I'll add the helper.\n", "delta": True},
        {"kind": "thinking", "ts": TS, "text": "It needs a test too.", "delta": True},
        {"kind": "assistant", "ts": TS, "text": "\n", "delta": True},
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "write_file",
            "input": {"path": "/src/util.py", "content": "\ndef double(x):\nreturn 2 * x\n"},
            "toolUseId": "seg_4",
        },
        {"kind": "assistant", "ts": TS, "text": "\n", "delta": True},
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "run_bash",
            "input": {"command": "pytest -q"},
            "toolUseId": "seg_6",
        },
        {"kind": "assistant", "ts": TS, "text": "\n", "delta": True},
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "search",
            "input": {"query": "a < b"},
            "toolUseId": "seg_8",
        },
        {"kind": "assistant", "ts": TS, "text": " Done.\n", "delta": True},
    ]


def test_a_tool_call_is_emitted_only_once_its_block_is_complete() -> None:
    parser = create_stdout_parser({})
    assert parser.parse_line("<run_bash>rm -rf build\n", TS) == []
    assert parser.parse_line("</run_bash>\n", TS)[0]["kind"] == "tool_call"


def test_finish_shows_a_cut_off_call_as_truncated() -> None:
    parser = create_stdout_parser({})
    parser.parse_line("<run_bash>rm -rf build\n", TS)
    assert parser.finish(TS) == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "run_bash",
            "input": {"command": "rm -rf build\n", "truncated": True},
            "toolUseId": "seg_1",
        }
    ]
    assert parser.parse_line("again\n", TS) == [
        {"kind": "assistant", "ts": TS, "text": "again\n", "delta": True}
    ]


def test_the_host_call_never_reads_the_process_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AUTOBYTEUS_STREAM_PARSER", "api_tool_call")
    parser = create_stdout_parser()
    assert parser.parse_line("<run_bash>ls</run_bash>\n", TS)[0]["kind"] == "tool_call"


def test_an_environment_passed_by_the_host_selects_the_strategy() -> None:
    json_line = '{"name": "search", "arguments": {"q": "x"}}'
    assert parse([json_line])[0]["kind"] == "assistant"
    assert parse([json_line], AUTOBYTEUS_STREAM_PARSER="json")[0] == {
        "kind": "tool_call",
        "ts": TS,
        "name": "search",
        "input": {"q": "x"},
        "toolUseId": "seg_1",
    }
    sentinel = '[[SEG_START {"type":"reasoning"}]]hmm[[SEG_END]]'
    assert parse([sentinel], AUTOBYTEUS_STREAM_PARSER="sentinel")[0]["kind"] == "thinking"
    assert [e["kind"] for e in parse(STREAM, AUTOBYTEUS_STREAM_PARSER="api_tool_call")] == [
        "assistant"
    ] * len(STREAM)


def test_an_unknown_strategy_is_reported_once_and_xml_is_used() -> None:
    entries = parse(["<run_bash>ls</run_bash>", "x"], AUTOBYTEUS_STREAM_PARSER="yaml")
    assert entries[0]["kind"] == "system"
    assert "yaml" in entries[0]["text"]
    assert [e["kind"] for e in entries[1:]] == ["tool_call", "assistant", "assistant"]


def test_json_that_is_not_a_call_is_shown_as_text() -> None:
    entries = parse(['{"name": 12}'], AUTOBYTEUS_STREAM_PARSER="json")
    assert entries[0] == {"kind": "assistant", "ts": TS, "text": '{"name": 12}'}


def test_reset_forgets_an_open_block() -> None:
    parser = create_stdout_parser({})
    parser.parse_line("<run_bash>ls\n", TS)
    parser.reset()
    assert parser.parse_line("</run_bash>\n", TS) == [
        {"kind": "assistant", "ts": TS, "text": "</run_bash>\n", "delta": True}
    ]


@given(lines=st.lists(st.text(alphabet="ab <>/='\"{}[]_\\&;:", max_size=40), max_size=12))
def test_any_lines_give_valid_entries_and_the_same_ones_every_time(lines: list[str]) -> None:
    first = parse(lines)
    assert [entry_problem(entry) for entry in first] == [None] * len(first)
    assert parse(lines) == first


def test_metadata_for_the_host() -> None:
    assert plugin.label
    assert plugin.models == []
    assert "Use when:" in plugin.agent_configuration_doc
    assert "Don't use when:" in plugin.agent_configuration_doc


def test_the_entry_point_names_the_adapter_type() -> None:
    found = {ep.name: ep.value for ep in entry_points(group="linewise.parsers")}
    assert found.get("model_stream") == "linewise_segments:agent.model_stream"


def test_the_host_builds_a_transcript_with_it() -> None:
    linewise = pytest.importorskip("linewise")
    session = linewise.open_session("model_stream")
    entries = session.feed("Plan:\n<run_bash>ls</run_bash>\n") + session.close()
    assert session.diagnostics.fallback_reason is None
    assert [entry["kind"] for entry in entries] == ["assistant", "tool_call", "assistant"]


def test_the_shipped_samples_are_a_realistic_session() -> None:
    samples = (Path(plugin.__file__).parent / "samples" / "model_stream.txt").read_text("utf-8")
    lines = [line.strip() for line in samples.split("\n") if line.strip()]
    calls = [entry for entry in parse(lines) if entry["kind"] == "tool_call"]
    assert [call["name"] for call in calls] == [
        "read_file",
        "write_file",
        "write_file",
        "patch_file",
        "run_bash",
        "run_bash",
        "create_tasks",
    ]
    assert calls[-1]["input"] == {"tasks": [{"title": "Document a < b"}]}


def test_through_the_host_whitespace_survives_and_a_cut_off_call_is_flagged() -> None:
    linewise = pytest.importorskip("linewise")
    session = linewise.open_session("model_stream")
    stream = '<write_file path="a.py">\ndef f():\n\n    return 1\n</write_file>\n<run_bash>make'
    entries = session.feed(stream) + session.close()
    calls = [entry for entry in entries if entry["kind"] == "tool_call"]
    assert calls[0]["input"]["content"] == "\ndef f():\n\n    return 1\n"
    assert calls[1]["input"] == {"command": "make", "truncated": True}
    assert session.diagnostics.accounted


def test_each_strategy_has_its_own_adapter_type() -> None:
    linewise = pytest.importorskip("linewise")
    json_call = linewise.open_session("model_stream_json")
    entries = json_call.feed('{"name": "search", "arguments": {"q": "x"}}\n') + json_call.close()
    assert entries[0]["kind"] == "tool_call"
    sentinel = linewise.open_session("model_stream_sentinel")
    entries = sentinel.feed('[[SEG_START {"type":"reasoning"}]]hmm[[SEG_END]]\n') + sentinel.close()
    assert entries[0]["kind"] == "thinking"


def test_sniff_wants_inline_tags_in_plain_text() -> None:
    assert plugin.sniff(["Let me look.", "<run_bash>ls</run_bash>", "Done."]) == 0.85
    assert plugin.sniff(['{"type":"assistant","text":"<run_bash>"}', "{}"]) == 0.0
    assert plugin.sniff(["just prose", "more prose"]) == 0.0


def test_using_the_engine_imports_neither_the_plugin_nor_the_contract() -> None:
    probe = (
        "import sys, linewise_segments\n"
        "print(sorted(m for m in sys.modules if m.startswith(('linewise_segments.plugin', "
        "'linewise_contracts'))))\n"
        "print(linewise_segments.agent.model_stream_json.label)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines() == ["[]", "Raw model output (JSON tool calls)"]
