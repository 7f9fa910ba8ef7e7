"""Codex's token counts in the usage vocabulary, checked on real lines and on lines written here.

Codex's ``input_tokens`` include its cached (and, from 0.139, cache-write)
input tokens; ``output_tokens`` include the reasoning tokens.
"""

from __future__ import annotations

import json

from linewise_codex import summarize_run
from linewise_codex.session import summarize_run as summarize_session
from linewise_codex.usage import token_usage
from linewise_contracts import TokenUsage
from support import corpus_path

ROLLOUT_01997E76 = (
    "agentcmd-codex-0.40.0-rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl"
)


def _lines(*parts: str) -> list[str]:
    return corpus_path(*parts).read_text(encoding="utf-8").splitlines()


def test_uncached_input_is_input_less_cache_reads_in_a_real_rollout() -> None:
    summary = summarize_session(_lines("real-sessions", "codex", ROLLOUT_01997E76))
    # the last token_count: input_tokens 7,494,343 of which cached_input_tokens 7,290,112
    assert summary.token_usage == TokenUsage(
        uncached_input=204_231, cache_read=7_290_112, output=99_678, reasoning=72_192
    )
    assert summary.token_usage.cache_write is None  # Codex 0.40 reports no cache writes


def test_the_real_rollout_with_four_interrupts_ended_completed_not_failed() -> None:
    summary = summarize_session(_lines("real-sessions", "codex", ROLLOUT_01997E76))
    assert summary.outcome == "completed"
    assert not summary.is_error
    assert summary.errors == ()
    assert summary.details["interrupts"] == ["interrupted"] * 4


def test_cache_writes_come_out_of_input_in_a_real_0_15x_run() -> None:
    summary = summarize_run(_lines("real-logs", "codex", "fullsend-codex-basic_run.ndjson"))
    # turn.completed usage: input 41,320 = 27,386 cache reads + 13,925 cache writes + 9 uncached
    assert summary.token_usage == TokenUsage(
        uncached_input=9, cache_read=27_386, cache_write=13_925, output=295, reasoning=74
    )


def test_a_usage_object_maps_field_by_field_and_missing_counts_stay_unknown() -> None:
    assert token_usage(
        {"input_tokens": 1000, "cached_input_tokens": 600, "output_tokens": 50}
    ) == TokenUsage(uncached_input=400, cache_read=600, output=50)
    assert token_usage({}) == TokenUsage()


def test_an_exec_run_without_usage_has_unknown_tokens_and_one_with_an_abort_is_interrupted() -> (
    None
):
    lines = [
        json.dumps({"type": "thread.started", "thread_id": "t1"}),
        json.dumps({"type": "turn.started"}),
        json.dumps({"type": "item.completed", "item": {"type": "agent_message", "text": "hi"}}),
    ]
    cut = summarize_run(lines)
    assert cut.token_usage.is_empty
    assert cut.outcome == "cut_off"
    done = summarize_run(
        [*lines, json.dumps({"type": "turn.completed", "usage": {"input_tokens": 7}})]
    )
    assert done.token_usage == TokenUsage(uncached_input=7)
    assert done.outcome == "completed"
    legacy = [
        json.dumps({"id": "0", "msg": {"type": "session_configured", "session_id": "s"}}),
        json.dumps({"id": "1", "msg": {"type": "task_started"}}),
        json.dumps({"id": "1", "msg": {"type": "turn_aborted", "reason": "interrupted"}}),
    ]
    aborted = summarize_run(legacy)
    assert (aborted.outcome, aborted.is_error, aborted.errors) == ("interrupted", False, ())
