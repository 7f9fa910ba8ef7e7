"""Paperclip Runner Protocol stdout lines to TranscriptEntries, as Paperclip's runner UI
adapter maps them (spec §2, Revision B); lines that are not PRP events go to Codex's parser."""

from __future__ import annotations

import json
from typing import Any, Final

from linewise_codex import create_stdout_parser as create_codex_parser
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import BoundedMap, parse_json_object

from linewise_paperclip_runner.activity import (
    family_of,
    file_reference,
    provider_activity,
    workspace_change,
)
from linewise_paperclip_runner.requests import runtime_request
from linewise_paperclip_runner.sniff import PRP_LINE_TYPE  # beside the sniff, imported alone
from linewise_paperclip_runner.values import (
    channel_of,
    first,
    item_id,
    item_text,
    norm_type,
    ntext,
    num,
    number_text,
    obj,
    str_,
    stringify,
    tool_failure,
    trim_start,
)

__all__ = ["PRP_LINE_TYPE", "RunnerStdoutParser", "create_stdout_parser", "parse_stdout_line"]

#: Item ids, summaries and requests remembered: upstream never forgets them; a
#: bounded memory keeps a very long run in constant space (the oldest go first).
REMEMBERED: Final = 4096

_DIAGNOSTICS: Final = frozenset(
    {"harness.diagnostic", "runner.diagnostic", "session.failed", "mcp_app.failed"}
)
_SEMANTIC_TOOLS: Final = frozenset(
    {"semantic_tool.input", "semantic_tool.result", "mcp_app.tool_input", "mcp_app.tool_result"}
)
_TOOL_ERRORS: Final = frozenset({"denied", "conflict", "unavailable", "failed"})
_DISPOSITIONS: Final = frozenset({"blocked", "needs_review", "yielded"})
_RUN_RESULT_SCHEMA: Final = "paperclip.run_result.v1"


def _disposition(value: object) -> str:
    return value if type(value) is str and value in _DISPOSITIONS else "done"


def _text(kind: str, text: str, ts: str) -> dict[str, Any]:
    return {"kind": kind, "ts": ts, "text": text}


def run_result_entry(candidate: dict[str, Any], ts: str) -> dict[str, Any]:
    """A ``run_result`` from a result candidate (spec §2.6.9)."""
    completion = obj(candidate.get("completionClaim"))
    blocker = obj(candidate.get("blocker"))
    satisfied = completion.get("objectiveSatisfied")
    verification = []
    checks = candidate.get("verification")
    for raw in (checks if type(checks) is list else [])[:64]:
        check = obj(raw)
        status = check.get("status")
        out: dict[str, Any] = {
            "commandOrCheck": str_(check.get("commandOrCheck"), "Verification"),
            "status": status if status in ("passed", "failed") else "not_run",
        }
        for name in ("detail", "artifactRef"):
            text = ntext(check.get(name))
            if text:
                out[name] = text
        verification.append(out)
    work = completion.get("remainingWork")
    remaining = [
        {
            "description": str_(obj(raw).get("description"), "Remaining work"),
            "blocksCompletion": obj(raw).get("blocksCompletion") is True,
        }
        for raw in (work if type(work) is list else [])[:64]
    ]
    artifacts = []
    listed = candidate.get("artifacts")
    for raw in (listed if type(listed) is list else [])[:64]:
        artifact = obj(raw)
        made: dict[str, Any] = {
            "kind": str_(artifact.get("kind"), "artifact"),
            "ref": str_(artifact.get("ref")),
        }
        title = ntext(artifact.get("title"))
        if title:
            made["title"] = title
        if made["ref"]:
            artifacts.append(made)
    return {
        "kind": "run_result",
        "ts": ts,
        "disposition": _disposition(candidate.get("reportedWorkDisposition")),
        "summary": str_(candidate.get("summary"), "Run completed"),
        "objectiveSatisfied": satisfied if type(satisfied) is bool else None,
        "verification": verification,
        "remainingWork": remaining,
        "blocker": None
        if not blocker
        else {
            "reasonCode": str_(blocker.get("reasonCode"), "blocked"),
            "unblockAction": str_(blocker.get("unblockAction"), "Resolve the blocker to continue."),
            "scope": "task_wide" if blocker.get("scope") == "task_wide" else "current_track",
        },
        "artifacts": artifacts,
    }


def run_terminal_entry(payload: dict[str, Any], ts: str) -> dict[str, Any]:
    """A ``run_terminal`` from a ``run.terminal`` payload (spec §2.6.10)."""
    turn = payload.get("turnTerminalState")
    run = payload.get("runTerminalState")
    entry: dict[str, Any] = {
        "kind": "run_terminal",
        "ts": ts,
        "turnState": turn if turn in ("failed", "interrupted", "cancelled") else "completed",
        "runState": run if run in ("failed", "cancelled") else "succeeded",
        "disposition": _disposition(payload.get("reportedWorkDisposition")),
    }
    stop = obj(payload.get("stopReason"))
    reason = ntext(stop.get("message")) or ntext(stop.get("code"))
    if reason:
        entry["stopReason"] = reason
    return entry


def usage_entry(payload: dict[str, Any], ts: str) -> dict[str, Any]:
    """A usage ``result`` (subtype ``paperclip.usage``) (spec §2.6.8)."""
    usage = payload.get("usage")
    scope = usage if type(usage) is dict and usage else payload
    counts = scope
    for name in ("total", "runDelta"):
        value = scope.get(name)
        if type(value) is dict and value:
            counts = value
            break
    return {
        "kind": "result",
        "ts": ts,
        "text": "",
        "inputTokens": num(first(counts.get("inputTokens"), counts.get("input_tokens"))),
        "outputTokens": num(first(counts.get("outputTokens"), counts.get("output_tokens"))),
        "cachedTokens": num(
            first(
                counts.get("cachedInputTokens"),
                counts.get("cached_input_tokens"),
                counts.get("cacheReadTokens"),
            )
        ),
        "costUsd": num(first(scope.get("costUsd"), scope.get("cost_usd"))),
        "subtype": "paperclip.usage",
        "isError": False,
        "errors": [],
    }


def _semantic_tool(event_type: str, payload: dict[str, Any], ts: str) -> dict[str, Any]:
    raw = payload.get("semantic_tool")
    tool = obj(raw if raw is not None else payload.get("semanticTool"))
    call_id = str_(tool.get("callId"), "semantic-tool")
    operation = str_(tool.get("operationId"), "Paperclip operation")
    if event_type.endswith("input"):
        references = obj(tool.get("content")).get("references")
        named = []
        for item in references if type(references) is list else []:
            reference = obj(item)
            text = f"{str_(reference.get('kind'))}:{str_(reference.get('id'))}"
            if text != ":":
                named.append(text)
        return {
            "kind": "tool_call",
            "ts": ts,
            "name": operation,
            "toolUseId": call_id,
            "input": {"reference": ", ".join(named)},
        }
    outcome = str_(tool.get("outcome"), "succeeded")
    code = str_(tool.get("code"), outcome)
    receipt = str_(tool.get("operationReceiptId"))
    content = "\n".join(part for part in (code, f"receipt: {receipt}" if receipt else "") if part)
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": call_id,
        "toolName": operation,
        "content": content,
        "isError": outcome in _TOOL_ERRORS,
    }


def _session(event: dict[str, Any], event_type: str, payload: dict[str, Any], ts: str) -> Any:
    model = str_(
        obj(payload.get("context")).get("model"),
        str_(obj(payload.get("model")).get("name"), "Paperclip runner"),
    )
    session = str_(
        payload.get("providerSessionId"),
        str_(payload.get("driverSessionId"), str_(event.get("normalizedSessionId"))),
    )
    verb = "resumed" if event_type == "session.resumed" else "started"
    text = f"Paperclip session {verb} · {model}" + (f" · {session}" if session else "")
    return _text("system", text, ts)


def _structured_final(text: str) -> str | None:
    """The summary of a ``paperclip.run_result.v1`` JSON final message, or None."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    if type(value) is not dict or value.get("schema") != _RUN_RESULT_SCHEMA:
        return None
    summary = value.get("summary")
    return summary if type(summary) is str and summary else None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


class RunnerStdoutParser:
    """One run's PRP stdout: remembers item channels, streamed items, emitted result
    summaries and runtime requests, so deltas and snapshots are not shown twice."""

    def __init__(self) -> None:
        self._codex = create_codex_parser()
        self.reset()

    def reset(self) -> None:
        self._assistant_deltas: BoundedMap[str, bool] = BoundedMap(REMEMBERED)
        self._reasoning_deltas: BoundedMap[str, bool] = BoundedMap(REMEMBERED)
        self._summaries: BoundedMap[str, bool] = BoundedMap(REMEMBERED)
        self._tool_outputs: BoundedMap[str, bool] = BoundedMap(REMEMBERED)
        self._channels: BoundedMap[str, str] = BoundedMap(REMEMBERED)
        self._structured_finals: BoundedMap[str, bool] = BoundedMap(REMEMBERED)
        self._requests: BoundedMap[str, dict[str, Any]] = BoundedMap(REMEMBERED)
        self._codex.reset()

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        value = parse_json_object(line)
        if value is None or value.get("type") != PRP_LINE_TYPE:
            # Not a PRP envelope (not JSON, an array, another line type): Codex's parser.
            return self._codex.parse_line(line, ts)
        event = obj(value.get("event"))
        if not event:
            return []
        return self._event(event, ts)

    # -- dispatch (spec §2.5) ---------------------------------------------------------

    def _event(self, event: dict[str, Any], ts: str) -> list[Any]:
        event_type = str_(event.get("eventType"))
        payload = obj(event.get("payload"))
        family = family_of(event_type)
        if family is not None:
            return [provider_activity(event_type, family[0], family[1], payload, ts)]
        if event_type in ("workspace.change.updated", "workspace.diff.recorded"):
            return [workspace_change(payload, ts)]
        if event_type == "workspace.file.referenced":
            return [file_reference(payload, ts)]
        if event_type.startswith("runtime_request."):
            return runtime_request(event, event_type, payload, ts, self._requests)
        if event_type in _SEMANTIC_TOOLS:
            return [_semantic_tool(event_type, payload, ts)]
        if event_type in ("session.started", "session.resumed"):
            return [_session(event, event_type, payload, ts)]
        if event_type == "turn.started":
            return [_text("system", "Turn started", ts)]
        if event_type == "turn.completed":
            return [_text("system", "Turn completed", ts)]
        if event_type == "turn.failed":
            message = str_(obj(payload.get("error")).get("message"), "Turn failed")
            return [_text("stderr", message, ts)]
        if event_type in ("item.started", "item.completed"):
            if payload.get("kind") == "usage":
                return [usage_entry(payload, ts)]
            phase = "started" if event_type == "item.started" else "completed"
            return self._item(event, payload, phase, ts)
        if event_type == "item.failed":
            message = str_(
                obj(payload.get("error")).get("message"),
                str_(obj(payload.get("item")).get("error"), "Runner item failed"),
            )
            return [_text("stderr", message, ts)]
        if event_type == "item.delta":
            return self._delta(event, payload, ts)
        if event_type == "usage.reported":
            return [usage_entry(payload, ts)]
        if event_type in ("run.result.proposed", "run.result.accepted"):
            candidate = (
                payload if event_type == "run.result.proposed" else obj(payload.get("result"))
            )
            summary = str_(candidate.get("summary"))
            if not summary or summary in self._summaries:
                return []
            self._summaries[summary] = True
            return [run_result_entry(candidate, ts)]
        if event_type == "run.terminal":
            return [run_terminal_entry(payload, ts)]
        if event_type in _DIAGNOSTICS:
            text = str_(payload.get("message"), str_(payload.get("code"), event_type))
            return [_text("system", f"Runner: {text}", ts)]
        return []

    # -- items (spec §2.6.7) ----------------------------------------------------------

    def _item(
        self, event: dict[str, Any], payload: dict[str, Any], phase: str, ts: str
    ) -> list[Any]:
        item = obj(payload.get("item"))
        kind = norm_type(str_(item.get("type"), str_(payload.get("kind"))))
        ident = item_id(event, item)
        channel = channel_of(payload)
        if phase == "started":
            self._channels[ident] = channel
        recorded = channel if channel != "unknown" else (self._channels.get(ident) or "unknown")
        if kind == "agentmessage":
            return self._message(item_text(item, payload), phase, ident, recorded, ts)
        if kind == "reasoning":
            text = item_text(item, payload)
            if phase == "completed":
                self._channels.pop(ident)
            shown = text if text and ident not in self._reasoning_deltas else ""
            return [
                {
                    "kind": "thinking",
                    "ts": ts,
                    "text": shown,
                    "lifecycle": phase,
                    "channel": recorded if recorded in ("detail", "summary") else "unknown",
                    "itemId": ident,
                }
            ]
        if kind == "commandexecution":
            return [self._command(item, phase, ident, ts)]
        if kind == "filechange":
            return _file_change(item, phase, ident, ts)
        if kind == "dynamictoolcall":
            name = str_(item.get("tool"), str_(item.get("name"), "Paperclip tool"))
            if phase == "started":
                return [_call(name, ident, first(item.get("arguments"), item.get("input")), ts)]
            output = stringify(
                first(item.get("contentItems"), item.get("result"), item.get("output"))
            )
            return [_result(ident, name, output or f"{name} completed", tool_failure(item), ts)]
        if kind in ("tooluse", "toolresult", "mcptoolcall"):
            name = str_(item.get("name"), str_(item.get("tool"), "Tool"))
            if phase == "started":
                return [_call(name, ident, first(item.get("input"), item.get("arguments")), ts)]
            output = stringify(
                first(
                    item.get("content"), item.get("result"), item.get("output"), item.get("error")
                )
            )
            target = str_(item.get("tool_use_id"), ident)
            return [_result(target, name, output or f"{name} completed", tool_failure(item), ts)]
        if kind in ("usage", "usermessage"):
            return []
        text = item_text(item, payload)
        return [_text("system", text, ts)] if text else []

    def _message(self, text: str, phase: str, ident: str, channel: str, ts: str) -> list[Any]:
        if phase == "completed":
            self._channels.pop(ident)
        if not text or ident in self._assistant_deltas:
            return []  # an item that streamed its deltas is never repeated whole
        if channel == "final" and trim_start(text).startswith("{"):
            summary = _structured_final(text)
            if summary is not None:
                self._summaries[summary] = True
                return [
                    {
                        "kind": "assistant",
                        "ts": ts,
                        "text": summary,
                        "channel": "final",
                        "itemId": ident,
                    }
                ]
        return [
            {
                "kind": "assistant",
                "ts": ts,
                "text": text,
                "channel": channel if channel in ("final", "progress") else "unknown",
                "itemId": ident,
            }
        ]

    def _command(self, item: dict[str, Any], phase: str, ident: str, ts: str) -> dict[str, Any]:
        command = str_(item.get("command"))
        if type(item.get("command")) is not str:
            actions = item.get("commandActions")
            first_action = obj(actions[0]) if type(actions) is list and actions else {}
            command = str_(first_action.get("command"))
        if phase == "started":
            return _call("command", ident, {"command": command}, ts)
        output = str_(item.get("aggregatedOutput"), str_(item.get("aggregated_output")))
        code = first(item.get("exitCode"), item.get("exit_code"))
        exit_line = ""
        if (type(code) is int or type(code) is float) and num(code) == code:
            exit_line = f"exit_code: {number_text(code)}"
        detail = "\n".join(part for part in (exit_line, output) if part)
        content = detail or str_(item.get("status"), "command completed")
        if ident in self._tool_outputs:
            content = ""  # the output streamed already, as deltas
        return _result(ident, "command", content, tool_failure(item), ts)

    # -- deltas (spec §2.6.7b) --------------------------------------------------------

    def _delta(self, event: dict[str, Any], payload: dict[str, Any], ts: str) -> list[Any]:
        kind = norm_type(str_(payload.get("kind")))
        text = str_(payload.get("text"))
        ident = str_(event.get("itemId")) or (f"{kind}-delta" if kind else "item-delta")
        channel = channel_of(payload)
        if channel == "unknown":
            channel = self._channels.get(ident) or "unknown"
        if not text:
            return []
        if kind == "agentmessage":
            self._assistant_deltas[ident] = True
            if channel == "final" and (
                ident in self._structured_finals or trim_start(text).startswith("{")
            ):
                self._structured_finals[ident] = True  # a structured result: hidden
                return []
            return [
                {
                    "kind": "assistant",
                    "ts": ts,
                    "text": text,
                    "delta": True,
                    "channel": channel if channel in ("final", "progress") else "unknown",
                    "itemId": ident,
                }
            ]
        if kind == "reasoning":
            self._reasoning_deltas[ident] = True
            return [
                {
                    "kind": "thinking",
                    "ts": ts,
                    "text": text,
                    "delta": True,
                    "channel": channel if channel in ("detail", "summary") else "unknown",
                    "itemId": ident,
                }
            ]
        if kind == "commandexecution":
            self._tool_outputs[ident] = True
            entry = _result(ident, "command", text, False, ts)
            entry["delta"] = True
            return [entry]
        if kind in ("filechange", "diff"):
            lines = []
            for line in text.split("\n"):
                change = "context"
                if line.startswith("+"):
                    change, line = "add", line[1:]  # noqa: PLW2901 - the marker goes
                elif line.startswith("-"):
                    change, line = "remove", line[1:]  # noqa: PLW2901
                lines.append({"kind": "diff", "ts": ts, "changeType": change, "text": line})
            return lines
        return [_text("system", text, ts)]


def _call(name: str, ident: str, tool_input: object, ts: str) -> dict[str, Any]:
    return {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "toolUseId": ident,
        "input": tool_input if tool_input is not None else {},
    }


def _result(ident: str, name: str, content: str, failed: bool, ts: str) -> dict[str, Any]:
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "toolName": name,
        "content": content,
        "isError": failed,
    }


def _file_change(item: dict[str, Any], phase: str, ident: str, ts: str) -> list[Any]:
    raw = item.get("changes")
    changes = [obj(change) for change in (raw if type(raw) is list else [])]
    paths = [path for change in changes if (path := str_(change.get("path")))]
    if phase == "started":
        return [
            _call("file_change", ident, {"path": paths[0] if paths else "", "paths": paths}, ts)
        ]
    entries: list[Any] = []
    for change in changes:
        kind = str_(obj(change.get("kind")).get("type"), str_(change.get("kind"), "update"))
        diff = str_(change.get("diff"))
        path = str_(change.get("path"))
        if path:
            entries.append({"kind": "diff", "ts": ts, "changeType": "file_header", "text": path})
        if diff:
            change_type = "add" if kind == "add" else "remove" if kind == "delete" else "context"
            entries.extend(
                {"kind": "diff", "ts": ts, "changeType": change_type, "text": line}
                for line in diff.split("\n")
            )
    content = "\n".join(paths) or "file change completed"
    entries.append(_result(ident, "file_change", content, tool_failure(item), ts))
    return entries


def create_stdout_parser() -> RunnerStdoutParser:
    """A parser for one run (coalesces requests, hides what was streamed already)."""
    return RunnerStdoutParser()


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One line on its own: fresh state, so nothing coalesces across lines."""
    return RunnerStdoutParser().parse_line(line, ts)
