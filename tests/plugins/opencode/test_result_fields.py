"""Contracts 1.5 and 1.9 on OpenCode's result entries (a ``step_finish`` of ``run --format
json``, a stored message's ``step-finish``): a step carries its own tokens in the usage
vocabulary, its own reported cost, how it finished and (on stdout) its one turn; steps add
up. The host's one fold reads them and agrees with ``summarize_run``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from linewise.transcript.fold import RunFold
from linewise_contracts import entry_problem
from linewise_contracts.summary import RunSummary
from linewise_opencode import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_opencode.session import create_stdout_parser as create_session_parser
from linewise_opencode.session import summarize_run as summarize_session
from support import FOLDED_FIGURES, summary_disagreements

TS = "2026-01-01T00:00:00.000Z"
SESSION = "ses_3f8a1c2e9ffeQw7LmN2pXyZ4aB"


def _event(kind: str, when: int, **part: Any) -> str:
    return json.dumps(
        {
            "type": kind,
            "timestamp": when,
            "sessionID": SESSION,
            "part": {"id": f"prt_{when}", "sessionID": SESSION, **part},
        }
    )


def _tokens(uncached: int, out: int, reasoning: int, read: int, write: int = 0) -> dict[str, Any]:
    return {
        "total": uncached + out + reasoning + read + write,  # reasoning beside output
        "input": uncached,
        "output": out,
        "reasoning": reasoning,
        "cache": {"read": read, "write": write},
    }


def _step(when: int, reason: str, tokens: dict[str, Any] | None, cost: float | None) -> str:
    part: dict[str, Any] = {"type": "step-finish", "reason": reason}
    if tokens is not None:
        part["tokens"] = tokens
    if cost is not None:
        part["cost"] = cost
    return _event("step_finish", when, **part)


def _tool(when: int) -> str:
    state = {"status": "completed", "input": {"command": "ls"}, "output": "a.txt\n"}
    return _event("tool_use", when, type="tool", callID="call_1", tool="bash", state=state)


def _text(when: int, text: str) -> str:
    return _event("text", when, type="text", text=text, time={"start": when, "end": when})


def _run() -> list[str]:
    return [
        _event("step_start", 1, type="step-start"),
        _tool(2),
        _step(3, "tool-calls", _tokens(15479, 150, 34, 0), 0.0021),
        _event("step_start", 4, type="step-start"),
        _text(5, "There is one file, a.txt."),
        _step(6, "stop", _tokens(706, 150, 18, 15616, 40), 0.0009),
    ]


def _results(entries: Iterable[Any]) -> list[dict[str, Any]]:
    found = [dict(entry) for entry in entries if entry["kind"] == "result"]
    assert all(entry_problem(entry) is None for entry in found)
    return found


def _parsed(lines: list[str], factory: Callable[[], Any] = create_stdout_parser) -> list[Any]:
    parser = factory()
    return [entry for line in lines for entry in parser.parse_line(line, TS)]


def _agrees(entries: list[Any], summary: RunSummary, *, session: bool = True) -> None:
    fold = RunFold()
    fold.add_all(entries)
    # A stdout step names no session (its figures are its own, and a sessionId would make
    # them the session's so far): there the session id stays the summary's.
    figures = [f for f in FOLDED_FIGURES if session or f != "session_id"]
    assert summary_disagreements(fold.to_summary(), summary, figures=figures) == {}


def test_a_step_carries_its_own_tokens_cost_and_outcome() -> None:
    first, last = _results(_parsed(_run()))
    assert first["usage"] == {
        "uncachedInput": 15479,
        "cacheRead": 0,
        "cacheWrite": 0,
        "output": 150 + 34,  # reasoning counted beside output: added to it
        "reasoning": 34,
    }
    assert (first["costSource"], first["costUsd"]) == ("reported", 0.0021)
    assert first["outcome"] == "cut_off"  # it finished to call tools: the run went on
    assert last["outcome"] == "completed"
    assert "turns" not in first and "turns" not in last  # a count OpenCode does not report
    assert "sessionId" not in first and "modelUsage" not in first  # own figures; no model named
    assert (last["inputTokens"], last["outputTokens"], last["cachedTokens"]) == (706, 168, 15616)


def test_the_stateless_line_gives_the_same_fields() -> None:
    line = _run()[-1]
    assert _results(parse_stdout_line(line, TS)) == _results(
        create_stdout_parser().parse_line(line, TS)
    )


def test_a_step_without_tokens_or_cost_says_unknown_not_zero() -> None:
    (result,) = _results(parse_stdout_line(_step(1, "stop", None, None), TS))
    assert "usage" not in result
    assert result["costSource"] is None and result["costUsd"] == 0
    partial = {"input": 10, "output": 3}  # no cache, no reasoning
    (counted,) = _results(parse_stdout_line(_step(1, "stop", partial, 0), TS))
    assert counted["usage"] == {
        "uncachedInput": 10,
        "cacheRead": None,
        "cacheWrite": None,
        "output": 3,
        "reasoning": None,
    }
    assert counted["costSource"] == "reported"  # OpenCode priced it at 0: a $0 step


def test_finish_reasons_in_the_outcome_words() -> None:
    for reason, outcome in (("length", "max_tokens"), ("content-filter", "refused")):
        (result,) = _results(parse_stdout_line(_step(1, reason, None, 0), TS))
        assert result["outcome"] == outcome
    (failed,) = _results(parse_stdout_line(_step(1, "error", None, 0), TS))
    assert (failed["outcome"], failed["isError"]) == ("failed", True)


def test_the_steps_add_up_and_the_fold_agrees_with_the_summary() -> None:
    lines = _run()
    summary = summarize_run(lines)
    # OpenCode's stdout names its session only on its events, never in an init: the steps'
    # own figures name no session, so the session id is the summary's alone.
    _agrees(_parsed(lines), summary, session=False)
    assert summary.details["steps"] == 2 and summary.token_usage.cache_read == 15616
    assert summary.cost_usd == 0.0021 + 0.0009


def test_a_run_stopped_after_its_tool_calls_is_cut_off_for_both() -> None:
    lines = _run()[:3]
    summary = summarize_run(lines)
    assert summary.outcome == "cut_off"
    _agrees(_parsed(lines), summary, session=False)


# -- stored sessions ----------------------------------------------------------------------------


def _message(ident: str, role: str, parts: list[dict[str, Any]], **info: Any) -> str:
    return json.dumps(
        {
            "info": {"id": ident, "sessionID": SESSION, "role": role, **info},
            "parts": parts,
        }
    )


def test_a_stored_step_carries_its_tokens_its_model_and_cost_but_no_turn() -> None:
    session = {"id": SESSION, "title": "ls", "directory": "/work/app", "time": {"created": 1}}
    step = {
        "type": "step-finish",
        "reason": "stop",
        "cost": 0.004,
        "tokens": _tokens(900, 40, 8, 0),
    }
    lines = [
        json.dumps({"type": "session", "session": session}),
        _message("msg_1", "user", [{"type": "text", "text": "List the files."}]),
        _message(
            "msg_2",
            "assistant",
            [{"type": "text", "text": "One file: a.txt."}, step],
            modelID="claude-sonnet-4-5",
        ),
    ]
    (result,) = _results(_parsed(lines, create_session_parser))
    assert result["usage"]["uncachedInput"] == 900 and result["usage"]["output"] == 48
    assert result["modelUsage"] == {"claude-sonnet-4-5": result["usage"]}
    assert (result["costSource"], result["outcome"]) == ("reported", "completed")
    assert "turns" not in result and "sessionId" not in result
    _agrees(_parsed(lines, create_session_parser), summarize_session(lines))
