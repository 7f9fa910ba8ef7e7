"""cursor-agent's token counts in the usage vocabulary, checked on a real line and on lines written here.

cursor-agent 2026.08's ``inputTokens``, ``cacheReadTokens`` and
``cacheWriteTokens`` are disjoint: the input is the uncached input.
"""

from __future__ import annotations

import json

from linewise_contracts import TokenUsage
from linewise_cursor import summarize_run
from linewise_cursor.usage import result_tokens
from support import corpus_path


def test_a_real_2026_result_keeps_input_and_cache_reads_apart() -> None:
    lines = (
        corpus_path("real-logs", "cursor", "vincent-cursor-success_2026.08.04.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    [usage] = [json.loads(line)["usage"] for line in lines if '"type":"result"' in line]
    summary = summarize_run(lines)
    assert summary.token_usage == TokenUsage(
        uncached_input=usage["inputTokens"],
        cache_read=usage["cacheReadTokens"],
        cache_write=usage["cacheWriteTokens"],
        output=usage["outputTokens"],
    )
    assert summary.token_usage.uncached_input == 8274


def test_a_run_whose_results_report_no_usage_has_unknown_tokens_not_zero() -> None:
    summary = summarize_run(['{"type":"result","subtype":"success","result":"ok"}'])
    assert summary.token_usage.is_empty


def test_snake_case_cached_input_is_inside_input_and_cache_reads_beside_it() -> None:
    openai_style = {"usage": {"input_tokens": 100, "cached_input_tokens": 60, "output_tokens": 5}}
    assert result_tokens(openai_style) == TokenUsage(uncached_input=40, cache_read=60, output=5)
    anthropic_style = {"usage": {"input_tokens": 100, "cache_read_input_tokens": 60}}
    assert result_tokens(anthropic_style) == TokenUsage(uncached_input=100, cache_read=60)
