"""linewise-segments: split streamed raw model output into text, reasoning and tool segments.

The engine is this package (no I/O, no dependencies); the linewise parser
plugin is :mod:`linewise_segments.plugin`, whose one declared ``agent``
(contract 1.5) is also ``linewise_segments.agent``, imported when first asked
for, so using the engine imports neither the plugin nor the contract.
"""

from typing import TYPE_CHECKING

from ._coalesce import Segment, coalesce, parse_segments
from ._config import (
    DEFAULT_JSON_TOOL_PATTERNS,
    DETECTION_STRATEGIES,
    JSON_TOOL,
    PARSER_ENV_VAR,
    PARSER_STRATEGIES,
    SENTINEL,
    XML_TAG,
    ConfigurationError,
    ParserConfig,
    config_from_environment,
    strategies_for,
)
from ._events import Event, SegmentContent, SegmentEnd, SegmentStart, SegmentType
from ._handlers import (
    BUILTIN_TOOL_HANDLERS,
    ArgumentStreamHandler,
    RawToolHandler,
    ToolHandler,
    ToolHandlerRegistry,
)
from ._invocations import ToolInvocation, json_calls, tool_invocations, xml_arguments
from ._parser import ParserFinishedError, SegmentParser
from ._version import __version__

if TYPE_CHECKING:
    from linewise_contracts.agent import Agent

__all__ = [
    "BUILTIN_TOOL_HANDLERS",
    "DEFAULT_JSON_TOOL_PATTERNS",
    "DETECTION_STRATEGIES",
    "JSON_TOOL",
    "PARSER_ENV_VAR",
    "PARSER_STRATEGIES",
    "SENTINEL",
    "XML_TAG",
    "ArgumentStreamHandler",
    "ConfigurationError",
    "Event",
    "ParserConfig",
    "ParserFinishedError",
    "RawToolHandler",
    "Segment",
    "SegmentContent",
    "SegmentEnd",
    "SegmentParser",
    "SegmentStart",
    "SegmentType",
    "ToolHandler",
    "ToolHandlerRegistry",
    "ToolInvocation",
    "__version__",
    "agent",
    "coalesce",
    "config_from_environment",
    "json_calls",
    "parse_segments",
    "strategies_for",
    "tool_invocations",
    "xml_arguments",
]


def __getattr__(name: str) -> "Agent":
    # The entry points name linewise_segments:agent.<adapter type>: the plugin, when asked.
    if name == "agent":
        from linewise_segments.plugin import agent

        return agent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
