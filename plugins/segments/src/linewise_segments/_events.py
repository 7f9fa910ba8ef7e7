"""Segment types and the three events the engine hands out."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import ClassVar, Literal, TypeAlias


class SegmentType(enum.StrEnum):
    """What a segment holds; the string values are the portable names."""

    TEXT = "text"
    TOOL_CALL = "tool_call"
    WRITE_FILE = "write_file"
    PATCH_FILE = "patch_file"
    RUN_BASH = "run_bash"
    REASONING = "reasoning"


# Plain (not frozen) slotted dataclasses: a frozen dataclass assigns through
# object.__setattr__, which makes the per-character SEGMENT_CONTENT path of a
# 1-character-chunk stream about twice as slow. Treat the events as read-only.


@dataclass(slots=True)
class SegmentStart:
    """A segment begins; ``metadata`` is what was known when it began (path, tool name)."""

    segment_id: str
    segment_type: SegmentType
    metadata: dict[str, object] = field(default_factory=dict)

    type: ClassVar[Literal["SEGMENT_START"]] = "SEGMENT_START"


@dataclass(slots=True)
class SegmentContent:
    """More content for an open segment."""

    segment_id: str
    delta: str

    type: ClassVar[Literal["SEGMENT_CONTENT"]] = "SEGMENT_CONTENT"


@dataclass(slots=True)
class SegmentEnd:
    """A segment is over.

    ``metadata`` holds only what was learnt after the start (for instance a
    ``path`` argument written after the file content); ``truncated`` is true
    when the stream ended before the block's closing marker, so a cut-off
    command or file is never mistaken for a complete one.
    """

    segment_id: str
    metadata: dict[str, object] = field(default_factory=dict)
    truncated: bool = False

    type: ClassVar[Literal["SEGMENT_END"]] = "SEGMENT_END"


Event: TypeAlias = SegmentStart | SegmentContent | SegmentEnd
