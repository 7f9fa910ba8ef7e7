"""The whole-run summary of a ``codex exec --json`` run, and the error classifiers it uses."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any, Final, Literal

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_int, as_object, as_string, dig
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_codex.legacy import is_legacy_event
from linewise_codex.parser import read_event
from linewise_codex.usage import token_usage

__all__ = [
    "AuthRefreshFailure",
    "classify_auth_refresh_failure",
    "is_provider_quota_error",
    "is_transient_upstream_error",
    "is_unknown_session_error",
    "retry_not_before",
    "summarize_run",
]


class _Pattern:
    """A regular expression compiled the first time it is used, not when the plugin loads.

    Compiled at import, this module's patterns were most of the plugin's start-up
    (about 26 million instructions, 8% of a one-line render), and a render that
    draws no summary (jsonl) never uses them.
    """

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def _pattern(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
        return compiled

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self._pattern().search(text, pos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self._pattern().match(text, pos)


AuthRefreshFailure = Literal[
    "refresh_token_reused", "refresh_token_expired", "refresh_token_invalidated"
]

# The wordings Codex uses when `codex exec resume <id>` names a thread it cannot load.
_UNKNOWN_SESSION: Final = _Pattern(
    r"unknown (?:session|thread)|missing rollout path for thread|state db missing rollout path"
    r"|state db returned stale rollout path|no rollout found for thread id",
    re.IGNORECASE,
)
# "session <id> not found" (thread, conversation): read as "a head, then later on the
# same line the tail", searched once each, so no text makes the search quadratic.
_NOT_FOUND_HEAD: Final = _Pattern(r"(?:session|thread|conversation) ", re.IGNORECASE)
_NOT_FOUND_TAIL: Final = _Pattern(r" not found", re.IGNORECASE)
_TRANSIENT: Final = _Pattern(
    r"we[\u2019']re\s+currently\s+experiencing\s+high\s+demand|temporary\s+errors"
    r"|rate[-\s]?limit(?:ed)?|too\s+many\s+requests|\b429\b|server\s+overloaded"
    r"|service\s+unavailable|try\s+again\s+later",
    re.IGNORECASE,
)
_RETRY_WORTHY: Final = _Pattern(r"remote\s+compact\s+task|high\s+demand|temporary\s+errors", re.I)
_QUOTA: Final = _Pattern(
    r"you[\u2019']ve hit your usage limit|usage limit|model (?:is )?at capacity"
    r"|at capacity for this model|capacity limit",
    re.IGNORECASE,
)
_CLOCK_HEAD: Final = _Pattern(r"you[\u2019']ve hit your usage limit for ", re.IGNORECASE)
_DATE_HEAD: Final = _Pattern(r"usage limit", re.IGNORECASE)
_USAGE_LIMIT_CLOCK: Final = _Pattern(
    r"you[\u2019']ve hit your usage limit for .+\.\s+switch to another model now,"
    r"\s+or try again at\s+([^.!\n]+)(?:[.!]|\n|$)",
    re.IGNORECASE,
)
_CLOCK: Final = _Pattern(
    r"^(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\.?(?:\s*\(([^)]+)\)|\s+([A-Z]{2,5}))?$", re.I
)
# Newer Codex names a date: "... or try again at Aug 27th, 2026 8:00 PM."
_USAGE_LIMIT_DATE: Final = _Pattern(
    r"usage limit.*?try again at\s+([A-Z][a-z]{2})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+"
    r"(\d{4}),?\s+(\d{1,2}):(\d{2})\s*([ap])\.?m\.?",
    re.IGNORECASE,
)
_MONTHS: Final = (
    "jan",
    "feb",
    "mar",
    "apr",
    "may",
    "jun",
    "jul",
    "aug",
    "sep",
    "oct",
    "nov",
    "dec",
)
_AUTH_FAILURES: Final[tuple[tuple[_Pattern, AuthRefreshFailure], ...]] = (
    (
        _Pattern(
            r"refresh[_\s-]?token[_\s-]?reused|refresh token (?:has )?already been used"
            r"|token reuse detected",
            re.I,
        ),
        "refresh_token_reused",
    ),
    (
        _Pattern(
            r"refresh[_\s-]?token[_\s-]?expired|refresh token (?:has )?expired"
            r"|expired refresh token",
            re.I,
        ),
        "refresh_token_expired",
    ),
    (
        _Pattern(
            r"refresh[_\s-]?token[_\s-]?(?:invalidated|revoked|invalid)"
            r"|refresh token (?:has been )?(?:invalidated|revoked|invalid)"
            r"|invalid refresh token|missing bearer|\binvalid_grant\b",
            re.I,
        ),
        "refresh_token_invalidated",
    ),
    (
        # A 401 counts only next to words about credentials: a bare 401 is not a refresh failure.
        _Pattern(
            r"(?:oauth|refresh|access[_\s-]?token|bearer|credential)"
            r".{0,80}(?:\b401\b|unauthori[sz]ed|\binvalid[\s-]grant\b)"
            r"|(?:\b401\b|unauthori[sz]ed|\binvalid[\s-]grant\b)"
            r".{0,80}(?:oauth|refresh|access[_\s-]?token|bearer|credential)",
            re.I,
        ),
        "refresh_token_invalidated",
    ),
)
_RECONNECTING: Final = _Pattern(r"^Reconnecting\.\.\. \d+/\d+$")
_KEPT_WARNINGS: Final = 20
#: Error messages a summary keeps; later ones are counted and classified, not kept.
KEPT_ERRORS: Final = 1000


def _haystack(texts: Iterable[str | None]) -> str:
    lines = "\n".join(text or "" for text in texts).splitlines()
    return "\n".join(line.strip() for line in lines if line.strip())


def _head_then_tail(line: str, head: _Pattern, tail: _Pattern) -> bool:
    found = head.search(line)
    return found is not None and tail.search(line, found.end()) is not None


def is_unknown_session_error(*texts: str | None) -> bool:
    """True when Codex could not resume the thread it was given (stdout, stderr or messages)."""
    haystack = _haystack(texts)
    if _UNKNOWN_SESSION.search(haystack) is not None:
        return True
    return any(
        _head_then_tail(line, _NOT_FOUND_HEAD, _NOT_FOUND_TAIL) for line in haystack.splitlines()
    )


def classify_auth_refresh_failure(*texts: str | None) -> AuthRefreshFailure | None:
    """Which way the ChatGPT login's refresh token failed, or None when it did not."""
    haystack = _haystack(texts)
    for pattern, failure in _AUTH_FAILURES:
        if pattern.search(haystack):
            return failure
    return None


def _first_match(pattern: _Pattern, head: _Pattern, text: str) -> re.Match[str] | None:
    """``pattern`` tried only where ``head`` (its opening words) first occurs in each line.

    Both usage-limit patterns scan the rest of a line from where they start
    (``.+``, ``.*?``), so the first start matches whenever a later one would;
    trying every occurrence of the phrase would make a line that repeats it
    cost quadratic time.
    """
    for line in text.splitlines():
        start = head.search(line)
        found = pattern.match(line, start.start()) if start is not None else None
        if found is not None:
            return found
    return None


def _clock(haystack: str) -> tuple[int, int, str | None] | None:
    """Hour, minute and time zone hint of "try again at 11:31 PM (Zone)", if any."""
    found = _first_match(_USAGE_LIMIT_CLOCK, _CLOCK_HEAD, haystack)
    match = _CLOCK.match(found.group(1).strip()) if found else None
    if match is None:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if not 1 <= hour <= 12 or minute > 59:
        return None
    hour = hour % 12 + (12 if match.group(3).lower() == "p" else 0)
    return hour, minute, match.group(4) or match.group(5)


def _zone(hint: str | None) -> tzinfo | None:
    if not hint:
        return None
    if hint.strip().upper() in ("UTC", "GMT"):
        return UTC
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # only for a named zone: not at import

    try:
        return ZoneInfo(hint.strip())
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _next_wall_clock(now: datetime, hour: int, minute: int, zone: tzinfo) -> datetime:
    local = now.astimezone(zone)
    candidate = datetime.combine(local.date(), time(hour, minute), zone)
    if candidate <= now:
        candidate = datetime.combine(local.date() + timedelta(days=1), time(hour, minute), zone)
    return candidate.astimezone(UTC)


def _dated(haystack: str, zone: tzinfo) -> datetime | None:
    found = _first_match(_USAGE_LIMIT_DATE, _DATE_HEAD, haystack)
    if found is None or found.group(1).lower() not in _MONTHS:
        return None
    month = _MONTHS.index(found.group(1).lower()) + 1
    hour, minute = int(found.group(4)), int(found.group(5))
    if not 1 <= hour <= 12 or minute > 59:
        return None
    hour = hour % 12 + (12 if found.group(6).lower() == "p" else 0)
    try:
        day = date(int(found.group(3)), month, int(found.group(2)))
    except ValueError:
        return None
    return datetime.combine(day, time(hour, minute), zone).astimezone(UTC)


def retry_not_before(*texts: str | None, now: datetime) -> datetime | None:
    """When a usage-limit message says the run may be retried, as a UTC datetime.

    "try again at 11:31 PM" is the next 11:31 PM after ``now``, in the zone
    the message names ("11:31 PM (America/Chicago)") or else in ``now``'s own
    zone (UTC when ``now`` is naive); the reference uses the server's local
    zone there. "try again at Aug 27th, 2026 8:00 PM" is read in ``now``'s zone.
    """
    haystack = _haystack(texts)
    local = now.tzinfo or UTC
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    clock = _clock(haystack)
    if clock is None:
        return _dated(haystack, local)
    hour, minute, hint = clock
    return _next_wall_clock(now, hour, minute, _zone(hint) or local)


def is_provider_quota_error(*texts: str | None) -> bool:
    """True when Codex stopped on a usage limit or a model at capacity (retry later, not now)."""
    haystack = _haystack(texts)
    return _QUOTA.search(haystack) is not None or _clock(haystack) is not None


def is_transient_upstream_error(*texts: str | None) -> bool:
    """True for the upstream failures worth an immediate retry (high demand, remote compaction)."""
    if is_provider_quota_error(*texts):
        return False
    haystack = _haystack(texts)
    return _TRANSIENT.search(haystack) is not None and _RETRY_WORTHY.search(haystack) is not None


def _error_message(value: object) -> str:
    text = as_string(value) or as_string(dig(value, "message"))
    return text.strip()


class _Usage:
    """A thread's last reported running totals: the contract's three counts and two more."""

    __slots__ = ("cache_write", "reasoning", "tokens", "usage")

    def __init__(self, usage: dict[str, object]) -> None:
        self.usage = Usage(
            input_tokens=as_int(usage.get("input_tokens")),
            output_tokens=as_int(usage.get("output_tokens")),
            cached_tokens=as_int(usage.get("cached_input_tokens")),
        )
        # Both are parts of the counts above (cache writes of the input, reasoning of the
        # output), reported beside them by Codex 0.139+; kept apart, never added on top.
        self.cache_write = as_int(usage.get("cache_write_input_tokens"))
        self.reasoning = as_int(usage.get("reasoning_output_tokens"))
        self.tokens = token_usage(usage)


class _LateErrors:
    """What the errors beyond :data:`KEPT_ERRORS` tell the classifiers (each looked at once)."""

    def __init__(self) -> None:
        self.count = 0
        self.quota = self.transient = self.retry_worthy = self.unknown_session = False
        self.auth: AuthRefreshFailure | None = None

    def add(self, message: str) -> None:
        self.count += 1
        self.quota = self.quota or is_provider_quota_error(message)
        self.transient = self.transient or _TRANSIENT.search(message) is not None
        self.retry_worthy = self.retry_worthy or _RETRY_WORTHY.search(message) is not None
        self.unknown_session = self.unknown_session or is_unknown_session_error(message)
        self.auth = _first_failure(self.auth, classify_auth_refresh_failure(message))


def _first_failure(
    one: AuthRefreshFailure | None, other: AuthRefreshFailure | None
) -> AuthRefreshFailure | None:
    """Of two auth failures, the one :func:`classify_auth_refresh_failure` would name first."""
    for _, failure in _AUTH_FAILURES:
        if failure in (one, other):
            return failure
    return None


class _Run:
    """What one pass over a run's lines has seen so far."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.thread = ""
        self.usage_by_thread: dict[str, _Usage] = {}
        self.final_text: str | None = None
        self.plan_text: str | None = None
        self.errors: list[str] = []
        self.late_errors = _LateErrors()
        self.last_error = ""
        self.warnings: list[str] = []
        self.reconnects = self.threads = self.prompts = 0  # prompts: the turns started
        self.outcome: str | None = None
        self.interrupts: list[str] = []  # the reasons of the turns a person aborted
        self.pending = False  # a thread or turn has started and not ended
        self.other_text: deque[str] = deque(maxlen=20)

    def start_thread(self, thread: str, model: str) -> None:
        self.thread = thread
        self.session_id = thread or self.session_id
        self.model = model or self.model
        self.threads += 1
        self.pending = True

    def error(self, message: str, *, failed: bool) -> None:
        if failed:
            self.outcome, self.pending = "failed", False
        if _RECONNECTING.match(message):
            self.reconnects += 1
        elif message and message != self.last_error:
            self.last_error = message
            if len(self.errors) < KEPT_ERRORS:
                self.errors.append(message)
            else:
                self.late_errors.add(message)

    def warning(self, message: str) -> None:
        if len(self.warnings) < _KEPT_WARNINGS:
            self.warnings.append(message)

    def event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "thread.started":
            self.start_thread(as_string(event.get("thread_id")), as_string(event.get("model")))
        elif kind == "turn.started":
            self.prompts += 1
            self.pending = True
        elif kind == "turn.completed":
            self.usage_by_thread[self.thread] = _Usage(as_object(event.get("usage")))
            self.outcome, self.pending = "completed", False
        elif kind in ("turn.failed", "error"):
            failed = kind == "turn.failed"
            self.error(_error_message(event.get("error") if failed else event), failed=failed)
        elif kind == "item.completed":
            item = as_object(event.get("item"))
            text = as_string(item.get("text")).strip()
            if item.get("type") == "agent_message" and text:
                self.final_text = text
            elif item.get("type") == "plan" and text:
                self.plan_text = text
            elif item.get("type") == "error":
                self.warning(_error_message(item))
        elif "type" not in event and is_legacy_event(event):  # a typed event is never legacy
            self.legacy(event["msg"])

    def legacy(self, msg: dict[str, Any]) -> None:
        """The ``{"id", "msg"}`` events of Codex releases before ``exec --json``."""
        kind = msg.get("type")
        if kind == "session_configured":
            self.start_thread(as_string(msg.get("session_id")), as_string(msg.get("model")))
        elif kind in ("task_started", "turn_started"):
            self.prompts += 1
            self.pending = True
        elif kind == "token_count":
            total = dig(msg, "info", "total_token_usage")
            if type(total) is dict:
                self.usage_by_thread[self.thread] = _Usage(total)
        elif kind in ("task_complete", "turn_complete"):
            self.outcome, self.pending = "completed", False
            text = as_string(msg.get("last_agent_message")).strip()
            self.final_text = text or self.final_text
        elif kind == "agent_message":
            self.final_text = as_string(msg.get("message")).strip() or self.final_text
        elif kind == "turn_aborted":
            # A person stopped the turn (Esc, a new message): an interruption, not a failure.
            self.outcome, self.pending = "interrupted", False
            self.interrupts.append(as_string(msg.get("reason"), "unknown"))
        elif kind in ("error", "stream_error"):
            self.error(_error_message(msg), failed=False)
        elif kind == "warning":
            self.warning(_error_message(msg))


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a ``codex exec --json`` run; runs concatenated in one log add up.

    Codex reports no cost, so ``cost_usd`` is None (unknown), and the model
    only in the legacy shape (else None). Usage is the last
    ``turn.completed`` of each thread (Codex reports the thread's running
    total there), summed over the threads in the log; the reasoning and
    cache-write counts of Codex 0.139+ are parts of those totals, reported
    in ``details``; ``token_usage`` has them apart (see :func:`token_usage`).
    A turn a person aborted (legacy ``turn_aborted``) makes the outcome
    ``interrupted`` (not ``failed``) until a later turn ends, its reasons in
    ``details["interrupts"]``; a run that stops mid-turn is ``cut_off``. A
    run whose last turn never ended, or that started a thread and no turn
    after the last one ended, is incomplete. Log lines a
    wrapper prefixed with a timestamp are read like raw ones, and the
    legacy ``{"id", "msg"}`` events of older releases too. The first
    :data:`KEPT_ERRORS` error messages are kept (a repeat of the one before is
    not); later ones still count for the classifiers, and
    ``details["errorsOmitted"]`` says how many were not kept.
    """
    run = _Run()
    for line in lines:
        event = read_event(line)
        if event is None:
            if line.strip():
                run.other_text.append(line.strip())
            continue
        run.event(event)

    total = Usage()
    tokens = TokenUsage()
    for part in run.usage_by_thread.values():
        total += part.usage
        tokens += part.tokens
    evidence = [*run.errors, *run.warnings, *run.other_text]
    late = run.late_errors
    quota = is_provider_quota_error(*run.errors) or late.quota
    errors = _haystack(run.errors)
    transient = (_TRANSIENT.search(errors) is not None or late.transient) and (
        _RETRY_WORTHY.search(errors) is not None or late.retry_worthy
    )
    details: dict[str, JsonValue] = {
        "usageBasis": "per_run" if run.usage_by_thread else "none",
        "threads": run.threads,
        "prompts": run.prompts,
        "reasoningOutputTokens": sum(part.reasoning for part in run.usage_by_thread.values()),
        "cacheWriteInputTokens": sum(part.cache_write for part in run.usage_by_thread.values()),
        "reconnects": run.reconnects,
        "warnings": list(run.warnings),
        "providerQuota": quota,
        "transientUpstream": transient and not quota,
        "authRefreshFailure": _first_failure(classify_auth_refresh_failure(*evidence), late.auth),
    }
    if late.count:
        details["errorsOmitted"] = late.count
    if run.interrupts:
        details["interrupts"] = list(run.interrupts[-KEPT_ERRORS:])
    # The run's outcome is how it ended: a turn still open at the end was cut off.
    outcome = "cut_off" if run.pending else run.outcome
    return RunSummary(
        session_id=run.session_id,
        model=run.model,
        usage=total,
        cost_usd=None,
        final_text=run.final_text or run.plan_text,
        outcome=outcome,
        is_error=run.outcome == "failed",
        errors=tuple(run.errors),
        unknown_session=is_unknown_session_error(*evidence) or late.unknown_session,
        complete=run.outcome is not None and not run.pending,
        details=details,
        token_usage=tokens,
    )
