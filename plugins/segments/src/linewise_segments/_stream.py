"""The plugin's parser: raw model output lines through the engine, to TranscriptEntries.

:mod:`linewise_segments.plugin` declares the formats and creates these parsers; the
class lives here so that reading the declaration (detection) imports no engine module.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from linewise_contracts.extract import stdout_entries

from ._coalesce import Segment
from ._config import ParserConfig
from ._events import SegmentContent, SegmentEnd, SegmentStart, SegmentType
from ._invocations import tool_invocations
from ._parser import SegmentParser

if TYPE_CHECKING:
    from linewise_contracts import JsonValue, TranscriptEntry

    from ._events import Event

__all__ = ["ModelStreamParser"]


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
