"""Secrets masked in parsed entries: every string of an entry, streamed fragments merged
first, so neither a JSON escape nor a cut between two deltas lets one through."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, cast

from linewise_contracts.entries import TranscriptEntry

from linewise.render.redaction.redactor import (
    SECRET_NAME,
    Redactor,
    _has_escape,
    _View,
    secret_variables,
)

if TYPE_CHECKING:
    from linewise.render.redaction.detectors import Found

__all__ = ["EntryRedactor", "LineMasker", "mask_label"]

#: The kind a secret-named environment variable's value is counted under.
ENVIRONMENT: Final = "environment"
# Streamed fragments held back at most; past it, all but the last _KEEP are passed on.
_HOLD_MAX: Final = 65_536
_KEEP: Final = 8_192


def mask_label(kind: str) -> str:
    """What a secret of ``kind`` is replaced by: ``[redacted: aws-access-key]``."""
    return f"[redacted: {kind}]"


class EntryRedactor:
    """Masks secrets in entries and texts; counts what it masked, by kind.

    ``values`` are known secrets (the values of secret-named environment
    variables); with ``patterns``, secrets are also found by their content
    (:mod:`linewise.render.redaction.detectors`). ``allow`` lists values that are never masked
    (false positives). Consecutive streamed fragments (``delta``) of one kind
    are held and passed on as one merged fragment, masked as a whole.
    """

    def __init__(
        self, values: Iterable[str] = (), *, patterns: bool = False, allow: Iterable[str] = ()
    ) -> None:
        self._values = Redactor(values)
        self.patterns = patterns
        self.allow = tuple(allow)
        self._allow = frozenset(value.encode("utf-8", "surrogateescape") for value in self.allow)
        self.active = self._values.active or patterns
        self.counts: dict[str, int] = {}
        self._held: list[TranscriptEntry] = []
        self._held_size = 0

    @classmethod
    def for_environment(
        cls, env: Mapping[str, str], *, patterns: bool = False, allow: Iterable[str] = ()
    ) -> EntryRedactor:
        """A redactor for ``env``'s secret values (and, with ``patterns``, content)."""
        return cls(secret_variables(env).values(), patterns=patterns, allow=allow)

    @property
    def masked(self) -> int:
        """How many secrets were masked."""
        return sum(self.counts.values())

    # -- text ---------------------------------------------------------------------

    def text(self, text: str) -> str:
        """``text`` with every secret masked."""
        if not text or not self.active:
            return text
        data = text.encode("utf-8", "surrogateescape")
        return self._mask(data).decode("utf-8", "surrogateescape")

    def _mask(self, data: bytes, found: list[Found] | None = None) -> bytes:
        view = _View(data, len(data)) if _has_escape(data) else None
        seen = view.text if view is not None else data
        spans = self._spans(seen) if found is None else found
        if not spans:
            return data
        out: list[bytes] = []
        start = 0
        for found_first, found_last, kind in spans:
            first, last = found_first, found_last
            if view is not None:
                first = view.origin(found_first, len(data))
                last = view.origin_after(found_last - 1, len(data))
            out.append(data[start:first])
            out.append(mask_label(kind).encode())
            if view is not None:  # colour codes inside stay, after the mask
                out += [data[a:b] for a, b in view.escapes_within(first, last)]
            self.counts[kind] = self.counts.get(kind, 0) + 1
            start = last
        out.append(data[start:])
        return b"".join(out)

    def _spans(self, text: bytes) -> list[Found]:
        """The secrets in ``text`` (as matching sees it), in order, none overlapping."""
        found: list[Found] = []
        pattern = self._values._bytes
        if pattern is not None:
            found += [(m.start(), m.end(), ENVIRONMENT) for m in pattern.finditer(text)]
        if self.patterns:
            # The patterns are compiled when content is first looked at, not at start-up.
            from linewise.render.redaction.detectors import find_secrets

            found += find_secrets(text)
        if self._allow:
            found = [item for item in found if text[item[0] : item[1]] not in self._allow]
        if len(found) < 2:
            return found
        found.sort(key=lambda item: (item[0], -item[1]))
        kept: list[Found] = []
        for item in found:
            if kept and item[0] < kept[-1][1]:
                if item[1] > kept[-1][1]:
                    kept[-1] = (kept[-1][0], item[1], kept[-1][2])
                continue
            kept.append(item)
        return kept

    def _value(self, value: Any, key: str | None = None) -> Any:
        """``value`` (a tool input, however deep) with the secrets in its strings masked.

        A string under a secret-named key (``{"API_KEY": "..."}``) is masked whole
        when it looks like a secret. A loop with its own stack, not recursion:
        inputs may nest past Python's recursion limit.
        """
        if type(value) is str:
            return self._string(value, key)
        if type(value) is not list and type(value) is not dict:
            return value
        root: Any = [] if type(value) is list else {}
        stack: list[tuple[Any, Any]] = [(value, root)]
        while stack:
            source, target = stack.pop()
            items = enumerate(source) if type(source) is list else source.items()
            for name, item in items:
                masked: Any = item
                if type(item) is str:
                    masked = self._string(item, name if type(name) is str else None)
                elif type(item) is list or type(item) is dict:
                    masked = [] if type(item) is list else {}
                    stack.append((item, masked))
                if type(target) is list:
                    target.append(masked)
                else:
                    target[self.text(name) if type(name) is str else name] = masked
        return root

    def _string(self, value: str, key: str | None) -> str:
        if key is not None and self.patterns and SECRET_NAME.search(key):
            from linewise.render.redaction.detectors import looks_secret

            data = value.encode("utf-8", "surrogateescape")
            if looks_secret(data) and data not in self._allow:
                self.counts["secret-assignment"] = self.counts.get("secret-assignment", 0) + 1
                return mask_label("secret-assignment")
        return self.text(value)

    # -- entries --------------------------------------------------------------------

    def entry(self, entry: TranscriptEntry) -> list[TranscriptEntry]:
        """The entries to pass on now, masked: ``entry`` itself, or held fragments first
        (and nothing yet when ``entry`` is a fragment that may continue)."""
        if not self.active:
            return [entry]
        out: list[TranscriptEntry] = []
        if entry.get("delta") is True and entry["kind"] in ("assistant", "thinking"):
            if self._held and not _same_stream(self._held[0], entry):
                out += self.flush()
            self._held.append(entry)
            self._held_size += len(entry.get("text", ""))
            if self._held_size > _HOLD_MAX:
                out += self._release(keep=_KEEP)
            return out
        out += self.flush()
        out.append(self._entry(entry))
        return out

    def flush(self) -> list[TranscriptEntry]:
        """The held fragments, merged and masked (before other entries, at the end)."""
        return self._release(keep=0) if self._held else []

    def _release(self, *, keep: int) -> list[TranscriptEntry]:
        held, self._held, self._held_size = self._held, [], 0
        merged = "".join(cast("str", e.get("text", "")) for e in held)
        data = merged.encode("utf-8", "surrogateescape")
        view = _View(data, len(data)) if _has_escape(data) else None
        seen = view.text if view is not None else data
        spans = self._spans(seen)
        cut = len(seen)
        if keep:
            # Pass on what is surely complete: up to a point no secret found spans.
            cut = max(0, len(seen) - keep)
            for first, last, _ in spans:
                if first < cut < last:
                    cut = first
            spans = [span for span in spans if span[1] <= cut]
            origin = view.origin(cut, len(data)) if view is not None else cut
            while origin < len(data) and (data[origin] & 0xC0) == 0x80:
                origin += 1  # never inside a character
            rest = data[origin:].decode("utf-8", "surrogateescape")
            data = data[:origin]
            if rest:
                tail = cast("TranscriptEntry", {**held[-1], "text": rest})
                self._held, self._held_size = [tail], len(rest)
            if view is not None:
                spans = self._spans(_View(data, len(data)).text)
        text = self._mask(data, spans).decode("utf-8", "surrogateescape")
        if not text:
            return []
        return [cast("TranscriptEntry", {**held[0], "text": text})]

    def _entry(self, entry: TranscriptEntry) -> TranscriptEntry:
        changed: dict[str, Any] = {}
        for field, value in entry.items():
            if field in ("kind", "ts", "delta", "isError", "toolUseId", "parentToolUseId"):
                continue
            if field == "input":
                masked = self._value(value)
            elif type(value) is str:
                masked = self.text(value)
            elif type(value) is list:
                masked = self._value(value)
            else:
                continue
            if masked != value:
                changed[field] = masked
        if not changed:
            return entry
        return cast("TranscriptEntry", {**entry, **changed})


def _same_stream(first: TranscriptEntry, entry: TranscriptEntry) -> bool:
    return first["kind"] == entry["kind"] and first.get("parentToolUseId") == entry.get(
        "parentToolUseId"
    )


class LineMasker:
    """Masks a byte stream (a saved log) line by line: a secret is found within its line.

    A line longer than ``limit`` bytes is masked and passed on in pieces of
    that size, so memory stays bounded.
    """

    def __init__(self, redactor: EntryRedactor, limit: int) -> None:
        self._redactor = redactor
        self._limit = limit
        self._pending = b""

    def feed(self, data: bytes) -> bytes:
        """The masked bytes of the lines ``data`` completes."""
        pending = self._pending + data
        cut = pending.rfind(b"\n") + 1
        if not cut:
            if len(pending) <= self._limit:
                self._pending = pending
                return b""
            cut = len(pending)
        self._pending = pending[cut:]
        return self._redactor._mask(pending[:cut])

    def flush(self) -> bytes:
        """The last, unfinished line, masked."""
        pending, self._pending = self._pending, b""
        return self._redactor._mask(pending) if pending else b""
