"""Contracts 1.5 and 1.9 on Droid's result entry: a ``droid exec`` completion carries its
tokens, cost source, outcome and turns, so the host's one fold gives the run summary's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_droid
import pytest
from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_droid import create_stdout_parser, parse_stdout_line, summarize_run
from support import fold_disagreements

TS = "2026-01-01T00:00:00.000Z"
SESSION = "7f3a9c01"
SAMPLE = Path(linewise_droid.__file__).parent / "samples" / "droid-exec-stream-json-run.jsonl"

INIT = json.dumps({"type": "system", "subtype": "init", "session_id": SESSION, "model": "gpt-5"})
SAID = json.dumps(
    {"type": "message", "role": "assistant", "id": "m1", "text": "Done.", "session_id": SESSION}
)
USAGE = {
    "input_tokens": 3100,
    "output_tokens": 220,
    "cache_read_input_tokens": 15000,
    "cache_creation_input_tokens": 400,
}


def _completion(**fields: Any) -> str:
    event: dict[str, Any] = {
        "type": "completion",
        "finalText": "Done.",
        "numTurns": 3,
        "durationMs": 5400,
        "session_id": SESSION,
        "usage": USAGE,
    }
    event.update(fields)
    return json.dumps({k: v for k, v in event.items() if v is not None})


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    entries = [dict(entry) for line in lines for entry in parser.parse_line(line, TS)]
    assert all(entry_problem(entry) is None for entry in entries)  # type: ignore[arg-type]
    return entries


def _result(line: str) -> dict[str, Any]:
    (result,) = [entry for entry in _entries([line]) if entry["kind"] == "result"]
    (stateless,) = [entry for entry in parse_stdout_line(line, TS) if entry["kind"] == "result"]
    assert stateless == result
    return result


def test_a_completion_carries_its_tokens_turns_and_outcome_and_no_cost() -> None:
    result = _result(_completion())
    assert result["usage"] == {
        "uncachedInput": 3100,
        "cacheRead": 15000,
        "cacheWrite": 400,
        "output": 220,
        "reasoning": None,  # not reported: unknown, not 0
    }
    assert (result["turns"], result["outcome"], result["costSource"]) == (3, "completed", None)
    assert "sessionId" not in result and "modelUsage" not in result
    assert (result["inputTokens"], result["cachedTokens"]) == (3100, 15000)  # the wire as before


def test_a_failed_completion_and_a_reported_cost() -> None:
    failed = _result(_completion(is_error=True, error={"message": "model unavailable"}))
    assert failed["outcome"] == "failed"
    paid = _result(_completion(total_cost_usd=0))
    assert paid["costSource"] == "reported"  # 0 is a cost the CLI reported


def test_a_completion_without_usage_or_turns_says_neither() -> None:
    result = _result(_completion(usage=None, numTurns=None))
    assert "usage" not in result and "turns" not in result


def test_two_completions_add_up() -> None:
    fold = RunFold()
    fold.add_all(_entries([INIT, SAID, _completion(), SAID, _completion()]))  # type: ignore[arg-type]
    assert fold.token_usage.uncached_input == 6200 and fold.turns == 6


RUNS = {
    "sample": [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()],
    "completed": [INIT, SAID, _completion()],
    "failed": [INIT, _completion(is_error=True, usage=None, finalText=None)],
    "paid": [INIT, SAID, _completion(total_cost_usd=0.034)],
    "no usage": [INIT, SAID, _completion(usage=None, numTurns=None)],
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_summarize_run(name: str) -> None:
    assert fold_disagreements(create_stdout_parser, summarize_run, RUNS[name], ts=TS) == {}
