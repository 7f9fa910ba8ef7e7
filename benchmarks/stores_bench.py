"""Benchmark: reading one large session of each store (Gemini, Qwen, Copilot, OpenCode).

Run with `python3 -m uv run python benchmarks/stores_bench.py [--exchanges N]`.
Each store gets a generated session of N exchanges (a prompt, a reply with
thinking and a tool call, its result) in a temporary directory. For each the
benchmark times the session's records (``session_records`` where the plugin has
one, else the file's lines), the parser over them and ``summarize_run``, and a
bare ``json.loads`` over the same records for scale: these machines are shared,
so the ratio says more than the seconds.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sqlite3
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from linewise_contracts.agent import Agent, Format

TS = "2026-01-01T00:00:00.000Z"
START_MS = 1_780_000_000_000
OUTPUT = "line of output\n" * 40


def gemini_chat(folder: Path, exchanges: int) -> Path:
    messages: list[dict[str, Any]] = []
    for i in range(exchanges):
        messages.append({"id": f"u{i}", "timestamp": TS, "type": "user", "content": "fix it " * 20})
        call = {
            "id": f"t{i}",
            "name": "read_file",
            "args": {"path": f"/src/m{i}.py"},
            "status": "success",
            "timestamp": TS,
            "result": [
                {
                    "functionResponse": {
                        "id": f"t{i}",
                        "name": "read_file",
                        "response": {"output": OUTPUT},
                    }
                }
            ],
        }
        messages.append(
            {
                "id": f"g{i}",
                "timestamp": TS,
                "type": "gemini",
                "content": "done " * 40,
                "model": "gemini-2.5-pro",
                "thoughts": [{"subject": "Plan", "description": "think " * 30, "timestamp": TS}],
                "tokens": {"input": 900, "output": 40, "cached": 300, "thoughts": 20},
                "toolCalls": [call],
            }
        )
    path = folder / "session-bench.json"
    document = {"sessionId": "s", "projectHash": "h" * 64, "startTime": TS, "messages": messages}
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def qwen_chat(folder: Path, exchanges: int) -> Path:
    records: list[dict[str, Any]] = []
    for i in range(exchanges):
        base = {
            "parentUuid": None,
            "sessionId": "s",
            "timestamp": TS,
            "cwd": "/w",
            "version": "0.21.6",
        }
        call = {"id": f"c{i}", "name": "read_file", "args": {"absolute_path": f"/w/m{i}.py"}}
        response = {"id": f"c{i}", "name": "read_file", "response": {"output": OUTPUT}}
        telemetry = {"event.name": "qwen-code.api_response", "input_token_count": 900}
        records += [
            {
                **base,
                "uuid": f"a{i}",
                "type": "user",
                "message": {"parts": [{"text": "fix it " * 20}]},
            },
            {
                **base,
                "uuid": f"b{i}",
                "type": "assistant",
                "model": "qwen3-coder-plus",
                "message": {
                    "parts": [{"text": "think " * 30, "thought": True}, {"functionCall": call}]
                },
            },
            {
                **base,
                "uuid": f"c{i}",
                "type": "tool_result",
                "message": {"parts": [{"functionResponse": response}]},
                "toolCallResult": {"callId": f"c{i}", "status": "success"},
            },
            {
                **base,
                "uuid": f"d{i}",
                "type": "system",
                "subtype": "ui_telemetry",
                "systemPayload": {"uiEvent": telemetry},
            },
        ]
    path = folder / "qwen.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def copilot_events(folder: Path, exchanges: int) -> Path:
    def event(kind: str, data: dict[str, Any]) -> dict[str, Any]:
        return {"type": kind, "data": data, "id": "e", "timestamp": TS, "parentId": None}

    events = [event("session.start", {"sessionId": "s", "context": {"cwd": "/w"}})]
    for i in range(exchanges):
        request = {"toolCallId": f"c{i}", "name": "view", "arguments": {"path": f"m{i}.py"}}
        events += [
            event("user.message", {"content": "fix it " * 20}),
            event(
                "assistant.message",
                {
                    "messageId": f"m{i}",
                    "content": "done " * 40,
                    "reasoningText": f"step {i}: " + "think " * 30,
                    "toolRequests": [request],
                },
            ),
            event("tool.execution_start", {"toolCallId": f"c{i}", "toolName": "view"}),
            event(
                "tool.execution_complete",
                {"toolCallId": f"c{i}", "success": True, "result": {"content": OUTPUT}},
            ),
        ]
    path = folder / "events.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in events), encoding="utf-8")
    return path


def opencode_database(folder: Path, exchanges: int) -> Path:
    path = folder / "opencode.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(
            "CREATE TABLE session (id text, project_id text, parent_id text, slug text,"
            " directory text, title text, version text, model text, time_created integer,"
            " time_updated integer);"
            "CREATE TABLE message (id text, session_id text, time_created integer,"
            " time_updated integer, data text);"
            "CREATE TABLE part (id text, message_id text, session_id text, time_created integer,"
            " time_updated integer, data text);"
        )
        db.execute(
            "INSERT INTO session VALUES ('ses_1', 'g', NULL, 's', '/w', 't', '1', ?, ?, ?)",
            (json.dumps({"id": "m"}), START_MS, START_MS),
        )
        for i in range(exchanges):
            at = START_MS + i
            info = {"role": "assistant", "time": {"created": at}}
            db.execute(
                "INSERT INTO message VALUES (?, 'ses_1', ?, ?, ?)",
                (f"msg_{i:07d}", at, at, json.dumps(info)),
            )
            state = {"status": "completed", "input": {"filePath": f"m{i}.py"}, "output": OUTPUT}
            parts = [
                {"type": "reasoning", "text": "think " * 30},
                {"type": "text", "text": "done " * 40},
                {"type": "tool", "callID": f"c{i}", "tool": "read", "state": state},
                {"type": "step-finish", "reason": "stop", "tokens": {"input": 900}, "cost": 0.001},
            ]
            for j, part in enumerate(parts):
                db.execute(
                    "INSERT INTO part VALUES (?, ?, 'ses_1', ?, ?, ?)",
                    (f"prt_{i:07d}_{j}", f"msg_{i:07d}", at, at, json.dumps(part)),
                )
        db.commit()
    return path


#: Each store's adapter type, the package declaring it and the session writer. The code is
#: read through the package's declared ``agent`` (contract 1.5), as the host reads it.
STORES: dict[str, tuple[str, Callable[[Path, int], Path]]] = {
    "gemini_session": ("linewise_gemini", gemini_chat),
    "qwen_session": ("linewise_qwen", qwen_chat),
    "copilot_session": ("linewise_copilot", copilot_events),
    "opencode_session": ("linewise_opencode", opencode_database),
}


def session_format(package: str, adapter_type: str) -> Format:
    """The declared format of ``adapter_type``, its references imported."""
    agent = importlib.import_module(package).agent
    assert isinstance(agent, Agent), f"{package} declares no Agent"
    found = agent.format(adapter_type)
    found.resolve()
    return found


def measure(fmt: Format, path: Path) -> str:
    assert fmt.create_stdout_parser is not None and fmt.summarize_run is not None
    started = time.perf_counter()
    if fmt.session_records is not None:
        records = list(fmt.session_records(path))
    else:
        records = path.read_text(encoding="utf-8").splitlines()
    read = time.perf_counter() - started
    started = time.perf_counter()
    parser = fmt.create_stdout_parser()
    entries = sum(len(parser.parse_line(line, TS)) for line in records)
    parse = time.perf_counter() - started
    started = time.perf_counter()
    fmt.summarize_run(records)
    summary = time.perf_counter() - started
    started = time.perf_counter()
    for line in records:
        json.loads(line)
    baseline = time.perf_counter() - started
    megabytes = path.stat().st_size / 1e6
    return (
        f"{megabytes:5.1f} MB, {len(records):6} records, {entries:6} entries: records {read:5.2f} s,"
        f" parse {parse:5.2f} s ({len(records) / parse:7.0f} records/s,"
        f" {parse / baseline:4.1f}x json.loads), summary {summary:5.2f} s"
    )


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    arguments.add_argument("--exchanges", type=int, default=2000, help="exchanges per session")
    options = arguments.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, (package, write) in STORES.items():
            path = write(Path(folder), options.exchanges)
            print(f"{name:17} {measure(session_format(package, name), path)}", flush=True)


if __name__ == "__main__":
    main()
