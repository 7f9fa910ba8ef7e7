"""What the contract 1.5 summary fields mean, checked wherever a plugin emits them.

:func:`linewise_contracts.validation.entry_problem` checks their types; a
host's run fold also relies on what they say, so a value of the right type
that says something else would make every run summary wrong:

- a ``result``'s ``costSource`` null means no cost is known: its ``costUsd``
  is then the wire's 0, and with a source the cost is not negative;
- its ``outcome`` agrees with ``isError``: ``failed``, ``max_turns`` and
  ``budget`` are failures, ``completed`` is none;
- its ``sessionId`` names a session (never ""), and its ``usage`` reports at
  least one count (a usage of nulls would replace what the session's earlier
  result reported with nothing: leave the field out instead);
- results naming one session carry that session's figures so far, so a later
  one never reports fewer tokens, or a smaller reported cost, than an earlier;
- a ``tool_call`` with ``startsSubagent`` true has a ``toolUseId``, which its
  subagent's entries name as their ``parentToolUseId``;
- contract 1.9: a result's ``modelUsage`` is its ``usage`` split by model, so
  where both give a count the models' counts add up to no more than it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.outcomes import FAILED_OUTCOMES

__all__ = ["SessionFigures", "entry_meaning_problem"]

_COUNTS: Final = ("uncachedInput", "cacheRead", "cacheWrite", "output", "reasoning")
#: Sessions whose figures are remembered for the "never fewer" rule (sample runs are small).
_SESSIONS: Final = 1000


def entry_meaning_problem(entry: Mapping[str, Any]) -> str | None:
    """Why a valid entry's contract 1.5 fields say something they cannot mean, or None."""
    kind = entry.get("kind")
    if kind == "tool_call":
        if entry.get("startsSubagent") is True and not entry.get("toolUseId"):
            return (
                "a tool_call with startsSubagent true has no toolUseId, so its subagent's "
                "entries cannot name it"
            )
        return None
    if kind != "result":
        return None
    if "costSource" in entry:
        source, cost = entry["costSource"], entry["costUsd"]
        if source is None and cost != 0:
            return (
                f"a result with costSource null (no cost known) has costUsd {cost!r}: "
                "it must be the wire's 0"
            )
        if source is not None and cost < 0:
            return f"a result's {source} cost is negative ({cost!r})"
    outcome = entry.get("outcome")
    if outcome in FAILED_OUTCOMES and entry["isError"] is not True:
        return f"a result whose outcome is {outcome!r} (a failure) has isError false"
    if outcome == "completed" and entry["isError"] is True:
        return "a result whose outcome is 'completed' has isError true"
    if "sessionId" in entry and not entry["sessionId"]:
        return "a result's sessionId is empty: leave it out when the session is not known"
    usage = entry.get("usage")
    if usage is not None and all(usage.get(key) is None for key in _COUNTS):
        return (
            "a result's usage reports no count: leave usage out when the CLI reported none "
            "(null counts would replace the session's earlier figures)"
        )
    models = entry.get("modelUsage")
    if usage is not None and models:
        return _models_problem(usage, models)
    return None


def _models_problem(usage: Mapping[str, Any], models: Mapping[str, Any]) -> str | None:
    """Why a result's usage per model (contract 1.9) counts more than its usage, or None."""
    for key in _COUNTS:
        total = usage.get(key)
        counts = [count.get(key) for count in models.values()]
        if type(total) is int and all(type(count) is int for count in counts):
            spent = sum(counts)
            if spent > total:
                return (
                    f"a result's modelUsage counts {key} {spent} over its models, more than "
                    f"its usage ({total}): modelUsage is the same tokens split by model"
                )
    return None


class SessionFigures:
    """The figures of each session its results named so far, for the "never fewer" rule."""

    def __init__(self) -> None:
        self._usage: dict[str, Mapping[str, Any]] = {}
        self._costs: dict[str, float] = {}

    def problem(self, entry: Mapping[str, Any]) -> str | None:
        """Why a result reports fewer of its session's figures than an earlier one, or None."""
        session = entry.get("sessionId") if entry.get("kind") == "result" else None
        if not isinstance(session, str) or not session:
            return None
        usage, problem = entry.get("usage"), None
        before = self._usage.get(session)
        if usage is not None and before is not None:
            for key in _COUNTS:
                old, new = before.get(key), usage.get(key)
                if type(old) is int and type(new) is int and new < old:
                    problem = (
                        f"a result of session {session!r} reports {key} {new}, fewer than an "
                        f"earlier result of it ({old}): with its sessionId a result carries "
                        "the session's figures so far"
                    )
                    break
        cost = entry["costUsd"] if entry.get("costSource") is not None else None
        earlier = self._costs.get(session)
        if problem is None and cost is not None and earlier is not None and cost < earlier:
            problem = (
                f"a result of session {session!r} reports a cost of {cost!r}, less than an "
                f"earlier result of it ({earlier!r}): with its sessionId a result's cost is the "
                "session's so far"
            )
        known = session in self._usage or session in self._costs
        if known or len(self._usage) + len(self._costs) < _SESSIONS:
            if usage is not None:
                self._usage[session] = usage
            if cost is not None:
                self._costs[session] = float(cost)
        return problem
