"""The worker's side: import one parser, answer the host's requests until stdin closes.

Started by :mod:`._client` as ``python -I -S -c BOOT CONFIG``. Requests arrive
on stdin, replies leave on a pipe of their own (fd 1 points at stderr, so what
the plugin prints never reaches the replies), framed as :mod:`._wire` says.
Requests:

- ``{"op": "parse", "ts", "first", "lines", "poll"}`` (``poll``: seconds to
  poll for the next request, see :mod:`._polling`): one reply per line, sent in
  groups every few lines (the line being parsed is always in the shared
  progress page, numbered from ``first``): the parser's list,
  ``{"error": type, "message": text}`` when it raised (the worker then resets
  the parser, or makes a new one when reset fails too, as the host's safety
  net would), or ``{"notList": type}``.
- ``{"op": "reset"}``, ``{"op": "finish", "ts"}``, ``{"op": "call", "name",
  "args"}`` (sniff, summarize_run, check_environment, format_stdout_line, and a
  declared format's format_entries).
"""

from __future__ import annotations

import importlib
import json
import marshal
import mmap
import os
import select
import signal
import struct
import sys
import time
from collections.abc import Callable
from typing import Any, Final

from linewise.plugins.isolation import _sandbox, _wire
from linewise.plugins.isolation._pipe import PipeReader, write_all

__all__ = ["main"]

_CALLS: Final = (
    "sniff",
    "summarize_run",
    "check_environment",
    "format_stdout_line",
    "format_entries",
)
#: Calls only a declared format (contract 1.5 and later) has: never read from a 1.x module.
_DECLARED_CALLS: Final = ("format_entries",)
_METADATA: Final = ("label", "models", "agent_configuration_doc")
#: Exports a worker does not serve (they read files, which a worker may not): named in hello.
_UNSERVED: Final = ("session_stores", "session_records", "session_keys")
#: The shared page holding the number of the line being parsed.
PROGRESS: Final = struct.Struct("<Q")
#: Replies go to the host every this many lines, or sooner when this many bytes wait.
FLUSH_LINES: Final = 8
FLUSH_BYTES: Final = _wire.GROUP_BYTES
#: The longest the host may ask the worker to poll for its next request (seconds).
_MAX_SPIN: Final = 0.01


def main() -> None:
    """Run the worker described by ``sys.argv[1]`` (JSON)."""
    config = json.loads(sys.argv[1])
    sys.path[:] = config["path"]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the host's to handle
    _sandbox.bind_to_host(int(config["host"]))
    replies = int(config["reply_fd"])
    os.dup2(2, 1)  # a plugin's print() or os.write(1, ...) goes to stderr, never the replies
    sys.stdout = sys.stderr
    _sandbox.limit_memory(int(config["memory"]))
    progress = mmap.mmap(int(config["progress_fd"]), PROGRESS.size)
    outbox = _Outbox(replies, progress)
    inbox = _Inbox(sys.stdin.buffer.fileno())
    worker = _Worker(str(config["value"]), outbox, float(config["flush_after"]))
    confined = None
    if config.get("sandbox", True):
        # Before the plugin is imported: its import runs inside the sandbox too.
        from linewise.plugins.isolation import _seccomp

        confined = _seccomp.apply()
        _sandbox.deny_outside_access(config["path"])
    hello = worker.load()
    hello["filter"] = confined
    worker.reply(hello)
    while True:
        try:
            request = inbox.request()
        except _wire.ProtocolError:
            return  # the host closed our stdin: done
        worker.answer(request)


class _Inbox:
    """Requests from the host, decoded where they land in the pipe's buffer (see :mod:`._pipe`)."""

    def __init__(self, fd: int) -> None:
        self._pipe = PipeReader(fd)
        #: Seconds to poll for the next request, as the host said in the last one.
        self._spin = 0.0

    def request(self) -> Any:
        """The next request (a length, then the request in marshal form, from the host);
        ProtocolError once stdin closes."""
        pipe = self._pipe
        self._wait(_wire.HEADER.size)
        (size,) = _wire.HEADER.unpack_from(pipe.data, pipe.start)
        pipe.consume(_wire.HEADER.size)
        pipe.reserve(size)
        self._wait(size)
        with memoryview(pipe.data) as view, view[pipe.start : pipe.start + size] as body:
            request = marshal.loads(body)
        pipe.consume(size)
        if isinstance(request, dict):
            spin = request.get("poll")
            self._spin = 0.0
            if isinstance(spin, float) and 0.0 <= spin <= _MAX_SPIN:
                self._spin = spin
        return request

    def _wait(self, size: int) -> None:
        pipe = self._pipe
        while pipe.unread < size:
            came = pipe.poll(self._spin)
            if came is None:
                select.select([pipe.fd], [], [])
                came = pipe.read_now()
            if not came:
                raise _wire.ProtocolError("the host closed the pipe")


class _Outbox:
    """Replies on their way to the host, written in groups of a few lines.

    Before each line the worker writes the line's number into the shared
    progress page, so the host knows which line a hang or a crash happened on
    even though the last few replies were still here. A reply longer than
    :data:`~._wire.REPLY_FLOOR` goes in a group of its own, so the host can
    bound every group by its lines and blame the right one.
    """

    def __init__(self, fd: int, progress: mmap.mmap) -> None:
        self._fd = fd
        self._progress = progress
        self._replies: list[bytes] = []
        self._size = 0

    def at_line(self, number: int) -> None:
        PROGRESS.pack_into(self._progress, 0, number)

    def add(self, message: object, *, exact: bool = False) -> None:
        body = _wire.encode_exact(message) if exact else _wire.encode_reply(message)
        if len(body) > _wire.REPLY_FLOOR:
            self.flush()
            self._replies.append(body)
            self.flush()
            return
        self._replies.append(body)
        self._size += len(body)
        if self._size >= FLUSH_BYTES:
            self.flush()

    def send(self, message: object, *, exact: bool = False) -> None:
        self.add(message, exact=exact)
        self.flush()

    def flush(self) -> None:
        if not self._replies:
            return
        pieces = _wire.group(self._replies)
        self._replies.clear()
        self._size = 0
        write_all(self._fd, pieces)


def _failure(error: BaseException) -> dict[str, str]:
    try:
        message = str(error)[:500]
    except Exception:
        message = "(message unavailable)"
    return {"error": type(error).__name__, "message": message}


class _Worker:
    def __init__(self, value: str, outbox: _Outbox, flush_after: float) -> None:
        self._value = value
        self.outbox = outbox
        self.reply = outbox.send
        #: Seconds after which finished replies go to the host (its clock counts from them).
        self._flush_after = flush_after
        self._target: Any = None
        self._factory: Callable[[], Any] | None = None
        self._parser: Any = None
        self._parse: Callable[[str, str], Any] | None = None
        self._calls: frozenset[str] = frozenset()

    def load(self) -> dict[str, Any]:
        module, _, attribute = self._value.partition(":")
        try:
            target: Any = importlib.import_module(module.strip())
            for name in filter(None, attribute.strip().split(".")):
                target = getattr(target, name)
        except BaseException as error:
            return {"ok": False, "stage": "import", **_failure(error)}
        self._target = target
        factory = getattr(target, "create_stdout_parser", None)
        static = getattr(target, "parse_stdout_line", None)
        from linewise_contracts.exports import exports_problem

        problem = exports_problem(factory, static)
        if problem is not None:
            return {"ok": False, "stage": "exports", "error": problem[0], "message": problem[1]}
        if factory is not None:
            self._factory = factory
        else:
            self._factory = lambda: _Static(static)
        try:
            self._new_parser()
        except BaseException as error:
            return {"ok": False, "stage": "exports", **_failure(error)}
        metadata = {name: _json_or_none(getattr(target, name, None)) for name in _METADATA}
        declared = type(target).__module__ == "linewise_contracts.agent"
        calls = [
            name
            for name in _CALLS
            if (declared or name not in _DECLARED_CALLS) and callable(getattr(target, name, None))
        ]
        self._calls = frozenset(calls)
        unserved = [name for name in _UNSERVED if callable(getattr(target, name, None))]
        return {
            "unserved": unserved,
            "ok": True,
            "stateful": factory is not None,
            "raw": getattr(self._parser, "raw_lines", False) is True,
            "calls": calls,
            "metadata": metadata,
        }

    def _new_parser(self) -> None:
        assert self._factory is not None
        self._parser = self._factory()
        self._parse = self._parser.parse_line

    def answer(self, request: dict[str, Any]) -> None:
        op = request.get("op")
        if op == "parse":
            self._lines(request["lines"], request["ts"], int(request["first"]))
        elif op == "reset":
            self.reply({"restarted": self._recover()})
        elif op == "finish":
            self.reply(self._finish(request["ts"]))
        elif op == "call":
            self.outbox.send(self._call(request["name"], request["args"]), exact=True)
        else:
            self.reply({"error": "ProtocolError", "message": f"unknown request {op!r}"})

    def _lines(self, lines: list[str], ts: str, first: int) -> None:
        outbox = self.outbox
        add = outbox.add
        at_line = outbox.at_line
        clock = time.monotonic
        flush_at = clock() + self._flush_after
        for number, line in enumerate(lines, first):
            at_line(number)
            try:
                assert self._parse is not None
                result = self._parse(line, ts)
            except BaseException as error:
                add(_failure(error))  # then the parser is reset, as the host's net would
                self._recover()
            else:
                add(result if type(result) is list else {"notList": type(result).__name__})
            if number % FLUSH_LINES == 0 or clock() > flush_at:
                outbox.flush()
                flush_at = clock() + self._flush_after
        outbox.flush()

    def _recover(self) -> bool:
        """Reset the parser; when reset raises too, a fresh one (True)."""
        try:
            self._parser.reset()
            return False
        except BaseException:
            self._new_parser()
            return True

    def _finish(self, ts: str) -> dict[str, Any]:
        finish = getattr(self._parser, "finish", None)
        if not callable(finish):
            return {"value": []}
        try:
            result = finish(ts)
        except BaseException as error:
            return _failure(error)
        return {"value": result} if type(result) is list else {"notList": type(result).__name__}

    def _call(self, name: str, args: list[Any]) -> dict[str, Any]:
        function = getattr(self._target, name, None) if name in self._calls else None
        if not callable(function):
            return {"error": "AttributeError", "message": f"no {name}"}
        try:
            value = function(*args)
            if name == "summarize_run" and not isinstance(value, dict):
                value = _plain(value)
        except BaseException as error:
            return _failure(error)
        return {"value": value}


class _Static:
    """A static ``parse_stdout_line`` in the stateful parser shape."""

    def __init__(self, parse: Any) -> None:
        self.parse_line = parse

    def reset(self) -> None:
        return None


def _json_or_none(value: object) -> object:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return None
    return value


def _plain(value: object) -> object:
    """A summary object as the plain dict its JSON form would be (dataclass or mapping)."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    return None
