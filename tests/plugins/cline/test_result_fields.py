"""Contract 1.5 on Cline's result entry: the run_result carries the run's tokens, cost source,
outcome and task, so the host's one fold gives the run summary's figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_cline
import pytest
from linewise.transcript.fold import RunFold
from linewise_cline import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_contracts import entry_problem
from support import fold_disagreements

TS = "2026-01-01T00:00:00.000Z"
TASK = "conv_1800000000000_q1w2e"
SAMPLE = Path(linewise_cline.__file__).parent / "samples" / "cline-json-run.jsonl"


def _hook(name: str = "agent_start") -> str:
    return json.dumps(
        {"type": "hook_event", "hookEventName": name, "agentId": "agent_9", "taskId": TASK}
    )


def _text(text: str) -> str:
    event = {"type": "content_end", "contentType": "text", "text": text}
    return json.dumps({"type": "agent_event", "event": event})


def _step_usage(inputs: int, cost: float) -> str:
    event = {"type": "usage", "inputTokens": inputs, "outputTokens": 10, "cost": cost}
    return json.dumps({"type": "agent_event", "event": event})


AGGREGATE = {
    "inputTokens": 1800,
    "outputTokens": 410,
    "cacheReadTokens": 7000,
    "cacheWriteTokens": 300,
    "totalInputTokens": 9100,
    "totalCost": 0.0121,
}


def _run_result(reason: str = "completed", **fields: Any) -> str:
    event: dict[str, Any] = {
        "type": "run_result",
        "finishReason": reason,
        "iterations": 3,
        "aggregateUsage": AGGREGATE,
        "durationMs": 8000,
        "text": "Renamed the helper.",
        "model": {"id": "anthropic/claude-sonnet-4-6", "provider": "anthropic"},
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


def test_the_run_result_carries_the_runs_tokens_cost_outcome_and_task() -> None:
    result = _result([_hook(), _text("Renamed the helper."), _run_result()])
    assert result["usage"] == {
        "uncachedInput": 9100 - 7000 - 300,  # totalInputTokens less the cache
        "cacheRead": 7000,
        "cacheWrite": 300,
        "output": 410,
        "reasoning": None,  # not reported: unknown, not 0
    }
    assert (result["costSource"], result["outcome"], result["sessionId"]) == (
        "reported",
        "completed",
        TASK,
    )
    assert "turns" not in result and "modelUsage" not in result
    assert (result["inputTokens"], result["costUsd"]) == (1800, 0.0121)  # the wire, as before


def test_the_stateless_parser_cannot_know_the_task() -> None:
    (result,) = parse_stdout_line(_run_result(), TS)
    assert "sessionId" not in result and result["outcome"] == "completed"


@pytest.mark.parametrize(
    ("reason", "outcome"),
    [("completed", "completed"), ("error", "failed"), ("aborted", "interrupted"), ("odd", None)],
)
def test_the_finish_reason_is_the_outcome(reason: str, outcome: str | None) -> None:
    assert _result([_run_result(reason)]).get("outcome") == outcome


def test_a_result_without_a_usage_block_says_nothing_of_tokens_or_cost() -> None:
    result = _result([_run_result(aggregateUsage=None)])
    assert "usage" not in result and "costSource" not in result
    free = _result([_run_result(aggregateUsage={"outputTokens": 5})])
    assert free["costSource"] is None and free["usage"]["output"] == 5


RUNS = {
    "sample": [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()],
    "completed": [_hook(), _text("done"), _step_usage(10, 0.001), _run_result()],
    "error": [_hook(), _run_result("error", text="Unauthorized")],
    "aborted": [_hook(), _text("stop"), _run_result("aborted")],
    "no usage block": [_hook(), _step_usage(10, 0.001), _run_result(aggregateUsage=None)],
    "zero cost": [_hook(), _run_result(aggregateUsage={**AGGREGATE, "totalCost": 0})],
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_summarize_run(name: str) -> None:
    lines = RUNS[name]
    if name == "no usage block":
        # The summary sums the per-request usage events, which no entry carries: the merge
        # keeps its figures.
        expected = summarize_run(lines)
        fold = RunFold()
        fold.add_all(_entries(lines))  # type: ignore[arg-type]
        merged = fold.summary(expected)
        assert (merged.token_usage, merged.cost_usd) == (expected.token_usage, expected.cost_usd)
        return
    assert fold_disagreements(create_stdout_parser, summarize_run, lines, ts=TS) == {}
