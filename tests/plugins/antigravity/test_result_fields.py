"""Contracts 1.5 and 1.9 on Antigravity's result entry: the run's tokens (its steps' latest
usage, else the result's, the conversation's so far, named by its ``sessionId``), no cost,
the outcome and the result's turns. The host's one fold reads them and agrees with
``summarize_run``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_antigravity
from linewise.transcript.fold import RunFold
from linewise_antigravity import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_contracts import entry_problem
from linewise_contracts.summary import RunSummary

TS = "2026-01-01T00:00:00.000Z"
CONVERSATION = "8e2f4a10-6b3c-4d5e-9f70-1a2b3c4d5e6f"
SAMPLE = Path(linewise_antigravity.__file__).parent / "samples" / "agy-stream-json-run.jsonl"


def _init() -> str:
    return json.dumps(
        {"event": "init", "conversation_id": CONVERSATION, "init": {"model": "gemini-3-pro"}}
    )


def _usage(uncached: int, out: int, thinking: int, read: int) -> dict[str, int]:
    return {
        "input_tokens": uncached,
        "output_tokens": out,
        "thinking_tokens": thinking,
        "cache_read_tokens": read,
        "total_tokens": uncached + out,
    }


def _step(index: int, state: str, text: str, usage: dict[str, int] | None = None) -> str:
    step: dict[str, Any] = {
        "conversation_id": CONVERSATION,
        "step_index": index,
        "state": state,
        "step_type": "agent_response",
        "text_delta": text,
    }
    if usage is not None:
        step["usage"] = usage
    return json.dumps({"event": "step_update", "step_update": step})


def _result(status: str = "SUCCESS", usage: dict[str, int] | None = None, **more: Any) -> str:
    result: dict[str, Any] = {
        "conversation_id": CONVERSATION,
        "status": status,
        "response": "Done.",
        "num_turns": 1,
        **more,
    }
    if usage is not None:
        result["usage"] = usage
    return json.dumps({"event": "result", "result": result})


def _results(entries: list[Any]) -> list[dict[str, Any]]:
    found = [dict(entry) for entry in entries if entry["kind"] == "result"]
    assert all(entry_problem(entry) is None for entry in found)
    return found


def _parsed(lines: list[str]) -> list[Any]:
    parser = create_stdout_parser()
    return [entry for line in lines for entry in parser.parse_line(line, TS)]


def _agrees(lines: list[str], *, turns: bool = True) -> RunSummary:
    summary = summarize_run(lines)
    fold = RunFold()
    fold.add_all(_parsed(lines))
    ours = fold.to_summary()
    assert ours.token_usage == summary.token_usage
    assert ours.model_usage == summary.model_usage
    assert (ours.cost_usd, ours.cost_source) == (summary.cost_usd, summary.cost_source)
    assert ours.outcome == summary.outcome
    if turns:
        assert ours.turns == summary.turns
    assert ours.session_id == summary.session_id
    return summary


def test_the_runs_steps_give_its_own_tokens_without_a_session() -> None:
    lines = [
        _init(),
        _step(1, "ACTIVE", "Half ", _usage(100, 5, 0, 0)),
        _step(1, "DONE", "done.", _usage(4210, 61, 58, 0)),  # the step's latest counts, once
        _step(2, "DONE", "All done.", _usage(9876, 412, 233, 8192)),
        _result(usage=_usage(30000, 900, 500, 16000)),  # the conversation's: not the run's
    ]
    (result,) = _results(_parsed(lines))
    assert result["usage"] == {
        "uncachedInput": 4210 + 9876,
        "cacheRead": 8192,
        "cacheWrite": None,  # agy reports none: unknown, not 0
        "output": 61 + 412,
        "reasoning": 58 + 233,
    }
    assert "sessionId" not in result
    assert (result["costSource"], result["outcome"], result["turns"]) == (None, "completed", 1)
    assert (result["inputTokens"], result["costUsd"]) == (30000, 0)  # the wire as before
    _agrees(lines)


def test_without_step_usage_the_results_is_the_conversations_so_far() -> None:
    line = _result(usage=_usage(14190, 480, 291, 8192))
    (result,) = _results(parse_stdout_line(line, TS))
    assert result["sessionId"] == CONVERSATION
    assert result["usage"]["uncachedInput"] == 14190 and result["usage"]["reasoning"] == 291


def test_a_failed_run_says_failed_and_a_result_without_usage_carries_none() -> None:
    line = _result("ERROR", error={"message": "RESOURCE_EXHAUSTED: quota reached"})
    (result,) = _results(parse_stdout_line(line, TS))
    assert result["outcome"] == "failed" and result["isError"] is True
    assert "usage" not in result and "sessionId" not in result
    _agrees([_init(), line])


def test_two_runs_of_a_resumed_conversation_add_up_their_steps() -> None:
    first = [_init(), _step(1, "DONE", "One.", _usage(100, 10, 2, 0)), _result()]
    second = [_init(), _step(5, "DONE", "Two.", _usage(300, 20, 4, 50)), _result()]
    # The summary's turns are the last result's num_turns; each result carries its own, so
    # the fold adds them up (agy does not document whether a resumed run's num_turns counts
    # the conversation's earlier turns: a log of one run, the usual, agrees either way).
    summary = _agrees(first + second, turns=False)
    assert summary.token_usage.uncached_input == 400 and summary.turns == 1
    fold = RunFold()
    fold.add_all(_parsed(first + second))
    assert fold.turns == 2


def test_the_sample_run_agrees() -> None:
    _agrees(SAMPLE.read_text(encoding="utf-8").splitlines())
