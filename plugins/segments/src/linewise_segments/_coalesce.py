"""Coalescing events into whole segments, the portable form of a parse."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._events import Event, SegmentContent, SegmentEnd, SegmentStart, SegmentType
from ._parser import SegmentParser

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ._config import ParserConfig


@dataclass(slots=True)
class Segment:
    """One whole segment: its id, type, full content and final metadata.

    ``metadata`` is the start metadata updated with whatever the end event
    added; ``truncated`` says the stream ended before the block's closing marker.
    """

    id: str
    type: SegmentType
    content: str = ""
    metadata: dict[str, object] = field(default_factory=dict)
    truncated: bool = False

    def to_dict(self) -> dict[str, object]:
        """The portable form: id, type, content, metadata (and ``truncated`` when set)."""
        portable: dict[str, object] = {
            "id": self.id,
            "type": str(self.type),
            "content": self.content,
            "metadata": dict(self.metadata),
        }
        if self.truncated:
            portable["truncated"] = True
        return portable


def coalesce(events: Iterable[Event]) -> list[Segment]:
    """Merge a stream of events into segments, in the order they started."""
    segments: dict[str, Segment] = {}
    parts: dict[str, list[str]] = {}
    for event in events:
        if isinstance(event, SegmentStart):
            segments[event.segment_id] = Segment(
                event.segment_id, event.segment_type, metadata=dict(event.metadata)
            )
            parts[event.segment_id] = []
            continue
        segment = segments.get(event.segment_id)
        if segment is None:
            raise ValueError(f"event for segment {event.segment_id!r} before its SEGMENT_START")
        if isinstance(event, SegmentContent):
            parts[event.segment_id].append(event.delta)
        elif isinstance(event, SegmentEnd):
            segment.metadata.update(event.metadata)
            segment.truncated = event.truncated
    for segment_id, segment in segments.items():
        segment.content = "".join(parts[segment_id])
    return list(segments.values())


def parse_segments(
    chunks: str | Iterable[str], config: ParserConfig | None = None
) -> list[Segment]:
    """Parse a whole stream (one string, or its chunks in order) into segments."""
    parser = SegmentParser(config)
    events: list[Event] = []
    for chunk in [chunks] if isinstance(chunks, str) else chunks:
        events.extend(parser.feed(chunk))
    events.extend(parser.finalize())
    return coalesce(events)
