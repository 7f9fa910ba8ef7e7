"""Subagents: which tool call started which entries, remembered with constant memory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from linewise_contracts.extract import BoundedMap

from linewise.render.preview import subagent_kind, subagent_label

__all__ = ["MAX_SUBAGENTS", "Subagent", "Subagents"]

#: Subagent calls remembered for nesting; the oldest is forgotten first.
MAX_SUBAGENTS: Final = 1024


# A NamedTuple, not a frozen dataclass: building one cost ~4 M instructions at import.
class Subagent(NamedTuple):
    """The call that started a subagent: its label, its number in the view, its depth."""

    label: str
    kind: str
    number: int
    depth: int


class Subagents:
    """Remembers the calls that start subagents, and where an entry with a parent belongs.

    An entry's depth is one more than its parent call's; a parent this view
    never saw (or has forgotten) still nests the entry one level, labelled
    ``subagent``, so nothing from a subagent passes for the main thread.
    """

    def __init__(self, limit: int = MAX_SUBAGENTS) -> None:
        self._calls: BoundedMap[str, Subagent] = BoundedMap(limit)

    def called(self, entry: Mapping[str, Any], number: int) -> Subagent | None:
        """Note a tool call; the subagent it starts, if it starts one."""
        name = entry.get("name")
        ident = entry.get("toolUseId")
        name = name if isinstance(name, str) else ""
        marker = entry.get("startsSubagent")
        label = subagent_label(name, entry.get("input"), marker=marker)
        kind = subagent_kind(name, entry.get("input"), marker=marker)
        if label is None or kind is None or not isinstance(ident, str) or not ident:
            return None
        agent = Subagent(label, kind, number, self.depth(entry))
        self._calls[ident] = agent
        return agent

    def parent(self, entry: Mapping[str, Any]) -> Subagent | None:
        """The subagent that produced ``entry``; None on the main thread."""
        parent = entry.get("parentToolUseId")
        if not isinstance(parent, str) or not parent:
            return None
        return self._calls.get(parent) or Subagent("subagent", "subagent", 0, 0)

    def depth(self, entry: Mapping[str, Any]) -> int:
        """0 on the main thread, 1 inside a subagent, 2 inside a subagent's subagent, ..."""
        parent = self.parent(entry)
        return 0 if parent is None else parent.depth + 1
