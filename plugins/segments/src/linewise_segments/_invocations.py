"""Tool invocations from tool segments: the tool's name and its arguments as a dict."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from ._events import SegmentType
from ._handlers import ArgumentStreamHandler, ToolHandlerRegistry
from ._json import load_json
from ._tags import match_whole_tag

if TYPE_CHECKING:
    from ._coalesce import Segment

#: What each built-in segment type's content is, as an argument.
_CONTENT_ARGUMENT: Final = {
    SegmentType.WRITE_FILE: "content",
    SegmentType.PATCH_FILE: "patch",
    SegmentType.RUN_BASH: "command",
}
_ARGUMENT_KEYS: Final = ("arguments", "parameters", "args", "input")

_TAG_OR_CDATA = re.compile(r"<(?:!\[CDATA\[|/|[A-Za-z_:])")
_CLOSING = re.compile(r"</([A-Za-z_:][\w.:-]*)[ \t\r\n]*>")
_ENTITY = re.compile(r"&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9A-Fa-f]{1,6}));")
_NAMED_ENTITIES: Final = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


@dataclass(frozen=True, slots=True)
class ToolInvocation:
    """One tool call: ``id`` is the segment id (``seg_4.2`` for a second call in one segment)."""

    id: str
    name: str
    arguments: dict[str, object] = field(default_factory=dict)
    truncated: bool = False


def tool_invocations(
    segment: Segment, handlers: ToolHandlerRegistry | None = None
) -> list[ToolInvocation]:
    """The tool calls a segment stands for; none for text, reasoning or unreadable JSON.

    ``handlers`` (the registry the segment was parsed with) tells which
    argument a custom handler streamed as the content. The arguments of a raw
    XML tool call are read from its ``<arg name="...">`` (or ``<name>``)
    elements; ``<item>`` children make a list. Input is never evaluated.
    """
    kind = segment.type
    metadata = segment.metadata
    tool_name = metadata.get("tool_name")
    if kind in (SegmentType.TEXT, SegmentType.REASONING):
        return []
    if kind is not SegmentType.TOOL_CALL:
        return [_streamed_call(segment, tool_name, handlers)]
    if isinstance(tool_name, str):
        raw = metadata.get("arguments")  # a sentinel header carries them
        arguments = dict(raw) if isinstance(raw, dict) else xml_arguments(segment.content)
        return [ToolInvocation(segment.id, tool_name, arguments, segment.truncated)]
    return [
        ToolInvocation(
            segment.id if n == 0 else f"{segment.id}.{n + 1}", name, arguments, segment.truncated
        )
        for n, (name, arguments) in enumerate(json_calls(segment.content))
    ]


def _streamed_call(
    segment: Segment, tool_name: object, handlers: ToolHandlerRegistry | None
) -> ToolInvocation:
    """A write_file / patch_file / run_bash (or custom streamed) segment as a call."""
    kind = segment.type
    name = str(kind)
    content_arg = _CONTENT_ARGUMENT.get(kind, "content")
    arguments = {key: value for key, value in segment.metadata.items() if key != "tool_name"}
    if isinstance(tool_name, str):
        handler = (handlers or ToolHandlerRegistry()).get(tool_name)
        if isinstance(handler, ArgumentStreamHandler):
            content_arg = handler.content_arg
        if tool_name.strip().lower() != name:
            name = tool_name
    if kind is SegmentType.RUN_BASH and content_arg == "command":
        # A shell command has no other argument (a sentinel's "path" is display data).
        arguments = {}
    arguments[content_arg] = segment.content
    return ToolInvocation(segment.id, name, arguments, segment.truncated)


# -- XML arguments ------------------------------------------------------------


class _Element:
    __slots__ = ("children", "key", "name", "text")

    def __init__(self, name: str, key: str) -> None:
        self.name = name
        self.key = key
        self.text: list[str] = []
        self.children: list[_Element] = []

    def value(self) -> object:
        if not self.children:
            return "".join(self.text)
        if all(child.name == "item" for child in self.children):
            return [child.value() for child in self.children]
        return {child.key: child.value() for child in self.children}


def xml_arguments(content: str) -> dict[str, object]:
    """Arguments from tool-call markup; a value left unclosed is ignored.

    Tolerant of what models write: a ``<`` that starts no tag is text, a
    closing tag closes the nearest open element of its name, CDATA is
    unwrapped and the five XML entities (and character references) decoded.
    """
    root = _Element("", "")
    stack = [root]
    pos = 0
    n = len(content)
    while pos < n:
        found = _TAG_OR_CDATA.search(content, pos)
        if found is None:
            stack[-1].text.append(_decode(content[pos:]))
            break
        at = found.start()
        if at > pos:
            stack[-1].text.append(_decode(content[pos:at]))
        if content.startswith("<![CDATA[", at):
            end = content.find("]]>", at + 9)
            stop = n if end < 0 else end
            stack[-1].text.append(content[at + 9 : stop])
            pos = n if end < 0 else end + 3
            continue
        if content.startswith("</", at):
            closing = _CLOSING.match(content, at)
            if closing is None:
                stack[-1].text.append("<")
                pos = at + 1
                continue
            name = closing.group(1).lower()
            for depth in range(len(stack) - 1, 0, -1):
                if stack[depth].name == name:
                    stack[depth - 1].children.append(stack[depth])
                    del stack[depth:]
                    break
            pos = closing.end()
            continue
        tag = match_whole_tag(content, at + 1, n, strict=False)
        if tag is None:
            stack[-1].text.append("<")
            pos = at + 1
            continue
        name, attrs, self_closing, pos = tag
        element = _Element(name, attrs.get("name", name) if name == "arg" else name)
        if self_closing:
            stack[-1].children.append(element)
        else:
            stack.append(element)
    # Cut off: an open element keeps the children it completed; an open value is dropped.
    for depth in range(len(stack) - 1, 0, -1):
        if stack[depth].children:
            stack[depth - 1].children.append(stack[depth])
    # The usual <arguments> wrapper, else (older prompts) the elements themselves.
    wrappers = [child for child in root.children if child.name == "arguments"]
    elements = wrappers[0].children if wrappers else root.children
    return {element.key: element.value() for element in elements}


def _decode(text: str) -> str:
    if "&" not in text:
        return text
    return _ENTITY.sub(_entity, text)


def _entity(found: re.Match[str]) -> str:
    named, decimal, hexadecimal = found.groups()
    if named:
        return _NAMED_ENTITIES[named]
    code = int(decimal) if decimal else int(hexadecimal, 16)
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else found.group()


# -- JSON calls ---------------------------------------------------------------


def json_calls(content: str) -> list[tuple[str, dict[str, object]]]:
    """``(name, arguments)`` for each call in a JSON tool-call blob; [] if it is not JSON.

    Understands the shapes providers use: ``{"name", "arguments"|"args"|...}``,
    ``{"function": {...}}`` or ``{"function": "name", "parameters": {...}}``,
    ``{"tool": ...}``, ``{"tool_calls": [...]}``, ``{"tools": [...]}`` and lists of
    those; arguments given as a JSON string are decoded.
    """
    try:
        value = load_json(content)
    except ValueError:
        return []
    calls: list[tuple[str, dict[str, object]]] = []
    _collect_calls(value, calls, depth=0)
    return calls


def _collect_calls(value: object, calls: list[tuple[str, dict[str, object]]], depth: int) -> None:
    if depth > 8:
        return
    if isinstance(value, list):
        for item in value:
            _collect_calls(item, calls, depth + 1)
        return
    if not isinstance(value, dict):
        return
    for key in ("tool_calls", "tools"):
        if isinstance(value.get(key), list):
            _collect_calls(value[key], calls, depth + 1)
            return
    function = value.get("function")
    if isinstance(function, dict):
        _collect_calls(function, calls, depth + 1)
        return
    tool = value.get("tool")
    if isinstance(tool, dict):
        _collect_calls(tool, calls, depth + 1)
        return
    name = value.get("name")
    if not isinstance(name, str):
        name = function if isinstance(function, str) else tool if isinstance(tool, str) else None
    if isinstance(name, str) and name:
        calls.append((name, _arguments(value)))


def _arguments(call: dict[str, object]) -> dict[str, object]:
    for key in _ARGUMENT_KEYS:
        raw = call.get(key)
        if isinstance(raw, str):
            try:
                raw = load_json(raw)
            except ValueError:
                continue
        if isinstance(raw, dict):
            return raw
    return {}
