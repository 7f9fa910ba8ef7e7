"""The whole-run summary of a Cursor CLI or Cursor Cloud run, and its unknown-session check."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    dig,
    error_text,
    parse_json_object,
)
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_cursor import ending
from linewise_cursor.parser import normalize_line

__all__ = ["is_unknown_session_error", "result_usage", "summarize_run"]

# Events of a session still under way: after one of these, a run needs another
# result to be complete (an error line after the result does not reopen it).
_ACTIVITY: Final = frozenset(
    {
        "system",
        "user",
        "assistant",
        "thinking",
        "tool_call",
        "text",
        "tool_use",
        "step_start",
        "cursor_cloud.init",
        "cursor_cloud.message",
        "cursor_cloud.status",
    }
)
_UNKNOWN_SESSION: Final = re.compile(
    r"unknown\s++(?:session|chat)|could\s++not\s++resume", re.IGNORECASE
)
# "session <id> not found" (chat, resume): a head, then later on the same line the tail,
# each searched once, so no text makes the search quadratic.
_NOT_FOUND_HEAD: Final = re.compile(r"(?:session|chat|resume)\s", re.IGNORECASE)
_NOT_FOUND_TAIL: Final = re.compile(r"\snot\s++found", re.IGNORECASE)


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when Cursor refused ``--resume`` because it does not know the chat.

    Takes the run's output text (stdout, stderr), like the reference's
    ``isCursorUnknownSessionError``, so a caller can retry with a fresh session.
    """
    lines = [line.strip() for line in f"{stdout}\n{stderr}".splitlines() if line.strip()]
    if _UNKNOWN_SESSION.search("\n".join(lines)):
        return True
    for line in lines:
        head = _NOT_FOUND_HEAD.search(line)
        if head is not None and _NOT_FOUND_TAIL.search(line, head.end()) is not None:
            return True
    return False


def _count(usage: dict[str, Any], *keys: str) -> int:
    return next((as_int(usage[key]) for key in keys if as_number(usage.get(key), -1) >= 0), 0)


def result_usage(event: dict[str, Any]) -> Usage:
    """Token counts of a Cursor ``result`` event (snake_case or camelCase usage).

    cursor-agent 2026.08 reports ``inputTokens``, ``outputTokens``,
    ``cacheReadTokens`` and ``cacheWriteTokens``; the cache reads are the
    cached tokens.
    """
    usage = as_object(event.get("usage"))
    return Usage(
        input_tokens=_count(usage, "input_tokens", "inputTokens"),
        output_tokens=_count(usage, "output_tokens", "outputTokens"),
        cached_tokens=_count(
            usage,
            "cached_input_tokens",
            "cachedInputTokens",
            "cache_read_input_tokens",
            "cacheReadTokens",
        ),
    )


def _text_parts(message: object) -> list[str]:
    if type(message) is str:
        return [message]
    body = as_object(message)
    parts = [as_string(body.get("text"))]
    parts += [
        as_string(part.get("text"))
        for part in as_list(body.get("content"))
        if type(part) is dict and part.get("type") in ("output_text", "text")
    ]
    return parts


class _Run:
    """What one pass over the lines has seen so far."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.usage = Usage()
        self.tokens = TokenUsage()
        self.usage_reported = False  # a result carried token counts: else they are unknown
        self.cache_write = 0
        self.costs: list[float | None] = []
        self.final_text: str | None = None
        self.streaming = False  # the last assistant event was a fragment
        self.result: dict[str, Any] | None = None
        self.results = 0
        self.sessions = 0
        self.open = False  # activity after the last result
        self.errors: list[str] = []
        self.other_text: deque[str] = deque(maxlen=20)
        self.pr_url: str | None = None
        self.duration_ms: int | None = None

    def error(self, text: str) -> None:
        text = text.strip()
        if text and text not in self.errors:
            self.errors.append(text)

    def assistant(self, event: dict[str, Any]) -> None:
        fragment = "timestamp_ms" in event and "model_call_id" not in event
        text = "".join(_text_parts(event.get("message")))
        if fragment:
            # Fragments of one streamed segment add up; the recap then repeats them.
            self.final_text = (self.final_text or "") + text if self.streaming else text
            self.streaming = True
            return
        self.streaming = False
        if text.strip():
            self.final_text = "\n\n".join(
                p.strip() for p in _text_parts(event.get("message")) if p.strip()
            )

    def cli_event(self, kind: str, event: dict[str, Any]) -> None:
        if kind == "system":
            subtype = as_string(event.get("subtype")).lower()
            if subtype == "init":
                self.sessions += 1
                self.model = as_string(event.get("model")) or self.model
            elif subtype == "error":
                self.error(error_text(event.get("message") or event.get("error")))
        elif kind == "assistant":
            self.assistant(event)
        elif kind == "result":
            self.results += 1
            self.result = event
            self.open = False
            tokens = ending.result_usage(event)
            if tokens is not None:
                usage = as_object(event.get("usage"))
                self.usage_reported = True
                self.usage += result_usage(event)
                self.tokens += tokens
                self.cache_write += _count(usage, "cacheWriteTokens", "cache_write_input_tokens")
            self.costs.append(ending.result_cost(event))
            duration = event.get("duration_ms")
            self.duration_ms = as_int(duration) if as_number(duration, -1) >= 0 else None
            if not self.final_text:
                self.final_text = as_string(event.get("result")).strip() or None
            if ending.result_failed(event):
                self.error(
                    error_text(event.get("error") or event.get("message") or event.get("result"))
                    or as_string(event.get("subtype")).lower()
                )
        elif kind == "error":
            self.error(
                error_text(event.get("message") or event.get("error") or event.get("detail"))
            )
        elif kind == "step_finish":  # the OpenCode-like shape of older builds
            step = ending.step_usage(event)
            if step is not None:
                counts = as_object(dig(event, "part", "tokens"))
                self.usage_reported = True
                self.tokens += step
                self.usage += Usage(
                    input_tokens=as_int(counts.get("input"))
                    + as_int(dig(counts, "cache", "write")),
                    output_tokens=as_int(counts.get("output")),
                    cached_tokens=as_int(dig(counts, "cache", "read")),
                )
            self.costs.append(ending.step_cost(event))
        elif kind == "text":
            text = as_string(dig(event, "part", "text"))
            self.final_text = (self.final_text or "") + text if self.streaming else text
            self.streaming = True

    def cloud_event(self, kind: str, event: dict[str, Any]) -> None:
        if kind == "cursor_cloud.init":
            self.sessions += 1
            self.session_id = (
                as_string(event.get("sessionId"))
                or as_string(event.get("agentId"))
                or self.session_id
            )
            self.model = as_string(event.get("model")) or self.model
        elif kind == "cursor_cloud.message":
            message = as_object(event.get("message"))
            if message.get("type") == "assistant":
                texts = [
                    as_string(part.get("text")).strip()
                    for part in as_list(dig(message, "message", "content"))
                    if type(part) is dict and part.get("type") == "text"
                ]
                text = "\n\n".join(text for text in texts if text)
                self.final_text = text or self.final_text
        elif kind == "cursor_cloud.git":
            self._pr_url(event)
        elif kind == "cursor_cloud.result":
            self.results += 1
            self.result = event
            self.open = False
            self.model = as_string(event.get("model")) or self.model
            self.final_text = as_string(event.get("result")).strip() or self.final_text
            duration = event.get("durationMs")
            self.duration_ms = as_int(duration) if as_number(duration, -1) >= 0 else None
            self._pr_url(as_object(event.get("git")))
            if ending.cloud_failed(event):
                status = as_string(event.get("status"), "error")
                self.error(error_text(event.get("error")) or f"Cursor Cloud run {status}")

    def _pr_url(self, git: dict[str, Any]) -> None:
        for branch in as_list(git.get("branches")):
            url = as_string(dig(branch, "prUrl")).strip()
            if url:
                self.pr_url = url


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole Cursor CLI (or Cursor Cloud) run.

    Usage and cost come from the ``result`` events (Cursor reports no cost:
    ``cost_usd`` stays None unless every result carries one). The final text
    is the last assistant message; a run that ends without its ``result`` is
    incomplete. Works on ``stdout{...}``-prefixed Paperclip logs too.
    """
    run = _Run()
    for line in lines:
        normalized = normalize_line(line)
        event = parse_json_object(normalized) if normalized else None
        if event is None:
            if normalized:
                run.other_text.append(normalized)
            continue
        for key in ("session_id", "sessionId", "sessionID"):
            ident = event.get(key)
            if type(ident) is str and ident.strip():
                run.session_id = ident.strip()
                break
        kind = as_string(event.get("type")).strip()
        if kind in _ACTIVITY:
            run.open = True
        if kind.startswith("cursor_cloud."):
            run.cloud_event(kind, event)
        else:
            run.cli_event(kind, event)

    result = run.result
    known = [cost for cost in run.costs if cost is not None]
    subtype = ending.result_subtype(result) if result is not None else None
    details: dict[str, JsonValue] = {
        "sessions": run.sessions,
        "results": run.results,
        # "none": no result reported tokens, so the zero counts mean unknown, not nothing.
        "usageBasis": "per_result" if run.usage_reported else "none",
    }
    if run.cache_write:
        details["cacheWriteInputTokens"] = run.cache_write
    if run.duration_ms is not None:
        details["durationMs"] = run.duration_ms
    if subtype is not None:
        details["resultSubtype"] = subtype
    if run.pr_url:
        details["prUrl"] = run.pr_url
    complete = result is not None and not run.open
    return RunSummary(
        session_id=run.session_id,
        model=run.model,
        usage=run.usage,
        cost_usd=sum(known) if known and len(known) == len(run.costs) else None,
        final_text=run.final_text.strip() if run.final_text and run.final_text.strip() else None,
        outcome=_outcome(
            subtype,
            complete=complete,
            failed=bool(run.errors),
            started=bool(run.sessions or run.open),
        ),
        is_error=bool(run.errors),
        errors=tuple(run.errors),
        unknown_session=is_unknown_session_error("\n".join([*run.other_text, *run.errors])),
        turns=None,
        complete=complete,
        details=details,
        token_usage=run.tokens,
        cost_source="reported" if known and len(known) == len(run.costs) else None,
    )


def _outcome(subtype: str | None, *, complete: bool, failed: bool, started: bool) -> str | None:
    """How the run ended in the contract's words; Cursor's own subtype is in ``details``."""
    if not complete:
        return "cut_off" if started or subtype is not None else None
    if failed:
        return "failed"
    return "completed" if subtype is not None else None
