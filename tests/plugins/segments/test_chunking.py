"""However a stream is cut into chunks, its coalesced segments are the same.

Properties over random chunkings (including one character at a time) of the
reference corpus inputs and of generated streams that mix every kind of block
with near-misses: partial tags, stray ``<``, quotes, CDATA, unterminated
headers. The budget is the project's hypothesis profile (small by default);
``--hypothesis-profile=long`` fuzzes for real.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from linewise_segments import ParserConfig, SegmentParser, coalesce, parse_segments

Case = dict[str, Any]

CONFIGS = [
    ParserConfig(),
    ParserConfig(strategies=("json_tool",)),
    ParserConfig(strategies=("sentinel",)),
    ParserConfig(strategies=("xml_tag", "json_tool", "sentinel")),
    ParserConfig(parse_tool_calls=False),
    # A tiny tag bound makes the overflow paths reachable by short streams.
    ParserConfig(strategies=("xml_tag", "json_tool", "sentinel"), max_tag_length=64),
]

_BODY_CHARS = "ab \n<>/\"'=[]{}_!:"
_bodies = st.text(alphabet=_BODY_CHARS, max_size=24)
_names = st.sampled_from(["write_file", "WRITE_FILE", "run_bash", "patch_file", "x", "read"])

NEAR_MISSES = [
    "<", "</", "<w", "<write_fil", "<write_files>", "<tool", "<tool>", "<toolbox name='a'>",
    "</write_file>", "</tool >", "</arg>", "<arg name='content'>", "<arg name='path'>",
    "<arguments>", "</arguments>", "<![CDATA[", "]]>", "<![CD", "]]", "<think>", "</think>",
    "__START_CONTENT__", "__END_CONTENT__", "__END_CONT", "__START_PATCH__", "__END_PATCH__",
    "[[SEG_START ", "[[SEG_START {", "[[SEG_END]]", "[[SEG_E", "[[[", "{", "[", "{\"na", "\"",
    "'", "\\", " < ", "a<b", "<tool name='it", "<tool name=\"a>b\">", "\n",
]  # fmt: skip

_blocks = st.one_of(
    st.builds("<write_file path='{}'>{}</write_file>".format, _bodies, _bodies),
    st.builds("<run_bash>{}</run_bash>".format, _bodies),
    st.builds("<think>{}</think>".format, _bodies),
    st.builds('<tool name="{}">{}</tool>'.format, _names, _bodies),
    st.builds(
        "<tool name='{}'><arguments><arg name='path'>{}</arg><arg name='{}'>{}</arg>"
        "</arguments></tool>".format,
        _names,
        _bodies,
        st.sampled_from(["content", "patch", "command"]),
        _bodies,
    ),
    st.builds(
        "<tool name='write_file'><arg name='content'>__START_CONTENT__\n{}\n__END_CONTENT__"
        "</arg><arg name='path'>{}</arg></tool>".format,
        _bodies,
        _bodies,
    ),
    st.builds('{{"name": "{}", "arguments": {{"s": "{}"}}}}'.format, _names, _bodies),
    st.builds(
        '[[SEG_START {{"type": "{}", "path": "{}"}}]]{}[[SEG_END]]'.format,
        st.sampled_from(["write_file", "tool", "reasoning", "text", "nope"]),
        _bodies,
        _bodies,
    ),
)

streams = st.lists(st.one_of(st.sampled_from(NEAR_MISSES), _bodies, _blocks), max_size=12).map(
    "".join
)


def _segments(chunks: str | list[str], config: ParserConfig) -> list[dict[str, object]]:
    return [segment.to_dict() for segment in parse_segments(chunks, config)]


def _cut(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(max(point, 0), len(text)) for point in cuts})
    bounds = [0, *points, len(text)]
    return [text[start:end] for start, end in itertools.pairwise(bounds)]


@given(data=st.data())
def test_corpus_inputs_give_the_same_segments_for_any_chunking(
    data: st.DataObject, cases: list[Case], config_for: Callable[[Case], ParserConfig]
) -> None:
    case = data.draw(st.sampled_from(cases), label="case")
    stream = "".join(case["chunks"])
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=16), label="cuts")
    whole = _segments(stream, config_for(case))
    assert _segments(_cut(stream, cuts), config_for(case)) == whole


@given(stream=streams, config=st.sampled_from(CONFIGS), data=st.data())
def test_generated_streams_give_the_same_segments_for_any_chunking(
    stream: str, config: ParserConfig, data: st.DataObject
) -> None:
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=24), label="cuts")
    whole = _segments(stream, config)
    assert _segments(_cut(stream, cuts), config) == whole
    assert _segments(list(stream), config) == whole


@given(
    stream=streams,
    config=st.sampled_from([c for c in CONFIGS if "sentinel" not in c.strategies]),
)
def test_a_run_of_text_is_one_segment_and_ids_count_up(stream: str, config: ParserConfig) -> None:
    # (Sentinel streams may hold explicit text blocks, which are segments of their own.)
    segments = parse_segments(stream, config)
    assert [s.id for s in segments] == [f"seg_{n}" for n in range(1, len(segments) + 1)]
    for before, after in itertools.pairwise(segments):
        assert not before.type == after.type == "text"


@given(stream=streams, config=st.sampled_from(CONFIGS), data=st.data())
def test_every_event_stream_is_well_formed(
    stream: str, config: ParserConfig, data: st.DataObject
) -> None:
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=24), label="cuts")
    parser = SegmentParser(config)
    events = [event for chunk in _cut(stream, cuts) for event in parser.feed(chunk)]
    events += parser.finalize()
    open_ids: list[str] = []
    for event in events:
        if event.type == "SEGMENT_START":
            assert open_ids == [], "segments never nest or overlap"
            open_ids.append(event.segment_id)
        else:
            assert open_ids == [event.segment_id]
            if event.type == "SEGMENT_CONTENT":
                assert event.delta != "", "no empty deltas"
            else:
                open_ids.pop()
    assert open_ids == [], "finalize closes everything"
    assert coalesce(events) == parse_segments(stream, config)


# Rejected candidates that run long (an unterminated sentinel header, a tag
# whose quote never closes) leave windows in which their own kind may not start
# again while other kinds may: streams that overflow a small tag bound on purpose.
_overflowing = st.lists(
    st.one_of(
        st.sampled_from(
            ['[[SEG_START {"type": "text", "a": "', "<write_file path='", "[[", "x" * 30]
        ),
        _blocks,
        _bodies,
    ),
    max_size=10,
).map("".join)


@given(stream=_overflowing, data=st.data())
def test_overflowing_candidates_give_the_same_segments_for_any_chunking(
    stream: str, data: st.DataObject
) -> None:
    config = CONFIGS[-1]
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=24), label="cuts")
    whole = _segments(stream, config)
    assert _segments(_cut(stream, cuts), config) == whole
    assert _segments(list(stream), config) == whole


@given(text=st.text(alphabet="ab <>/{}[]\"'\n_", max_size=200), data=st.data())
def test_without_strategies_every_character_is_text(text: str, data: st.DataObject) -> None:
    cuts = data.draw(st.lists(st.integers(0, len(text)), max_size=24), label="cuts")
    segments = parse_segments(_cut(text, cuts), ParserConfig(strategies=()))
    assert [(s.type, s.content) for s in segments] == ([("text", text)] if text else [])
