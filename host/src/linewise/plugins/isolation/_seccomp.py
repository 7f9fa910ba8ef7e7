"""The worker's kernel filter: system calls a parser never needs, refused by seccomp (Linux).

Applied in the worker before the plugin is imported, through pyseccomp
(ctypes over the system's libseccomp). The filter allows by default and
refuses, with EPERM (so Python raises PermissionError and the guard records
it), what a parser has no use for and what could reach outside the worker:

- running programs and making processes: ``execve``, ``execveat``, ``fork``,
  ``vfork``, ``clone`` without ``CLONE_THREAD`` (threads stay allowed);
- signals to any other process: ``kill``, ``tgkill``, ``rt_sigqueueinfo`` and
  ``rt_tgsigqueueinfo`` aimed elsewhere than the worker itself, ``tkill``,
  ``pidfd_open``, ``pidfd_send_signal``, ``pidfd_getfd``;
- other processes' memory: ``ptrace``, ``process_vm_readv``/``writev``, ``kcmp``;
- changing anything on disk: opening with any write flag (``open``,
  ``openat``, ``creat``), and every call that creates, removes, renames,
  links, truncates or changes the owner, mode, times or attributes of a file;
- the network: ``socket``, ``socketpair``, ``connect``, ``bind``, ``listen``,
  ``accept``;
- its own limits and parent-death signal: ``setrlimit``, ``prlimit64`` that
  sets, ``prctl(PR_SET_PDEATHSIG)``;
- the kernel's other doors: mounts, namespaces, ``bpf``, ``perf_event_open``,
  keyrings, ``userfaultfd``, modules, ``io_uring`` (which would bypass the
  filter), ``openat2`` and ``clone3`` (refused with ENOSYS: their arguments
  cannot be inspected, and libc falls back to the calls above).

What it does not hold: reading. ``open`` for reading, ``stat`` and directory
listing are allowed by the kernel (the audit hook of :mod:`._sandbox` limits
them to the import path for Python code); a plugin's C code can still read
any file the user can. Where libseccomp is missing the filter is absent and
:func:`apply` says so.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any, Final

__all__ = ["apply"]

_CLONE_THREAD: Final = 0x00010000
_PR_SET_PDEATHSIG: Final = 1
_REFUSED: Final = (
    "execve",
    "execveat",
    "fork",
    "vfork",
    "tkill",
    "pidfd_open",
    "pidfd_send_signal",
    "pidfd_getfd",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "creat",
    "unlink",
    "unlinkat",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "rmdir",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "mknod",
    "mknodat",
    "chmod",
    "fchmod",
    "fchmodat",
    "fchmodat2",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "truncate",
    "ftruncate",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "name_to_handle_at",
    "open_by_handle_at",
    "socket",
    "socketpair",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    "setrlimit",
    "mount",
    "umount2",
    "move_mount",
    "fsopen",
    "fsmount",
    "open_tree",
    "chroot",
    "pivot_root",
    "unshare",
    "setns",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "userfaultfd",
    "fanotify_init",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "swapon",
    "swapoff",
    "reboot",
    "acct",
    "quotactl",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "sethostname",
    "setdomainname",
)
_UNKNOWN: Final = ("openat2", "clone3", "io_uring_setup", "io_uring_enter", "io_uring_register")


def _load_library() -> Any:
    """pyseccomp, imported without ``ctypes.util``: its ``find_library`` runs ldconfig, and
    importing it brings subprocess and shutil (together most of a worker's start-up)."""
    import ctypes
    import types

    sonames = {"c": "libc.so.6", "seccomp": "libseccomp.so.2"}
    stand_in = types.ModuleType("ctypes.util")
    stand_in.find_library = sonames.get  # type: ignore[attr-defined]
    real = sys.modules.get("ctypes.util")
    sys.modules["ctypes.util"] = stand_in
    ctypes.util = stand_in  # type: ignore[attr-defined]
    try:
        import pyseccomp  # type: ignore[import-untyped]
    finally:
        if real is None:
            del sys.modules["ctypes.util"]
            del ctypes.util  # type: ignore[attr-defined]
        else:
            sys.modules["ctypes.util"] = ctypes.util = real  # type: ignore[attr-defined]
    return pyseccomp


def apply() -> str | None:
    """Load the filter into this process (for good); None, or why it could not be loaded."""
    try:
        seccomp = _load_library()
    except (ImportError, OSError, RuntimeError) as error:
        return f"no seccomp filter: {error}"
    eperm = seccomp.ERRNO(errno.EPERM)
    arg = seccomp.Arg
    me = os.getpid()
    try:
        rules = seccomp.SyscallFilter(seccomp.ALLOW)
        for name in _REFUSED:
            _rule(rules, eperm, name)
        for name in _UNKNOWN:
            _rule(rules, seccomp.ERRNO(errno.ENOSYS), name)
        _rule(rules, eperm, "clone", arg(0, seccomp.MASKED_EQ, _CLONE_THREAD, 0))
        for name in ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
            _rule(rules, eperm, name, arg(0, seccomp.NE, me))
        _rule(rules, eperm, "prlimit64", arg(2, seccomp.NE, 0))
        _rule(rules, eperm, "prctl", arg(0, seccomp.EQ, _PR_SET_PDEATHSIG))
        for name, position in (("open", 1), ("openat", 2)):
            for flag in (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND):
                _rule(rules, eperm, name, arg(position, seccomp.MASKED_EQ, flag, flag))
        rules.load()
    except OSError as error:
        return f"no seccomp filter: {error}"
    return None


def _rule(rules: Any, action: int, name: str, *args: Any) -> None:
    # A call this architecture does not have (``open`` on arm64, say) is left out.
    with contextlib.suppress(OSError, ValueError, RuntimeError):
        rules.add_rule(action, name, *args)
