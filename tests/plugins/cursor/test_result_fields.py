"""Contracts 1.5 and 1.9 on Cursor's result entries: each carries what the run summary reads
from it (its own tokens, cost source and outcome), so the host's one fold gives the summary."""

from __future__ import annotations

import json
from typing import Any

import pytest
from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_cursor import create_stdout_parser, parse_stdout_line, summarize_run
from support import fold_disagreements

TS = "2026-01-01T00:00:00.000Z"
SESSION = "0b7d1c2e-5a41-4f3e-9c1d-2a6e8f0b9d11"
_ABSENT = object()


def _line(**event: Any) -> str:
    return json.dumps({k: v for k, v in event.items() if v is not _ABSENT})


def _init() -> str:
    return _line(type="system", subtype="init", session_id=SESSION, model="gpt-5", cwd="/repo")


def _assistant(text: str) -> str:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return _line(type="assistant", message=message, session_id=SESSION)


def _result(**fields: Any) -> str:
    event: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "duration_ms": 4100,
        "is_error": False,
        "result": "Tests pass.",
        "session_id": SESSION,
        "request_id": "req-1",
        # cursor-agent 2026.08: four disjoint counts.
        "usage": {
            "inputTokens": 5120,
            "outputTokens": 212,
            "cacheReadTokens": 12000,
            "cacheWriteTokens": 640,
        },
    }
    event.update(fields)
    return _line(**event)


def _results(line: str) -> list[dict[str, Any]]:
    """The result entry of a line from both parsers (they agree), valid by the contract."""
    found = []
    for entries in (parse_stdout_line(line, TS), create_stdout_parser().parse_line(line, TS)):
        (result,) = [entry for entry in entries if entry["kind"] == "result"]
        assert entry_problem(result) is None
        found.append(dict(result))
    assert found[0] == found[1]
    return found


def _fold(lines: list[str]) -> RunFold:
    parser = create_stdout_parser()
    fold = RunFold()
    for line in lines:
        entries = parser.parse_line(line, TS)
        assert all(entry_problem(entry) is None for entry in entries)
        fold.add_all(entries)
    return fold


def test_a_2026_08_result_carries_its_tokens_no_cost_and_its_outcome() -> None:
    (result, _) = _results(_result())
    assert result["usage"] == {
        "uncachedInput": 5120,
        "cacheRead": 12000,
        "cacheWrite": 640,
        "output": 212,
        "reasoning": None,  # cursor-agent does not report it: unknown, not 0
    }
    assert result["costSource"] is None  # no cost reported: costUsd 0 is not one
    assert result["outcome"] == "completed"
    # Each result's own figures (they add up), no turn count, no model named with tokens.
    for absent in ("sessionId", "turns", "modelUsage"):
        assert absent not in result
    # The wire counts are as before.
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (
        5120,
        212,
        12000,
    )


def test_a_result_without_usage_has_unknown_tokens_not_zero() -> None:
    (result, _) = _results(_result(usage=_ABSENT))
    assert "usage" not in result
    (partial, _) = _results(_result(usage={"outputTokens": 7}))
    assert partial["usage"] == {
        "uncachedInput": None,
        "cacheRead": None,
        "cacheWrite": None,
        "output": 7,
        "reasoning": None,
    }


@pytest.mark.parametrize(
    ("fields", "source"),
    [({"total_cost_usd": 0.25}, "reported"), ({"cost_usd": 0}, "reported"), ({}, None)],
)
def test_a_reported_cost_zero_included_says_so(fields: dict[str, Any], source: str | None) -> None:
    (result, _) = _results(_result(**fields))
    assert result["costSource"] == source


@pytest.mark.parametrize(
    ("fields", "outcome"),
    [
        ({"subtype": "error", "is_error": True, "error": "model unavailable"}, "failed"),
        ({"subtype": "success", "is_error": True}, "failed"),
        ({"subtype": "failed"}, "failed"),
    ],
)
def test_a_failed_result_says_failed(fields: dict[str, Any], outcome: str) -> None:
    (result, _) = _results(_result(**fields))
    assert result["outcome"] == outcome


def test_a_result_that_names_no_ending_gives_no_outcome() -> None:
    (result, _) = _results(_line(type="result", result="done"))
    assert "outcome" not in result and result["costSource"] is None


def test_a_cloud_result_says_its_outcome_and_no_tokens_or_cost() -> None:
    (finished, _) = _results(_line(type="cursor_cloud.result", status="finished", result="ok"))
    assert finished["outcome"] == "completed" and finished["costSource"] is None
    assert "usage" not in finished
    (expired, _) = _results(_line(type="cursor_cloud.result", status="expired"))
    assert expired["outcome"] == "failed"


def test_an_older_builds_step_finish_carries_its_tokens_and_cost_but_no_outcome() -> None:
    line = _line(
        type="step_finish",
        part={
            "reason": "stop",
            "cost": 0.0031,
            "tokens": {"input": 900, "output": 40, "reasoning": 8, "cache": {"read": 2000}},
        },
    )
    (step, _) = _results(line)
    assert step["usage"] == {
        "uncachedInput": 900,
        "cacheRead": 2000,
        "cacheWrite": None,
        "output": 40,
        "reasoning": 8,
    }
    assert step["costSource"] == "reported" and "outcome" not in step


def test_two_results_add_up_in_the_fold() -> None:
    lines = [_init(), _assistant("one"), _result(), _assistant("two"), _result()]
    fold = _fold(lines)
    usage = fold.token_usage
    assert (usage.uncached_input, usage.cache_read, usage.cache_write, usage.output) == (
        10240,
        24000,
        1280,
        424,
    )
    assert usage.reasoning is None


RUNS = {
    "one result": [_init(), _assistant("Running the tests."), _result()],
    "two results": [_init(), _assistant("a"), _result(), _init(), _assistant("b"), _result()],
    "paid results": [_init(), _result(total_cost_usd=0.25), _result(total_cost_usd=0)],
    "failed": [_init(), _result(subtype="error", is_error=True, error="quota", usage=_ABSENT)],
    "no usage": [_init(), _assistant("hi"), _result(usage=_ABSENT)],
    "cut off": [_init(), _assistant("a"), _result(), _assistant("still going")],
    "cloud": [
        _line(type="cursor_cloud.init", sessionId="bc-1", model="composer"),
        _line(type="cursor_cloud.result", status="finished", result="PR opened"),
    ],
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_summarize_run(name: str) -> None:
    assert fold_disagreements(create_stdout_parser, summarize_run, RUNS[name], ts=TS) == {}
