"""Claude Code session records beside the messages: system, attachment and bookkeeping records."""

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
    error_text,
    to_json_text,
)

from linewise_claude.events import system_event_entries

__all__ = ["DROPPED", "ENVELOPE", "attachment_entries", "record_entries", "system_entries"]

# Fields every session record carries to place it (who, where, when, which thread):
# none of it is what the record says.
ENVELOPE: Final = frozenset(
    {
        "type",
        "subtype",
        "uuid",
        "parentUuid",
        "logicalParentUuid",
        "isSidechain",
        "userType",
        "cwd",
        "sessionId",
        "session_id",
        "version",
        "gitBranch",
        "timestamp",
        "entrypoint",
        "slug",
        "isMeta",
        "level",
        "requestId",
        "agentId",
        "promptId",
        "toolUseID",
        "parentToolUseID",
    }
)

#: Record types that carry nothing to show, dropped deliberately (see the package docstring).
DROPPED: Final = frozenset(
    {"file-history-snapshot", "last-prompt", "bridge-session", "atis-latch", "agent-name"}
)

# Attachment types the harness adds to every turn as context for the model (tool and
# skill listings, permissions): bookkeeping a reader of the session has no use for.
_QUIET_ATTACHMENTS: Final = frozenset(
    {
        "deferred_tools_delta",
        "mcp_instructions_delta",
        "agent_listing_delta",
        "skill_listing",
        "command_permissions",
        "batching_reminder_sent",
    }
)


def _system(ts: str, text: str) -> list[TranscriptEntry]:
    return [{"kind": "system", "ts": ts, "text": text}]


def _rest(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in ENVELOPE}


def _seconds(value: object) -> str:
    number = as_number(value, -1)
    return f"{number / 1000:.1f}s" if number >= 0 else ""


def _api_error(record: dict[str, Any]) -> str:
    error = as_object(record.get("error"))
    text = (
        as_string(error.get("message"))
        or as_string(error.get("formatted"))
        or error_text(record.get("error"))
    )
    attempt, most = as_int(record.get("retryAttempt")), as_int(record.get("maxRetries"))
    retry = f" (retry {attempt}/{most} in {_seconds(record.get('retryInMs'))})" if most else ""
    status = error.get("status")
    code = f" HTTP {status}" if type(status) is int and status > 0 else ""
    return f"API error{code}: {text or 'unknown'}{retry}"


def _compact(record: dict[str, Any]) -> str:
    meta = as_object(record.get("compactMetadata"))
    trigger = as_string(meta.get("trigger")) or as_string(record.get("trigger"), "unknown")
    before = meta.get("preTokens")
    return f"context compacted ({trigger})" + (f": {before} tokens before" if before else "")


def _stop_hooks(record: dict[str, Any]) -> str:
    commands = [
        as_string(as_object(info).get("command")) for info in as_list(record.get("hookInfos"))
    ]
    text = f"stop hooks ran ({as_int(record.get('hookCount'))}): " + ", ".join(
        c for c in commands if c
    )
    errors = [error_text(error) for error in as_list(record.get("hookErrors"))]
    if errors:
        text += "\nerrors: " + "; ".join(errors)
    if record.get("preventedContinuation") is True:
        text += f"\nstopped: {as_string(record.get('stopReason'))}"
    return text


def _refusal(record: dict[str, Any]) -> str:
    category = as_string(record.get("apiRefusalCategory"))
    explanation = as_string(record.get("apiRefusalExplanation"))
    text = "the API refused the request" + (f" ({category})" if category else "")
    return text + (f": {explanation}" if explanation else "")


def _refusal_fallback(record: dict[str, Any]) -> str:
    original = as_string(record.get("originalModel"), "the model")
    fallback = as_string(record.get("fallbackModel"))
    return f"model {original} refused; falling back to {fallback}".rstrip()


_SYSTEM: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "compact_boundary": _compact,
    "microcompact_boundary": _compact,
    "turn_duration": lambda r: f"turn took {_seconds(r.get('durationMs'))}",
    "stop_hook_summary": _stop_hooks,
    "session_start": lambda r: "session started",
    "local_command": lambda r: as_string(r.get("content"), "local command"),
    "informational": lambda r: as_string(r.get("content"), "informational"),
    "model_refusal_fallback": _refusal_fallback,
    "away_summary": lambda r: "while you were away: " + as_string(r.get("content")),
}
_SYSTEM_ERRORS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "api_error": _api_error,
    "error": _api_error,
    "api_refusal": _refusal,
}


def system_entries(record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """A ``system`` record: its own sentence, or the stream-json wording of the subtype."""
    subtype = as_string(record.get("subtype"))
    failure = _SYSTEM_ERRORS.get(subtype)
    if failure is not None:
        return [{"kind": "stderr", "ts": ts, "text": failure(record)}]
    text = _SYSTEM.get(subtype)
    if text is not None:
        return _system(ts, text(record))
    # Other subtypes read like stream-json's system events, without the envelope.
    return system_event_entries({"type": "system", "subtype": subtype, **_rest(record)}, ts)


# -- attachments ---------------------------------------------------------------------------


def _hook(attachment: dict[str, Any]) -> str:
    name = as_string(attachment.get("hookName")) or as_string(attachment.get("hookEvent"), "hook")
    kind = as_string(attachment.get("type"))
    code = attachment.get("exitCode")
    text = f"hook {name} " + kind.removeprefix("hook_").replace("_", " ")
    text += f" (exit {code})" if type(code) is int else ""
    blocking = as_object(attachment.get("blockingError")).get("blockingError")
    for part in (
        as_string(attachment.get("content")),
        as_string(blocking),
        as_string(attachment.get("stderr")),
    ):
        if part.strip():
            text += "\n" + part.strip()
    return text


def _file(attachment: dict[str, Any]) -> str:
    name = as_string(attachment.get("displayPath")) or as_string(attachment.get("filename"))
    return f"{as_string(attachment.get('type')).replace('_', ' ')}: {name}".rstrip(": ")


def _items(attachment: dict[str, Any]) -> str:
    items = as_list(attachment.get("content"))
    names = [
        as_string(as_object(item).get("content")) or as_string(as_object(item).get("subject"))
        for item in items
    ]
    kind = as_string(attachment.get("type")).replace("_", " ")
    return f"{kind} ({len(items)})" + "".join(f"\n- {name}" for name in names if name)


def _generic(attachment: dict[str, Any]) -> str:
    kind = as_string(attachment.get("type"), "attachment")
    rest = {key: value for key, value in attachment.items() if key != "type"}
    for field in ("text", "content", "banner", "prompt", "description"):
        value = rest.get(field)
        if type(value) is str and value.strip():
            return f"{kind.replace('_', ' ')}: {value}"
    return f"{kind.replace('_', ' ')}" + (f": {to_json_text(rest)}" if rest else "")


def _attachment_text(attachment: dict[str, Any]) -> str:
    kind = as_string(attachment.get("type"))
    if kind.startswith("hook_"):
        return _hook(attachment)
    if kind in ("file", "edited_text_file", "nested_memory", "compact_file_reference", "directory"):
        return _file(attachment)
    if kind in ("todo_reminder", "task_reminder"):
        return _items(attachment)
    return _generic(attachment)


def attachment_entries(record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """An ``attachment`` record: context the harness attached to the conversation."""
    attachment = as_object(record.get("attachment"))
    kind = as_string(attachment.get("type"))
    if kind in _QUIET_ATTACHMENTS:
        return []
    if kind == "queued_command":
        # A prompt the person typed while the agent worked: theirs, like any prompt.
        prompt = as_string(attachment.get("prompt"))
        return [{"kind": "user", "ts": ts, "text": prompt}] if prompt.strip() else []
    if kind in ("hook_blocking_error", "hook_non_blocking_error"):
        return [{"kind": "stderr", "ts": ts, "text": _attachment_text(attachment)}]
    return _system(ts, _attachment_text(attachment))


# -- bookkeeping records --------------------------------------------------------------------


def _queue(record: dict[str, Any]) -> str:
    operation = as_string(record.get("operation"), "change")
    content = as_string(record.get("content"))
    return f"queue {operation}" + (f": {content}" if content else "")


def _worktree(record: dict[str, Any]) -> str:
    state = as_object(record.get("worktreeSession"))
    path = as_string(state.get("worktreePath")) or as_string(record.get("relocatedCwd"))
    branch = as_string(state.get("worktreeBranch"))
    return f"worktree: {path}" + (f" ({branch})" if branch else "") if path else "worktree left"


_RECORDS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "summary": lambda r: "summary: " + as_string(r.get("summary")),
    "custom-title": lambda r: "title: " + as_string(r.get("customTitle")),
    "ai-title": lambda r: "title: " + as_string(r.get("aiTitle")),
    "tag": lambda r: "tag: " + as_string(r.get("tag")),
    "permission-mode": lambda r: "permission mode: " + as_string(r.get("permissionMode")),
    "mode": lambda r: "mode: " + as_string(r.get("mode")),
    "queue-operation": _queue,
    "pr-link": lambda r: f"pull request: {as_string(r.get('prUrl'))}",
    "frame-link": lambda r: f"artifact {as_string(r.get('title'))}: {as_string(r.get('frameUrl'))}",
    "worktree-state": _worktree,
    "relocated": _worktree,
    "started": lambda r: f"background agent {as_string(r.get('agentId'))} started",
}


# Progress records of a running tool (a command's output so far, an MCP call, a search):
# its result carries the outcome. Hook progress is said; agent_progress the parser relays.
_QUIET_PROGRESS: Final = frozenset(
    {
        "bash_progress",
        "mcp_progress",
        "waiting_for_task",
        "query_update",
        "search_results_received",
        "agent_progress",
    }
)


def _progress(record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    data = as_object(record.get("data"))
    kind = as_string(data.get("type"), "progress")
    if kind in _QUIET_PROGRESS:
        return []
    name = as_string(data.get("hookName")) or as_string(data.get("command"))
    return _system(ts, kind.replace("_", " ") + (f": {name}" if name else ""))


def record_entries(record: dict[str, Any], kind: str, ts: str) -> list[TranscriptEntry]:
    """Any record other than a message, a system record or an attachment."""
    if kind in DROPPED:
        return []
    text = _RECORDS.get(kind)
    if text is not None:
        return _system(ts, text(record))
    if kind == "progress":
        return _progress(record, ts)
    if kind == "result":
        # A background agent's result record ({key, agentId, result}), not a run's result.
        summary = as_string(as_object(record.get("result")).get("summary"))
        return _system(ts, f"background agent {as_string(record.get('agentId'))} result: {summary}")
    rest = _rest(record)
    return _system(ts, f"{kind}: {to_json_text(rest)}" if rest else kind)
