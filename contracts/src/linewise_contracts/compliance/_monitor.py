"""Watch what plugin code does: audited events and their origin, environment reads, globals."""

from __future__ import annotations

import builtins
import io
import logging
import os
import random
import signal
import socket
import sys
import threading
import warnings
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, Final

__all__ = ["Event", "Monitor"]

# Audit events that mean a parser touches the world. "open" also fires for every
# import; those are told apart by the import machinery on the stack.
_CATEGORIES: Final = {
    "open": "file",
    "os.listdir": "file",
    "os.scandir": "file",
    "os.remove": "file",
    "os.rename": "file",
    "os.mkdir": "file",
    "os.rmdir": "file",
    "os.chmod": "file",
    "os.truncate": "file",
    "shutil.rmtree": "file",
    "shutil.copyfile": "file",
    "shutil.move": "file",
    "tempfile.mkstemp": "file",
    "tempfile.mkdtemp": "file",
    "socket.__new__": "network",
    "socket.connect": "network",
    "socket.bind": "network",
    "socket.getaddrinfo": "network",
    "socket.gethostbyname": "network",
    "socket.sendto": "network",
    "urllib.Request": "network",
    "http.client.connect": "network",
    "subprocess.Popen": "subprocess",
    "os.system": "subprocess",
    "os.exec": "subprocess",
    "os.posix_spawn": "subprocess",
    "os.spawn": "subprocess",
    "os.fork": "subprocess",
    "os.forkpty": "subprocess",
    "os.kill": "subprocess",
    "os.putenv": "environment",
    "os.unsetenv": "environment",
    "ctypes.dlopen": "native code",
    "sys.settrace": "interpreter",
    "sys.setprofile": "interpreter",
    "webbrowser.open": "subprocess",
}
_MAX_EVENTS: Final = 50


@dataclass(frozen=True, slots=True)
class Event:
    """Something plugin code did that a parser must not do."""

    phase: str
    category: str
    event: str
    detail: str
    origin: str

    def describe(self) -> str:
        """One line: what, where it came from, and in which phase."""
        return (
            f"{self.category} access during {self.phase}: "
            f"{self.event} {self.detail} at {self.origin}"
        )


class _RecordingEnviron(MutableMapping[str, str]):
    """os.environ stand-in that reports reads made by plugin code."""

    def __init__(self, real: MutableMapping[str, str], monitor: Monitor) -> None:
        self._real = real
        self._monitor = monitor

    def __getitem__(self, key: str) -> str:
        self._monitor.note("environment", "os.environ read", repr(key))
        return self._real[key]

    def __setitem__(self, key: str, value: str) -> None:
        self._monitor.note("environment", "os.environ write", repr(key))
        self._real[key] = value

    def __delitem__(self, key: str) -> None:
        self._monitor.note("environment", "os.environ delete", repr(key))
        del self._real[key]

    def __iter__(self) -> Iterator[str]:
        self._monitor.note("environment", "os.environ listing", "")
        return iter(self._real)

    def __len__(self) -> int:
        return len(self._real)

    def copy(self) -> dict[str, str]:
        self._monitor.note("environment", "os.environ copy", "")
        return dict(self._real)


def _snapshot() -> dict[str, Any]:
    root = logging.getLogger()
    return {
        "sys.path": list(sys.path),
        "environment variables": dict(os.environ),
        "builtins": {name: id(value) for name, value in vars(builtins).items()},
        "sys.stdout/stderr/stdin": (id(sys.stdout), id(sys.stderr), id(sys.stdin)),
        "recursion limit": sys.getrecursionlimit(),
        "trace/profile hooks": (sys.gettrace() is not None, sys.getprofile() is not None),
        "signal handlers": {
            sig: id(signal.getsignal(sig))
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1)
        },
        "root logger": (root.level, [id(handler) for handler in root.handlers]),
        "warning filters": len(warnings.filters),
        "random seed state": hash(random.getstate()),
        "socket default timeout": socket.getdefaulttimeout(),
        "working directory": os.getcwd(),
        "threads": threading.active_count(),
    }


class Monitor:
    """Records what code under ``roots`` does while a phase is active.

    An audit hook cannot be removed, so this is only ever installed in the
    throw-away worker process the checks run in.
    """

    def __init__(self) -> None:
        self.roots: tuple[str, ...] = ()
        self.phase: str | None = None
        self.events: list[Event] = []
        self.output: dict[str, str] = {}
        self._installed = False

    def install(self) -> None:
        """Install the audit hook and the recording os.environ (once per process)."""
        if self._installed:
            return
        sys.addaudithook(self._hook)
        # Replacing the mapping (not clearing it): reads by plugin code get recorded.
        os.environ = _RecordingEnviron(os.environ, self)  # type: ignore[assignment]  # noqa: B003
        self._installed = True

    def _origin(self, frame: FrameType | None) -> str | None:
        """The plugin frame that caused the event, or None when plugin code is not behind it."""
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith("<frozen importlib"):
                return None  # the import system loading modules: not the plugin's doing
            if self.roots and name.startswith(self.roots):
                return f"{name}:{frame.f_lineno} ({frame.f_code.co_name})"
            frame = frame.f_back
        return None

    def note(self, category: str, event: str, detail: str) -> None:
        """Record an event if a phase is active and plugin code caused it."""
        if self.phase is None or len(self.events) >= _MAX_EVENTS:
            return
        origin = self._origin(sys._getframe(2))
        if origin is not None:
            phase, self.phase = self.phase, None  # no recursion from our own bookkeeping
            try:
                self.events.append(Event(phase, category, event, detail, origin))
            finally:
                self.phase = phase

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        category = _CATEGORIES.get(event)
        if category is None or self.phase is None:
            return
        detail = ""
        if args:
            first = args[0]
            detail = repr(first)[:120] if not isinstance(first, bytes) else repr(first[:60])
        self.note(category, event, detail)

    @contextmanager
    def watching(self, phase: str) -> Iterator[list[str]]:
        """Watch one phase; yields a list that receives the global state changes found after."""
        changes: list[str] = []
        before = _snapshot()
        stdout, stderr = sys.stdout, sys.stderr
        captured_out, captured_err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = captured_out, captured_err
        self.phase = phase
        try:
            yield changes
        finally:
            self.phase = None
            sys.stdout, sys.stderr = stdout, stderr
            after = _snapshot()
            # Our own capture swaps the streams; compare the rest.
            after["sys.stdout/stderr/stdin"] = before["sys.stdout/stderr/stdin"]
            changes.extend(
                f"changed {name} during {phase}"
                for name, value in before.items()
                if after[name] != value
            )
            for stream, buffer in (("stdout", captured_out), ("stderr", captured_err)):
                text = buffer.getvalue()
                if text:
                    changes.append(f"printed to {stream} during {phase}: {text[:120]!r}")
