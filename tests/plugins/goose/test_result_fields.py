"""Contract 1.5 on Goose's result entry: the ``complete`` event carries the run's tokens, cost
source and outcome, so the host's one fold gives the run summary's figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_goose
import pytest
from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_goose import create_stdout_parser, parse_stdout_line, summarize_run
from support import FOLDED_FIGURES, fold_disagreements

TS = "2026-01-01T00:00:00.000Z"
SAMPLE = Path(linewise_goose.__file__).parent / "samples" / "goose-stream-json-run.jsonl"


def _said(text: str, ident: str = "msg-1") -> str:
    message = {"id": ident, "role": "assistant", "content": [{"type": "text", "text": text}]}
    return json.dumps({"type": "message", "message": message})


def _complete(**fields: Any) -> str:
    event: dict[str, Any] = {
        "type": "complete",
        "total_tokens": 5640,
        "input_tokens": 5200,  # the whole prompt, cache reads and writes included
        "output_tokens": 440,
        "cache_read_input_tokens": 3000,
        "cache_write_input_tokens": 500,
    }
    event.update(fields)
    return json.dumps({k: v for k, v in event.items() if v is not None})


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    entries = [dict(entry) for line in lines for entry in parser.parse_line(line, TS)]
    assert all(entry_problem(entry) is None for entry in entries)  # type: ignore[arg-type]
    return entries


def _result(line: str) -> dict[str, Any]:
    (result,) = parse_stdout_line(line, TS)
    assert entry_problem(result) is None
    return dict(result)


def test_a_complete_event_carries_the_runs_tokens_and_its_outcome() -> None:
    result = _result(_complete())
    assert result["usage"] == {
        "uncachedInput": 5200 - 3000 - 500,
        "cacheRead": 3000,
        "cacheWrite": 500,
        "output": 440,
        "reasoning": None,  # not reported: unknown, not 0
    }
    assert (result["outcome"], result["costSource"]) == ("completed", None)
    for absent in ("sessionId", "turns", "modelUsage"):
        assert absent not in result
    assert (result["inputTokens"], result["cachedTokens"]) == (5200, 3000)  # the wire as before


def test_a_priced_run_says_its_cost_was_reported_zero_included() -> None:
    assert _result(_complete(cost_usd=0.0071))["costSource"] == "reported"
    assert _result(_complete(cost_usd=0))["costSource"] == "reported"


def test_a_complete_event_without_counts_has_no_usage() -> None:
    result = _result(json.dumps({"type": "complete", "total_tokens": None}))
    assert "usage" not in result and result["outcome"] == "completed"


def test_two_complete_events_add_up() -> None:
    fold = RunFold()
    fold.add_all(_entries([_said("a"), _complete(), _said("b", "msg-2"), _complete()]))  # type: ignore[arg-type]
    assert fold.token_usage.cache_read == 6000 and fold.token_usage.output == 880


RUNS = {
    "sample": [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()],
    "completed": [_said("Fixed it."), _complete()],
    "priced": [_said("Fixed it."), _complete(cost_usd=0.0071)],
    "no counts": [_said("hi"), json.dumps({"type": "complete", "total_tokens": None})],
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_summarize_run(name: str) -> None:
    # The summary lists the errors Goose reported and recovered from (a rate limit retried);
    # a result names only a failed run's: the errors stay the summary's.
    figures = [figure for figure in FOLDED_FIGURES if figure != "errors"]
    lines = RUNS[name]
    assert (
        fold_disagreements(create_stdout_parser, summarize_run, lines, ts=TS, figures=figures) == {}
    )
