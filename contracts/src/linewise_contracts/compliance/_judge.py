"""Verdicts from what the worker observed: the parent's judgement, plugin code never runs here.

The worker sends what each call into the plugin gave back, as an *outcome*:
``("value", plain_value)``, ``("raised", "Type: message")``, ``("hang",
"...")`` or ``("unsendable", reason)`` for a value that is not plain data. The
same functions judge in the worker (to steer the fuzzing) and in the parent
(for the verdicts it reports), so a plugin that tampers with the worker's copy
cannot change what the parent concludes from the observations.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Final, TypeAlias

from linewise_contracts.compliance._meanings import SessionFigures, entry_meaning_problem
from linewise_contracts.compliance._results import CheckResult
from linewise_contracts.protocols import COMPACT_ROLES
from linewise_contracts.validation import entry_problem, json_problem

__all__ = [
    "END",
    "Outcome",
    "batch_problem",
    "line_problem",
    "optional_verdict",
    "parse_verdicts",
    "short",
]

Outcome: TypeAlias = tuple[Any, ...]

#: The label of a ``finish()`` result: it belongs to no line.
END: Final = "(end of stream)"
_SHOWN: Final = 5

# The host's per-line budgets (linewise TranscriptSession): beyond them entries are dropped.
_MAX_ENTRIES: Final = 10_000
_OUTPUT_FACTOR: Final = 16
_OUTPUT_FLOOR: Final = 1024 * 1024
_MAX_LABEL: Final = 100


def short(value: object, limit: int = 300) -> str:
    """``repr`` cut to ``limit`` characters, never raising."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


def _failure(outcome: Outcome) -> str | None:
    """What went wrong with a call, when it did not return a plain value."""
    if type(outcome) is not tuple or len(outcome) != 2 or type(outcome[0]) is not str:
        return f"sent an observation the checker cannot read: {short(outcome, 80)}"
    tag, payload = outcome
    if tag == "value":
        return None
    if tag == "raised":
        return f"raised {payload}"
    if tag == "hang":
        return f"hung: {payload}"
    if tag == "unsendable":
        return f"returned a value that is not plain data: {payload}"
    return f"sent an observation the checker cannot read: {short(outcome, 80)}"


def line_problem(outcome: Outcome, line: str) -> str | None:
    """Why one parse_line (or finish) outcome breaks the contract, or None."""
    failure = _failure(outcome)
    if failure is not None:
        return failure
    result = outcome[1]
    if type(result) is not list:
        return f"returned {type(result).__name__}, not a list"
    if len(result) > _MAX_ENTRIES:
        return f"returned {len(result)} entries for one line (a host keeps {_MAX_ENTRIES})"
    size = 0
    for entry in result:
        problem = entry_problem(entry)
        if problem is not None:
            return f"invalid entry: {problem}"
        problem = entry_meaning_problem(entry)  # contract 1.5's fields, where emitted
        if problem is not None:
            return f"entry breaks the contract's meaning: {problem}"
        size += len(entry.get("text") or entry.get("content") or "")
    budget = _OUTPUT_FACTOR * len(line) + _OUTPUT_FLOOR
    if size > budget:
        return (
            f"returned {size:,} characters of text for a {len(line):,}-character line "
            f"(a host keeps {budget:,})"
        )
    return None


def _same(one: object, two: object) -> bool:
    """Equality that survives self-referencing values (their invalidity is reported anyway)."""
    try:
        return bool(one == two)
    except Exception:
        return True


def _labels(lines: list[str], outcomes: list[Outcome]) -> list[str]:
    return lines + [END] * (len(outcomes) - len(lines))


def _shape(record: tuple[Any, ...], size: int) -> bool:
    return type(record) is tuple and len(record) == size


def parse_verdicts(at: str, record: tuple[Any, ...]) -> list[CheckResult]:
    """parse.valid, parse.deterministic and parse.reset from the sample runs.

    ``record`` is ``("parse", at, source, lines, stateful, first, second, after_reset)``.
    """
    if not _shape(record, 8):
        return [CheckResult("parse.valid", "fail", "the worker sent a malformed observation", at)]
    _, _, source, lines, stateful, first, second, after_reset = record
    if not all(type(item) is list for item in (lines, first, second, after_reset)) or not (
        len(first) == len(second) == len(after_reset) >= len(lines)
    ):
        return [CheckResult("parse.valid", "fail", "the worker sent a malformed observation", at)]
    labels = _labels(lines, first)
    problems = []
    kinds: Counter[str] = Counter()
    sessions = SessionFigures()
    for number, (line, outcome) in enumerate(zip(labels, first, strict=True), 1):
        problem = line_problem(outcome, line)
        if problem is None:
            problem = next(filter(None, map(sessions.problem, outcome[1])), None)
        if problem:
            problems.append(f"line {number}: {problem}: {short(line)}")
        else:
            kinds.update(entry["kind"] for entry in outcome[1])
    figures = {"lines": len(lines), "entries": sum(kinds.values()), "kinds": dict(kinds)}
    results = []
    if problems:
        results.append(
            CheckResult(
                "parse.valid",
                "fail",
                f"{len(problems)} of {len(lines)} lines ({source}) break the contract",
                at,
                tuple(problems[:_SHOWN]),
                figures,
            )
        )
    else:
        results.append(
            CheckResult("parse.valid", "pass", f"every entry valid on {source}", at, (), figures)
        )
    differing = [
        n for n, (a, b) in enumerate(zip(first, second, strict=True), 1) if not _same(a, b)
    ]
    if differing:
        number = differing[0]
        results.append(
            CheckResult(
                "parse.deterministic",
                "fail",
                f"a fresh parser gives different output on {len(differing)} line(s)",
                at,
                (
                    f"line {number}: {short(labels[number - 1])}: "
                    f"{short(first[number - 1])} then {short(second[number - 1])}",
                ),
            )
        )
    else:
        results.append(
            CheckResult(
                "parse.deterministic",
                "pass",
                "the same lines give the same entries from fresh parsers",
                at,
            )
        )
    if stateful is not True:
        results.append(CheckResult("parse.reset", "pass", "static parser: nothing to reset", at))
        return results
    differing = [
        n for n, (a, b) in enumerate(zip(first, after_reset, strict=True), 1) if not _same(a, b)
    ]
    if differing:
        number = differing[0]
        results.append(
            CheckResult(
                "parse.reset",
                "fail",
                "reset() does not return the parser to its fresh state",
                at,
                (
                    f"after reset, line {number} gives {short(after_reset[number - 1])} "
                    f"instead of {short(first[number - 1])}",
                ),
            )
        )
    else:
        results.append(
            CheckResult(
                "parse.reset", "pass", "after reset() the parser behaves like a fresh one", at
            )
        )
    return results


# -- the optional exports ------------------------------------------------------------


def _finite(value: object) -> bool:
    return (type(value) is int and json_problem(value) is None) or (
        type(value) is float and math.isfinite(value)
    )


def sniff_problem(outcome: Outcome) -> str | None:
    """A sniff score must be a finite number from 0 to 1 (a bool is not a score)."""
    failure = _failure(outcome)
    if failure is not None:
        return failure
    score = outcome[1]
    if not _finite(score):
        return f"returned {short(score, 60)}, not a finite number"
    if not 0 <= score <= 1:
        return f"returned {short(score, 60)}, outside 0 to 1"
    return None


def format_problem(outcome: Outcome) -> str | None:
    """A compact formatter returns a list of ``(role, text)`` tuples with known roles."""
    failure = _failure(outcome)
    if failure is not None:
        return failure
    lines = outcome[1]
    if type(lines) is not list:
        return f"returned {type(lines).__name__}, not a list"
    for index, item in enumerate(lines):
        if type(item) is not tuple or len(item) != 2:
            return f"[{index}] is {short(item, 60)}, not a (role, text) tuple"
        role, text = item
        if role not in COMPACT_ROLES:
            return f"[{index}] has the unknown role {short(role, 40)}"
        if type(text) is not str:
            return f"[{index}] has a {type(text).__name__} text, not a str"
    return None


_SUMMARY_TYPES: Final = {
    "sessionId": (str, type(None)),
    "model": (str, type(None)),
    "finalText": (str, type(None)),
    "outcome": (str, type(None)),
    "isError": (bool,),
    "unknownSession": (bool,),
    "complete": (bool,),
    "errors": (list,),
    "details": (dict,),
}


def summary_problem(outcome: Outcome) -> str | None:
    """A run summary: a RunSummary whose JSON form holds plain, finite values."""
    failure = _failure(outcome)
    if failure is not None:
        return failure
    summary = outcome[1]
    if type(summary) is not dict:
        return f"returned {short(summary, 60)}, not a RunSummary"
    problem = json_problem(summary)
    if problem is not None:
        return f"the summary {problem}"
    for name, kinds in _SUMMARY_TYPES.items():
        if type(summary.get(name)) not in kinds:
            return f"the summary's {name} is {short(summary.get(name), 60)}"
    usage = summary.get("usage")
    if type(usage) is not dict or not all(
        _finite(usage.get(name)) for name in ("inputTokens", "outputTokens", "cachedTokens")
    ):
        return f"the summary's usage is {short(usage, 100)}, not three finite token counts"
    tokens = summary.get("tokenUsage", {})
    if type(tokens) is not dict or not all(
        value is None or (type(value) is int and value >= 0) for value in tokens.values()
    ):
        return f"the summary's tokenUsage is {short(tokens, 100)}, not token counts or nulls"
    cost, turns = summary.get("costUsd"), summary.get("turns")
    if cost is not None and not _finite(cost):
        return f"the summary's costUsd is {short(cost, 60)}, not a finite number or None"
    if turns is not None and type(turns) is not int:
        return f"the summary's turns is {short(turns, 60)}, not an int or None"
    return None


def environment_problem(outcome: Outcome) -> str | None:
    """Environment checks: a list of EnvironmentCheck (sent in their JSON form)."""
    failure = _failure(outcome)
    if failure is not None:
        return failure
    checks = outcome[1]
    if type(checks) is not list:
        return f"returned {short(checks, 60)}, not a list of EnvironmentCheck"
    for index, check in enumerate(checks):
        if type(check) is not dict:
            return f"[{index}] is {short(check, 60)}, not an EnvironmentCheck"
        if check.get("level") not in ("info", "warn", "error"):
            return f"[{index}] has the level {short(check.get('level'), 40)}"
        if type(check.get("code")) is not str or type(check.get("message")) is not str:
            return f"[{index}] needs a str code and message"
    return None


def metadata_problem(outcome: Outcome) -> str | None:
    """``("label" | "models" | "agent_configuration_doc", value)`` pairs, one per export."""
    failure = _failure(outcome)
    if failure is not None:
        return failure
    name, value = outcome[1]
    if value is None:
        return None  # not exported: the host uses its defaults
    if name == "label":
        if type(value) is not str or not value.strip():
            return f"label is {short(value, 60)}, not a non-empty str"
        if len(value) > _MAX_LABEL or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in value):
            return f"label {short(value, 60)} is not one short printable line"
    elif name == "models":
        if type(value) is not list or not all(
            type(item) is dict and type(item.get("id")) is str and type(item.get("label")) is str
            for item in value
        ):
            return f"models is {short(value, 80)}, not a list of {{'id': str, 'label': str}}"
    elif type(value) is not str:
        return f"{name} is {short(value, 60)}, not a str"
    return None


PROBLEMS: Final = {
    "metadata.exports": metadata_problem,
    "sniff": sniff_problem,
    "summarize_run": summary_problem,
    "format_stdout_line": format_problem,
    "format_entries": format_problem,
    "check_environment": environment_problem,
}


def observation_problem(check: str, observation: object) -> str | None:
    """One ``(label, outcome, outcome_again)`` of an optional export, judged."""
    if type(observation) is not tuple or len(observation) != 3:
        return "the worker sent a malformed observation"
    label: object = observation[0]
    outcome: Outcome = observation[1]
    again: Outcome = observation[2]
    problem = PROBLEMS[check](outcome)
    if problem is None and not _same(outcome, again):
        problem = f"not deterministic: {short(outcome, 80)} then {short(again, 80)}"
    return None if problem is None else f"{short(label, 80)}: {problem}"


def optional_verdict(at: str, record: tuple[Any, ...]) -> CheckResult:
    """The verdict on one optional export from ``("optional", at, check, observations)``."""
    check = record[2] if _shape(record, 4) and record[2] in PROBLEMS else None
    if check is None:
        return CheckResult("checker.integrity", "fail", "the worker sent a malformed record", at)
    observations = record[3]
    if observations is None:
        return CheckResult(check, "skip", "not exported", at)
    if type(observations) is not list:
        return CheckResult(check, "fail", "the worker sent a malformed observation", at)
    problems = [
        problem
        for observation in observations
        if (problem := observation_problem(check, observation)) is not None
    ]
    if problems:
        return CheckResult(
            check,
            "fail",
            f"{len(problems)} of {len(observations)} calls break the contract",
            at,
            tuple(problems[:_SHOWN]),
        )
    count = len(observations)
    calls = "1 call" if count == 1 else f"{count} calls"
    return CheckResult(check, "pass", f"{calls}, every result valid", at)


def batch_problem(
    lines: list[str], one: list[Outcome], two: list[Outcome], extras: list[Any]
) -> str | None:
    """Why one fuzzed batch breaks the contract: its parse runs, then the optional exports.

    ``extras`` holds ``(check, (label, outcome, outcome_again))`` for the
    optional exports called on the same lines.
    """
    for index, (label, outcome) in enumerate(zip(_labels(lines, one), one, strict=False)):
        problem = line_problem(outcome, "" if label == END else label)
        if problem:
            return f"line {index + 1}: {problem}"
    if not _same(one, two):
        return "not deterministic: two fresh parsers disagree"
    for check, observation in extras:
        if check not in PROBLEMS:
            return "the worker sent a malformed observation"
        problem = observation_problem(check, observation)
        if problem:
            return f"{check}: {problem}"
    return None
