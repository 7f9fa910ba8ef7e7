"""The parser plugin: raw model output lines to TranscriptEntries, as one declared ``agent``.

Three adapter types read the same stream with the engine's strategies:
``model_stream`` (inline xml tags), ``model_stream_json`` (JSON tool calls) and
``model_stream_sentinel`` (sentinel blocks). The package exposes :data:`agent`
as ``linewise_segments.agent`` (the entry points name it there) without
importing this module or the contract until it is asked for.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.extract import stdout_entries

from ._coalesce import Segment
from ._config import (
    JSON_TOOL,
    PARSER_ENV_VAR,
    SENTINEL,
    ConfigurationError,
    ParserConfig,
    config_from_environment,
)
from ._events import SegmentContent, SegmentEnd, SegmentStart, SegmentType
from ._invocations import tool_invocations
from ._parser import SegmentParser

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from linewise_contracts import JsonValue, ModelOption, TranscriptEntry

    from ._events import Event

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


class ModelStreamParser:
    """A stateful stdout parser: each raw line, newline included, is a chunk for the engine.

    Text and reasoning stream out as delta entries as soon as the engine
    releases them; a tool call is one ``tool_call`` entry when its block is
    complete. At the end of the stream the host calls :meth:`finish`, which
    closes what is open: a cut-off tool call carries ``"truncated": true`` in
    its input, so it is never mistaken for a complete one.
    """

    __slots__ = ("_config", "_engine", "_notice", "_streaming", "_tools")

    #: Lines exactly as printed (the contract's StdoutParser.raw_lines): in raw
    #: model text, indentation, blank lines and line ends are content.
    raw_lines = True

    def __init__(self, config: ParserConfig | None = None, notice: str = "") -> None:
        self._config = config or ParserConfig()
        self._engine = SegmentParser(self._config)
        self._notice = notice
        #: Open text or reasoning segments: id -> entry kind.
        self._streaming: dict[str, str] = {}
        #: Open tool segments, with their content so far.
        self._tools: dict[str, tuple[Segment, list[str]]] = {}

    def parse_line(self, line: str, ts: str, /) -> list[TranscriptEntry]:
        """Entries for one raw stdout line (with its line end); never raises."""
        try:
            entries = self._entries(self._engine.feed(line), ts)
        except Exception:  # a bug must not cost the transcript its line
            self.reset()
            return stdout_entries(line, ts)
        if self._notice:
            entries.insert(0, {"kind": "system", "ts": ts, "text": self._notice})
            self._notice = ""
        return entries

    def finish(self, ts: str) -> list[TranscriptEntry]:
        """End of stream (the contract's optional ``finish``): flush and close everything."""
        try:
            entries = self._entries(self._engine.finalize(), ts)
        except Exception:
            entries = []
        self.reset()
        return entries

    def reset(self) -> None:
        """Forget the stream so far."""
        self._engine = SegmentParser(self._config)
        self._streaming.clear()
        self._tools.clear()

    def _entries(self, events: list[Event], ts: str) -> list[TranscriptEntry]:
        entries: list[TranscriptEntry] = []
        streaming = self._streaming
        for event in events:
            if isinstance(event, SegmentContent):
                kind = streaming.get(event.segment_id)
                if kind == "assistant":
                    entries.append(
                        {"kind": "assistant", "ts": ts, "text": event.delta, "delta": True}
                    )
                elif kind == "thinking":
                    entries.append(
                        {"kind": "thinking", "ts": ts, "text": event.delta, "delta": True}
                    )
                else:
                    self._tools[event.segment_id][1].append(event.delta)
            elif isinstance(event, SegmentStart):
                if event.segment_type is SegmentType.TEXT:
                    streaming[event.segment_id] = "assistant"
                elif event.segment_type is SegmentType.REASONING:
                    streaming[event.segment_id] = "thinking"
                else:
                    segment = Segment(
                        event.segment_id, event.segment_type, "", dict(event.metadata)
                    )
                    self._tools[event.segment_id] = (segment, [])
            elif streaming.pop(event.segment_id, None) is None:
                entries.extend(self._tool_calls(event, ts))
        return entries

    def _tool_calls(self, end: SegmentEnd, ts: str) -> list[TranscriptEntry]:
        segment, parts = self._tools.pop(end.segment_id)
        segment.content = "".join(parts)
        segment.metadata.update(end.metadata)
        segment.truncated = end.truncated
        calls: list[TranscriptEntry] = []
        for call in tool_invocations(segment, self._config.tool_handlers):
            arguments = {key: _json_value(value) for key, value in call.arguments.items()}
            if call.truncated:
                arguments["truncated"] = True
            calls.append(
                {
                    "kind": "tool_call",
                    "ts": ts,
                    "name": call.name,
                    "input": arguments,
                    "toolUseId": call.id,
                }
            )
        if not calls and segment.content:
            # JSON that looked like a tool call but is not one: show what the model wrote.
            calls.append({"kind": "assistant", "ts": ts, "text": segment.content})
        return calls


def _json_value(value: object) -> JsonValue:
    """Arguments come from JSON or XML text; keep them JSON-shaped whatever they hold."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, list | tuple):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _json_value(item) for key, item in value.items()}
    return str(value)


def create_stdout_parser(environ: Mapping[str, str] | None = None) -> ModelStreamParser:
    """A fresh parser; the ``xml`` strategy unless ``environ`` says otherwise.

    A parser must not touch the process environment, so the host's call,
    ``create_stdout_parser()``, always parses xml tags. A host that lets
    ``AUTOBYTEUS_STREAM_PARSER`` choose passes the mapping explicitly
    (``create_stdout_parser(os.environ)``); an unknown value there does not fail
    the transcript: the parser uses ``xml`` and its first entry says so.
    """
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
    return ModelStreamParser(ParserConfig(strategies=(JSON_TOOL,)))


def create_sentinel_parser() -> ModelStreamParser:
    """A fresh parser of ``[[SEG_START {...}]]`` ... ``[[SEG_END]]`` blocks (sentinel)."""
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


#: The plugin (contract 1.5): raw model output and the three strategies linewise reads it with.
agent = Agent(
    "model-stream",
    label="Raw model output",
    agent_configuration_doc=agent_configuration_doc,
    formats=[
        Format(
            "model_stream",
            label=label,
            create_stdout_parser=create_stdout_parser,
            sniff=sniff,
        ),
        Format(
            "model_stream_json",
            label="Raw model output (JSON tool calls)",
            create_stdout_parser=create_json_tool_parser,
        ),
        Format(
            "model_stream_sentinel",
            label="Raw model output (sentinel blocks)",
            create_stdout_parser=create_sentinel_parser,
        ),
    ],
)
