"""Qwen Code's token counts in the usage vocabulary, from its ``api_response`` telemetry records.

Each model request is recorded as ``systemPayload.uiEvent`` named
``qwen-code.api_response``: ``input_token_count`` is the whole prompt, the
``cached_content_token_count`` included; ``output_token_count`` includes the
``thoughts_token_count`` (``total_token_count`` = input + output).
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts, model_name
from linewise_contracts.extract import as_object, as_string, dig
from linewise_contracts.usage import TokenUsage, token_count, without

__all__ = ["record_model", "request_tokens", "with_request_fields"]

_API_RESPONSE: Final = "qwen-code.api_response"


def request_tokens(record: dict[str, Any]) -> TokenUsage | None:
    """One model request's tokens; None for a record that is not an ``api_response``."""
    event = as_object(dig(record, "systemPayload", "uiEvent"))
    if event.get("event.name") != _API_RESPONSE:
        return None
    cached = token_count(event.get("cached_content_token_count"))
    return TokenUsage(
        uncached_input=without(token_count(event.get("input_token_count")), cached),
        cache_read=cached,
        output=token_count(event.get("output_token_count")),
        reasoning=token_count(event.get("thoughts_token_count")),
    )


def record_model(record: dict[str, Any]) -> str:
    """The model an assistant record or an ``api_response`` telemetry record names."""
    event = as_object(dig(record, "systemPayload", "uiEvent"))
    return as_string(record.get("model")) or as_string(event.get("model"))


def with_request_fields(entry: ResultEntry, record: dict[str, Any], model: str) -> ResultEntry:
    """A request's ``result`` entry with what a run summary reads (contracts 1.5, 1.9, 1.10).

    ``usage``: the request's own tokens (:func:`request_tokens`; requests add
    up, so no ``sessionId``), and per ``model`` (the request's, else the
    session's) as ``modelUsage``, that model as ``model``; ``costSource`` null
    (Qwen records no cost). No ``outcome``: a model request does not say how
    the session ended.
    """
    tokens = request_tokens(record)
    if tokens is not None and tokens.known:
        counts = cast("TokenUsageCounts", tokens.to_json())
        entry["usage"] = counts
        if model:
            entry["modelUsage"] = {model: counts.copy()}  # its own dict, not usage's
    named = model_name(model)
    if named is not None:
        entry["model"] = named
    entry["costSource"] = None
    return entry
