"""Custom per-tool handlers: registered through the public API, no engine change."""

from __future__ import annotations

import pytest
from linewise_segments import (
    ArgumentStreamHandler,
    ParserConfig,
    RawToolHandler,
    SegmentParser,
    SegmentType,
    ToolHandlerRegistry,
    parse_segments,
)

NOTEBOOK = (
    "<tool name='Edit_Notebook'><arguments><arg name='notebook'>/n.ipynb</arg>"
    "<arg name='cell'>3</arg><arg name='source'>print(1)</arg></arguments></tool>"
)


def test_a_registered_handler_streams_the_chosen_argument() -> None:
    registry = ToolHandlerRegistry()
    registry.register(
        "edit_notebook",
        ArgumentStreamHandler(
            SegmentType.WRITE_FILE, content_arg="source", metadata_args=("notebook", "cell")
        ),
    )
    [segment] = parse_segments(NOTEBOOK, ParserConfig(tool_handlers=registry))
    assert segment.to_dict() == {
        "id": "seg_1",
        "type": "write_file",
        "content": "print(1)",
        "metadata": {"tool_name": "Edit_Notebook", "notebook": "/n.ipynb", "cell": "3"},
    }


def test_without_a_handler_the_tool_streams_raw() -> None:
    [segment] = parse_segments(NOTEBOOK)
    assert segment.type == "tool_call"
    assert segment.content.startswith("<arguments>")


def test_a_raw_handler_can_give_a_tool_another_segment_type() -> None:
    registry = ToolHandlerRegistry({"shell": RawToolHandler(SegmentType.RUN_BASH)})
    [segment] = parse_segments("<tool name='shell'>ls</tool>", ParserConfig(tool_handlers=registry))
    assert (segment.type, segment.content) == ("run_bash", "ls")


def test_built_ins_can_be_replaced_or_removed() -> None:
    registry = ToolHandlerRegistry()
    assert "WRITE_FILE" in registry
    registry.unregister("write_file")
    stream = "<tool name='write_file'><arg name='path'>a</arg></tool>"
    [segment] = parse_segments(stream, ParserConfig(tool_handlers=registry))
    assert (segment.type, segment.content) == ("tool_call", "<arg name='path'>a</arg>")
    assert list(ToolHandlerRegistry(builtins=False)) == []


def test_a_parser_keeps_the_handlers_it_was_created_with() -> None:
    registry = ToolHandlerRegistry(builtins=False)
    parser = SegmentParser(ParserConfig(tool_handlers=registry))
    registry.register("x", ArgumentStreamHandler(SegmentType.RUN_BASH, content_arg="cmd"))
    events = parser.feed("<tool name='x'><arg name='cmd'>ls</arg></tool>")
    assert events[0].type == "SEGMENT_START"
    assert events[0].segment_type is SegmentType.TOOL_CALL


def test_registration_mistakes_are_reported() -> None:
    registry = ToolHandlerRegistry()
    with pytest.raises(TypeError, match="RawToolHandler or an ArgumentStreamHandler"):
        registry.register("x", object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty"):
        registry.register("  ", RawToolHandler())
    with pytest.raises(ValueError, match="text segments"):
        ArgumentStreamHandler(SegmentType.TEXT, content_arg="x")
    with pytest.raises(ValueError, match="markers"):
        ArgumentStreamHandler(SegmentType.WRITE_FILE, content_arg="x", markers=("a", ""))
