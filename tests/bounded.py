"""Running hostile input in a child Python under the test's own limits: a timeout and an rlimit.

A test of "time and memory stay bounded" must not hang the suite or take the
machine's memory when the bound is broken: the work runs in a child process
whose address space is capped (``RLIMIT_AS``) and which is killed at the
timeout. The test asserts on how the child ended, never on how long it took.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Bounded", "run_bounded"]

MIB = 1024 * 1024


@dataclass(frozen=True)
class Bounded:
    """How the child ended: its exit code (None when killed at the timeout) and its output."""

    returncode: int | None
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    def __str__(self) -> str:
        ended = "timed out" if self.timed_out else f"exit {self.returncode}"
        return f"{ended}\nstdout:\n{self.stdout[-2000:]}\nstderr:\n{self.stderr[-4000:]}"


def run_bounded(
    code: str,
    *,
    timeout: float,
    memory_mib: int,
    env: Mapping[str, str] | None = None,
    args: tuple[str, ...] = (),
) -> Bounded:
    """Run ``code`` (dedented) in a child Python with at most ``memory_mib`` of address space."""
    limit = memory_mib * MIB

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    child_env = dict(os.environ if env is None else env)
    child_env.setdefault("PYTHONHASHSEED", "0")
    with subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env,
        preexec_fn=cap,  # noqa: PLW1509 - only setrlimit, before exec
    ) as child:
        try:
            stdout, stderr = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            stdout, stderr = child.communicate()
            return Bounded(None, stdout, stderr)
    return Bounded(child.returncode, stdout, stderr)
