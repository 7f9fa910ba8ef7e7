"""Claude's side events (system subtypes, rate limits, permission prompts, progress) as entries.

A ``can_use_tool`` permission prompt is a ``runtime_request`` (contract 1.3,
built in :mod:`linewise_claude.requests`); every other side event is text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    dig,
    error_text,
    iso_timestamp,
    to_json_text,
)

from linewise_claude.requests import permission_request

__all__ = ["side_event_entries", "system_event_entries"]

# Keys that identify or route an event and say nothing a reader needs.
_PLUMBING: Final = frozenset({"type", "subtype", "uuid", "session_id"})


def _system(ts: str, text: str) -> list[TranscriptEntry]:
    return [{"kind": "system", "ts": ts, "text": text}]


def _stderr(ts: str, text: str) -> list[TranscriptEntry]:
    return [{"kind": "stderr", "ts": ts, "text": text}]


def _joined(*parts: str, sep: str = ", ") -> str:
    return sep.join(part for part in parts if part)


def _rest(event: dict[str, Any]) -> str:
    rest = {key: value for key, value in event.items() if key not in _PLUMBING}
    return to_json_text(rest) if rest else ""


def _seconds(value: object) -> str:
    number = as_number(value, -1)
    return f"{number / 1000:.1f}s" if number >= 0 else ""


# -- system subtypes ---------------------------------------------------------------------


def _api_retry(event: dict[str, Any]) -> str:
    attempt, most = as_int(event.get("attempt")), as_int(event.get("max_retries"))
    delay = _seconds(event.get("retry_delay_ms"))
    status = event.get("error_status")
    # An HTTP status is a number (or its text); anything else is not shown as one.
    code = as_int(status) if type(status) is int else as_string(status)[:40]
    why = _joined(f"HTTP {code}" if code else "", as_string(event.get("error")), sep=" ")
    text = f"API retry {attempt}/{most}" + (f" in {delay}" if delay else "")
    text += f" ({why})" if why else ""
    waited = as_object(event.get("no_response"))
    if waited:
        text += f"; no response after {_seconds(waited.get('waited_ms'))}"
    return text


def _compact_boundary(event: dict[str, Any]) -> str:
    meta = as_object(event.get("compact_metadata"))
    trigger = as_string(meta.get("trigger"), "unknown")
    before, after = meta.get("pre_tokens"), meta.get("post_tokens")
    text = f"context compacted ({trigger})"
    if before is not None and after is not None:
        text += f": {before} → {after} tokens"
    elif before is not None:
        text += f": {before} tokens before"
    took = _seconds(meta.get("duration_ms"))
    return text + (f" in {took}" if took else "")


def _status(event: dict[str, Any]) -> str:
    status = event.get("status")
    parts = [f"status: {status}" if type(status) is str and status else ""]
    result = as_string(event.get("compact_result"))
    if result:
        parts.append(f"compaction {'succeeded' if result == 'success' else result}")
    error = as_string(event.get("compact_error"))
    if error:
        parts.append(f"compaction error: {error}")
    mode = as_string(event.get("permissionMode"))
    if mode:
        parts.append(f"permission mode: {mode}")
    return _joined(*parts, sep="; ") or "status: idle"


def _hook(event: dict[str, Any]) -> str:
    subtype = as_string(event.get("subtype"))
    name = as_string(event.get("hook_name")) or as_string(event.get("hook_event"), "hook")
    if subtype == "hook_started":
        return f"hook {name} started"
    code = event.get("exit_code")
    status = _joined(as_string(event.get("outcome")), f"exit {code}" if code is not None else "")
    verb = "running" if subtype == "hook_progress" else "finished"
    text = f"hook {name} {verb}" + (f" ({status})" if status else "")
    # Entries keep the whole output (a SessionStart hook can print a whole context
    # file); renderers shorten it for display.
    output = as_string(event.get("output")) or as_string(event.get("stdout"))
    for part in (output, as_string(event.get("stderr"))):
        if part.strip():
            text += "\n" + part.strip()
    return text


def _usage_text(usage: dict[str, Any]) -> str:
    parts = []
    if "tool_uses" in usage:
        parts.append(f"{as_int(usage.get('tool_uses'))} tool uses")
    if "total_tokens" in usage:
        parts.append(f"{as_int(usage.get('total_tokens'))} tokens")
    took = _seconds(usage.get("duration_ms"))
    if took:
        parts.append(took)
    return ", ".join(parts)


def _task(event: dict[str, Any]) -> str:
    subtype = as_string(event.get("subtype"))
    task = as_string(event.get("task_id"), "task")
    description = as_string(event.get("description")) or task
    usage = _usage_text(as_object(event.get("usage")))
    if subtype == "task_started":
        kind = _joined(as_string(event.get("subagent_type")), as_string(event.get("task_type")))
        if event.get("is_backgrounded") is True:
            kind = _joined(kind, "in the background")
        text = f"task started: {description}" + (f" ({kind})" if kind else "")
        prompt = as_string(event.get("prompt"))
        return text + (f"\n{prompt}" if prompt else "")
    if subtype == "task_progress":
        last = as_string(event.get("last_tool_name"))
        text = f"task progress: {description}" + (f" ({usage})" if usage else "")
        text += f"; last tool {last}" if last else ""
        summary = as_string(event.get("summary"))
        return text + (f"\n{summary}" if summary else "")
    if subtype == "task_updated":
        patch = as_object(event.get("patch"))
        changes = _joined(
            as_string(patch.get("status")),
            as_string(patch.get("description")),
            f"error: {as_string(patch.get('error'))}" if patch.get("error") else "",
            f"ended {iso_timestamp(patch.get('end_time'))}" if patch.get("end_time") else "",
        )
        return f"task {task} updated" + (f": {changes}" if changes else "")
    if subtype == "task_notification":
        status = as_string(event.get("status"), "finished")
        reason = as_string(event.get("reason"))
        text = f"task {status}" + (f" ({reason})" if reason else "")
        text += f" ({usage})" if usage else ""
        output = as_string(event.get("output_file"))
        text += f"; output in {output}" if output else ""
        summary = as_string(event.get("summary"))
        return text + (f"\n{summary}" if summary else "")
    return f"{subtype}: {description}"


def _informational(event: dict[str, Any]) -> str:
    level = as_string(event.get("level"))
    text = as_string(event.get("content"))
    if event.get("prevent_continuation") is True:
        text += " (execution stops here)"
    return f"{level}: {text}" if level and level != "info" else text


def _refusal_fallback(event: dict[str, Any]) -> str:
    original = as_string(event.get("original_model"), "the model")
    fallback = as_string(event.get("fallback_model"))
    text = f"model {original} refused; falling back to {fallback}"
    direction = as_string(event.get("direction"))
    return _refusal_detail(text + (f" ({direction})" if direction else ""), event)


def _refusal_detail(text: str, event: dict[str, Any]) -> str:
    category = as_string(event.get("api_refusal_category"))
    explanation = as_string(event.get("api_refusal_explanation"))
    content = as_string(event.get("content"))
    return _joined(text, f"category {category}" if category else "", explanation, content, sep="\n")


def _permission_denied(event: dict[str, Any]) -> str:
    tool = as_string(event.get("tool_name"), "tool")
    why = as_string(event.get("decision_reason")) or as_string(event.get("decision_reason_type"))
    message = as_string(event.get("message"))
    return (
        f"permission denied: {tool}"
        + (f" ({why})" if why else "")
        + (f": {message}" if message else "")
    )


def _names(items: object, key: str) -> str:
    return ", ".join(as_string(dig(item, key)) for item in as_list(items) if dig(item, key))


def _files_persisted(event: dict[str, Any]) -> str:
    saved = _names(event.get("files"), "filename")
    failed = ", ".join(
        f"{as_string(dig(item, 'filename'))} ({as_string(dig(item, 'error'))})"
        for item in as_list(event.get("failed"))
    )
    return _joined(f"files persisted: {saved or 'none'}", f"failed: {failed}" if failed else "")


def _memory_recall(event: dict[str, Any]) -> str:
    lines = [f"memories recalled ({as_string(event.get('mode'), 'select')})"]
    for memory in as_list(event.get("memories")):
        path = as_string(dig(memory, "path"))
        scope = as_string(dig(memory, "scope"))
        lines.append(f"{path} ({scope})" if scope else path)
        content = as_string(dig(memory, "content"))
        if content:
            lines.append(content)
    return "\n".join(lines)


def _control_progress(event: dict[str, Any]) -> str:
    status = as_string(event.get("status"))
    if status == "api_retry":
        return f"control request {as_string(event.get('request_id'))}: " + _api_retry(event)
    return f"control request {as_string(event.get('request_id'))} {status or 'in progress'}"


_SYSTEM_TEXT: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "api_retry": _api_retry,
    "compact_boundary": _compact_boundary,
    "status": _status,
    "hook_started": _hook,
    "hook_progress": _hook,
    "hook_response": _hook,
    "notification": lambda e: (
        "notification: " + (as_string(e.get("text")) or as_string(e.get("key")))
    ),
    "thinking_tokens": lambda e: f"thinking… ~{as_int(e.get('estimated_tokens'))} tokens",
    "informational": _informational,
    "local_command_output": lambda e: as_string(e.get("content")),
    "model_refusal_fallback": _refusal_fallback,
    "permission_denied": _permission_denied,
    "plugin_install": lambda e: _joined(
        f"plugin {as_string(e.get('name'), '')} install {as_string(e.get('status'))}".replace(
            "  ", " "
        ),
        as_string(e.get("error")),
        sep=": ",
    ),
    "session_state_changed": lambda e: f"session {as_string(e.get('state'), 'changed')}",
    "task_summary": lambda e: f"task summary: {as_string(e.get('detail'))}",
    "post_turn_summary": lambda e: _joined(
        f"turn summary ({as_string(e.get('status_category'), 'unknown')}): "
        + as_string(e.get("status_detail")),
        f"needs action: {as_string(e.get('needs_action'))}" if e.get("needs_action") else "",
        sep="\n",
    ),
    "files_persisted": _files_persisted,
    "elicitation_complete": lambda e: (
        f"MCP elicitation {as_string(e.get('elicitation_id'))} of "
        f"{as_string(e.get('mcp_server_name'))} complete"
    ),
    "worker_shutting_down": lambda e: f"worker shutting down ({as_string(e.get('reason'))})",
    "commands_changed": lambda e: (
        "slash commands: "
        + (", ".join(f"/{name}" for name in _names(e.get("commands"), "name").split(", ") if name))
    ),
    "background_tasks_changed": lambda e: (
        "background tasks: " + (_names(e.get("tasks"), "description") or "none")
    ),
    "memory_recall": _memory_recall,
    "control_request_progress": _control_progress,
}

# System subtypes that report a failure: stderr entries, so views show them as errors.
_FAILURES: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "model_refusal_no_fallback": lambda e: _refusal_detail(
        f"model {as_string(e.get('original_model'), '')} refused; no fallback".replace("  ", " "),
        e,
    ),
    "mirror_error": lambda e: f"transcript mirror error: {as_string(e.get('error'))}",
}


#: post_turn_summary's status_category -> the run_result disposition it states (contract 1.3).
_TURN_DISPOSITIONS: Final = {
    "completed": "done",
    "complete": "done",
    "done": "done",
    "blocked": "blocked",
    "needs_review": "needs_review",
    "review": "needs_review",
    "needs_input": "yielded",
    "needs_action": "yielded",
    "waiting": "yielded",
}


def _turn_summary(event: dict[str, Any], ts: str) -> list[TranscriptEntry] | None:
    """A post_turn_summary as a ``run_result``, when its category is one of the known ones."""
    category = as_string(event.get("status_category"))
    disposition = _TURN_DISPOSITIONS.get(category)
    if disposition is None:
        return None  # an unknown category: the text says it as it came
    detail = as_string(event.get("status_detail"))
    action = as_string(event.get("needs_action"))
    entry: dict[str, Any] = {
        "kind": "run_result",
        "ts": ts,
        "disposition": disposition,
        "summary": detail or f"turn summary ({category})",
        "objectiveSatisfied": None,
        "verification": [],
        "remainingWork": [{"description": action, "blocksCompletion": True}] if action else [],
        "blocker": None,
        "artifacts": [],
    }
    return [entry]  # type: ignore[list-item]


def system_event_entries(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """A ``system`` event other than ``init`` as entries (none for an empty task summary)."""
    subtype = as_string(event.get("subtype"))
    if subtype == "post_turn_summary":
        claimed = _turn_summary(event, ts)
        if claimed is not None:
            return claimed
    if subtype.startswith("task_") and subtype != "task_summary":
        return _system(ts, _task(event))
    if subtype == "task_summary" and not as_string(event.get("detail")):
        return []  # the CLI clears the activity line: nothing happened
    failure = _FAILURES.get(subtype)
    if failure is not None:
        return _stderr(ts, failure(event))
    text = _SYSTEM_TEXT.get(subtype)
    if text is not None:
        return _system(ts, text(event))
    rest = _rest(event)
    return _system(ts, f"{subtype or 'system'}: {rest}" if rest else subtype or "system")


# -- top-level events beside the messages --------------------------------------------------


def _window(name: str, info: dict[str, Any]) -> str:
    text = name
    utilization = as_number(info.get("utilization"), -1)
    if utilization >= 0:
        text += f" {utilization:.0%} used"
    resets = iso_timestamp(info.get("resetsAt"))
    return text + (f", resets {resets}" if resets else "")


def _rate_limit(event: dict[str, Any]) -> str:
    info = as_object(event.get("rate_limit_info"))
    text = f"rate limit {as_string(info.get('status'), 'unknown')}"
    window = as_string(info.get("rateLimitType"))
    windows = as_object(info.get("unifiedWindows"))
    if window:
        # The primary window's utilization may only be given among the unified windows.
        text += ": " + _window(f"{window} window", {**as_object(windows.get(window)), **info})
    threshold = as_number(info.get("surpassedThreshold"), -1)
    if threshold >= 0:
        text += f" (passed {threshold:.0%})"
    overage = as_string(info.get("overageStatus"))
    if overage:
        text += f"; overage {overage}"
        if info.get("isUsingOverage") is True or info.get("overageInUse") is True:
            text += " (in use)"
        why = as_string(info.get("overageDisabledReason"))
        text += f" ({why})" if why else ""
        resets = iso_timestamp(info.get("overageResetsAt"))
        text += f", resets {resets}" if resets else ""
    for name, numbers in windows.items():
        if name != window:  # the primary window is already described
            text += "; " + _window(name, as_object(numbers))
    extra = _joined(as_string(info.get("limitScope")), as_string(info.get("errorCode")))
    return text + (f" ({extra})" if extra else "")


def _suggestions(value: object) -> str:
    parts = []
    for value_item in as_list(value):
        item = as_object(value_item)
        detail = _joined(
            as_string(item.get("mode")),
            as_string(item.get("behavior")),
            _names(item.get("rules"), "toolName"),
            as_string(item.get("destination")),
            sep=" ",
        )
        parts.append(as_string(item.get("type"), "suggestion") + (f" {detail}" if detail else ""))
    return "; ".join(parts)


def _control_request(event: dict[str, Any]) -> list[TranscriptEntry]:
    request = as_object(event.get("request"))
    subtype = as_string(request.get("subtype"))
    if subtype != "can_use_tool":
        rest = _rest({k: v for k, v in request.items() if k != "subtype"})
        return [
            {
                "kind": "system",
                "ts": "",
                "text": f"control request: {subtype or 'unknown'}" + (f" {rest}" if rest else ""),
            }
        ]
    tool = as_string(request.get("display_name")) or as_string(request.get("tool_name"), "tool")
    lines = [
        f"permission requested: {tool}"
        + (f" ({as_string(request.get('description'))})" if request.get("description") else "")
    ]
    for key, label in (
        ("title", ""),
        ("decision_reason", "reason: "),
        ("blocked_path", "blocked path: "),
    ):
        value = as_string(request.get(key))
        if value:
            lines.append(label + value)
    if request.get("requires_user_interaction") is True:
        lines.append("waiting for the user")
    suggestions = _suggestions(request.get("permission_suggestions"))
    if suggestions:
        lines.append(f"suggested: {suggestions}")
    ident = (
        as_string(event.get("request_id"))
        or as_string(request.get("tool_use_id"))
        or "claude-permission"
    )
    asked = permission_request(request, ident, "\n".join(lines), "")
    text_input = to_json_text(request.get("input")) if request.get("input") else ""
    if text_input and asked["questionSet"] is None:  # a question's input is its question set
        asked["prompt"] += f"\ninput: {text_input}"
    return [asked]  # type: ignore[list-item]


def _control_response(event: dict[str, Any]) -> list[TranscriptEntry]:
    response = as_object(event.get("response"))
    ident = as_string(response.get("request_id"))
    if as_string(response.get("subtype")) == "error":
        return [
            {
                "kind": "stderr",
                "ts": "",
                "text": f"control request {ident} failed: {error_text(response.get('error'))}",
            }
        ]
    decision = as_object(response.get("response"))
    behavior = as_string(decision.get("behavior"))
    if behavior:
        message = as_string(decision.get("message"))
        text = f"permission {'allowed' if behavior == 'allow' else behavior}"
        text += f": {message}" if message else ""
        if decision.get("updatedInput"):
            text += f"\nupdated input: {to_json_text(decision.get('updatedInput'))}"
        return [{"kind": "system", "ts": "", "text": text}]
    rest = to_json_text(decision) if decision else ""
    return [
        {
            "kind": "system",
            "ts": "",
            "text": f"control request {ident} answered" + (f": {rest}" if rest else ""),
        }
    ]


def _tool_progress(event: dict[str, Any]) -> list[TranscriptEntry]:
    if event.get("heartbeat") is True:
        return []  # a keep-alive: nothing a reader needs
    tool = as_string(event.get("tool_name"), "tool")
    elapsed = as_number(event.get("elapsed_time_seconds"), -1)
    text = f"{tool} running" + (f" for {elapsed:.0f}s" if elapsed >= 0 else "")
    retry = as_object(event.get("subagent_retry"))
    if retry:
        text += (
            "; subagent "
            + _api_retry(retry)
            + (
                f" [{as_string(retry.get('error_category'))}]"
                if retry.get("error_category")
                else ""
            )
        )
    return [{"kind": "system", "ts": "", "text": text}]


def _auth_status(event: dict[str, Any]) -> list[TranscriptEntry]:
    output = "\n".join(line for line in as_list(event.get("output")) if type(line) is str)
    error = as_string(event.get("error"))
    state = "authenticating" if event.get("isAuthenticating") is True else "authentication"
    entries: list[TranscriptEntry] = [
        {"kind": "system", "ts": "", "text": state + (f"\n{output}" if output else "")}
    ]
    if error:
        entries.append({"kind": "stderr", "ts": "", "text": f"authentication failed: {error}"})
    return entries


def _one(kind: str, text: str) -> list[TranscriptEntry]:
    if kind == "stderr":
        return [{"kind": "stderr", "ts": "", "text": text}]
    return [{"kind": "system", "ts": "", "text": text}]


_SIDE_EVENTS: Final[dict[str, Callable[[dict[str, Any]], list[TranscriptEntry]]]] = {
    "rate_limit_event": lambda e: _one("system", _rate_limit(e)),
    "control_request": _control_request,
    "control_response": _control_response,
    "control_cancel_request": lambda e: _one(
        "system", f"control request {as_string(e.get('request_id'))} cancelled"
    ),
    "tool_progress": _tool_progress,
    "tool_use_summary": lambda e: _one("system", f"tool summary: {as_string(e.get('summary'))}"),
    "auth_status": _auth_status,
    "prompt_suggestion": lambda e: _one(
        "system", f"suggested next prompt: {as_string(e.get('suggestion'))}"
    ),
    "conversation_reset": lambda e: _one(
        "system", f"conversation reset; new conversation {as_string(e.get('new_conversation_id'))}"
    ),
    "keep_alive": lambda e: [],
}


def side_event_entries(event: dict[str, Any], ts: str) -> list[TranscriptEntry] | None:
    """Entries for a top-level event that is not a message, or None for an unknown type."""
    handler = _SIDE_EVENTS.get(as_string(event.get("type")))
    if handler is None:
        return None
    entries = handler(event)
    for entry in entries:
        entry["ts"] = ts
    return entries
