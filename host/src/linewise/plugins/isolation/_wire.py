"""Messages between the host and a worker: requests one way, groups of replies the other.

A request is a 4-byte length and the request in :mod:`marshal` form: a dict
of plain values, a batch's lines among them, which marshal writes and reads
several times faster than JSON or a joined text could be. Only the worker
reads marshal, and only from the host: the host never unmarshals what a
worker sends (marshal is not safe against crafted input).

A worker answers with groups of replies: an 8-byte header (the body's length,
how many replies it holds), then the replies as one JSON array, so the host
decodes a few lines' replies at a time. The worker is untrusted, so what it
sends is read with bounds (a length over the limit is a protocol error, not
an allocation) and decoded as JSON only: nothing it sends can become code or
objects other than JSON values.
"""

from __future__ import annotations

import json
import marshal
import struct
from collections.abc import Sequence
from typing import Any, Final

import orjson

__all__ = [
    "GROUP",
    "GROUP_BYTES",
    "HEADER",
    "REPLY_FACTOR",
    "REPLY_FLOOR",
    "ProtocolError",
    "decode",
    "encode_exact",
    "encode_reply",
    "group",
    "group_limit",
    "request",
]

HEADER: Final = struct.Struct(">I")
#: A group of replies: the length of its JSON array, and how many replies it holds.
GROUP: Final = struct.Struct(">II")
#: One reply may hold this many bytes per character of its line, plus a floor.
REPLY_FACTOR: Final = 24
REPLY_FLOOR: Final = 2 * 1024 * 1024
#: A worker sends what it holds once this many bytes wait: a group of several replies is
#: never longer than that plus one reply of at most :data:`REPLY_FLOOR` (longer ones go alone).
GROUP_BYTES: Final = 128 * 1024


class ProtocolError(Exception):
    """The other side sent something that is not a well-formed message."""


def request(message: dict[str, Any]) -> list[bytes]:
    """One request, in pieces to write in turn: its length, then its marshal form.

    A value marshal cannot write (a ``str`` subclass, say, in a call's
    arguments) is sent as its JSON form, as a reply would be.
    """
    try:
        body = marshal.dumps(message)
    except ValueError:
        body = marshal.dumps(decode(encode_reply(message)))
    return [HEADER.pack(len(body)), body]


def encode_reply(message: Any) -> bytes:
    """One reply's JSON (lone surrogates escaped; values JSON cannot hold described)."""
    try:
        return orjson.dumps(message)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(
            message, ensure_ascii=True, separators=(",", ":"), default=_describe
        ).encode()


def encode_exact(message: Any) -> bytes:
    """A reply's JSON with every float as it is (``NaN`` and ``Infinity`` too, which
    :func:`encode_reply` turns into ``null``), so the host refuses what it would refuse
    in-process; for the optional calls' replies, where speed does not matter."""
    try:
        return json.dumps(
            message, ensure_ascii=True, separators=(",", ":"), default=_describe
        ).encode()
    except (ValueError, RecursionError) as error:  # a cycle, or nesting past the stack
        return encode_reply({"error": type(error).__name__, "message": "unsendable reply"})


def group(replies: Sequence[bytes]) -> list[bytes]:
    """Replies (each from :func:`encode_reply`) as one group, in pieces to write in turn:
    the header, then a JSON array."""
    items = b",".join(replies)
    return [GROUP.pack(len(items) + 2, len(replies)) + b"[", items, b"]"]


def group_limit(sizes: Sequence[int]) -> int:
    """The longest group that may answer lines of these sizes (characters): their
    replies' limits, and the array's brackets and commas; for several replies, no more
    than a worker ever puts in one group."""
    count = len(sizes)
    limit = REPLY_FACTOR * sum(sizes) + (REPLY_FLOOR + 1) * count + 1
    if count > 1:
        return min(limit, GROUP_BYTES + REPLY_FLOOR + count + 1)
    return limit


def _describe(value: object) -> object:
    """What a value JSON cannot hold becomes: a marker validation refuses, naming its type."""
    return {"__not_json__": type(value).__name__}


def decode(body: bytes | memoryview) -> Any:
    """The JSON value of one message body."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        try:
            return json.loads(bytes(body))
        except ValueError as error:
            raise ProtocolError(f"not JSON: {error}") from None
