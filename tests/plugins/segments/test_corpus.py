"""The reference implementation's own cases: same segments, except where it is wrong.

Every case of ../shared/corpus/autobyteus/cases.json is fed chunk by chunk as
the reference was, and the coalesced segments must equal its
``expected_segments``, apart from the deliberate divergences listed below (and
in plugins/segments/README.md), each of which fixes a defect of the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from linewise_segments import ParserConfig, parse_segments

Case = dict[str, Any]

#: Blocks the stream cut off before their closing marker. The reference
#: reports them as complete; linewise returns the same content and metadata
#: and marks the segment ``truncated`` (a cut-off command is not a command).
TRUNCATED = {
    "cw_partial_close_held_back": "seg_1",
    "cw_finalize_remaining": "seg_1",
    "cb_partial_close_held_back": "seg_1",
    "cb_finalize_incomplete": "seg_1",
    "xt_finalize_incomplete": "seg_1",
    "js_finalize_incomplete": "seg_1",
}

#: Cases whose expected segments linewise replaces, with the reason.
OWN_EXPECTATIONS: dict[str, tuple[list[dict[str, object]], str]] = {
    "ts_less_than_triggers_xml": (
        [{"id": "seg_1", "type": "text", "content": "Hello <tool>", "metadata": {}}],
        # The reference ends the text segment when it sees "<tool>", then finds
        # no name and restarts text in a new segment, but only when that tag
        # ends the stream ("Hello <tool>x" stays one segment). A text segment is
        # a maximal run of text: prose around a tag that is not a marker is one.
        "a rejected tag at the end of the stream does not split the text",
    ),
}


def _portable(segments: list[Any]) -> list[dict[str, object]]:
    return [
        {key: value for key, value in segment.to_dict().items() if key != "truncated"}
        for segment in segments
    ]


def test_every_case_matches_the_reference_or_a_documented_divergence(
    cases: list[Case], config_for: Callable[[Case], ParserConfig]
) -> None:
    mismatches = []
    for case in cases:
        segments = parse_segments(case["chunks"], config_for(case))
        expected = OWN_EXPECTATIONS.get(case["name"], (case["expected_segments"], ""))[0]
        if _portable(segments) != expected:
            mismatches.append((case["name"], _portable(segments), expected))
    assert mismatches == []


def test_only_blocks_cut_off_by_the_end_of_the_stream_are_truncated(
    cases: list[Case], config_for: Callable[[Case], ParserConfig]
) -> None:
    truncated = {}
    for case in cases:
        for segment in parse_segments(case["chunks"], config_for(case)):
            if segment.truncated:
                truncated[case["name"]] = segment.id
    assert truncated == TRUNCATED


def test_the_divergences_still_exercise_the_reference_defect(cases: list[Case]) -> None:
    # If the corpus is regenerated and the reference fixed, these lists must shrink.
    by_name = {case["name"]: case for case in cases}
    assert set(TRUNCATED) | set(OWN_EXPECTATIONS) <= set(by_name)
    for name in OWN_EXPECTATIONS:
        assert by_name[name]["expected_segments"] != OWN_EXPECTATIONS[name][0]


def test_a_case_parses_the_same_whole_and_one_character_at_a_time(
    cases: list[Case], config_for: Callable[[Case], ParserConfig]
) -> None:
    for case in cases:
        stream = "".join(case["chunks"])
        as_fed = [s.to_dict() for s in parse_segments(case["chunks"], config_for(case))]
        assert [s.to_dict() for s in parse_segments(stream, config_for(case))] == as_fed
        assert [s.to_dict() for s in parse_segments(list(stream), config_for(case))] == as_fed
