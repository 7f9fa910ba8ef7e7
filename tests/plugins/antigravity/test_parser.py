"""agy_local: Antigravity CLI's stream-json, from the samples, real captures and edge cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_antigravity
from hypothesis import given
from hypothesis import strategies as st
from linewise_antigravity import create_stdout_parser, parse_stdout_line
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from session_checks import HOST_TS, render, unpaired
from support import assert_valid_and_deterministic, corpus_path, json_values, parse_flat

RUN = Path(linewise_antigravity.__file__).parent / "samples" / "agy-stream-json-run.jsonl"
TS = "2026-12-01T10:00:00.000Z"
CONVERSATION = "5d0c2a71-3f1e-4b8a-9c44-0e6f1b2d7a90"


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _step(**fields: Any) -> str:
    return json.dumps({"event": "step_update", "step_update": fields})


def test_the_sample_run_reads_as_the_session_it_was() -> None:
    entries = parse_flat(create_stdout_parser, _lines(RUN), ts=TS)
    assert entries[0] == {
        "kind": "init",
        "ts": TS,
        "model": "unknown",
        "sessionId": CONVERSATION,
        "cwd": "/home/ana/src/billing",
    }
    calls = [entry for entry in entries if entry["kind"] == "tool_call"]
    assert [call["name"] for call in calls] == [
        "run_command",
        "view_file",
        "run_command",
        "replace_file_content",
        "run_command",
    ]
    assert calls[0]["input"] == {
        "CommandLine": "python -m pytest tests/test_invoice.py -q",
        "Cwd": "/home/ana/src/billing",
    }
    assert unpaired(entries) == set()
    results = {entry["toolUseId"]: entry for entry in entries if entry["kind"] == "tool_result"}
    denied = results[f"{CONVERSATION}:4"]
    assert denied["isError"] is True
    assert "user denied permission" in denied["content"]
    assert "1 failed, 1 passed" in results[f"{CONVERSATION}:2"]["content"]
    assert not any(entry["kind"] == "stdout" for entry in entries)
    text = "".join(entry["text"] for entry in entries if entry["kind"] == "assistant")
    assert (
        text
        == "Invoice totals now round half up, so 10.005 becomes 10.01; both invoice tests pass."
    )
    assert entries[-2] == {
        "kind": "stderr",
        "ts": TS,
        "text": "denied actions: run_command: git stash",
    }
    result = entries[-1]
    assert (result["kind"], result["subtype"], result["isError"]) == ("result", "success", False)
    assert (result["inputTokens"], result["cachedTokens"], result["outputTokens"]) == (
        14190,
        8192,
        480,
    )


def test_a_tool_step_reported_done_without_an_active_update_is_a_call_and_its_result() -> None:
    entries = parse_stdout_line(
        _step(
            conversation_id="c",
            step_index=9,
            state="DONE",
            step_type="tool",
            tool_name="view_file",
            tool_info={"parameters": {"AbsolutePath": "/a"}, "output": {"lines": 3}},
        ),
        TS,
    )
    assert [entry["kind"] for entry in entries] == ["tool_call", "tool_result"]
    assert entries[0]["toolUseId"] == entries[1]["toolUseId"] == "c:9"
    assert json.loads(entries[1]["content"]) == {"lines": 3}


def test_repeated_updates_of_a_running_tool_step_show_one_call() -> None:
    active = _step(step_index=2, state="ACTIVE", step_type="tool", tool_name="run_command")
    done = _step(step_index=2, state="DONE", step_type="tool", tool_name="run_command")
    entries = parse_flat(create_stdout_parser, [active, active, done, done], ts=TS)
    assert [entry["kind"] for entry in entries] == ["tool_call", "tool_result"]


def test_steps_without_an_index_pair_by_tool_name_in_order() -> None:
    def step(state: str, name: str) -> str:
        return _step(step_type="tool", state=state, tool_name=name)

    lines = [
        step("ACTIVE", "run_command"),
        step("ACTIVE", "view_file"),
        step("ACTIVE", "run_command"),
        step("DONE", "run_command"),
        step("DONE", "view_file"),
        step("DONE", "run_command"),
    ]
    entries = parse_flat(create_stdout_parser, lines, ts=TS)
    calls = [entry["toolUseId"] for entry in entries if entry["kind"] == "tool_call"]
    results = [entry["toolUseId"] for entry in entries if entry["kind"] == "tool_result"]
    assert len(set(calls)) == 3
    assert results == [calls[0], calls[1], calls[2]]


def test_a_tool_step_that_never_finished_is_closed_by_the_result() -> None:
    lines = [
        _step(step_index=1, state="ACTIVE", step_type="tool", tool_name="run_command"),
        json.dumps({"event": "result", "result": {"status": "ERROR", "error": "cancelled"}}),
    ]
    entries = parse_flat(create_stdout_parser, lines, ts=TS)
    assert unpaired(entries) == set()
    closing = next(entry for entry in entries if entry["kind"] == "tool_result")
    assert closing["isError"] is True and closing["toolName"] == "run_command"
    assert "ended before" in closing["content"]
    assert entries[-1]["errors"] == ["cancelled"]


def test_an_explicit_tool_id_is_kept() -> None:
    entries = parse_stdout_line(
        _step(step_index=3, state="ACTIVE", step_type="tool", tool_info={"id": "call_7"}), TS
    )
    assert entries[0]["toolUseId"] == "call_7"
    assert entries[0]["name"] == "tool"


def test_subagents_and_other_steps_are_shown_once_per_state() -> None:
    planner = _step(step_index=4, state="ACTIVE", step_type="planner", text="Reading the tests")
    lines = [
        planner,
        planner,
        _step(step_index=5, step_type="subagent", subagent_info={"conversation_id": "sub-1"}),
        _step(step_index=6, state="ERROR", step_type="planner", error={"message": "boom"}),
    ]
    entries = parse_flat(create_stdout_parser, lines, ts=TS)
    assert [(entry["kind"], entry["text"]) for entry in entries] == [
        ("system", "planner step (active): Reading the tests"),
        ("system", "subagent conversation sub-1"),
        ("stderr", "planner step failed: boom"),
    ]


def test_lines_that_are_not_agy_events_are_kept_raw() -> None:
    for line in [
        "plain text",
        '{"type":"message","role":"assistant"}',
        '{"event":"step_update","step_update":"x"}',
    ]:
        assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


def test_reset_forgets_open_steps() -> None:
    parser = create_stdout_parser()
    parser.parse_line(_step(step_index=1, state="ACTIVE", step_type="tool"), TS)
    parser.reset()
    done = parser.parse_line(_step(step_index=1, state="DONE", step_type="tool"), TS)
    assert [entry["kind"] for entry in done] == ["tool_call", "tool_result"]


def test_every_real_capture_renders_auto_detected_with_no_raw_json_and_paired_calls() -> None:
    folder = corpus_path("field-samples", "antigravity")
    paths = sorted(folder.glob("*.jsonl"))
    assert len(paths) >= 3
    for path in paths:
        stderr, entries = render(path)
        assert "detected agy_local" in stderr, stderr
        assert not [entry for entry in entries if entry["kind"] == "stdout"], path.name
        assert unpaired(entries) == set(), path.name
        assert any(entry["kind"] == "result" for entry in entries), path.name
        assert_valid_and_deterministic(
            create_stdout_parser, parse_stdout_line, _lines(path), ts=HOST_TS
        )


def test_the_verbatim_capture_gives_its_usage_and_error() -> None:
    path = corpus_path("field-samples", "antigravity", "agy-1.1.8-verbatim-capture.jsonl")
    entries = parse_flat(create_stdout_parser, _lines(path), ts=TS)
    results = [entry for entry in entries if entry["kind"] == "result"]
    assert (results[0]["inputTokens"], results[0]["outputTokens"]) == (7896, 282)
    assert results[1]["isError"] is True
    assert results[1]["errors"] == ["timeout waiting for response"]


@given(st.lists(json_values, max_size=6))
def test_never_raises_on_hostile_events(values: list[Any]) -> None:
    parser = create_stdout_parser()
    for value in values:
        for line in (
            json.dumps({"event": "step_update", "step_update": value}),
            json.dumps(
                {"event": "step_update", "step_update": {"step_type": "tool", **_obj(value)}}
            ),
            json.dumps({"event": "result", "result": _obj(value)}),
            json.dumps({"event": "init", "init": value, "conversation_id": value}),
        ):
            for entry in parser.parse_line(line, TS):
                assert entry_problem(entry) is None, entry


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {"tool_info": value, "step_index": value}


def test_the_compliance_checks_pass() -> None:
    report = run_checks("agy_local", examples=200)
    failed = [
        f"{result.check}: {result.message}" for result in report.results if result.status == "fail"
    ]
    assert report.ok, failed
