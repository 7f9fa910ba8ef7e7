"""The whole-run summary of a ``codex app-server`` stdio capture."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_object, as_string
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_codex.app_server.activity import REQUEST_KINDS
from linewise_codex.app_server.parser import read_message
from linewise_codex.summary import is_unknown_session_error
from linewise_codex.usage import breakdown_usage

__all__ = ["summarize_run", "token_usage"]

_OUTCOMES: Final = {"completed": "completed", "interrupted": "interrupted", "failed": "failed"}
_KEPT_ERRORS: Final = 20


#: One ``TokenUsageBreakdown`` in the usage vocabulary (the parser's result entries use it too).
token_usage = breakdown_usage


class _Run:
    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.totals: dict[str, dict[str, Any]] = {}  # thread -> its running total
        self.lasts: dict[tuple[str, str], dict[str, Any]] = {}  # (thread, turn) -> last call
        self.final_text: str | None = None
        self.errors: list[str] = []
        self.outcome: str | None = None
        self.pending = False
        self.threads = self.prompts = self.requests = 0  # prompts: the turns started

    def error(self, message: str) -> None:
        if message and message not in self.errors[-1:] and len(self.errors) < _KEPT_ERRORS:
            self.errors.append(message)

    def message(self, message: dict[str, Any]) -> None:
        method = as_string(message.get("method"))
        params = as_object(message.get("params"))
        if method == "thread/started":
            thread = as_object(params.get("thread"))
            self.session_id = self.session_id or as_string(thread.get("id")) or None
            self.model = self.model or as_string(thread.get("model")) or None
            self.threads += 1
        elif method == "turn/started":
            self.prompts += 1
            self.pending = True
        elif method == "turn/completed":
            turn = as_object(params.get("turn"))
            status = as_string(turn.get("status"), "completed")
            self.outcome, self.pending = _OUTCOMES.get(status, "completed"), False
            self.error(as_string(as_object(turn.get("error")).get("message")))
        elif method == "thread/tokenUsage/updated":
            usage = as_object(params.get("tokenUsage"))
            owner = as_string(params.get("threadId"))
            if as_object(usage.get("total")):
                self.totals[owner] = as_object(usage.get("total"))
            elif as_object(usage.get("last")):
                self.lasts[(owner, as_string(params.get("turnId")))] = as_object(usage.get("last"))
        elif method == "item/completed":
            item = as_object(params.get("item"))
            text = as_string(item.get("text")).strip()
            if item.get("type") == "agentMessage" and text:
                self.final_text = text
        elif method == "error":
            self.error(as_string(as_object(params.get("error")).get("message")))
        elif method == "model/rerouted":
            self.model = as_string(params.get("toModel")) or self.model
        elif method in REQUEST_KINDS:
            self.requests += 1
        elif "id" in message and "method" not in message:
            result = as_object(message.get("result"))
            if as_object(result.get("thread")):
                self.model = self.model or as_string(result.get("model")) or None
            self.error(as_string(as_object(message.get("error")).get("message")))


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise an app-server capture; Codex reports no cost, so ``cost_usd`` is None.

    Usage is each thread's last ``thread/tokenUsage/updated`` running total
    (``tokenUsage.total``), summed over the threads; where only ``last`` (one
    model call) was sent, the last one of each turn, summed. The outcome is
    the last ``turn/completed`` status (completed, interrupted, failed); a
    turn that started and never completed leaves the run incomplete.
    """
    run = _Run()
    for line in lines:
        message = read_message(line) if line.lstrip().startswith("{") else None
        if message is not None:
            run.message(message)
    parts = [*run.totals.values()]
    parts += [last for (thread, _), last in run.lasts.items() if thread not in run.totals]
    tokens = TokenUsage()
    for part in parts:
        tokens += token_usage(part)
    legacy = Usage(
        input_tokens=tokens.total_input or 0,
        output_tokens=tokens.output or 0,
        cached_tokens=tokens.cache_read or 0,
    )
    details: dict[str, JsonValue] = {
        "usageBasis": "thread_total" if run.totals else ("per_call" if run.lasts else "none"),
        "threads": run.threads,
        "prompts": run.prompts,
        "approvalRequests": run.requests,
    }
    return RunSummary(
        session_id=run.session_id,
        model=run.model,
        usage=legacy,
        cost_usd=None,
        final_text=run.final_text,
        outcome=run.outcome,
        is_error=run.outcome == "failed",
        errors=tuple(run.errors),
        unknown_session=is_unknown_session_error(*run.errors),
        complete=run.outcome is not None and not run.pending,
        details=details,
        token_usage=tokens,
    )
