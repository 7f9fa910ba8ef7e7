"""The compliance worker: imports a plugin in a throw-away process and exercises its parser.

Run as ``python -m linewise_contracts.compliance._worker CONFIG RESULTS``. Each
check's outcome is appended to RESULTS as one JSON line as soon as it is
known, after a ``{"running": ...}`` line, so the parent can name the check
that was running when the worker hung, crashed or ran out of memory.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import signal
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Final

from linewise_contracts.compliance._monitor import Monitor
from linewise_contracts.exports import describe_error, exports_problem, parser_problem
from linewise_contracts.protocols import CREATE_STDOUT_PARSER, PARSE_STDOUT_LINE
from linewise_contracts.validation import entry_problem

TS: Final = "2026-01-01T00:00:00.000Z"
_MAX_SAMPLE_LINES: Final = 5000
_SHOWN: Final = 5


class _Hang(BaseException):
    """Raised into a parser that runs past the per-line limit (BaseException: not swallowable)."""


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


class _Results:
    def __init__(self, path: str) -> None:
        self._file: IO[str] = open(path, "a", encoding="utf-8")  # noqa: SIM115

    def running(self, adapter_type: str, check: str) -> None:
        self._write({"running": check, "adapterType": adapter_type})

    def result(  # noqa: PLR0917 - a record's fields, in their printed order
        self,
        adapter_type: str,
        check: str,
        status: str,
        message: str,
        details: list[str] | None = None,
        figures: dict[str, Any] | None = None,
    ) -> None:
        self._write(
            {
                "check": check,
                "adapterType": adapter_type,
                "status": status,
                "message": message,
                "details": details or [],
                "figures": figures or {},
            }
        )

    def _write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, default=repr) + "\n")
        self._file.flush()


class _StaticParser:
    def __init__(self, parse: Callable[[str, str], Any]) -> None:
        self.parse_line = parse

    def reset(self) -> None:
        return None


def _short(value: object, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


# The host's per-line budgets (linewise TranscriptSession): beyond them entries are dropped.
_MAX_ENTRIES: Final = 10_000
_OUTPUT_FACTOR: Final = 16
_OUTPUT_FLOOR: Final = 1024 * 1024


def _line_problem(result: object, line: str) -> str | None:
    if type(result) is not list:
        return f"returned {type(result).__name__}, not a list"
    if len(result) > _MAX_ENTRIES:
        return f"returned {len(result)} entries for one line (a host keeps {_MAX_ENTRIES})"
    size = 0
    for entry in result:
        problem = entry_problem(entry)
        if problem is not None:
            return f"invalid entry: {problem}"
        size += len(entry.get("text") or entry.get("content") or "")
    budget = _OUTPUT_FACTOR * len(line) + _OUTPUT_FLOOR
    if size > budget:
        return (
            f"returned {size:,} characters of text for a {len(line):,}-character line "
            f"(a host keeps {budget:,})"
        )
    return None


_END: Final = "(end of stream)"


def _run(parser: Any, lines: list[str], limit: float) -> list[Any]:
    """Each line's result, or the exception it raised (as the value), as the host feeds them.

    A ``raw_lines`` parser gets each line with its newline; a parser with
    ``finish`` is finished after the last line, its result one more item.
    """
    raw = getattr(parser, "raw_lines", False) is True
    out: list[Any] = []
    for line in lines:
        try:
            with _time_limit(limit):
                out.append(parser.parse_line(line + "\n" if raw else line, TS))
        except (Exception, _Hang) as error:
            out.append(error)
    finish = getattr(parser, "finish", None)
    if callable(finish):
        try:
            with _time_limit(limit):
                out.append(finish(TS))
        except (Exception, _Hang) as error:
            out.append(error)
    return out


def _labels(lines: list[str], results: list[Any]) -> list[str]:
    """The lines the results belong to, with the end of the stream for a finish() result."""
    return lines + [_END] * (len(results) - len(lines))


def _outcome(value: object) -> object:
    # Exceptions compare by type and message, so two runs can be compared.
    if isinstance(value, BaseException):
        return ("raised", type(value).__name__, str(value))
    return value


def _samples(roots: list[str]) -> tuple[list[str], str]:
    lines: list[str] = []
    for root in roots:
        folder = Path(root) / "samples"
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                lines.extend(line.strip() for line in text.split("\n") if line.strip())
        if lines:
            return lines[:_MAX_SAMPLE_LINES], f"{len(lines)} sample lines from {folder}"
    from linewise_contracts.compliance._fuzz import GENERIC_SAMPLES

    return list(GENERIC_SAMPLES), "generic inputs (the plugin ships no samples/ directory)"


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


class _Checker:
    def __init__(self, config: dict[str, Any], monitor: Monitor, results: _Results) -> None:
        self.config = config
        self.monitor = monitor
        self.results = results
        self.hangs = False

    def adapter(self, adapter_type: str, value: str) -> None:
        out = self.results
        at = adapter_type
        out.running(at, "import")
        module = value.split(":", 1)[0].strip()
        roots = _roots(module)
        if not roots:
            out.result(at, "import", "fail", f"module {module!r} cannot be found on sys.path")
            return
        self.monitor.roots = tuple(roots)
        error: BaseException | None = None
        target: object = None
        with self.monitor.watching("import") as changes:
            try:
                with _time_limit(self.config["line_timeout"] * 4):
                    target = _load(value)
            except (Exception, SystemExit, _Hang) as caught:
                error = caught
        if error is not None:
            out.result(at, "import", "fail", f"importing {value} failed: {describe_error(error)}")
            return
        out.result(at, "import", "pass", f"{value} imports cleanly")
        self._side_effects(at, "import.side_effects", "import", changes)

        out.running(at, "exports")
        factory = getattr(target, CREATE_STDOUT_PARSER, None)
        static = getattr(target, PARSE_STDOUT_LINE, None)
        problem = exports_problem(factory, static)
        if problem is None and factory is not None:
            broken = parser_problem(factory)
            problem = None if broken is None else broken[:2]
        if problem is not None:
            out.result(at, "exports", "fail", problem[0], [f"hint: {problem[1]}"])
            return
        kinds = [
            name
            for name, value_ in ((CREATE_STDOUT_PARSER, factory), (PARSE_STDOUT_LINE, static))
            if value_
        ]
        out.result(at, "exports", "pass", "exports " + " and ".join(kinds))

        new_parser: Callable[[], Any]
        if factory is not None:
            new_parser = factory
        else:
            parse: Callable[[str, str], Any] = static  # type: ignore[assignment]
            new_parser = lambda: _StaticParser(parse)  # noqa: E731
        samples, source = _samples(roots)
        self._parsing(at, new_parser, samples, source, stateful=factory is not None)
        self._fuzz(at, new_parser, samples)
        self._cost(at, new_parser, samples)

    def _side_effects(self, at: str, check: str, phase: str, changes: list[str]) -> None:
        events = [event.describe() for event in self.monitor.events if event.phase == phase]
        found = events + changes
        if found:
            self.results.result(
                at,
                check,
                "fail",
                f"{len(found)} side effect(s) during {phase}: a parser must not touch files, "
                "the network, subprocesses, the environment or global state",
                found[:20],
            )
        else:
            self.results.result(at, check, "pass", f"no side effects during {phase}")

    def _parsing(
        self,
        at: str,
        new_parser: Callable[[], Any],
        samples: list[str],
        source: str,
        *,
        stateful: bool,
    ) -> None:
        out = self.results
        limit = self.config["line_timeout"]
        out.running(at, "parse.valid")
        with self.monitor.watching("parsing") as changes:
            first = _run(new_parser(), samples, limit)
            second = _run(new_parser(), samples, limit)
            reused = new_parser()
            _run(reused, samples, limit)
            reused.reset()
            after_reset = _run(reused, samples, limit)
        problems = []
        kinds: Counter[str] = Counter()
        for number, (line, result) in enumerate(
            zip(_labels(samples, first), first, strict=True), 1
        ):
            self.hangs = self.hangs or isinstance(result, _Hang)
            if isinstance(result, BaseException):
                problems.append(f"line {number}: raised {describe_error(result)}: {_short(line)}")
                continue
            problem = _line_problem(result, line)
            if problem:
                problems.append(f"line {number}: {problem}: {_short(line)}")
            else:
                kinds.update(entry["kind"] for entry in result)
        figures = {"lines": len(samples), "entries": sum(kinds.values()), "kinds": dict(kinds)}
        if problems:
            out.result(
                at,
                "parse.valid",
                "fail",
                f"{len(problems)} of {len(samples)} lines ({source}) break the contract",
                problems[:_SHOWN],
                figures,
            )
        else:
            out.result(at, "parse.valid", "pass", f"every entry valid on {source}", None, figures)

        out.running(at, "parse.deterministic")
        differing = [
            n
            for n, (a, b) in enumerate(zip(first, second, strict=True), 1)
            if _outcome(a) != _outcome(b)
        ]
        if differing:
            number = differing[0]
            out.result(
                at,
                "parse.deterministic",
                "fail",
                f"a fresh parser gives different output on {len(differing)} line(s)",
                [
                    f"line {number}: {_short(_labels(samples, first)[number - 1])}: "
                    f"{_short(_outcome(first[number - 1]))} then "
                    f"{_short(_outcome(second[number - 1]))}"
                ],
            )
        else:
            out.result(
                at,
                "parse.deterministic",
                "pass",
                "the same lines give the same entries from fresh parsers",
            )

        out.running(at, "parse.reset")
        if not stateful:
            out.result(at, "parse.reset", "pass", "static parser: nothing to reset")
        else:
            differing = [
                n
                for n, (a, b) in enumerate(zip(first, after_reset, strict=True), 1)
                if _outcome(a) != _outcome(b)
            ]
            if differing:
                number = differing[0]
                out.result(
                    at,
                    "parse.reset",
                    "fail",
                    "reset() does not return the parser to its fresh state",
                    [
                        f"after reset, line {number} gives "
                        f"{_short(_outcome(after_reset[number - 1]))} instead of "
                        f"{_short(_outcome(first[number - 1]))}"
                    ],
                )
            else:
                out.result(
                    at, "parse.reset", "pass", "after reset() the parser behaves like a fresh one"
                )
        self._side_effects(at, "parse.side_effects", "parsing", changes)

    def _fuzz(self, at: str, new_parser: Callable[[], Any], samples: list[str]) -> None:
        out = self.results
        out.running(at, "parse.never_throws")
        examples = self.config["examples"]
        if examples <= 0:
            out.result(at, "parse.never_throws", "skip", "fuzzing disabled (--examples 0)")
            return
        if self.hangs:
            # Every shrinking step would wait out the time limit again.
            out.result(
                at, "parse.never_throws", "skip", "not fuzzed: the parser hangs on sample lines"
            )
            return
        try:
            from hypothesis import HealthCheck, Phase, find, settings
            from hypothesis.errors import NoSuchExample

            from linewise_contracts.compliance._fuzz import line_batches
        except ImportError:
            out.result(
                at,
                "parse.never_throws",
                "skip",
                "hypothesis is not installed: pip install 'linewise-contracts[testing]'",
            )
            return
        limit = self.config["line_timeout"]
        reasons: dict[tuple[str, ...], str] = {}

        def breaks(lines: list[str]) -> bool:
            one = _run(new_parser(), lines, limit)
            labels = _labels(lines, one)
            for index, result in enumerate(one):
                problem = (
                    f"raised {describe_error(result)}"
                    if isinstance(result, BaseException)
                    else _line_problem(result, "" if labels[index] == _END else labels[index])
                )
                if problem:
                    reasons[tuple(lines)] = f"line {index + 1}: {problem}"
                    return True
            two = _run(new_parser(), lines, limit)
            if [_outcome(v) for v in one] != [_outcome(v) for v in two]:
                reasons[tuple(lines)] = "not deterministic: two fresh parsers disagree"
                return True
            return False

        started = time.perf_counter()
        try:
            found = find(
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
        except NoSuchExample:
            seconds = time.perf_counter() - started
            out.result(
                at,
                "parse.never_throws",
                "pass",
                f"{examples} hostile inputs: no exception, no invalid entry",
                None,
                {"examples": examples, "seconds": round(seconds, 2)},
            )
            return
        reason = reasons.get(tuple(found), "fails")
        out.result(
            at,
            "parse.never_throws",
            "fail",
            f"minimal failing input found: {reason}",
            [f"lines: {_short(found, 600)}"],
            {"examples": examples},
        )

    def _cost(self, at: str, new_parser: Callable[[], Any], samples: list[str]) -> None:
        out = self.results
        out.running(at, "cost")
        limit = self.config["line_timeout"]
        parser = new_parser()
        times = []
        for line in samples:
            start = time.perf_counter()
            try:
                with _time_limit(limit):
                    parser.parse_line(line, TS)
            except (Exception, _Hang):
                pass
            times.append(time.perf_counter() - start)
        big_json = json.dumps(
            {"type": "assistant", "text": "x" * 1_000_000, "items": list(range(20_000))}
        )
        big_text = "word " * 200_000
        deep = "[" * 5000 + "]" * 5000
        large: dict[str, dict[str, float]] = {}
        for name, line in (
            ("1 MB JSON line", big_json),
            ("1 MB text line", big_text),
            ("5000-deep JSON", deep),
        ):
            tracemalloc.start()
            start = time.perf_counter()
            try:
                with _time_limit(limit * 4):
                    new_parser().parse_line(line, TS)
            except (Exception, _Hang):
                pass
            seconds = time.perf_counter() - start
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            large[name] = {
                "seconds": round(seconds, 4),
                "peakMemoryMB": round(peak / 1e6, 2),
                "inputMB": round(len(line) / 1e6, 2),
            }
        median = statistics.median(times) if times else 0.0
        figures = {
            "sampleLines": len(times),
            "medianMicroseconds": round(median * 1e6, 1),
            "p95Microseconds": round(sorted(times)[int(len(times) * 0.95)] * 1e6, 1)
            if times
            else 0,
            "maxMicroseconds": round(max(times) * 1e6, 1) if times else 0,
            "large": large,
        }
        over = []
        line_budget = self.config["budget_line_seconds"]
        large_budget = self.config["budget_large_seconds"]
        if median > line_budget:
            over.append(
                f"median {median * 1e6:.0f} µs per sample line (budget {line_budget * 1e6:.0f} µs)"
            )
        for name, figure in large.items():
            if figure["seconds"] > large_budget:
                over.append(f"{name}: {figure['seconds']:.2f} s (budget {large_budget} s)")
            if figure["peakMemoryMB"] > figure["inputMB"] * 20 + 5:
                over.append(
                    f"{name}: {figure['peakMemoryMB']} MB peak for {figure['inputMB']} MB "
                    "of input (budget 20x + 5 MB)"
                )
        summary = f"median {median * 1e6:.0f} µs per sample line; " + "; ".join(
            f"{n}: {f['seconds']:.3f} s, {f['peakMemoryMB']} MB" for n, f in large.items()
        )
        if over:
            out.result(at, "cost", "warn", "over budget: " + "; ".join(over), [summary], figures)
        else:
            out.result(at, "cost", "pass", summary, None, figures)


def _limit_memory(megabytes: int) -> None:
    try:
        import resource

        limit = megabytes * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not on every platform
        pass


def main(argv: list[str]) -> int:
    """Run the checks described by the CONFIG file, writing results to RESULTS."""
    config = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    results = _Results(argv[2])
    _limit_memory(config["memory_limit_mb"])
    sys.path[:0] = config["paths"]
    monitor = Monitor()
    monitor.install()
    checker = _Checker(config, monitor, results)
    for adapter_type, value in config["entry_points"]:
        checker.adapter(adapter_type, value)
    results._write({"done": True})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
