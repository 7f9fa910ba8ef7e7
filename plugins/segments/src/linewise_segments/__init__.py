"""linewise-segments: split streamed raw model output into text, reasoning and tool segments.

The engine is this package (no I/O, no dependencies); the linewise parser
plugin is :mod:`linewise_segments.plugin`, whose one declared ``agent``
(contract 1.5) is also ``linewise_segments.agent``, imported when first asked
for, so using the engine imports neither the plugin nor the contract. The engine's
names too are imported when first read, so detection (which reads ``agent``) and a
program using part of the engine import only what they use.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:  # the names the table below serves, for type checkers
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
    from .plugin import agent

_COALESCE = "linewise_segments._coalesce"
_CONFIG = "linewise_segments._config"
_EVENTS = "linewise_segments._events"
_HANDLERS = "linewise_segments._handlers"
_INVOCATIONS = "linewise_segments._invocations"
_PARSER = "linewise_segments._parser"
# The public names and their modules, imported when first read (PEP 562): detection reads
# ``agent`` alone. Not linewise_contracts.lazy: using the engine imports no contract.
_LAZY: dict[str, str] = {
    "BUILTIN_TOOL_HANDLERS": _HANDLERS,
    "DEFAULT_JSON_TOOL_PATTERNS": _CONFIG,
    "DETECTION_STRATEGIES": _CONFIG,
    "JSON_TOOL": _CONFIG,
    "PARSER_ENV_VAR": _CONFIG,
    "PARSER_STRATEGIES": _CONFIG,
    "SENTINEL": _CONFIG,
    "XML_TAG": _CONFIG,
    "ArgumentStreamHandler": _HANDLERS,
    "ConfigurationError": _CONFIG,
    "Event": _EVENTS,
    "ParserConfig": _CONFIG,
    "ParserFinishedError": _PARSER,
    "RawToolHandler": _HANDLERS,
    "Segment": _COALESCE,
    "SegmentContent": _EVENTS,
    "SegmentEnd": _EVENTS,
    "SegmentParser": _PARSER,
    "SegmentStart": _EVENTS,
    "SegmentType": _EVENTS,
    "ToolHandler": _HANDLERS,
    "ToolHandlerRegistry": _HANDLERS,
    "ToolInvocation": _INVOCATIONS,
    # The entry points name linewise_segments:agent.<adapter type>: the plugin, when asked.
    "agent": "linewise_segments.plugin",
    "coalesce": _COALESCE,
    "config_from_environment": _CONFIG,
    "json_calls": _INVOCATIONS,
    "parse_segments": _COALESCE,
    "strategies_for": _CONFIG,
    "tool_invocations": _INVOCATIONS,
    "xml_arguments": _INVOCATIONS,
}

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # kept: the next read is a plain attribute lookup
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
