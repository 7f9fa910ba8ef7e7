"""Where Claude Code keeps sessions, and one session (main file and subagent files) as lines."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.extract import as_string, parse_json_object, to_json_text
from linewise_contracts.sessions import SessionStore, record_lines, store_root

# Defined beside the sniff, which detection imports alone.
from linewise_claude.session.sniff import HEADER, SUBAGENT

__all__ = [
    "HEADER",
    "SUBAGENT",
    "assistant_model",
    "header_line",
    "orphan_records",
    "parent_file",
    "session_records",
    "session_stores",
    "subagent_line",
]


# How far into a file the header looks for the model (the first assistant record).
_HEAD_RECORDS: Final = 400
_SYNTHETIC_MODEL: Final = "<synthetic>"
# The meta file beside a subagent's records is a few hundred bytes; a bigger one is not it.
_META_LIMIT: Final = 65536


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """``CLAUDE_CONFIG_DIR`` else ``~/.claude``: sessions at ``projects/<project>/<id>.jsonl``.

    A session's subagents live in ``projects/<project>/<id>/subagents/agent-*.jsonl``;
    they are part of their session (:func:`session_records` reads them), not sessions.
    """
    root = store_root(environ.get("CLAUDE_CONFIG_DIR"), home, ".claude")
    return [
        SessionStore(
            cli="claude",
            root=root / "projects",
            patterns=("*/*.jsonl",),
            exclude=("*/*/subagents/*",),
        )
    ]


def _named_id(stem: str) -> str | None:
    """The session id a file is named after (its trailing UUID), or None."""
    tail = stem[-36:]
    dashes = [i for i, char in enumerate(tail) if char == "-"]
    return tail if len(tail) == 36 and dashes == [8, 13, 18, 23] else None


def _lines(path: Path) -> Iterator[str]:
    # Bounded: a record of 500 MB is cut as the host cuts a stdout line, not held whole.
    return record_lines(path)


def assistant_model(record: dict[str, Any]) -> str:
    """The model of an assistant record (not the ``<synthetic>`` one of CLI-made messages)."""
    message = record.get("message")
    if record.get("type") != "assistant" or type(message) is not dict:
        return ""
    model = as_string(message.get("model"))
    return "" if model == _SYNTHETIC_MODEL else model


def header_line(path: Path) -> str:
    """The synthesised first line: session id, cwd, model, version and first time of ``path``."""
    facts: dict[str, str] = {}
    for count, line in enumerate(_lines(path)):
        if count >= _HEAD_RECORDS:
            break
        record = parse_json_object(line)
        if record is None:
            continue
        for field in ("sessionId", "cwd", "version", "timestamp", "gitBranch"):
            value = record.get(field)
            if field not in facts and type(value) is str and value:
                facts[field] = value
        model = assistant_model(record)
        if model and "model" not in facts:
            facts["model"] = model
        if "model" in facts and "sessionId" in facts and "cwd" in facts:
            break
    # The file's name is the session's id (``claude --resume <id>``); a resumed session's
    # file opens with records copied from its predecessor, under the old id.
    named = _named_id(path.stem)
    if named is not None:
        facts["sessionId"] = named
    facts.setdefault("sessionId", path.stem)
    return to_json_text({"type": HEADER, **facts})


def _meta(path: Path) -> dict[str, Any]:
    meta = path.with_name(path.name.removesuffix(".jsonl") + ".meta.json")
    try:
        if not meta.is_file() or meta.stat().st_size > _META_LIMIT:
            return {}
        return parse_json_object(meta.read_text(encoding="utf-8", errors="replace")) or {}
    except OSError:
        return {}


def subagent_line(path: Path) -> str:
    """The synthesised line before a subagent file: its agent id and its ``.meta.json`` facts."""
    meta = _meta(path)
    line: dict[str, object] = {
        "type": SUBAGENT,
        "agentId": path.stem.removeprefix("agent-"),
    }
    for field in ("toolUseId", "agentType", "description", "spawnDepth"):
        value = meta.get(field)
        if type(value) in (str, int):
            line[field] = value
    return to_json_text(line)


def _subagent_files(path: Path) -> list[Path]:
    folder = path.with_suffix("") / "subagents"
    try:
        return sorted(folder.glob("agent-*.jsonl")) if folder.is_dir() else []
    except OSError:
        return []


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """One Claude session as the lines ``claude_session`` reads (``key`` is not used).

    A header line first (see the package docstring), then the session file's
    lines, then for each ``<session>/subagents/agent-*.jsonl`` a subagent line
    and that file's lines. Given a subagent file itself, its own lines follow
    its subagent line.
    """
    del key
    if path.parent.name == "subagents":
        yield header_line(path)
        yield subagent_line(path)
        yield from _lines(path)
        return
    yield header_line(path)
    yield from _lines(path)
    for agent in _subagent_files(path):
        yield subagent_line(agent)
        yield from _lines(agent)


def parent_file(path: Path) -> Path:
    """The session file a subagent's ``<project>/<id>/subagents/agent-*.jsonl`` belongs to."""
    folder = path.parent.parent
    return folder.parent / f"{folder.name}.jsonl"


def orphan_records(path: Path) -> Iterator[str]:
    """A subagent file whose session file is gone, as a session of its own.

    The header names it by its file (``agent-<id>``: its records carry the
    missing parent's ``sessionId``, which several such files share) and says
    whose it was (``parentSessionId``, ``parentMissing``); its subagent line
    names no tool call and its records lose ``isSidechain``, so they are this
    listing's main thread (its prompt, answer and outcome are the subagent's).
    """
    header = parse_json_object(header_line(path)) or {}
    parent = as_string(header.get("sessionId"))
    header["sessionId"] = path.stem
    header["parentMissing"] = True
    if parent and parent != path.stem:
        header["parentSessionId"] = parent
    yield to_json_text(header)
    line = parse_json_object(subagent_line(path)) or {}
    line.pop("toolUseId", None)
    yield to_json_text(line)
    for raw in _lines(path):
        record = parse_json_object(raw)
        if record is None or record.pop("isSidechain", None) is not True:
            yield raw
        else:  # its own listing's main thread: counted as its prompts and answers
            yield to_json_text(record)
