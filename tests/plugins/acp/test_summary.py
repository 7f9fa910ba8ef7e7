"""The ACP run summary: unknown usage, cost and model stay unknown; limits are failures."""

from __future__ import annotations

import json
from pathlib import Path

import linewise_acp
from linewise_acp import summarize_run
from linewise_contracts import TokenUsage

SAMPLE = Path(linewise_acp.__file__).parent / "samples" / "acp-tool-run.jsonl"


def _chunk(text: str) -> str:
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "session/update",
            "params": {"sessionId": "s", "update": update},
        }
    )


NEW = '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}'


def test_the_sample_run_stopped_at_a_limit_and_failed() -> None:
    summary = summarize_run(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert summary.session_id == "sess_7f3a" and summary.model == "gpt-5-codex"
    assert summary.outcome == "max_turns" and summary.is_error
    assert summary.details["limit"] == "max_turn_requests"
    assert summary.cost_usd == 0.0412  # the usage_update's running cost
    assert summary.details["toolCalls"] == 3 and summary.details["permissionRequests"] == 1
    assert summary.final_text == "Fixed the bound; one test still fails."
    assert summary.complete and summary.details["prompts"] == 1
    assert any("-32603" in error for error in summary.errors)


def test_a_turn_without_usage_has_unknown_usage_cost_and_model() -> None:
    summary = summarize_run(
        [NEW, _chunk("hi"), '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}']
    )
    assert (summary.model, summary.cost_usd, summary.details["usageBasis"]) == (None, None, "none")
    assert summary.outcome == "completed" and not summary.is_error and summary.complete
    assert summary.token_usage.is_empty  # ACP reported no usage: unknown, not zero


def test_reported_usage_adds_up_over_turns() -> None:
    result = {
        "stopReason": "end_turn",
        "usage": {
            "inputTokens": 10,
            "outputTokens": 2,
            "cachedReadTokens": 5,
            "cachedWriteTokens": 1,
        },
    }
    line = json.dumps({"jsonrpc": "2.0", "id": 2, "result": result})
    summary = summarize_run([NEW, line, line])
    assert summary.usage.input_tokens == 22 and summary.usage.output_tokens == 4
    assert summary.token_usage == TokenUsage(
        uncached_input=20, cache_read=10, cache_write=2, output=4
    )
    assert summary.usage.cached_tokens == 10 and summary.details["prompts"] == 2
    assert summary.turns is None  # prompt results are not the round trips turns count
    assert summary.details["usageBasis"] == "prompt_response"


def test_a_run_cut_off_mid_turn_is_not_complete() -> None:
    summary = summarize_run([NEW, _chunk("half an ans"), _chunk("wer")])
    assert not summary.complete and summary.final_text == "half an answer"


def test_an_error_ending_the_turn_is_a_failed_run() -> None:
    error = '{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"Authentication required"}}'
    summary = summarize_run([NEW, _chunk("x"), error])
    assert summary.is_error and summary.outcome == "failed" and summary.complete
    assert summary.errors[0] == "JSON-RPC error -32000: Authentication required"
