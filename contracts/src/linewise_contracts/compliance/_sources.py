"""A plugin's files as the parent reads them: regular files only, bounded, never blocking.

The parent runs no plugin code, but it reads the plugin's sample lines (to
hand them to the worker, so the worker's observations must answer the
parent's inputs) and its source files (for the size and dependency checks).
A plugin project is untrusted input: a FIFO named ``pipe.py`` must not block
``check``, a device or a huge file must not be read whole, and a source file
whose expression is nested 100,000 deep must not raise out of ``ast.parse``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

__all__ = [
    "GENERIC_SAMPLES",
    "MAX_SAMPLE_LINES",
    "MAX_SOURCE_BYTES",
    "imported_names",
    "read_regular",
    "sample_lines",
]

#: Lines used when a plugin ships no samples: shapes several agent CLIs print.
GENERIC_SAMPLES: Final = (
    "plain text from an agent",
    "[agent] starting session abc123",
    "$ ls -la",
    "Error: something failed",
    "\x1b[31mred\x1b[0m text with an \x1b]0;title\x07 escape",
    "{}",
    "[]",
    "null",
    "42",
    '"just a string"',
    '{"type":"system","subtype":"init","session_id":"s1","model":"m"}',
    '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}',
    '{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"done"}}',
    '{"type":"result","result":"ok","usage":{"input_tokens":1,"output_tokens":2}}',
    '{"type":"text","part":{"text":"x"}}',
    '{"type": 5, "message": null, "content": [1, {"a": []}]}',
    "┊ 💬 thinking about it",
)

#: Sample lines handed to the worker at most.
MAX_SAMPLE_LINES: Final = 5000
#: A samples file or a source file longer than this is not read (its size still counts).
MAX_SOURCE_BYTES: Final = 8 * 1024 * 1024


def read_regular(path: Path, limit: int = MAX_SOURCE_BYTES) -> bytes | str:
    """The bytes of ``path``, or why they were not read (not a regular file, too long, an
    error). Opened without blocking, so a FIFO is seen for what it is, not waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        return f"cannot be opened ({error.strerror})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "is not a regular file"
        if info.st_size > limit:
            return f"is longer than {limit:,} bytes"
        chunks = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= limit else f"is longer than {limit:,} bytes"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    finally:
        os.close(fd)


def _folder_lines(folder: Path) -> list[str]:
    """The non-blank lines of the regular files directly in ``folder`` (bounded)."""
    lines: list[str] = []
    try:
        paths = sorted(folder.iterdir())
    except OSError:
        return lines
    for path in paths:
        data = read_regular(path)
        if isinstance(data, str):
            continue  # not a sample file: a folder, a FIFO, a file too long to be one
        text = data.decode("utf-8", errors="replace")
        lines.extend(line.strip() for line in text.split("\n") if line.strip())
        if len(lines) > MAX_SAMPLE_LINES:
            break
    return lines[:MAX_SAMPLE_LINES]


def sample_lines(roots: list[Path], adapter_type: str | None = None) -> tuple[list[str], str]:
    """The sample lines of ``adapter_type``, and where they came from.

    A format's own folder, ``samples/<adapter type>/``, comes first; else the files
    directly in ``samples/`` (the plugin's first format's, and every format's that
    has no folder of its own); the generic lines when neither has any. The first of
    ``roots`` (the package's folders) with lines is read.
    """
    if adapter_type is not None and adapter_type.isidentifier():
        for root in roots:
            folder = root / "samples" / adapter_type
            lines = _folder_lines(folder) if folder.is_dir() else []
            if lines:
                return lines, f"{len(lines)} sample lines from {folder}"
    for root in roots:
        folder = root / "samples"
        lines = _folder_lines(folder) if folder.is_dir() else []
        if lines:
            return lines, f"{len(lines)} sample lines from {folder}"
    return list(GENERIC_SAMPLES), "generic inputs (the plugin ships no samples/ directory)"


def imported_names(files: list[Path]) -> tuple[set[str], list[str]]:
    """Top-level names the files import (read, not run), and the files that could not be read."""
    import ast

    names: set[str] = set()
    unread: list[str] = []
    for path in files:
        data = read_regular(path)
        if isinstance(data, str):
            unread.append(f"{path.name} {data}")
            continue
        try:
            tree = ast.parse(data.decode("utf-8", errors="replace"))
        except SyntaxError:
            continue  # the import check reports it
        except (RecursionError, MemoryError, ValueError):
            unread.append(f"{path.name} is too deeply nested to be parsed")
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".", 1)[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".", 1)[0])
    return names, unread
