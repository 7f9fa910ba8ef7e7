"""Pi coding agent ``--mode json`` / ``--mode rpc`` event lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import ResultEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)
from linewise_contracts.summary import Usage
from linewise_contracts.usage import TokenUsage, token_count

from linewise_pi.ending import RunErrors, run_failed, with_run_fields

__all__ = [
    "PiStdoutParser",
    "assistant_entries",
    "create_stdout_parser",
    "message_entries",
    "message_errors",
    "message_text",
    "message_usage",
    "parse_stdout_line",
    "tool_result_text",
    "usage_text",
]

_SYSTEM_TEXT_LIMIT: Final = 2000
# Tool ids remembered for names and for skipping results already shown:
# bounded so a very long RPC session cannot grow them without limit.
_REMEMBERED: Final = 4096
_FAILED_STOPS: Final = ("error", "aborted")
_STARTED: Final = "🚀 Pi agent started"
_PROVIDER_FAILED: Final = "Pi provider request failed."


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


# -- messages (Pi's AgentMessage: user, assistant, toolResult and custom roles) ----------


def _blocks(message: dict[str, Any], kind: str, field: str) -> list[str]:
    content = message.get("content")
    if type(content) is str:
        return [content.strip()] if kind == "text" and content.strip() else []
    texts = (
        as_string(block.get(field)).strip()
        for block in as_list(content)
        if type(block) is dict and block.get("type") == kind
    )
    return [text for text in texts if text]


def message_text(message: object) -> str:
    """The text blocks of an assistant message (or its string content), joined."""
    return "\n\n".join(_blocks(as_object(message), "text", "text"))


def message_errors(message: object) -> list[str]:
    """What went wrong in an assistant message that stopped with ``error`` or ``aborted``."""
    body = as_object(message)
    stop = body.get("stopReason")
    if stop not in _FAILED_STOPS:
        return []
    error = as_string(body.get("errorMessage")).strip()
    if error:
        return [error]
    return ["Pi request aborted." if stop == "aborted" else _PROVIDER_FAILED]


def usage_text(usage: object) -> str:
    """Pi's usage block (or the generic camelCase one) as ``in=.. out=.. cached=.. cost=$..``."""
    body = as_object(usage)
    if "inputTokens" in body or "outputTokens" in body:
        numbers = (body.get("inputTokens"), body.get("outputTokens"), body.get("cachedInputTokens"))
        cost = as_number(body.get("costUsd"), -1)
    else:
        numbers = (body.get("input"), body.get("output"), body.get("cacheRead"))
        cost = as_number(as_object(body.get("cost")).get("total"), -1)
    text = "in={} out={} cached={}".format(*(as_int(number) for number in numbers))
    return text + (f" cost=${cost:.6f}" if cost >= 0 else "")


def tool_result_text(result: object) -> str:
    """A tool result as text: a string itself, ``{"content": [...]}`` blocks flattened."""
    if type(result) is str:
        return result
    body = as_object(result)
    if "content" in body:
        return content_text(body["content"])
    return "" if result is None else to_json_text(result, pretty=True)


def assistant_entries(
    message: dict[str, Any], ts: str, *, text: bool = True, thinking: bool = True
) -> list[TranscriptEntry]:
    """An assistant message's thinking and text blocks, and what went wrong when it failed."""
    entries: list[TranscriptEntry] = []
    if thinking:
        entries += [
            {"kind": "thinking", "ts": ts, "text": block}
            for block in _blocks(message, "thinking", "thinking")
        ]
    if text:
        entries += [
            {"kind": "assistant", "ts": ts, "text": block}
            for block in _blocks(message, "text", "text")
        ]
    entries += [{"kind": "stderr", "ts": ts, "text": error} for error in message_errors(message)]
    return entries


def message_entries(message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """A complete non-assistant message: the prompt, or one of Pi's custom messages."""
    role = as_string(message.get("role"))
    if role == "user":
        text = content_text(message.get("content")).strip()
        return [{"kind": "user", "ts": ts, "text": text}] if text else []
    if role == "toolResult":
        return []  # tool_execution_end reported it already
    if role == "bashExecution":
        command = as_string(message.get("command"))
        output = as_string(message.get("output")).rstrip()
        code = message.get("exitCode")
        head = f"user ran `{command}`" + (f" (exit {code})" if code is not None else "")
        return [_system(ts, head + (f"\n{output}" if output else ""))]
    summary = as_string(message.get("summary")) or content_text(message.get("content"))
    label = {"compactionSummary": "compaction summary", "branchSummary": "branch summary"}
    name = label.get(role) or as_string(message.get("customType")) or role or "message"
    return [_system(ts, f"{name}: {summary.strip()}" if summary.strip() else name)]


def _tool_result(ts: str, ident: str, name: str, result: object, failed: bool) -> ToolResultEntry:
    entry: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "content": tool_result_text(result),
        "isError": failed,
    }
    if name:
        entry["toolName"] = name
    return entry


# -- session events ------------------------------------------------------------------


def _compaction_text(event: dict[str, Any]) -> tuple[str, bool]:
    """The system text for compaction_end (auto_compaction_end before Pi 0.66), and whether
    it reports a failure."""
    error = as_string(event.get("errorMessage")).strip()
    if error:
        return f"context compaction failed: {error}", True
    if event.get("aborted") is True:
        return "context compaction aborted", False
    before = as_int(as_object(event.get("result")).get("tokensBefore"), -1)
    text = "context compacted" + (f" ({before} tokens before)" if before >= 0 else "")
    return text + ("; retrying the prompt" if event.get("willRetry") is True else ""), False


def _queue_text(event: dict[str, Any]) -> str:
    """queue_update: the messages waiting to steer the running turn and to follow it."""
    parts = []
    for field, label in (("steering", "steering"), ("followUp", "follow-up")):
        queued = [as_string(item) or to_json_text(item) for item in as_list(event.get(field))]
        if queued:
            parts.append(f"{label}: " + " | ".join(queued))
    return "queue: " + ("; ".join(parts) if parts else "empty")


def _retry_start_text(event: dict[str, Any]) -> str:
    attempt = as_int(event.get("attempt"))
    most = as_int(event.get("maxAttempts"))
    delay = as_number(event.get("delayMs"), -1)
    error = as_string(event.get("errorMessage")).strip()
    text = f"retry {attempt}" + (f"/{most}" if most else "")
    text += f" in {delay / 1000:.1f}s" if delay >= 0 else ""
    return text + (f": {error}" if error else "")


def _session_entries(event: dict[str, Any], kind: str, line: str, ts: str) -> list[TranscriptEntry]:
    """Events that need no memory of earlier lines."""
    if kind == "session":
        ident = as_string(event.get("id"))
        return [{"kind": "init", "ts": ts, "model": "unknown", "sessionId": ident}]
    if kind == "agent_start":
        return [_system(ts, _STARTED)]
    if kind in ("turn_start", "tool_execution_update"):
        return []  # a boundary, and a running tool's partial output: the end event has it all
    if kind == "tool_execution_start":
        ident = as_string(event.get("toolCallId"))
        args = event.get("args")
        return [
            {
                "kind": "tool_call",
                "ts": ts,
                "name": as_string(event.get("toolName"), "tool"),
                "input": {} if args is None else json_or_placeholder(args),
                "toolUseId": ident,
            }
        ]
    # Pi 0.66 renamed auto_compaction_* to compaction_* (manual compaction reports it too).
    if kind in ("auto_compaction_start", "compaction_start"):
        reason = as_string(event.get("reason"))
        return [_system(ts, "context compaction started" + (f" ({reason})" if reason else ""))]
    if kind in ("auto_compaction_end", "compaction_end"):
        text, failed = _compaction_text(event)
        return [{"kind": "stderr", "ts": ts, "text": text} if failed else _system(ts, text)]
    if kind == "auto_retry_start":
        return [_system(ts, _retry_start_text(event))]
    if kind == "auto_retry_end":
        attempt = as_int(event.get("attempt"))
        if event.get("success") is True:
            return [_system(ts, f"retry succeeded (attempt {attempt})")]
        error = as_string(event.get("finalError")).strip() or "unknown error"
        text = (
            f"gave up after {attempt} attempts: {error}"
            if attempt
            else f"gave up retrying: {error}"
        )
        return [{"kind": "stderr", "ts": ts, "text": text}]
    if kind == "queue_update":
        return [_system(ts, _queue_text(event))]
    if kind == "session_action_update":
        action = as_string(event.get("action")) or as_string(event.get("type"))
        state = as_string(event.get("status")) or as_string(event.get("state"))
        detail = ", ".join(part for part in (action, state) if part and part != kind)
        return [_system(ts, "session action" + (f": {detail}" if detail else " updated"))]
    if kind == "extension_error":
        where = as_string(event.get("extensionPath")) or "extension"
        during = as_string(event.get("event"))
        error = as_string(event.get("error")) or to_json_text(event.get("error"))
        text = f"{where} failed" + (f" in {during}" if during else "") + f": {error}"
        return [{"kind": "stderr", "ts": ts, "text": text}]
    if kind == "error":
        message = as_string(event.get("message")).strip()
        return [{"kind": "stderr", "ts": ts, "text": message or line}]
    if kind == "usage":
        return [_system(ts, "usage: " + usage_text(event.get("usage")))]
    if kind == "response":
        # RPC mode answers each command; only a refused one matters in a transcript.
        if event.get("success") is not False:
            return []
        command = as_string(event.get("command"), "command")
        error = as_string(event.get("error")) or "no reason given"
        return [{"kind": "stderr", "ts": ts, "text": f"{command} failed: {error}"}]
    return stdout_entries(line, ts)


def message_tokens(message: dict[str, Any]) -> TokenUsage:
    """An assistant message's ``usage`` in the usage vocabulary.

    Pi's counts are disjoint (``totalTokens`` = input + output + cacheRead +
    cacheWrite): ``input`` is the uncached input; reasoning is inside ``output``
    and not reported apart.
    """
    body = as_object(message.get("usage"))
    return TokenUsage(
        uncached_input=token_count(body.get("input")),
        cache_read=token_count(body.get("cacheRead")),
        cache_write=token_count(body.get("cacheWrite")),
        output=token_count(body.get("output")),
    )


def message_usage(message: dict[str, Any]) -> tuple[Usage, float]:
    """An assistant message's tokens (cache writes count as input) and cost."""
    body = as_object(message.get("usage"))
    usage = Usage(
        input_tokens=as_int(body.get("input")) + as_int(body.get("cacheWrite")),
        output_tokens=as_int(body.get("output")),
        cached_tokens=as_int(body.get("cacheRead")),
    )
    return usage, as_number(as_object(body.get("cost")).get("total"))


def _run_result(
    messages: list[dict[str, Any]],
    ts: str,
    seen: list[dict[str, Any]],
    errors: RunErrors | None = None,
) -> TranscriptEntry:
    """agent_end as the run's result: final text, summed usage and cost, stop reason, errors,
    and what the run summary reads (linewise_pi.ending).

    ``messages`` are the ones agent_end lists; when it lists no assistant
    message, ``seen`` (the assistant messages of this run so far) stand in.
    ``errors``: the run's, as the stateful parser saw its events (else those of
    the messages).
    """
    assistants = [m for m in messages if m.get("role") == "assistant"] or seen
    usage, cost = Usage(), 0.0
    tokens = TokenUsage()
    for message in assistants:
        part, spent = message_usage(message)
        usage, cost = usage + part, cost + spent
        tokens += message_tokens(message)
    last = assistants[-1] if assistants else {}
    texts = [text for text in map(message_text, assistants) if text]
    stop = as_string(last.get("stopReason"))
    if errors is None:
        errors = RunErrors()
        for message in assistants:
            errors.answered(message, message_errors(message))
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": texts[-1] if texts else "",
        "inputTokens": usage.input_tokens,
        "outputTokens": usage.output_tokens,
        "cachedTokens": usage.cached_tokens,
        "costUsd": cost,
        "subtype": stop,
        "isError": run_failed(stop, failed=bool(errors.texts)),
        # The run's errors that stand, as the summary's; else what its last message said.
        "errors": errors.texts or message_errors(last),
    }
    return with_run_fields(entry, assistants, tokens, failed=bool(errors.texts))


class PiStdoutParser:
    """The stateful Pi parser: every event a transcript needs, each shown once.

    Pi sends an assistant message up to three times: streamed as
    ``message_update`` deltas, whole in ``message_end``, and again in
    ``turn_end`` (with the turn's tool results, already reported by
    ``tool_execution_end``). This parser shows the deltas, then only what was
    not streamed, and skips ``turn_end``'s repeats. It also names the model
    when it changes and turns ``agent_end`` into the run's ``result``.
    """

    __slots__ = (
        "_counted",
        "_errors",
        "_model",
        "_names",
        "_reported",
        "_seen",
        "_shown",
        "_streamed",
    )

    def __init__(self) -> None:
        self._streamed: set[str] = set()  # "text", "thinking": streamed in this message
        self._shown = False  # this turn's assistant message is in the transcript
        self._counted = False  # this turn's assistant message is in the usage
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # toolCallId -> toolName
        self._reported: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # results shown
        self._model = ""
        # Assistant messages of this agent run (one prompt), once each, for its result.
        self._seen: list[dict[str, Any]] = []
        # The run's errors since the last agent_end, for its result.
        self._errors = RunErrors()

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        kind = as_string(event.get("type"))
        self._errors.event(kind, event)
        if kind == "message_update":
            return self._delta(as_object(event.get("assistantMessageEvent")), ts)
        if kind == "message_start":
            return self._message_start(as_object(event.get("message")), ts)
        if kind == "message_end":
            return self._message_end(as_object(event.get("message")), ts)
        if kind == "turn_end":
            return self._turn_end(event, ts)
        if kind == "tool_execution_end":
            return self._tool_end(event, ts)
        if kind == "agent_end":
            messages = [m for m in as_list(event.get("messages")) if type(m) is dict]
            # The run's own errors once it saw its messages; a lone agent_end reads its own.
            errors = self._errors if self._seen else None
            entry = _run_result(messages, ts, self._seen, errors)
            self._seen = []
            self._errors = RunErrors()
            return [entry]
        if kind == "tool_execution_start":
            ident = as_string(event.get("toolCallId"))
            if ident:
                self._names[ident] = as_string(event.get("toolName"))
        elif kind in ("agent_start", "turn_start"):
            self._next_turn()
            if kind == "agent_start":
                self._seen = []
        return _session_entries(event, kind, line, ts)

    def _next_turn(self) -> None:
        self._streamed.clear()
        self._shown = self._counted = False

    def _delta(self, update: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = update.get("type")
        text = as_string(update.get("delta"))
        if not text or kind not in ("text_delta", "thinking_delta"):
            return []  # tool-call argument chunks; block starts, ends and `done` carry no delta
        self._shown = True
        if kind == "text_delta":
            self._streamed.add("text")
            return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]
        self._streamed.add("thinking")
        return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]

    def _message_start(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        if message.get("role") != "assistant":
            return []
        self._streamed.clear()
        model = as_string(message.get("model"))
        provider = as_string(message.get("provider"))
        named = f"{provider}/{model}" if provider and model else model
        if not named or named == self._model:
            return []
        self._model = named
        return [_system(ts, f"model: {named}")]

    def _count(self, message: dict[str, Any]) -> None:
        self._errors.answered(message, message_errors(message))
        # Only what the result needs: tool arguments and thinking can be large.
        if len(self._seen) < _REMEMBERED:
            slim = {key: message.get(key) for key in ("usage", "stopReason", "errorMessage")}
            self._seen.append({**slim, "role": "assistant", "content": message_text(message)})
        self._counted = True

    def _message_end(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        if message.get("role") != "assistant":
            return message_entries(message, ts)
        streamed = self._streamed
        entries = assistant_entries(
            message, ts, text="text" not in streamed, thinking="thinking" not in streamed
        )
        self._count(message)
        self._streamed = set()
        self._shown = True
        return entries

    def _turn_end(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        message = as_object(event.get("message"))
        entries: list[TranscriptEntry] = []
        if message.get("role") == "assistant":
            if not self._shown:
                entries = assistant_entries(message, ts)
            if not self._counted:
                self._count(message)
        for raw in as_list(event.get("toolResults")):
            result = as_object(raw)
            ident = as_string(result.get("toolCallId"))
            if ident in self._reported:
                continue
            name = as_string(result.get("toolName")) or (self._names.get(ident) or "")
            entries.append(_tool_result(ts, ident, name, result, result.get("isError") is True))
        self._next_turn()
        return entries

    def _tool_end(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        ident = as_string(event.get("toolCallId"))
        name = as_string(event.get("toolName")) or (self._names.get(ident) or "")
        self._reported[ident] = name
        return [_tool_result(ts, ident, name, event.get("result"), event.get("isError") is True)]

    def reset(self) -> None:
        self._next_turn()
        self._names.clear()
        self._reported.clear()
        self._model = ""
        self._seen = []
        self._errors = RunErrors()


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Pi event line to entries, as a fresh :class:`PiStdoutParser` sees it.

    Without the lines before it, a line cannot know what was already shown:
    ``message_end`` and ``turn_end`` repeat streamed text. Prefer
    :func:`create_stdout_parser`.
    """
    return PiStdoutParser().parse_line(line, ts)


def create_stdout_parser() -> PiStdoutParser:
    """A fresh stateful Pi parser for one transcript."""
    return PiStdoutParser()
