"""Whole transcripts: run log chunks through a session, with deltas merged."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from linewise_contracts.entries import TranscriptEntry

from linewise.plugins.registry import Registry
from linewise.stream.session import Diagnostics, TranscriptSession, merge_deltas

__all__ = ["Transcript", "build_transcript", "open_session"]


@dataclass(frozen=True, slots=True)
class Transcript:
    """A finished transcript and how its input was accounted for."""

    adapter_type: str
    entries: list[TranscriptEntry]
    diagnostics: Diagnostics


def open_session(
    adapter_type: str, *, registry: Registry | None = None, **options: Any
) -> TranscriptSession:
    """A :class:`TranscriptSession` for ``adapter_type`` with a fresh parser instance.

    The plugin is imported on first use; a plugin that is refused or fails to
    load is replaced by the generic parser (see ``session.diagnostics``).
    ``adapter_type="auto"`` detects the format from the first stdout lines,
    holding output back until then (``session.detection`` says what was
    chosen and why). ``options`` are :class:`TranscriptSession` keyword arguments.
    """
    from linewise.stream.pipeline import new_session

    return new_session(adapter_type, registry=registry, **options)


def build_transcript(
    chunks: Iterable[Mapping[str, Any]],
    adapter_type: str,
    *,
    registry: Registry | None = None,
    merge: bool = True,
    censor_usernames: bool = False,
    **options: Any,
) -> Transcript:
    """Build a transcript from run log chunks ``{"ts", "stream", "chunk"}``.

    ``stream`` is ``stdout``, ``stderr`` or ``system``. Consecutive delta
    entries of one kind are merged unless ``merge`` is False. ``adapter_type``
    may be ``"auto"``: the first stdout lines pick it (see ``detect_adapter``).
    ``censor_usernames`` masks user names in home-directory paths
    (``/Users/dotta`` becomes ``/Users/d****``), as the reference builder can.
    """
    session = open_session(adapter_type, registry=registry, **options)
    entries: list[TranscriptEntry] = []
    last_ts: str | None = None
    for chunk in chunks:
        stream = chunk.get("stream", "stdout")
        text = chunk.get("chunk", "")
        ts = chunk.get("ts")
        last_ts = ts if isinstance(ts, str) else last_ts
        # An unknown stream is refused by receive (ValueError), naming the three it takes.
        entries.extend(session.receive(stream, str(text) if stream == "system" else text, last_ts))
    entries.extend(session.close(last_ts))
    if censor_usernames:
        from linewise.transcript.privacy import censor_usernames as censor

        entries = [censor(entry) for entry in entries]
    return Transcript(
        adapter_type=session.adapter_type,
        entries=merge_deltas(entries) if merge else entries,
        diagnostics=session.diagnostics,
    )
