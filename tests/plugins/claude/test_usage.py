"""Claude's token counts in the usage vocabulary, checked on real lines and on lines written here.

Claude's ``input_tokens`` are the uncached input; cache reads and cache writes
(``cache_creation_input_tokens``) are counted beside them and kept apart.
"""

from __future__ import annotations

import json

from linewise_claude import summarize_run
from linewise_claude.usage import message_tokens, result_tokens
from linewise_contracts import TokenUsage
from support import corpus_path


def _lines(*parts: str) -> list[str]:
    return corpus_path(*parts).read_text(encoding="utf-8").splitlines()


def test_model_usage_of_two_real_sessions_adds_up_per_model_with_cache_writes_apart() -> None:
    summary = summarize_run(
        _lines("real-logs", "claude", "kern-orch-claude-code-stream-2.1.237.jsonl")
    )
    # two results; their modelUsage: haiku 902 + 905 uncached input, sonnet 2 + 4 uncached
    # input with 36,248 + 14,522 cache writes and 0 + 56,257 cache reads
    assert summary.model_usage == {
        "claude-haiku-4-5-20251001": TokenUsage(
            uncached_input=1807, cache_read=0, cache_write=0, output=27
        ),
        "claude-sonnet-5": TokenUsage(
            uncached_input=6, cache_read=56_257, cache_write=50_770, output=116
        ),
    }
    assert summary.token_usage == TokenUsage(
        uncached_input=1813, cache_read=56_257, cache_write=50_770, output=143
    )
    # the wire-format view keeps folding cache writes into input, as 1.x consumers expect
    assert summary.usage.input_tokens == 1813 + 50_770
    assert summary.cost_source == "reported"


def test_thinking_tokens_are_the_reasoning_part_of_output_in_a_real_result() -> None:
    summary = summarize_run(
        _lines("real-logs", "claude", "SOURCE-ELIDED-untether-autocompact-2.1.285.jsonl")
    )
    assert summary.token_usage.reasoning is not None
    assert summary.token_usage.output is not None
    assert summary.token_usage.reasoning <= summary.token_usage.output


def test_a_usage_block_maps_field_by_field_and_missing_counts_stay_unknown() -> None:
    block = {
        "input_tokens": 3,
        "cache_creation_input_tokens": 500,
        "cache_read_input_tokens": 2000,
        "output_tokens": 40,
        "output_tokens_details": {"thinking_tokens": 12},
    }
    assert message_tokens(block) == TokenUsage(
        uncached_input=3, cache_read=2000, cache_write=500, output=40, reasoning=12
    )
    assert message_tokens({"output_tokens": 9}) == TokenUsage(output=9)
    assert result_tokens({"usage": {}}) == (TokenUsage(), {})


def test_a_run_cut_off_before_its_result_counts_its_messages_and_gives_no_model_split() -> None:
    lines = [
        json.dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "m"}),
        json.dumps(
            {
                "type": "assistant",
                "session_id": "s",
                "message": {
                    "id": "msg_1",
                    "model": "m",
                    "content": [{"type": "text", "text": "working"}],
                    "usage": {
                        "input_tokens": 5,
                        "cache_creation_input_tokens": 100,
                        "output_tokens": 2,
                    },
                },
            }
        ),
    ]
    summary = summarize_run(lines)
    assert summary.outcome == "cut_off"
    assert summary.token_usage == TokenUsage(uncached_input=5, cache_write=100, output=2)
    assert summary.model_usage == {}
    assert summary.cost_usd is None and summary.cost_source is None


def test_a_result_after_a_user_interrupt_is_interrupted_not_failed() -> None:
    lines = [
        json.dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "m"}),
        json.dumps(
            {
                "type": "user",
                "message": {"content": [{"type": "text", "text": "[Request interrupted by user]"}]},
            }
        ),
        json.dumps(
            {
                "type": "result",
                "subtype": "error_during_execution",
                "is_error": True,
                "session_id": "s",
            }
        ),
    ]
    summary = summarize_run(lines)
    assert summary.outcome == "interrupted"
    assert not summary.is_error
