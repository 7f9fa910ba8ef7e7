"""The compliance worker: imports a plugin in a throw-away process and reports what it observes.

Run as ``python -m linewise_contracts.compliance._worker CONFIG CHANNEL_FD SLOT``.
Everything the checker relies on is imported and bound before the plugin is,
then fingerprinted, so a plugin that patches it shows in ``checker.integrity``.
The worker holds no secret and decides no verdict: it sends observations
(what each call into the plugin returned, what the audit hooks saw, how long
calls took, which of its modules changed) and the parent judges all of them
with its own, untouched copy of the contract (see ``_judge`` and
``_runner``). The sample lines come from the parent too.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import signal
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any, Final

from linewise_contracts.compliance import _channel, _judge, _results
from linewise_contracts.compliance._channel import Sender, Slot, TooDeep, encode
from linewise_contracts.compliance._judge import Outcome, batch_problem
from linewise_contracts.compliance._monitor import Monitor, fingerprint
from linewise_contracts.environment import EnvironmentCheck
from linewise_contracts.exports import describe_error, exports_problem, parser_problem
from linewise_contracts.protocols import (
    CHECK_ENVIRONMENT,
    CREATE_STDOUT_PARSER,
    FORMAT_ENTRIES,
    FORMAT_STDOUT_LINE,
    METADATA_NAMES,
    PARSE_STDOUT_LINE,
    SNIFF,
    SUMMARIZE_RUN,
)
from linewise_contracts.summary import RunSummary
from linewise_contracts.validation import entry_problem, json_problem

TS: Final = "2026-01-01T00:00:00.000Z"
_MAX_SAMPLE_LINES: Final = 5000
_MAX_OPTIONAL_LINES: Final = 400  # lines given to format_stdout_line (format_entries), a call each
_SNIFF_WINDOW: Final = 40
_RUN_SUMMARY_TO_JSON: Final = RunSummary.to_json
_CHECK_TO_JSON: Final = EnvironmentCheck.to_json


class _Hang(BaseException):
    """Raised into a call that runs past the per-line limit (the parent kills past twice that)."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise _Hang(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Calls:
    """Every call into plugin code: the soft alarm, the parent's call slot, plain outcomes."""

    def __init__(self, slot: Slot, limit: float) -> None:
        self.slot = slot
        self.limit = limit
        self.hangs = False
        import marshal

        self._dumps: Callable[[object], bytes] = marshal.dumps  # type: ignore[assignment]
        self._loads = marshal.loads
        self._encode = encode

    def raw(
        self, function: Callable[..., Any], *args: Any, index: int = -1, limit: float | None = None
    ) -> tuple[bool, Any]:
        """``(True, value)`` or ``(False, outcome)`` for a call that raised or hung."""
        seconds = self.limit if limit is None else limit
        self.slot.enter(index, seconds)
        try:
            with _time_limit(seconds):
                return True, function(*args)
        except _Hang as error:
            self.hangs = True
            return False, ("hang", str(error))
        except (
            BaseException
        ) as error:  # SystemExit, GeneratorExit, KeyboardInterrupt: all the plugin's
            return False, ("raised", describe_error(error))
        finally:
            self.slot.leave()

    def plain(self, value: object) -> Outcome:
        """The value as the parent will see it: a deep copy in plain Python types."""
        try:
            copy = self._loads(self._dumps(value))
            self._encode(copy)  # what the channel cannot carry is said here, not lost there
            return ("value", copy)
        except TooDeep as error:
            return ("unsendable", f"is {error}")
        except Exception as error:
            problem = json_problem(value)
            return ("unsendable", problem or f"{describe_error(error)} ({type(value).__name__})")

    def call(self, function: Callable[..., Any], *args: Any, index: int = -1) -> Outcome:
        """One call's outcome."""
        ok, value = self.raw(function, *args, index=index)
        return self.plain(value) if ok else value


class _StaticParser:
    def __init__(self, parse: Callable[[str, str], Any]) -> None:
        self.parse_line = parse

    def reset(self) -> None:
        return None


def _run(calls: _Calls, parser: Any, lines: list[str]) -> list[Outcome]:
    """Each line's outcome as the host feeds them, then finish()'s when the parser has one."""
    ok, raw = calls.raw(getattr, parser, "raw_lines", False)
    raw = ok and raw is True
    ok, parse = calls.raw(getattr, parser, "parse_line")
    if not ok:
        return [parse for _ in lines]
    out = [
        calls.call(parse, line + "\n" if raw else line, TS, index=index)
        for index, line in enumerate(lines)
    ]
    ok, finish = calls.raw(getattr, parser, "finish", None)
    if not ok:
        out.append(finish)
    elif callable(finish):
        out.append(calls.call(finish, TS, index=len(lines)))
    return out


def _roots(module: str) -> list[str]:
    """Where the plugin's code lives, found without executing it."""
    top = module.split(".", 1)[0]
    spec = importlib.util.find_spec(top)
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [os.path.realpath(path) for path in spec.submodule_search_locations]
    if spec.origin:
        return [os.path.realpath(spec.origin)]
    return []


def _load(value: str) -> object:
    module_name, _, attribute = value.partition(":")
    target: object = importlib.import_module(module_name.strip())
    for part in attribute.split(".") if attribute.strip() else []:
        target = getattr(target, part.strip())
    return target


class _Out:
    """The records the worker sends: running markers and observations, never verdicts."""

    def __init__(self, sender: Sender) -> None:
        self.send = sender.send

    def running(self, at: str, check: str) -> None:
        self.send(("running", at, check))


class _Optional:
    """The optional exports the parser module has (None when not exported)."""

    def __init__(
        self,
        sniff: Any,
        summarize: Any,
        format_line: Any,
        environment: Any,
        format_entries: Any = None,
    ) -> None:
        self.sniff = sniff
        self.summarize = summarize
        self.format_line = format_line
        self.environment = environment
        self.format_entries = format_entries


def _line_entries(outcome: Outcome) -> list[dict[str, Any]]:
    """The valid entries a line's parse gave (what the host hands ``format_entries``)."""
    if type(outcome) is not tuple or len(outcome) != 2 or outcome[0] != "value":
        return []
    result = outcome[1]
    if type(result) is not list:
        return []
    return [entry for entry in result if type(entry) is dict and entry_problem(entry) is None]


class _Checker:
    def __init__(self, config: dict[str, Any], monitor: Monitor, out: _Out, calls: _Calls) -> None:
        self.config = config
        self.monitor = monitor
        self.out = out
        self.calls = calls
        self.guarded_print = fingerprint(monitor.guarded)

    def adapter(self, at: str, value: str) -> None:
        self._adapter(at, value)
        self._integrity(at)

    def _integrity(self, at: str) -> None:
        self.out.running(at, "checker.integrity")
        now = fingerprint(self.monitor.guarded)
        changed = sorted(
            name for name, items in self.guarded_print.items() if now.get(name) != items
        )
        self.out.send(("integrity", at, changed))

    def _adapter(self, at: str, value: str) -> None:
        out, calls = self.out, self.calls
        out.running(at, "import")
        module = value.split(":", 1)[0].strip()
        roots = _roots(module)
        if not roots:
            out.send(("import", at, f"module {module!r} cannot be found on sys.path"))
            return
        self.monitor.roots = tuple(roots)
        with self.monitor.watching("import") as changes:
            ok, target = calls.raw(_load, value, limit=calls.limit * 4)
        if not ok:
            out.send(("import", at, f"importing {value} failed: {target[1]}"))
            return
        out.send(("import", at, None))
        self._side_effects(at, "import", changes)

        out.running(at, "exports")
        if not self._declared(at, target):
            return
        found: dict[str, Any] = {}
        for name in (
            CREATE_STDOUT_PARSER,
            PARSE_STDOUT_LINE,
            SNIFF,
            SUMMARIZE_RUN,
            FORMAT_STDOUT_LINE,
            CHECK_ENVIRONMENT,
        ):
            ok, found[name] = calls.raw(getattr, target, name, None)
            if not ok:
                out.send(("exports", at, f"reading {name} raised: {found[name][1]}", [], []))
                return
        # Contract 1.7: a field of a declared Format only (no 1.x module export of the name).
        found[FORMAT_ENTRIES] = None
        if type(target).__module__ == "linewise_contracts.agent":
            name = FORMAT_ENTRIES
            ok, found[name] = calls.raw(getattr, target, name, None)
            if not ok:
                out.send(("exports", at, f"reading {name} raised: {found[name][1]}", [], []))
                return
        factory, static = found[CREATE_STDOUT_PARSER], found[PARSE_STDOUT_LINE]
        ok, problem = calls.raw(exports_problem, factory, static)
        if ok and problem is None and factory is not None:
            ok, broken = calls.raw(parser_problem, factory)
            problem = broken[:2] if ok and broken is not None else (None if ok else broken)
        if not ok:
            out.send(("exports", at, f"checking the exports raised: {problem[1]}", [], []))
            return
        if problem is not None:
            out.send(("exports", at, str(problem[0]), [f"hint: {problem[1]}"], []))
            return
        optional = _Optional(
            found[SNIFF],
            found[SUMMARIZE_RUN],
            found[FORMAT_STDOUT_LINE],
            found[CHECK_ENVIRONMENT],
            found[FORMAT_ENTRIES],
        )
        for name in (SNIFF, SUMMARIZE_RUN, FORMAT_STDOUT_LINE, FORMAT_ENTRIES, CHECK_ENVIRONMENT):
            if found[name] is not None and not callable(found[name]):
                kind = type(found[name]).__name__
                out.send(("exports", at, f"{name} is a {kind}, not callable", [], []))
                return
        kinds = [name for name in found if found[name] is not None]
        out.send(("exports", at, None, [], kinds))

        out.running(at, "metadata.exports")
        observations = []
        for name in METADATA_NAMES:
            pair = []
            for _ in range(2):
                ok, got = calls.raw(getattr, target, name, None)
                pair.append(calls.plain((name, got)) if ok else got)
            observations.append((name, pair[0], pair[1]))
        out.send(("optional", at, "metadata.exports", observations))

        new_parser: Callable[[], Any]
        if factory is not None:
            new_parser = factory
        else:
            parse: Callable[[str, str], Any] = static
            new_parser = lambda: _StaticParser(parse)  # noqa: E731
        samples, source = self.config["samples"][at]
        self._parsing(at, new_parser, samples, source, optional, stateful=factory is not None)
        self._fuzz(at, new_parser, samples, optional)
        self._cost(at, new_parser, samples)

    def _declared(self, at: str, target: object) -> bool:
        """A contract 1.5 target (a Format of an Agent) checked, its references imported;
        False (and the failure sent) when it cannot serve ``at``. Other targets pass."""
        if type(target).__module__ != "linewise_contracts.agent":
            return True
        from linewise_contracts.agent import format_problem

        ok, problem = self.calls.raw(format_problem, target, at)
        if ok and problem is not None:
            self.out.send(("exports", at, str(problem[0]), [f"hint: {problem[1]}"], []))
            return False
        if ok:
            ok, problem = self.calls.raw(target.resolve)  # type: ignore[attr-defined]
        if not ok:
            self.out.send(
                ("exports", at, f"checking the declared format raised: {problem[1]}", [], [])
            )
            return False
        return True

    def _fresh(self, new_parser: Callable[[], Any]) -> tuple[bool, Any]:
        return self.calls.raw(new_parser)

    def _runs(self, new_parser: Callable[[], Any], lines: list[str]) -> list[Outcome]:
        ok, parser = self._fresh(new_parser)
        if not ok:
            return [parser for _ in lines]
        return _run(self.calls, parser, lines)

    def _side_effects(self, at: str, phase: str, changes: list[str]) -> None:
        events = [event.describe() for event in self.monitor.events if event.phase == phase]
        self.out.send(("effects", at, phase, events + changes))

    def _optional_calls(
        self, optional: _Optional, lines: list[str], parsed: list[Outcome]
    ) -> dict[str, list[Any]]:
        """Observations of the optional exports on ``lines`` (``parsed``: each line's parse
        outcome, whose valid entries ``format_entries`` is given): ``{check: [(label, a, b)]}``."""
        calls = self.calls
        found: dict[str, list[Any]] = {}
        if optional.sniff is not None:
            seen = []
            for label, window in (("sniff(lines)", lines[:_SNIFF_WINDOW]), ("sniff([])", [])):
                pair = []
                for _ in range(2):
                    given = list(window)
                    outcome = calls.call(optional.sniff, given)
                    if given != window and outcome[0] == "value":
                        outcome = ("raised", "sniff() changed the list of lines it was given")
                    pair.append(outcome)
                seen.append((label, pair[0], pair[1]))
            found["sniff"] = seen
        if optional.summarize is not None:
            pair = [self._summary(optional.summarize, lines) for _ in range(2)]
            found["summarize_run"] = [("summarize_run(lines)", pair[0], pair[1])]
        if optional.format_line is not None:
            found["format_stdout_line"] = [
                (
                    f"format_stdout_line(line {index + 1})",
                    calls.call(optional.format_line, line),
                    calls.call(optional.format_line, line),
                )
                for index, line in enumerate(lines[:_MAX_OPTIONAL_LINES])
            ]
        if optional.format_entries is not None:
            seen = []
            for index, outcome in enumerate(parsed[: min(len(lines), _MAX_OPTIONAL_LINES)]):
                entries = _line_entries(outcome)
                if entries:
                    # Each call its own copies, as the host gives: one call's changes are not
                    # the next one's input.
                    label = f"format_entries(the entries of line {index + 1})"
                    pair = [
                        calls.call(optional.format_entries, self._copies(entries)) for _ in range(2)
                    ]
                    seen.append((label, pair[0], pair[1]))
            found["format_entries"] = seen
        return found

    def _copies(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        tag, copy = self.calls.plain(entries)  # valid entries are plain data: always a value
        return copy if tag == "value" else []

    def _summary(self, summarize: Callable[[Any], Any], lines: list[str]) -> Outcome:
        ok, summary = self.calls.raw(summarize, list(lines))
        if not ok:
            failed: Outcome = summary
            return failed
        if type(summary) is not RunSummary:
            return ("value", f"<{type(summary).__name__}>")
        ok, payload = self.calls.raw(_RUN_SUMMARY_TO_JSON, summary)
        return self.calls.plain(payload) if ok else payload

    def _environment(self, at: str, check_environment: Any) -> None:
        self.out.running(at, "check_environment")
        if check_environment is None:
            self.out.send(("optional", at, "check_environment", None))
            return
        # An empty environment: nothing on PATH, no keys; the checks must still come back.
        ok, checks = self.calls.raw(check_environment, {})
        if ok:
            if type(checks) is list and all(type(c) is EnvironmentCheck for c in checks):
                outcome = self.calls.plain([_CHECK_TO_JSON(check) for check in checks])
            else:
                outcome = ("value", f"<{type(checks).__name__}>")
        else:
            outcome = checks
        self.out.send(
            ("optional", at, "check_environment", [("check_environment({})", outcome, outcome)])
        )

    def _parsing(
        self,
        at: str,
        new_parser: Callable[[], Any],
        samples: list[str],
        source: str,
        optional: _Optional,
        *,
        stateful: bool,
    ) -> None:
        out, calls = self.out, self.calls
        out.running(at, "parse.valid")
        with self.monitor.watching("parsing") as changes:
            first = self._runs(new_parser, samples)
            second = self._runs(new_parser, samples)
            ok, reused = self._fresh(new_parser)
            if ok:
                _run(calls, reused, samples)
                reset = calls.raw(reused.reset)
                after_reset = (
                    _run(calls, reused, samples) if reset[0] else [reset[1] for _ in first]
                )
            else:
                after_reset = [reused for _ in first]
            out.running(at, "sniff")
            extras = self._optional_calls(optional, samples, first)
        out.send(("parse", at, source, samples, stateful, first, second, after_reset))
        self._side_effects(at, "parsing", changes)
        for check in ("sniff", "summarize_run", "format_stdout_line", "format_entries"):
            out.send(("optional", at, check, extras.get(check)))
        self._environment(at, optional.environment)

    def _fuzz(
        self, at: str, new_parser: Callable[[], Any], samples: list[str], optional: _Optional
    ) -> None:
        out = self.out
        out.running(at, "parse.never_throws")
        examples = self.config["examples"]
        if examples <= 0:
            out.send(("fuzz.end", at, "skip", "fuzzing disabled (--examples 0)", 0, 0.0))
            return
        if self.calls.hangs:
            # Every shrinking step would wait out the time limit again.
            out.send(
                ("fuzz.end", at, "skip", "not fuzzed: the parser hangs on sample lines", 0, 0.0)
            )
            return
        try:
            from hypothesis import HealthCheck, Phase, find, settings
            from hypothesis.errors import NoSuchExample

            from linewise_contracts.compliance._fuzz import line_batches
        except ImportError:
            out.send(
                (
                    "fuzz.end",
                    at,
                    "skip",
                    "hypothesis is not installed: pip install 'linewise-contracts[testing]'",
                    0,
                    0.0,
                )
            )
            return

        def breaks(lines: list[str]) -> bool:
            one = self._runs(new_parser, lines)
            problem = batch_problem(lines, one, one, [])
            two = self._runs(new_parser, lines) if problem is None else one
            extras = [
                (check, observation)
                for check, observations in self._optional_calls(optional, lines, one).items()
                for observation in observations
            ]
            out.send(("fuzz", at, lines, one, two, extras))
            return batch_problem(lines, one, two, extras) is not None

        started = time.perf_counter()
        with suppress(NoSuchExample):
            find(
                line_batches(samples),
                breaks,
                settings=settings(
                    max_examples=examples,
                    database=None,
                    deadline=None,
                    suppress_health_check=list(HealthCheck),
                    phases=[Phase.generate, Phase.shrink],
                ),
            )
        out.send(("fuzz.end", at, "done", "", examples, time.perf_counter() - started))

    def _cost(self, at: str, new_parser: Callable[[], Any], samples: list[str]) -> None:
        out = self.out
        out.running(at, "cost")
        calls = self.calls
        ok, parser = calls.raw(new_parser)
        times = []
        for index, line in enumerate(samples if ok else []):
            start = time.perf_counter()
            calls.raw(parser.parse_line, line, TS, index=index)
            times.append(time.perf_counter() - start)
        big_json = json.dumps(
            {"type": "assistant", "text": "x" * 1_000_000, "items": list(range(20_000))}
        )
        big_text = "word " * 200_000
        deep = "[" * 5000 + "]" * 5000
        large: list[tuple[str, float, float, float]] = []
        for name, line in (
            ("1 MB JSON line", big_json),
            ("1 MB text line", big_text),
            ("5000-deep JSON", deep),
        ):
            tracemalloc.start()
            start = time.perf_counter()
            made, fresh = calls.raw(new_parser)
            if made:
                calls.raw(fresh.parse_line, line, TS, limit=calls.limit * 4)
            seconds = time.perf_counter() - start
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            large.append((name, seconds, peak / 1e6, len(line) / 1e6))
        out.send(("cost", at, times, large))


def _limit_memory(megabytes: int) -> None:
    """Soft and hard limit both: the plugin cannot raise a hard limit again."""
    try:
        import resource

        limit = megabytes * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY and hard < limit:
            limit = hard
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not on every platform
        pass


def _guarded() -> tuple[ModuleType, ...]:
    """The modules the checker relies on, imported now, before any plugin code runs."""
    import marshal
    import struct

    from linewise_contracts import environment, exports, protocols, summary, validation
    from linewise_contracts.compliance import _monitor

    modules: list[ModuleType] = [
        sys.modules[__name__],
        _channel,
        _judge,
        _results,
        _monitor,
        validation,
        exports,
        protocols,
        summary,
        environment,
        json,
        marshal,
        struct,
        os,
        signal,
        time,
    ]
    try:
        from linewise_contracts.compliance import _fuzz

        modules.append(_fuzz)
    except ImportError:  # hypothesis missing: the fuzzing check says so
        pass
    return tuple(modules)


def _die_with(parent: int) -> None:
    """The kernel kills this worker when ``check`` dies, however it died (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with suppress(AttributeError, OSError):
            ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)


def main(argv: list[str]) -> int:
    """Run the checks described by CONFIG, sending records over the channel CHANNEL_FD."""
    config = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    _die_with(int(config["parent"]))
    out = _Out(Sender(int(argv[2])))
    calls = _Calls(Slot(argv[3]), float(config["line_timeout"]))
    _limit_memory(config["memory_limit_mb"])
    sys.path[:0] = config["paths"]
    monitor = Monitor()
    monitor.guarded = _guarded()
    monitor.install()
    checker = _Checker(config, monitor, out, calls)
    for adapter_type, value in config["entry_points"]:
        checker.adapter(adapter_type, value)
    out.send(("done",))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
