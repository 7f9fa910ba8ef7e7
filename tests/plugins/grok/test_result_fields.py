"""Contracts 1.5 and 1.9 on Grok's result entry: an ``end`` carries the run's tokens, cost
source, turns and outcome, so the host's one fold gives the run summary's figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_grok
import pytest
from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_grok import create_stdout_parser, parse_stdout_line, summarize_run
from support import FOLDED_FIGURES, fold_disagreements

TS = "2026-01-01T00:00:00.000Z"
SESSION = "01a2b3c4-0000-7000-8000-00000000cafe"
SAMPLE = Path(linewise_grok.__file__).parent / "samples" / "grok-1.0-tool-run.jsonl"
TEXT = json.dumps({"type": "text", "data": "All tests pass."})
USAGE = {
    "input_tokens": 1200,
    "output_tokens": 90,
    "cache_read_input_tokens": 800,
    "cache_creation_input_tokens": 50,
    "reasoning_tokens": 30,
}


def _usage_event(inputs: int) -> str:
    return json.dumps({"type": "usage", "usage": {"input_tokens": inputs, "output_tokens": 5}})


def _end(**fields: Any) -> str:
    event: dict[str, Any] = {
        "type": "end",
        "stopReason": "end_turn",
        "sessionId": SESSION,
        "usage": USAGE,
        "num_turns": 2,
        "total_cost_usd": 0.0061,
    }
    event.update(fields)
    return json.dumps({k: v for k, v in event.items() if v is not None})


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    entries = [dict(entry) for line in lines for entry in parser.parse_line(line, TS)]
    assert all(entry_problem(entry) is None for entry in entries)  # type: ignore[arg-type]
    return entries


def _result(lines: list[str]) -> dict[str, Any]:
    (result,) = [entry for entry in _entries(lines) if entry["kind"] == "result"]
    return result


def test_an_end_carries_its_tokens_cost_source_turns_and_outcome() -> None:
    result = _result([TEXT, _end()])
    assert result["usage"] == {
        "uncachedInput": 1200,
        "cacheRead": 800,
        "cacheWrite": 50,
        "output": 90,
        "reasoning": 30,
    }
    assert (result["costSource"], result["turns"], result["outcome"]) == (
        "reported",
        2,
        "completed",
    )
    assert "sessionId" not in result and "modelUsage" not in result
    (stateless,) = [e for e in parse_stdout_line(_end(), TS) if e["kind"] == "result"]
    assert {**stateless, "text": result["text"]} == result


def test_unknown_counts_are_null_and_a_missing_cost_says_so() -> None:
    result = _result([_end(usage={"input_tokens": 10}, total_cost_usd=None, num_turns=None)])
    assert result["usage"] == {
        "uncachedInput": 10,
        "cacheRead": None,
        "cacheWrite": None,
        "output": None,
        "reasoning": None,
    }
    assert result["costSource"] is None and "turns" not in result


def test_an_end_without_usage_takes_its_responses_usage_events() -> None:
    result = _result([_usage_event(300), _usage_event(200), TEXT, _end(usage=None)])
    assert result["usage"]["uncachedInput"] == 500 and result["usage"]["output"] == 10


@pytest.mark.parametrize(
    ("before", "stop", "outcome"),
    [
        ([], "max_tokens", "max_tokens"),
        ([], "refusal", "refused"),
        ([], "cancelled", "interrupted"),
        ([], "EndTurn", "completed"),
        ([json.dumps({"type": "error", "message": "upstream 500"})], "end_turn", "failed"),
        ([json.dumps({"type": "max_turns_reached", "maxTurns": 5})], "end_turn", "max_turns"),
    ],
)
def test_the_outcome(before: list[str], stop: str, outcome: str) -> None:
    assert _result([*before, TEXT, _end(stopReason=stop)])["outcome"] == outcome


def test_an_error_of_an_earlier_run_does_not_fail_the_next() -> None:
    error = json.dumps({"type": "error", "message": "upstream 500"})
    entries = _entries([error, _end(), TEXT, _end()])
    outcomes = [entry["outcome"] for entry in entries if entry["kind"] == "result"]
    assert outcomes == ["failed", "completed"]


def test_concatenated_runs_add_up() -> None:
    fold = RunFold()
    fold.add_all(_entries([TEXT, _end(), TEXT, _end()]))  # type: ignore[arg-type]
    assert fold.token_usage.uncached_input == 2400 and fold.turns == 4
    assert fold.cost_usd == pytest.approx(0.0122)


RUNS = {
    "sample": [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()],
    "one run": [TEXT, _end()],
    "two runs": [TEXT, _end(), TEXT, _end(stopReason="max_tokens")],
    "responses only": [_usage_event(300), TEXT, _end(usage=None)],
    "error": [json.dumps({"type": "error", "message": "boom"}), TEXT, _end()],
    "max turns": [json.dumps({"type": "max_turns_reached"}), TEXT, _end()],
    "unpriced": [TEXT, _end(total_cost_usd=None)],
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_summarize_run(name: str) -> None:
    # The session id is only in the `end` event, and its result names none (runs add up):
    # it stays the summary's.
    figures = [figure for figure in FOLDED_FIGURES if figure != "session_id"]
    lines = RUNS[name]
    assert (
        fold_disagreements(create_stdout_parser, summarize_run, lines, ts=TS, figures=figures) == {}
    )
