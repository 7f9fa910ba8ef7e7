"""Choosing a strategy: by configuration, or by AUTOBYTEUS_STREAM_PARSER at the boundary."""

from __future__ import annotations

import pytest
from linewise_segments import (
    PARSER_ENV_VAR,
    ConfigurationError,
    ParserConfig,
    SegmentParser,
    config_from_environment,
    parse_segments,
    strategies_for,
)


@pytest.mark.parametrize(
    ("value", "strategies"),
    [
        ("", ("xml_tag",)),
        ("xml", ("xml_tag",)),
        (" JSON ", ("json_tool",)),
        ("sentinel", ("sentinel",)),
        ("api_tool_call", ()),
        ("native", ()),
    ],
)
def test_the_environment_variable_names_the_parser(value: str, strategies: tuple[str, ...]) -> None:
    assert PARSER_ENV_VAR == "AUTOBYTEUS_STREAM_PARSER"
    assert config_from_environment({PARSER_ENV_VAR: value}).strategies == strategies


def test_an_unset_variable_means_xml() -> None:
    assert config_from_environment({}).strategies == ("xml_tag",)


def test_the_environment_keeps_the_other_settings_of_a_base_configuration() -> None:
    base = ParserConfig(parse_tool_calls=False, max_tag_length=128)
    config = config_from_environment({PARSER_ENV_VAR: "sentinel"}, base)
    assert (config.strategies, config.parse_tool_calls, config.max_tag_length) == (
        ("sentinel",),
        False,
        128,
    )


def test_process_environment_is_read_only_by_config_from_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(PARSER_ENV_VAR, "json")
    assert config_from_environment().strategies == ("json_tool",)
    # The engine itself never looks: same configuration, same result.
    parser = SegmentParser()
    assert parser.config.strategies == ("xml_tag",)
    assert [s.type for s in parse_segments('{"name": "x"}<run_bash>ls</run_bash>')] == [
        "text",
        "run_bash",
    ]


def test_api_tool_call_parses_no_tags() -> None:
    stream = "<run_bash>ls</run_bash>"
    assert [s.to_dict() for s in parse_segments(stream, ParserConfig(strategies=()))] == [
        {"id": "seg_1", "type": "text", "content": stream, "metadata": {}}
    ]


def test_unknown_names_say_what_is_accepted() -> None:
    with pytest.raises(ConfigurationError, match="xml, json, sentinel"):
        strategies_for("yaml")
    with pytest.raises(ConfigurationError, match="yaml"):
        config_from_environment({PARSER_ENV_VAR: "yaml"})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"strategies": ("xml",)}, "unknown detection strategy 'xml'"),
        ({"max_tag_length": 10}, "at least 64"),
        ({"json_tool_patterns": (" ",)}, "empty patterns"),
        ({"json_tool_patterns": ('"name"',)}, r"must start with \{ or \["),
    ],
)
def test_invalid_configurations_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        ParserConfig(**options)  # type: ignore[arg-type]
