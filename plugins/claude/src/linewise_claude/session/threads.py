"""Which Task/Agent call each subagent record of a Claude Code session answers to."""

from __future__ import annotations

from typing import Any, Final, TypeVar

from linewise_contracts.extract import BoundedMap, as_list, as_object, as_string

__all__ = ["REMEMBERED", "Threads", "remember"]

_V = TypeVar("_V")
#: Ids remembered at most (calls, agents, records): a long session cannot grow them unbounded.
REMEMBERED: Final = 4096
_DELEGATE_TOOLS: Final = ("Task", "Agent")


def _prompt_text(record: dict[str, Any]) -> str:
    content = as_object(record.get("message")).get("content")
    if type(content) is str:
        return content
    for block in as_list(content):
        text = as_object(block).get("text")
        if type(text) is str:
            return text
    return ""


def remember(items: dict[str, _V], key: str, value: _V) -> None:
    """``items[key] = value``, forgetting the oldest key past :data:`REMEMBERED`."""
    items[key] = value
    if len(items) > REMEMBERED:
        del items[next(iter(items))]


class Threads:
    """Which Task/Agent tool call each sidechain record belongs to (subagents' nesting)."""

    __slots__ = ("agents", "by_uuid", "pending")

    def __init__(self) -> None:
        # call id -> its prompt, oldest first (a dict keeps order; bounded by _remember).
        self.pending: dict[str, str] = {}
        self.agents: BoundedMap[str, str] = BoundedMap(REMEMBERED)  # agentId -> call id
        self.by_uuid: BoundedMap[str, str] = BoundedMap(REMEMBERED)  # record uuid -> call id

    def delegated(self, record: dict[str, Any]) -> None:
        """Remember the Task/Agent calls of an assistant record, with their prompts."""
        for item in as_list(as_object(record.get("message")).get("content")):
            block = as_object(item)
            ident = block.get("id")
            delegate = block.get("type") == "tool_use" and block.get("name") in _DELEGATE_TOOLS
            if delegate and type(ident) is str and ident:
                prompt = as_string(as_object(block.get("input")).get("prompt"))
                remember(self.pending, ident, prompt)

    def answered(self, record: dict[str, Any]) -> None:
        """A user record's tool results: their calls are done; a result may name its agent."""
        details = as_object(record.get("toolUseResult"))
        agent = details.get("agentId")
        for block in as_list(as_object(record.get("message")).get("content")):
            ident = as_object(block).get("tool_use_id")
            if type(ident) is not str or ident not in self.pending:
                continue
            del self.pending[ident]
            if type(agent) is str and agent:
                self.agents[agent] = ident

    def parent(self, record: dict[str, Any], subagent: str | None) -> str | None:
        """The call a record's subagent answers to, or None on the main thread."""
        agent = record.get("agentId")
        if type(agent) is str and agent in self.agents:
            parent: str | None = self.agents.get(agent)
        elif subagent is not None and record.get("isSidechain") is not False:
            # A record after a subagent file's line is that subagent's, unless it says it is
            # the main thread's (a followed session lists the main file's new records later).
            parent = subagent
        elif record.get("isSidechain") is not True:
            return None
        else:
            parent = self._inline(record)
        uuid = record.get("uuid")
        if parent and type(uuid) is str:
            self.by_uuid[uuid] = parent
        return parent

    def _inline(self, record: dict[str, Any]) -> str | None:
        """A sidechain written in the main file (Claude Code 1.x): its root matches a prompt."""
        up = record.get("parentUuid")
        if type(up) is str and up in self.by_uuid:
            return self.by_uuid.get(up)
        if up is not None or record.get("type") != "user" or not self.pending:
            return None
        prompt = _prompt_text(record)
        last: str | None = None
        for ident, asked in self.pending.items():
            if asked == prompt:
                return ident
            last = ident
        return last
