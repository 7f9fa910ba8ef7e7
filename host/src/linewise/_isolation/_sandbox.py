"""The worker's own limits: a hard memory limit and an audit hook (worker side only).

The audit hook is defence in depth, not a security boundary: Python code that
really wants out of a process can get out (ctypes, say). It stops the
ordinary ways a parser could touch the world: writing or deleting files,
reading files outside the import path, sockets, subprocesses, signals to
other processes, and raising its own limits.
"""

from __future__ import annotations

import os
import resource
import sys
from collections.abc import Sequence
from typing import Final

__all__ = ["deny_outside_access", "limit_memory"]

_DENIED: Final = frozenset(
    {
        "os.chmod",
        "os.chown",
        "os.exec",
        "os.fork",
        "os.forkpty",
        "os.kill",
        "os.killpg",
        "os.link",
        "os.mkdir",
        "os.posix_spawn",
        "os.putenv",
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.spawn",
        "os.startfile",
        "os.symlink",
        "os.system",
        "os.truncate",
        "os.unsetenv",
        "os.utime",
        "pty.spawn",
        "resource.prlimit",
        "resource.setrlimit",
        "shutil.chown",
        "shutil.copyfile",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.copytree",
        "shutil.make_archive",
        "shutil.move",
        "shutil.rmtree",
        "shutil.unpack_archive",
        "socket.__new__",
        "socket.bind",
        "socket.connect",
        "socket.getaddrinfo",
        "socket.gethostbyname",
        "socket.sendto",
        "subprocess.Popen",
        "ctypes.dlopen",
        "sys.remote_exec",
        "webbrowser.open",
    }
)
_WRITE_FLAGS: Final = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class SandboxViolation(PermissionError):
    """A parser in a worker tried something the worker does not allow."""


def limit_memory(mebibytes: int) -> None:
    """A hard address-space limit: the plugin cannot raise it (the audit hook denies trying)."""
    limit = mebibytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def deny_outside_access(import_path: Sequence[str]) -> None:
    """Install the audit hook; reading files stays allowed under ``import_path`` only."""
    roots = tuple(os.path.join(os.path.realpath(entry), "") for entry in import_path if entry)

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event in _DENIED:
            raise SandboxViolation(f"{event} is not allowed in an isolated parser")
        if event == "open":
            _check_open(args, roots)

    sys.addaudithook(hook)


def _check_open(args: tuple[object, ...], roots: tuple[str, ...]) -> None:
    path, mode, flags = (*args, None, None, None)[:3]
    writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
        isinstance(flags, int) and flags & _WRITE_FLAGS
    )
    if writing:
        raise SandboxViolation(f"opening {path!r} for writing is not allowed in an isolated parser")
    if isinstance(path, int):
        return  # an already open descriptor (the worker's own pipes)
    if isinstance(path, bytes | str):
        real = os.path.realpath(os.fsdecode(path))
        if not real.startswith(roots):
            raise SandboxViolation(
                f"reading {real!r} is not allowed in an isolated parser (only its import path)"
            )
