"""The Claude run summary and classifiers, against the reference and real runs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from linewise_claude import (
    is_max_turns_result,
    is_refusal_result,
    is_unknown_session_error,
    model_usage_totals,
    summarize_run,
)
from linewise_contracts import Usage
from support import corpus_json, corpus_path


def _server_cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "claude-local", "expected.json")["server_parse"]
    return [case for case in cases if case["fn"] == fn]


def _usage(usage: dict[str, int]) -> Usage:
    return Usage(
        input_tokens=usage["inputTokens"],
        output_tokens=usage["outputTokens"],
        cached_tokens=usage["cachedInputTokens"],
    )


def test_summary_matches_the_reference_stream_parse() -> None:
    cases = _server_cases("parseClaudeStreamJson")
    assert len(cases) == 2
    for case in cases:
        summary = summarize_run(case["args"][0].splitlines())
        expected = case["output"]
        assert summary.session_id == expected["sessionId"]
        assert summary.cost_usd == pytest.approx(expected["costUsd"])
        assert summary.usage == _usage(expected["usage"])
        assert summary.details["usageBasis"] == expected["usageBasis"]
        assert summary.final_text == expected["summary"]
        assert summary.complete and summary.outcome == "completed" and not summary.is_error
        assert summary.details["resultSubtype"] == "success"


@pytest.mark.parametrize(
    ("fn", "classifier"),
    [
        ("isClaudeUnknownSessionError", is_unknown_session_error),
        ("isClaudeMaxTurnsResult", is_max_turns_result),
        ("isClaudeRefusalResult", is_refusal_result),
    ],
)
def test_classifiers_match_the_reference(fn: str, classifier: Any) -> None:
    cases = _server_cases(fn)
    assert cases
    for case in cases:
        assert classifier(*case["args"]) is case["output"], case["test"]


def test_model_usage_totals_match_the_reference() -> None:
    for case in _server_cases("claudeModelUsageTotals"):
        got = model_usage_totals(*case["args"])
        assert (got and _usage(case["output"])) == (
            _usage(case["output"]) if case["output"] else None
        )
        if case["output"] is None:
            assert got is None
        else:
            assert got == _usage(case["output"])


def test_unknown_session_is_detected_from_stderr_text_in_the_stream() -> None:
    lines = [
        "Error: No conversation found with session id 9f1c",
        json.dumps(
            {"type": "result", "subtype": "error_during_execution", "is_error": True, "result": ""}
        ),
    ]
    summary = summarize_run(lines)
    assert summary.unknown_session and summary.is_error
    assert summary.errors == ("error_during_execution",)


def _real(name: str) -> list[str]:
    return corpus_path("real-logs", "claude", name).read_text(encoding="utf-8").splitlines()


def test_max_turns_run() -> None:
    summary = summarize_run(_real("perfectsnake-run1-max-turns.jsonl"))
    # A run stopped by its turn limit failed, although the CLI says is_error: false.
    assert summary.outcome == "max_turns" and summary.is_error
    assert summary.details["maxTurns"] is True
    assert summary.session_id == "15259d3e-8e8c-4603-b270-61d43f59e83b"
    assert summary.model and summary.model.startswith("claude-")
    assert summary.cost_usd == pytest.approx(1.08851525)
    # modelUsage totals: both models, cache writes counted as input.
    assert summary.usage == Usage(
        input_tokens=10523 + 63819 + 29 + 34790,
        output_tokens=4389 + 8555,
        cached_tokens=713055 + 947021,
    )
    assert summary.turns == 26 and summary.complete
    assert summary.errors == ("error_max_turns",)


def test_concatenated_sessions_add_up() -> None:
    lines = _real("githubgg-ralph-loop-concat-7sessions.jsonl")
    results = [json.loads(line) for line in lines if line.startswith('{"type":"result"')]
    inits = [json.loads(line) for line in lines if '"subtype":"init"' in line[:60]]
    summary = summarize_run(lines)
    assert len(results) > 1
    assert summary.cost_usd == pytest.approx(sum(r["total_cost_usd"] for r in results))
    # The log ends inside a session that never reported its result.
    assert summary.session_id == inits[-1]["session_id"] != results[-1]["session_id"]
    assert not summary.complete and summary.details["unfinishedSession"] is True
    assert summary.details["usageBasis"] == "per_run+assistant_messages"


def test_a_run_cut_off_is_summarised_from_its_messages() -> None:
    summary = summarize_run(_real("trackgentic-mp9ygklz-incomplete-no-result.jsonl"))
    assert not summary.complete
    assert summary.cost_usd is None and summary.outcome == "cut_off" and not summary.is_error
    assert summary.details["usageBasis"] == "assistant_messages"
    assert summary.model == "glm-5.1"
    assert summary.session_id == "3a285616-d007-4c40-899e-509ff856ac38"


def test_placeholder_zeros_on_streamed_messages_are_unknown_usage_not_zero() -> None:
    """A Claude-compatible back end (GLM through a proxy) puts ``{input_tokens: 0,
    output_tokens: 0}`` on every assistant message: the run's tokens are unknown."""
    summary = summarize_run(_real("trackgentic-mp9ygklz-incomplete-no-result.jsonl"))
    assert summary.token_usage is not None and summary.token_usage.is_empty
    assert summary.cost_usd is None


def _assistant(usage: dict[str, int], content: list[dict[str, str]]) -> str:
    message = {"id": "msg_1", "model": "m", "usage": usage, "content": content}
    return json.dumps({"type": "assistant", "message": message, "session_id": "s"})


@pytest.mark.parametrize(
    ("usage", "content", "output"),
    [
        ({"input_tokens": 0, "output_tokens": 0}, [{"type": "text", "text": "hi"}], None),
        # Zeros beside cache fields, or on a message with no content, are reported counts.
        (
            {"input_tokens": 0, "output_tokens": 0, "cache_read_input_tokens": 0},
            [{"type": "text", "text": "hi"}],
            0,
        ),
        ({"input_tokens": 0, "output_tokens": 0}, [], 0),
        ({"input_tokens": 3, "output_tokens": 0}, [{"type": "text", "text": "hi"}], 0),
    ],
)
def test_only_bare_zeros_on_a_message_with_content_count_as_unreported(
    usage: dict[str, int], content: list[dict[str, str]], output: int | None
) -> None:
    summary = summarize_run([_assistant(usage, content)])
    assert summary.token_usage is not None and summary.token_usage.output == output


def test_usage_of_a_cut_off_run_counts_each_message_once() -> None:
    lines = _real("perfectsnake-run1-max-turns.jsonl")
    cut = [line for line in lines if not line.startswith('{"type":"result"')]
    messages: dict[str, dict[str, int]] = {}
    for line in cut:
        event = json.loads(line)
        if event["type"] == "assistant":
            messages[event["message"]["id"]] = event["message"]["usage"]
    summary = summarize_run(cut)
    assert not summary.complete
    assert summary.usage.output_tokens == sum(u["output_tokens"] for u in messages.values())
    assert summary.usage.cached_tokens == sum(
        u["cache_read_input_tokens"] for u in messages.values()
    )
    assert summary.usage.input_tokens == sum(
        u["input_tokens"] + u["cache_creation_input_tokens"] for u in messages.values()
    )
    assert len(messages) < sum(1 for line in cut if line.startswith('{"type":"assistant"'))


def test_a_long_unfinished_session_counts_each_message_once_in_bounded_memory() -> None:
    """Thousands of messages, each reported twice (the second usage counts), one of them
    again hundreds of messages later; the summary keeps only the recent ones by id."""

    def event(ident: int, output: int) -> str:
        usage = {"input_tokens": 1, "cache_read_input_tokens": 2, "output_tokens": output}
        message = {"id": f"msg_{ident}", "usage": usage, "content": []}
        return json.dumps({"type": "assistant", "message": message, "session_id": "s"})

    lines = [event(i, output) for i in range(5000) for output in (1, 10)]
    lines.insert(len(lines) // 2, event(2000, 10))  # seen again 500 messages later
    summary = summarize_run(lines)
    assert summary.usage == Usage(input_tokens=5000, output_tokens=50_000, cached_tokens=10_000)
    assert summary.details["usageBasis"] == "assistant_messages" and not summary.complete
    result = {"type": "result", "subtype": "success", "usage": {"output_tokens": 7}}
    closed = summarize_run([*lines, json.dumps(result)])
    assert closed.usage == Usage(output_tokens=7) and closed.complete  # the result's alone


def test_results_of_one_multi_turn_session_are_running_totals_not_added_up() -> None:
    """One session, four results (result_index 0..3): the last one is the session's total."""
    summary = summarize_run(_real("SOURCE-ELIDED-untether-autocompact-2.1.285.jsonl"))
    assert summary.cost_usd == pytest.approx(0.2003013)
    assert summary.usage.cached_tokens == 314_408
    assert summary.details["sessions"] == 1 and summary.outcome == "completed"
    assert summary.turns == 2 + 2 + 3 + 1  # num_turns is per result, not a running total
    # duration_ms is per result too: the run's wall time adds them up.
    assert summary.details["durationMs"] == 4997 + 3110 + 23181 + 1006


def test_the_duration_adds_up_every_result_and_is_absent_without_one() -> None:
    lines = _real("githubgg-ralph-loop-concat-7sessions.jsonl")
    results = [json.loads(line) for line in lines if line.startswith('{"type":"result"')]
    assert summarize_run(lines).details["durationMs"] == sum(r["duration_ms"] for r in results)
    cut = summarize_run(_real("trackgentic-mp9ygklz-incomplete-no-result.jsonl"))
    assert "durationMs" not in cut.details
    odd = [{"type": "result", "subtype": "success", "duration_ms": d} for d in (-5, "9", 1.5)]
    assert summarize_run([json.dumps(r) for r in odd]).details["durationMs"] == 1


def test_the_same_session_reported_twice_by_separate_runs_still_adds_up() -> None:
    result = {"type": "result", "subtype": "success", "session_id": "s", "total_cost_usd": 0.5}
    lines = [json.dumps(result), json.dumps(result)]
    assert summarize_run(lines).cost_usd == pytest.approx(1.0)
    numbered = [json.dumps({**result, "result_index": i}) for i in (0, 1)]
    assert summarize_run(numbered).cost_usd == pytest.approx(0.5)


def test_subagents_are_counted_apart_in_the_summary() -> None:
    summary = summarize_run(_real("claude-clean-mcp-diagnostic-47.jsonl"))
    subagents = summary.details["subagents"]
    assert isinstance(subagents, list) and len(subagents) == 2
    by_type = {agent["type"]: agent for agent in subagents}  # type: ignore[index]
    assert set(by_type) == {"Explore", "codebase-locator"}
    assert all(agent["toolCalls"] > 0 for agent in subagents)  # type: ignore[index]
    hive = summarize_run(_real("hivemind-2.1.284-subagent-thinking-tokens.jsonl"))
    agents = hive.details["subagents"]
    assert isinstance(agents, list) and len(agents) == 1
    agent = agents[0]
    assert isinstance(agent, dict)
    assert agent["type"] == "general-purpose" and agent["status"] == "completed"
    assert agent["totalTokens"] == 13129 and agent["model"] == "claude-haiku-4-5-20251001"
    assert hive.outcome == "cut_off"  # the capture ends before the result


def test_the_final_text_is_the_main_threads_not_a_subagents() -> None:
    summary = summarize_run(_real("hivemind-2.1.284-subagent-thinking-tokens.jsonl"))
    assert summary.final_text == "END"


def test_an_api_error_message_makes_the_run_failed_with_a_reason() -> None:
    lines = [
        json.dumps(
            {
                "type": "assistant",
                "message": {
                    "id": "m",
                    "model": "<synthetic>",
                    "content": [{"type": "text", "text": "Invalid API key · Please run /login"}],
                },
                "error": "authentication_failed",
            }
        ),
        json.dumps(
            {
                "type": "result",
                "subtype": "success",
                "is_error": True,
                "result": "Invalid API key · Please run /login",
            }
        ),
    ]
    summary = summarize_run(lines)
    assert summary.outcome == "failed" and summary.is_error
    assert summary.details["failure"] == "login_required"
    assert "authentication_failed: Invalid API key · Please run /login" in summary.errors


def test_a_summary_line_after_the_result_does_not_reopen_the_run() -> None:
    """documented type: post_turn_summary and task_summary can follow the result line."""
    lines = [
        json.dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "m"}),
        json.dumps({"type": "result", "subtype": "success", "result": "ok", "session_id": "s"}),
        json.dumps({"type": "system", "subtype": "post_turn_summary", "status_detail": "done"}),
        json.dumps({"type": "system", "subtype": "task_summary", "detail": None}),
        json.dumps({"type": "prompt_suggestion", "suggestion": "next"}),
    ]
    summary = summarize_run(lines)
    assert summary.complete and summary.outcome == "completed" and summary.final_text == "ok"
