"""How surely the first lines of a log are Paperclip Runner Protocol stdout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import parse_json_object

__all__ = ["PRP_LINE_TYPE", "sniff"]

#: The ``type`` of a Paperclip Runner Protocol stdout line (defined beside the sniff,
#: which detection imports alone).
PRP_LINE_TYPE: Final = "paperclip.prp.event"


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely a Paperclip runner wrote ``lines``.

    The runner's lines are envelopes, ``{"type": "paperclip.prp.event",
    "event": {"eventType": ...}}``, a shape no agent CLI prints; its other
    ``paperclip.*`` lines (runtime input metrics) and plain text are tolerated
    while the envelopes are at least half of the lines.
    """
    envelopes = others = 0
    for line in lines:
        if not line.strip():
            continue
        value = parse_json_object(line)
        if value is None:
            others += 1
            continue
        kind = value.get("type")
        event = value.get("event")
        if kind == PRP_LINE_TYPE and type(event) is dict and type(event.get("eventType")) is str:
            envelopes += 1
        elif type(kind) is str and kind.startswith("paperclip."):
            continue
        else:
            others += 1
    if not envelopes or others > envelopes:
        return 0.0
    return 0.99 if not others else 0.9
