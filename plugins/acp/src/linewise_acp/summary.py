"""The whole-run summary of an ACP agent's stdout."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_int, as_number, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_acp.content import envelope
from linewise_acp.ending import prompt_tokens, response_usage, stop_outcome
from linewise_acp.parser import AcpStdoutParser

__all__ = ["prompt_tokens", "summarize_run"]

_TS: Final = "1970-01-01T00:00:00.000Z"
_KEPT_ERRORS: Final = 50
_LIMITS: Final = ("max_tokens", "max_turn_requests")


class _Run:
    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.usage = Usage()
        self.tokens = TokenUsage()
        self.usage_reported = False
        self.cost: float | None = None
        self.final: str | None = None
        self.outcome: str | None = None
        self.is_error = False
        self.errors: list[str] = []
        self.prompts = 0  # prompt results: the prompt turns the agent ended
        self.open = False  # agent activity since the last prompt result
        self.tool_calls = 0
        self.permission_requests = 0
        self.agent_text = ""

    def event(self, event: dict[str, Any]) -> None:
        shape, payload = envelope(event)
        if shape == "update":
            update = as_object(payload.get("update"))
            cost = as_object(update.get("cost"))
            amount = as_number(cost.get("amount"), -1)
            usd = as_string(cost.get("currency"), "USD").upper() == "USD"
            if update.get("sessionUpdate") == "usage_update" and amount >= 0 and usd:
                self.cost = amount  # the session's running total
        elif shape == "request" and event.get("method") == "session/request_permission":
            self.permission_requests += 1
        elif shape == "result":
            response = as_object(event.get("result"))
            tokens = response_usage(response)
            if tokens is not None:
                usage = as_object(response.get("usage"))
                self.usage_reported = True
                self.usage += Usage(
                    input_tokens=as_int(usage.get("inputTokens"))
                    + as_int(usage.get("cachedWriteTokens")),
                    output_tokens=as_int(usage.get("outputTokens")),
                    cached_tokens=as_int(usage.get("cachedReadTokens")),
                )
                self.tokens += tokens

    def entry(self, entry: Any) -> None:
        kind = entry["kind"]
        if kind == "init":
            self.session_id = entry["sessionId"] or self.session_id
            self.model = entry["model"] or self.model
        elif kind == "assistant":
            self.open = True
            self.agent_text += entry["text"]
        elif kind in ("thinking", "tool_call", "tool_result"):
            self.open = True
            self.tool_calls += kind == "tool_call"
        elif kind == "result":
            self.prompts += 1
            self.open = False
            self.outcome = entry["subtype"] or None
            self.is_error = entry["isError"]
            self.final = entry["text"] or self.final
            self._error(*entry["errors"])
            self.agent_text = ""
        elif kind == "stderr":
            self._error(entry["text"])
            self.is_error = True

    def _error(self, *messages: str) -> None:
        for message in messages:
            if message and len(self.errors) < _KEPT_ERRORS and message not in self.errors:
                self.errors.append(message)

    def summary(self) -> RunSummary:
        final = self.final
        if self.open and self.agent_text.strip():
            final = self.agent_text.strip()
        outcome = self.outcome
        details: dict[str, JsonValue] = {
            "usageBasis": "prompt_response" if self.usage_reported else "none",
            "toolCalls": self.tool_calls,
            "permissionRequests": self.permission_requests,
            "limit": outcome if outcome in _LIMITS else None,
            "refusal": outcome == "refusal",
            "cancelled": outcome == "cancelled",
            "stopReason": outcome,
            "prompts": self.prompts,
        }
        return RunSummary(
            session_id=self.session_id,
            model=self.model,
            usage=self.usage,
            cost_usd=self.cost,
            final_text=final or None,
            outcome="cut_off" if self.open else stop_outcome(outcome),
            is_error=self.is_error,
            errors=tuple(self.errors),
            complete=self.prompts > 0 and not self.open,
            details=details,
            token_usage=self.tokens,
            cost_source="reported" if self.cost is not None else None,
        )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise an ACP agent's stdout: its sessions, prompt turns and how the last one ended.

    ``outcome`` is the last ``session/prompt`` stop reason in the contract's
    words (``end_turn`` is ``completed``, ``max_tokens`` / ``max_turn_requests``
    the limits, ``refusal`` is ``refused``, ``cancelled`` is ``interrupted``,
    a JSON-RPC error ``failed``; ``cut_off`` when the agent was still working;
    the raw reason in ``details["stopReason"]``). ACP reports no usage unless
    the agent sends the unstable ``usage`` of a prompt response: without it the tokens stay 0 with
    ``details["usageBasis"] == "none"``, and the cost is None unless a
    ``usage_update`` gave the session's running cost in USD. The model is
    known only when ``session/new`` named it (``models.currentModelId``).
    ``turns`` is None: ACP reports no count of the model's round trips; the
    prompt results seen are ``details["prompts"]``.
    """
    run = _Run()
    parser = AcpStdoutParser()
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        event = parse_json_object(stripped)
        if event is not None:
            run.event(event)
        for entry in parser.parse_line(stripped, _TS):
            run.entry(entry)
    return run.summary()
