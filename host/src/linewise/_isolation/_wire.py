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
