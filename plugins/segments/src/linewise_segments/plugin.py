"""The parser plugin: raw model output lines to TranscriptEntries, as one declared ``agent``.

Three adapter types read the same stream with the engine's strategies:
``model_stream`` (inline xml tags), ``model_stream_json`` (JSON tool calls) and
``model_stream_sentinel`` (sentinel blocks). The package exposes :data:`agent`
as ``linewise_segments.agent`` (the entry points name it there) without
importing this module or the contract until it is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from linewise_contracts import ModelOption

    from ._stream import ModelStreamParser

# The parser class is imported when first read (or a parser is created): reading the
# declaration, as detection does, imports no engine module.
__getattr__, __dir__ = lazy_names(__name__, {"ModelStreamParser": "linewise_segments._stream"})

__all__ = [
    "ModelStreamParser",
    "agent",
    "agent_configuration_doc",
    "create_json_tool_parser",
    "create_sentinel_parser",
    "create_stdout_parser",
    "label",
    "models",
    "sniff",
]

label = "Raw model output (inline tool calls)"

#: Not tied to a model: any model whose text the agent prints unchanged.
models: list[ModelOption] = []

agent_configuration_doc = """\
# model_stream

Adapter: model_stream. Parses the text a model streams when the agent prints it
unchanged: prose with tool calls written inline as tags (`<write_file path=...>`,
`<run_bash>`, `<tool name=...><arguments>...`) and reasoning in `<think>` tags.
The engine also reads JSON tool calls and `[[SEG_START {...}]]` sentinel blocks
when the host selects those strategies (see the end of this text).

Use when:
- The agent's stdout is the model's own output, not one JSON event per line
  (Autobyteus-style agents, a local model behind a plain chat CLI).
- Tool calls are written into that text as XML tags, JSON objects or sentinel
  markers, and you want them as tool calls rather than as prose.

Don't use when:
- The CLI prints JSON events (Claude stream-json, Codex --json, Gemini or Cursor
  stream-json, OpenCode --format json): use that CLI's adapter type.
- The output is an interactive terminal UI: use the generic process parser.
- Tool calls arrive through the provider's native tool channel and the text has
  none: any parser that shows text will do.

Output: assistant and thinking entries as deltas, tool_call entries (toolUseId is
the segment id) for write_file, patch_file, run_bash and every other tool, with
the tool's arguments as input. The stream holds no tool results. It parses
xml tags; the adapter types model_stream_json and model_stream_sentinel parse
JSON tool calls and sentinel blocks instead, and a host can pass
AUTOBYTEUS_STREAM_PARSER (xml, json, sentinel or api_tool_call) to
create_stdout_parser(environ) to choose any strategy.
"""


def create_stdout_parser(environ: Mapping[str, str] | None = None) -> ModelStreamParser:
    """A fresh parser; the ``xml`` strategy unless ``environ`` says otherwise.

    A parser must not touch the process environment, so the host's call,
    ``create_stdout_parser()``, always parses xml tags. A host that lets
    ``AUTOBYTEUS_STREAM_PARSER`` choose passes the mapping explicitly
    (``create_stdout_parser(os.environ)``); an unknown value there does not fail
    the transcript: the parser uses ``xml`` and its first entry says so.
    """
    from ._config import PARSER_ENV_VAR, ConfigurationError, ParserConfig, config_from_environment
    from ._stream import ModelStreamParser

    if environ is None:
        return ModelStreamParser()
    try:
        return ModelStreamParser(config_from_environment(environ))
    except ConfigurationError as error:
        return ModelStreamParser(
            ParserConfig(), notice=f"{PARSER_ENV_VAR} ignored ({error}); parsing as xml"
        )


def create_json_tool_parser() -> ModelStreamParser:
    """A fresh parser of tool calls written as JSON objects (``model_stream_json``)."""
    from ._config import JSON_TOOL, ParserConfig
    from ._stream import ModelStreamParser

    return ModelStreamParser(ParserConfig(strategies=(JSON_TOOL,)))


def create_sentinel_parser() -> ModelStreamParser:
    """A fresh parser of ``[[SEG_START {...}]]`` ... ``[[SEG_END]]`` blocks (sentinel)."""
    from ._config import SENTINEL, ParserConfig
    from ._stream import ModelStreamParser

    return ModelStreamParser(ParserConfig(strategies=(SENTINEL,)))


_MARKERS = ("<write_file", "<run_bash", "<patch_file", "<tool name=", "<think>", "[[SEG_START")


def sniff(lines: Sequence[str]) -> float:
    """How surely these lines are a model's raw text with inline tool calls or reasoning.

    Needs at least one tag or sentinel marker outside JSON, and text that is
    not mostly JSON events (another CLI's log would mention tags inside JSON).
    """
    if not lines:
        return 0.0
    json_lines = sum(1 for line in lines if line.lstrip().startswith("{"))
    marked = any(
        marker in line for line in lines if not line.lstrip().startswith("{") for marker in _MARKERS
    )
    if not marked or json_lines * 4 > len(lines):
        return 0.0
    return 0.85


_PLUGIN = "linewise_segments.plugin"

#: The plugin (contract 1.5): raw model output and the three strategies linewise reads it with.
agent = Agent(
    "model-stream",
    label="Raw model output",
    agent_configuration_doc=agent_configuration_doc,
    formats=[
        Format(
            "model_stream",
            label=label,
            # By reference, as every first-party format names its code (this module).
            create_stdout_parser=f"{_PLUGIN}:create_stdout_parser",
            sniff=sniff,
        ),
        Format(
            "model_stream_json",
            label="Raw model output (JSON tool calls)",
            create_stdout_parser=f"{_PLUGIN}:create_json_tool_parser",
        ),
        Format(
            "model_stream_sentinel",
            label="Raw model output (sentinel blocks)",
            create_stdout_parser=f"{_PLUGIN}:create_sentinel_parser",
        ),
    ],
)
