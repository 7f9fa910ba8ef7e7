"""SegmentParser: what a stream of model output becomes, chunk by chunk and at its end."""

from __future__ import annotations

import pytest
from linewise_segments import (
    ParserConfig,
    ParserFinishedError,
    SegmentContent,
    SegmentEnd,
    SegmentParser,
    SegmentStart,
    SegmentType,
    parse_segments,
)

XML = ParserConfig()
JSON = ParserConfig(strategies=("json_tool",))
SENTINEL = ParserConfig(strategies=("sentinel",))


def segments(stream: str | list[str], config: ParserConfig = XML) -> list[dict[str, object]]:
    return [segment.to_dict() for segment in parse_segments(stream, config)]


def text(content: str, n: int = 1) -> dict[str, object]:
    return {"id": f"seg_{n}", "type": "text", "content": content, "metadata": {}}


def block(
    kind: str, content: str, n: int = 1, truncated: bool = False, **metadata: object
) -> dict[str, object]:
    found: dict[str, object] = {
        "id": f"seg_{n}",
        "type": kind,
        "content": content,
        "metadata": metadata,
    }
    if truncated:
        found["truncated"] = True
    return found


def streamed_content(parser: SegmentParser, chunk: str) -> str:
    return "".join(e.delta for e in parser.feed(chunk) if isinstance(e, SegmentContent))


class TestEvents:
    def test_text_streams_as_it_arrives_and_ends_at_finalize(self) -> None:
        parser = SegmentParser()
        assert parser.feed("Hello") == [
            SegmentStart("seg_1", SegmentType.TEXT, {}),
            SegmentContent("seg_1", "Hello"),
        ]
        assert parser.feed(", world") == [SegmentContent("seg_1", ", world")]
        assert parser.finalize() == [SegmentEnd("seg_1")]

    def test_an_empty_stream_has_no_events(self) -> None:
        parser = SegmentParser()
        assert parser.feed("") == []
        assert parser.finalize() == []

    def test_a_block_ends_the_text_before_it_and_text_resumes_after_it(self) -> None:
        parser = SegmentParser()
        events = parser.feed("Run: <run_bash>ls</run_bash> done")
        assert events == [
            SegmentStart("seg_1", SegmentType.TEXT, {}),
            SegmentContent("seg_1", "Run: "),
            SegmentEnd("seg_1"),
            SegmentStart("seg_2", SegmentType.RUN_BASH, {}),
            SegmentContent("seg_2", "ls"),
            SegmentEnd("seg_2"),
            SegmentStart("seg_3", SegmentType.TEXT, {}),
            SegmentContent("seg_3", " done"),
        ]

    def test_events_name_their_type_like_the_design(self) -> None:
        assert SegmentStart("s", SegmentType.TEXT).type == "SEGMENT_START"
        assert SegmentContent("s", "x").type == "SEGMENT_CONTENT"
        assert SegmentEnd("s").type == "SEGMENT_END"

    def test_segment_ids_use_the_configured_prefix(self) -> None:
        found = parse_segments("a<run_bash>b</run_bash>", ParserConfig(segment_id_prefix="s-"))
        assert [s.id for s in found] == ["s-1", "s-2"]


class TestHoldback:
    def test_a_partial_closing_tag_is_held_back_until_it_is_decided(self) -> None:
        parser = SegmentParser()
        assert streamed_content(parser, "<write_file path='a.py'>print(1)</wri") == "print(1)"
        assert streamed_content(parser, "te_file>") == ""
        assert segments(["<write_file path='a.py'>print(1)</wri", "te_file>"]) == [
            block("write_file", "print(1)", path="a.py")
        ]

    def test_what_cannot_become_the_closing_tag_is_not_held_back(self) -> None:
        parser = SegmentParser()
        body = "if a < b: x = '<div>' </di"
        assert streamed_content(parser, f"<write_file path='a.py'>{body}") == body

    def test_a_held_back_prefix_that_fails_is_content(self) -> None:
        parser = SegmentParser()
        assert streamed_content(parser, "<run_bash>echo </run") == "echo "
        assert streamed_content(parser, "ning") == "</running"

    @pytest.mark.parametrize("cut", range(1, len("<run_bash>ls -la</run_bash>")))
    def test_no_part_of_the_closing_tag_is_ever_emitted(self, cut: int) -> None:
        stream = "<run_bash>ls -la</run_bash>"
        parser = SegmentParser()
        first = streamed_content(parser, stream[:cut])
        second = streamed_content(parser, stream[cut:])
        assert "ls -la".startswith(first)
        assert first + second == "ls -la"

    def test_plain_text_is_never_held_back(self) -> None:
        parser = SegmentParser()
        assert streamed_content(parser, "a < b and {x} [y]") == "a < b and {x} [y]"

    def test_a_possible_tag_start_in_text_waits_for_the_next_chunk(self) -> None:
        parser = SegmentParser()
        assert streamed_content(parser, "see <wr") == "see "
        assert streamed_content(parser, "ong") == "<wrong"


class TestFinalize:
    def test_an_unterminated_block_is_closed_and_marked_truncated(self) -> None:
        parser = SegmentParser()
        parser.feed("<run_bash>rm -rf /tmp/build")
        assert parser.finalize() == [SegmentEnd("seg_1", {}, truncated=True)]
        assert segments("<run_bash>rm -rf /tmp/build") == [
            block("run_bash", "rm -rf /tmp/build", truncated=True)
        ]

    def test_a_held_back_partial_tag_is_flushed_as_content(self) -> None:
        assert segments("<write_file path='a'>x = 1</write_fi") == [
            block("write_file", "x = 1</write_fi", path="a", truncated=True)
        ]

    def test_an_opening_tag_with_nothing_after_it_is_given_back_as_text(self) -> None:
        assert segments("Run: <run_bash>") == [text("Run: <run_bash>")]
        assert segments('<tool name="write_file"><arguments>') == [
            text('<tool name="write_file"><arguments>')
        ]

    def test_a_complete_block_is_never_truncated(self) -> None:
        assert segments("<run_bash></run_bash>") == [block("run_bash", "")]

    def test_unfinished_tags_and_headers_are_text(self) -> None:
        assert segments("Some text <wri") == [text("Some text <wri")]
        assert segments('[[SEG_START {"type": "run_bash"', SENTINEL) == [
            text('[[SEG_START {"type": "run_bash"')
        ]
        assert segments('{"na', JSON) == [text('{"na')]

    def test_an_unterminated_json_call_is_truncated(self) -> None:
        assert segments('{"name": "x", "arguments": {"a": [1,', JSON) == [
            block("tool_call", '{"name": "x", "arguments": {"a": [1,', truncated=True)
        ]

    def test_finalize_is_idempotent_and_feeding_afterwards_is_an_error(self) -> None:
        parser = SegmentParser()
        parser.feed("hi")
        assert parser.finalize() == [SegmentEnd("seg_1")]
        assert parser.finalize() == []
        with pytest.raises(ParserFinishedError, match=r"reset\(\)"):
            parser.feed("more")

    def test_reset_starts_a_new_stream(self) -> None:
        parser = SegmentParser()
        parser.feed("<run_bash>ls")
        parser.reset()
        assert parser.feed("new") == [
            SegmentStart("seg_1", SegmentType.TEXT, {}),
            SegmentContent("seg_1", "new"),
        ]


class TestXmlTags:
    def test_legacy_tags(self) -> None:
        assert segments("A<write_file path='/a.py'>x</write_file>B<run_bash>ls</run_bash>") == [
            text("A"),
            block("write_file", "x", 2, path="/a.py"),
            text("B", 3),
            block("run_bash", "ls", 4),
        ]

    def test_tag_names_are_case_insensitive_and_match_on_word_boundaries(self) -> None:
        assert segments("<WRITE_FILE PATH='a'>x</Write_File>") == [
            block("write_file", "x", path="a")
        ]
        for stream in (
            "<write_files path='a'>x</write_files>",
            "<toolbox name='a'>x</toolbox>",
            "<run_bash2>ls</run_bash2>",
            "<thinker>x</thinker>",
        ):
            assert segments(stream) == [text(stream)]

    def test_attributes_are_read_quote_aware(self) -> None:
        assert segments('<write_file path="a>b.py">x</write_file>') == [
            block("write_file", "x", path="a>b.py")
        ]
        assert segments("<tool name='say \"hi\"'></tool>") == [
            block("tool_call", "", tool_name='say "hi"')
        ]
        assert segments("<write_file path=/a/b.py>x</write_file>") == [
            block("write_file", "x", path="/a/b.py")
        ]

    def test_a_closing_tag_in_a_quoted_attribute_of_a_tool_body_does_not_end_it(self) -> None:
        stream = '<tool name="t"><arg note="</tool>">v</arg></tool>after'
        assert segments(stream) == [
            block("tool_call", '<arg note="</tool>">v</arg>', tool_name="t"),
            text("after", 2),
        ]

    def test_a_closing_tag_inside_cdata_does_not_end_the_block(self) -> None:
        assert segments("<write_file path='a'><![CDATA[</write_file>]]></write_file>.") == [
            block("write_file", "<![CDATA[</write_file>]]>", path="a"),
            text(".", 2),
        ]
        assert segments("<tool name='t'><![CDATA[ </tool> ]]></tool>") == [
            block("tool_call", "<![CDATA[ </tool> ]]>", tool_name="t")
        ]

    def test_a_stray_lt_in_prose_does_not_swallow_the_next_tag(self) -> None:
        assert segments("a < b <run_bash>ls</run_bash>") == [
            text("a < b "),
            block("run_bash", "ls", 2),
        ]
        assert segments("use <tool name='it then <run_bash>ls</run_bash>") == [
            text("use <tool name='it then "),
            block("run_bash", "ls", 2),
        ]
        assert segments("<<run_bash>ls</run_bash>") == [text("<"), block("run_bash", "ls", 2)]

    def test_tags_that_are_not_markers_stay_text(self) -> None:
        for stream in (
            "<div>hi</div>",
            "<write_file>no path</write_file>",
            "<tool>no name</tool>",
            "</run_bash>",
        ):
            assert segments(stream) == [text(stream)]

    def test_self_closing_and_spaced_closing_tags(self) -> None:
        assert segments("<run_bash/>x") == [block("run_bash", ""), text("x", 2)]
        assert segments("<run_bash>ls</run_bash  >x") == [block("run_bash", "ls"), text("x", 2)]

    def test_reasoning_tags(self) -> None:
        assert segments("<think>hmm</think>Answer") == [
            block("reasoning", "hmm"),
            text("Answer", 2),
        ]

    def test_without_tool_calls_only_reasoning_is_recognised(self) -> None:
        stream = "<think>a</think><run_bash>ls</run_bash><tool name='x'>y</tool>"
        assert segments(stream, ParserConfig(parse_tool_calls=False)) == [
            block("reasoning", "a"),
            text("<run_bash>ls</run_bash><tool name='x'>y</tool>", 2),
        ]


class TestToolHandlers:
    def test_write_file_streams_only_the_content_and_starts_with_the_path(self) -> None:
        parser = SegmentParser()
        assert parser.feed("<tool name='write_file'><arguments><arg name='path'>/a") == []
        assert parser.feed("</arg><arg name='content'>x = 1") == [
            SegmentStart(
                "seg_1", SegmentType.WRITE_FILE, {"tool_name": "write_file", "path": "/a"}
            ),
            SegmentContent("seg_1", "x = 1"),
        ]

    def test_content_markers_allow_markup_and_false_end_markers(self) -> None:
        stream = (
            "<tool name='write_file'><arg name='path'>/m</arg><arg name='content'>"
            "__START_CONTENT__\nsee __END_CONTENT__ and </arg> here\n__END_CONTENT__ \n</arg></tool>"
        )
        assert segments(stream) == [
            block(
                "write_file",
                "see __END_CONTENT__ and </arg> here\n",
                tool_name="write_file",
                path="/m",
            )
        ]

    def test_patch_file_and_run_bash(self) -> None:
        assert segments(
            "<tool name='patch_file'><arg name='path'>p</arg><arg name='patch'>"
            "__START_PATCH__\n-a\n+b\n__END_PATCH__</arg></tool>"
            "<tool name='RUN_BASH'><arg name='command'>ls</arg></tool>"
        ) == [
            block("patch_file", "-a\n+b\n", tool_name="patch_file", path="p"),
            block("run_bash", "ls", 2, tool_name="RUN_BASH"),
        ]

    def test_a_path_written_after_the_content_arrives_with_the_end(self) -> None:
        parser = SegmentParser()
        events = parser.feed(
            "<tool name='write_file'><arg name='content'>x</arg><arg name='path'>/late</arg></tool>"
        )
        assert events[0] == SegmentStart(
            "seg_1", SegmentType.WRITE_FILE, {"tool_name": "write_file"}
        )
        assert events[-1] == SegmentEnd("seg_1", {"path": "/late"})

    def test_arguments_may_be_child_elements(self) -> None:
        assert segments("<tool name='write_file'><path>/x</path><content>abc</content></tool>") == [
            block("write_file", "abc", tool_name="write_file", path="/x")
        ]

    def test_other_tools_stream_their_raw_markup(self) -> None:
        assert segments('<tool name="read_file"><arguments><path>/a</path></arguments></tool>') == [
            block("tool_call", "<arguments><path>/a</path></arguments>", tool_name="read_file")
        ]


class TestJson:
    def test_a_tool_signature_starts_a_tool_call_that_ends_with_its_value(self) -> None:
        stream = 'x { "name" : "t", "arguments": {"code": "if (a) { b }"}} y'
        assert segments(stream, JSON) == [
            text("x "),
            block("tool_call", '{ "name" : "t", "arguments": {"code": "if (a) { b }"}}', 2),
            text(" y", 3),
        ]

    def test_arrays_and_other_json(self) -> None:
        assert segments('[{"name": "a"}]', JSON) == [block("tool_call", '[{"name": "a"}]')]
        assert segments('{"data": [1, 2]} {braces}', JSON) == [text('{"data": [1, 2]} {braces}')]

    def test_custom_signatures(self) -> None:
        config = ParserConfig(strategies=("json_tool",), json_tool_patterns=('{"call":',))
        assert segments('{"call": 1}{"name": 2}', config) == [
            block("tool_call", '{"call": 1}'),
            text('{"name": 2}', 2),
        ]


class TestSentinel:
    def test_the_header_type_is_the_segment_type_and_the_rest_is_metadata(self) -> None:
        stream = '[[SEG_START {"type":"write_file","path":"/a.py"}]]print(1)[[SEG_END]]after'
        assert segments(stream, SENTINEL) == [
            block("write_file", "print(1)", path="/a.py"),
            text("after", 2),
        ]
        assert segments('[[SEG_START {"type":"tool","tool_name":"t"}]][[SEG_END]]', SENTINEL) == [
            block("tool_call", "", tool_name="t")
        ]

    def test_brackets_inside_the_header_json_do_not_end_it(self) -> None:
        stream = '[[SEG_START {"type":"reasoning","tags":[["a]]"]]}]]hmm[[SEG_END]]'
        assert segments(stream, SENTINEL) == [block("reasoning", "hmm", tags=[["a]]"]])]

    def test_invalid_or_unknown_headers_are_text(self) -> None:
        for stream in (
            "[[SEG_START not-json]]oops[[SEG_END]]",
            '[[SEG_START {"type":"nope"}]]x[[SEG_END]]',
            '[[SEG_START ["type"]]]x[[SEG_END]]',
        ):
            assert segments(stream, SENTINEL) == [text(stream)]

    def test_an_overlapping_start_marker(self) -> None:
        assert segments('[[[SEG_START {"type":"text"}]]hi[[SEG_END]]', SENTINEL) == [
            text("["),
            block("text", "hi", 2),
        ]

    def test_without_tool_calls_tool_sentinels_are_text(self) -> None:
        config = ParserConfig(strategies=("sentinel",), parse_tool_calls=False)
        stream = '[[SEG_START {"type":"run_bash"}]]ls[[SEG_END]]'
        assert segments(stream, config) == [text(stream)]


class TestBoundedMemory:
    """Past max_tag_length characters nothing is held back: a candidate is text."""

    @pytest.mark.parametrize(
        ("config", "opening"),
        [
            (ParserConfig(max_tag_length=64), '<write_file path="'),
            (ParserConfig(strategies=("sentinel",), max_tag_length=64), '[[SEG_START {"type": "'),
            (ParserConfig(max_tag_length=64), "<tool name='t'><a b=\""),
        ],
    )
    def test_an_endless_opening_never_holds_more_than_the_bound(
        self, config: ParserConfig, opening: str
    ) -> None:
        parser = SegmentParser(config)
        fed = emitted = 0
        for chunk in [opening, *["x" * 10] * 100]:
            fed += len(chunk)
            emitted += sum(
                len(e.delta) for e in parser.feed(chunk) if isinstance(e, SegmentContent)
            )
            assert fed - emitted <= 64 + len(opening)

    def test_whitespace_in_a_closing_tag_is_bounded_too(self) -> None:
        parser = SegmentParser()
        parser.feed("<run_bash>x</run_bash")
        assert streamed_content(parser, " " * 1000) != ""
