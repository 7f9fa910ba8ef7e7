"""Gemini's token counts in the usage vocabulary, checked on real lines and on lines written here.

Gemini's prompt count includes the cached tokens; stream-json's own ``input``
is the uncached input; thought tokens are output.
"""

from __future__ import annotations

import json

from linewise_contracts import TokenUsage
from linewise_gemini import summarize_run
from linewise_gemini.usage import chat_tokens, stats_tokens
from support import corpus_path


def _lines(*parts: str) -> list[str]:
    return corpus_path(*parts).read_text(encoding="utf-8").splitlines()


def test_uncached_input_is_geminis_own_input_in_a_real_0_53_run() -> None:
    summary = summarize_run(_lines("real-logs", "gemini", "amux-0.53.1-shell-run.jsonl"))
    # stats: input_tokens 22,915 (cached 8,115 in it), input 14,800, output 74, total 23,632
    assert summary.token_usage == TokenUsage(
        uncached_input=14_800, cache_read=8_115, output=74 + 643, reasoning=643
    )
    # per model, from stats.models
    assert summary.model_usage["gemini-3.5-flash"].uncached_input == 13_837
    assert summary.model_usage["gemini-3.5-flash"].cache_read == 8_115
    assert summary.model_usage["gemini-3.1-flash-lite"].uncached_input == 963


def test_a_real_saved_chat_counts_input_without_its_cached_part_and_thoughts_as_output() -> None:
    path = corpus_path(
        "real-sessions", "gemini", "agentcmd-gemini-session-2025-10-29T10-36-453aa339.json"
    )
    messages = json.loads(path.read_text(encoding="utf-8"))["messages"]
    reply = next(m for m in messages if isinstance(m.get("tokens"), dict) and m["tokens"]["cached"])
    # {"input": 5393, "output": 39, "cached": 4029, "thoughts": 151, "tool": 0, "total": 5583}
    assert chat_tokens(reply) == TokenUsage(
        uncached_input=5393 - 4029, cache_read=4029, output=39 + 151, reasoning=151
    )


def test_an_old_result_without_cached_counts_its_prompt_as_uncached_and_cache_reads_unknown() -> (
    None
):
    event = {
        "type": "result",
        "stats": {"total_tokens": 7386, "input_tokens": 7352, "output_tokens": 16},
    }
    assert stats_tokens(event) == TokenUsage(uncached_input=7352, output=34, reasoning=18)


def test_a_result_without_stats_has_unknown_tokens() -> None:
    lines = [
        json.dumps({"type": "init", "session_id": "s", "model": "gemini-2.5-pro"}),
        json.dumps({"type": "result", "status": "success"}),
    ]
    summary = summarize_run(lines)
    assert summary.token_usage.is_empty
    assert summary.outcome == "completed"
