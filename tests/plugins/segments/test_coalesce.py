"""Coalescing events into segments, the portable form of a parse."""

from __future__ import annotations

import pytest
from linewise_segments import (
    Event,
    Segment,
    SegmentContent,
    SegmentEnd,
    SegmentStart,
    SegmentType,
    coalesce,
)


def test_events_become_whole_segments_with_end_metadata_merged() -> None:
    events: list[Event] = [
        SegmentStart("seg_1", SegmentType.WRITE_FILE, {"tool_name": "write_file"}),
        SegmentContent("seg_1", "a"),
        SegmentContent("seg_1", "b"),
        SegmentEnd("seg_1", {"path": "/late"}, truncated=True),
    ]
    assert coalesce(events) == [
        Segment(
            "seg_1",
            SegmentType.WRITE_FILE,
            "ab",
            {"tool_name": "write_file", "path": "/late"},
            True,
        )
    ]


def test_the_portable_form_names_truncation_only_when_it_happened() -> None:
    assert Segment("s", SegmentType.TEXT, "x").to_dict() == {
        "id": "s",
        "type": "text",
        "content": "x",
        "metadata": {},
    }
    assert Segment("s", SegmentType.RUN_BASH, "x", truncated=True).to_dict()["truncated"] is True


def test_an_event_before_its_start_is_refused() -> None:
    with pytest.raises(ValueError, match="before its SEGMENT_START"):
        coalesce([SegmentContent("seg_9", "x")])
