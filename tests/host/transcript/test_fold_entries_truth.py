"""What the one fold reads from entries alone: turns and usage per model (contract 1.9), a
turn left without its result, the final answer."""

from __future__ import annotations

from typing import Any

from linewise.transcript.fold import RunFold, merged
from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage

TS = "2026-01-01T00:00:00Z"


def _result(**fields: object) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "kind": "result",
        "ts": TS,
        "text": "",
        "inputTokens": 0,
        "outputTokens": 0,
        "cachedTokens": 0,
        "costUsd": 0,
        "subtype": "success",
        "isError": False,
        "errors": [],
    }
    entry.update(fields)
    return entry


def _said(text: str, **fields: object) -> dict[str, Any]:
    return {"kind": "assistant", "ts": TS, "text": text, **fields}


def _fold(*entries: dict[str, Any]) -> RunFold:
    fold = RunFold()
    for entry in entries:
        fold.add(entry)
    return fold


def test_results_turns_add_up_even_when_their_usage_is_the_session_s_so_far() -> None:
    fold = _fold(
        _result(sessionId="a", turns=3, usage={"output": 10}),
        _result(sessionId="a", turns=2, usage={"output": 25}),
        _result(turns=4),
    )
    assert fold.turns == 9
    assert fold.to_summary().turns == 9
    assert fold.token_usage.output == 25


def test_turns_no_result_gave_are_unknown_not_zero() -> None:
    assert _fold(_result(), _result()).to_summary().turns is None


def test_usage_per_model_is_each_session_s_latest_and_sessions_add_up() -> None:
    fold = _fold(
        _result(sessionId="a", modelUsage={"big": {"output": 5}, "small": {"output": 1}}),
        _result(sessionId="a", modelUsage={"big": {"output": 8}, "small": {"output": 2}}),
        _result(sessionId="b", modelUsage={"big": {"output": 4}}),
        _result(modelUsage={"small": {"output": 3, "reasoning": None}}),
    )
    assert fold.model_usage == {"big": TokenUsage(output=12), "small": TokenUsage(output=5)}
    assert _fold(_result()).model_usage == {}


def test_a_new_turn_after_the_last_result_is_a_cut_off_run() -> None:
    fold = _fold(_said("first"), _result(text="done", outcome="completed"), _said("next, I will"))
    summary = fold.to_summary()
    assert (summary.outcome, summary.complete) == ("cut_off", False)
    assert summary.final_text == "next, I will"  # what the cut-off turn last said
    called = _fold(
        _result(outcome="completed"), {"kind": "tool_call", "ts": TS, "name": "ls", "input": {}}
    )
    assert called.to_summary().outcome == "cut_off"


def test_a_session_file_with_no_result_at_all_says_nothing_of_how_it_ended() -> None:
    init = {"kind": "init", "ts": TS, "model": "m", "sessionId": "s"}
    summary = _fold(init, _said("hello"), _said("bye")).to_summary()
    assert summary.outcome is None and summary.complete is False
    assert summary.final_text == "bye"


def test_a_finished_run_s_final_text_is_its_result_s_else_its_last_main_answer() -> None:
    assert _fold(_said("answer"), _result(text="the result")).final_text == "the result"
    assert _fold(_said("answer"), _result(text="")).final_text == "answer"
    # A result whose text is only its stop word (OpenCode's steps) carries no answer.
    steps = _fold(
        _result(text="tool-calls", subtype="tool-calls"),
        _said("```\nhello\n```"),
        _result(text="stop", subtype="stop"),
    )
    assert steps.final_text == "```\nhello\n```"
    # A subagent's words are not the run's answer.
    fold = _fold(_said("main"), _said("sub", parentToolUseId="t1"))
    assert fold.final_text == "main"


def test_the_result_s_own_outcome_word_beats_the_terminal_state_s_reading() -> None:
    terminal = {
        "kind": "run_terminal",
        "ts": TS,
        "turnState": "failed",
        "runState": "failed",
        "disposition": "blocked",
    }
    fold = _fold(_result(isError=True, subtype="error_max_turns", outcome="max_turns"), terminal)
    assert fold.to_summary().outcome == "max_turns"
    assert _fold(_result(isError=True), terminal).to_summary().outcome == "failed"


def test_a_plugin_s_summary_takes_the_entries_turns_and_models_where_they_give_them() -> None:
    fold = _fold(
        _result(sessionId="a", turns=2, usage={"output": 7}, modelUsage={"m": {"output": 7}})
    )
    plugin = RunSummary(session_id="a", turns=1, token_usage=TokenUsage(output=6), complete=True)
    summary = merged(fold, plugin)
    assert summary.turns == 2
    assert summary.model_usage == {"m": TokenUsage(output=7)}
    # Usage per model that does not account for every token is not given as the run's.
    partial = _fold(_result(usage={"output": 9}, modelUsage={"m": {"output": 7}}))
    assert merged(partial, plugin).model_usage == {}
    assert merged(_fold(_result()), plugin).turns == 1  # no turns in the entries: the plugin's


def test_an_init_that_names_no_model_gives_none_not_a_model_called_unknown() -> None:
    unnamed = {"kind": "init", "ts": TS, "model": "unknown", "sessionId": "s"}
    assert _fold(unnamed).to_summary().model is None
    named = {**unnamed, "model": "claude-haiku-4-5"}
    assert _fold(named, unnamed).to_summary().model == "claude-haiku-4-5"


def test_an_answer_streamed_in_fragments_is_the_final_text_joined() -> None:
    fold = _fold(
        _said("Looking", delta=True),
        _said(" at it", delta=True),
        {"kind": "tool_call", "ts": TS, "name": "ls", "input": {}},
        _said("Done", delta=True),
        _said(", all good.", delta=True),
        _result(text=""),
    )
    assert fold.final_text == "Done, all good."  # the last answer, not the one before the call
    whole = _fold(_said("x", delta=True), _said("The whole answer."), _result(text=""))
    assert whole.final_text == "The whole answer."


def test_a_result_entry_that_says_cut_off_is_drawn_as_a_step_not_a_failure() -> None:
    from linewise.transcript.outcome import result_failed

    step = _result(subtype="tool-calls", outcome="cut_off")  # the run goes on after it
    assert not result_failed(step)
    assert result_failed(_result(outcome="max_turns", isError=True))
    assert result_failed(_result(outcome="cut_off", errors=["the stream broke"]))
