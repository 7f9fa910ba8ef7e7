"""Codex's token counts in the usage vocabulary: one mapping for ``exec --json`` and rollouts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_int, as_number
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage, token_count, without

__all__ = ["breakdown_usage", "token_usage", "with_session_fields"]


def token_usage(usage: dict[str, object]) -> TokenUsage:
    """A Codex usage object (``turn.completed`` usage, a ``token_count`` total) in the vocabulary.

    Codex's ``input_tokens`` include its ``cached_input_tokens`` (cache reads) and,
    from 0.139, its ``cache_write_input_tokens``; ``output_tokens`` include the
    ``reasoning_output_tokens``. So the uncached input is what is left of
    ``input_tokens`` without the two cache counts.
    """
    cached = token_count(usage.get("cached_input_tokens"))
    written = token_count(usage.get("cache_write_input_tokens"))
    return TokenUsage(
        uncached_input=without(token_count(usage.get("input_tokens")), cached, written),
        cache_read=cached,
        cache_write=written,
        output=token_count(usage.get("output_tokens")),
        reasoning=token_count(usage.get("reasoning_output_tokens")),
    )


def breakdown_usage(counts: Mapping[str, Any]) -> TokenUsage:
    """One app-server ``TokenUsageBreakdown`` (camelCase) in the usage vocabulary.

    Codex's ``inputTokens`` include ``cachedInputTokens``, so the uncached
    input is the difference; ``reasoningOutputTokens`` are part of
    ``outputTokens``. A count Codex did not send stays unknown.
    """
    given = as_int(counts.get("inputTokens"), -1)
    cached = as_int(counts.get("cachedInputTokens"), -1)
    output = as_int(counts.get("outputTokens"), -1)
    reasoning = as_int(counts.get("reasoningOutputTokens"), -1)
    uncached = None
    if given >= 0:
        uncached = given - cached if 0 <= cached <= given else given
    return TokenUsage(
        uncached_input=uncached,
        cache_read=cached if cached >= 0 else None,
        output=output if output >= 0 else None,
        reasoning=reasoning if reasoning >= 0 else None,
    )


def with_session_fields(
    result: ResultEntry,
    *,
    usage: TokenUsage | None,
    outcome: Outcome | None,
    cost: object,
    session: str,
    own: bool = False,
) -> ResultEntry:
    """``result`` with the contract 1.5 fields a run summary reads (the host's one fold).

    ``usage``: the session's (thread's) running total, carried only with its
    ``session``, since the latest result of a session replaces the earlier
    ones (a total without its session would be added up); a count not
    reported is null, and no usage at all leaves the field out. ``cost``: what
    the event reported; Codex reports none, so ``costSource`` is null (no
    cost) unless a number is there. ``outcome``: how the turn ended, where the
    event says. ``own``: ``usage`` is this result's own figures (not a running
    total), carried without ``sessionId`` so that results add up.
    """
    if own:
        session = ""
    if usage is not None and usage.known and (session or own):
        result["usage"] = cast("TokenUsageCounts", usage.to_json())
    result["costSource"] = "reported" if as_number(cost, -1) >= 0 else None
    if outcome is not None:
        result["outcome"] = outcome
    if session:
        result["sessionId"] = session
    return result
