"""Contracts 1.5 and 1.9 on ACP's result entries: a prompt turn's result carries its tokens,
its one turn and its outcome, so the host's one fold gives the run summary's figures."""

from __future__ import annotations

import json
from typing import Any

import pytest
from linewise.transcript.fold import RunFold
from linewise_acp import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_contracts import entry_problem
from support import fold_disagreements

TS = "2026-01-01T00:00:00.000Z"


def _rpc(**fields: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", **fields})


def _new_session(session: str = "sess-7") -> str:
    models = {"currentModelId": "gpt-5-codex", "availableModels": []}
    return _rpc(id=1, result={"sessionId": session, "models": models})


def _chunk(text: str, session: str = "sess-7") -> str:
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    return _rpc(method="session/update", params={"sessionId": session, "update": update})


def _cost(amount: float) -> str:
    update = {"sessionUpdate": "usage_update", "used": 1, "size": 2, "cost": {"amount": amount}}
    return _rpc(method="session/update", params={"sessionId": "sess-7", "update": update})


def _prompt_result(stop: str = "end_turn", usage: dict[str, Any] | None = None) -> str:
    result: dict[str, Any] = {"stopReason": stop}
    if usage is not None:
        result["usage"] = usage
    return _rpc(id=2, result=result)


USAGE = {
    "inputTokens": 1500,
    "outputTokens": 320,
    "cachedReadTokens": 9000,
    "thoughtTokens": 64,
    "totalTokens": 10884,
}


def _result(lines: list[str]) -> dict[str, Any]:
    parser = create_stdout_parser()
    entries = [entry for line in lines for entry in parser.parse_line(line, TS)]
    (result,) = [entry for entry in entries if entry["kind"] == "result"]
    assert entry_problem(result) is None
    return dict(result)


def test_a_prompt_result_carries_its_usage_and_its_outcome() -> None:
    result = _result([_chunk("Done."), _prompt_result(usage=USAGE)])
    assert result["usage"] == {
        "uncachedInput": 1500,
        "cacheRead": 9000,
        "cacheWrite": None,  # not reported: unknown, not 0
        "output": 320,
        "reasoning": 64,
    }
    assert result["outcome"] == "completed"
    assert "turns" not in result  # ACP reports no count of turns (contract 1.9's field)
    # The turn's own figures (results add up); ACP reports no cost on the response.
    for absent in ("sessionId", "costSource", "modelUsage"):
        assert absent not in result
    assert (result["inputTokens"], result["cachedTokens"], result["costUsd"]) == (1500, 9000, 0)
    (stateless,) = parse_stdout_line(_prompt_result(usage=USAGE), TS)
    assert stateless == {**result, "text": ""}


def test_a_prompt_result_without_usage_has_no_usage() -> None:
    result = _result([_prompt_result()])
    assert "usage" not in result


@pytest.mark.parametrize(
    ("stop", "outcome"),
    [
        ("end_turn", "completed"),
        ("max_tokens", "max_tokens"),
        ("max_turn_requests", "max_turns"),
        ("refusal", "refused"),
        ("cancelled", "interrupted"),
    ],
)
def test_the_stop_reason_is_the_outcome(stop: str, outcome: str) -> None:
    assert _result([_chunk("x"), _prompt_result(stop)])["outcome"] == outcome


def test_an_unknown_stop_reason_gives_no_outcome() -> None:
    assert "outcome" not in _result([_prompt_result("paused")])


def test_a_json_rpc_error_answering_the_prompt_is_a_failed_turn() -> None:
    error = _rpc(id=2, error={"code": -32603, "message": "Internal error"})
    result = _result([_chunk("working"), error])
    assert result["outcome"] == "failed"


def test_two_turns_add_up_in_the_fold() -> None:
    lines = [_new_session(), _chunk("a"), _prompt_result(usage=USAGE)]
    lines += [_chunk("b"), _prompt_result(usage=USAGE)]
    parser = create_stdout_parser()
    fold = RunFold()
    for line in lines:
        fold.add_all(parser.parse_line(line, TS))
    assert fold.turns is None  # not in the entries: the summary counts the responses
    assert fold.token_usage.uncached_input == 3000 and fold.token_usage.reasoning == 128


RUNS = {
    "one turn": [_new_session(), _chunk("Hello"), _prompt_result(usage=USAGE)],
    "two turns": [
        _new_session(),
        _chunk("a"),
        _prompt_result(usage=USAGE),
        _chunk("b"),
        _prompt_result("max_tokens", USAGE),
    ],
    "no usage": [_new_session(), _chunk("hi"), _prompt_result()],
    "error": [_new_session(), _chunk("x"), _rpc(id=2, error={"code": -1, "message": "boom"})],
    "cut off": [_new_session(), _chunk("a"), _prompt_result(), _chunk("more")],
    "refused": [_new_session(), _chunk("no"), _prompt_result("refusal")],
}


def _fold(lines: list[str]) -> RunFold:
    parser = create_stdout_parser()
    fold = RunFold()
    for line in lines:
        entries = parser.parse_line(line, TS)
        assert all(entry_problem(entry) is None for entry in entries)
        fold.add_all(entries)
    return fold


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_host_fold_agrees_with_summarize_run(name: str) -> None:
    assert fold_disagreements(create_stdout_parser, summarize_run, RUNS[name], ts=TS) == {}


def test_a_usage_update_cost_stays_the_summarys_where_the_entries_say_none() -> None:
    """The session's running cost comes in a notification, not on the result: the entries say
    nothing of it (no costSource), so the host's merge keeps summarize_run's."""
    lines = [_new_session(), _chunk("a"), _cost(0.0412), _prompt_result(usage=USAGE)]
    plugin = summarize_run(lines)
    fold = _fold(lines)
    assert not fold.cost_said
    merged = fold.summary(plugin)
    assert (merged.cost_usd, merged.cost_source) == (0.0412, "reported")
    assert merged.token_usage == plugin.token_usage and merged.turns is None
