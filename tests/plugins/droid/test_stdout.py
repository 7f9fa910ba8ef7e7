"""droid_local: `droid exec -o stream-json`, from the sample run, real captures and edge cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_droid
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from linewise_droid import (
    check_environment,
    create_stdout_parser,
    parse_stdout_line,
    sniff,
    summarize_run,
)
from session_checks import HOST_TS, real_corpus_files, render, unpaired
from support import (
    assert_valid_and_deterministic,
    check_levels,
    corpus_path,
    fake_executable,
    json_values,
    parse_flat,
)

RUN = Path(linewise_droid.__file__).parent / "samples" / "droid-exec-stream-json-run.jsonl"
STREAMS = ("droid-exec-stream-json-go-test.jsonl", "droid-exec-stream-json-captured-ts-test.jsonl")


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_sample_run_reads_as_the_run_it_was() -> None:
    entries = parse_flat(create_stdout_parser, _lines(RUN), ts=HOST_TS)
    assert entries[0]["kind"] == "init"
    assert (entries[0]["model"], entries[0]["cwd"]) == (
        "claude-sonnet-4-6",
        "/home/ana/src/billing",
    )
    assert [entry["kind"] for entry in entries[2:4]] == ["user", "thinking"]
    assert unpaired(entries) == set()
    failed = [entry for entry in entries if entry["kind"] == "tool_result" and entry["isError"]]
    assert [(entry["toolName"], entry["content"][:32]) for entry in failed] == [
        ("Edit", "TOOL_ERROR: old_string appears 2")
    ]
    # every event's own time: epoch milliseconds
    assert entries[2]["ts"] == "2025-12-01T10:00:00.000Z"
    assert all(entry["ts"] != HOST_TS for entry in entries[2:])
    result = entries[-1]
    assert result["kind"] == "result" and result["isError"] is False
    assert (result["inputTokens"], result["cachedTokens"], result["outputTokens"]) == (
        1834,
        40960,
        612,
    )


def test_a_result_without_an_id_answers_the_oldest_open_call() -> None:
    lines = [
        json.dumps({"type": "tool_call", "id": "a", "toolName": "Read", "parameters": {}}),
        json.dumps({"type": "tool_call", "id": "b", "toolName": "LS", "parameters": {}}),
        json.dumps({"type": "tool_result", "toolId": "Read", "isError": False, "value": "x"}),
        json.dumps({"type": "tool_result", "id": "b", "toolId": "LS", "value": ["f"]}),
    ]
    entries = parse_flat(create_stdout_parser, lines, ts=HOST_TS)
    results = [(e["toolUseId"], e["toolName"]) for e in entries if e["kind"] == "tool_result"]
    assert results == [("a", "Read"), ("b", "LS")]
    assert json.loads(entries[-1]["content"]) == ["f"]


def test_errors_are_stderr_whatever_their_shape() -> None:
    lines = [
        '{"type":"error","source":"api","message":"model unavailable","timestamp":1762517064000}',
        '{"level":"error","error":{"name":"FetchError","message":"socket hang up"}}',
    ]
    entries = parse_flat(create_stdout_parser, lines, ts=HOST_TS)
    assert [(entry["kind"], entry["text"]) for entry in entries] == [
        ("stderr", "api: model unavailable"),
        ("stderr", "FetchError: socket hang up"),
    ]


def test_a_session_files_record_is_left_to_the_session_type() -> None:
    line = '{"type":"message","message":{"role":"user","content":"hi"}}'
    assert parse_stdout_line(line, HOST_TS) == [{"kind": "stdout", "ts": HOST_TS, "text": line}]


@pytest.mark.parametrize("name", STREAMS)
def test_real_captures_render_auto_detected_with_no_raw_json_and_paired_calls(name: str) -> None:
    path = corpus_path("field-samples", "droid", name)
    stderr, entries = render(path)
    assert "detected droid_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert unpaired(entries) == set()
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _lines(path), ts=HOST_TS
    )


def test_the_summary_maps_droids_usage_into_the_vocabulary() -> None:
    summary = summarize_run(_lines(RUN))
    assert summary.token_usage == TokenUsage(
        uncached_input=1834, cache_read=40960, cache_write=5120, output=612, reasoning=None
    )
    assert (summary.outcome, summary.complete, summary.turns) == ("completed", True, 5)
    assert summary.cost_usd is None and summary.cost_source is None
    assert (
        summary.final_text == "Totals now round half up (10.005 -> 10.01); both invoice tests pass."
    )
    assert summary.details["failedToolCalls"] == 1
    go = summarize_run(_lines(corpus_path("field-samples", "droid", STREAMS[0])))
    assert go.token_usage == TokenUsage(uncached_input=10, cache_read=4, cache_write=2, output=3)
    assert go.errors == ("model unavailable",)


def test_a_run_cut_off_before_its_completion_says_so() -> None:
    summary = summarize_run(_lines(RUN)[:-1])
    assert (summary.outcome, summary.complete) == ("cut_off", False)
    assert summary.token_usage.is_empty
    assert summary.final_text and summary.final_text.startswith("Totals now round")


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ['{"type":"system","subtype":"init","session_id":"s","model":"m"}'],  # Claude writes it too
        ['{"type":"assistant","message":{"content":[]}}'],
        ['{"type":"tool_call","subtype":"started","call_id":"c","tool_call":{}}'],  # Cursor
        ['{"type":"message","role":"assistant","text":"x","message":{}}'],
    ],
)
def test_what_is_not_a_droid_stream_scores_zero(lines: list[str]) -> None:
    assert sniff(lines) == 0.0


def test_every_real_log_and_session_of_another_cli_scores_zero() -> None:
    paths = real_corpus_files()
    first = {path: _lines(path)[:40] for path in paths}
    assert {path.name: sniff(lines) for path, lines in first.items() if sniff(lines)} == {}


@given(st.lists(json_values, max_size=6))
def test_never_raises_on_hostile_events(values: list[Any]) -> None:
    parser = create_stdout_parser()
    for value in values:
        for kind in ("message", "tool_call", "tool_result", "completion", "system", "error"):
            body = value if isinstance(value, dict) else {"value": value, "id": value}
            for entry in parser.parse_line(json.dumps({**body, "type": kind}), HOST_TS):
                assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("droid_local", examples=200)
    failed = [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]
    assert report.ok, failed


def test_the_environment_check_names_the_key_but_never_its_value(tmp_path: Path) -> None:
    fake_executable(tmp_path, "droid")
    environ = {"PATH": str(tmp_path), "FACTORY_API_KEY": "fk-secret-value"}
    assert check_levels(check_environment(environ)) == {
        "droid_command_found": "info",
        "droid_api_key_present": "info",
    }
    assert "fk-secret-value" not in str([check.to_json() for check in check_environment(environ)])
    assert check_levels(check_environment({"PATH": str(tmp_path / "none")})) == {
        "droid_command_missing": "error",
        "droid_api_key_missing": "warn",
    }
