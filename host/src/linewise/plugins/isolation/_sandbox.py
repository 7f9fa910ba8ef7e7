"""The worker's own limits, applied before the plugin is imported (worker side only).

Four layers, each holding what its docstring says and nothing more:

- :func:`bind_to_host`: the kernel kills the worker when the host dies
  (``PR_SET_PDEATHSIG``, Linux), however the host died.
- :func:`limit_memory`: a hard address-space limit.
- :mod:`._seccomp`: the kernel refuses programs, processes, signals to other
  processes, writes to disk, sockets and raising limits, whatever the code
  that asks (Python, C or ctypes); absent where libseccomp is missing.
- :func:`deny_outside_access`: an audit hook for Python code: the same
  denials where seccomp is absent, plus reading and listing files outside the
  import path, SQLite and ctypes' lookups of new C functions. It is not a
  boundary on its own (C code does not raise audit events); together with the
  filter it keeps an ordinary parser from touching the world.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import sys
from collections.abc import Sequence
from typing import Final

__all__ = ["bind_to_host", "deny_outside_access", "limit_memory"]

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
        "ctypes.dlsym",
        "ctypes.dlsym/handle",
        "sqlite3.connect",
        "sqlite3.enable_load_extension",
        "os.setuid",
        "os.setgid",
        "sys.remote_exec",
        "webbrowser.open",
    }
)
_WRITE_FLAGS: Final = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class SandboxViolation(PermissionError):
    """A parser in a worker tried something the worker does not allow."""


_LISTING: Final = frozenset({"os.listdir", "os.scandir", "os.fwalk"})
_PR_SET_PDEATHSIG: Final = 1


def bind_to_host(host: int) -> None:
    """Die with the host: SIGKILL from the kernel when the process that started us ends.

    Linux only (elsewhere the host closes its workers as it exits). A host that
    died before the signal was asked for is seen at once: we exit.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(AttributeError, OSError):  # a libc without prctl
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != host:
        os._exit(0)


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
        elif event in _LISTING:
            _check_listing(args, roots)

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


def _check_listing(args: tuple[object, ...], roots: tuple[str, ...]) -> None:
    path = args[0] if args else None
    if isinstance(path, int):
        return  # a descriptor: opened for reading under the rules above
    where = "." if path is None else os.fsdecode(path)  # type: ignore[arg-type]
    real = os.path.join(os.path.realpath(where), "")
    if not real.startswith(roots):
        raise SandboxViolation(
            f"listing {real!r} is not allowed in an isolated parser (only its import path)"
        )
