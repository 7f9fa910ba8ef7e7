"""Two fake session plugins and fake homes laid out like a CLI's store, for the sessions tests.

``tiny_session``: one JSON line per record in ``$TINY_HOME`` (else ``~/.tiny``)
``/sessions/<project>/<id>.jsonl``; ``<project>/<id>/sub-*.jsonl`` files are
not sessions (excluded). ``tinydb_session``: one JSON document
``~/.tinydb/store.json`` holding several sessions (``session_keys``,
``session_records``), like OpenCode's database.
"""

from __future__ import annotations

import json
from pathlib import Path

from support import FakeSite

PARSER = r"""
import json
from pathlib import Path
from linewise_contracts.sessions import SessionStore, store_root


class Parser:
    def parse_line(self, line, ts):
        record = json.loads(line)
        ts = record.get("ts", ts)
        kind = record.get("t")
        if kind == "init":
            entry = {"kind": "init", "ts": ts, "model": record.get("model", ""),
                     "sessionId": record["id"]}
            if "cwd" in record:
                entry["cwd"] = record["cwd"]
            return [entry]
        if kind == "user":
            return [{"kind": "user", "ts": ts, "text": record["text"]}]
        if kind == "say":
            return [{"kind": "assistant", "ts": ts, "text": record["text"]}]
        if kind == "call":
            return [{"kind": "tool_call", "ts": ts, "name": record["name"], "input": {},
                     "toolUseId": record["id"]}]
        if kind == "ok":
            return [{"kind": "tool_result", "ts": ts, "toolUseId": record["id"],
                     "content": record.get("out", ""), "isError": False}]
        if kind == "end":
            return [{"kind": "result", "ts": ts, "text": "", "inputTokens": record["in"],
                     "outputTokens": record["out"], "cachedTokens": 0,
                     "costUsd": record["cost"], "subtype": "success", "isError": False,
                     "errors": []}]
        if kind == "boom":
            raise ValueError("boom")
        return [{"kind": "stdout", "ts": ts, "text": line}]

    def reset(self):
        pass


def create_stdout_parser():
    return Parser()


def sniff(lines):
    return 0.9 if lines and lines[0].startswith('{"t": "init"') and MARK in lines[0] else 0.0
"""

TINY = (
    PARSER
    + r"""
MARK = '"tiny"'


def session_stores(environ, home):
    root = store_root(environ.get("TINY_HOME"), home, ".tiny")
    return [SessionStore("tiny", root / "sessions", ("*/*.jsonl", "*/*/*.jsonl"),
                         exclude=("*/*/sub-*.jsonl",))]
"""
)

TINYDB = (
    PARSER
    + r"""
MARK = '"tinydb"'


def session_stores(environ, home):
    return [SessionStore("tinydb", home / ".tinydb", ("store.json",))]


def session_keys(path):
    return sorted(json.loads(Path(path).read_text())["sessions"])


def session_records(path, key=None):
    sessions = json.loads(Path(path).read_text())["sessions"]
    for record in sessions[key if key is not None else sorted(sessions)[0]]:
        yield json.dumps(record)
"""
)


def install(site: FakeSite) -> None:
    """Install both fake session plugins into ``site``."""
    site.add(
        "tiny-sessions",
        entry_points={"tiny_session": "tiny_session_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={"tiny_session_mod": TINY},
    )
    site.add(
        "tinydb-sessions",
        entry_points={"tinydb_session": "tinydb_session_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={"tinydb_session_mod": TINYDB},
    )


def records(
    session_id: str,
    *,
    cli: str = "tiny",
    cwd: str = "/home/ada/project",
    start: str | None = None,
    end: str = "2026-03-01T10:05:00Z",
    prompt: str = "fix the tests",
    reply: str = "done",
    usage: tuple[int, int, float] | None = (100, 20, 0.5),
) -> list[dict[str, object]]:
    """One session's records: init, a prompt, a tool call and result, a reply, an end
    (``start``, the first records' time, is ``end`` unless given)."""
    start = start or end
    found: list[dict[str, object]] = [
        {"t": "init", "id": session_id, "model": "tiny-1", "cwd": cwd, "ts": start, "cli": cli},
        {"t": "user", "text": prompt, "ts": start},
        {"t": "call", "id": "c1", "name": "Bash", "ts": start},
        {"t": "ok", "id": "c1", "out": "ok", "ts": start},
        {"t": "say", "text": reply, "ts": end},
    ]
    if usage is not None:
        found.append({"t": "end", "in": usage[0], "out": usage[1], "cost": usage[2], "ts": end})
    return found


def jsonl(items: list[dict[str, object]]) -> str:
    """Records as the file holds them (``json.dumps`` spacing, one per line)."""
    return "".join(json.dumps(item) + "\n" for item in items)


def write_tiny(home: Path, project: str, session_id: str, **options: object) -> Path:
    """A tiny session file in ``home``'s store."""
    path = home / ".tiny" / "sessions" / project / f"{session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(jsonl(records(session_id, **options)), encoding="utf-8")  # type: ignore[arg-type]
    return path


def write_tinydb(home: Path, sessions: dict[str, list[dict[str, object]]]) -> Path:
    """The tinydb store file holding ``sessions`` by key."""
    path = home / ".tinydb" / "store.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"sessions": sessions}), encoding="utf-8")
    return path
