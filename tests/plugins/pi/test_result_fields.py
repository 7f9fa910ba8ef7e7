"""Contracts 1.5 and 1.9 on Pi's result entry: ``agent_end`` carries its run's tokens, cost
source and outcome, so the host's one fold gives the run summary's figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_pi
import pytest
from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_pi import create_stdout_parser, parse_stdout_line, summarize_run
from support import fold_disagreements

TS = "2026-01-01T00:00:00.000Z"
SAMPLES = Path(linewise_pi.__file__).parent / "samples"


def _line(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields})


def _assistant(text: str, stop: str = "stop", cost: float | None = 0.0021, **fields: Any) -> dict:
    usage: dict[str, Any] = {"input": 900, "output": 60, "cacheRead": 2400, "cacheWrite": 300}
    if cost is not None:
        usage["cost"] = {"total": cost}
    message = {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "usage": usage,
        "stopReason": stop,
    }
    message.update(fields)
    return message


def _turn(message: dict[str, Any]) -> list[str]:
    return [
        _line("turn_start"),
        _line("message_start", message=message),
        _line("message_end", message=message),
        _line("turn_end", message=message, toolResults=[]),
    ]


def _run(*messages: dict[str, Any], before: list[str] | None = None) -> list[str]:
    lines = [_line("agent_start"), *(before or [])]
    for message in messages:
        lines += _turn(message)
    return [*lines, _line("agent_end", messages=list(messages))]


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    entries = [dict(entry) for line in lines for entry in parser.parse_line(line, TS)]
    assert all(entry_problem(entry) is None for entry in entries)  # type: ignore[arg-type]
    return entries


def _results(lines: list[str]) -> list[dict[str, Any]]:
    return [entry for entry in _entries(lines) if entry["kind"] == "result"]


def test_agent_end_carries_the_runs_tokens_cost_source_and_outcome() -> None:
    (result,) = _results(_run(_assistant("Looking."), _assistant("Three files.")))
    assert result["usage"] == {
        "uncachedInput": 1800,
        "cacheRead": 4800,
        "cacheWrite": 600,
        "output": 120,
        "reasoning": None,  # inside output, not reported apart: unknown, not 0
    }
    assert (result["costSource"], result["outcome"]) == ("reported", "completed")
    assert "turns" not in result  # Pi reports no count of turns (contract 1.9's field)
    assert "sessionId" not in result and "modelUsage" not in result


def test_a_lone_agent_end_knows_no_turns_but_its_messages() -> None:
    line = _line("agent_end", messages=[_assistant("Done.", cost=None)])
    (result,) = parse_stdout_line(line, TS)
    assert "turns" not in result and result["costSource"] is None
    assert result["outcome"] == "completed" and result["usage"]["output"] == 60


@pytest.mark.parametrize(
    ("stop", "outcome"),
    [("length", "max_tokens"), ("aborted", "interrupted"), ("error", "failed")],
)
def test_the_last_stop_reason_is_the_outcome(stop: str, outcome: str) -> None:
    (result,) = _results(_run(_assistant("x", stop, errorMessage="529 overloaded")))
    assert result["outcome"] == outcome


def test_a_failed_request_a_retry_answered_is_forgiven_an_error_event_is_not() -> None:
    failed = _assistant("", "error", errorMessage="529 overloaded")
    (retried,) = _results(_run(failed, _assistant("Answered.")))
    assert retried["outcome"] == "completed"
    error = _line("error", message="extension crashed")
    (broken,) = _results(_run(_assistant("Answered."), before=[error]))
    assert broken["outcome"] == "failed"


def test_two_runs_add_up() -> None:
    fold = RunFold()
    fold.add_all(_entries(_run(_assistant("a")) + _run(_assistant("b"))))  # type: ignore[arg-type]
    assert fold.token_usage.uncached_input == 1800 and fold.turns is None
    assert fold.cost_usd == pytest.approx(0.0042)


def _sample(name: str) -> list[str]:
    return [line for line in (SAMPLES / name).read_text(encoding="utf-8").splitlines() if line]


RUNS = {
    "sample run": _sample("pi-json-run.jsonl"),
    "sample retry": _sample("pi-json-retry-compaction.jsonl"),
    "one run": _run(_assistant("a"), _assistant("b")),
    "unpriced": _run(_assistant("a", cost=None)),
    "aborted": _run(_assistant("", "aborted")),
    "retried": _run(_assistant("", "error", errorMessage="429"), _assistant("ok")),
    "error event": _run(_assistant("ok"), before=[_line("error", message="boom")]),
    "two runs": _run(_assistant("a")) + _run(_assistant("b", "length")),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_summarize_run(name: str) -> None:
    assert fold_disagreements(create_stdout_parser, summarize_run, RUNS[name], ts=TS) == {}
