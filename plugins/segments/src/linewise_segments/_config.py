"""Parser configuration, and the one place that reads the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ._handlers import ToolHandlerRegistry

if TYPE_CHECKING:
    from collections.abc import Mapping

#: The environment variable the streaming-parser design names for choosing a
#: strategy: ``xml`` (default), ``json``, ``sentinel`` or ``api_tool_call``
#: (legacy alias ``native``).
PARSER_ENV_VAR = "AUTOBYTEUS_STREAM_PARSER"

#: Detection strategies, by the names the reference configuration uses.
XML_TAG = "xml_tag"
JSON_TOOL = "json_tool"
SENTINEL = "sentinel"
DETECTION_STRATEGIES = (XML_TAG, JSON_TOOL, SENTINEL)

#: Parser names (what the environment variable holds) to detection strategies.
#: ``api_tool_call`` detects nothing: tool calls arrive through the provider's
#: own tool channel, so every character of the stream is text.
PARSER_STRATEGIES: Mapping[str, tuple[str, ...]] = {
    "xml": (XML_TAG,),
    "json": (JSON_TOOL,),
    "sentinel": (SENTINEL,),
    "api_tool_call": (),
    "native": (),
}

#: Prefixes (whitespace between JSON tokens ignored) that make a JSON value in
#: the stream a tool call rather than prose.
DEFAULT_JSON_TOOL_PATTERNS = (
    '{"tool"',
    '{"tool_calls"',
    '{"tools"',
    '{"function"',
    '{"name"',
    '[{"tool"',
    '[{"function"',
    '[{"name"',
)


class ConfigurationError(ValueError):
    """A parser configuration value is not one the engine understands."""


@dataclass(frozen=True, slots=True)
class ParserConfig:
    """How a :class:`SegmentParser` reads its stream.

    ``strategies`` lists the detection strategies in priority order (any of
    ``xml_tag``, ``json_tool``, ``sentinel``; empty means plain text only).
    ``parse_tool_calls`` off turns every tool-call syntax back into text (reasoning
    blocks are still recognised). ``max_tag_length`` bounds what the parser may
    hold while deciding whether something is an opening tag or a sentinel header;
    longer candidates are text, which is what bounds memory.
    """

    strategies: tuple[str, ...] = (XML_TAG,)
    parse_tool_calls: bool = True
    json_tool_patterns: tuple[str, ...] = DEFAULT_JSON_TOOL_PATTERNS
    reasoning_tags: tuple[str, ...] = ("think", "thinking")
    tool_handlers: ToolHandlerRegistry = field(default_factory=ToolHandlerRegistry)
    segment_id_prefix: str = "seg_"
    max_tag_length: int = 65536

    def __post_init__(self) -> None:
        unknown = [name for name in self.strategies if name not in DETECTION_STRATEGIES]
        if unknown:
            raise ConfigurationError(
                f"unknown detection strategy {unknown[0]!r}: "
                f"use any of {', '.join(DETECTION_STRATEGIES)}"
            )
        if self.max_tag_length < 64:
            raise ConfigurationError("max_tag_length must be at least 64 characters")
        if any(not pattern.strip() for pattern in self.json_tool_patterns):
            raise ConfigurationError("json_tool_patterns must not contain empty patterns")
        for pattern in self.json_tool_patterns:
            if pattern.strip()[0] not in "{[":
                raise ConfigurationError(
                    f"json tool pattern {pattern!r} must start with {{ or [ (it is a JSON prefix)"
                )


def strategies_for(parser_name: str) -> tuple[str, ...]:
    """The detection strategies of a parser name (``xml``, ``json``, ``sentinel``, ...)."""
    key = parser_name.strip().lower()
    if key not in PARSER_STRATEGIES:
        raise ConfigurationError(
            f"unknown stream parser {parser_name!r}: use one of {', '.join(PARSER_STRATEGIES)}"
        )
    return PARSER_STRATEGIES[key]


def config_from_environment(
    environ: Mapping[str, str] | None = None, base: ParserConfig | None = None
) -> ParserConfig:
    """``base`` (defaults if omitted) with the strategies ``AUTOBYTEUS_STREAM_PARSER`` names.

    An unset or empty variable means ``xml``. This is the only function that
    looks at the environment; the engine never does, so a given configuration
    always parses a given stream the same way.
    """
    env = os.environ if environ is None else environ
    name = env.get(PARSER_ENV_VAR, "").strip() or "xml"
    return replace(base or ParserConfig(), strategies=strategies_for(name))
