"""Contracts 1.5 and 1.9 on Copilot's result entries: a session's shutdown and a live run's
result carry what the run summaries read (tokens, per model where named, no cost, the
outcome, the run's session), so the host's one fold gives the same figures."""

from __future__ import annotations

import json
from typing import Any

import pytest
from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_copilot.parser import create_stdout_parser as create_run_parser
from linewise_copilot.session import create_stdout_parser as create_session_parser
from linewise_copilot.session import summarize_run as summarize_session
from linewise_copilot.stdout import summarize_run as summarize_live_run
from support import summary_disagreements

TS = "2026-01-01T00:00:00.000Z"


def _event(kind: str, data: dict[str, Any] | None = None, **envelope: Any) -> str:
    event: dict[str, Any] = {"type": kind, "timestamp": "2026-06-03T09:00:00Z", **envelope}
    if data is not None:
        event["data"] = data
    return json.dumps(event)


START = _event("session.start", {"sessionId": "c0ffee-1", "selectedModel": "gpt-5.4"})
ASKED = _event("user.message", {"content": "fix the build"})
SAID = _event("assistant.message", {"messageId": "m-1", "content": "Fixed.", "toolRequests": []})
METRICS = {
    "gpt-5.4": {
        "requests": {"count": 3, "cost": 1},
        "usage": {
            "inputTokens": 4100,
            "outputTokens": 380,
            "cacheReadTokens": 2000,
            "cacheWriteTokens": 0,
            "reasoningTokens": 120,
        },
    },
    "claude-haiku-4.5": {"usage": {"inputTokens": 900, "outputTokens": 60}},
}


def _shutdown(kind: str = "routine", metrics: dict[str, Any] | None = None) -> str:
    data: dict[str, Any] = {"shutdownType": kind, "totalPremiumRequests": 1}
    if metrics is not None:
        data["modelMetrics"] = metrics
    return _event("session.shutdown", data)


def _entries(create: Any, lines: list[str]) -> list[dict[str, Any]]:
    parser = create()
    entries = [dict(entry) for line in lines for entry in parser.parse_line(line, TS)]
    assert all(entry_problem(entry) is None for entry in entries)  # type: ignore[arg-type]
    return entries


def _results(create: Any, lines: list[str]) -> list[dict[str, Any]]:
    return [entry for entry in _entries(create, lines) if entry["kind"] == "result"]


def test_a_shutdown_carries_its_tokens_per_model_no_cost_and_its_outcome() -> None:
    (result,) = _results(create_session_parser, [START, ASKED, SAID, _shutdown(metrics=METRICS)])
    assert result["modelUsage"] == {
        "gpt-5.4": {
            "uncachedInput": 4100,
            "cacheRead": 2000,
            "cacheWrite": 0,
            "output": 380,
            "reasoning": 120,
        },
        # Not reported for this model: unknown, never 0.
        "claude-haiku-4.5": {
            "uncachedInput": 900,
            "cacheRead": None,
            "cacheWrite": None,
            "output": 60,
            "reasoning": None,
        },
    }
    assert result["usage"] == {
        "uncachedInput": 5000,
        "cacheRead": 2000,
        "cacheWrite": 0,
        "output": 440,
        "reasoning": 120,
    }
    assert (result["costSource"], result["outcome"]) == (None, "completed")
    assert "sessionId" not in result and "turns" not in result


def test_a_shutdown_without_metrics_has_no_usage_and_an_unknown_type_no_outcome() -> None:
    (result,) = _results(create_session_parser, [START, _shutdown("other")])
    for absent in ("usage", "modelUsage", "outcome"):
        assert absent not in result
    (failed,) = _results(create_session_parser, [START, _shutdown("error")])
    assert failed["outcome"] == "failed"


def test_a_live_runs_result_carries_its_usage_outcome_and_session() -> None:
    usage = {"inputTokens": 10, "outputTokens": 2, "cacheReadTokens": 4}
    end = _event("result", sessionId="c0ffee-1", exitCode=1, usage=usage)
    (result,) = _results(create_run_parser, [START, SAID, end])
    assert result["usage"] == {
        "uncachedInput": 10,
        "cacheRead": 4,
        "cacheWrite": None,
        "output": 2,
        "reasoning": None,
    }
    assert (result["outcome"], result["sessionId"], result["costSource"]) == (
        "failed",
        "c0ffee-1",
        None,
    )
    assert "modelUsage" not in result  # the result names no model


def test_a_live_runs_shutdown_leaves_its_tokens_to_the_result() -> None:
    end = _event("result", sessionId="c0ffee-1", exitCode=0)
    shutdown, result = _results(create_run_parser, [START, SAID, _shutdown(metrics=METRICS), end])
    for absent in ("usage", "modelUsage", "outcome"):
        assert absent not in shutdown
    assert result["usage"]["uncachedInput"] == 5000
    assert set(result["modelUsage"]) == {"gpt-5.4", "claude-haiku-4.5"}
    assert result["outcome"] == "completed"


def test_a_resumed_sessions_shutdowns_add_up() -> None:
    lines = [START, SAID, _shutdown(metrics=METRICS), _event("session.resume", {}), SAID]
    lines.append(_shutdown(metrics=METRICS))
    fold = RunFold()
    fold.add_all(_entries(create_session_parser, lines))  # type: ignore[arg-type]
    assert fold.token_usage.uncached_input == 10000
    assert fold.model_usage["gpt-5.4"].output == 760


SESSIONS = {
    "routine": [START, ASKED, SAID, _shutdown(metrics=METRICS)],
    "error": [START, ASKED, _shutdown("error", METRICS)],
    "no metrics": [START, ASKED, SAID, _shutdown()],
    "resumed": [START, SAID, _shutdown(metrics=METRICS), SAID, _shutdown(metrics=METRICS)],
    # A start that names no model: the first record naming one does (a model change here).
    "model changed": [
        _event("session.start", {"sessionId": "c0ffee-1"}),
        _event("session.model_change", {"newModel": "claude-sonnet-4.6"}),
        SAID,
        _shutdown(metrics=METRICS),
    ],
}
RUNS = {
    "own usage": [
        START,
        SAID,
        _event("result", sessionId="c0ffee-1", exitCode=0, usage={"outputTokens": 9}),
    ],
    "shutdown tokens": [
        START,
        SAID,
        _shutdown(metrics=METRICS),
        _event("result", sessionId="c0ffee-1", exitCode=0),
    ],
    "both": [
        START,
        SAID,
        _shutdown(metrics=METRICS),
        _event("result", sessionId="c0ffee-1", exitCode=0, usage={"inputTokens": 5}),
    ],
    "failed": [START, SAID, _event("result", sessionId="other-id", exitCode=2)],
}


def _check(create: Any, summarize: Any, lines: list[str]) -> None:
    expected = summarize(lines)
    fold = RunFold()
    fold.add_all(_entries(create, lines))  # type: ignore[arg-type]
    assert summary_disagreements(fold.to_summary(), expected) == {}


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_the_host_fold_agrees_with_the_session_summary(name: str) -> None:
    _check(create_session_parser, summarize_session, SESSIONS[name])


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_the_live_run_summary(name: str) -> None:
    _check(create_run_parser, summarize_live_run, RUNS[name])


def test_a_live_run_without_its_result_keeps_the_summarys_cut_off() -> None:
    """No result entry: the entries say nothing of the ending, summarize_run says cut_off."""
    lines = [START, SAID]
    fold = RunFold()
    fold.add_all(_entries(create_run_parser, lines))  # type: ignore[arg-type]
    assert fold.summary(summarize_live_run(lines)).outcome == "cut_off"


def test_a_shutdown_names_the_model_where_the_start_named_none() -> None:
    (result,) = _results(create_session_parser, SESSIONS["model changed"])
    assert result["model"] == "claude-sonnet-4.6"
    (named,) = _results(create_session_parser, SESSIONS["routine"])
    assert "model" not in named  # the start named gpt-5.4: the init says it
