"""The OTLP format (``-f otlp``): a run as OpenTelemetry spans per the GenAI semantic
conventions, written as OTLP JSON and, given an endpoint, sent to a collector.

One ``invoke_agent`` span per run; an ``execute_tool`` span per tool call, from
the call to its result, matched by ``toolUseId``; a subagent (entries with a
``parentToolUseId``) is an ``invoke_agent`` span under the ``execute_tool`` span
of the call that started it, its own tool calls under it. Times are the
entries' timestamps. Usage is the run summary's: ``gen_ai.usage.input_tokens``
counts cache reads, as the conventions ask, with
``gen_ai.usage.cache_read.input_tokens`` beside it; what a CLI did not report is
left out, never 0. Needs ``linewise[otel]`` (the OpenTelemetry SDK), imported
only when this format is used.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import IO, TYPE_CHECKING, Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.render.outcome import summary_failed, summary_outcome, summary_tokens_known
from linewise.render.preview import subagent_kind
from linewise.settings.version import __version__

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.trace import Span

__all__ = ["OtlpRenderer", "otlp_json"]

#: The instrumentation scope the spans are made under.
SCOPE: Final = "linewise"
# Open spans kept at most (unanswered tool calls, subagents); the oldest is ended first.
_MAX_OPEN: Final = 10_000


def _nanoseconds(ts: object) -> int | None:
    if not isinstance(ts, str) or not ts:
        return None
    try:
        return int(datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1e9)
    except ValueError:
        return None


class OtlpRenderer:
    """Turns entries into spans as they arrive; ends and exports them at close.

    ``exporters`` receive the spans (the SDK's in-memory exporter in tests, an
    OTLP/HTTP exporter for ``endpoint``); the OTLP JSON document is written to
    ``stream`` unless ``write_json`` is False.
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        title: str = "transcript",
        adapter_type: str = "process",
        endpoint: str | None = None,
        exporters: Sequence[SpanExporter] = (),
        write_json: bool = True,
    ) -> None:
        try:
            from opentelemetry import trace
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import SimpleSpanProcessor
            from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
                InMemorySpanExporter,
            )
        except ModuleNotFoundError as error:
            raise RuntimeError(
                "-f otlp needs the OpenTelemetry SDK: pip install 'linewise[otel]'"
            ) from error
        self._trace = trace
        self._stream = stream
        self._title = title
        self._adapter_type = adapter_type
        self._write_json = write_json
        resource = Resource.create({"service.name": "linewise", "service.version": __version__})
        self._provider: TracerProvider = TracerProvider(resource=resource)
        self._collected = InMemorySpanExporter()
        for exporter in (self._collected, *exporters):
            self._provider.add_span_processor(SimpleSpanProcessor(exporter))
        if endpoint:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.trace.export import BatchSpanProcessor

            # Batched: a long run is a few requests, not one per span; flushed at close.
            self._provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint)))
        self._tracer = self._provider.get_tracer(SCOPE, __version__)
        self._first: int | None = None
        self._last: int | None = None
        self._root: Span | None = None
        self._tools: dict[str, Span] = {}  # toolUseId -> its open execute_tool span
        self._agents: dict[str, Span] = {}  # parentToolUseId -> the subagent's span
        self._labels: dict[str, str] = {}  # toolUseId -> the subagent its call starts
        self._session: str | None = None
        self._model: str | None = None

    def _time(self, entry: Mapping[str, Any]) -> int | None:
        at = _nanoseconds(entry.get("ts"))
        if at is not None:
            self._first = at if self._first is None else min(self._first, at)
            self._last = at if self._last is None else max(self._last, at)
        return at

    def _root_span(self, at: int | None) -> Span:
        if self._root is None:
            name = self._adapter_type
            self._root = self._tracer.start_span(
                f"invoke_agent {name}",
                start_time=at,
                attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": name},
            )
        return self._root

    def _agent_span(self, entry: Mapping[str, Any], at: int | None) -> Span:
        """The span an entry belongs under: the run's, or its subagent's."""
        root = self._root_span(at)
        parent = entry.get("parentToolUseId")
        if not isinstance(parent, str) or not parent:
            return root
        agent = self._agents.get(parent)
        if agent is None:
            under = self._tools.get(parent)
            context = self._trace.set_span_in_context(under if under is not None else root)
            label = self._labels.pop(parent, "subagent")
            agent = self._tracer.start_span(
                f"invoke_agent {label}",
                context=context,
                start_time=at,
                attributes={
                    "gen_ai.operation.name": "invoke_agent",
                    "gen_ai.agent.name": label,
                    "linewise.parent_tool_use_id": parent,
                },
            )
            self._keep(self._agents, parent, agent)
        return agent

    def _keep(self, spans: dict[str, Span], key: str, span: Span) -> None:
        if len(spans) >= _MAX_OPEN:
            oldest = next(iter(spans))
            spans.pop(oldest).end(end_time=self._last)
        spans[key] = span

    def write(self, entry: TranscriptEntry) -> None:
        """Take one entry: a span starts or ends, or the run's span learns something."""
        item: Mapping[str, Any] = entry
        kind = item["kind"]
        at = self._time(item)
        agent = self._agent_span(item, at)
        if kind == "init":
            self._session = self._session or item.get("sessionId") or None
            self._model = self._model or item.get("model") or None
        elif kind == "tool_call":
            name = item["name"] or "tool"
            ident = item.get("toolUseId")
            attributes: dict[str, Any] = {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": name,
                "gen_ai.tool.type": "function",
            }
            if isinstance(ident, str) and ident:
                attributes["gen_ai.tool.call.id"] = ident
            span = self._tracer.start_span(
                f"execute_tool {name}",
                context=self._trace.set_span_in_context(agent),
                start_time=at,
                attributes=attributes,
            )
            if isinstance(ident, str) and ident:
                self._keep(self._tools, ident, span)
                label = subagent_kind(name, item["input"], marker=item.get("startsSubagent"))
                if label is not None and len(self._labels) < _MAX_OPEN:
                    self._labels[ident] = label
            else:
                span.end(end_time=at)
        elif kind == "tool_result":
            ident = item["toolUseId"]
            if ident not in self._tools:
                return
            span = self._tools.pop(ident)
            if item["isError"]:
                span.set_status(self._trace.Status(self._trace.StatusCode.ERROR))
                span.set_attribute("error.type", "tool_error")
            if ident in self._agents:
                self._agents.pop(ident).end(end_time=at)
            span.end(end_time=at)

    def close(self, *, summary: RunSummary | None = None) -> None:
        """End every open span (the run's last), export them, write the OTLP JSON."""
        root = self._root_span(self._first)
        end = self._last
        for open_spans in (self._agents, self._tools):
            for span in open_spans.values():
                span.set_attribute("linewise.unfinished", True)
                span.end(end_time=end)
            open_spans.clear()
        self._describe(root, summary)
        root.end(end_time=end)
        self._provider.force_flush()
        finished = self._collected.get_finished_spans()
        self._provider.shutdown()
        if self._write_json:
            json.dump(otlp_json(finished), self._stream, indent=2)
            self._stream.write("\n")
            self._stream.flush()

    def _describe(self, root: Span, summary: RunSummary | None) -> None:
        session = self._session or (summary.session_id if summary else None)
        model = (summary.model if summary else None) or self._model
        if session:
            root.set_attribute("gen_ai.conversation.id", session)
        if model:
            root.set_attribute("gen_ai.request.model", model)
            root.set_attribute("gen_ai.response.model", model)
        root.set_attribute("linewise.source", self._title)
        if summary is None:
            return
        root.set_attribute("linewise.outcome", summary_outcome(summary))
        if summary_tokens_known(summary):
            usage = summary.usage
            root.set_attribute(
                "gen_ai.usage.input_tokens", usage.input_tokens + usage.cached_tokens
            )
            root.set_attribute("gen_ai.usage.cache_read.input_tokens", usage.cached_tokens)
            root.set_attribute("gen_ai.usage.output_tokens", usage.output_tokens)
        if summary.cost_usd is not None:
            root.set_attribute("linewise.cost_usd", summary.cost_usd)
        if summary_failed(summary):
            root.set_status(self._trace.Status(self._trace.StatusCode.ERROR))
            root.set_attribute("error.type", summary.outcome or "failed")


def _value(value: object) -> dict[str, Any]:
    """An attribute value in OTLP JSON (64-bit integers as strings, per the spec)."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list | tuple):
        return {"arrayValue": {"values": [_value(item) for item in value]}}
    return {"stringValue": str(value)}


def _attributes(attributes: Mapping[str, object] | None) -> list[dict[str, Any]]:
    return [{"key": key, "value": _value(value)} for key, value in (attributes or {}).items()]


def otlp_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """``spans`` as an OTLP/JSON ExportTraceServiceRequest (ids as hex, times as strings)."""
    from opentelemetry.trace import StatusCode

    resource = spans[0].resource.attributes if spans else {}
    out = []
    for span in spans:
        context = span.get_span_context()
        assert context is not None
        record: dict[str, Any] = {
            "traceId": f"{context.trace_id:032x}",
            "spanId": f"{context.span_id:016x}",
            "name": span.name,
            "kind": 1,  # SPAN_KIND_INTERNAL: every span here is the agent's own work
            "startTimeUnixNano": str(span.start_time or 0),
            "endTimeUnixNano": str(span.end_time or 0),
            "attributes": _attributes(span.attributes),
        }
        if span.parent is not None:
            record["parentSpanId"] = f"{span.parent.span_id:016x}"
        code = span.status.status_code
        record["status"] = {"code": {StatusCode.OK: 1, StatusCode.ERROR: 2}.get(code, 0)}
        out.append(record)
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": _attributes(resource)},
                "scopeSpans": [{"scope": {"name": SCOPE, "version": __version__}, "spans": out}],
            }
        ]
    }
