"""Tool invocations: a tool segment's name and arguments, with the segment id as its id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from linewise_segments import (
    ArgumentStreamHandler,
    ParserConfig,
    Segment,
    SegmentType,
    ToolHandlerRegistry,
    ToolInvocation,
    json_calls,
    parse_segments,
    tool_invocations,
    xml_arguments,
)

Case = dict[str, Any]

#: The reference's default JSON parser ignores "args" (only its Gemini parser
#: reads it); linewise reads "arguments", "parameters", "args" and "input"
#: whatever the provider, so a call never loses its arguments.
OWN_INVOCATIONS = {
    "js_raw_args": [{"id": "seg_1", "name": "search", "arguments": {"query": "autobyteus"}}],
}


def invocations(stream: str, config: ParserConfig | None = None) -> list[ToolInvocation]:
    return [call for s in parse_segments(stream, config) for call in tool_invocations(s)]


def test_the_reference_cases_give_the_reference_invocations(
    cases: list[Case], config_for: Callable[[Case], ParserConfig]
) -> None:
    for case in cases:
        found = [
            {"id": call.id, "name": call.name, "arguments": call.arguments}
            for segment in parse_segments(case["chunks"], config_for(case))
            for call in tool_invocations(segment)
        ]
        assert found == OWN_INVOCATIONS.get(case["name"], case["expected_invocations"]), case[
            "name"
        ]


def test_streamed_tools_take_their_content_as_an_argument() -> None:
    assert invocations(
        "<write_file path='/a'>x</write_file><run_bash>ls</run_bash>"
        "<tool name='patch_file'><arg name='path'>/p</arg><arg name='patch'>-a</arg></tool>"
    ) == [
        ToolInvocation("seg_1", "write_file", {"path": "/a", "content": "x"}),
        ToolInvocation("seg_2", "run_bash", {"command": "ls"}),
        ToolInvocation("seg_3", "patch_file", {"path": "/p", "patch": "-a"}),
    ]


def test_a_cut_off_call_is_marked_truncated() -> None:
    assert invocations("<run_bash>rm -rf /tmp/x") == [
        ToolInvocation("seg_1", "run_bash", {"command": "rm -rf /tmp/x"}, truncated=True)
    ]


def test_a_custom_handler_names_its_content_argument() -> None:
    registry = ToolHandlerRegistry()
    registry.register("shell", ArgumentStreamHandler(SegmentType.RUN_BASH, content_arg="script"))
    stream = "<tool name='shell'><arg name='script'>echo hi</arg></tool>"
    [segment] = parse_segments(stream, ParserConfig(tool_handlers=registry))
    assert tool_invocations(segment, registry) == [
        ToolInvocation("seg_1", "shell", {"script": "echo hi"})
    ]


def test_text_and_reasoning_are_not_calls() -> None:
    assert tool_invocations(Segment("s", SegmentType.TEXT, "<run_bash>")) == []
    assert tool_invocations(Segment("s", SegmentType.REASONING, "x")) == []


class TestXmlArguments:
    def test_args_items_and_child_elements(self) -> None:
        assert xml_arguments(
            "<arguments><arg name='tasks'><item><arg name='n'>1</arg></item>"
            "<item><arg name='n'>2</arg></item></arg><arg name='flag'>on</arg></arguments>"
        ) == {"tasks": [{"n": "1"}, {"n": "2"}], "flag": "on"}
        assert xml_arguments("<path>/a</path><depth>2</depth>") == {"path": "/a", "depth": "2"}

    def test_text_is_read_as_xml_text_tolerantly(self) -> None:
        assert xml_arguments(
            "<arg name='a'>x &lt; y &amp;&#33;</arg><arg name='b'><![CDATA[<b>&amp;</b>]]></arg>"
            "<arg name='c'>n <= 0</arg>"
        ) == {"a": "x < y &!", "b": "<b>&amp;</b>", "c": "n <= 0"}

    def test_unclosed_elements_are_left_out(self) -> None:
        assert xml_arguments("<arguments><arg name='a'>1</arg><arg name='b'>2") == {"a": "1"}
        assert xml_arguments("city=NYC") == {}


class TestJsonCalls:
    @pytest.mark.parametrize(
        ("blob", "calls"),
        [
            ('{"name": "a", "arguments": {"x": 1}}', [("a", {"x": 1})]),
            ('{"name": "a", "arguments": "{\\"x\\": 1}"}', [("a", {"x": 1})]),
            ('{"name": "a", "args": {"x": 1}}', [("a", {"x": 1})]),
            ('{"function": {"name": "a", "parameters": {}}}', [("a", {})]),
            ('{"tool": {"function": "a", "parameters": {"p": "v"}}}', [("a", {"p": "v"})]),
            (
                '{"tool_calls": [{"function": {"name": "a"}}, {"function": {"name": "b"}}]}',
                [("a", {}), ("b", {})],
            ),
            ('[{"name": "a"}, {"name": "b", "input": {"y": 2}}]', [("a", {}), ("b", {"y": 2})]),
        ],
    )
    def test_provider_shapes(self, blob: str, calls: list[tuple[str, dict[str, object]]]) -> None:
        assert json_calls(blob) == calls

    @pytest.mark.parametrize("blob", ['{"name": "a"', '{"name": NaN}', "[" * 100_000, '{"x": 1}'])
    def test_what_is_not_a_call(self, blob: str) -> None:
        assert json_calls(blob) == []

    def test_several_calls_in_one_segment_get_numbered_ids(self) -> None:
        stream = '[{"name": "a"}, {"name": "b"}]'
        ids = [call.id for call in invocations(stream, ParserConfig(strategies=("json_tool",)))]
        assert ids == ["seg_1", "seg_1.2"]
