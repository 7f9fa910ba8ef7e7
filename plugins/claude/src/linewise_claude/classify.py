"""Classifiers for how a Claude run failed: the result event plus any text the CLI printed.

Each takes the ``result`` event (or None) and extra text (stderr, stdout, an
error message) and reproduces the reference implementation's classifier of
the same name. Their regular expressions are linear: alternatives of literal
words, and every gap bounded, so a hostile message cannot make them backtrack.
They are compiled on first use (:func:`re.compile` keeps them), not when the
plugin is imported: most runs never classify a failure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, Final

from linewise_contracts.extract import as_list, as_string, error_text

__all__ = [
    "is_image_processing_error",
    "is_max_turns_result",
    "is_model_not_found_error",
    "is_poisoned_message_id_error",
    "is_provider_quota_error",
    "is_refusal_result",
    "is_transient_upstream_error",
    "is_unknown_session_error",
    "login_required",
    "retry_not_before",
]

Result = Mapping[str, Any] | None

_UNKNOWN_SESSION: Final = (
    r"no conversation found with session id"
    r"|\bsession\b[^\n]{0,200}?\bnot found\b"
    r"|--resume requires a valid session"
)
_LOGIN: Final = (
    r"not\s+logged\s+in|please\s+log\s+in|please\s+run\s+`?(?:claude\s+login|/login)"
    r"|login\s+required|requires\s+login|unauthorized|authentication\s+required"
    r"|invalid\s+authentication\s+credentials|failed\s+to\s+authenticate"
)
_URL: Final = r"https?://[^\s'\"`<>()\[\]{};,!?]+"
_QUOTA: Final = (
    r"out\s+of\s+extra\s+usage|extra\s+usage\b|hit\s+your\s+(?:session|weekly|usage)\s+limit"
    r"|usage\s+limit\s+reached|usage\s+cap\s+reached|5[-\s]?hour\s+limit\s+reached"
    r"|weekly\s+limit\s+reached|session\s+limit\s+reached"
)
_TRANSIENT: Final = (
    r"rate[-\s]?limit(?:ed)?|rate_limit_error|too\s+many\s+requests|\b429\b"
    r"|overloaded(?:_error)?|service\s+unavailable|\b503\b|\b529\b|high\s+demand"
    r"|try\s+again\s+later|temporarily\s+unavailable|throttl(?:ed|ing)"
    r"|servicequotaexceededexception"
)
_MODEL_NOT_FOUND: Final = (
    r"\bmodel[:\s]+not\s+found\b|\bunknown\s+model\b|\bmodel_not_found\b"
    r"|\bmodel\b[^\n]{0,100}?\bdoes\s+not\s+exist\b"
)
# Applied to at most _RESET_WINDOW characters after a quota phrase: bounded input.
_RESET: Final = (
    r"\bresets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?\s*(?:\(([^)\n]{1,64})\))?"
)
_RESET_WINDOW: Final = 200


def _pattern(source: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    """``source`` compiled, the first time only (``re`` caches compiled patterns)."""
    return re.compile(source, flags)


def _texts(result: Result) -> list[str]:
    if not result:
        return []
    texts = [as_string(result.get("result"))]
    texts.extend(error_text(error) for error in as_list(result.get("errors")))
    return [text.strip() for text in texts if text.strip()]


def _haystack(result: Result, extra: Iterable[str]) -> list[str]:
    return [*_texts(result), *(text for text in extra if text and text.strip())]


def is_unknown_session_error(result: Result, *extra_text: str) -> bool:
    """True when Claude refused to resume a session it does not know.

    Looks at the result event's ``result`` and ``errors`` and at any extra text
    (stderr, say), so a caller can retry without ``--resume``.
    """
    return any(_pattern(_UNKNOWN_SESSION).search(text) for text in _haystack(result, extra_text))


def _stop_reasons(result: Mapping[str, Any]) -> list[str]:
    keys = ("stop_reason", "stopReason", "error_code", "errorCode", "terminal_reason")
    return [value.strip().lower() for value in map(result.get, keys) if type(value) is str]


def is_max_turns_result(result: Result) -> bool:
    """True when the run stopped because it used up ``--max-turns`` (structured fields only)."""
    if not result:
        return False
    if as_string(result.get("subtype")).strip().lower() == "error_max_turns":
        return True
    limits = ("max_turns", "max_turns_exhausted", "turn_limit", "turn_limit_exhausted")
    return any(reason in limits for reason in _stop_reasons(result))


def is_refusal_result(result: Result) -> bool:
    """True when the model refused (``stop_reason: refusal`` or ``subtype: model_refusal``)."""
    if not result:
        return False
    if as_string(result.get("subtype")) == "model_refusal":
        return True
    return "refusal" in _stop_reasons(result)


def is_poisoned_message_id_error(result: Result) -> bool:
    """True when the API rejected a ``diagnostics.previous_message_id`` carried over from a bad id.

    The session cannot continue as is; a caller starts a fresh one.
    """
    for text in _texts(result):
        lowered = text.lower()
        at = lowered.find("diagnostics.previous_message_id")
        if at >= 0 and lowered.find("starts with `msg_`", at) >= 0:
            return True
    return False


def is_image_processing_error(result: Result) -> bool:
    """True when the API could not process an image in the conversation."""
    return any("could not process image" in text.lower() for text in _texts(result))


def is_model_not_found_error(result: Result, *extra_text: str) -> bool:
    """True when the requested model does not exist (``404 model not found``, ``Unknown model``)."""
    return any(_pattern(_MODEL_NOT_FOUND).search(text) for text in _haystack(result, extra_text))


def login_required(result: Result, *extra_text: str) -> tuple[bool, str | None]:
    """Whether Claude asks the user to log in, and the login URL it printed, if any.

    The URL is looked for in ``extra_text`` only (the CLI prints it, never the model).
    """
    lines = [
        line.strip()
        for text in _haystack(result, extra_text)
        for line in text.splitlines()
        if line.strip()
    ]
    required = any(_pattern(_LOGIN).search(line) for line in lines)
    urls = [
        url.rstrip("])}.!,?;:'\"") for text in extra_text for url in _pattern(_URL, 0).findall(text)
    ]
    preferred = [url for url in urls if any(w in url for w in ("claude", "anthropic", "auth"))]
    return required, (preferred or urls or [None])[0]


def is_provider_quota_error(result: Result, *extra_text: str) -> bool:
    """True when the account's usage quota is used up (extra usage, session or weekly limit).

    Not transient: retrying before the quota resets fails again (see :func:`retry_not_before`).
    """
    return any(_pattern(_QUOTA).search(text) for text in _haystack(result, extra_text))


def is_transient_upstream_error(result: Result, *extra_text: str) -> bool:
    """True for a failure worth retrying later: rate limits, overload, 429/503/529, throttling.

    Deterministic failures (max turns, unknown session, poisoned message id,
    image processing, login required, a used-up quota) are never transient.
    """
    if result and (
        is_max_turns_result(result)
        or is_unknown_session_error(result)
        or is_poisoned_message_id_error(result)
        or is_image_processing_error(result)
    ):
        return False
    if login_required(result, *extra_text)[0] or is_provider_quota_error(result, *extra_text):
        return False
    return any(_pattern(_TRANSIENT).search(text) for text in _haystack(result, extra_text))


def _zone(name: str | None) -> tzinfo:
    if not name or name.strip().upper() in ("UTC", "GMT"):
        return UTC
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # only for a named zone: slow import

    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def retry_not_before(result: Result, *extra_text: str, now: datetime) -> datetime | None:
    """When a used-up quota resets ("resets 4pm (America/Chicago)"), as an aware UTC datetime.

    The next such wall-clock time after ``now`` in the named zone; UTC when the
    message names none (the reference uses the host's zone, which is not
    deterministic). None when no reset time is given.
    """
    for text in _haystack(result, extra_text):
        found = _pattern(_QUOTA).search(text)
        if found is None:
            continue
        match = _pattern(_RESET).search(text, found.end(), found.end() + _RESET_WINDOW)
        if match is None:
            continue
        hour12, minute = int(match.group(1)), int(match.group(2) or 0)
        if not 1 <= hour12 <= 12 or minute > 59:
            continue
        hour = hour12 % 12 + (12 if match.group(3).lower() == "p" else 0)
        zone = _zone(match.group(4))
        local = now.astimezone(zone)
        for days in (0, 1, 2):
            day = local.date() + timedelta(days=days)
            candidate = datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)
            if candidate > now:
                return candidate.astimezone(UTC)
    return None
