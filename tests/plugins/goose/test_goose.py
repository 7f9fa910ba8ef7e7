"""goose_local: `goose run --output-format stream-json`, from the sample run and real fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_goose
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from linewise_goose import (
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

RUN = Path(linewise_goose.__file__).parent / "samples" / "goose-stream-json-run.jsonl"
FIXTURES = ("field-samples", "goose", "goose-stream-json-integrator-fixtures.jsonl")


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_sample_run_pairs_every_tool_request_with_its_response() -> None:
    entries = parse_flat(create_stdout_parser, _lines(RUN), ts=HOST_TS)
    assert unpaired(entries) == set()
    results = [e for e in entries if e["kind"] == "tool_result"]
    assert [(e["toolName"], e["isError"]) for e in results] == [
        ("developer__shell", False),
        ("developer__text_editor", True),
        ("developer__shell", False),
    ]
    assert results[1]["content"] == "old_str appears 2 times in the file"
    streamed = [e["text"] for e in entries if e["kind"] == "assistant" and e.get("delta")]
    assert streamed[:2] == ["Running the invoice ", "tests first."]
    # a message's own time (epoch seconds)
    assert entries[1]["ts"] == "2026-12-01T10:00:00.000Z"
    assert not [e for e in entries if e["kind"] == "stdout"]


def test_goose_folds_the_cache_into_input_so_uncached_input_is_what_remains() -> None:
    summary = summarize_run(_lines(RUN))
    assert summary.token_usage == TokenUsage(
        uncached_input=51712 - 40960 - 5120, cache_read=40960, cache_write=5120, output=768
    )
    assert (summary.cost_usd, summary.cost_source) == (0.0441, "reported")
    assert (summary.outcome, summary.complete, summary.is_error) == ("completed", True, False)
    assert summary.model == "claude-sonnet-4-6"
    assert (
        summary.final_text == "Totals now round half up (10.005 -> 10.01); both invoice tests pass."
    )
    assert summary.errors == ("rate limited, retrying in 2s",)  # recovered: not a failure


def test_the_real_fixtures_render_auto_detected_with_no_raw_json() -> None:
    path = corpus_path(*FIXTURES)
    stderr, entries = render(path)
    assert "detected goose_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _lines(path), ts=HOST_TS
    )
    summary = summarize_run(_lines(path))
    # the first complete reports tokens without cache fields; the second, nothing
    assert summary.token_usage == TokenUsage(uncached_input=1000, output=234)
    assert summary.cost_usd is None


def test_a_run_without_complete_is_failed_with_errors_and_cut_off_without() -> None:
    lines = _lines(RUN)[:-1]
    assert summarize_run(lines).outcome == "failed"
    assert summarize_run([line for line in lines if '"error"' not in line]).outcome == "cut_off"


@pytest.mark.parametrize(
    "lines",
    [
        [],
        [
            '{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"x"}]}}'
        ],
        ['{"type":"message","timestamp":"2026","message":{"role":"user","content":[]}}'],  # Droid
        ['{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use"}]}}'],
        ['{"type":"result","subtype":"success"}'],
    ],
)
def test_what_is_not_goose_scores_zero(lines: list[str]) -> None:
    assert sniff(lines) == 0.0


def test_every_real_log_and_session_of_another_cli_scores_zero() -> None:
    paths = real_corpus_files()
    first = {path: _lines(path)[:40] for path in paths}
    assert {path.name: sniff(lines) for path, lines in first.items() if sniff(lines)} == {}


@given(st.lists(json_values, max_size=6))
def test_never_raises_on_hostile_events(values: list[Any]) -> None:
    parser = create_stdout_parser()
    for value in values:
        body = value if isinstance(value, dict) else {"x": value}
        lines = [
            json.dumps({"type": "message", "message": {"role": "assistant", "content": [body]}}),
            json.dumps(
                {
                    "type": "message",
                    "message": {"id": 1, "content": [{**body, "type": "toolResponse"}]},
                }
            ),
            json.dumps({**body, "type": "complete"}),
            json.dumps({**body, "type": "notification"}),
        ]
        for line in lines:
            for entry in parser.parse_line(line, HOST_TS):
                assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("goose_local", examples=200)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]


def test_the_environment_check_finds_the_cli(tmp_path: Path) -> None:
    fake_executable(tmp_path, "goose")
    assert check_levels(check_environment({"PATH": str(tmp_path)})) == {
        "goose_command_found": "info"
    }
    assert check_levels(check_environment({"PATH": str(tmp_path / "x")})) == {
        "goose_command_missing": "error"
    }
