"""Qwen Code's token counts in the usage vocabulary, from its ``api_response`` telemetry records.

Each model request is recorded as ``systemPayload.uiEvent`` named
``qwen-code.api_response``: ``input_token_count`` is the whole prompt, the
``cached_content_token_count`` included; ``output_token_count`` includes the
``thoughts_token_count`` (``total_token_count`` = input + output).
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.extract import as_object, dig
from linewise_contracts.usage import TokenUsage, token_count, without

__all__ = ["request_tokens"]

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
