"""The legacy ``{"id": .., "msg": {"type": ..}}`` event shape of Codex before ``codex exec --json``.

Codex releases of 2025 (``codex proto``, and ``codex exec --json`` before
0.44) wrote each protocol event as ``{"id": <submission id>, "msg": {...}}``.
The ``msg`` types are the ``EventMsg`` variants of
``codex-rs/protocol/src/protocol.rs``; this module reads them one at a time.
"""

from __future__ import annotations

import math
import shlex
from typing import Any, Final

from linewise_contracts.activity import plan_activity, runtime_request
from linewise_contracts.entries import DiffChangeType, JsonValue, ResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    diff_entries,
    error_text,
    json_or_placeholder,
    to_json_text,
)
from linewise_contracts.outcomes import Outcome

from linewise_codex.usage import token_usage, with_session_fields

__all__ = ["is_legacy_event", "legacy_entries", "legacy_result"]

# A diff longer than this many lines is cut with a truncation entry.
_DIFF_LINES: Final = 2000
_STDERR_TYPES: Final = frozenset({"error", "stream_error", "warning"})
_DELTAS: Final = (
    "agent_message_delta",
    "agent_reasoning_delta",
    "agent_reasoning_raw_content_delta",
)
_MESSAGES: Final = {
    "agent_message": "message",
    "agent_reasoning": "text",
    "agent_reasoning_raw_content": "text",
    "user_message": "message",
}


def is_legacy_event(event: dict[str, Any]) -> bool:
    """True for ``{"id": "...", "msg": {"type": "...", ...}}``."""
    msg = event.get("msg")
    return (
        type(event.get("id")) is str
        and type(msg) is dict
        and type(msg.get("type")) is str
        and "type" not in event
    )


def _command_text(command: object) -> str:
    if type(command) is str:
        return command
    parts = [part for part in as_list(command) if type(part) is str]
    return shlex.join(parts)


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _exec_end(msg: dict[str, Any], ts: str) -> TranscriptEntry:
    exit_code = as_number(msg.get("exit_code"), math.inf)
    known = exit_code != math.inf
    output = as_string(msg.get("aggregated_output")) or "\n".join(
        text for text in (as_string(msg.get("stdout")), as_string(msg.get("stderr"))) if text
    )
    lines = [f"command: {_command_text(msg.get('command'))}"] if msg.get("command") else []
    if known:
        lines.append(f"exit_code: {_whole(exit_code)}")
    if output.strip():
        lines.extend(("", output.rstrip()) if lines else (output.rstrip(),))
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": as_string(msg.get("call_id"), "exec_command"),
        "content": "\n".join(lines) or "command completed",
        "isError": known and exit_code != 0,
    }


def _patch_changes(changes: object) -> dict[str, JsonValue]:
    """Path -> change kind (``add``, ``delete``, ``update``, or ``update -> new path``)."""
    described: dict[str, JsonValue] = {}
    for path, change in as_object(changes).items():
        body = as_object(change)
        kind = as_string(body.get("type"))
        if not kind and len(body) == 1:  # older releases: {"update": {...}}
            kind = next(iter(body))
            body = as_object(body[kind])
        moved = as_string(body.get("move_path"))
        described[path] = f"{kind or 'update'} -> {moved}" if moved else kind or "update"
    return described


def _patch_diffs(changes: object, ts: str) -> list[TranscriptEntry]:
    entries: list[TranscriptEntry] = []
    for path, change in as_object(changes).items():
        body = as_object(change)
        if not as_string(body.get("type")) and len(body) == 1:
            body = as_object(next(iter(body.values())))
        diff = as_string(body.get("unified_diff")) or as_string(body.get("content"))
        if diff.strip():
            entries.append({"kind": "diff", "ts": ts, "changeType": "file_header", "text": path})
            if "unified_diff" in body:
                entries.extend(diff_entries(diff, ts, limit=_DIFF_LINES))
            else:
                entries.extend(_content_lines(diff, as_string(body.get("type")) == "delete", ts))
    return entries


def _content_lines(content: str, deleted: bool, ts: str) -> list[TranscriptEntry]:
    """A whole file added or deleted, as ``+`` or ``-`` diff lines (cut with a marker)."""
    lines = content.splitlines()
    sign = "-" if deleted else "+"
    kind: DiffChangeType = "remove" if deleted else "add"
    entries: list[TranscriptEntry] = [
        {"kind": "diff", "ts": ts, "changeType": kind, "text": sign + line}
        for line in lines[:_DIFF_LINES]
    ]
    if len(lines) > _DIFF_LINES:
        left = len(lines) - _DIFF_LINES
        entries.append(
            {"kind": "diff", "ts": ts, "changeType": "truncation", "text": f"… {left} more lines"}
        )
    return entries


def _mcp_end(msg: dict[str, Any], ts: str) -> TranscriptEntry:
    result = as_object(msg.get("result"))
    failed = "Err" in result
    if failed:
        text = error_text(result["Err"])
    else:
        ok = as_object(result.get("Ok", result))
        failed = ok.get("isError") is True or ok.get("is_error") is True
        text = content_text(ok.get("content"))
        structured = ok.get("structuredContent", ok.get("structured_content"))
        if not text and structured is not None:
            text = to_json_text(structured, pretty=True)
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": as_string(msg.get("call_id"), "mcp_tool_call"),
        "content": text or ("failed" if failed else "completed"),
        "isError": failed,
    }


def _mcp_name(msg: dict[str, Any]) -> str:
    invocation = as_object(msg.get("invocation"))
    server, tool = as_string(invocation.get("server")), as_string(invocation.get("tool"), "tool")
    return f"{server}.{tool}" if server else tool


def _tokens_text(msg: dict[str, Any]) -> str:
    info = as_object(msg.get("info"))
    total = as_object(info.get("total_token_usage"))
    text = "token usage unknown"
    if total:
        text = (
            f"tokens so far: {as_number(total.get('input_tokens')):g} in"
            f" ({as_number(total.get('cached_input_tokens')):g} cached),"
            f" {as_number(total.get('output_tokens')):g} out"
            f" ({as_number(total.get('reasoning_output_tokens')):g} reasoning)"
        )
    window = info.get("model_context_window")
    if type(window) is int:
        text += f"; context window {window}"
    limits = msg.get("rate_limits")
    if limits is not None:
        text += f"; rate limits {to_json_text(limits)}"
    return text


def _plan(msg: dict[str, Any], ts: str) -> TranscriptEntry:
    """``plan_update`` (the ``update_plan`` tool) as contract 1.3's plan card."""
    steps = [
        (as_string(step.get("status")), as_string(step.get("step")))
        for step in as_list(msg.get("plan"))
        if type(step) is dict
    ]
    explanation = as_string(msg.get("explanation")).strip()
    return plan_activity(ts, steps, explanation=explanation)  # type: ignore[return-value]


def _approval(msg: dict[str, Any], ts: str) -> TranscriptEntry:
    """An approval Codex waits for, as contract 1.3's ``runtime_request`` (pending)."""
    kind = as_string(msg.get("type"))
    what = _command_text(msg.get("command")) or ", ".join(_patch_changes(msg.get("changes")))
    reason = as_string(msg.get("reason"))
    text = f"approval requested: {what}" + (f" ({reason})" if reason else "")
    ident = as_string(msg.get("call_id")) or kind
    request_kind = "file_approval" if kind == "apply_patch_approval_request" else "command_approval"
    return runtime_request(ts, ident, text, request_kind=request_kind)  # type: ignore[return-value]


def _text_entries(kind: str, msg: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """Streamed deltas and whole messages of the agent (its reasoning as thinking) and the user."""
    delta = kind in _DELTAS
    text = as_string(msg.get("delta" if delta else _MESSAGES[kind]))
    if not text:
        return []
    if kind == "user_message":
        return [{"kind": "user", "ts": ts, "text": text}]
    if kind.startswith("agent_message"):
        if delta:
            return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]
        return [{"kind": "assistant", "ts": ts, "text": text}]
    if delta:
        return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]
    return [{"kind": "thinking", "ts": ts, "text": text}]


def legacy_entries(msg: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """The entries of one legacy event's ``msg`` (each event read alone)."""
    kind = as_string(msg.get("type"))
    if kind in _DELTAS or kind in _MESSAGES:
        return _text_entries(kind, msg, ts)
    if kind == "session_configured":
        return [
            {
                "kind": "init",
                "ts": ts,
                "model": as_string(msg.get("model")),
                "sessionId": as_string(msg.get("session_id")),
            }
        ]
    if kind in ("task_started", "turn_started"):
        window = msg.get("model_context_window")
        suffix = f" (context window {window})" if type(window) is int else ""
        return [{"kind": "system", "ts": ts, "text": "task started" + suffix}]
    if kind == "token_count":
        return [{"kind": "system", "ts": ts, "text": _tokens_text(msg)}]
    if kind in ("task_complete", "turn_complete"):
        return [legacy_result(msg, ts, {})]
    if kind == "turn_aborted":
        reason = as_string(msg.get("reason"), "unknown")
        result = legacy_result(msg, ts, {})
        result["subtype"] = "turn_aborted"
        result["isError"] = True
        result["errors"] = [f"turn aborted: {reason}"]
        return [result]
    if kind in _STDERR_TYPES:
        return [{"kind": "stderr", "ts": ts, "text": error_text(msg.get("message")) or kind}]
    if kind == "deprecation_notice":
        details = as_string(msg.get("details"))
        text = as_string(msg.get("summary")) + (f"\n{details}" if details else "")
        return [{"kind": "stderr", "ts": ts, "text": text or kind}]
    if kind == "background_event":
        return [{"kind": "system", "ts": ts, "text": as_string(msg.get("message")) or kind}]
    if kind == "exec_command_begin":
        call_id = as_string(msg.get("call_id"), "exec_command")
        tool_input: dict[str, JsonValue] = {
            "id": call_id,
            "command": _command_text(msg.get("command")),
        }
        if as_string(msg.get("cwd")):
            tool_input["cwd"] = msg["cwd"]
        return [
            {
                "kind": "tool_call",
                "ts": ts,
                "name": "command_execution",
                "toolUseId": call_id,
                "input": tool_input,
            }
        ]
    if kind == "exec_command_end":
        return [_exec_end(msg, ts)]
    if kind == "patch_apply_begin":
        call: TranscriptEntry = {
            "kind": "tool_call",
            "ts": ts,
            "name": "apply_patch",
            "toolUseId": as_string(msg.get("call_id"), "apply_patch"),
            "input": {"changes": _patch_changes(msg.get("changes"))},
        }
        return [call, *_patch_diffs(msg.get("changes"), ts)]
    if kind == "patch_apply_end":
        output = "\n".join(
            text for text in (as_string(msg.get("stdout")), as_string(msg.get("stderr"))) if text
        )
        failed = msg.get("success") is False
        return [
            {
                "kind": "tool_result",
                "ts": ts,
                "toolUseId": as_string(msg.get("call_id"), "apply_patch"),
                "content": output.rstrip() or ("patch failed" if failed else "patch applied"),
                "isError": failed,
            }
        ]
    if kind == "mcp_tool_call_begin":
        arguments = as_object(msg.get("invocation")).get("arguments")
        return [
            {
                "kind": "tool_call",
                "ts": ts,
                "name": _mcp_name(msg),
                "toolUseId": as_string(msg.get("call_id"), "mcp_tool_call"),
                "input": json_or_placeholder({} if arguments is None else arguments),
            }
        ]
    if kind == "mcp_tool_call_end":
        return [_mcp_end(msg, ts)]
    if kind == "web_search_begin":
        call_id = as_string(msg.get("call_id"), "web_search")
        return [
            {"kind": "tool_call", "ts": ts, "name": "web_search", "toolUseId": call_id, "input": {}}
        ]
    if kind == "web_search_end":
        return [
            {
                "kind": "tool_result",
                "ts": ts,
                "toolUseId": as_string(msg.get("call_id"), "web_search"),
                "content": f"searched: {as_string(msg.get('query'))}",
                "isError": False,
            }
        ]
    if kind == "turn_diff":
        return diff_entries(as_string(msg.get("unified_diff")), ts, limit=_DIFF_LINES)
    if kind == "plan_update":
        return [_plan(msg, ts)]
    if kind in ("exec_approval_request", "apply_patch_approval_request"):
        return [_approval(msg, ts)]
    if kind in ("agent_reasoning_section_break", "shutdown_complete"):
        # A marker with nothing to show beyond its name.
        return [{"kind": "system", "ts": ts, "text": kind.replace("_", " ")}]
    rest = {key: value for key, value in msg.items() if key != "type"}
    detail = f": {to_json_text(rest)}" if rest else ""
    return [{"kind": "system", "ts": ts, "text": f"codex {kind}{detail}"}]


#: How a legacy event that ends a turn came out (contract 1.5 ``outcome``).
_OUTCOMES: Final[dict[str, Outcome]] = {
    "task_complete": "completed",
    "turn_complete": "completed",
    "turn_aborted": "interrupted",
}


def legacy_result(
    msg: dict[str, Any],
    ts: str,
    usage: dict[str, Any],
    session: str = "",
    total: dict[str, Any] | None = None,
) -> ResultEntry:
    """A task's end as a ``result``; ``usage`` is the last ``token_count`` total seen, if any.

    ``session`` is the session the task belongs to (the stateful parsers know
    it); ``total`` is its running total where ``usage`` is not (a rollout's
    results count the tokens since the last one): the result carries it in
    the usage vocabulary with its ``sessionId`` (contract 1.5).
    """
    result = _wire_result(msg, ts, usage)
    return with_session_fields(
        result,
        usage=token_usage(usage if total is None else total),
        outcome=_OUTCOMES.get(as_string(msg.get("type"))),
        cost=None,
        session=session,
    )


def _wire_result(msg: dict[str, Any], ts: str, usage: dict[str, Any]) -> ResultEntry:
    return {
        "kind": "result",
        "ts": ts,
        "text": as_string(msg.get("last_agent_message")),
        "inputTokens": as_number(usage.get("input_tokens")),
        "outputTokens": as_number(usage.get("output_tokens")),
        "cachedTokens": as_number(usage.get("cached_input_tokens")),
        "costUsd": 0,
        "subtype": as_string(msg.get("type")),
        "isError": False,
        "errors": [],
    }
