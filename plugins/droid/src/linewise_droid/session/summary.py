"""A Droid session file's summary: model and token totals from its settings record."""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage

from linewise_droid.sniff import SETTINGS_RECORD
from linewise_droid.summary import token_usage, usage_of

__all__ = ["summarize_session"]


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """Summarise a Droid session file: model and token totals from its settings record.

    The session's transcript has no usage; Droid keeps the session's totals
    (and model) in ``<uuid>.settings.json``, which the records start with. A
    session file ends whenever the person stops, so its outcome is unknown
    unless the last message is the assistant's (``completed``).
    """
    session_id = model = cwd = title = None
    tokens = TokenUsage()
    last_role: str | None = None
    last_text: str | None = None
    tool_calls = 0
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            continue
        kind = record.get("type")
        if kind == SETTINGS_RECORD:
            settings = as_object(record.get("settings"))
            model = as_string(settings.get("model")) or model
            tokens = token_usage(settings.get("tokenUsage"), camel=True)
        elif kind == "session_start":
            session_id = as_string(record.get("id")) or session_id
            cwd = as_string(record.get("cwd")) or cwd
            title = as_string(record.get("title")) or title
        elif kind == "message":
            message = as_object(record.get("message"))
            last_role = as_string(message.get("role")) or last_role
            content = message.get("content")
            for block in content if type(content) is list else []:
                if type(block) is not dict:
                    continue
                if block.get("type") == "tool_use":
                    tool_calls += 1
                elif block.get("type") == "text" and last_role == "assistant":
                    last_text = as_string(block.get("text")) or last_text
    details: dict[str, JsonValue] = {"toolCalls": tool_calls}
    if cwd:
        details["cwd"] = cwd
    if title:
        details["title"] = title
    return RunSummary(
        session_id=session_id,
        model=model,
        usage=usage_of(tokens),
        final_text=last_text,
        outcome="completed" if last_role == "assistant" else None,
        complete=last_role == "assistant",
        details=details,
        token_usage=tokens,
    )
