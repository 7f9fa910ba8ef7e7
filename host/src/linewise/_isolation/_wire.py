"""Messages between the host and a worker: a 4-byte length, then JSON.

The worker is untrusted, so what it sends is read with bounds (a length over
the limit is a protocol error, not an allocation) and decoded as JSON only:
nothing it sends can become code or objects other than JSON values.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any, Final

import orjson

__all__ = ["HEADER", "ProtocolError", "decode", "encode", "read_exactly"]

HEADER: Final = struct.Struct(">I")


class ProtocolError(Exception):
    """The other side sent something that is not a well-formed message."""


def encode(message: Any) -> bytes:
    """One message: its length and its JSON (lone surrogates escaped; other values described)."""
    try:
        body = orjson.dumps(message)
    except (TypeError, orjson.JSONEncodeError):
        body = json.dumps(
            message, ensure_ascii=True, separators=(",", ":"), default=_describe
        ).encode()
    return HEADER.pack(len(body)) + body


def _describe(value: object) -> object:
    """What a value JSON cannot hold becomes: a marker validation refuses, naming its type."""
    return {"__not_json__": type(value).__name__}


def decode(body: bytes) -> Any:
    """The JSON value of one message body."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        try:
            return json.loads(body)
        except ValueError as error:
            raise ProtocolError(f"not JSON: {error}") from None


def read_exactly(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd``; ProtocolError at end of file before that."""
    parts: list[bytes] = []
    wanted = size
    while wanted:
        chunk = os.read(fd, min(wanted, 1 << 20))
        if not chunk:
            raise ProtocolError("the other side closed the pipe")
        parts.append(chunk)
        wanted -= len(chunk)
    return b"".join(parts)


def pack_lines(lines: list[str]) -> tuple[dict[str, Any], bytes]:
    """Lines as one text frame (no JSON escaping): what the request says, and the frame.

    Lines are joined with ``\\n``; when every line ends with ``\\n`` (a raw-line
    parser's lines) those endings are left out and ``ends`` says so. A line
    with a ``\\n`` anywhere else cannot be joined, so such a batch goes as a
    JSON list in the request itself (the frame is then empty).
    """
    ends = bool(lines) and all(line.endswith("\n") for line in lines)
    pieces = [line[:-1] for line in lines] if ends else lines
    text = "\n".join(pieces)
    if text.count("\n") != len(pieces) - 1:
        return {"lines": lines}, HEADER.pack(0)
    body = text.encode("utf-8", "surrogatepass")
    return {"count": len(lines), "ends": ends}, HEADER.pack(len(body)) + body


def unpack_lines(meta: dict[str, Any], frame: bytes) -> list[str]:
    """The lines :func:`pack_lines` packed."""
    if "lines" in meta:
        return [str(line) for line in meta["lines"]]
    count = int(meta["count"])
    if count == 0:
        return []
    lines = frame.decode("utf-8", "surrogatepass").split("\n")
    if len(lines) != count:
        raise ProtocolError(f"{len(lines)} lines where {count} were announced")
    return [line + "\n" for line in lines] if meta.get("ends") else lines
