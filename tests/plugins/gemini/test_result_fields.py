"""Contracts 1.5 and 1.9 on Gemini's result entries (stream-json and saved chats): a result
carries its run's own tokens in the usage vocabulary (per model where Gemini names them), no
cost unless a wrapper wrote one, and its outcome; results add up. The host's one fold reads
them and gives the summary ``summarize_run`` gives."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_contracts.summary import RunSummary
from linewise_gemini import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_gemini.session import create_stdout_parser as create_session_parser
from linewise_gemini.session import summarize_run as summarize_session
from support import summary_disagreements

TS = "2026-01-01T00:00:00.000Z"
SESSION = "7f1c9b52-3c1e-4a8e-9d0b-5b2f0c6a1e11"


def _line(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, "timestamp": "2026-05-01T08:00:00.000Z", **fields})


def _stats(prompt: int, out: int, cached: int, total: int, **more: Any) -> dict[str, Any]:
    return {
        "total_tokens": total,
        "input_tokens": prompt,
        "output_tokens": out,
        "cached": cached,
        "input": prompt - cached,
        "duration_ms": 2100,
        "tool_calls": 0,
        **more,
    }


def _run(answer: str, stats: dict[str, Any], status: str = "success") -> list[str]:
    return [
        _line("init", session_id=SESSION, model="gemini-2.5-pro"),
        _line("message", role="user", content="Add a test"),
        _line("message", role="assistant", content=answer, delta=True),
        _line("result", status=status, stats=stats),
    ]


def _results(entries: Iterable[Any]) -> list[dict[str, Any]]:
    found = [dict(entry) for entry in entries if entry["kind"] == "result"]
    assert all(entry_problem(entry) is None for entry in found)
    return found


def _parsed(lines: list[str], factory: Callable[[], Any] = create_stdout_parser) -> list[Any]:
    parser = factory()
    return [entry for line in lines for entry in parser.parse_line(line, TS)]


def _fold(entries: list[Any]) -> RunFold:
    fold = RunFold()
    fold.add_all(entries)
    return fold


def _agrees(fold: RunFold, summary: RunSummary) -> None:
    """The fold over the entries gives what the plugin's summary gives."""
    assert summary_disagreements(fold.to_summary(), summary) == {}


MODELS = {
    "gemini-2.5-pro": {
        "total_tokens": 9000,
        "input_tokens": 8600,
        "output_tokens": 120,
        "cached": 5000,
        "input": 3600,
    },
    "gemini-2.5-flash-lite": {
        "total_tokens": 1000,
        "input_tokens": 900,
        "output_tokens": 60,
        "cached": 0,
        "input": 900,
    },
}


def test_a_result_carries_its_runs_tokens_per_model_and_no_cost() -> None:
    stats = _stats(9500, 180, 5000, 10000, models=MODELS)
    (result,) = _results(_parsed(_run("Done.", stats)))
    # input 4,500 uncached of the 9,500 prompt; thoughts are total - prompt - output = 320
    assert result["usage"] == {
        "uncachedInput": 4500,
        "cacheRead": 5000,
        "cacheWrite": None,
        "output": 500,
        "reasoning": 320,
    }
    assert result["modelUsage"] == {
        "gemini-2.5-pro": {
            "uncachedInput": 3600,
            "cacheRead": 5000,
            "cacheWrite": None,
            "output": 400,
            "reasoning": 280,
        },
        "gemini-2.5-flash-lite": {
            "uncachedInput": 900,
            "cacheRead": 0,
            "cacheWrite": None,
            "output": 100,
            "reasoning": 40,
        },
    }
    assert result["costSource"] is None  # Gemini reports no cost: costUsd 0 is none
    assert result["outcome"] == "completed"
    assert "sessionId" not in result and "turns" not in result  # its own run; no turn count
    assert (result["inputTokens"], result["cachedTokens"], result["costUsd"]) == (9500, 5000, 0)


def test_the_stateless_line_gives_the_same_fields() -> None:
    line = _run("Done.", _stats(9500, 180, 5000, 10000, models=MODELS))[-1]
    (stateless,) = _results(parse_stdout_line(line, TS))
    (stateful,) = _results(create_stdout_parser().parse_line(line, TS))
    assert stateless == stateful


def test_an_old_release_without_cached_leaves_the_cache_unknown_not_zero() -> None:
    line = _line("result", status="success", stats={"input_tokens": 7352, "output_tokens": 16})
    (result,) = _results(parse_stdout_line(line, TS))
    assert result["usage"] == {
        "uncachedInput": 7352,
        "cacheRead": None,
        "cacheWrite": None,
        "output": 16,
        "reasoning": None,
    }
    assert "modelUsage" not in result


def test_a_result_without_stats_carries_no_usage() -> None:
    (result,) = _results(parse_stdout_line(_line("result", status="success"), TS))
    assert "usage" not in result and "modelUsage" not in result
    assert result["outcome"] == "completed"


def test_a_breakdown_that_misses_tokens_is_not_given_per_model() -> None:
    partial = {"gemini-2.5-pro": MODELS["gemini-2.5-pro"]}  # 1,000 tokens short
    line = _run("Done.", _stats(9500, 180, 5000, 10000, models=partial))[-1]
    (result,) = _results(parse_stdout_line(line, TS))
    assert "usage" in result and "modelUsage" not in result


def test_a_wrappers_cost_is_reported_zero_included() -> None:
    for cost in (0.0123, 0):
        line = _line("result", status="success", total_cost_usd=cost, stats=_stats(10, 2, 0, 12))
        (result,) = _results(parse_stdout_line(line, TS))
        assert (result["costUsd"], result["costSource"]) == (cost, "reported")


def test_the_turn_limit_and_an_error_say_their_outcome() -> None:
    limit = _line(
        "result",
        status="error",
        error={"type": "FatalTurnLimitedError", "message": "Reached max session turns"},
        stats=_stats(100, 5, 0, 105),
    )
    failed = _line("result", status="error", error={"message": "quota"}, stats={})
    assert _results(parse_stdout_line(limit, TS))[0]["outcome"] == "max_turns"
    (result,) = _results(parse_stdout_line(failed, TS))
    assert result["outcome"] == "failed" and "usage" not in result


def test_two_runs_in_one_log_add_up_and_the_fold_agrees_with_the_summary() -> None:
    first = _run("First.", _stats(9500, 180, 5000, 10000, models=MODELS))
    second = _run(
        "Second.",
        _stats(
            1200,
            40,
            1000,
            1300,
            models={
                "gemini-2.5-pro": {
                    "total_tokens": 1300,
                    "input_tokens": 1200,
                    "output_tokens": 40,
                    "cached": 1000,
                    "input": 200,
                }
            },
        ),
    )
    lines = first + second
    summary = summarize_run(lines)
    fold = _fold(_parsed(lines))
    _agrees(fold, summary)
    assert fold.token_usage.uncached_input == 4500 + 200
    assert fold.model_usage["gemini-2.5-pro"].cache_read == 6000
    assert summary.outcome == "completed" and summary.cost_usd is None


def test_the_fold_agrees_on_a_failed_run_and_a_run_cut_off_after_its_result() -> None:
    failed = _run("Trying.", _stats(100, 5, 0, 105), status="error")
    _agrees(_fold(_parsed(failed)), summarize_run(failed))
    cut = [*_run("Done.", _stats(100, 5, 0, 105)), _line("tool_use", tool_name="ls", tool_id="t")]
    summary = summarize_run(cut)
    assert summary.outcome == "cut_off"
    assert _fold(_parsed(cut)).to_summary().outcome == "cut_off"


# -- saved chats -------------------------------------------------------------------------------


def _chat(*records: dict[str, Any]) -> list[str]:
    header = {"sessionId": SESSION, "projectHash": "ab12", "startTime": "2026-05-01T08:00:00Z"}
    return [json.dumps(header), *map(json.dumps, records)]


def _reply(ident: str, content: str, tokens: dict[str, int], **more: Any) -> dict[str, Any]:
    return {"id": ident, "type": "gemini", "content": content, "tokens": tokens, **more}


TOOL = {"id": "ls-1", "name": "list_directory", "args": {"path": "."}, "status": "success"}


def test_a_saved_reply_carries_its_own_tokens_per_model_and_no_cost() -> None:
    lines = _chat(
        {"id": "u1", "type": "user", "content": [{"text": "List the files."}]},
        _reply(
            "g1",
            "",
            {"input": 11855, "output": 81, "cached": 0, "thoughts": 12, "tool": 3},
            model="gemini-3-flash-preview",
            toolCalls=[TOOL],
        ),
        _reply(
            "g2",
            "Here they are.",
            {"input": 12069, "output": 147, "cached": 11502, "thoughts": 0, "tool": 0},
        ),
    )
    first, second = _results(_parsed(lines, create_session_parser))
    assert first["usage"] == {
        "uncachedInput": 11855 + 3,  # tool-use prompt tokens are uncached input too
        "cacheRead": 0,
        "cacheWrite": None,
        "output": 93,
        "reasoning": 12,
    }
    assert first["outcome"] == "cut_off"  # its tool call waits for the next reply
    # A reply naming no model: the session's (the first record naming one).
    assert list(second["modelUsage"]) == ["gemini-3-flash-preview"]
    assert second["modelUsage"]["gemini-3-flash-preview"] == second["usage"]
    assert second["outcome"] == "completed"
    assert all(r["costSource"] is None and "sessionId" not in r for r in (first, second))
    summary = summarize_session(lines)
    _agrees(_fold(_parsed(lines, create_session_parser)), summary)
    assert summary.token_usage.cache_read == 11502


def test_a_saved_reply_without_thought_counts_says_unknown_reasoning() -> None:
    lines = _chat(_reply("g1", "Hi.", {"input": 50, "output": 4}))
    (result,) = _results(_parsed(lines, create_session_parser))
    assert result["usage"] == {
        "uncachedInput": 50,
        "cacheRead": None,
        "cacheWrite": None,
        "output": 4,
        "reasoning": None,
    }
    assert "modelUsage" not in result  # neither the chat nor the reply names its model


def test_a_chat_ending_on_a_tool_call_is_cut_off_for_the_fold_as_for_the_summary() -> None:
    lines = _chat(
        {"id": "u1", "type": "user", "content": "Hello."},
        _reply("g1", "Hello! What shall I do?", {"input": 8, "output": 6}, model="m"),
        {"id": "u2", "type": "user", "content": "List the files."},
        _reply("g2", "", {"input": 10, "output": 2}, model="m", toolCalls=[TOOL]),
    )
    summary = summarize_session(lines)
    assert summary.outcome == "cut_off" and summary.token_usage.output == 8
    _agrees(_fold(_parsed(lines, create_session_parser)), summary)
