"""Per-tool handlers: how the body of ``<tool name="...">`` becomes a segment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from ._events import SegmentType

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping


@dataclass(frozen=True, slots=True)
class RawToolHandler:
    """Stream the tool's inner markup unchanged, as a ``tool_call`` segment.

    This is what every tool without a registered handler gets: the segment's
    metadata is ``{"tool_name": ...}`` and its content the raw
    ``<arguments>...</arguments>`` text, for an invocation builder to parse.
    """

    segment_type: SegmentType = SegmentType.TOOL_CALL


@dataclass(frozen=True, slots=True)
class ArgumentStreamHandler:
    """Stream one argument's value as the segment content; keep some others as metadata.

    The argument markup itself never reaches the content. ``metadata_args`` are
    collected whole (up to the parser's ``max_tag_length``) and the segment start
    waits for them, so a ``write_file`` start carries its ``path``; if the
    content argument comes first the start is not delayed and the late values
    arrive in the end event's metadata. ``markers`` is an optional
    ``(start, end)`` pair: when the content value begins with the start marker,
    only the text between the markers is content, and the end marker only
    counts when the argument's closing tag follows it (after optional
    whitespace), so the value may contain the end marker and arbitrary markup.
    Other arguments are skipped.
    """

    segment_type: SegmentType
    content_arg: str
    metadata_args: tuple[str, ...] = ()
    markers: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        if self.segment_type is SegmentType.TEXT:
            raise ValueError("a tool handler cannot produce text segments")
        if not self.content_arg.strip():
            raise ValueError("content_arg must name an argument")
        if self.markers is not None and not all(marker.strip() for marker in self.markers):
            raise ValueError("markers must be two non-empty strings")


ToolHandler: TypeAlias = RawToolHandler | ArgumentStreamHandler

#: The handlers every registry starts with, as the streaming-parser design specifies.
BUILTIN_TOOL_HANDLERS: Mapping[str, ToolHandler] = {
    "write_file": ArgumentStreamHandler(
        SegmentType.WRITE_FILE,
        content_arg="content",
        metadata_args=("path",),
        markers=("__START_CONTENT__", "__END_CONTENT__"),
    ),
    "patch_file": ArgumentStreamHandler(
        SegmentType.PATCH_FILE,
        content_arg="patch",
        metadata_args=("path",),
        markers=("__START_PATCH__", "__END_PATCH__"),
    ),
    "run_bash": ArgumentStreamHandler(SegmentType.RUN_BASH, content_arg="command"),
}

_DEFAULT_HANDLER = RawToolHandler()


def _key(tool_name: str) -> str:
    return tool_name.strip().lower()


class ToolHandlerRegistry:
    """Which handler parses which ``<tool name="...">``; names match case-insensitively.

    A registry belongs to a :class:`ParserConfig`; a parser copies it when it is
    created, so registering a handler never changes a stream already being parsed.
    """

    __slots__ = ("_handlers",)

    def __init__(
        self, handlers: Mapping[str, ToolHandler] | None = None, *, builtins: bool = True
    ) -> None:
        self._handlers: dict[str, ToolHandler] = {}
        if builtins:
            self._handlers.update(BUILTIN_TOOL_HANDLERS)
        for name, handler in (handlers or {}).items():
            self.register(name, handler)

    def register(self, tool_name: str, handler: ToolHandler) -> None:
        """Parse ``<tool name="tool_name">`` with ``handler`` (replacing any earlier one)."""
        if not isinstance(handler, RawToolHandler | ArgumentStreamHandler):
            raise TypeError(
                f"handler for {tool_name!r} must be a RawToolHandler or an "
                f"ArgumentStreamHandler, not {type(handler).__name__}"
            )
        key = _key(tool_name)
        if not key:
            raise ValueError("tool_name must not be empty")
        self._handlers[key] = handler

    def unregister(self, tool_name: str) -> None:
        """Go back to streaming ``tool_name`` raw, as a ``tool_call`` segment."""
        self._handlers.pop(_key(tool_name), None)

    def get(self, tool_name: str) -> ToolHandler:
        """The handler for ``tool_name``: the registered one, else :class:`RawToolHandler`."""
        return self._handlers.get(_key(tool_name), _DEFAULT_HANDLER)

    def copy(self) -> ToolHandlerRegistry:
        """An independent registry with the same handlers."""
        return ToolHandlerRegistry(self._handlers, builtins=False)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._handlers))

    def __len__(self) -> int:
        return len(self._handlers)

    def __contains__(self, tool_name: object) -> bool:
        return isinstance(tool_name, str) and _key(tool_name) in self._handlers

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolHandlerRegistry):
            return NotImplemented
        return self._handlers == other._handlers

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ToolHandlerRegistry({self._handlers!r}, builtins=False)"
