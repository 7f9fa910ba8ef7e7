"""Tool calls as collapsible cards holding their result, and the subagent block a call starts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.extract import BoundedMap, to_json_text

from linewise.render.html.markup import escaped, line_count, lines_label, shortened
from linewise.render.html.paging import PageState
from linewise.render.html.tools import tool_input, tool_summary
from linewise.render.preview import one_line, subagent_label, tool_preview

__all__ = ["ToolCards"]

#: Tool calls still waiting for their result that are remembered for pairing.
_PENDING_CALLS: Final = 10_000
_PREVIEW: Final = 160
_IDS: Final = (
    ("id", "toolUseId"),
    ("invocation", "invocationId"),
    ("action request", "actionRequestId"),
)


def _preview(value: object) -> str:
    preview = tool_preview(value, _PREVIEW)
    if preview is not None:
        return preview.text
    if value in (None, {}, [], ""):
        return ""
    return one_line(to_json_text(value)[: _PREVIEW * 4], _PREVIEW)


def _subagent_block(agent: str) -> str:
    return (
        f'<details class="subagent" open><summary><span class="kind">subagent</span>'
        f'<span class="preview">{escaped(agent)}</span>'
        '<span class="meta sub-count"></span></summary>'
        '<div class="sub-entries"></div></details>'
    )


class ToolCards:
    """Pairs each tool result with its call (by ``toolUseId``) and a subagent's entries with theirs.

    The last card stays open so a result that follows at once is written inside
    it; a later result carries ``data-call`` and the script moves it into its card.
    """

    def __init__(self, page: PageState) -> None:
        self._page = page
        # toolUseId -> (card element id, tool name) of calls still waiting for a result.
        self._pending: dict[str, tuple[str, str]] = {}
        # toolUseId -> card element id of calls that started a subagent.
        self._subagents: BoundedMap[str, str] = BoundedMap(_PENDING_CALLS)
        self._open = False
        self._open_use_id: str | None = None

    def nest_of(self, entry: Mapping[str, Any]) -> str:
        """The nesting attribute of an entry: inside its subagent's card, or marked orphan."""
        parent = entry.get("parentToolUseId")
        if not isinstance(parent, str) or not parent:
            return ""
        card = self._subagents.get(parent)
        # A parent call this page never showed: the entry stays where it is, marked.
        return f' data-parent="{card}"' if card else ' data-orphan-parent=""'

    def answers_open_card(self, entry: Mapping[str, Any]) -> bool:
        """Whether ``entry`` is the result of the card still open (written inside it)."""
        return self._open and self._open_use_id == entry["toolUseId"]

    def end(self) -> None:
        """Close the open card, if any."""
        if self._open:
            self._page.write("</div></div></details>\n")
            self._open = False
            self._open_use_id = None

    def _remember(self, use_id: object, ident: str, name: str) -> str | None:
        if not isinstance(use_id, str) or not use_id:
            return None
        self._pending.pop(use_id, None)
        self._pending[use_id] = (ident, name)
        if len(self._pending) > _PENDING_CALLS:
            # The oldest unanswered call is forgotten; a late result shows as unpaired.
            del self._pending[next(iter(self._pending))]
        return use_id

    def write_call(self, entry: Mapping[str, Any]) -> None:
        """Open the card of a tool call: its input, a subagent block, a slot for its result."""
        page = self._page
        ident = page.next_id()
        page.figures.tool_calls += 1
        if page.nest:
            page.figures.subagent_calls += 1
        name = entry["name"] if isinstance(entry.get("name"), str) else ""
        use_id = self._remember(entry.get("toolUseId"), ident, name)
        value = entry.get("input")
        agent = subagent_label(name, value, marker=entry.get("startsSubagent"))
        subagent = badge = ""
        if agent is not None and use_id is not None:
            self._subagents[use_id] = ident
            badge = '<span class="sub-badge"></span>'
            subagent = _subagent_block(agent)
        ids = "".join(
            f" · {label} <code>{escaped(entry[key])}</code>"
            for label, key in _IDS
            if isinstance(entry.get(key), str) and entry[key]
        )
        page.write(
            f'<details class="entry tool" id="{ident}"{page.nest}><summary>'
            f'<span class="kind">tool</span><span class="tool-name">{escaped(name)}</span>'
            f'<span class="preview">{escaped(tool_summary(name, value) or _preview(value))}</span>'
            f"{badge}"
            f'<span class="meta"></span><span class="status"></span>{page.time(entry)}</summary>'
            f'<div class="body"><div class="label">input{ids}</div>{tool_input(name, value)}'
            f'{subagent}<div class="slot">'
        )
        self._open = True
        self._open_use_id = use_id

    def write_result(self, entry: Mapping[str, Any], *, inside_card: bool) -> None:
        """A tool result: in its card, linked back to it, or marked as matching no call."""
        page = self._page
        ident = page.next_id()
        use_id = entry["toolUseId"]
        call = self._pending.pop(use_id, None)
        error = entry["isError"] is True
        content: str = entry["content"].rstrip("\n")
        name = entry.get("toolName") or (call[1] if call else "")
        classes = "entry tool-result" + (" is-error" if error else "")
        where = "" if inside_card else page.nest
        if call is None:
            classes += " orphan"
            link = (
                f'<span class="note">no matching tool call{" · " + escaped(name) if name else ""}'
                f" · id <code>{escaped(use_id)}</code></span>"
            )
        else:
            if not inside_card:
                # The card may itself be inside a subagent: the script moves the result.
                where = f' data-call="{call[0]}"'
            link = f'<a class="backlink" href="#{call[0]}">↳ {escaped(name or "tool call")}</a>'
        if error:
            page.figures.error(ident)
        mark = '<span class="err-mark">error</span>' if error else ""
        body = (
            f'<pre class="out scroll">{shortened(content)}</pre>'
            if content
            else '<span class="note">no output</span>'
        )
        page.write(
            f'<section class="{classes}" id="{ident}"{where}><div class="head">'
            f'<span class="kind">tool result</span>{mark}{link}'
            f'<span class="meta lines">{lines_label(line_count(content))}</span>'
            f"{page.time(entry)}</div>{body}</section>\n"
        )
