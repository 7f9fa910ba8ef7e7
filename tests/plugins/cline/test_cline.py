"""cline_local: `cline --json`, from the sample run, a minimized 3.0.52 stream and a real failure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_cline
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_cline import (
    check_environment,
    create_stdout_parser,
    parse_stdout_line,
    sniff,
    summarize_run,
)
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from session_checks import HOST_TS, real_corpus_files, render, unpaired
from support import (
    assert_valid_and_deterministic,
    check_levels,
    corpus_path,
    fake_executable,
    json_values,
    parse_flat,
)

RUN = Path(linewise_cline.__file__).parent / "samples" / "cline-json-run.jsonl"
REAL = ("cline-3.0.52-json-minimized.jsonl", "cline-real-json-run-error.jsonl")


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_sample_run_shows_each_text_once_and_a_failed_command_fails_its_call() -> None:
    entries = parse_flat(create_stdout_parser, _lines(RUN), ts=HOST_TS)
    assert unpaired(entries) == set()
    texts = [entry["text"] for entry in entries if entry["kind"] == "assistant"]
    assert texts == [
        "Running the invoice tests first.",
        "Totals now round half up (10.005 -> 10.01); both invoice tests pass.",
    ]
    results = [(e["toolName"], e["isError"]) for e in entries if e["kind"] == "tool_result"]
    assert results == [("run_commands", True), ("replace_in_file", False), ("run_commands", False)]
    assert [entry["kind"] for entry in entries].count("thinking") == 1
    assert all(entry["ts"] != HOST_TS for entry in entries)


def test_the_whole_runs_usage_and_cost_come_from_the_run_result() -> None:
    summary = summarize_run(_lines(RUN))
    assert summary.token_usage == TokenUsage(
        uncached_input=13012 - 10240, cache_read=10240, cache_write=0, output=237
    )
    assert (summary.cost_usd, summary.cost_source) == (0.0039, "reported")
    assert (summary.outcome, summary.model, summary.session_id) == (
        "completed",
        "anthropic/claude-sonnet-4-6",
        "conv_1796119200010_a7x2p",
    )
    assert summary.details["toolCalls"] == 3


def test_a_real_failed_run_is_failed_with_its_reason_and_the_usage_it_reported() -> None:
    summary = summarize_run(_lines(corpus_path("field-samples", "cline", REAL[1])))
    assert summary.outcome == "failed" and summary.is_error
    assert "Unauthorized" in summary.errors
    assert summary.token_usage == TokenUsage(
        uncached_input=6901 - 241, cache_read=241, cache_write=0, output=83, reasoning=136
    )


def test_an_aborted_run_is_interrupted_not_failed() -> None:
    line = json.dumps({"type": "run_result", "finishReason": "aborted", "text": ""})
    summary = summarize_run([line])
    assert (summary.outcome, summary.is_error) == ("interrupted", False)
    assert parse_stdout_line(line, HOST_TS)[0]["isError"] is False


@pytest.mark.parametrize("name", REAL)
def test_real_streams_render_auto_detected_with_no_raw_json(name: str) -> None:
    path = corpus_path("field-samples", "cline", name)
    stderr, entries = render(path)
    assert "detected cline_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert unpaired(entries) == set()
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _lines(path), ts=HOST_TS
    )


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ['{"type":"error","message":"x"}'],
        ['{"type":"agent_event","event":"x"}'],
        ['{"type":"assistant","message":{}}'],
    ],
)
def test_what_is_not_cline_scores_zero(lines: list[str]) -> None:
    assert sniff(lines) == 0.0


def test_every_real_log_and_session_of_another_cli_scores_zero() -> None:
    paths = real_corpus_files()
    first = {path: _lines(path)[:40] for path in paths}
    assert {path.name: sniff(lines) for path, lines in first.items() if sniff(lines)} == {}


@given(st.lists(json_values, max_size=6))
def test_never_raises_on_hostile_events(values: list[Any]) -> None:
    parser = create_stdout_parser()
    for value in values:
        body = value if isinstance(value, dict) else {"output": value, "text": value}
        lines = [
            json.dumps({"type": "agent_event", "event": {**body, "type": "content_end"}}),
            json.dumps({"type": "agent_event", "event": {**body, "contentType": "tool"}}),
            json.dumps({**body, "type": "run_result"}),
            json.dumps({**body, "type": "hook_event"}),
        ]
        for line in lines:
            for entry in parser.parse_line(line, HOST_TS):
                assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("cline_local", examples=200)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]


def test_the_environment_check_finds_the_cli(tmp_path: Path) -> None:
    fake_executable(tmp_path, "cline")
    assert check_levels(check_environment({"PATH": str(tmp_path)})) == {
        "cline_command_found": "info"
    }
