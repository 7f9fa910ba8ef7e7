"""``-f otlp``: OpenTelemetry GenAI spans (invoke_agent per run, execute_tool per call,
subagents as child spans), seen through the SDK's in-memory exporter and as OTLP JSON."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from linewise.cli import main
from linewise.render.otlp import OtlpRenderer
from linewise_contracts.summary import RunSummary, Usage
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from support import TS, corpus_path

# OTLP/JSON of traces as the OTLP specification writes it: ids in hex, 64-bit
# integers (times, intValue) as strings, attributes as key and typed value.
_VALUE = {
    "type": "object",
    "minProperties": 1,
    "maxProperties": 1,
    "properties": {
        "stringValue": {"type": "string"},
        "intValue": {"type": "string", "pattern": "^-?[0-9]+$"},
        "doubleValue": {"type": "number"},
        "boolValue": {"type": "boolean"},
        "arrayValue": {"type": "object"},
    },
    "additionalProperties": False,
}
_ATTRIBUTES = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["key", "value"],
        "properties": {"key": {"type": "string"}, "value": _VALUE},
    },
}
OTLP_TRACES = {
    "type": "object",
    "required": ["resourceSpans"],
    "properties": {
        "resourceSpans": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["resource", "scopeSpans"],
                "properties": {
                    "resource": {"type": "object", "properties": {"attributes": _ATTRIBUTES}},
                    "scopeSpans": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["scope", "spans"],
                            "properties": {
                                "spans": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": [
                                            "traceId",
                                            "spanId",
                                            "name",
                                            "kind",
                                            "startTimeUnixNano",
                                            "endTimeUnixNano",
                                        ],
                                        "properties": {
                                            "traceId": {"pattern": "^[0-9a-f]{32}$"},
                                            "spanId": {"pattern": "^[0-9a-f]{16}$"},
                                            "parentSpanId": {"pattern": "^[0-9a-f]{16}$"},
                                            "name": {"type": "string", "minLength": 1},
                                            "kind": {"enum": [0, 1, 2, 3, 4, 5]},
                                            "startTimeUnixNano": {"pattern": "^[0-9]+$"},
                                            "endTimeUnixNano": {"pattern": "^[0-9]+$"},
                                            "attributes": _ATTRIBUTES,
                                            "status": {
                                                "type": "object",
                                                "properties": {"code": {"enum": [0, 1, 2]}},
                                            },
                                        },
                                    },
                                }
                            },
                        },
                    },
                },
            },
        }
    },
}


def spans(entries: list[dict[str, Any]], summary: RunSummary | None = None) -> list[ReadableSpan]:
    exporter = InMemorySpanExporter()
    renderer = OtlpRenderer(
        io.StringIO(), adapter_type="claude_local", exporters=[exporter], write_json=False
    )
    for entry in entries:
        renderer.write({"ts": TS, **entry})  # type: ignore[arg-type]
    renderer.close(summary=summary)
    return list(exporter.get_finished_spans())


def tree(found: list[ReadableSpan]) -> list[tuple[int, str]]:
    """(depth, name) of each span, in the order they started."""
    by_id = {span.context.span_id: span for span in found if span.context}

    def depth(span: ReadableSpan) -> int:
        level = 0
        while span.parent is not None:
            span = by_id[span.parent.span_id]
            level += 1
        return level

    ordered = sorted(found, key=lambda s: (s.start_time or 0, depth(s)))
    return [(depth(span), span.name) for span in ordered]


def call(ident: str, name: str, value: Any, **extra: Any) -> dict[str, Any]:
    return {"kind": "tool_call", "name": name, "input": value, "toolUseId": ident, **extra}


def result(ident: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "tool_result", "toolUseId": ident, "content": "ok", "isError": False} | extra


def test_a_run_is_an_invoke_agent_span_with_an_execute_tool_span_per_call() -> None:
    found = spans(
        [
            {"kind": "init", "model": "claude-x", "sessionId": "s-1"},
            call("t1", "Bash", {"command": "ls"}),
            result("t1", isError=True),
            call("t2", "Read", {"file_path": "a"}),
        ],
        RunSummary(usage=Usage(input_tokens=10, output_tokens=5, cached_tokens=90), complete=True),
    )
    assert tree(found) == [
        (0, "invoke_agent claude_local"),
        (1, "execute_tool Bash"),
        (1, "execute_tool Read"),
    ]
    root = next(s for s in found if s.parent is None)
    attributes = dict(root.attributes or {})
    assert attributes["gen_ai.operation.name"] == "invoke_agent"
    assert attributes["gen_ai.conversation.id"] == "s-1"
    assert attributes["gen_ai.request.model"] == "claude-x"
    assert attributes["gen_ai.usage.input_tokens"] == 100  # cache reads included
    assert attributes["gen_ai.usage.cache_read.input_tokens"] == 90
    assert attributes["gen_ai.usage.output_tokens"] == 5
    bash = next(s for s in found if s.name == "execute_tool Bash")
    assert (bash.attributes or {})["gen_ai.tool.call.id"] == "t1"
    assert bash.status.status_code.name == "ERROR"
    read = next(s for s in found if s.name == "execute_tool Read")
    assert (read.attributes or {})["linewise.unfinished"] is True  # no result came


def test_unreported_usage_is_left_out_never_zero() -> None:
    found = spans([{"kind": "assistant", "text": "hi"}], RunSummary(details={"usageBasis": "none"}))
    assert not any(key.startswith("gen_ai.usage") for key in (found[0].attributes or {}))


def test_subagents_are_child_spans_of_the_call_that_started_them() -> None:
    found = spans(
        [
            call("t1", "Task", {"subagent_type": "Explore"}),
            call("t2", "Grep", {"pattern": "x"}, parentToolUseId="t1"),
            result("t2", parentToolUseId="t1"),
            call("t3", "Task", {"subagent_type": "Plan"}, parentToolUseId="t1"),
            call("t4", "Read", {}, parentToolUseId="t3"),
            result("t4", parentToolUseId="t3"),
            result("t3", parentToolUseId="t1"),
            result("t1"),
        ]
    )
    assert tree(found) == [
        (0, "invoke_agent claude_local"),
        (1, "execute_tool Task"),
        (2, "invoke_agent Explore"),
        (3, "execute_tool Grep"),
        (3, "execute_tool Task"),
        (4, "invoke_agent Plan"),
        (5, "execute_tool Read"),
    ]


def _check_json(document: dict[str, Any]) -> list[dict[str, Any]]:
    jsonschema.validate(document, OTLP_TRACES)
    found = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    ids = {span["spanId"] for span in found}
    assert len({span["traceId"] for span in found}) == 1
    assert all(span.get("parentSpanId", next(iter(ids))) in ids for span in found)
    assert sum("parentSpanId" not in span for span in found) == 1
    return found  # type: ignore[no-any-return]


def test_every_real_log_and_session_writes_valid_otlp_json(tmp_path: Path) -> None:
    logs = [
        p
        for folder in (corpus_path("real-logs"), corpus_path("real-sessions"))
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix in (".jsonl", ".log")
    ]
    assert len(logs) > 80
    for path in logs:
        out = tmp_path / (path.name + ".json")
        assert main(["render", str(path), "-f", "otlp", "-q", "-o", str(out)]) == 0, path
        try:
            _check_json(json.loads(out.read_text()))
        except (AssertionError, jsonschema.ValidationError) as error:
            pytest.fail(f"{path}: {error}")


def test_a_claude_run_with_subagents_nests_its_spans_as_the_transcript_does(
    tmp_path: Path,
) -> None:
    path = corpus_path("real-logs", "claude", "perfectsnake-run1-max-turns.jsonl")
    out = tmp_path / "run.json"
    assert main(["render", str(path), "-f", "otlp", "-q", "-o", str(out)]) == 0
    found = _check_json(json.loads(out.read_text()))
    by_id = {span["spanId"]: span for span in found}
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    parents = {line.get("parent_tool_use_id") for line in lines} - {None}
    for span in found:
        attributes = {a["key"]: a["value"] for a in span.get("attributes", [])}
        if span["name"].startswith("invoke_agent") and "parentSpanId" in span:
            call = by_id[span["parentSpanId"]]
            call_id = {a["key"]: a["value"] for a in call["attributes"]}["gen_ai.tool.call.id"]
            assert call["name"] == "execute_tool Task"
            assert call_id["stringValue"] in parents
            assert attributes["linewise.parent_tool_use_id"] == call_id
    assert any(re.match(r"invoke_agent Explore", span["name"]) for span in found)


def test_otlp_endpoint_needs_the_otlp_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["render", "x.jsonl", "--otlp-endpoint", "http://localhost:4318/v1/traces"])
    assert stop.value.code == 2
    assert "use it with -f otlp" in capsys.readouterr().err


def test_spans_are_sent_to_an_otlp_endpoint_when_one_is_given(tmp_path: Path) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    received: list[bytes] = []

    class Collector(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            received.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        path = corpus_path("real-logs", "claude", "perfectsnake-run1-max-turns.jsonl")
        endpoint = f"http://127.0.0.1:{server.server_address[1]}/v1/traces"
        out = tmp_path / "run.json"
        args = ["render", str(path), "-f", "otlp", "-q", "-o", str(out)]
        assert main([*args, "--otlp-endpoint", endpoint]) == 0
    finally:
        server.shutdown()
    sent = []
    for body in received:
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        sent += [s.name for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]
    written = _check_json(json.loads(out.read_text()))
    assert sorted(sent) == sorted(span["name"] for span in written)
