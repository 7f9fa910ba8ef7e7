"""The whole-run summary of a Claude stream-json run."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Final

import orjson
from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    dig,
    error_text,
    iso_timestamp,
    parse_json_object,
)
from linewise_contracts.outcomes import FAILED_OUTCOMES
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage
from linewise_contracts.validation import MAX_INT

from linewise_claude.classify import (
    is_image_processing_error,
    is_max_turns_result,
    is_model_not_found_error,
    is_poisoned_message_id_error,
    is_provider_quota_error,
    is_refusal_result,
    is_transient_upstream_error,
    is_unknown_session_error,
    login_required,
    retry_not_before,
)
from linewise_claude.ending import INTERRUPTED, message_model, result_outcome, result_turns
from linewise_claude.ending import failed as result_failed
from linewise_claude.legacy import modern_lines
from linewise_claude.usage import (
    assistant_tokens,
    is_internal_error,
    message_tokens,
    result_tokens,
    wire_usage,
)

__all__ = ["summarize_run"]

_DELEGATE_TOOLS: Final = ("Task", "Agent")
# Subagents described in one summary; a run with more keeps counting the first ones only.
_MAX_SUBAGENTS: Final = 500
# Messages of an unfinished session whose usage is kept by id (a message's events repeat
# its usage, the last one counts); the least recently seen beyond them is added up and
# forgotten, so a long session costs no memory per message. A message's events come
# together: never thousands of other messages apart.
_OPEN_MESSAGES: Final = 1024


def _message_usage(message: Mapping[str, Any]) -> Usage:
    return wire_usage(message_tokens(message.get("usage")))


def _add_models(into: dict[str, TokenUsage], models: Mapping[str, TokenUsage]) -> None:
    for name, tokens in models.items():
        into[name] = into.get(name, TokenUsage()) + tokens


def _error_texts(result: Mapping[str, Any]) -> list[str]:
    texts = [as_string(result.get("result"))]
    texts.extend(error_text(error) for error in as_list(result.get("errors")))
    return [text for text in texts if text and not is_internal_error(text)]


class _Subagents:
    """What each Task/Agent subagent did, keyed by the toolUseId of the call that started it."""

    def __init__(self) -> None:
        self.by_call: dict[str, dict[str, JsonValue]] = {}

    def get(self, call: str) -> dict[str, JsonValue] | None:
        record = self.by_call.get(call)
        if record is None and call and len(self.by_call) < _MAX_SUBAGENTS:
            record = {"toolUseId": call, "toolCalls": 0, "errors": 0}
            self.by_call[call] = record
        return record

    def started(self, block: Mapping[str, Any]) -> None:
        record = self.get(as_string(block.get("id")))
        if record is not None:
            arguments = as_object(block.get("input"))
            record["type"] = as_string(arguments.get("subagent_type")) or "general-purpose"
            record["description"] = as_string(arguments.get("description"))

    def line(self, parent: str, event: Mapping[str, Any]) -> None:
        record = self.get(parent)
        if record is None:
            return
        for block in as_list(dig(event, "message", "content")):
            kind = dig(block, "type")
            if kind == "tool_use":
                record["toolCalls"] = as_int(record["toolCalls"]) + 1
            elif kind == "tool_result" and dig(block, "is_error") is True:
                record["errors"] = as_int(record["errors"]) + 1

    def task_event(self, event: Mapping[str, Any]) -> None:
        record = self.get(as_string(event.get("tool_use_id")))
        if record is None:
            return
        status = as_string(event.get("status"))
        if status:
            record["status"] = status
        if event.get("subagent_type"):
            record["type"] = as_string(event.get("subagent_type"))
        usage = as_object(event.get("usage"))
        if "total_tokens" in usage:
            record["totalTokens"] = as_int(usage.get("total_tokens"))
        if "duration_ms" in usage:
            record["durationMs"] = as_int(usage.get("duration_ms"))

    def finished(self, call: str, details: Mapping[str, Any]) -> None:
        record = self.by_call.get(call)
        if record is None:
            return
        for source, target in (
            ("status", "status"),
            ("agentType", "type"),
            ("resolvedModel", "model"),
            ("totalTokens", "totalTokens"),
            ("totalDurationMs", "durationMs"),
        ):
            value = details.get(source)
            if type(value) in (str, int) and value != "":
                record[target] = value
        usage = as_object(details.get("usage"))
        if usage:
            part = _message_usage({"usage": usage})
            record["usage"] = {
                "inputTokens": part.input_tokens,
                "outputTokens": part.output_tokens,
                "cachedTokens": part.cached_tokens,
            }
            # The same in the usage vocabulary: input, cache reads and cache writes apart.
            record["tokenUsage"] = dict(message_tokens(usage).to_json())


class _Results:
    """The result events that count (the latest of each session: they carry running totals),
    added up as they come; the last one is kept whole."""

    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None
        self.count = 0
        self.tokens = TokenUsage()  # of the results before the last
        self.models: dict[str, TokenUsage] = {}  # of the results before the last, per model
        self.errors: list[str] = []  # of the failed results before the last
        self.costs: list[float] = []  # known costs, the last result's included
        self.denials = 0  # permission denials of the results before the last

    def add(self, event: dict[str, Any]) -> None:
        previous = self.last
        index = event.get("result_index")
        # A multi-turn session reports one result per turn, each with the session's
        # running totals (result_index counts them): the latest replaces the earlier.
        if (
            previous is not None
            and type(index) is int
            and type(previous.get("result_index")) is int
            and index > previous["result_index"]
            and previous.get("session_id") == event.get("session_id")
        ):
            if _cost(previous) >= 0:
                self.costs.pop()
        else:
            if previous is not None:
                tokens, models = result_tokens(previous)
                self.tokens += tokens
                _add_models(self.models, models)
                self.errors.extend(_failure_texts(previous))
                self.denials += len(as_list(previous.get("permission_denials")))
            self.count += 1
        self.last = event
        if _cost(event) >= 0:
            self.costs.append(_cost(event))

    def total_tokens(self) -> tuple[TokenUsage, dict[str, TokenUsage]]:
        """Every counted result's tokens, and per model where the results have ``modelUsage``."""
        if self.last is None:
            return self.tokens, dict(self.models)
        tokens, models = result_tokens(self.last)
        per_model = dict(self.models)
        _add_models(per_model, models)
        return self.tokens + tokens, per_model

    def all_errors(self) -> list[str]:
        return self.errors + _failure_texts(self.last) if self.last is not None else self.errors

    def all_denials(self) -> int:
        last = self.last
        return self.denials + (len(as_list(last.get("permission_denials"))) if last else 0)


def _cost(result: Mapping[str, Any]) -> float:
    return as_number(result.get("total_cost_usd"), -1)


def _failure_texts(result: Mapping[str, Any]) -> list[str]:
    return (_error_texts(result) or [result["subtype"]]) if result_failed(result) else []


class _Run:
    """The state of one pass over a run's lines."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.results = _Results()
        self.last_text: str | None = None
        self.open_usage: dict[str, TokenUsage] = {}  # the unfinished session's messages, by id
        self.forgotten_usage = TokenUsage()  # of its messages beyond _OPEN_MESSAGES
        self.open_activity = False
        self.other_text: deque[str] = deque(maxlen=20)  # non-JSON lines: errors the CLI printed
        self.api_errors: list[str] = []
        self.subagents = _Subagents()
        self.subagent_stats: JsonValue = None
        self.interrupted = False
        self.last_time: str | None = None
        # num_turns counts one result's turns, even where its usage and cost are running totals.
        self.turns = 0
        # duration_ms is one result's too (per turn of a multi-turn session): None until one has it.
        self.duration_ms: int | None = None

    def feed(self, line: str) -> None:
        try:
            event = orjson.loads(line)  # the common case of parse_json_object, inline
        except orjson.JSONDecodeError:
            event = parse_json_object(line)
        if type(event) is not dict:
            if line.strip():
                self.other_text.append(line)
            return
        kind = event.get("type")
        ident = event.get("session_id")
        if type(ident) is str and ident:
            self.session_id = ident
        stamp = event.get("timestamp")
        if stamp is not None:
            self.last_time = iso_timestamp(stamp) or self.last_time
        parent = event.get("parent_tool_use_id")
        if type(parent) is str and parent:
            self.subagents.line(parent, event)
        if kind == "system":
            self._system(event)
        elif kind == "assistant":
            self._assistant(event, main=not parent)
        elif kind == "user":
            self._user(event)
        elif kind == "result":
            self._result(event)

    def _system(self, event: dict[str, Any]) -> None:
        subtype = as_string(event.get("subtype"))
        if subtype == "init":
            self.model = as_string(event.get("model")) or self.model
            self.open_activity = True
        elif subtype.startswith("task_"):
            self.subagents.task_event(event)

    def _assistant(self, event: dict[str, Any], *, main: bool) -> None:
        self.open_activity = True
        message = as_object(event.get("message"))
        if main and not self.model:
            self.model = message_model(message)
        message_id = as_string(message.get("id"))
        if message_id and "usage" in message:
            open_usage = self.open_usage
            open_usage.pop(message_id, None)  # the most recently seen last
            open_usage[message_id] = assistant_tokens(message)
            if len(open_usage) > _OPEN_MESSAGES:
                self.forgotten_usage += open_usage.pop(next(iter(open_usage)))
        if event.get("error"):
            texts = [as_string(dig(b, "text")) for b in as_list(message.get("content"))]
            self.api_errors.append(
                f"{error_text(event.get('error'))}: " + " ".join(t for t in texts if t)
            )
        for block in as_list(message.get("content")):
            if type(block) is not dict:
                continue
            kind = block.get("type")
            if kind == "text":
                if main and as_string(block.get("text")).strip():
                    self.last_text = block["text"]
            elif kind == "tool_use" and block.get("name") in _DELEGATE_TOOLS:
                self.subagents.started(block)

    def _user(self, event: dict[str, Any]) -> None:
        details = event.get("tool_use_result")
        message = event.get("message")
        content = message.get("content") if type(message) is dict else None
        for block in as_list(content):
            if type(block) is not dict:
                continue
            kind = block.get("type")
            if kind == "text" and as_string(block.get("text")).startswith(INTERRUPTED):
                self.interrupted = True
            elif kind == "tool_result" and type(details) is dict:
                self.subagents.finished(as_string(block.get("tool_use_id")), details)

    def _result(self, event: dict[str, Any]) -> None:
        self.turns += result_turns(event) or 0
        duration = as_number(event.get("duration_ms"), -1)
        if duration >= 0:
            self.duration_ms = min((self.duration_ms or 0) + int(duration), MAX_INT)
        self.results.add(event)
        if "subagent_stats" in event:
            stats = event["subagent_stats"]
            self.subagent_stats = stats if type(stats) is dict else None
        self.open_usage.clear()
        self.forgotten_usage = TokenUsage()
        self.open_activity = False


def _outcome(run: _Run, last: Mapping[str, Any] | None) -> str | None:
    if run.open_activity:
        return "cut_off"
    if last is None:
        return None
    # The last result's own outcome, as its entry says it (ending.py); a person's
    # interruption anywhere in the run is what happened to an error result.
    return result_outcome(last, interrupted=run.interrupted)


def _failure_kind(last: Mapping[str, Any] | None, texts: list[str]) -> str | None:
    """Which of the classifiers recognises the failure, the most specific first."""
    if is_unknown_session_error(last, *texts):
        return "unknown_session"
    if login_required(last, *texts)[0]:
        return "login_required"
    if is_model_not_found_error(last, *texts):
        return "model_not_found"
    if is_image_processing_error(last):
        return "image_processing"
    if is_poisoned_message_id_error(last):
        return "poisoned_message_id"
    if is_provider_quota_error(last, *texts):
        return "provider_quota"
    if is_transient_upstream_error(last, *texts):
        return "transient_upstream"
    return None


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole Claude stream-json run; concatenated sessions add up.

    A session's usage and cost come from its latest ``result`` event
    (``modelUsage`` totals when present, else the ``usage`` block); results
    of one multi-turn session carry running totals and are not added up. A
    session cut off before its result is counted from its assistant messages
    (usage once per message id; no cost is known) and makes the run
    incomplete. ``outcome`` is ``completed``, ``failed``, ``max_turns`` or
    ``budget`` (failures), ``refused``, ``interrupted`` (an error result
    after "[Request interrupted by user]") or ``cut_off``. ``token_usage``
    keeps Claude's uncached input, cache reads and cache writes apart
    (``usage`` adds the writes to input); ``model_usage`` is ``modelUsage``
    added up over the sessions, given when it accounts for every token.
    """
    run = _Run()
    for line in modern_lines(lines):  # older shapes as today's events (legacy.py)
        run.feed(line)
    results, last = run.results.count, run.results.last
    errors = run.results.all_errors()
    errors.extend(run.api_errors)
    tokens, per_model = run.results.total_tokens()
    tokens += run.forgotten_usage
    for part in run.open_usage.values():
        tokens += part
    known = run.results.costs
    basis = "per_run" if results else "assistant_messages"
    if results and run.open_usage:
        basis = "per_run+assistant_messages"
    outcome = _outcome(run, last)
    texts = list(run.other_text) + run.api_errors
    failed = outcome in FAILED_OUTCOMES or bool(
        run.api_errors and outcome not in ("completed", "interrupted")
    )
    details: dict[str, JsonValue] = {
        "usageBasis": basis,
        "sessions": results + (1 if run.open_activity else 0),
        "unfinishedSession": run.open_activity,
        "maxTurns": is_max_turns_result(last),
        "refusal": is_refusal_result(last),
        "resultSubtype": as_string(last.get("subtype")) if last else None,
        "terminalReason": as_string(last.get("terminal_reason")) or None if last else None,
        "permissionDenials": run.results.all_denials(),
        "interrupted": run.interrupted,
        "subagents": list(run.subagents.by_call.values()),
        "subagentStats": run.subagent_stats,
    }
    if run.duration_ms is not None:
        details["durationMs"] = run.duration_ms
    if failed or run.other_text:
        details["failure"] = _failure_kind(last, texts)
        needs_login, url = login_required(last, *texts)
        if needs_login and url:
            details["loginUrl"] = url
        if run.last_time is not None:
            now = datetime.fromisoformat(run.last_time.replace("Z", "+00:00"))
            resets = retry_not_before(last, *texts, now=now)
            if resets is not None:
                details["retryNotBefore"] = iso_timestamp(resets.timestamp())
    final = as_string(last.get("result")) if last is not None and not run.open_activity else ""
    return RunSummary(
        session_id=run.session_id,
        model=run.model,
        usage=wire_usage(tokens),
        cost_usd=sum(known) if known else None,
        final_text=final or run.last_text,
        outcome=outcome,
        is_error=failed,
        errors=tuple(errors),
        unknown_session=is_unknown_session_error(last, *run.other_text),
        turns=run.turns if results else None,
        complete=last is not None and not run.open_activity,
        details=details,
        token_usage=tokens,
        # Per model only when modelUsage accounts for every token counted (not for a session
        # cut off before its result, or results without it).
        model_usage=per_model if sum(per_model.values(), TokenUsage()) == tokens else {},
        cost_source="reported" if known else None,
    )
