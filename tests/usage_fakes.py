"""A fake session plugin that reports tokens per model, for the usage report tests and benchmark.

``meter_session`` reads ``~/.meter/sessions/<project>/<id>.jsonl``: an ``init``
record, then one ``msg`` record per model call (its time, model and tokens by
kind, and a ``cost`` when the fake CLI reported one). Its ``summarize_run``
gives the five-count usage per model, as a real plugin of contract 1.3 does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support import FakeSite

METER = r"""
import json
from linewise_contracts.sessions import SessionStore
from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage


class Parser:
    def parse_line(self, line, ts):
        record = json.loads(line)
        ts = record.get("ts", ts)
        if record.get("t") == "init":
            return [{"kind": "init", "ts": ts, "model": record.get("model", ""),
                     "sessionId": record["id"], "cwd": record["cwd"]}]
        if record.get("t") == "msg":
            return [{"kind": "assistant", "ts": ts, "text": "working"}]
        return [{"kind": "stdout", "ts": ts, "text": line}]

    def reset(self):
        pass


def create_stdout_parser():
    return Parser()


def sniff(lines):
    return 0.9 if lines and '"meter"' in lines[0] else 0.0


def session_stores(environ, home):
    return [SessionStore("meter", home / ".meter" / "sessions", ("*/*.jsonl",))]


def _count(record, key):
    value = record.get(key)
    return value if type(value) is int else None


def summarize_run(lines):
    session = model = None
    per_model = {}
    cost = None
    for line in lines:
        record = json.loads(line)
        if record.get("t") == "init":
            session = record["id"]
        if record.get("t") != "msg":
            continue
        model = record["model"]
        tokens = TokenUsage(uncached_input=_count(record, "in"), cache_read=_count(record, "cr"),
                            cache_write=_count(record, "cw"), output=_count(record, "out"),
                            reasoning=_count(record, "think"))
        per_model[model] = per_model[model] + tokens if model in per_model else tokens
        if "cost" in record:
            cost = (cost or 0) + record["cost"]
    total = TokenUsage()
    for tokens in per_model.values():
        total = total + tokens
    return RunSummary(session_id=session, model=model, token_usage=total, model_usage=per_model,
                      cost_usd=cost, cost_source="reported" if cost is not None else None,
                      complete=True, outcome="completed")
"""


def install_meter(site: FakeSite) -> None:
    """Install the fake ``meter_session`` plugin into ``site``."""
    site.add(
        "meter-sessions",
        entry_points={"meter_session": "meter_session_mod"},
        requires=["linewise-contracts>=1.3,<2"],
        modules={"meter_session_mod": METER},
    )


def message(ts: str, model: str, **tokens: int | float) -> dict[str, Any]:
    """One model call: ``in``, ``cr``, ``cw``, ``out``, ``think`` tokens, and ``cost``."""
    return {"t": "msg", "ts": ts, "model": model, **tokens}


def write_meter(home: Path, project: str, session_id: str, messages: list[dict[str, Any]]) -> Path:
    """A meter session in ``home``'s store: an init record at the first message's time."""
    path = home / ".meter" / "sessions" / project / f"{session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    first = messages[0]["ts"] if messages else "2026-01-01T00:00:00Z"
    init = {"t": "init", "id": session_id, "cwd": f"/work/{project}", "ts": first, "cli": "meter"}
    path.write_text("".join(json.dumps(item) + "\n" for item in [init, *messages]))
    return path
