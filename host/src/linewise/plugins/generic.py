"""The generic parser: every line becomes a raw stdout entry, as the reference host does."""

from __future__ import annotations

from typing import Final

from linewise_contracts.entries import TranscriptEntry

__all__ = ["GENERIC_ADAPTER_TYPE", "GenericParser", "parse_generic_line"]

#: The built-in adapter type served by the generic parser (the reference's "process").
GENERIC_ADAPTER_TYPE: Final = "process"


def parse_generic_line(line: str, ts: str) -> list[TranscriptEntry]:
    """``[{"kind": "stdout", "ts": ts, "text": line}]``."""
    return [{"kind": "stdout", "ts": ts, "text": line}]


class GenericParser:
    """The generic parser in the stateful parser shape (it has no state)."""

    __slots__ = ()

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        return [{"kind": "stdout", "ts": ts, "text": line}]

    def reset(self) -> None:
        return None
