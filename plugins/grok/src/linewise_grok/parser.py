"""Grok Build ``--output-format streaming-json`` lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import (
    ResultEntry,
    ToolCallEntry,
    ToolResultEntry,
    TranscriptEntry,
)
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_number,
    as_object,
    as_string,
    dig,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)
from linewise_contracts.extract import error_text as shared_error_text
from linewise_contracts.usage import TokenUsage

from linewise_grok.ending import named_model, tokens_from, with_end_fields

__all__ = ["GrokStdoutParser", "create_stdout_parser", "parse_stdout_line"]

# The final response's text is kept for the ``result`` entry; a runaway answer is cut.
_RESULT_TEXT_LIMIT: Final = 100_000
_SYSTEM_TEXT_LIMIT: Final = 2000
_SENTENCE_CLOSERS: Final = frozenset(".?!:;")
# ``tool_call_update`` statuses that carry an outcome; null/pending/in_progress do not.
_FINISHED: Final = ("completed", "failed")
# Error fields the CLI uses, in the order the reference reads them.
_ERROR_FIELDS: Final = ("message", "detail", "code")
#: The errors of one run its result entry carries (each once): a bound on what a run keeps.
_KEPT_ERRORS: Final = 50


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


class _TurnBoundary:
    """Puts back the newline Grok drops between reasoning turns in ``streaming-json``.

    The non-streaming ``json`` output separates turns with ``\\n``; the streaming
    one glues them (``"`"`` then ``"The"`` reads "`The"). A chunk that starts a
    capitalised word right after a sentence closer, or after a backtick that
    closes a code span, starts a new line. Same rule as the reference.
    """

    __slots__ = ("_in_code", "_last")

    def __init__(self) -> None:
        self._last = ""
        self._in_code = False

    def apply(self, chunk: str) -> str:
        out = chunk
        last = self._last
        if (
            last
            and not last[-1].isspace()
            and len(chunk) >= 2
            and "A" <= chunk[0] <= "Z"
            and (last[-1] in _SENTENCE_CLOSERS or (last[-1] == "`" and not self._in_code))
        ):
            out = "\n" + chunk
        self._last = chunk
        if chunk.count("`") % 2:
            self._in_code = not self._in_code
        return out


def error_text(event: dict[str, Any]) -> str:
    """The message of an ``error`` event, whichever field carries it ("" when there is none)."""
    for key in ("data", "message"):
        text = event.get(key)
        if type(text) is str and text:
            return text
    # An error object without a known field is shown as its JSON rather than lost.
    return shared_error_text(event.get("error"), keys=_ERROR_FIELDS)


def run_error(event: dict[str, Any]) -> str:
    """An ``error`` event as one of the run's errors (the result's and the summary's): its
    message, else its fields as JSON, else "Grok error"."""
    text = error_text(event).strip()
    if text:
        return text
    rest = {key: value for key, value in event.items() if key != "type"}
    return to_json_text(rest) if rest else "Grok error"


def _end_text(event: dict[str, Any]) -> str:
    stop = as_string(event.get("stopReason")).strip()
    session = as_string(event.get("sessionId")).strip()
    parts = [f"stop_reason={stop}" if stop else "", f"session={session}" if session else ""]
    return " ".join(part for part in parts if part) or "run completed"


def _is_error_stop(stop_reason: str) -> bool:
    return stop_reason.replace("_", "").lower() == "refusal"


def _result_entry(
    event: dict[str, Any],
    ts: str,
    text: str,
    *,
    responses: TokenUsage | None = None,
    errors: tuple[str, ...] = (),
    max_turns: bool = False,
    model: str | None = None,
) -> TranscriptEntry:
    usage = as_object(event.get("usage"))
    stop = as_string(event.get("stopReason"))
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": text,
        "inputTokens": as_number(usage.get("input_tokens")),
        "outputTokens": as_number(usage.get("output_tokens")),
        "cachedTokens": as_number(usage.get("cache_read_input_tokens")),
        "costUsd": as_number(event.get("total_cost_usd")),
        "subtype": stop,
        "isError": _is_error_stop(stop) or bool(errors),
        "errors": list(errors),
    }
    if model is not None:
        entry["model"] = model
    return with_end_fields(
        entry, event, responses=responses, errors=bool(errors), max_turns=max_turns
    )


def _content_part_text(part: object) -> str:
    """One ACP content element of a tool update as text (text, diff or terminal)."""
    kind = dig(part, "type")
    if kind == "content":
        inner = dig(part, "content")
        text = dig(inner, "text")
        return text if type(text) is str else to_json_text(inner)
    if kind == "diff":
        path = as_string(dig(part, "path"), "?")
        old, new = as_string(dig(part, "oldText")), as_string(dig(part, "newText"))
        lines = [f"--- {path}", f"+++ {path}"]
        lines += ["-" + line for line in old.splitlines()]
        lines += ["+" + line for line in new.splitlines()]
        return "\n".join(lines)
    if kind == "terminal":
        return f"[terminal {as_string(dig(part, 'terminalId'))}]".replace(" ]", "]")
    return "" if part is None else to_json_text(part)


def tool_output_text(event: dict[str, Any]) -> str:
    """What a finished tool call returned: its ``content`` elements, else ``rawOutput``."""
    parts = [_content_part_text(part) for part in as_list(event.get("content"))]
    text = "\n".join(part for part in parts if part)
    if text:
        return text
    raw = event.get("rawOutput")
    if raw is None:
        return ""
    return raw if type(raw) is str else to_json_text(raw)


def _tool_call(event: dict[str, Any], ts: str) -> ToolCallEntry:
    name = as_string(event.get("toolName")) or as_string(event.get("title")) or "tool"
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(event.get("rawInput", {})),
    }
    ident = event.get("toolCallId")
    if type(ident) is str:
        call["toolUseId"] = ident
    return call


def _tool_result(
    event: dict[str, Any], ts: str, names: BoundedMap[str, str] | None
) -> list[TranscriptEntry]:
    status = event.get("status")
    if status not in _FINISHED:
        return []  # an interim update (locations, progress): nothing to show yet
    ident = as_string(event.get("toolCallId"))
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "content": tool_output_text(event),
        "isError": status == "failed",
    }
    if names is not None and ident in names:
        result["toolName"] = names[ident]
    return [result]


def _plan_text(event: dict[str, Any]) -> str:
    lines = ["plan:"]
    for step in as_list(event.get("entries")):
        text = (
            as_string(dig(step, "content"))
            or as_string(dig(step, "step"))
            or (step if type(step) is str else to_json_text(step))
        )
        status = as_string(dig(step, "status"))
        lines.append(f"- [{status}] {text}" if status else f"- {text}")
    return "\n".join(lines) if len(lines) > 1 else "plan updated"


def _other_event_text(kind: str, event: dict[str, Any]) -> str:
    if kind == "max_turns_reached":
        limit = event.get("limit", event.get("maxTurns"))
        return "max turns reached" + (f" (limit {limit})" if limit is not None else "")
    if kind.startswith("auto_compact"):
        rest = {k: v for k, v in event.items() if k != "type"}
        text = "context " + kind.removeprefix("auto_").replace("_", " ")
        return text + (f": {to_json_text(rest)}" if rest else "")
    return f"event: {kind or 'unknown'}"


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Grok streaming-json line to entries (stateless; prefer :func:`create_stdout_parser`).

    Without state, reasoning turns Grok glues together stay glued, tool results
    carry no ``toolName`` and ``end`` gives no ``result`` text.
    """
    return GrokStdoutParser().parse_line(line, ts)


class _RunSoFar:
    """What the run under way said before its ``end``: its responses' tokens, its errors
    (each once, the first ``_KEPT_ERRORS``), a ``max_turns_reached`` event, the last model
    an event named (the ``end``'s result entry reads them)."""

    __slots__ = ("errors", "max_turns", "model", "tokens")

    def __init__(self) -> None:
        self.tokens = TokenUsage()
        self.errors: dict[str, None] = {}
        self.max_turns = False
        self.model: str | None = None

    def error(self, event: dict[str, Any]) -> None:
        if len(self.errors) < _KEPT_ERRORS:
            self.errors[run_error(event)] = None


class GrokStdoutParser:
    """The stateful Grok parser.

    It puts back the newlines between reasoning turns (see :class:`_TurnBoundary`),
    starts a new line when a new model response streams straight after the
    previous one, remembers tool names by call id, and keeps the final
    response's text for the ``result`` entry an ``end`` with usage produces.
    """

    __slots__ = (
        "_answer",
        "_answer_size",
        "_boundary",
        "_last",
        "_names",
        "_previous",
        "_run",
        "_thought",
    )

    def __init__(self) -> None:
        self._thought = _TurnBoundary()
        self._names: BoundedMap[str, str] = BoundedMap()
        # Text chunks of the response being streamed, and of the last one that had text.
        self._answer: list[str] = []
        self._answer_size = 0
        self._previous = ""
        # A response boundary (``usage``) was crossed since the last entry.
        self._boundary = False
        # Kind of the last entry produced: deltas merge only while it is theirs.
        self._last: str | None = None
        self._run = _RunSoFar()

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            self._last = "stdout"
            return stdout_entries(line, ts)
        entries = self._entries(event, ts)
        if entries:
            self._last = entries[-1]["kind"]
        return entries

    def _entries(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = as_string(event.get("type")).strip()
        model = named_model(event, kind)
        if model is not None:
            self._run.model = model
        if kind == "thought":
            text = as_string(event.get("data"))
            if not text:
                return []
            text = self._delta("thinking", text, turns=True)
            return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]
        if kind == "text":
            text = as_string(event.get("data"))
            if not text:
                return []
            self._keep_answer(text)
            text = self._delta("assistant", text, turns=False)
            return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]
        if kind == "usage":
            # One model response ended; the next one starts a new line.
            self._run.tokens += tokens_from(event.get("usage"))
            self._new_response()
            self._boundary = True
            return []
        if kind == "available_commands":
            return []  # the tool and slash-command inventory, repeated every turn
        self._boundary = False
        if kind == "tool_call":
            self._new_response()
            call = _tool_call(event, ts)
            ident = call.get("toolUseId")
            if ident is not None:
                self._names[ident] = call["name"]
            return [call, *_tool_result(event, ts, self._names)]
        if kind == "tool_call_update":
            return _tool_result(event, ts, self._names)
        if kind == "error":
            self._run.error(event)
            return [{"kind": "stderr", "ts": ts, "text": error_text(event) or "Grok error"}]
        if kind == "max_turns_reached":
            self._run.max_turns = True
        if kind == "end":
            entries: list[TranscriptEntry] = [_system(ts, _end_text(event))]
            if "structuredOutput" in event:
                # --json-schema (Grok 1.0.41): the answer as data, whole.
                shown = to_json_text(event.get("structuredOutput"), pretty=True)
                entries.append({"kind": "system", "ts": ts, "text": f"structured output:\n{shown}"})
            if "usage" in event or "total_cost_usd" in event:
                answer = "".join(self._answer) or self._previous
                run = self._run
                entries.append(
                    _result_entry(
                        event,
                        ts,
                        answer.strip(),
                        responses=run.tokens,
                        errors=tuple(run.errors),
                        max_turns=run.max_turns,
                        model=run.model,
                    )
                )
            self._new_response()
            self._previous = ""
            self._run = _RunSoFar()
            return entries
        if kind == "plan":
            return [_system(ts, _plan_text(event))]
        return [_system(ts, _other_event_text(kind, event))]

    def _delta(self, kind: str, text: str, *, turns: bool) -> str:
        if turns:
            text = self._thought.apply(text)
        if self._boundary and self._last == kind and not text.startswith("\n"):
            text = "\n" + text
        self._boundary = False
        return text

    def _keep_answer(self, text: str) -> None:
        room = _RESULT_TEXT_LIMIT - self._answer_size
        if room > 0:
            self._answer.append(text[:room])
            self._answer_size += min(len(text), room)

    def _new_response(self) -> None:
        if self._answer:
            self._previous = "".join(self._answer)
        self._answer.clear()
        self._answer_size = 0
        self._thought = _TurnBoundary()

    def reset(self) -> None:
        self._thought = _TurnBoundary()
        self._names.clear()
        self._answer.clear()
        self._answer_size = 0
        self._previous = ""
        self._boundary = False
        self._last = None
        self._run = _RunSoFar()


def create_stdout_parser() -> GrokStdoutParser:
    """A fresh stateful Grok parser for one transcript."""
    return GrokStdoutParser()
