"""Contracts 1.5 and 1.9 on Qwen Code's result entries: a stream-json result carries its
session's tokens so far in Qwen's meaning (input with the cache reads taken out), per model,
no cost, its outcome, its session and its own turns; a saved chat's request result its own
tokens and model. The host's one fold reads them and agrees with ``summarize_run``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_contracts.summary import RunSummary
from linewise_qwen import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_qwen.session import create_stdout_parser as create_session_parser
from linewise_qwen.session import summarize_run as summarize_session
from support import summary_disagreements

TS = "2026-01-01T00:00:00.000Z"
SESSION = "4b9d2e61-7a3c-4f10-9e8d-2c5b6a7f8e90"


def _init() -> str:
    return json.dumps(
        {"type": "system", "subtype": "init", "session_id": SESSION, "model": "qwen3-coder-plus"}
    )


def _result(
    prompt: int, cached: int, out: int, turns: int, subtype: str = "success", **more: Any
) -> str:
    usage = {"input_tokens": prompt, "output_tokens": out, "cache_read_input_tokens": cached}
    models = {
        "qwen3-coder-plus": {
            "inputTokens": prompt,
            "outputTokens": out,
            "cacheReadInputTokens": cached,
            "cacheCreationInputTokens": 0,
        }
    }
    event = {
        "type": "result",
        "subtype": subtype,
        "uuid": f"r{turns}",
        "session_id": SESSION,
        "is_error": subtype != "success",
        "num_turns": turns,
        "result": "Done.",
        "usage": usage,
        "modelUsage": models,
        "permission_denials": [],
        **more,
    }
    return json.dumps(event)


def _results(entries: Iterable[Any]) -> list[dict[str, Any]]:
    found = [dict(entry) for entry in entries if entry["kind"] == "result"]
    assert all(entry_problem(entry) is None for entry in found)
    return found


def _parsed(lines: list[str], factory: Callable[[], Any] = create_stdout_parser) -> list[Any]:
    parser = factory()
    return [entry for line in lines for entry in parser.parse_line(line, TS)]


def _agrees(entries: list[Any], summary: RunSummary) -> None:
    fold = RunFold()
    fold.add_all(entries)
    assert summary_disagreements(fold.to_summary(), summary) == {}


def test_a_result_carries_its_sessions_tokens_in_qwens_meaning() -> None:
    (result,) = _results(_parsed([_init(), _result(15800, 12288, 74, 2)]))
    # Qwen's input_tokens 15,800 include the 12,288 cache reads.
    assert result["usage"] == {
        "uncachedInput": 3512,
        "cacheRead": 12288,
        "cacheWrite": None,  # not reported in usage: unknown, not 0
        "output": 74,
        "reasoning": None,
    }
    assert result["modelUsage"] == {
        "qwen3-coder-plus": {
            "uncachedInput": 3512,
            "cacheRead": 12288,
            "cacheWrite": 0,
            "output": 74,
            "reasoning": None,
        }
    }
    assert result["costSource"] is None and result["costUsd"] == 0  # Qwen reports no cost
    assert (result["outcome"], result["sessionId"], result["turns"]) == ("completed", SESSION, 2)
    assert (result["inputTokens"], result["cachedTokens"]) == (3512, 12288)  # 1.x as before


def test_the_stateless_line_gives_the_same_fields() -> None:
    line = _result(15800, 12288, 74, 2)
    assert _results(parse_stdout_line(line, TS)) == _results(
        create_stdout_parser().parse_line(line, TS)
    )


def test_a_limit_and_a_failure_say_their_outcome() -> None:
    (limit,) = _results(parse_stdout_line(_result(10, 0, 1, 5, "error_max_turns"), TS))
    assert limit["outcome"] == "max_turns"
    failed = json.dumps(
        {
            "type": "result",
            "subtype": "error_during_execution",
            "session_id": SESSION,
            "is_error": True,
            "error": {"message": "No API key configured for provider"},
        }
    )
    (result,) = _results(parse_stdout_line(failed, TS))
    assert result["outcome"] == "failed"
    assert not {"usage", "modelUsage", "turns"} & result.keys()
    _agrees(_parsed([_init(), failed]), summarize_run([_init(), failed]))


def test_a_result_naming_no_session_carries_no_running_total() -> None:
    line = json.dumps({"type": "result", "subtype": "success", "usage": {"input_tokens": 5}})
    (result,) = _results(parse_stdout_line(line, TS))
    assert not {"usage", "modelUsage", "sessionId"} & result.keys()
    assert result["outcome"] == "completed"


def test_two_prompts_of_one_session_the_latest_total_counts_and_turns_add_up() -> None:
    lines = [_init(), _result(1000, 0, 50, 2), _result(2600, 900, 120, 3)]
    summary = summarize_run(lines)
    _agrees(_parsed(lines), summary)
    assert summary.token_usage.uncached_input == 1700  # the second result's total
    assert summary.turns == 5


def test_the_fold_agrees_on_a_one_result_run() -> None:
    lines = [_init(), _result(15800, 12288, 74, 2)]
    _agrees(_parsed(lines), summarize_run(lines))


# -- saved chats -------------------------------------------------------------------------------


def _record(kind: str, **fields: Any) -> str:
    base = {"uuid": f"u-{kind}", "sessionId": SESSION, "timestamp": "2026-05-01T08:00:00Z"}
    return json.dumps({**base, "type": kind, **fields})


def _request(prompt: int, cached: int, out: int, thoughts: int, model: str = "") -> str:
    event: dict[str, Any] = {
        "event.name": "qwen-code.api_response",
        "input_token_count": prompt,
        "output_token_count": out,
        "cached_content_token_count": cached,
        "thoughts_token_count": thoughts,
        "status_code": 200,
    }
    if model:
        event["model"] = model
    return _record("system", subtype="ui_telemetry", systemPayload={"uiEvent": event})


def test_a_saved_request_carries_its_own_tokens_and_model_and_requests_add_up() -> None:
    lines = [
        _record("user", message={"parts": [{"text": "Explain the function."}]}),
        _request(2050, 0, 846, 846, model="qwen3:0.6b"),
        _record("assistant", model="qwen3:0.6b", message={"parts": [{"text": "It averages."}]}),
        _request(3000, 2000, 100, 0),  # names no model: the session's
    ]
    first, second = _results(_parsed(lines, create_session_parser))
    assert first["usage"] == {
        "uncachedInput": 2050,
        "cacheRead": 0,
        "cacheWrite": None,
        "output": 846,
        "reasoning": 846,
    }
    assert first["modelUsage"] == {"qwen3:0.6b": first["usage"]}
    assert list(second["modelUsage"]) == ["qwen3:0.6b"]
    assert first["model"] == second["model"] == "qwen3:0.6b"  # contract 1.10: the run's model
    assert all(r["costSource"] is None for r in (first, second))
    assert not {"sessionId", "outcome"} & (first.keys() | second.keys())
    summary = summarize_session(lines)
    fold = RunFold()
    fold.add_all(_parsed(lines, create_session_parser))
    assert fold.to_summary().token_usage == summary.token_usage
    assert fold.to_summary().model_usage == summary.model_usage
    assert fold.to_summary().model == summary.model == "qwen3:0.6b"
    assert summary.token_usage.uncached_input == 2050 + 1000
