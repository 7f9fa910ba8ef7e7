"""Amp's run summary: Claude Code's, with Amp's own token counting."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from linewise_claude import summarize_run as claude_summary
from linewise_contracts.extract import as_number, as_object, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

__all__ = ["message_usage", "summarize_run"]


def _count(value: object) -> int | None:
    number = as_number(value, -1)
    return int(number) if number >= 0 and number == int(number) else None


def message_usage(usage: object) -> TokenUsage:
    """An Amp assistant message's ``usage`` in the vocabulary.

    Amp names its fields as Anthropic does but its ``input_tokens`` is the
    whole prompt: in Amp's own example ``input_tokens`` 12,783 is exactly
    ``cache_creation_input_tokens`` 367 plus ``cache_read_input_tokens``
    12,416. The uncached input is what remains after the cache reads and writes.
    """
    body = as_object(usage)
    total = _count(body.get("input_tokens"))
    read = _count(body.get("cache_read_input_tokens"))
    write = _count(body.get("cache_creation_input_tokens"))
    uncached = total
    if total is not None:
        rest = total - (read or 0) - (write or 0)
        uncached = rest if rest >= 0 else total
    return TokenUsage(
        uncached_input=uncached,
        cache_read=read,
        cache_write=write,
        output=_count(body.get("output_tokens")),
    )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise an ``amp --execute --stream-json`` run (or an Amp thread's records).

    Everything but the tokens is Claude Code's summary (the stream is its
    format). Amp's result event carries no usage, so the tokens are the sum of
    its assistant messages' usage, counted as :func:`message_usage` says.
    """
    kept = list(lines)
    summary = claude_summary(kept)
    tokens = TokenUsage()
    for line in kept:
        event = parse_json_object(line)
        if event is None or event.get("type") != "assistant":
            continue
        usage = as_object(event.get("message")).get("usage")
        if type(usage) is dict:
            tokens = tokens + message_usage(usage)
    if not tokens.known:
        return summary
    return dataclasses.replace(
        summary,
        token_usage=tokens,
        usage=Usage(
            input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
            output_tokens=tokens.output or 0,
            cached_tokens=tokens.cache_read or 0,
        ),
        details={**summary.details, "usageBasis": "assistant messages"},
    )
