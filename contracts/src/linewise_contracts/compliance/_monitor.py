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
from collections.abc import Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, FrameType, FunctionType, ModuleType
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


class _RecordingEnviron(MutableMapping[Any, Any]):
    """os.environ (or posix.environ, os.environb) stand-in that reports plugin code's reads."""

    def __init__(self, real: MutableMapping[Any, Any], monitor: Monitor, name: str) -> None:
        self._real = real
        self._monitor = monitor
        self._name = name

    def __getitem__(self, key: Any) -> Any:
        self._monitor.note("environment", f"{self._name} read", repr(key))
        return self._real[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._monitor.note("environment", f"{self._name} write", repr(key))
        self._real[key] = value

    def __delitem__(self, key: Any) -> None:
        self._monitor.note("environment", f"{self._name} delete", repr(key))
        del self._real[key]

    def __iter__(self) -> Iterator[Any]:
        self._monitor.note("environment", f"{self._name} listing", "")
        return iter(self._real)

    def __len__(self) -> int:
        return len(self._real)

    def copy(self) -> dict[Any, Any]:
        self._monitor.note("environment", f"{self._name} copy", "")
        return dict(self._real)


def _codes(values: Iterable[object], found: dict[int, CodeType]) -> None:
    """Every code object reachable from these functions and classes (nested ones too)."""
    stack: list[object] = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if type(value) is FunctionType:
            value = value.__code__
        if type(value) is CodeType:
            if id(value) not in found:
                found[id(value)] = value
                stack.extend(value.co_consts)
        elif type(value) is type:
            stack.extend(vars(value).values())
        elif type(value) is property:
            stack.extend((value.fget, value.fset, value.fdel))


def _import_system_codes() -> dict[int, CodeType]:
    """The code of the real import system, known by identity (a filename can be forged)."""
    found: dict[int, CodeType] = {}
    for name in ("_frozen_importlib", "_frozen_importlib_external", "zipimport"):
        module = sys.modules.get(name)
        if module is not None:
            _codes(vars(module).values(), found)
    return found


def fingerprint(modules: Iterable[ModuleType]) -> dict[str, tuple[Any, ...]]:
    """Which objects (and which code) each module's globals and classes point at."""
    prints: dict[str, tuple[Any, ...]] = {}
    for module in modules:
        items = []
        for name, value in list(vars(module).items()):
            code = value.__code__ if type(value) is FunctionType else None
            inner = (
                tuple(
                    (key, id(item), id(getattr(item, "__code__", None)))
                    for key, item in list(vars(value).items())
                )
                if type(value) is type
                else ()
            )
            defaults = value.__defaults__ if type(value) is FunctionType else None
            items.append((name, id(value), id(code), id(defaults), inner))
        prints[module.__name__] = tuple(items)
    return prints


def _written(fd: int) -> int:
    """Bytes written so far to a file descriptor the parent pointed at a file."""
    try:
        return os.fstat(fd).st_size
    except OSError:
        return 0


def _snapshot(guarded: tuple[ModuleType, ...] = ()) -> dict[str, Any]:
    root = logging.getLogger()
    return {
        "the checker's own code and module globals": fingerprint(guarded),
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
        #: Modules whose globals the checker relies on: any change is a side effect.
        self.guarded: tuple[ModuleType, ...] = ()
        self._import_codes: dict[int, CodeType] = {}
        self._installed = False

    def install(self) -> None:
        """Install the audit hook and the recording os.environ (once per process)."""
        if self._installed:
            return
        self._import_codes = _import_system_codes()
        sys.addaudithook(self._hook)
        # Replacing the mappings (not clearing them): reads by plugin code get recorded.
        os.environ = _RecordingEnviron(os.environ, self, "os.environ")  # type: ignore[assignment]  # noqa: B003
        if hasattr(os, "environb"):
            os.environb = _RecordingEnviron(os.environb, self, "os.environb")  # type: ignore[assignment]
        native = sys.modules.get("posix") or sys.modules.get("nt")
        if native is not None and isinstance(getattr(native, "environ", None), dict):
            native.environ = _RecordingEnviron(  # type: ignore[attr-defined]
                native.environ, self, f"{native.__name__}.environ"
            )
        self._installed = True

    def _origin(self, frame: FrameType | None) -> str | None:
        """The plugin frame that caused the event, or None when plugin code is not behind it."""
        while frame is not None:
            if id(frame.f_code) in self._import_codes:
                return None  # the import system loading modules: not the plugin's doing
            name = frame.f_code.co_filename
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
        before = _snapshot(self.guarded)
        written = (_written(1), _written(2))
        stdout, stderr = sys.stdout, sys.stderr
        captured_out, captured_err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = captured_out, captured_err
        self.phase = phase
        try:
            yield changes
        finally:
            self.phase = None
            sys.stdout, sys.stderr = stdout, stderr
            after = _snapshot(self.guarded)
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
            for real in (sys.__stdout__, sys.__stderr__):
                try:
                    if real is not None:
                        real.flush()
                except (OSError, ValueError):
                    pass
            for fd, was in zip((1, 2), written, strict=True):
                grown = _written(fd) - was
                if grown > 0:
                    changes.append(f"wrote {grown} byte(s) to file descriptor {fd} during {phase}")
