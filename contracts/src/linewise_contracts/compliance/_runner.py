"""The parent's side of the worker: start it contained, read its records, judge them.

The worker runs in its own session and process group, with a hard address
space limit, stdout and stderr sent to files (nothing to wait on), and a pipe
for records. Every record is an observation: the verdicts are all made here
(:mod:`._judge`, :mod:`._observed`), and each check the worker announced or
was due to run gets one, a failure when its observation never came.

The parent watches three clocks: the whole run's timeout, each plugin call's
limit (through the call slot), and the worker's exit; on any of them it kills
the worker's whole process group, so a forked child that keeps a pipe open
neither holds ``check`` up nor outlives it.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

from linewise_contracts.compliance._channel import (
    SLOT_BYTES,
    ChannelError,
    Receiver,
    SlotReader,
)
from linewise_contracts.compliance._judge import (
    batch_problem,
    optional_verdict,
    parse_verdicts,
    short,
)
from linewise_contracts.compliance._observed import Budgets, observed_verdict
from linewise_contracts.compliance._results import WORKER_CHECKS, CheckResult
from linewise_contracts.compliance._sources import sample_lines
from linewise_contracts.compliance._target import Target

__all__ = ["run_worker"]

_POLL: Final = 0.05
_STATUSES: Final = ("pass", "warn", "fail", "skip")


class _Verdicts:
    """What the parent concludes from the records, adapter type by adapter type."""

    def __init__(
        self,
        adapter_types: list[str],
        values: dict[str, str],
        samples: dict[str, list[str]],
        budgets: Budgets,
    ) -> None:
        self.adapter_types = adapter_types
        self._values = values
        self._samples = samples
        self._budgets = budgets
        self.results: list[CheckResult] = []
        self.running: tuple[str, str] | None = None
        self.done = False
        # Fuzzing: the smallest failing observation per adapter type, and the end record.
        self._fuzz_failure: dict[str, tuple[int, list[str], str]] = {}
        self._fuzz_seen: dict[str, int] = {}

    def take(self, record: tuple[Any, ...]) -> None:
        """One record; raises ChannelError when it has not the shape of any record."""
        kind = record[0]
        at = record[1] if len(record) > 1 else None
        if kind == "done" and len(record) == 1:
            self.done = True
            return
        if type(at) is not str or at not in self.adapter_types:
            raise ChannelError(f"a record names an adapter type not being checked: {short(at, 60)}")
        if kind == "running" and len(record) == 3 and record[2] in WORKER_CHECKS:
            self.running = (at, record[2])
        elif kind in ("import", "exports", "effects", "integrity", "cost"):
            self.results.append(observed_verdict(at, self._values[at], record, self._budgets))
        elif kind == "parse":
            if len(record) > 3 and record[3] != self._samples[at]:
                # The observations must answer the parent's own sample lines.
                raise ChannelError("parse observations of lines the checker did not give")
            self.results.extend(parse_verdicts(at, record))
        elif kind == "optional":
            self.results.append(optional_verdict(at, record))
        elif kind == "fuzz" and len(record) == 6:
            self._fuzz(at, record)
        elif kind == "fuzz.end" and len(record) == 6:
            self._fuzz_end(at, record)
        else:
            raise ChannelError(f"a record of an unknown kind: {short(record, 80)}")

    def _fuzz(self, at: str, record: tuple[Any, ...]) -> None:
        _, _, lines, one, two, extras = record
        if not all(type(item) is list for item in (lines, one, two, extras)) or not all(
            type(line) is str for line in lines
        ):
            raise ChannelError("a malformed fuzzing observation")
        self._fuzz_seen[at] = self._fuzz_seen.get(at, 0) + 1
        problem = batch_problem(lines, one, two, extras)
        if problem is None:
            return
        size = sum(len(line) for line in lines) + len(lines)
        known = self._fuzz_failure.get(at)
        if known is None or size < known[0]:
            self._fuzz_failure[at] = (size, lines, problem)

    def _fuzz_end(self, at: str, record: tuple[Any, ...]) -> None:
        _, _, state, message, examples, seconds = record
        failure = self._fuzz_failure.get(at)
        if failure is not None:
            _, lines, problem = failure
            self.results.append(
                CheckResult(
                    "parse.never_throws",
                    "fail",
                    f"minimal failing input found: {problem}",
                    at,
                    (f"lines: {short(lines, 600)}",),
                    {"examples": examples if type(examples) is int else 0},
                )
            )
        elif state == "skip" and type(message) is str:
            self.results.append(CheckResult("parse.never_throws", "skip", message, at))
        elif state == "done" and type(examples) is int and type(seconds) is float:
            if self._fuzz_seen.get(at, 0) < min(examples, 1):
                self.results.append(
                    CheckResult(
                        "parse.never_throws",
                        "fail",
                        "the worker reported fuzzing but sent no observation of it",
                        at,
                    )
                )
                return
            self.results.append(
                CheckResult(
                    "parse.never_throws",
                    "pass",
                    f"{examples} hostile inputs: no exception, no invalid entry",
                    at,
                    (),
                    {
                        "examples": examples,
                        "batches": self._fuzz_seen.get(at, 0),
                        "seconds": round(seconds, 2),
                    },
                )
            )
        else:
            raise ChannelError("a malformed end of fuzzing")

    def missing(self, ending: str | None) -> list[CheckResult]:
        """A failure for every check that got no verdict, except after a check that failed."""
        found: list[CheckResult] = []
        for at in self.adapter_types:
            mine = {result.check: result for result in self.results if result.adapter_type == at}
            stopped = False
            for check in WORKER_CHECKS:
                if check in mine:
                    stopped = stopped or (
                        mine[check].status == "fail"
                        and check in ("import", "exports", "checker.integrity")
                    )
                    continue
                if self.running == (at, check) and ending is not None:
                    continue  # reported with the ending itself
                if stopped and check != "checker.integrity":
                    found.append(CheckResult(check, "skip", "not run: an earlier check failed", at))
                elif ending is not None:
                    found.append(
                        CheckResult(check, "fail", f"no verdict: {ending} before it ran", at)
                    )
                else:
                    found.append(
                        CheckResult(
                            check,
                            "fail",
                            "no verdict received (the worker skipped it or was tampered with)",
                            at,
                        )
                    )
        return found


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the worker's process group (its forked children too), then reap the worker."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _exited(pid: int) -> bool:
    """Whether the worker exited, without reaping it (its group id stays reserved)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"killed by {name}"
    return f"exit code {code}"


def run_worker(
    target: Target, examples: int, timeout: float, line_timeout: float
) -> list[CheckResult]:
    """Run the behavioural checks in a fresh interpreter and judge what it observed."""
    from linewise_contracts.compliance import module_roots

    checked = [(n, v) for n, v in target.entry_points if n in target.adapter_types]
    adapter_types = [name for name, _ in checked]
    roots = module_roots(target)
    # The sample lines are read here and handed to the worker: what it reports must
    # answer these lines, not lines a plugin in the worker picked.
    samples = {
        name: sample_lines(roots.get(value.split(":", 1)[0].strip().split(".", 1)[0], []), name)
        for name, value in checked
    }
    budgets = Budgets(line_seconds=0.0005, large_seconds=2.0)
    verdicts = _Verdicts(
        adapter_types,
        dict(checked),
        {name: lines for name, (lines, _) in samples.items()},
        budgets,
    )
    with tempfile.TemporaryDirectory(prefix="linewise-check-") as folder:
        config_path = Path(folder) / "config.json"
        slot_path = Path(folder) / "slot"
        slot_path.write_bytes(bytes(SLOT_BYTES))
        config = {
            "paths": list(target.paths),
            "entry_points": [[n, v] for n, v in checked],
            "examples": examples,
            "line_timeout": line_timeout,
            "memory_limit_mb": 1024,
            "parent": os.getpid(),
            "samples": {name: [lines, source] for name, (lines, source) in samples.items()},
        }
        config_path.write_text(json.dumps(config), encoding="utf-8")
        read_fd, write_fd = os.pipe()
        command = [
            sys.executable,
            "-X",
            "faulthandler",
            "-m",
            "linewise_contracts.compliance._worker",
            str(config_path),
            str(write_fd),
            str(slot_path),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        with (
            open(Path(folder) / "stdout", "wb") as stdout,
            open(Path(folder) / "stderr", "w+b") as stderr,
        ):
            try:
                process = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=stdout,
                    stderr=stderr,
                    pass_fds=(write_fd,),
                    start_new_session=True,
                    env=env,
                )
            finally:
                os.close(write_fd)
            try:
                ending = _watch(process, read_fd, verdicts, timeout, SlotReader(str(slot_path)))
            finally:
                _kill_group(process)
                os.close(read_fd)
            if ending is None and process.returncode != 0:
                ending = f"the worker process died ({_describe_exit(process.returncode)})"
            if ending is None and not verdicts.done:
                ending = "the worker stopped before its last record"
            stderr.seek(0)
            tail = [
                line
                for line in stderr.read().decode(errors="replace").strip().splitlines()[-8:]
                if line.strip()
            ]
    results = verdicts.results
    if ending is not None:
        if verdicts.running is not None:
            at, check = verdicts.running
            # A verdict it already has came before the ending: the ending overrules it.
            results = [r for r in results if (r.adapter_type, r.check) != (at, check)]
            results.append(
                CheckResult(check, "fail", f"{ending} while running this check", at, tuple(tail))
            )
        else:
            results.append(CheckResult("import", "fail", ending, None, tuple(tail)))
    results.extend(verdicts.missing(ending))
    return results


def _watch(
    process: subprocess.Popen[bytes],
    read_fd: int,
    verdicts: _Verdicts,
    timeout: float,
    slot: SlotReader,
) -> str | None:
    """Read records until the worker ends; the reason it was stopped, or None."""
    receiver = Receiver()
    os.set_blocking(read_fd, False)
    deadline = time.monotonic() + timeout

    def drain() -> str | None:
        while True:
            try:
                data = os.read(read_fd, 1 << 20)
            except BlockingIOError:
                return None
            if not data:
                return None
            try:
                for record in receiver.feed(data):
                    verdicts.take(record)
            except ChannelError as error:
                return f"the results channel was tampered with ({error})"
            except Exception as error:  # a signed record of a shape no judge expects
                return f"the results channel carried a record the checker cannot judge ({error!r})"

    while True:
        ready, _, _ = select.select([read_fd], [], [], _POLL)
        if ready:
            problem = drain()
            if problem is not None:
                return problem
        if _exited(process.pid):
            return drain()
        now = time.monotonic()
        if now > deadline:
            return (
                f"the worker process was killed after {timeout:g} s (the whole check's time limit)"
            )
        overrun = slot.overrun(now)
        if overrun is not None:
            index, limit = overrun
            where = f"line {index + 1}" if index >= 0 else "a call into the plugin"
            return (
                f"{where} still running after {limit:g} s ignored the per-line limit "
                "(a swallowed alarm or a hang in C code): the worker was killed"
            )
